//! The `position` command, `position {startpos | fen <FEN…>} [moves m1 m2 …]`, shared by UCCI,
//! UCI and the command line (`chariot perft --fen … --moves …`).

use std::fmt;

use crate::board::{FenError, Position};
use crate::notation::MoveListError;
use crate::quote::quoted;

/// Why a `position` command or a move list was refused; `Display` names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing follows `position`.
    MissingSetup,
    /// The word after `position` is neither `startpos` nor `fen`.
    UnknownSetup(String),
    /// `fen` is followed by nothing (or directly by `moves`).
    MissingFen,
    /// The FEN was refused.
    Fen(FenError),
    /// A word where only `moves` may stand (after `startpos`).
    Unexpected(String),
    /// A move of the list was refused.
    Moves(MoveListError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingSetup => write!(f, "position needs 'startpos' or 'fen <FEN>'"),
            PositionError::UnknownSetup(word) => {
                write!(f, "position expects 'startpos' or 'fen', not {}", quoted(word))
            }
            PositionError::MissingFen => write!(f, "'fen' is not followed by a FEN"),
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Unexpected(word) => {
                write!(f, "unexpected {} where 'moves' was expected", quoted(word))
            }
            PositionError::Moves(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<FenError> for PositionError {
    fn from(e: FenError) -> Self {
        PositionError::Fen(e)
    }
}

impl From<MoveListError> for PositionError {
    fn from(e: MoveListError) -> Self {
        PositionError::Moves(e)
    }
}

/// Parses the arguments of a `position` command (the text after the word `position`), for
/// callers that hold them as one string; see `parse_position_words`.
pub fn parse_position(args: &str) -> Result<Position, PositionError> {
    parse_position_words(&args.split_whitespace().collect::<Vec<_>>())
}

/// Parses the words of a `position` command after the word `position` (as the command loop has
/// split them) into a position whose history holds the listed moves, so repetitions can be
/// judged later.
pub fn parse_position_words(words: &[&str]) -> Result<Position, PositionError> {
    let Some((&setup, rest)) = words.split_first() else {
        return Err(PositionError::MissingSetup);
    };
    let (start, rest) = match setup {
        "startpos" => (Position::startpos(), rest),
        "fen" => {
            let fen_len = rest.iter().position(|&t| t == "moves").unwrap_or(rest.len());
            if fen_len == 0 {
                return Err(PositionError::MissingFen);
            }
            (Position::from_fen(&rest[..fen_len].join(" "))?, &rest[fen_len..])
        }
        other => return Err(PositionError::UnknownSetup(other.to_string())),
    };
    match rest.split_first() {
        None => Ok(start),
        Some((&"moves", moves)) => Ok(play_moves(start, moves)?),
        Some((&other, _)) => Err(PositionError::Unexpected(other.to_string())),
    }
}

/// Plays ICCS moves from a start: `notation::play_iccs`, under the name the protocol knows it by.
pub use crate::notation::play_iccs as play_moves;

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position after h2e2 (cannon to the centre) and h9g7 (horse out), written by hand.
    const AFTER_H2E2_H9G7: &str = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";

    #[test]
    fn startpos_with_moves_keeps_the_history() {
        let pos = parse_position("startpos moves h2e2 h9g7").unwrap();
        assert_eq!(pos, Position::from_fen(AFTER_H2E2_H9G7).unwrap());
        let played: Vec<String> = pos.history().iter().map(|u| u.mv.to_string()).collect();
        assert_eq!(played, ["h2e2", "h9g7"]);
    }

    #[test]
    fn the_words_and_the_text_give_the_same_position() {
        let words = ["fen", "3k5/9/9/9/9/9/9/9/9/4K4", "w", "moves", "e0f0"];
        assert_eq!(parse_position_words(&words), parse_position(&words.join("  ")));
        assert_eq!(parse_position_words(&[]), Err(PositionError::MissingSetup));
    }

    #[test]
    fn fen_with_and_without_moves() {
        let pos = parse_position(&format!("fen {AFTER_H2E2_H9G7}")).unwrap();
        assert_eq!(pos.to_fen(), AFTER_H2E2_H9G7);
        assert!(pos.history().is_empty());
        // Red king e0 to f0, then Black king d9 to d8.
        let pos = parse_position("fen 3k5/9/9/9/9/9/9/9/9/4K4 w moves e0f0 d9d8").unwrap();
        assert_eq!(pos, Position::from_fen("9/3k5/9/9/9/9/9/9/9/5K3 w").unwrap());
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            ("", "position needs 'startpos'"),
            ("start", "not 'start'"),
            ("fen", "'fen' is not followed by a FEN"),
            ("fen moves h2e2", "'fen' is not followed by a FEN"),
            ("fen 9/9 w", "bad FEN: 2 ranks instead of 10"),
            ("startpos h2e2", "unexpected 'h2e2'"),
            ("startpos moves h2e2 zz", "move 2 'zz' is not an ICCS move"),
            // The black horse on h9 cannot reach h2.
            ("startpos moves h2e2 h9h2", "move 2 'h9h2' is illegal"),
            // Red moving twice: the second move is Black's turn.
            ("startpos moves h2e2 e2e6", "move 2 'e2e6' is illegal"),
        ];
        for (args, wanted) in cases {
            let err = parse_position(args).unwrap_err().to_string();
            assert!(err.contains(wanted), "'{args}' gave '{err}', wanted '{wanted}'");
        }
        // A megabyte of junk comes back as a few dozen characters and its length.
        let junk = "q".repeat(1 << 20);
        for args in [junk.clone(), format!("startpos {junk}"), format!("startpos moves h2e2 {junk}")] {
            let err = parse_position(&args).unwrap_err().to_string();
            assert!(err.len() < 200 && err.contains("(1048576 bytes)"), "{err}");
        }
    }
}
