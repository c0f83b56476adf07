//! A line of play: ICCS moves played from a start position. The protocol's `position … moves`,
//! the command line's `--moves` and the openings of matches and datagen all read one, here.

use std::fmt;

use crate::board::{movegen, FenError, Move, Position};
use crate::quote::quoted;

/// Why a list of ICCS moves could not be played; `Display` names the move and the trouble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveListError {
    /// Move number `index` (1-based) of the list is not ICCS coordinates.
    NotIccs {
        /// 1-based place in the move list.
        index: usize,
        /// The word as given.
        text: String,
    },
    /// Move number `index` (1-based) of the list is not legal where it is played.
    Illegal {
        /// 1-based place in the move list.
        index: usize,
        /// The word as given.
        text: String,
    },
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveListError::NotIccs { index, text } => {
                write!(f, "move {index} {} is not an ICCS move like h2e2", quoted(text))
            }
            MoveListError::Illegal { index, text } => write!(f, "move {index} {} is illegal", quoted(text)),
        }
    }
}

impl std::error::Error for MoveListError {}

/// Plays ICCS `moves` from `start`, checking each for legality; the moves stay in the position's
/// history, so repetitions can be judged later. Taking `start` by value means a refused list
/// leaves nothing half-applied in the caller's hands.
pub fn play_iccs<S: AsRef<str>>(mut start: Position, moves: &[S]) -> Result<Position, MoveListError> {
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let index = i + 1;
        let mv =
            Move::parse_iccs(text).ok_or_else(|| MoveListError::NotIccs { index, text: text.to_string() })?;
        if !movegen::is_legal(&mut start, mv) {
            return Err(MoveListError::Illegal { index, text: text.to_string() });
        }
        start.make_move(mv);
    }
    Ok(start)
}

/// Why an opening line was refused: its FEN or one of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The FEN was refused.
    Fen(FenError),
    /// A move was refused.
    Move(MoveListError),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Fen(e) => write!(f, "{e}"),
            OpeningError::Move(e) => write!(f, "{e}"),
        }
    }
}

/// No `source`: the message already holds the cause's (a chain would say it twice).
impl std::error::Error for OpeningError {}

/// One opening: the position a game starts from and the moves played before the engines take
/// over (its PGN starts from `start`, with a `FEN` tag when that is not the standard start).
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Where the game starts.
    pub start: Position,
    /// The book moves, all legal from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start with no book moves.
    pub fn startpos() -> Opening {
        Opening { start: Position::startpos(), moves: Vec::new() }
    }

    /// Parses one line, either ICCS moves from the start (`h2e2 h9g7 …`) or a FEN optionally
    /// followed by `moves …`, checking every move is legal.
    pub fn parse(line: &str) -> Result<Opening, OpeningError> {
        let (fen, moves) = if line.contains('/') {
            match line.split_once(" moves") {
                Some((fen, moves)) => (Some(fen), moves),
                None => (Some(line), ""),
            }
        } else {
            (None, line)
        };
        let start = match fen {
            Some(fen) => Position::from_fen(fen.trim()).map_err(OpeningError::Fen)?,
            None => Position::startpos(),
        };
        let words: Vec<&str> = moves.split_whitespace().collect();
        let end = play_iccs(start.clone(), &words).map_err(OpeningError::Move)?;
        // `start` comes from a FEN or is the standard start, so its history is empty and the
        // end's history is exactly the moves played.
        let moves = end.history().iter().map(|u| u.mv).collect();
        Ok(Opening { start, moves })
    }

    /// The position after the book moves.
    pub fn end(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_played_and_kept_in_the_history() {
        let pos = play_iccs(Position::startpos(), &["h2e2", "h9g7"]).unwrap();
        let played: Vec<String> = pos.history().iter().map(|u| u.mv.to_string()).collect();
        assert_eq!(played, ["h2e2", "h9g7"]);
        assert_eq!(play_iccs::<&str>(Position::startpos(), &[]).unwrap(), Position::startpos());
    }

    #[test]
    fn a_refused_move_is_named_by_its_place() {
        let err = play_iccs(Position::startpos(), &["h2e2", "h2e2"]).unwrap_err();
        assert_eq!(err, MoveListError::Illegal { index: 2, text: "h2e2".into() });
        assert_eq!(err.to_string(), "move 2 'h2e2' is illegal");
        let err = play_iccs(Position::startpos(), &["h2e2", "zz"]).unwrap_err();
        assert_eq!(err.to_string(), "move 2 'zz' is not an ICCS move like h2e2");
    }

    #[test]
    fn openings_from_moves_and_from_fens() {
        let o = Opening::parse("h2e2 h9g7").unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.start, Position::startpos());
        assert_eq!(o.end(), play_iccs(Position::startpos(), &["h2e2", "h9g7"]).unwrap());
        let f = Opening::parse("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1 moves a7a9").unwrap();
        assert_eq!(f.moves, vec![Move::parse_iccs("a7a9").unwrap()]);
        assert_eq!(Opening::parse("h2e2 h2e2").unwrap_err().to_string(), "move 2 'h2e2' is illegal");
        assert_eq!(
            Opening::parse("h2e2 zz").unwrap_err().to_string(),
            "move 2 'zz' is not an ICCS move like h2e2"
        );
        assert!(matches!(Opening::parse("9/9 w"), Err(OpeningError::Fen(_))));
    }
}
