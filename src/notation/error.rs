//! `NotationError`: why a move text could not be turned into one legal move.

use std::fmt;

use crate::board::{Color, Move, PieceKind};
use crate::quote::quoted;

/// Why a move in ICCS, WXF or Chinese notation was refused; every variant keeps the text it was
/// given so the message can quote it (its start, when it is long).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not read as a move in any notation tried; `reason` says where it went wrong.
    Unreadable {
        /// The text as given.
        text: String,
        /// What was wrong with it.
        reason: UnreadableReason,
    },
    /// The text names a piece the side to move does not have, such as tandem cannons that are
    /// not on the board.
    NoSuchPiece {
        /// The text as given.
        text: String,
        /// Which piece is missing.
        reason: MissingPiece,
    },
    /// The text reads well, but no legal move fits it.
    NoLegalMatch {
        /// The text as given.
        text: String,
    },
    /// More than one legal move fits the text.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves that fit.
        matches: Vec<Move>,
    },
    /// A move of a game to be written is not legal where it is played.
    IllegalMove {
        /// The offending move.
        mv: Move,
        /// Its place in the game, 1 for the first move played.
        ply: usize,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable { text, reason } => {
                write!(f, "{} is not a move: {reason}", quoted(text))
            }
            NotationError::NoSuchPiece { text, reason } => write!(f, "{}: {reason}", quoted(text)),
            NotationError::NoLegalMatch { text } => write!(f, "no legal move matches {}", quoted(text)),
            NotationError::Ambiguous { text, matches } => {
                let names: Vec<String> = matches.iter().map(|m| m.to_string()).collect();
                write!(f, "{} is ambiguous: it fits {}", quoted(text), names.join(", "))
            }
            NotationError::IllegalMove { mv, ply } => {
                write!(f, "move {mv} at ply {ply} is not legal in its position")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Why a text does not read as a move (`NotationError::Unreadable`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnreadableReason {
    /// Not ICCS's two squares.
    Iccs,
    /// WXF that is not three or four characters long.
    WxfLength,
    /// WXF whose last character is not a digit 1-9.
    WxfNumber(char),
    /// WXF whose operator is not `+`, `-` or `=`.
    WxfOperator(char),
    /// WXF whose characters before the operator name no piece.
    WxfPiece(String),
    /// Chinese notation that is not four characters long (spaces aside).
    ChineseLength,
    /// Chinese notation whose third character is not 进, 退 or 平.
    ChineseVerb(char),
    /// Chinese notation whose last character is not a number 1-9.
    ChineseNumber(char),
    /// Chinese notation whose first two characters name no piece.
    ChinesePiece(String),
    /// An ASCII text that is neither ICCS nor WXF: why it is not WXF.
    NeitherIccsNorWxf(Box<UnreadableReason>),
}

impl fmt::Display for UnreadableReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnreadableReason::Iccs => write!(f, "ICCS is two squares such as h2e2, files a-i and ranks 0-9"),
            UnreadableReason::WxfLength => write!(f, "WXF is three or four characters such as C2=5"),
            UnreadableReason::WxfNumber(c) => write!(f, "'{c}' at the end is not a digit 1-9"),
            UnreadableReason::WxfOperator(c) => write!(f, "'{c}' is not an operator (+, - or =)"),
            UnreadableReason::WxfPiece(prefix) | UnreadableReason::ChinesePiece(prefix) => {
                write!(f, "'{prefix}' does not name a piece")
            }
            UnreadableReason::ChineseLength => {
                write!(f, "Chinese notation is four characters such as 炮二平五")
            }
            UnreadableReason::ChineseVerb(c) => write!(f, "'{c}' is not 进, 退 or 平"),
            UnreadableReason::ChineseNumber(c) => write!(f, "'{c}' at the end is not a number 1-9"),
            UnreadableReason::NeitherIccsNorWxf(wxf) => write!(f, "neither ICCS (like h2e2) nor WXF: {wxf}"),
        }
    }
}

/// Why the piece a move names is not on the board (`NotationError::NoSuchPiece`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissingPiece {
    /// No piece of the kind on the file.
    NoneOnFile {
        /// The side to move.
        color: Color,
        /// The kind named.
        kind: PieceKind,
        /// The file, as that side numbers it.
        file: u8,
    },
    /// No file (or not the file named) holds two pieces of the kind.
    NoTandem {
        /// The kind named.
        kind: PieceKind,
        /// The file named, if any.
        file: Option<u8>,
    },
    /// No file (or not the file named) holds as many pawns as the mark counts.
    TooFew {
        /// The kind named.
        kind: PieceKind,
        /// The file named, if any.
        file: Option<u8>,
        /// How many the mark needs on one file.
        count: u8,
    },
    /// No file (or not the file named) holds three or five of the kind, so none has a middle one.
    NoMiddle {
        /// The kind named.
        kind: PieceKind,
        /// The file named, if any.
        file: Option<u8>,
    },
}

impl fmt::Display for MissingPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |kind: &PieceKind| format!("{}s", kind.name());
        match self {
            MissingPiece::NoneOnFile { color, kind, file } => {
                write!(f, "{} has no {} on file {file}", color.name(), kind.name())
            }
            MissingPiece::NoTandem { kind, file: None } => write!(f, "there are no tandem {}", plural(kind)),
            MissingPiece::NoTandem { kind, file: Some(file) } => {
                write!(f, "there are no tandem {} on file {file}", plural(kind))
            }
            MissingPiece::TooFew { kind, file: None, count } => {
                write!(f, "no file holds {count} {}", plural(kind))
            }
            MissingPiece::TooFew { kind, file: Some(file), count } => {
                write!(f, "file {file} holds fewer than {count} {}", plural(kind))
            }
            MissingPiece::NoMiddle { kind, file: None } => {
                write!(f, "no file holds three or five {}", plural(kind))
            }
            MissingPiece::NoMiddle { kind, file: Some(file) } => {
                write!(f, "file {file} does not hold three or five {}", plural(kind))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_piece_messages() {
        let pawn = PieceKind::Pawn;
        let cases = [
            (
                MissingPiece::NoneOnFile { color: Color::Red, kind: PieceKind::Rook, file: 5 },
                "red has no rook on file 5",
            ),
            (MissingPiece::NoTandem { kind: PieceKind::Cannon, file: None }, "there are no tandem cannons"),
            (MissingPiece::NoTandem { kind: pawn, file: Some(7) }, "there are no tandem pawns on file 7"),
            (MissingPiece::TooFew { kind: pawn, file: None, count: 4 }, "no file holds 4 pawns"),
            (MissingPiece::TooFew { kind: pawn, file: Some(3), count: 3 }, "file 3 holds fewer than 3 pawns"),
            (MissingPiece::NoMiddle { kind: pawn, file: None }, "no file holds three or five pawns"),
            (
                MissingPiece::NoMiddle { kind: pawn, file: Some(2) },
                "file 2 does not hold three or five pawns",
            ),
        ];
        for (reason, message) in cases {
            assert_eq!(reason.to_string(), message);
        }
        let iccs = UnreadableReason::Iccs.to_string();
        assert_eq!(iccs, "ICCS is two squares such as h2e2, files a-i and ranks 0-9");
    }
}
