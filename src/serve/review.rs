//! 复盘 from a PGN: the text a person pasted or picked, read with the project's PGN reader (every
//! move checked where it is played), becomes an analysis board: a game nobody plays, whose moves
//! can be stepped through, analysed, evaluated and drawn as a curve. Its first game is taken.

use std::fmt;

use crate::notation::{read_pgn, PgnError, PgnGame};

/// The most moves a loaded game may have: its curve then costs at most about 20 million nodes,
/// spread over jobs of 160,000.
pub const MAX_REVIEW_PLIES: usize = 1000;

/// The longest player name kept from the PGN's `Red` and `Black` tags, in characters.
const MAX_NAME_CHARS: usize = 40;

/// Why a PGN could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// The reader refused it: the line and what was wrong there (a move that is not legal, a
    /// bad FEN tag, an unterminated comment, …).
    Pgn(PgnError),
    /// Nothing in it reads as a game.
    NoGame,
    /// More moves than `MAX_REVIEW_PLIES`.
    TooLong {
        /// Its moves.
        plies: usize,
    },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Pgn(e) => write!(f, "cannot read the PGN: {e}"),
            ReviewError::NoGame => f.write_str("the PGN holds no game (no tags and no moves)"),
            ReviewError::TooLong { plies } => {
                write!(f, "the game has {plies} moves; at most {MAX_REVIEW_PLIES} can be loaded")
            }
        }
    }
}

impl std::error::Error for ReviewError {}

/// The first game of `text`, every move checked.
pub fn read_review(text: &str) -> Result<PgnGame, ReviewError> {
    let game = read_pgn(text).map_err(ReviewError::Pgn)?.into_iter().next().ok_or(ReviewError::NoGame)?;
    if game.moves.len() > MAX_REVIEW_PLIES {
        return Err(ReviewError::TooLong { plies: game.moves.len() });
    }
    Ok(game)
}

/// A player's name from the tag `tag` (`Red` or `Black`), `None` when absent or unknown (`?`),
/// cut to `MAX_NAME_CHARS` characters.
pub fn player_name(game: &PgnGame, tag: &str) -> Option<String> {
    let name = game.tag(tag)?.trim();
    (!name.is_empty() && name != "?").then(|| name.chars().take(MAX_NAME_CHARS).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"Club\"]\n[Red \"Hu Ronghua\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
                        1. 炮二平五 马8进7 2. 马二进三 {a comment} 车9平8 1-0\n";

    #[test]
    fn a_game_is_read_with_its_players() {
        let game = read_review(GAME).unwrap();
        assert_eq!(
            game.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(),
            ["h2e2", "h9g7", "h0g2", "i9h9"]
        );
        assert_eq!(game.result, "1-0");
        assert_eq!(player_name(&game, "Red").as_deref(), Some("Hu Ronghua"));
        assert_eq!(player_name(&game, "Black"), None);
        let long = GAME.replace("Hu Ronghua", &"名".repeat(60));
        assert_eq!(player_name(&read_review(&long).unwrap(), "Red").unwrap().chars().count(), 40);
        // Of two games, the first.
        let two = format!("{GAME}\n[Event \"second\"]\n\n1. h2e2 *\n");
        assert_eq!(read_review(&two).unwrap().moves.len(), 4);
    }

    #[test]
    fn a_bad_pgn_names_what_was_wrong() {
        let illegal = "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h2h8 *\n";
        assert_eq!(
            read_review(illegal).unwrap_err().to_string(),
            "cannot read the PGN: line 4: 'h2h8' is not a legal move"
        );
        let bad_fen = "[FEN \"not a fen\"]\n\n*\n";
        assert!(read_review(bad_fen)
            .unwrap_err()
            .to_string()
            .starts_with("cannot read the PGN: line 1: bad FEN tag 'not a fen'"));
        assert_eq!(read_review("").unwrap_err(), ReviewError::NoGame);
        assert_eq!(
            read_review("   \n").unwrap_err().to_string(),
            "the PGN holds no game (no tags and no moves)"
        );
        let unclosed = "1. h2e2 {never closed\n";
        assert!(read_review(unclosed).unwrap_err().to_string().starts_with("cannot read the PGN: line 1:"));
    }

    #[test]
    fn a_game_past_the_limit_is_refused() {
        // Horses out and back: legal for ever (the PGN reader judges no repetition).
        let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let moves: Vec<&str> = cycle.iter().cycle().take(MAX_REVIEW_PLIES + 4).copied().collect();
        let text = format!("{} *", moves.join(" "));
        assert_eq!(read_review(&text).unwrap_err(), ReviewError::TooLong { plies: MAX_REVIEW_PLIES + 4 });
        let fits = format!("{} *", moves[..MAX_REVIEW_PLIES].join(" "));
        assert_eq!(read_review(&fits).unwrap().moves.len(), MAX_REVIEW_PLIES);
    }
}
