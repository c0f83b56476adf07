//! Search: iterative deepening with PVS (or MTD(f)), quiescence, pruning and reductions, move
//! ordering, the shared transposition table, time management and Lazy SMP threads.
//!
//! `Engine::search` is the one entry point; the protocol loop runs it on its own thread and
//! steers it through a `SearchControl`.

pub mod bench;
pub mod control;
mod driver;
pub mod info;
pub mod limits;
pub mod memory;
pub mod ordering;
pub mod params;
mod rules_hook;
pub mod score;
pub mod see;
mod shared;
mod stack;
pub mod timeman;
pub mod tt;
mod worker;

use std::fmt;
use std::str::FromStr;

use crate::board::{movegen, Move, Position};

pub use control::SearchControl;
pub use info::{Info, IterationInfo, ScoreBound, SearchResult};
pub use limits::Limits;
pub use params::{ParamError, SearchParams};
pub use shared::Reporter;
pub use timeman::{TimeBudget, TimeManager};
pub use tt::{HashError, TranspositionTable};

use ordering::OrderingTables;
use score::{INFINITE, MATE};
use shared::Shared;
use worker::Worker;

/// A name that is neither a search algorithm nor a search feature; `Display` lists the names
/// that are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownName {
    /// Not `pvs` (or `negascout`) nor `mtdf` (or `mtd(f)`).
    Algorithm(String),
    /// Not one of `SearchFeatures::NAMES`.
    Feature(String),
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownName::Algorithm(name) => write!(f, "unknown search algorithm '{name}' (pvs or mtdf)"),
            UnknownName::Feature(name) => {
                write!(f, "unknown search feature '{name}' ({})", SearchFeatures::NAMES.join(", "))
            }
        }
    }
}

impl std::error::Error for UnknownName {}

/// The root search algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Principal variation search (NegaScout) with aspiration windows.
    Pvs,
    /// MTD(f): null-window searches driven by the transposition table.
    Mtdf,
}

impl FromStr for Algorithm {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "pvs" | "negascout" => Ok(Algorithm::Pvs),
            "mtdf" | "mtd(f)" => Ok(Algorithm::Mtdf),
            other => Err(UnknownName::Algorithm(other.to_string())),
        }
    }
}

/// A root move and its score in the current iteration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score (`-INFINITE` until searched in this pass).
    pub score: i32,
}

/// Which selective-search techniques are on: each can be switched off to measure what it gains.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    /// Null-move pruning (adaptive R, verified in endgames).
    pub null_move: bool,
    /// Reverse futility (static null move) pruning.
    pub reverse_futility: bool,
    /// Futility pruning of quiet moves near the leaves.
    pub futility: bool,
    /// Late move pruning: skip late quiet moves near the leaves.
    pub late_move_pruning: bool,
    /// Late move reductions.
    pub late_move_reductions: bool,
    /// Extend the search of positions in check by one ply.
    pub check_extension: bool,
    /// Quiescence delta pruning and SEE pruning of losing captures.
    pub quiescence_pruning: bool,
    /// Mate distance pruning: no line can beat a mate already found nearer the root.
    pub mate_distance_pruning: bool,
}

impl SearchFeatures {
    /// Everything on: the default.
    pub const ALL: SearchFeatures = SearchFeatures {
        null_move: true,
        reverse_futility: true,
        futility: true,
        late_move_pruning: true,
        late_move_reductions: true,
        check_extension: true,
        quiescence_pruning: true,
        mate_distance_pruning: true,
    };

    /// Names of the features, as `chariot bench --without` takes them.
    pub const NAMES: [&'static str; 8] =
        ["null", "rfp", "futility", "lmp", "lmr", "checkext", "qsprune", "mdp"];

    /// The features with the one called `name` switched off.
    pub fn without(mut self, name: &str) -> Result<SearchFeatures, UnknownName> {
        let flag = match name {
            "null" => &mut self.null_move,
            "rfp" => &mut self.reverse_futility,
            "futility" => &mut self.futility,
            "lmp" => &mut self.late_move_pruning,
            "lmr" => &mut self.late_move_reductions,
            "checkext" => &mut self.check_extension,
            "qsprune" => &mut self.quiescence_pruning,
            "mdp" => &mut self.mate_distance_pruning,
            other => return Err(UnknownName::Feature(other.to_string())),
        };
        *flag = false;
        Ok(self)
    }

    /// The features with each one named in `list` (comma- or space-separated, may be empty)
    /// switched off.
    pub fn without_list(self, list: &str) -> Result<SearchFeatures, UnknownName> {
        list.split([',', ' ']).filter(|n| !n.is_empty()).try_fold(self, |f, name| f.without(name))
    }

    /// UCCI's `pruning` scale: none (a full-width alpha-beta with quiescence), small (null move and
    /// check extension), medium (also reductions and reverse futility), large (everything).
    pub fn for_level(level: u8) -> SearchFeatures {
        let mut f = SearchFeatures::ALL;
        if level < 3 {
            f.futility = false;
            f.late_move_pruning = false;
            f.quiescence_pruning = false;
        }
        if level < 2 {
            f.late_move_reductions = false;
            f.reverse_futility = false;
        }
        if level < 1 {
            f.null_move = false;
        }
        f
    }
}

impl Default for SearchFeatures {
    fn default() -> Self {
        SearchFeatures::ALL
    }
}

/// Settings that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP). At most one per core is started (`usable_threads`): threads
    /// beyond the cores add nothing but delay every thread's next look at the clock and the stop
    /// flag.
    pub threads: usize,
    /// Root algorithm.
    pub algorithm: Algorithm,
    /// Milliseconds the GUI and pipes cost per move.
    pub move_overhead_ms: u64,
    /// Selective-search techniques in use.
    pub features: SearchFeatures,
    /// Evaluation terms in use (by the classic evaluation).
    pub terms: crate::eval::TermSet,
    /// The evaluation: the built-in net (the default), another net, or the classic one.
    pub eval: crate::eval::EvalChoice,
    /// Margins, depth limits and the reduction formula.
    pub params: SearchParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            algorithm: Algorithm::Pvs,
            move_overhead_ms: 30,
            features: SearchFeatures::ALL,
            terms: crate::eval::TermSet::ALL,
            eval: crate::eval::EvalChoice::default(),
            params: SearchParams::DEFAULT,
        }
    }
}

/// The searching engine: options, the transposition table and each thread's move-ordering
/// history, both kept from one search to the next. Cloning shares them.
#[derive(Clone)]
pub struct Engine {
    tt: std::sync::Arc<TranspositionTable>,
    /// Per-thread history, taken out for a search and put back after it.
    tables: std::sync::Arc<std::sync::Mutex<Vec<OrderingTables>>>,
    /// Threads, algorithm, overhead.
    pub options: EngineOptions,
}

/// Default hash size in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB)
    }
}

/// The search threads started for `requested`: at least one, at most one per core the process
/// may use. With more threads than cores, each waits its turn for a core, so the main thread looks
/// at the clock late and a stop reaches every helper only after all had their turn: 256 threads
/// on two cores overran a one-second clock by up to 1.25 s.
pub fn usable_threads(requested: usize) -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    requested.clamp(1, cores)
}

impl Engine {
    /// An engine with a `hash_mb` table and default options.
    ///
    /// # Panics
    /// If the table cannot be allocated; sizes that come from users go through `try_new`.
    pub fn new(hash_mb: usize) -> Engine {
        Engine::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// An engine with a `hash_mb` table and default options, or why the table cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Engine, HashError> {
        Ok(Engine {
            tt: std::sync::Arc::new(TranspositionTable::try_new(hash_mb)?),
            tables: Default::default(),
            options: EngineOptions::default(),
        })
    }

    /// Replaces the table with one of `mb` megabytes (its contents are lost). When that size
    /// cannot be had, the old table stays, contents and all.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), HashError> {
        self.tt = std::sync::Arc::new(TranspositionTable::try_new(mb)?);
        Ok(())
    }

    /// Forgets everything learned: the table and the move-ordering history (new game).
    pub fn clear_hash(&self) {
        self.tt.clear();
        self.saved_tables().clear();
    }

    fn saved_tables(&self) -> std::sync::MutexGuard<'_, Vec<OrderingTables>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The transposition table (for `probe` and `hashfull`).
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Searches `pos` within `limits`. Blocks until done; `control` stops it from another
    /// thread. Reports go to `reporter` from the calling thread's search.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        reporter: Reporter<'_>,
    ) -> SearchResult {
        let mut root = pos.clone();
        let mut moves: Vec<RootMove> = movegen::legal_moves(&mut root)
            .iter()
            .filter(|m| !limits.ban_moves.contains(m))
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .map(|&mv| RootMove { mv, score: -INFINITE })
            .collect();
        if moves.is_empty() {
            let score = if movegen::has_legal_move(&mut root) { 0 } else { -MATE };
            return SearchResult {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                time_ms: 0,
                pv: vec![],
            };
        }
        // Deterministic root order: generation order, stable sorts from there on.
        moves.sort_by_key(|m| std::cmp::Reverse(root.piece_at(m.mv.to()).is_piece()));
        self.tt.new_search();
        let time = TimeManager::new(limits, self.options.move_overhead_ms, &self.options.params);
        let threads = usable_threads(self.options.threads);
        let algorithm = self.options.algorithm;
        let options = EngineOptions { threads, ..self.options.clone() };
        let shared = Shared::new(&self.tt, control, limits, &options, reporter);
        // Last search's history, faded: the position is one move pair on, so most of it still holds.
        let mut tables = std::mem::take(&mut *self.saved_tables());
        tables.resize_with(threads, OrderingTables::default);
        tables.iter_mut().for_each(OrderingTables::age);
        let mut tables = tables.into_iter();
        let main_tables = tables.next().unwrap_or_default();
        let (outcome, nodes, tables) = std::thread::scope(|scope| {
            let mut helpers = Vec::new();
            for (i, tables) in tables.enumerate() {
                let (shared, moves, pos, eval) = (&shared, moves.clone(), root.clone(), &self.options.eval);
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let mut w = Worker::new(pos, shared, i + 1, tables, eval, None);
                    w.iterate(moves, algorithm);
                    shared.publish_nodes(i + 1, w.nodes);
                    w.tables
                });
                // Out of threads or address space (a `ulimit`): search with the helpers there are.
                match spawned {
                    Ok(helper) => helpers.push(helper),
                    Err(_) => break,
                }
            }
            let mut main = Worker::new(root.clone(), &shared, 0, main_tables, &self.options.eval, Some(time));
            let outcome = main.iterate(moves, algorithm);
            shared.publish_nodes(0, main.nodes);
            if let Some(time) = &main.time {
                time.wait_for_release(control);
            }
            shared.finished.store(true, std::sync::atomic::Ordering::SeqCst);
            let mut tables = vec![main.tables];
            // A helper that panicked loses only its history.
            tables.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            (outcome, shared.total_nodes(), tables)
        });
        *self.saved_tables() = tables;
        let best_line = &outcome.lines[0];
        SearchResult {
            best: best_line.pv.first().copied(),
            ponder: best_line.pv.get(1).copied(),
            score: best_line.score,
            depth: outcome.depth,
            nodes,
            time_ms: control.elapsed_ms(),
            pv: best_line.pv.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithms_parse_by_either_name() {
        assert_eq!("NegaScout".parse(), Ok(Algorithm::Pvs));
        assert_eq!("mtd(f)".parse(), Ok(Algorithm::Mtdf));
        let err = "alphabeta".parse::<Algorithm>().unwrap_err();
        assert_eq!(err.to_string(), "unknown search algorithm 'alphabeta' (pvs or mtdf)");
    }

    #[test]
    fn features_switch_off_by_name_and_level() {
        let f = SearchFeatures::ALL.without("null").unwrap().without("lmr").unwrap();
        assert!(!f.null_move && !f.late_move_reductions && f.futility && f.check_extension);
        let err = SearchFeatures::ALL.without("alphabeta").unwrap_err().to_string();
        assert!(err.contains("unknown search feature"), "{err}");
        assert_eq!(SearchFeatures::ALL.without_list("null, lmr").unwrap(), f);
        assert_eq!(SearchFeatures::ALL.without_list("").unwrap(), SearchFeatures::ALL);
        let err = SearchFeatures::ALL.without_list("null,nmp").unwrap_err();
        assert_eq!(err, UnknownName::Feature("nmp".into()));
        assert!(err.to_string().contains("'nmp'"), "{err}");
        for name in SearchFeatures::NAMES {
            assert_ne!(SearchFeatures::ALL.without(name).unwrap(), SearchFeatures::ALL, "{name}");
        }
        let none = SearchFeatures::for_level(0);
        assert!(!none.null_move && !none.late_move_reductions && !none.futility && none.check_extension);
        let small = SearchFeatures::for_level(1);
        assert!(small.null_move && !small.late_move_reductions);
        assert!(SearchFeatures::for_level(2).late_move_reductions && !SearchFeatures::for_level(2).futility);
        assert_eq!(SearchFeatures::for_level(3), SearchFeatures::ALL);
    }

    /// Score and nodes of a one-thread search of `fen` to `depth` with `without` switched off.
    fn search_without(fen: &str, depth: i32, without: &str) -> (i32, u64) {
        let pos = Position::from_fen(fen).unwrap();
        let mut engine = Engine::new(16);
        engine.options.features = SearchFeatures::ALL.without_list(without).unwrap();
        let control = SearchControl::new();
        control.start(false);
        let r = engine.search(&pos, &Limits::depth(depth), &control, &mut |_| {});
        (r.score, r.nodes)
    }

    #[test]
    fn mate_distance_pruning_proves_a_mate_in_fewer_nodes() {
        // Won in one: the pawn's step to e8 leaves the king no move, and stalemate loses
        // (fairy-stockfish: mate 1). Once that is found, no longer line needs searching.
        let fen = "3k5/9/4P4/9/9/9/9/9/9/4K1R2 w - - 0 1";
        let (score, nodes) = search_without(fen, 10, "");
        let (score_without, nodes_without) = search_without(fen, 10, "mdp");
        assert_eq!(score, score::MATE - 1);
        assert_eq!(score_without, score);
        assert!(nodes * 4 < nodes_without, "{nodes} nodes with it, {nodes_without} without");
    }

    #[test]
    fn every_feature_setting_still_finds_the_mate() {
        // Mate in two (checked with fairy-stockfish): no switch may lose it.
        for name in SearchFeatures::NAMES {
            let (score, _) = search_without("3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1", 6, name);
            assert_eq!(score, score::MATE - 3, "without {name}");
        }
    }
}
