//! The textbook lab (`chariot lab`): the search algorithms of the book's chapters 4–7, each
//! written plainly on its own over a `GameTree` (`tree.rs`), counting the leaves it evaluates and
//! the nodes it expands (`counter.rs`). Run over xiangqi (`xiangqi.rs`: Chariot's board, move
//! generator and classic evaluation) they reproduce the book's tables 7.2 and 7.3; run over the
//! synthetic trees of `synthetic.rs` they are checked against theory.
//!
//! This is a room of its own: the engine's search (`search/`) is another, much stronger thing,
//! and neither uses the other. The lab has its own transposition table (`table.rs`) and history
//! counters (`history_table.rs`). docs/lab.md shows and reads its figures.

pub mod alpha_beta_history;
pub mod alpha_beta_tt;
pub mod alphabeta;
pub mod aspiration;
pub mod counter;
pub mod dual;
pub mod fail_soft;
pub mod history_table;
pub mod iterative;
pub mod minimax;
pub mod mt;
pub mod mtdf;
pub mod negascout_tt_history;
pub mod pvs;
pub mod sss;
pub mod synthetic;
pub mod table;
pub mod tree;
pub mod xiangqi;

use std::fmt;
use std::time::{Duration, Instant};

pub use counter::{Counts, Ctx};
pub use history_table::HistoryTable;
pub use synthetic::SyntheticTree;
pub use table::Table;
pub use tree::GameTree;
pub use xiangqi::XiangqiTree;

/// The lab's algorithms, in the order of the book's table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Negamax without pruning.
    Minimax,
    /// Basic alpha-beta, fail-hard.
    AlphaBeta,
    /// Alpha-beta, fail-soft.
    FailSoft,
    /// Aspiration windows around a one-ply-shallower guess.
    Aspiration,
    /// Principal variation search (NegaScout).
    Pvs,
    /// Iterative deepening over alpha-beta.
    Iterative,
    /// Alpha-beta with a transposition table.
    AlphaBetaTt,
    /// Alpha-beta with the history heuristic.
    AlphaBetaHistory,
    /// MTD(f), iteratively deepened.
    Mtdf,
    /// SSS*, as MT-SSS*.
    Sss,
    /// DUAL*, as MT-DUAL*.
    Dual,
    /// NegaScout with the transposition table and the history heuristic.
    NegaScoutTtHistory,
}

impl Algorithm {
    /// Every algorithm, in the order of the book's table.
    pub const ALL: [Algorithm; 12] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::FailSoft,
        Algorithm::Aspiration,
        Algorithm::Pvs,
        Algorithm::Iterative,
        Algorithm::AlphaBetaTt,
        Algorithm::AlphaBetaHistory,
        Algorithm::Mtdf,
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::NegaScoutTtHistory,
    ];

    /// The name `--algorithms` takes.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::FailSoft => "failsoft",
            Algorithm::Aspiration => "aspiration",
            Algorithm::Pvs => "pvs",
            Algorithm::Iterative => "iterative",
            Algorithm::AlphaBetaTt => "alphabeta-tt",
            Algorithm::AlphaBetaHistory => "alphabeta-history",
            Algorithm::Mtdf => "mtdf",
            Algorithm::Sss => "sss",
            Algorithm::Dual => "dual",
            Algorithm::NegaScoutTtHistory => "negascout-tt-history",
        }
    }

    /// The algorithm `--algorithms` names `name`.
    pub fn from_name(name: &str) -> Result<Algorithm, UnknownAlgorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| UnknownAlgorithm(crate::quote::quoted(name)))
    }

    /// Whether it keeps a transposition table, whose entries may stand in for shallower
    /// searches of the same position (so its value may differ from minimax's: docs/lab.md).
    pub fn uses_table(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBetaTt
                | Algorithm::Mtdf
                | Algorithm::Sss
                | Algorithm::Dual
                | Algorithm::NegaScoutTtHistory
        )
    }
}

/// A name `--algorithms` does not know (quoted); `Display` lists the names it knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        write!(f, "unknown algorithm {} (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownAlgorithm {}

/// What the algorithms may be tuned by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The aspiration window's half-width, in evaluation units.
    pub window: i32,
    /// The transposition table has `2^table_bits` entries.
    pub table_bits: u32,
}

impl Default for Settings {
    /// A window of a pawn and a bit either side (the classic pawn is worth 13 to 17); a
    /// million entries hold a depth-6 search's interior nodes.
    fn default() -> Settings {
        Settings { window: 20, table_bits: 20 }
    }
}

/// One search's answer and cost.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The value from the root's side to move's view.
    pub value: i32,
    /// The leaves and nodes.
    pub counts: Counts,
    /// How long it took.
    pub elapsed: Duration,
}

/// Searches `tree` from its current node with `algorithm`, `depth` plies deep, with fresh
/// tables and counts. The tables are made before the clock starts, as an engine makes its
/// table once at start-up.
pub fn run<T: GameTree>(algorithm: Algorithm, tree: &mut T, depth: u32, settings: Settings) -> Outcome {
    let bits = if algorithm.uses_table() { settings.table_bits } else { 0 };
    let mut memory =
        negascout_tt_history::Memory { table: Table::new(bits), history: HistoryTable::new::<T>() };
    let table = &mut memory.table;
    let start = Instant::now();
    let mut ctx = Ctx::new(tree);
    let c = &mut ctx;
    let value = match algorithm {
        Algorithm::Minimax => minimax::negamax(c, depth),
        Algorithm::AlphaBeta => alphabeta::search(c, depth),
        Algorithm::FailSoft => fail_soft::search(c, depth),
        Algorithm::Aspiration => aspiration::search(c, depth, settings.window),
        Algorithm::Pvs => pvs::search(c, depth),
        Algorithm::Iterative => iterative::search(c, depth),
        Algorithm::AlphaBetaTt => alpha_beta_tt::search(c, depth, table),
        Algorithm::AlphaBetaHistory => alpha_beta_history::search(c, depth),
        Algorithm::Mtdf => mtdf::search(c, depth, table),
        Algorithm::Sss => sss::search(c, depth, table),
        Algorithm::Dual => dual::search(c, depth, table),
        Algorithm::NegaScoutTtHistory => negascout_tt_history::search(c, depth, &mut memory),
    };
    Outcome { value, counts: ctx.counts, elapsed: start.elapsed() }
}

#[cfg(test)]
mod tests;
