//! PGN for xiangqi: games with tags, a start position, moves with comments and suffixes, and a
//! result. `read_pgn` accepts moves in ICCS, WXF or Chinese notation, token by token;
//! `write_pgn` writes them in the notation asked for.

mod date;
mod lexer;
mod reader;
mod writer;

use std::fmt;

use crate::board::{movegen, Move, Position};
use crate::input_file::Limit;

use super::NotationError;

pub use date::{date_tag, today_tag};
pub use reader::{read_pgn, PgnGames};
pub use writer::write_pgn;

/// The largest PGN file read (1 GiB): PGN has no limit of its own, and this holds a few hundred
/// thousand annotated games, more than the largest xiangqi databases, in memory at once.
pub const FILE_LIMIT: Limit = Limit { what: "PGN file", max_len: 1 << 30 };

/// The result tokens a PGN movetext may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game: its tags, where it starts, its moves and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// Tag pairs in the order read (or to be written after the standard ones).
    pub tags: Vec<(String, String)>,
    /// The position before the first move (from the `FEN` tag, else the start position).
    pub start: Position,
    /// The moves played from `start`.
    pub moves: Vec<PgnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// One move of a game, with what the annotator said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move itself.
    pub mv: Move,
    /// The text of the comments following the move, whitespace collapsed.
    pub comment: Option<String>,
    /// An annotation such as `!`, `?!` or `??`.
    pub suffix: Option<String>,
}

impl PgnMove {
    /// A move without comment or suffix.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove { mv, comment: None, suffix: None }
    }
}

impl PgnGame {
    /// A game from `start` with no tags, no moves and result `*`.
    pub fn new(start: Position) -> PgnGame {
        PgnGame { tags: Vec::new(), start, moves: Vec::new(), result: "*".to_string() }
    }

    /// The value of the first tag called `name` (case ignored).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The position after every move, with the moves in its history; an error names the first
    /// move that is not legal where it is played.
    pub fn final_position(&self) -> Result<Position, NotationError> {
        let mut pos = self.start.clone();
        for (i, m) in self.moves.iter().enumerate() {
            if !movegen::is_legal(&mut pos, m.mv) {
                return Err(NotationError::IllegalMove { mv: m.mv, ply: i + 1 });
            }
            pos.make_move(m.mv);
        }
        Ok(pos)
    }
}

/// Why a PGN text could not be read: the line (1-based) and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The line of the text where the problem is (where it starts, for an unterminated comment).
    pub line: usize,
    /// What was wrong, quoting the offending token.
    pub message: String,
}

impl PgnError {
    fn new(line: usize, message: impl Into<String>) -> PgnError {
        PgnError { line, message: message.into() }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PgnError {}
