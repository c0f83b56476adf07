//! The history heuristic's table (the book's 7.5): one counter a move, raised by `2^depth`
//! whenever the move was a node's best or caused its cutoff, deep results weighing more. Moves
//! are then tried in the order of their counters, wherever in the tree they are played.

use super::tree::GameTree;

/// The counters.
pub struct HistoryTable {
    counters: Vec<u64>,
}

impl HistoryTable {
    /// All counters at zero, as many as `T` asks for.
    pub fn new<T: GameTree>() -> HistoryTable {
        HistoryTable { counters: vec![0; T::HISTORY_SIZE] }
    }

    /// Rewards `mv`, the best move of a node searched `depth` plies deep.
    #[inline]
    pub fn reward<T: GameTree>(&mut self, tree: &T, mv: T::Move, depth: u32) {
        self.counters[tree.history_index(mv)] += 1 << depth.min(40);
    }

    /// Sorts `moves` by their counters, the highest first (ties keep the tree's order).
    pub fn sort<T: GameTree>(&self, tree: &T, moves: &mut [T::Move]) {
        moves.sort_by_key(|&mv| std::cmp::Reverse(self.counters[tree.history_index(mv)]));
    }
}
