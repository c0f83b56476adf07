//! One search thread's state along the current line, ply by ply: what a node leaves for the
//! nodes below it (`Stack`: static evaluation, the continuation row of the move being searched,
//! killers) and the principal variations found (`PvTable`). The net's accumulators follow the
//! line too, behind `eval::Evaluator`.

use std::ops::{Index, IndexMut};

use crate::board::Move;

use super::history::{ContRow, Conts, NO_CONTINUATION};
use super::ordering::MAX_PLY;

/// What the search keeps for one ply of the current line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    /// The node's static evaluation: `-INFINITE` in check, and 0 at the root, which
    /// `search_root` does not evaluate.
    pub static_eval: i32,
    /// The continuation-history row of the move being searched from this ply
    /// (`NO_CONTINUATION` for a null move).
    pub cont_row: ContRow,
    /// Two quiet moves that caused a cutoff at this ply in this search, the latest first.
    pub killers: [Move; 2],
    /// The move a singular-extension search at this ply leaves out (`Move::NONE` otherwise).
    pub excluded: Move,
    /// Double singular extensions on the line from the root to this ply (they are bounded so
    /// that the search cannot grow without end).
    pub double_extensions: u8,
    /// Beta cutoffs in the move loops of the nodes at this ply since the node two plies up
    /// began (its grandchildren's count, as Stockfish's `cutoffCnt`): many say that the node
    /// one ply up sees its moves refuted one after another.
    pub cutoffs: u8,
    /// The number of the move being searched from this node (1 for the first legal move; at
    /// most 255): a child reads its parent's to know how late a move led to it.
    pub move_number: u8,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: 0,
        cont_row: NO_CONTINUATION,
        killers: [Move::NONE; 2],
        excluded: Move::NONE,
        double_extensions: 0,
        cutoffs: 0,
        move_number: 0,
    };

    /// Remembers `mv`, a quiet move that caused a cutoff, as the first killer.
    #[inline]
    pub fn add_killer(&mut self, mv: Move) {
        if self.killers[0] != mv {
            self.killers[1] = self.killers[0];
            self.killers[0] = mv;
        }
    }
}

/// The frames of plies 0 (the root) to `MAX_PLY - 1`, indexed by ply; fresh for each search.
pub(crate) struct Stack {
    frames: [Frame; MAX_PLY],
}

impl Default for Stack {
    fn default() -> Self {
        Stack { frames: [Frame::EMPTY; MAX_PLY] }
    }
}

impl Index<usize> for Stack {
    type Output = Frame;

    #[inline]
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }
}

impl IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }
}

impl Stack {
    /// The continuation rows of the moves one, two and (with `fourth`) four plies before the
    /// node at `ply`.
    #[inline]
    pub fn conts(&self, ply: usize, fourth: bool) -> Conts {
        let back = |n: usize| if ply >= n { self.frames[ply - n].cont_row } else { NO_CONTINUATION };
        [back(1), back(2), if fourth { back(4) } else { NO_CONTINUATION }]
    }

    /// Whether the side to move's static evaluation at `ply` beats its own two plies before.
    #[inline]
    pub fn improving(&self, ply: usize) -> bool {
        ply >= 2 && self.frames[ply].static_eval > self.frames[ply - 2].static_eval
    }
}

/// The triangular table of principal variations: the line found below each ply of the current
/// line, each ply's built from its best move and its child's.
pub(crate) struct PvTable {
    lines: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    lens: [usize; MAX_PLY],
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable { lines: Box::new([[Move::NONE; MAX_PLY]; MAX_PLY]), lens: [0; MAX_PLY] }
    }
}

impl PvTable {
    /// Forgets every line (a new search; the moves stay, unread, until overwritten).
    pub fn forget(&mut self) {
        self.lens = [0; MAX_PLY];
    }

    /// Forgets the line at `ply` (a node starts with none).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.lens[ply] = 0;
    }

    /// The line at `ply` becomes `mv` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move) {
        self.lines[ply][0] = mv;
        let child_len = if ply + 1 < MAX_PLY { self.lens[ply + 1] } else { 0 };
        for i in 0..child_len {
            self.lines[ply][i + 1] = self.lines[ply + 1][i];
        }
        self.lens[ply] = child_len + 1;
    }

    /// The principal variation from the root.
    pub fn root(&self) -> &[Move] {
        &self.lines[0][..self.lens[0]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse_iccs(text).unwrap()
    }

    #[test]
    fn killers_keep_the_two_latest_distinct_moves() {
        let mut frame = Frame::EMPTY;
        frame.add_killer(mv("h2e2"));
        frame.add_killer(mv("h2e2"));
        assert_eq!(frame.killers, [mv("h2e2"), Move::NONE]);
        frame.add_killer(mv("b0c2"));
        frame.add_killer(mv("a3a4"));
        assert_eq!(frame.killers, [mv("a3a4"), mv("b0c2")]);
    }

    #[test]
    fn continuation_rows_and_improving_look_back_one_two_and_four_plies() {
        let mut stack = Stack::default();
        for ply in 0..6 {
            stack[ply].cont_row = 10 + ply;
        }
        assert_eq!(stack.conts(0, true), [NO_CONTINUATION; 3]);
        assert_eq!(stack.conts(1, true), [10, NO_CONTINUATION, NO_CONTINUATION]);
        assert_eq!(stack.conts(3, true), [12, 11, NO_CONTINUATION]);
        assert_eq!(stack.conts(5, true), [14, 13, 11]);
        assert_eq!(stack.conts(5, false), [14, 13, NO_CONTINUATION]);
        stack[1].static_eval = 50;
        stack[3].static_eval = 60;
        assert!(stack.improving(3));
        stack[3].static_eval = 50;
        assert!(!stack.improving(3));
        // Nothing two plies before the first ply.
        stack[1].static_eval = 1_000;
        assert!(!stack.improving(1));
    }

    #[test]
    fn a_pv_is_the_best_move_and_the_childs_line() {
        let mut pv = PvTable::default();
        pv.update(2, mv("h9g7"));
        pv.update(1, mv("h0g2"));
        pv.update(0, mv("h2e2"));
        assert_eq!(pv.root(), [mv("h2e2"), mv("h0g2"), mv("h9g7")]);
        // A child that found no line cuts the parent's line short.
        pv.clear(1);
        pv.update(0, mv("b2e2"));
        assert_eq!(pv.root(), [mv("b2e2")]);
        pv.clear(0);
        assert!(pv.root().is_empty());
    }
}
