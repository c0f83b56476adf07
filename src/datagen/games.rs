//! Self-play games for training data: the engine against itself at a fixed node count, from
//! random first plies (or a random book line then random plies), each searched position offered
//! to a keep filter, the game ended by the rules module or by adjudication through the
//! evaluation's win-rate model.
//!
//! Two modes share the games: the text mode (`generate`, `FEN;result` lines for Texel tuning)
//! and the scored mode (`datagen::scored`, binary records with the search score for the NNUE
//! trainer). Each game draws its randomness from `seed` and its own number and starts with an
//! empty hash, so the games do not depend on how many run at once.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::board::{Color, Move, Position};
use crate::eval::EvalChoice;
use crate::notation::Opening;
use crate::rules::{game_result, play_random_plies, Termination};
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::search::{Engine, HashError, Limits, SearchControl};

use super::shard::Shard;

/// The win chance (per mille) that adjudicates a game for the side it favours, in both modes:
/// docs/datagen.md gives the reasons.
pub const ADJUDICATE_WIN_PER_MILLE: u32 = 980;

/// The band of normalised scores (±) that counts as level for a draw in the scored mode:
/// docs/datagen.md gives the reasons.
pub const DRAW_CP: i32 = 20;

/// How to generate the data.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play (the text mode; the scored mode takes its target separately).
    pub games: usize,
    /// Nodes per move, at most.
    pub nodes: u64,
    /// Deepen no further once an iteration ends past this many nodes (`None`: search to
    /// `nodes`, cutting the last iteration off wherever it stands).
    pub soft_nodes: Option<u64>,
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
    /// A game is won once the evaluation's win-rate model gives one side at least this chance
    /// to win (per mille; a mate or a rule win is certain) …
    pub adjudicate_win_per_mille: u32,
    /// … for this many plies in a row (0: never adjudicate a win).
    pub adjudicate_plies: usize,
    /// From this game ply on, a game is drawn once the normalised score (+100: a 50% chance to
    /// win) stays within ±`draw_cp` …
    pub draw_after_ply: usize,
    /// … (normalised centipawns) …
    pub draw_cp: i32,
    /// … for this many plies in a row (0: never adjudicate a draw).
    pub draw_plies: usize,
    /// Positions scored beyond ±this are not kept (nearly decided, often mates).
    pub keep_below: i32,
    /// The evaluation the games are searched with (the built-in net unless told otherwise).
    pub eval: EvalChoice,
    /// Which of the run's games the scored mode plays (`--shard K/N`; the whole run unless told
    /// otherwise). Not part of the settings fingerprint: the shards of a run share it.
    pub shard: Shard,
}

impl DatagenConfig {
    /// The text mode's settings for `games` games at `nodes` nodes per move.
    pub fn new(games: usize, nodes: u64, random_plies: usize, seed: u64) -> DatagenConfig {
        DatagenConfig {
            games,
            nodes,
            soft_nodes: None,
            random_plies,
            openings: Vec::new(),
            seed,
            concurrency: 1,
            hash_mb: 16,
            skip_plies: 8,
            max_plies: 200,
            adjudicate_win_per_mille: ADJUDICATE_WIN_PER_MILLE,
            adjudicate_plies: 4,
            draw_after_ply: 0,
            draw_cp: 0,
            draw_plies: 0,
            keep_below: 2000,
            eval: EvalChoice::default(),
            shard: Shard::WHOLE,
        }
    }

    /// The scored mode's settings (docs/datagen.md gives the reasons for each): the text mode's,
    /// with longer games, firmer adjudication, draws adjudicated and wider scores kept.
    pub fn scored(nodes: u64, random_plies: usize, seed: u64) -> DatagenConfig {
        DatagenConfig {
            max_plies: 400,
            adjudicate_plies: 6,
            draw_after_ply: 80,
            draw_cp: DRAW_CP,
            draw_plies: 12,
            keep_below: 3000,
            ..DatagenConfig::new(0, nodes, random_plies, seed)
        }
    }

    /// Refuses settings that cannot make games: no nodes, no thread, or a book line whose
    /// position is already decided.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.nodes == 0 || self.concurrency == 0 {
            return Err(ConfigError::Zero);
        }
        for (i, opening) in self.openings.iter().enumerate() {
            if let Some(result) = game_result(&opening.end()) {
                return Err(ConfigError::OpeningOver { number: i + 1, result: result.to_string() });
            }
        }
        Ok(())
    }

    /// What the evaluation's win-rate model makes of `score` (side to move's view) in `pos`, for
    /// adjudication: the side it gives at least `adjudicate_win_per_mille` to win, and whether
    /// the normalised score is within ±`draw_cp`. Mates and rule wins are certain wins and never
    /// level.
    pub fn judge(&self, pos: &Position, score: i32) -> Judgement {
        let scale = ScoreScale::of(&self.eval, pos);
        let wdl = scale.wdl(score);
        let mover = pos.side_to_move();
        let favoured = if wdl.win >= self.adjudicate_win_per_mille {
            Some(mover)
        } else if wdl.loss >= self.adjudicate_win_per_mille {
            Some(mover.opponent())
        } else {
            None
        };
        let level = matches!(scale.shown(score), ShownScore::Cp(cp) if cp.abs() <= self.draw_cp);
        Judgement { favoured, level }
    }

    /// Whether a searched position is worth keeping: far enough into the game, not in check,
    /// its best move not a capture (the score is then about the position, not a pending
    /// exchange), and its score short of `keep_below` (no mates, no rule wins).
    pub fn keeps(&self, pos: &Position, score: i32, best: Move) -> bool {
        pos.game_ply() >= self.skip_plies
            && !pos.is_check()
            && !pos.piece_at(best.to()).is_piece()
            && score.abs() < self.keep_below
    }
}

/// What the win-rate model makes of one searched position (`DatagenConfig::judge`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The side given at least `adjudicate_win_per_mille` to win, if either is.
    pub favoured: Option<Color>,
    /// Whether the normalised score is within ±`draw_cp`.
    pub level: bool,
}

/// The runs of judgements behind adjudication: the side favoured and for how many plies in a row,
/// and how many plies in a row were level late enough.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Streaks {
    favoured: Option<Color>,
    favoured_plies: usize,
    level_plies: usize,
}

impl Streaks {
    /// Counts the judgement of the position at `game_ply`; returns the winner (`None`: a draw)
    /// and the ending when the runs adjudicate the game.
    pub fn observe(
        &mut self,
        cfg: &DatagenConfig,
        judgement: Judgement,
        game_ply: usize,
    ) -> Option<(Option<Color>, GameEnd)> {
        self.favoured_plies = match judgement.favoured {
            Some(side) if self.favoured == Some(side) => self.favoured_plies + 1,
            Some(_) => 1,
            None => 0,
        };
        self.favoured = judgement.favoured;
        if let Some(side) = self.favoured {
            if cfg.adjudicate_plies > 0 && self.favoured_plies >= cfg.adjudicate_plies {
                return Some((Some(side), GameEnd::Resigned));
            }
        }
        let late_and_level = game_ply >= cfg.draw_after_ply && judgement.level;
        self.level_plies = if late_and_level { self.level_plies + 1 } else { 0 };
        if cfg.draw_plies > 0 && self.level_plies >= cfg.draw_plies {
            return Some((None, GameEnd::DrawAdjudicated));
        }
        None
    }
}

/// Settings that cannot make games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// No games, nodes or concurrency.
    Zero,
    /// A book line (numbered from 1) whose position is already decided, and how.
    OpeningOver {
        /// The line's number, from 1.
        number: usize,
        /// The result, as the rules state it.
        result: String,
    },
    /// The hash tables cannot be had.
    Hash(HashError),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Zero => write!(f, "games, nodes and concurrency must be at least 1"),
            ConfigError::OpeningOver { number, result } => {
                write!(f, "opening {number} is already over: {result}")
            }
            ConfigError::Hash(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The rules module ended it (`rules::game_result`).
    Rules(Termination),
    /// The win-rate model gave one side at least `adjudicate_win_per_mille` to win for
    /// `adjudicate_plies` plies: that side wins.
    Resigned,
    /// The normalised score stayed within ±`draw_cp` late in the game: a draw.
    DrawAdjudicated,
    /// `max_plies` plies were played: a draw.
    PlyLimit,
}

impl GameEnd {
    /// Every way a game ends, in code order.
    pub const ALL: [GameEnd; 10] = [
        GameEnd::Rules(Termination::Checkmate),
        GameEnd::Rules(Termination::Stalemate),
        GameEnd::Rules(Termination::PerpetualCheck),
        GameEnd::Rules(Termination::PerpetualChase),
        GameEnd::Rules(Termination::Repetition),
        GameEnd::Rules(Termination::MoveLimit),
        GameEnd::Rules(Termination::InsufficientMaterial),
        GameEnd::Resigned,
        GameEnd::DrawAdjudicated,
        GameEnd::PlyLimit,
    ];

    /// The code the data format stores (the index in `ALL`).
    pub fn code(self) -> u8 {
        GameEnd::ALL.iter().position(|&e| e == self).unwrap_or(0) as u8
    }

    /// The end a stored code names, if any.
    pub fn from_code(code: u8) -> Option<GameEnd> {
        GameEnd::ALL.get(code as usize).copied()
    }

    /// Whether a game that ends this way is a draw (otherwise somebody won).
    pub fn is_draw(self) -> bool {
        match self {
            GameEnd::Rules(t) => {
                matches!(
                    t,
                    Termination::Repetition | Termination::MoveLimit | Termination::InsufficientMaterial
                )
            }
            GameEnd::Resigned => false,
            GameEnd::DrawAdjudicated | GameEnd::PlyLimit => true,
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEnd::Rules(t) => t.fmt(f),
            GameEnd::Resigned => f.write_str("adjudicated win"),
            GameEnd::DrawAdjudicated => f.write_str("adjudicated draw"),
            GameEnd::PlyLimit => f.write_str("ply limit"),
        }
    }
}

/// A finished game: what the keep filter took from it and how it ended.
#[derive(Clone, Debug)]
pub struct Played<T> {
    /// One item per kept position, in game order.
    pub kept: Vec<T>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub end: GameEnd,
    /// The last position, with the game's whole history.
    pub end_position: Position,
}

/// One finished game of the text mode.
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

/// Random starts redrawn at most this often when the random plies end the game.
const OPENING_ATTEMPTS: usize = 1000;

/// The random start of a game: a book line then random plies, redrawn if the game ends during
/// them (after `OPENING_ATTEMPTS` failures the last draw stands, and the game ends at once).
fn opening_position(cfg: &DatagenConfig, rng: &mut StdRng) -> Position {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut pos = match cfg.openings.choose(rng) {
            Some(opening) => opening.end(),
            None => Position::startpos(),
        };
        let going = play_random_plies(&mut pos, cfg.random_plies, rng);
        if going || attempt >= OPENING_ATTEMPTS {
            return pos;
        }
    }
}

/// The random generator of game `game`: a function of the seed and the game number only.
fn game_rng(seed: u64, game: u64) -> StdRng {
    StdRng::seed_from_u64(seed ^ (game + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Plays game number `game` with `engine`, offering each searched position that `cfg.keeps`
/// to `keep` (with its score from the side to move's view and the best move). Returns `None`
/// when `stop` was raised before the game ended.
pub fn play<T>(
    engine: &mut Engine,
    cfg: &DatagenConfig,
    game: u64,
    stop: &AtomicBool,
    mut keep: impl FnMut(&Position, i32, Move) -> T,
) -> Option<Played<T>> {
    let mut rng = game_rng(cfg.seed, game);
    let mut pos = opening_position(cfg, &mut rng);
    engine.clear_hash();
    engine.options.eval = cfg.eval.clone();
    let control = SearchControl::new();
    let limits = Limits { soft_nodes: cfg.soft_nodes, ..Limits::nodes(cfg.nodes) };
    let mut kept = Vec::new();
    let mut streaks = Streaks::default();
    let (winner, end) = loop {
        if let Some(r) = game_result(&pos) {
            break (r.winner, GameEnd::Rules(r.termination));
        }
        if pos.game_ply() >= cfg.max_plies {
            break (None, GameEnd::PlyLimit);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        control.start(false);
        let found = engine.search(&pos, &limits, &control, &mut |_| {});
        let Some(best) = found.best else {
            // No legal move: `game_result` said otherwise, but the mover would lose all the same.
            let termination = if pos.is_check() { Termination::Checkmate } else { Termination::Stalemate };
            break (Some(pos.side_to_move().opponent()), GameEnd::Rules(termination));
        };
        if cfg.keeps(&pos, found.score, best) {
            kept.push(keep(&pos, found.score, best));
        }
        if let Some(verdict) = streaks.observe(cfg, cfg.judge(&pos, found.score), pos.game_ply()) {
            break verdict;
        }
        pos.make_move(best);
    };
    Some(Played { kept, winner, end, end_position: pos })
}

/// Plays game `index` of the text mode with `engine`.
pub fn play_game(engine: &mut Engine, cfg: &DatagenConfig, index: usize) -> GameData {
    let never = AtomicBool::new(false);
    let played =
        play(engine, cfg, index as u64, &never, |pos, _, _| pos.to_fen()).expect("a game never stopped ends");
    GameData { fens: played.kept, result: red_result(played.winner), plies: played.end_position.game_ply() }
}

/// Plays every game of the text mode, `cfg.concurrency` at a time, calling `on_game` as each
/// finishes; the games come back in index order. Refuses a configuration `validate` refuses.
pub fn generate(
    cfg: &DatagenConfig,
    on_game: &(dyn Fn(&GameData) + Sync),
) -> Result<Vec<GameData>, ConfigError> {
    cfg.validate()?;
    if cfg.games == 0 {
        return Err(ConfigError::Zero);
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<GameData>>> = Mutex::new(vec![None; cfg.games]);
    // Every table is allocated before the first game, so a size that cannot be had is refused
    // at once rather than panicking a worker.
    let engines = (0..cfg.concurrency.clamp(1, cfg.games.max(1)))
        .map(|_| Engine::try_new(cfg.hash_mb).map_err(ConfigError::Hash))
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|scope| {
        for mut engine in engines {
            let (next, done) = (&next, &done);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= cfg.games {
                    break;
                }
                let game = play_game(&mut engine, cfg, index);
                on_game(&game);
                done.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(game);
            });
        }
    });
    Ok(done.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, RULE_WIN};

    #[test]
    fn a_decided_opening_is_refused() {
        // Black's king e9 is checked by the rook a9 along the back rank, and the rook b8 covers
        // rank 8: checkmate before the first move.
        let mut cfg = DatagenConfig::new(1, 100, 0, 1);
        cfg.openings = vec![Opening::parse("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap()];
        assert_eq!(cfg.validate().unwrap_err().to_string(), "opening 1 is already over: 1-0 (checkmate)");
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

    #[test]
    fn game_end_codes_round_trip_and_say_who_can_win() {
        for (i, end) in GameEnd::ALL.iter().enumerate() {
            assert_eq!(end.code() as usize, i);
            assert_eq!(GameEnd::from_code(i as u8), Some(*end));
        }
        assert_eq!(GameEnd::from_code(10), None);
        let draws: Vec<u8> = GameEnd::ALL.iter().filter(|e| e.is_draw()).map(|e| e.code()).collect();
        assert_eq!(draws, vec![4, 5, 6, 8, 9]);
    }

    #[test]
    fn a_raised_stop_abandons_the_game() {
        let cfg = DatagenConfig::scored(200, 2, 1);
        let mut engine = Engine::new(1);
        assert!(play(&mut engine, &cfg, 0, &AtomicBool::new(true), |_, _, _| ()).is_none());
    }

    /// The classic evaluation's model by its formula, written out here rather than read from the
    /// code under test: `(a(m), b(m))` with the material floored at 20 and over 94.
    fn classic_parameters(material: u32) -> (f64, f64) {
        let model = crate::eval::classic::WIN_RATE;
        let x = material.clamp(20, 94) as f64 / 94.0;
        let cubic = |c: [f64; 4]| c[0] * x * x * x + c[1] * x * x + c[2] * x + c[3];
        (cubic(model.a), cubic(model.b))
    }

    /// The lowest internal score to which the classic model gives at least `chance` to win.
    fn score_for_chance(material: u32, chance: f64) -> f64 {
        let (a, b) = classic_parameters(material);
        a + b * (chance / (1.0 - chance)).ln()
    }

    fn classic() -> DatagenConfig {
        DatagenConfig { eval: EvalChoice::Classic, ..DatagenConfig::scored(100, 0, 1) }
    }

    #[test]
    fn adjudication_follows_the_win_rate_model() {
        let cfg = classic();
        let full = Position::startpos();
        // A red rook and horse against two advisors: material 17, read as 20.
        let bare = Position::from_fen("3ak4/4a4/9/9/9/9/9/5N3/4R4/3K5 w - - 0 1").unwrap();
        let bare_black = Position::from_fen("3ak4/4a4/9/9/9/9/9/5N3/4R4/3K5 b - - 0 1").unwrap();
        assert_eq!((crate::winrate::material(&full), crate::winrate::material(&bare)), (94, 17));
        let chance = f64::from(cfg.adjudicate_win_per_mille) / 1000.0;
        let (at_full, at_bare) = (score_for_chance(94, chance), score_for_chance(17, chance));
        // The model's premise: the same lead decides a bare ending sooner than a full board.
        assert!(at_bare + 20.0 < at_full, "{at_bare} {at_full}");
        let between = ((at_bare + at_full) / 2.0).round() as i32;
        assert_eq!(cfg.judge(&bare, between).favoured, Some(Color::Red));
        assert_eq!(cfg.judge(&full, between).favoured, None);
        assert_eq!(cfg.judge(&bare, -between).favoured, Some(Color::Black));
        assert_eq!(cfg.judge(&bare_black, between).favoured, Some(Color::Black));
        // Just short of the chance at the bare ending: not yet (10 units is a clear margin of
        // a per mille there).
        assert_eq!(cfg.judge(&bare, at_bare.floor() as i32 - 10).favoured, None);
        assert_eq!(cfg.judge(&full, at_full.ceil() as i32 + 10).favoured, Some(Color::Red));
        // Mates and rule wins are certain, whatever the material, and never level.
        for decisive in [MATE - 7, RULE_WIN - 40] {
            let won = cfg.judge(&full, decisive);
            assert_eq!((won.favoured, won.level), (Some(Color::Red), false));
            assert_eq!(cfg.judge(&full, -decisive).favoured, Some(Color::Black));
        }
        // Level: within ±draw_cp on the normalised scale, 100 × score / a(m).
        let level_at = |material: u32| f64::from(cfg.draw_cp) * classic_parameters(material).0 / 100.0;
        let (band_full, band_bare) = (level_at(94), level_at(17));
        assert!(band_full + 2.0 < band_bare, "{band_full} {band_bare}");
        let between = ((band_full + band_bare) / 2.0).round() as i32;
        assert!(cfg.judge(&bare, between).level && cfg.judge(&bare, -between).level);
        assert!(!cfg.judge(&full, between).level && !cfg.judge(&full, -between).level);
        assert!(cfg.judge(&full, 0).level);
    }

    #[test]
    fn streaks_adjudicate_after_enough_plies_in_a_row() {
        let cfg = classic();
        let judged = |favoured, level| Judgement { favoured, level };
        let red = judged(Some(Color::Red), false);
        let mut streaks = Streaks::default();
        for _ in 1..cfg.adjudicate_plies {
            assert_eq!(streaks.observe(&cfg, red, 30), None);
        }
        // A ply for the other side starts the count again.
        assert_eq!(streaks.observe(&cfg, judged(Some(Color::Black), false), 30), None);
        for _ in 1..cfg.adjudicate_plies {
            assert_eq!(streaks.observe(&cfg, red, 30), None);
        }
        assert_eq!(streaks.observe(&cfg, red, 30), Some((Some(Color::Red), GameEnd::Resigned)));
        // Never with `adjudicate_plies` 0.
        let never = DatagenConfig { adjudicate_plies: 0, ..classic() };
        let mut streaks = Streaks::default();
        assert!((0..100).all(|_| streaks.observe(&never, red, 30).is_none()));
        // Level plies count only from `draw_after_ply` on.
        let level = judged(None, true);
        let mut streaks = Streaks::default();
        let first = cfg.draw_after_ply - 5;
        for ply in first..cfg.draw_after_ply + cfg.draw_plies - 1 {
            assert_eq!(streaks.observe(&cfg, level, ply), None, "ply {ply}");
        }
        let last = cfg.draw_after_ply + cfg.draw_plies - 1;
        assert_eq!(streaks.observe(&cfg, level, last), Some((None, GameEnd::DrawAdjudicated)));
        // One ply off level starts again.
        let mut streaks = Streaks::default();
        for ply in 100..100 + cfg.draw_plies - 1 {
            assert_eq!(streaks.observe(&cfg, level, ply), None);
        }
        assert_eq!(streaks.observe(&cfg, judged(None, false), 111), None);
        assert_eq!(streaks.observe(&cfg, level, 112), None);
    }
}
