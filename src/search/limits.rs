//! What a `go` asks for: depth, nodes, time controls, pondering, restrictions on root moves.

use crate::board::Move;

/// The limits of one search, already converted to milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search at most this many plies.
    pub depth: Option<i32>,
    /// Search at most this many nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are spent: the answer then comes from a whole
    /// iteration, where `nodes` cuts one off wherever it stands (data generation uses both).
    pub soft_nodes: Option<u64>,
    /// Spend exactly this long (milliseconds).
    pub movetime: Option<u64>,
    /// Time left on the mover's clock (milliseconds).
    pub time_left: Option<u64>,
    /// Increment per move (milliseconds).
    pub increment: u64,
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search until `stop`, and never answer before it.
    pub infinite: bool,
    /// Pondering: the clock starts at `ponderhit`.
    pub ponder: bool,
    /// Look for a mate in this many moves.
    pub mate: Option<i32>,
    /// Only these root moves (UCI `searchmoves`); empty = all.
    pub search_moves: Vec<Move>,
    /// Never these root moves (UCCI `banmoves`).
    pub ban_moves: Vec<Move>,
    /// How many best lines to report (UCI `MultiPV`), at least 1.
    pub multipv: usize,
}

impl Limits {
    /// Depth-limited search, nothing else.
    pub fn depth(depth: i32) -> Limits {
        Limits { depth: Some(depth), multipv: 1, ..Limits::default() }
    }

    /// Node-limited search, nothing else.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), multipv: 1, ..Limits::default() }
    }

    /// Fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits { movetime: Some(ms), multipv: 1, ..Limits::default() }
    }

    /// Whether the clock limits this search at all.
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.time_left.is_some()
    }
}
