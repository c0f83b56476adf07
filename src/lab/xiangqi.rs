//! Xiangqi as a lab tree: Chariot's `Position`, its legal move generator (in generation order)
//! and the classic evaluation, with no quiescence search, as the book's engines had none: a leaf
//! is scored where the horizon cuts it, a capture in flight or not. Repetitions are not judged
//! either: the lab searches the pure move tree.

use super::tree::GameTree;
use crate::board::{movegen, Move, Position};
use crate::eval::classic;

/// A position the lab searches from.
pub struct XiangqiTree {
    position: Position,
}

impl XiangqiTree {
    /// The tree below `position`.
    pub fn new(position: Position) -> XiangqiTree {
        XiangqiTree { position }
    }
}

impl GameTree for XiangqiTree {
    type Move = Move;

    /// One counter for each (from, to) pair of mailbox squares.
    const HISTORY_SIZE: usize = 1 << 16;

    fn moves(&mut self) -> Vec<Move> {
        movegen::legal_moves(&mut self.position).as_slice().to_vec()
    }

    fn play(&mut self, mv: Move) {
        self.position.make_move(mv);
    }

    fn undo(&mut self) {
        self.position.unmake_move();
    }

    fn evaluate(&mut self) -> i32 {
        classic::evaluate(&self.position)
    }

    fn key(&self) -> u64 {
        self.position.key()
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.bits() as usize
    }
}
