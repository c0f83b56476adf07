//! Move notation: ICCS, WXF and Chinese; PGN read and write; lines of ICCS moves from a start.
//!
//! Every parser takes the position the move is played in and returns a legal move or an error
//! naming what was wrong; the WXF and Chinese parsers resolve front/rear marks and missing details
//! against the legal moves, so a text is accepted only when exactly one legal move fits it.
//! Formatters take the position before the move, as the notations depend on where the other
//! pieces stand.

pub mod chinese;
mod designation;
pub mod diagram;
mod error;
pub mod iccs;
pub mod line;
pub mod pgn;
pub mod wxf;

use std::fmt;
use std::str::FromStr;

use crate::board::{Move, Position};

pub use error::{MissingPiece, NotationError, UnreadableReason};
pub use line::{play_iccs, MoveListError, Opening, OpeningError};
pub use pgn::{read_pgn, write_pgn, PgnError, PgnGame, PgnGames, PgnMove};

/// The three move notations this module reads and writes.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum MoveNotation {
    /// Coordinates, `h2e2`.
    Iccs,
    /// WXF, `C2=5`.
    Wxf,
    /// Chinese characters, `炮二平五`.
    Chinese,
}

impl MoveNotation {
    /// All notations, in the order listed above.
    pub const ALL: [MoveNotation; 3] = [MoveNotation::Iccs, MoveNotation::Wxf, MoveNotation::Chinese];

    /// The lower-case name accepted by `from_str`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveNotation::Iccs => "iccs",
            MoveNotation::Wxf => "wxf",
            MoveNotation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for MoveNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--notation` (or `--pgn-notation`) that names no notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown notation {} (expected iccs, wxf or chinese)", crate::quote::quoted(&self.text))
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for MoveNotation {
    type Err = UnknownNotation;

    /// `iccs`, `wxf` or `chinese` (any case; `cn` and `zh` also mean Chinese).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(MoveNotation::Iccs),
            "wxf" => Ok(MoveNotation::Wxf),
            "chinese" | "cn" | "zh" => Ok(MoveNotation::Chinese),
            _ => Err(UnknownNotation { text: s.to_string() }),
        }
    }
}

/// The legal move `text` names, in whichever notation it is written: ICCS when it has the shape of
/// two squares, Chinese when it holds any non-ASCII character, WXF otherwise.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if iccs::looks_like(text) {
        iccs::parse(pos, text)
    } else if !text.is_ascii() {
        chinese::parse(pos, text)
    } else {
        wxf::parse(pos, text).map_err(|e| match e {
            NotationError::Unreadable { text, reason } => NotationError::Unreadable {
                text,
                reason: UnreadableReason::NeitherIccsNorWxf(Box::new(reason)),
            },
            other => other,
        })
    }
}

/// `mv`, played in `pos`, written in `notation`.
pub fn format_move(pos: &Position, mv: Move, notation: MoveNotation) -> String {
    match notation {
        MoveNotation::Iccs => iccs::format(mv),
        MoveNotation::Wxf => wxf::format(pos, mv),
        MoveNotation::Chinese => chinese::format(pos, mv),
    }
}

/// A line of moves starting in `pos` (a principal variation, say), each written in `notation` in
/// the position it is played in. Stops before the first move that is not legal where it stands.
pub fn format_line(pos: &Position, moves: &[Move], notation: MoveNotation) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !crate::board::movegen::is_legal(&mut pos, mv) {
            break;
        }
        out.push(format_move(&pos, mv, notation));
        pos.make_move(mv);
    }
    out
}
