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
pub mod ordering;
mod rules_hook;
pub mod score;
pub mod see;
mod shared;
pub mod timeman;
pub mod tt;
mod worker;

use std::str::FromStr;

use crate::board::{movegen, Move, Position};

pub use control::SearchControl;
pub use info::{Info, IterationInfo, ScoreBound, SearchResult};
pub use limits::Limits;
pub use shared::Reporter;
pub use timeman::TimeBudget;
pub use tt::TranspositionTable;

use score::{INFINITE, MATE};
use shared::Shared;
use worker::Worker;

/// The root search algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Principal variation search (NegaScout) with aspiration windows.
    Pvs,
    /// MTD(f): null-window searches driven by the transposition table.
    Mtdf,
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "pvs" | "negascout" => Ok(Algorithm::Pvs),
            "mtdf" | "mtd(f)" => Ok(Algorithm::Mtdf),
            other => Err(format!("unknown search algorithm '{other}' (pvs or mtdf)")),
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

/// Settings that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Root algorithm.
    pub algorithm: Algorithm,
    /// Milliseconds the GUI and pipes cost per move.
    pub move_overhead_ms: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { threads: 1, algorithm: Algorithm::Pvs, move_overhead_ms: 30 }
    }
}

/// The searching engine: options and the transposition table. Cloning shares the table.
#[derive(Clone)]
pub struct Engine {
    tt: std::sync::Arc<TranspositionTable>,
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

impl Engine {
    /// An engine with a `hash_mb` table and default options.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: std::sync::Arc::new(TranspositionTable::new(hash_mb)),
            options: EngineOptions::default(),
        }
    }

    /// Replaces the table with one of `mb` megabytes (its contents are lost).
    pub fn resize_hash(&mut self, mb: usize) {
        self.tt = std::sync::Arc::new(TranspositionTable::new(mb));
    }

    /// Forgets everything the table holds (new game).
    pub fn clear_hash(&self) {
        self.tt.clear();
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
        let budget = TimeBudget::new(limits, self.options.move_overhead_ms);
        let threads = self.options.threads.max(1);
        let algorithm = self.options.algorithm;
        let shared = Shared::new(&self.tt, control, limits, budget, threads, reporter);
        let (outcome, nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let (shared, moves, pos) = (&shared, moves.clone(), root.clone());
                    scope.spawn(move || {
                        let mut w = Worker::new(pos, shared, id);
                        w.iterate(moves, algorithm);
                        shared.publish_nodes(id, w.nodes);
                    })
                })
                .collect();
            let mut main = Worker::new(root.clone(), &shared, 0);
            let outcome = main.iterate(moves, algorithm);
            shared.publish_nodes(0, main.nodes);
            // `go infinite` and pondering never answer before `stop` / `ponderhit`.
            while (limits.infinite || control.is_pondering()) && !control.stop_requested() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            shared.finished.store(true, std::sync::atomic::Ordering::SeqCst);
            for h in helpers {
                let _ = h.join();
            }
            (outcome, shared.total_nodes())
        });
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
