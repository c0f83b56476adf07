//! The moves of a main-search node, in the order `ordering` gives them. Staged (the
//! `staged_picker` candidate), they are generated as they are needed, as Stockfish's move picker
//! does: the table's move before any other is generated, then the captures, then the killers and
//! the counter move, and the other quiet moves only if none of those refuted the node; the
//! captures that lose by exchange come last. Most nodes that cut, cut before a quiet move
//! ordered by its history comes up (nine in ten of the bench's), and those never generate or
//! score their quiet moves. Each stage is scored when it begins, with what the moves before it
//! taught the history tables. Unstaged, every move is generated and scored at once.

use crate::board::{movegen, Move, Position};

use super::history::{Conts, OrderingTables};
use super::ordering::{ScoredMoves, COUNTER, HASH_MOVE, KILLER, LOSING_CAPTURE_MAX};

/// Where a staged picker stands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    /// The table's move (if it is pseudo-legal here) comes next.
    Hash,
    /// The captures that do not lose by exchange.
    GoodCaptures,
    /// The killers, then the counter move (quiet, pseudo-legal, not the table's move); the
    /// quiet moves are generated when they are done.
    Refutations,
    /// The other quiet moves, by their history.
    Quiets,
    /// The captures that lose by exchange.
    BadCaptures,
    /// Every move of an unstaged picker, scored at once.
    All,
}

/// A main-search node's moves, handed out best first (see the module's note). The moves live in
/// one scored list: the captures at its first places, the quiet moves after them once needed.
pub struct MovePicker {
    stage: Stage,
    hash_move: Move,
    killers: [Move; 2],
    conts: Conts,
    capture_history_div: i32,
    /// The refutations handed out or to be handed out, in order; `Move::NONE` where none.
    refutations: [Move; 3],
    refutation_index: usize,
    moves: ScoredMoves,
    /// The captures' places are `capture_cursor..quiet_start` still to hand out.
    capture_cursor: usize,
    /// Where the quiet moves begin (the list's length until they are generated).
    quiet_start: usize,
    quiet_cursor: usize,
}

impl MovePicker {
    /// The picker for `pos` with the table's move `hash_move` (vetted here), the node's
    /// `killers`, the continuation rows `conts` and the capture-history divisor (0: none);
    /// `staged` chooses the staged order (the module's note).
    pub fn new(
        pos: &mut Position,
        hash_move: Move,
        tables: &mut OrderingTables,
        (killers, conts): ([Move; 2], Conts),
        capture_history_div: i32,
        staged: bool,
    ) -> Self {
        let mut picker = MovePicker {
            stage: Stage::Hash,
            hash_move,
            killers,
            conts,
            capture_history_div,
            refutations: [Move::NONE; 3],
            refutation_index: 0,
            moves: ScoredMoves::empty(),
            capture_cursor: 0,
            quiet_start: 0,
            quiet_cursor: 0,
        };
        if !staged {
            // Every move, the table's move scored on top.
            let context = (killers, conts);
            picker.moves.append(pos, movegen::pseudo_moves, hash_move, tables, context, capture_history_div);
            picker.stage = Stage::All;
        } else if hash_move == Move::NONE || !movegen::is_pseudo_legal(pos, hash_move) {
            picker.hash_move = Move::NONE;
            picker.begin_captures(pos, tables);
        }
        picker
    }

    fn begin_captures(&mut self, pos: &mut Position, tables: &mut OrderingTables) {
        let context = (self.killers, self.conts);
        self.moves.append(
            pos,
            movegen::pseudo_captures,
            Move::NONE,
            tables,
            context,
            self.capture_history_div,
        );
        self.quiet_start = self.moves.len();
        self.stage = Stage::GoodCaptures;
    }

    /// The next move and its order score, in `pos` (the node's position) with `tables` as
    /// they stand now.
    pub fn next(&mut self, pos: &mut Position, tables: &mut OrderingTables) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::All => return self.moves.next_move(pos),
                Stage::Hash => {
                    self.begin_captures(pos, tables);
                    return Some((self.hash_move, HASH_MOVE));
                }
                Stage::GoodCaptures => {
                    let (end, skip) = (self.quiet_start, [self.hash_move; 4]);
                    let good = LOSING_CAPTURE_MAX + 1;
                    if let Some(item) =
                        pick_from(&mut self.moves, pos, &mut self.capture_cursor, end, good, skip)
                    {
                        return Some(item);
                    }
                    self.refutations = self.refutations(pos, tables);
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    while self.refutation_index < self.refutations.len() {
                        let (index, mv) = (self.refutation_index, self.refutations[self.refutation_index]);
                        self.refutation_index += 1;
                        if mv != Move::NONE {
                            let score = if index < 2 { KILLER[index] } else { COUNTER };
                            return Some((mv, score));
                        }
                    }
                    let context = (self.killers, self.conts);
                    let div = self.capture_history_div;
                    self.quiet_cursor =
                        self.moves.append(pos, movegen::pseudo_quiets, Move::NONE, tables, context, div);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let [a, b, c] = self.refutations;
                    let (end, skip) = (self.moves.len(), [self.hash_move, a, b, c]);
                    if let Some(item) =
                        pick_from(&mut self.moves, pos, &mut self.quiet_cursor, end, i32::MIN, skip)
                    {
                        return Some(item);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    let (end, skip) = (self.quiet_start, [self.hash_move; 4]);
                    return pick_from(&mut self.moves, pos, &mut self.capture_cursor, end, i32::MIN, skip);
                }
            }
        }
    }

    /// The killers and the counter move that are quiet, pseudo-legal moves here other than the
    /// table's move, each once: the ones an unstaged picker scores as refutations.
    fn refutations(&self, pos: &Position, tables: &OrderingTables) -> [Move; 3] {
        let candidates = [self.killers[0], self.killers[1], tables.counter_move(pos)];
        let mut out = [Move::NONE; 3];
        for (i, mv) in candidates.into_iter().enumerate() {
            let fresh = mv != Move::NONE && mv != self.hash_move && !out[..i].contains(&mv);
            if fresh && !pos.piece_at(mv.to()).is_piece() && movegen::is_pseudo_legal(pos, mv) {
                out[i] = mv;
            }
        }
        out
    }
}

/// The best move of `moves` at places `*cursor..end` scoring at least `floor` that is none of
/// `skip` (moves handed out in an earlier stage), moving the cursor past it and past the
/// skipped ones.
#[inline]
fn pick_from(
    moves: &mut ScoredMoves,
    pos: &mut Position,
    cursor: &mut usize,
    end: usize,
    floor: i32,
    skip: [Move; 4],
) -> Option<(Move, i32)> {
    while let Some(item) = moves.pick(pos, *cursor, end, floor) {
        *cursor += 1;
        if !skip.contains(&item.0) {
            return Some(item);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveList, Square};
    use crate::search::history::{piece_square, NO_CONTINUATION};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn staged_the_picker_hands_out_every_move_once_in_the_classes_order() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut pos = Position::startpos();
        let mut tables = OrderingTables::default();
        let mut refutations_seen = 0;
        for step in 0..400 {
            let mut all = MoveList::new();
            movegen::pseudo_moves(&pos, &mut all);
            if all.is_empty() {
                pos = Position::startpos();
                continue;
            }
            let any = |rng: &mut StdRng| all.as_slice()[rng.gen_range(0..all.len())];
            let foreign = |rng: &mut StdRng| {
                Move::new(
                    Square::from_index(rng.gen_range(0..=255)),
                    Square::from_index(rng.gen_range(0..=255)),
                )
            };
            // The table's move and the killers: none, a move of this position, or one from
            // elsewhere; history that orders the quiet moves.
            let hash_move = [Move::NONE, any(&mut rng), foreign(&mut rng)][step % 3];
            let killers = [any(&mut rng), [Move::NONE, any(&mut rng), foreign(&mut rng)][step % 3]];
            let conts = [piece_square(&pos, any(&mut rng)), NO_CONTINUATION, NO_CONTINUATION];
            let taught = any(&mut rng);
            if !pos.piece_at(taught.to()).is_piece() {
                tables.reward_quiet(&pos, taught, &[], rng.gen_range(1..12), conts);
            }
            let mut hand_out = |pos: &mut Position, staged: bool| {
                let mut picker = MovePicker::new(pos, hash_move, &mut tables, (killers, conts), 0, staged);
                std::iter::from_fn(|| picker.next(pos, &mut tables)).collect::<Vec<_>>()
            };
            let staged = hand_out(&mut pos, true);
            let unstaged = hand_out(&mut pos, false);
            // The same moves with the same scores, each once ...
            let sorted = |mut v: Vec<(Move, i32)>| {
                v.sort_by_key(|&(mv, score)| (score, mv.from().index(), mv.to().index()));
                v
            };
            assert_eq!(sorted(staged.clone()), sorted(unstaged.clone()), "step {step}");
            assert_eq!(staged.len(), all.len(), "step {step}");
            // ... and, staged, best first as well: no class comes before a better one.
            assert!(staged.windows(2).all(|w| w[0].1 >= w[1].1), "step {step}: {staged:?}");
            if all.contains(hash_move) {
                assert_eq!(staged[0], (hash_move, HASH_MOVE), "step {step}");
            }
            refutations_seen += staged.iter().filter(|&&(_, s)| (COUNTER..=KILLER[0]).contains(&s)).count();
            let mv = any(&mut rng);
            if movegen::is_legal(&mut pos, mv) {
                pos.make_move(mv);
            }
        }
        assert!(refutations_seen > 100, "the killers were tried: {refutations_seen}");
    }

    #[test]
    fn captures_and_quiets_make_up_every_move() {
        let mut pos = Position::startpos();
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..300 {
            let (mut all, mut captures, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
            movegen::pseudo_moves(&pos, &mut all);
            movegen::pseudo_captures(&pos, &mut captures);
            movegen::pseudo_quiets(&pos, &mut quiets);
            assert_eq!(captures.len() + quiets.len(), all.len());
            assert!(quiets.iter().all(|&mv| all.contains(mv) && !pos.piece_at(mv.to()).is_piece()));
            assert!(captures.iter().all(|&mv| all.contains(mv) && pos.piece_at(mv.to()).is_piece()));
            if all.is_empty() {
                pos = Position::startpos();
                continue;
            }
            let mv = all.as_slice()[rng.gen_range(0..all.len())];
            if movegen::is_legal(&mut pos, mv) {
                pos.make_move(mv);
            }
        }
    }
}
