//! The classic evaluation's incremental part along the search line: the `PsqState` of each ply,
//! each one the ply below's changed by the moved and captured pieces' table entries, so that the
//! search never sums the whole board. Only the classic evaluator keeps it: the net's search pays
//! nothing for it.

use super::psq::PsqState;
use crate::board::{Move, Position};

/// Plies the stack holds before it grows (the search's deepest line and a margin).
const INITIAL_PLIES: usize = 136;

/// The `PsqState` of every ply of the current line, the root's first.
pub struct PsqStack {
    plies: Vec<PsqState>,
}

impl PsqStack {
    /// A stack whose root is `pos`.
    pub fn new(pos: &Position) -> PsqStack {
        let mut plies = Vec::with_capacity(INITIAL_PLIES);
        plies.push(PsqState::of(pos));
        PsqStack { plies }
    }

    /// Records `mv`, about to be played on `pos` (call before `pos.make_move(mv)`).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        let next = self.top().after_move(pos, mv);
        self.plies.push(next);
    }

    /// Forgets the last move.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.plies.len() > 1, "pop below the root");
        self.plies.pop();
    }

    /// The state of the position after every recorded move.
    #[inline]
    pub fn top(&self) -> PsqState {
        *self.plies.last().expect("the root is never popped")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;
    use rand::{Rng, SeedableRng};

    /// Random walks of moves and take-backs, captures preferred half the time (so that pieces
    /// and phase leave the board): the top always equals a sum from scratch.
    #[test]
    fn incremental_equals_a_fresh_sum_along_random_lines() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(28);
        let mut captures = 0;
        for fen in [crate::board::START_FEN, "3k5/4a4/4b4/9/2p6/6P2/9/4B4/4A4/2R1K1N2 w - - 0 1"] {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut stack = PsqStack::new(&pos);
            for _ in 0..400 {
                let moves = movegen::legal_moves(&mut pos);
                let depth = stack.plies.len() - 1;
                if depth > 0 && (moves.is_empty() || depth > 30 || rng.gen_bool(0.3)) {
                    stack.pop();
                    pos.unmake_move();
                } else {
                    let takes: Vec<Move> = moves
                        .as_slice()
                        .iter()
                        .copied()
                        .filter(|m| pos.piece_at(m.to()).is_piece())
                        .collect();
                    let mv = if !takes.is_empty() && rng.gen_bool(0.5) {
                        takes[rng.gen_range(0..takes.len())]
                    } else {
                        moves.as_slice()[rng.gen_range(0..moves.len())]
                    };
                    captures += pos.piece_at(mv.to()).is_piece() as usize;
                    stack.push_move(&pos, mv);
                    pos.make_move(mv);
                }
                assert_eq!(stack.top(), PsqState::of(&pos), "{pos:?}");
            }
        }
        assert!(captures > 20, "the walks must take pieces ({captures})");
    }
}
