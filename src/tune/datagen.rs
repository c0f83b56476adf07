//! Self-play data: fast games of the engine against itself at a fixed node count, from random
//! first plies (or a random book line), keeping quiet positions labelled with the game's result.
//!
//! Each game draws its randomness from `seed` and its own index and starts with an empty hash, so
//! the output does not depend on how many games run at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::board::{movegen, Color, Position};
use crate::rules::game_result;
use crate::search::{Engine, Limits, SearchControl};
use crate::tournament::Opening;

/// How to generate the data.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random legal plies played before the engine takes over (after the book line, if any).
    pub random_plies: usize,
    /// Book lines to start from (one picked at random per game); empty = the start position.
    pub openings: Vec<Opening>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Hash table size per game, in megabytes.
    pub hash_mb: usize,
    /// Positions before this game ply are never kept.
    pub skip_plies: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// A game is adjudicated once the score (Red's view) stays beyond ±this …
    pub adjudicate_score: i32,
    /// … for this many plies in a row.
    pub adjudicate_plies: usize,
    /// Positions scored beyond ±this are not kept (nearly decided, often mates).
    pub keep_below: i32,
}

impl DatagenConfig {
    /// The usual settings for `games` games at `nodes` nodes per move.
    pub fn new(games: usize, nodes: u64, random_plies: usize, seed: u64) -> DatagenConfig {
        DatagenConfig {
            games,
            nodes,
            random_plies,
            openings: Vec::new(),
            seed,
            concurrency: 1,
            hash_mb: 16,
            skip_plies: 8,
            max_plies: 200,
            adjudicate_score: 1000,
            adjudicate_plies: 4,
            keep_below: 2000,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// The quiet positions kept, as FEN.
    pub fens: Vec<String>,
    /// The result from Red's view: 1.0, 0.5 or 0.0.
    pub result: f64,
    /// Plies played, book and random plies included.
    pub plies: usize,
}

impl GameData {
    /// The data lines, `FEN;result` each with a newline.
    pub fn lines(&self) -> String {
        let result = format!("{:.1}", self.result);
        self.fens.iter().map(|fen| format!("{fen};{result}\n")).collect()
    }
}

/// The result from Red's view when `winner` won (`None`: a draw).
fn red_result(winner: Option<Color>) -> f64 {
    match winner {
        Some(Color::Red) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    }
}

impl DatagenConfig {
    /// Refuses settings that cannot make games: no games, no nodes, or a book line whose
    /// position is already decided.
    pub fn validate(&self) -> Result<(), String> {
        if self.games == 0 || self.nodes == 0 || self.concurrency == 0 {
            return Err("games, nodes and concurrency must be at least 1".to_string());
        }
        for (i, opening) in self.openings.iter().enumerate() {
            let mut pos = opening.start.clone();
            for &mv in &opening.moves {
                pos.make_move(mv);
            }
            if let Some(result) = game_result(&pos) {
                return Err(format!("opening {} is already over: {result}", i + 1));
            }
        }
        Ok(())
    }
}

/// Random starts redrawn at most this often when the random plies end the game.
const OPENING_ATTEMPTS: usize = 1000;

/// The random start of a game: a book line then random plies, redrawn if the game ends during
/// them (after `OPENING_ATTEMPTS` failures the last draw stands, and the game ends at once).
fn opening_position(cfg: &DatagenConfig, rng: &mut StdRng) -> Position {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut pos = match cfg.openings.choose(rng) {
            Some(opening) => {
                let mut pos = opening.start.clone();
                for &mv in &opening.moves {
                    pos.make_move(mv);
                }
                pos
            }
            None => Position::startpos(),
        };
        let mut ended = game_result(&pos).is_some();
        for _ in 0..cfg.random_plies {
            if ended {
                break;
            }
            let moves = movegen::legal_moves(&mut pos);
            match moves.iter().collect::<Vec<_>>().choose(rng) {
                Some(&&mv) => pos.make_move(mv),
                None => break,
            }
            ended = game_result(&pos).is_some();
        }
        if !ended || attempt >= OPENING_ATTEMPTS {
            return pos;
        }
    }
}

/// Plays game `index` with `engine`.
pub fn play_game(engine: &mut Engine, cfg: &DatagenConfig, index: usize) -> GameData {
    let mut rng = StdRng::seed_from_u64(cfg.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut pos = opening_position(cfg, &mut rng);
    engine.clear_hash();
    let control = SearchControl::new();
    let limits = Limits::nodes(cfg.nodes);
    let mut fens = Vec::new();
    let mut streak: (i32, usize) = (0, 0); // (sign of the decisive score, plies in a row)
    let result = loop {
        if let Some(r) = game_result(&pos) {
            break red_result(r.winner);
        }
        if pos.game_ply() >= cfg.max_plies {
            break 0.5;
        }
        control.start(false);
        let found = engine.search(&pos, &limits, &control, &mut |_| {});
        let Some(best) = found.best else {
            // No legal move: `game_result` would have said so; the mover loses all the same.
            break red_result(Some(pos.side_to_move().opponent()));
        };
        let red_score = if pos.side_to_move() == Color::Red { found.score } else { -found.score };
        let quiet = !pos.is_check() && !pos.piece_at(best.to()).is_piece();
        if quiet && pos.game_ply() >= cfg.skip_plies && red_score.abs() < cfg.keep_below {
            fens.push(pos.to_fen());
        }
        let sign = if red_score > cfg.adjudicate_score {
            1
        } else if red_score < -cfg.adjudicate_score {
            -1
        } else {
            0
        };
        streak = if sign != 0 && sign == streak.0 { (sign, streak.1 + 1) } else { (sign, 1) };
        if sign != 0 && streak.1 >= cfg.adjudicate_plies {
            break if sign > 0 { 1.0 } else { 0.0 };
        }
        pos.make_move(best);
    };
    GameData { fens, result, plies: pos.game_ply() }
}

/// Plays every game, `cfg.concurrency` at a time, calling `on_game` as each finishes; the games
/// come back in index order. Refuses a configuration `validate` refuses.
pub fn generate(cfg: &DatagenConfig, on_game: &(dyn Fn(&GameData) + Sync)) -> Result<Vec<GameData>, String> {
    cfg.validate()?;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<GameData>>> = Mutex::new(vec![None; cfg.games]);
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.clamp(1, cfg.games.max(1)) {
            scope.spawn(|| {
                let mut engine = Engine::new(cfg.hash_mb);
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= cfg.games {
                        break;
                    }
                    let game = play_game(&mut engine, cfg, index);
                    on_game(&game);
                    done.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(game);
                }
            });
        }
    });
    Ok(done.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_opening_is_refused() {
        // Black's king e9 is checked by the rook a9 along the back rank, and the rook b8 covers
        // rank 8: checkmate before the first move.
        let mut cfg = DatagenConfig::new(1, 100, 0, 1);
        cfg.openings = vec![Opening::parse("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap()];
        assert_eq!(cfg.validate().unwrap_err(), "opening 1 is already over: 1-0 (checkmate)");
        assert!(generate(&cfg, &|_| {}).is_err());
        cfg.openings = vec![Opening::parse("h2e2 h9g7").unwrap()];
        assert_eq!(cfg.validate(), Ok(()));
        cfg.nodes = 0;
        assert!(cfg.validate().is_err());
    }

    #[test]
    fn random_plies_are_played_after_the_book_line() {
        let mut cfg = DatagenConfig::new(1, 100, 3, 9);
        cfg.openings = vec![Opening::parse("h2e2 h9g7").unwrap()];
        let mut rng = StdRng::seed_from_u64(4);
        let pos = opening_position(&cfg, &mut rng);
        assert_eq!(pos.game_ply(), 5);
        assert_eq!(pos.history()[0].mv.to_string(), "h2e2");
        assert_eq!(pos.history()[1].mv.to_string(), "h9g7");
    }
}
