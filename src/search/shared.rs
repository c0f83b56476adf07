//! State shared by the threads of one search: the table, the control, limits, node counts, and
//! the reporter (only the main thread reports). The clock is the main thread's `TimeManager`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::board::Move;

use super::control::SearchControl;
use super::info::Info;
use super::limits::Limits;
use super::options::{EngineOptions, SearchFeatures};
use super::params::SearchParams;
use super::reductions::Reductions;
use super::tt::TranspositionTable;

/// The caller's sink for search output.
pub type Reporter<'a> = &'a mut (dyn FnMut(&Info) + Send);

/// Milliseconds of searching before `currmove`, progress and bound lines start (short searches
/// stay quiet).
pub(crate) const CHATTY_AFTER_MS: u64 = 1_000;

/// Milliseconds between two progress lines.
const PROGRESS_EVERY_MS: u64 = 1_000;

pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a Limits,
    pub features: SearchFeatures,
    /// The evaluation terms in use.
    pub terms: crate::eval::TermSet,
    /// Margins, depth limits and the reduction formula.
    pub params: SearchParams,
    /// Late-move reductions by depth and move number, from `params` (see `reduction`).
    reductions: &'a Reductions,
    /// Endgame tables, when the options name some.
    pub tablebases: Option<std::sync::Arc<crate::egtb::Tablebases>>,
    /// Set by the main thread when it is done, to stop the helpers.
    pub finished: AtomicBool,
    node_counts: Vec<AtomicU64>,
    last_progress_ms: AtomicU64,
    reporter: Mutex<Reporter<'a>>,
}

impl<'a> Shared<'a> {
    pub fn new(
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        limits: &'a Limits,
        options: &EngineOptions,
        reductions: &'a Reductions,
        reporter: Reporter<'a>,
    ) -> Shared<'a> {
        let threads = options.threads.max(1);
        Shared {
            tt,
            control,
            limits,
            features: options.features,
            terms: options.terms,
            params: options.params,
            reductions,
            tablebases: options.tablebases.0.clone(),
            finished: AtomicBool::new(false),
            node_counts: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            last_progress_ms: AtomicU64::new(0),
            reporter: Mutex::new(reporter),
        }
    }

    /// With one thread the node limit is checked exactly at every node (deterministic).
    #[inline]
    pub fn node_limit_per_thread(&self) -> Option<u64> {
        if self.node_counts.len() == 1 {
            self.limits.nodes
        } else {
            None
        }
    }

    #[inline]
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        self.node_counts[id].store(nodes, Ordering::Relaxed);
    }

    /// Nodes of all threads, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.node_counts.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Ends this search's threads (the node limit is reached) without a stop request, which
    /// would also release an answer that must wait for `ponderhit` or `stop`.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::SeqCst);
    }

    /// Whether this search's threads must unwind now.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.control.stop_requested() || self.finished.load(Ordering::Relaxed)
    }

    /// The late-move reduction for the `move_number`th move at `depth`, both at least 1 (the
    /// table's last row and column serve beyond it).
    #[inline]
    pub fn reduction(&self, depth: i32, move_number: i32) -> i32 {
        self.reductions.get(depth, move_number)
    }

    /// The same reduction in 1,024ths of a ply (`reductions::PLY_FRACTION`).
    #[inline]
    pub fn reduction_fine(&self, depth: i32, move_number: i32) -> i32 {
        self.reductions.get_fine(depth, move_number)
    }

    /// Milliseconds on the clock (0 while pondering: the clock has not started).
    pub fn elapsed_ms(&self) -> u64 {
        self.control.elapsed_ms()
    }

    /// The main thread's periodic duties besides the clock, `elapsed` milliseconds into the
    /// search: the total node limit, progress lines.
    pub fn poll(&self, elapsed: u64) {
        if let Some(limit) = self.limits.nodes {
            if self.total_nodes() >= limit {
                self.finish();
            }
        }
        let last = self.last_progress_ms.load(Ordering::Relaxed);
        if elapsed >= CHATTY_AFTER_MS && elapsed >= last + PROGRESS_EVERY_MS {
            self.last_progress_ms.store(elapsed, Ordering::Relaxed);
            let nodes = self.total_nodes();
            self.report(&Info::Progress {
                nodes,
                nps: nodes * 1000 / elapsed.max(1),
                time_ms: elapsed,
                hashfull: self.tt.hashfull(),
            });
        }
    }

    pub fn report_currmove(&self, mv: Move, number: usize, depth: i32) {
        if self.elapsed_ms() >= CHATTY_AFTER_MS {
            self.report(&Info::CurrMove { mv, number, depth });
        }
    }

    pub fn report(&self, info: &Info) {
        let mut sink = self.reporter.lock().unwrap_or_else(|e| e.into_inner());
        (*sink)(info);
    }
}
