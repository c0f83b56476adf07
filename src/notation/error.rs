//! `NotationError`: why a move text could not be turned into one legal move.

use std::fmt;

use crate::board::Move;
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
        reason: String,
    },
    /// The text names a piece the side to move does not have, such as tandem cannons that are
    /// not on the board.
    NoSuchPiece {
        /// The text as given.
        text: String,
        /// Which piece is missing.
        reason: String,
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
