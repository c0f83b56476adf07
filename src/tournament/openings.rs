//! Openings: a file of lines, each either ICCS moves from the start (`h2e2 h9g7 …`) or a FEN,
//! optionally followed by `moves …`. Blank lines and `#` comments are skipped.

use std::path::Path;

use crate::board::{movegen, Move, Position};
use crate::input_file::{self, Limit};

/// One opening: the position the game's PGN starts from and the moves played before the engines
/// take over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Where the game starts (the `FEN` tag when not the standard start).
    pub start: Position,
    /// The book moves, all legal from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start with no book moves.
    pub fn startpos() -> Opening {
        Opening { start: Position::startpos(), moves: Vec::new() }
    }

    /// Parses one line, checking every move is legal.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let (fen, moves) = if line.contains('/') {
            match line.split_once(" moves") {
                Some((fen, moves)) => (Some(fen), moves),
                None => (Some(line), ""),
            }
        } else {
            (None, line)
        };
        let start = match fen {
            Some(fen) => Position::from_fen(fen.trim()).map_err(|e| e.to_string())?,
            None => Position::startpos(),
        };
        let mut pos = start.clone();
        let mut played = Vec::new();
        for (i, text) in moves.split_whitespace().enumerate() {
            let mv = Move::parse_iccs(text).ok_or_else(|| format!("move {} '{text}' is not ICCS", i + 1))?;
            if !movegen::is_legal(&mut pos, mv) {
                return Err(format!("move {} '{text}' is illegal", i + 1));
            }
            pos.make_move(mv);
            played.push(mv);
        }
        Ok(Opening { start, moves: played })
    }
}

/// The largest openings file read (256 MiB): a line is a FEN or a few dozen moves, so this is
/// millions of openings, far more than a match or a datagen run plays.
pub const FILE_LIMIT: Limit = Limit { what: "openings file", max_len: 1 << 28 };

/// Reads an openings file; an error names the file and the line.
pub fn load(path: &Path) -> Result<Vec<Opening>, String> {
    let text = input_file::read_text(path, FILE_LIMIT)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(line)
            .map_err(|e| format!("openings file {} line {}: {e}", path.display(), i + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("openings file {} has no openings", path.display()));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_fens() {
        let o = Opening::parse("h2e2 h9g7").unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.start, Position::startpos());
        let f = Opening::parse("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1 moves a7a9").unwrap();
        assert_eq!(f.moves, vec![Move::parse_iccs("a7a9").unwrap()]);
        assert_eq!(Opening::parse("h2e2 h2e2").unwrap_err(), "move 2 'h2e2' is illegal");
        assert_eq!(Opening::parse("h2e2 zz").unwrap_err(), "move 2 'zz' is not ICCS");
    }
}
