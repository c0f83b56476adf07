//! Move ordering: hash move, good captures (by SEE, then MVV-LVA), killers, counter move,
//! history for quiet moves, and losing captures last.

use crate::board::{Move, MoveList, Position};

use super::see::{see_non_negative, value_on};

/// Plies the search can go deep (stacks are sized by it).
pub const MAX_PLY: usize = 128;

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: [i32; 2] = [(1 << 27) + 2, (1 << 27) + 1];
const COUNTER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);
/// History scores stay within ±this, so they never outrank killers.
pub const HISTORY_MAX: i32 = 1 << 20;

/// Killer moves and history tables of one search thread.
pub struct OrderingTables {
    /// Two quiet moves per ply that caused a cutoff.
    pub killers: [[Move; 2]; MAX_PLY],
    /// Quiet-move success by (piece type index, destination).
    pub history: Box<[[i32; 256]; 14]>,
    /// The reply that refuted a move, by (piece type index, destination) of that move.
    pub counter: Box<[[Move; 256]; 14]>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: [[Move::NONE; 2]; MAX_PLY],
            history: Box::new([[0; 256]; 14]),
            counter: Box::new([[Move::NONE; 256]; 14]),
        }
    }
}

impl OrderingTables {
    /// Records a quiet move that caused a beta cutoff at `ply`, and punishes the quiet moves
    /// tried before it.
    pub fn reward_quiet(&mut self, pos: &Position, mv: Move, tried: &[Move], depth: i32, ply: usize) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let bonus = (depth * depth).min(400) * 16;
        update_history(&mut self.history[pos.piece_at(mv.from()).type_index()][mv.to().index()], bonus);
        for &other in tried {
            if other != mv {
                let p = pos.piece_at(other.from()).type_index();
                update_history(&mut self.history[p][other.to().index()], -bonus);
            }
        }
        if let Some(prev) = pos.last_move() {
            let p = pos.piece_at(prev.to()).type_index();
            self.counter[p][prev.to().index()] = mv;
        }
    }

    /// Scales history down between searches so old lessons fade.
    pub fn age(&mut self) {
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 4;
            }
        }
        self.killers = [[Move::NONE; 2]; MAX_PLY];
    }
}

/// Gravity update: keeps the value within ±HISTORY_MAX.
fn update_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// A move list with ordering scores, handing out the best remaining move each time.
pub struct ScoredMoves {
    moves: MoveList,
    scores: [i32; crate::board::moves::MAX_MOVES],
    next: usize,
}

impl ScoredMoves {
    /// Scores `moves` for the node at `ply`.
    pub fn new(
        pos: &mut Position,
        moves: MoveList,
        hash_move: Move,
        tables: &OrderingTables,
        ply: usize,
    ) -> Self {
        let mut scores = [0; crate::board::moves::MAX_MOVES];
        let counter = pos
            .last_move()
            .map(|prev| tables.counter[pos.piece_at(prev.to()).type_index()][prev.to().index()])
            .unwrap_or(Move::NONE);
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if mv == hash_move {
                HASH_MOVE
            } else if pos.piece_at(mv.to()).is_piece() {
                let mvv_lva = value_on(pos, mv.to()) * 16 - value_on(pos, mv.from()) / 16;
                if see_non_negative(pos, mv) {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            } else if mv == tables.killers[ply][0] {
                KILLER[0]
            } else if mv == tables.killers[ply][1] {
                KILLER[1]
            } else if mv == counter {
                COUNTER
            } else {
                tables.history[pos.piece_at(mv.from()).type_index()][mv.to().index()]
            };
        }
        ScoredMoves { moves, scores, next: 0 }
    }

    /// Captures only, ordered by MVV-LVA (quiescence; SEE is applied by the caller).
    pub fn captures(pos: &Position, moves: MoveList) -> Self {
        let mut scores = [0; crate::board::moves::MAX_MOVES];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = value_on(pos, mv.to()) * 16 - value_on(pos, mv.from()) / 16;
        }
        ScoredMoves { moves, scores, next: 0 }
    }

    /// Whether the move about to be handed out was scored as a losing capture.
    pub fn is_bad_capture_score(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}

impl Iterator for ScoredMoves {
    type Item = (Move, i32);

    /// The best remaining move and its ordering score (selection sort, one step).
    fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let slice = self.moves.as_mut_slice();
        slice.swap(self.next, best);
        self.scores.swap(self.next, best);
        let item = (slice[self.next], self.scores[self.next]);
        self.next += 1;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;

    #[test]
    fn hash_move_then_good_captures_then_quiets_then_bad_captures() {
        // Red rook e1 can take a free horse on e5; red cannon b2 can take a pawn b9? no: set up a
        // losing capture: red rook a1 takes a pawn a6 guarded by a rook a9.
        let mut pos = Position::from_fen("r2k5/9/9/p8/4n4/9/9/9/R3R4/5K3 w - - 0 1").unwrap();
        let moves = movegen::legal_moves(&mut pos);
        let hash = Move::parse_iccs("e1e2").unwrap();
        let order: Vec<Move> =
            ScoredMoves::new(&mut pos, moves, hash, &OrderingTables::default(), 0).map(|(m, _)| m).collect();
        assert_eq!(order[0], hash);
        assert_eq!(order[1].to_string(), "e1e5", "the free horse next");
        assert_eq!(order.last().unwrap().to_string(), "a1a6", "the losing capture last");
    }
}
