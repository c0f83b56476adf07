//! The root move list: the moves a search may answer with, and each one's score in the current
//! iteration. `Engine::search` builds it, the driver orders it by score, and each thread's
//! `search_root` scores it.

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
}

/// The legal moves of `root` that `limits` allows (not banned, among `searchmoves` when it
/// names any), captures first. The order is otherwise generation order, and every later sort is
/// stable, so a search is deterministic.
pub(crate) fn root_moves(root: &mut Position, limits: &Limits) -> Vec<RootMove> {
    let mut moves: Vec<RootMove> = movegen::legal_moves(root)
        .iter()
        .filter(|m| !limits.ban_moves.contains(m))
        .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
        .map(|&mv| RootMove { mv, score: -INFINITE })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(root.piece_at(m.mv.to()).is_piece()));
    moves
}
