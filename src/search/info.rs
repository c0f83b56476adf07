//! What a search reports while it runs and when it ends.

use crate::board::Move;

use super::timeman::TimeBudget;

/// The bound of a reported score (from an aspiration window that failed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One line of search output: an iteration's result for one PV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationInfo {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Which of the MultiPV lines (1-based).
    pub multipv: usize,
    /// Score from the side to move's view (see `search::score` for mates).
    pub score: i32,
    /// Whether `score` is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Per mille of the hash table in use.
    pub hashfull: u32,
    /// The line, legal from the root.
    pub pv: Vec<Move>,
}

/// Everything a search tells its caller while running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// An iteration (or a failed aspiration window) finished.
    Iteration(IterationInfo),
    /// The root move being searched, on long searches.
    CurrMove {
        /// The move.
        mv: Move,
        /// Its 1-based index in the root order.
        number: usize,
        /// The iteration's depth.
        depth: i32,
    },
    /// Periodic progress on long searches (about once a second).
    Progress {
        /// Nodes so far.
        nodes: u64,
        /// Nodes per second.
        nps: u64,
        /// Milliseconds since the start.
        time_ms: u64,
        /// Hash use per mille.
        hashfull: u32,
    },
    /// The thinking time the clock allows this search (`None`: no clock limits it), told once
    /// before the search starts, so a front end can show the budget the search really uses.
    TimeBudget(Option<TimeBudget>),
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move (or all are banned).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of `best` from the side to move's view.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}
