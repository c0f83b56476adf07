//! The board editor (打谱) and variations (中盘研究) on the page, checked with Chariot's own rules:
//! a position a person set up is read as a FEN (kings not facing, piece counts, the squares each
//! piece may stand on), and each move of a line is parsed and checked where it is played, then
//! the page is told the position's legal moves and whether the rules end it there. A variation
//! starts from a position of a finished game or an analysis board, with that game's history, so
//! repetitions count from the game's start; nobody explores a game still being played.
//! Nothing here changes a game: the answer goes to the asker alone.

use std::fmt;

use super::game::Game;
use crate::board::{movegen, FenError, Move, Position};
use crate::notation::{parse_move, NotationError};
use crate::rules::{game_result, GameResult};

/// The most moves a line to explore may have (a variation of a game, or the moves after an edited
/// position).
pub const MAX_LINE_MOVES: usize = 400;

/// Why a position or a line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreError {
    /// The position set up is not a legal one.
    Fen(FenError),
    /// The line's move `index` (from 1) is not legal where it is played.
    Move {
        /// Its place in the line, from 1.
        index: usize,
        /// What was wrong with it.
        error: NotationError,
    },
    /// The line goes on past an end of the game by the rules (a mate, say).
    PastTheEnd {
        /// The place in the line of the first move after the end, from 1.
        index: usize,
    },
    /// The game is still being played: its positions are explored once it has ended.
    GameGoesOn,
    /// The game has fewer moves than the ply asked for.
    NoSuchPly,
}

impl fmt::Display for ExploreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExploreError::Fen(e) => write!(f, "not a legal position: {}", e.0),
            ExploreError::Move { index, error } => write!(f, "move {index} of the line: {error}"),
            ExploreError::PastTheEnd { index } => {
                write!(f, "move {index} of the line: the game is over there")
            }
            ExploreError::GameGoesOn => {
                f.write_str("variations are explored once the game is over (or on an analysis board)")
            }
            ExploreError::NoSuchPly => f.write_str("the game has not that many moves"),
        }
    }
}

impl std::error::Error for ExploreError {}

/// Plays `line` (moves in any notation) in `position`, each checked where it is played; the
/// moves played.
fn play_line(position: &mut Position, line: &[String]) -> Result<Vec<(Position, Move)>, ExploreError> {
    let mut played = Vec::with_capacity(line.len());
    for (i, text) in line.iter().enumerate() {
        if game_result(position).is_some() {
            return Err(ExploreError::PastTheEnd { index: i + 1 });
        }
        let mv = parse_move(position, text).map_err(|error| ExploreError::Move { index: i + 1, error })?;
        played.push((position.clone(), mv));
        position.make_move(mv);
    }
    Ok(played)
}

/// The position of `game` after `ply` of its moves (with its history) and then `line`: for a
/// variation, an analysis or an evaluation of one. The game must be over or an analysis board.
pub fn variation_position(game: &Game, ply: usize, line: &[String]) -> Result<Position, ExploreError> {
    if !game.engine_help() {
        return Err(ExploreError::GameGoesOn);
    }
    let moves = game.moves().get(..ply).ok_or(ExploreError::NoSuchPly)?;
    let mut position = game.start.clone();
    for &mv in moves {
        position.make_move(mv);
    }
    play_line(&mut position, line)?;
    Ok(position)
}

/// A position explored: the line's moves, each with the position it was played in, and where it
/// ends, with what the rules say there. `ServerMessage::Explored` writes it for the page.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The line's moves, each after the position it was played in.
    pub played: Vec<(Position, Move)>,
    /// Where the line ends.
    pub position: Position,
    /// The legal moves there (none where the rules end the game).
    pub legal: Vec<Move>,
    /// The rules' verdict there, if they end the game.
    pub result: Option<GameResult>,
}

/// `line` played from `start`, with the legal moves and the verdict where it ends.
fn explored(start: Result<Position, ExploreError>, line: &[String]) -> Result<Exploration, ExploreError> {
    let mut position = start?;
    let played = play_line(&mut position, line)?;
    let result = game_result(&position);
    let legal = if result.is_some() {
        Vec::new()
    } else {
        movegen::legal_moves(&mut position.clone()).iter().copied().collect()
    };
    Ok(Exploration { played, position, legal, result })
}

/// The board editor's answer: the position `fen` checked by Chariot's FEN rules, then `line`.
pub fn explore_position(fen: &str, line: &[String]) -> Result<Exploration, ExploreError> {
    explored(Position::from_fen(fen).map_err(ExploreError::Fen), line)
}

/// A variation's answer: `line` played from the position of `game` after `ply` moves.
pub fn explore_variation(game: &Game, ply: usize, line: &[String]) -> Result<Exploration, ExploreError> {
    explored(variation_position(game, ply, &[]), line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::notation::read_pgn;
    use crate::serve::game::Seat;
    use crate::serve::messages::ServerMessage;
    use serde_json::{json, Value};
    use std::time::Instant;

    /// The page's answer to the editor's `fen` and `line`.
    fn position(fen: &str, line: &[String], reference: Option<u64>) -> Value {
        let outcome = explore_position(fen, line);
        serde_json::from_str(&ServerMessage::Explored { reference, outcome }.text()).unwrap()
    }

    /// The page's answer to a variation.
    fn variation(game: &Game, ply: usize, line: &[String], reference: Option<u64>) -> Value {
        let outcome = explore_variation(game, ply, line);
        serde_json::from_str(&ServerMessage::Explored { reference, outcome }.text()).unwrap()
    }

    fn line(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn an_edited_position_is_checked_by_the_fen_rules() {
        // A rook and two kings not facing: legal, Red to move, the rook's and the king's moves.
        let a = position("3k5/9/9/9/9/9/9/9/9/R3K4 w", &[], Some(7));
        assert_eq!(
            (a["error"].clone(), a["ref"].as_u64(), a["turn"].as_str()),
            (Value::Null, Some(7), Some("red"))
        );
        let legal: Vec<&str> = a["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert!(legal.contains(&"a0a9") && legal.contains(&"e0e1") && legal.len() == 12 + 2, "{legal:?}");
        assert_eq!(a["result"], Value::Null);
        // Two kings alone: the rules end it at once, and nothing is offered.
        let a = position("3k5/9/9/9/9/9/9/9/9/4K4 w", &[], None);
        assert_eq!(
            (a["result"]["reason"].as_str(), a["legal"].as_array().unwrap().len()),
            (Some("insufficient material"), 0)
        );
        for (fen, why) in [
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face"),
            ("3k5/9/9/9/9/9/9/9/9/9 w", "king"),
            ("3k5/9/9/9/9/9/9/9/9/3KK4 w", "king"),
            ("3k5/9/9/9/9/9/9/9/4B4/4K4 w", "elephant"),
            ("3k5/9/9/9/9/9/9/9/9/PPPPKP3 w", "pawn"),
        ] {
            let a = position(fen, &[], None);
            let error = a["error"].as_str().unwrap_or("");
            assert!(error.starts_with("not a legal position: ") && error.contains(why), "{fen}: {error}");
            assert!(a.get("legal").is_none(), "{fen}");
        }
    }

    #[test]
    fn a_line_is_played_move_by_move_and_refused_at_the_first_bad_one() {
        let start = crate::board::START_FEN;
        let a = position(start, &line(&["h2e2", "马8进7", "H2+3"]), None);
        let chinese: Vec<&str> =
            a["moves"].as_array().unwrap().iter().map(|m| m["chinese"].as_str().unwrap()).collect();
        assert_eq!(chinese, ["炮二平五", "马８进７", "马二进三"]);
        assert_eq!((a["turn"].as_str(), a["legal"].as_array().unwrap().len() > 30), (Some("black"), true));
        let a = position(start, &line(&["h2e2", "h2e2"]), None);
        assert!(a["error"].as_str().unwrap().starts_with("move 2 of the line: "), "{a}");
        // A mate ends the line: nothing is played after it, and the mated side has no move.
        let mate = line(&["b2b4", "d9e8", "b4g4", "c9a7", "g4g9"]);
        let a = position(start, &mate, None);
        assert_eq!((a["result"]["score"].as_str(), a["legal"].as_array().unwrap().len()), (Some("1-0"), 0));
        let mut past = mate.clone();
        past.push("a9a8".into());
        let a = position(start, &past, None);
        assert_eq!(a["error"], json!("move 6 of the line: the game is over there"));
    }

    #[test]
    fn a_variation_starts_from_a_finished_game_only() {
        let seats = [Seat::Human { token: "r".into() }, Seat::Human { token: "b".into() }];
        let mut game = Game::new("g".into(), Position::startpos(), seats, None, 0);
        let now = Instant::now();
        for (color, mv) in [(Color::Red, "h2e2"), (Color::Black, "h9g7")] {
            game.act(color, &crate::serve::messages::Action::Move(mv.into()), now).unwrap();
        }
        let refused = variation(&game, 1, &line(&["b9c7"]), None);
        assert_eq!(refused["error"], json!(ExploreError::GameGoesOn.to_string()));
        game.act(Color::Red, &crate::serve::messages::Action::Resign, now).unwrap();
        // From ply 1 Black answers otherwise: the line starts after 炮二平五.
        let a = variation(&game, 1, &line(&["b9c7", "h0g2"]), Some(1));
        let iccs: Vec<&str> =
            a["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
        assert_eq!((iccs, a["turn"].as_str()), (vec!["b9c7", "h0g2"], Some("black")));
        let expected = {
            let mut p = Position::startpos();
            for m in ["h2e2", "b9c7", "h0g2"] {
                p.make_move(parse_move(&p, m).unwrap());
            }
            p.to_fen()
        };
        assert_eq!(a["fen"], json!(expected));
        let a = variation(&game, 3, &[], None);
        assert_eq!(a["error"], json!("the game has not that many moves"));
        // An analysis board's positions can be explored too.
        let record = read_pgn("1. h2e2 h9g7 *\n").unwrap().remove(0);
        let board = Game::recorded("b".into(), record, 0);
        assert_eq!(
            variation_position(&board, 2, &line(&["h0g2"])).map(|p| p.side_to_move()),
            Ok(Color::Black)
        );
    }
}
