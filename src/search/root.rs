//! The root move list: the moves a search may answer with, each one's score in the current
//! iteration and the nodes spent below it (which the time manager reads as effort).
//! `Engine::search` builds it, the driver orders it by score, and each thread's `search_root`
//! scores it.

use crate::board::{movegen, Move, Position};

use super::limits::Limits;
use super::score::INFINITE;

/// A root move and its score in the current iteration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score (`-INFINITE` until searched in this pass).
    pub score: i32,
    /// The nodes this thread has searched below it, over the whole search.
    pub effort: u64,
}

/// The legal moves of `root` that `limits` allows (not banned, among `searchmoves` when it
/// names any), captures first. The order is otherwise generation order, and every later sort is
/// stable, so a search is deterministic.
pub(crate) fn root_moves(root: &mut Position, limits: &Limits) -> Vec<RootMove> {
    let mut moves: Vec<RootMove> = movegen::legal_moves(root)
        .iter()
        .filter(|m| !limits.ban_moves.contains(m))
        .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
        .map(|&mv| RootMove { mv, score: -INFINITE, effort: 0 })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(root.piece_at(m.mv.to()).is_piece()));
    moves
}

/// The percent of the root's nodes, over the whole search so far, spent below `best`.
pub(crate) fn effort_percent(moves: &[RootMove], best: Move) -> u32 {
    let total: u64 = moves.iter().map(|m| m.effort).sum();
    let on_best = moves.iter().find(|m| m.mv == best).map_or(0, |m| m.effort);
    (on_best * 100).checked_div(total).unwrap_or(0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effort_is_the_best_moves_share_of_the_roots_nodes() {
        let mv = |iccs| Move::parse_iccs(iccs).unwrap();
        let root = |iccs, effort| RootMove { mv: mv(iccs), score: 0, effort };
        let moves = [root("h2e2", 900), root("b2e2", 60), root("h0g2", 40)];
        assert_eq!(effort_percent(&moves, mv("h2e2")), 90);
        assert_eq!(effort_percent(&moves, mv("b2e2")), 6);
        // A move not in the list, and a search that has no nodes yet, took no effort.
        assert_eq!(effort_percent(&moves, mv("a3a4")), 0);
        assert_eq!(effort_percent(&[root("h2e2", 0)], mv("h2e2")), 0);
    }
}
