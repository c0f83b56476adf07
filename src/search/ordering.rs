//! Move ordering: hash move, good captures (by SEE, then MVV-LVA), killers, counter move,
//! history and continuation history (by the moves one, two and four plies before) for quiet moves,
//! and losing captures last. The history tables themselves, with their bounds, are `history`'s.
//!
//! SEE runs lazily: every capture is first keyed as a good one, and its exchange is only played
//! out when it comes to the top. A capture that loses is keyed down among the losing ones, in its
//! place, and the pick looks again. Keys only fall, so the top of the optimistic keys that holds
//! is the top of the true keys: the order is the one eager scoring gives, and the captures of a
//! node that cuts before they come up never run SEE.

use crate::board::{Move, MoveList, Position};

use super::history::{Conts, OrderingTables, HISTORY_MAX};
use super::see::{see_non_negative, value_on, SEE_VALUE_MAX};

/// Plies the search can go deep (stacks are sized by it).
pub const MAX_PLY: usize = 128;

/// The order scores of the classes of moves, from the hash move down to losing captures. They
/// keep within 24 bits, so that a score and the move's place in the list share one `i32`: the
/// picker's `selection_key`.
pub(super) const HASH_MOVE: i32 = 7 * HISTORY_MAX;
const GOOD_CAPTURE: i32 = 5 * HISTORY_MAX;
/// The lowest order score of a killer or the counter move, below good captures and above
/// every history score: a quiet move scoring at least this refuted a sibling or the last move.
/// (A quiet move's score adds three history entries: its own and two continuations.)
pub const REFUTATION: i32 = 3 * HISTORY_MAX + 1;
pub(super) const KILLER: [i32; 2] = [REFUTATION + 2, REFUTATION + 1];
pub(super) const COUNTER: i32 = REFUTATION;
const BAD_CAPTURE: i32 = -5 * HISTORY_MAX;
/// A capture's MVV-LVA term stays within ±this (the king's SEE value times 16 is 80,000).
const CAPTURE_SPREAD: i32 = HISTORY_MAX;
/// The highest order score of a capture that loses material by exchange: every move scoring at
/// most this is one, and no other move scores this low.
pub const LOSING_CAPTURE_MAX: i32 = BAD_CAPTURE + CAPTURE_SPREAD;
/// The least divisor of a capture's history in its order score (`capture_history_div`): with
/// it the capture terms still keep within `CAPTURE_SPREAD`.
const CAPTURE_HISTORY_DIV_MIN: i32 = 2;
const _: () = assert!(SEE_VALUE_MAX * 16 + HISTORY_MAX / CAPTURE_HISTORY_DIV_MIN < CAPTURE_SPREAD);
const _: () = assert!(
    BAD_CAPTURE + CAPTURE_SPREAD < -3 * HISTORY_MAX
        && 3 * HISTORY_MAX < REFUTATION
        && KILLER[0] < GOOD_CAPTURE - CAPTURE_SPREAD
        && GOOD_CAPTURE + CAPTURE_SPREAD < HASH_MOVE
);
/// Bits of a selection key below the score, holding the move's place in the list.
const PLACE_BITS: u32 = 8;
const PLACE_MASK: i32 = (1 << PLACE_BITS) - 1;
const _: () = assert!(crate::board::moves::MAX_MOVES <= 1 << PLACE_BITS);
const _: () =
    assert!(HASH_MOVE < 1 << (31 - PLACE_BITS) && BAD_CAPTURE - CAPTURE_SPREAD >= -(1 << (31 - PLACE_BITS)));

/// A capture's order among captures: the most valuable victim first, then the least valuable
/// attacker (within ±`CAPTURE_SPREAD`).
#[inline]
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    value_on(pos, mv.to()) * 16 - value_on(pos, mv.from()) / 16
}

/// A move's selection key: its order score above, and its place in the list below, counted
/// down, so that the greatest key is the first of the highest scores.
#[inline]
fn selection_key(score: i32, place: usize) -> i32 {
    debug_assert!((BAD_CAPTURE - CAPTURE_SPREAD..=HASH_MOVE).contains(&score), "order score {score}");
    (score << PLACE_BITS) | (PLACE_MASK - place as i32)
}

/// A move list with ordering scores, handing out the best remaining move each time.
pub struct ScoredMoves {
    moves: MoveList,
    /// `selection_key` of each move: one maximum finds both the best score and where it is.
    keys: [i32; crate::board::moves::MAX_MOVES],
    next: usize,
}

impl ScoredMoves {
    /// Scores `moves` for a node with these `killers`; `conts` are the rows of the earlier
    /// moves it reads; captures add their history divided by `capture_history_div`
    /// (0: none).
    pub fn new(
        pos: &mut Position,
        moves: MoveList,
        hash_move: Move,
        tables: &mut OrderingTables,
        killers: [Move; 2],
        conts: Conts,
        capture_history_div: i32,
    ) -> Self {
        let mut scored = ScoredMoves { moves, keys: [0; crate::board::moves::MAX_MOVES], next: 0 };
        scored.score_from(0, pos, hash_move, tables, (killers, conts), capture_history_div);
        scored
    }

    /// No moves yet: `append` adds them.
    pub fn empty() -> Self {
        ScoredMoves { moves: MoveList::new(), keys: [0; crate::board::moves::MAX_MOVES], next: 0 }
    }

    /// Appends the moves `generate` makes in `pos` and scores them as `new` does (`hash_move`
    /// on top); returns the place of the first of them (the staged picker hands each stage out
    /// from its own places with `pick`).
    #[inline]
    pub fn append(
        &mut self,
        pos: &mut Position,
        generate: impl FnOnce(&Position, &mut MoveList),
        hash_move: Move,
        tables: &mut OrderingTables,
        (killers, conts): ([Move; 2], Conts),
        capture_history_div: i32,
    ) -> usize {
        let start = self.moves.len();
        generate(pos, &mut self.moves);
        self.score_from(start, pos, hash_move, tables, (killers, conts), capture_history_div);
        start
    }

    /// The number of moves held, handed out or not.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Scores the moves from place `start` on.
    fn score_from(
        &mut self,
        start: usize,
        pos: &mut Position,
        hash_move: Move,
        tables: &mut OrderingTables,
        (killers, conts): ([Move; 2], Conts),
        capture_history_div: i32,
    ) {
        tables.cont.prepare(conts);
        let counter = tables.counter_move(pos);
        for place in start..self.moves.len() {
            let mv = self.moves.as_slice()[place];
            let score = if mv == hash_move {
                HASH_MOVE
            } else if pos.piece_at(mv.to()).is_piece() {
                let mut order = mvv_lva(pos, mv);
                if capture_history_div > 0 {
                    order += tables.capture_score(pos, mv) / capture_history_div.max(CAPTURE_HISTORY_DIV_MIN);
                }
                // Good until `pick` finds otherwise (the module's note).
                GOOD_CAPTURE + order
            } else if mv == killers[0] {
                KILLER[0]
            } else if mv == killers[1] {
                KILLER[1]
            } else if mv == counter {
                COUNTER
            } else {
                tables.quiet_score(pos, mv, conts)
            };
            self.keys[place] = selection_key(score, place);
        }
    }

    /// `moves` with their ordering `scores` (the first `moves.len()` of them).
    #[cfg(test)]
    fn from_scores(moves: MoveList, scores: &[i32; crate::board::moves::MAX_MOVES]) -> Self {
        let mut keys = [0; crate::board::moves::MAX_MOVES];
        for (place, (key, &score)) in keys.iter_mut().zip(scores).take(moves.len()).enumerate() {
            *key = selection_key(score, place);
        }
        ScoredMoves { moves, keys, next: 0 }
    }

    /// Captures only, ordered by MVV-LVA (quiescence; SEE is applied by the caller).
    pub fn captures(pos: &Position, moves: MoveList) -> Self {
        let mut keys = [0; crate::board::moves::MAX_MOVES];
        for (place, &mv) in moves.iter().enumerate() {
            keys[place] = selection_key(mvv_lva(pos, mv), place);
        }
        ScoredMoves { moves, keys, next: 0 }
    }

    /// The best move at places `cursor..end` and its ordering score, swapped to `cursor`, if
    /// that score is at least `floor` (the caller then moves its cursor on); otherwise `None`,
    /// and nothing moves. A selection sort's step over one stage's places; a capture still keyed
    /// as good has its exchange played out in `pos` when it comes to the top (the module's note).
    #[inline]
    pub fn pick(&mut self, pos: &mut Position, cursor: usize, end: usize, floor: i32) -> Option<(Move, i32)> {
        self.pick_confirmed(cursor, end, floor, |mv| see_non_negative(pos, mv))
    }

    /// `pick`, with `holds` saying whether a capture keyed as good does not lose by exchange.
    #[inline]
    fn pick_confirmed(
        &mut self,
        cursor: usize,
        end: usize,
        floor: i32,
        mut holds: impl FnMut(Move) -> bool,
    ) -> Option<(Move, i32)> {
        if cursor >= end {
            return None;
        }
        loop {
            // The first of the highest scores, as a scan keeping the earlier of equals would
            // find it: the greatest key, one maximum over a slice, which vectorises.
            let top = self.keys[cursor..end].iter().copied().max().unwrap_or(i32::MIN);
            let score = top >> PLACE_BITS;
            if score < floor {
                return None;
            }
            let best = (PLACE_MASK - (top & PLACE_MASK)) as usize;
            // Every good capture is handed out as soon as SEE confirms it, so one still in the
            // list at a good key has not been confirmed yet.
            if is_good_capture(score) && !holds(self.moves.as_slice()[best]) {
                // The same place, so that ties break as they would have with the true key.
                self.keys[best] = selection_key(score - GOOD_CAPTURE + BAD_CAPTURE, best);
                continue;
            }
            let slice = self.moves.as_mut_slice();
            slice.swap(cursor, best);
            // The move that stood at the cursor now stands where the best one was: its key
            // says so.
            self.keys[best] = (self.keys[cursor] & !PLACE_MASK) | (PLACE_MASK - best as i32);
            return Some((slice[cursor], score));
        }
    }

    /// The best move not yet handed out and its ordering score, or `None` when all have been:
    /// the list's own cursor, for callers that take every move in order.
    #[inline]
    pub fn next_move(&mut self, pos: &mut Position) -> Option<(Move, i32)> {
        let item = self.pick(pos, self.next, self.moves.len(), i32::MIN)?;
        self.next += 1;
        Some(item)
    }
}

/// Whether an order score is in the good captures' class.
#[inline]
fn is_good_capture(score: i32) -> bool {
    (GOOD_CAPTURE - CAPTURE_SPREAD..=GOOD_CAPTURE + CAPTURE_SPREAD).contains(&score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{movegen, Square};
    use crate::search::history::{piece_square, NO_CONTINUATION};

    /// Every move of `scored`, best first, with its order score.
    fn in_order(mut scored: ScoredMoves, pos: &mut Position) -> Vec<(Move, i32)> {
        std::iter::from_fn(|| scored.next_move(pos)).collect()
    }

    /// The order of the one-pass scan the picker replaced: the earliest highest score, swapped
    /// to the front.
    fn reference_order(mut moves: Vec<Move>, mut scores: Vec<i32>) -> Vec<(Move, i32)> {
        let mut out = Vec::new();
        for next in 0..moves.len() {
            let mut best = next;
            for i in next + 1..moves.len() {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            moves.swap(next, best);
            scores.swap(next, best);
            out.push((moves[next], scores[next]));
        }
        out
    }

    #[test]
    fn the_picker_gives_the_order_of_a_one_pass_scan_ties_included() {
        use rand::rngs::StdRng;
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        for round in 0..2_000 {
            let n = rng.gen_range(0..=crate::board::moves::MAX_MOVES);
            // Few distinct values, so that most scores tie; every class of score, and each
            // class's extremes.
            let spread = if round % 2 == 0 { 4 } else { 1_000 };
            let mut list = MoveList::new();
            let mut scores = [0; crate::board::moves::MAX_MOVES];
            for (i, score) in scores.iter_mut().enumerate().take(n) {
                list.push(Move::new(Square::from_index(i as u8), Square::from_index(i as u8 + 1)));
                *score = match rng.gen_range(0..20) {
                    0 => HASH_MOVE,
                    1 => GOOD_CAPTURE + rng.gen_range(-spread..=spread),
                    2 => BAD_CAPTURE + rng.gen_range(-spread..=spread),
                    3 => *[KILLER[0], KILLER[1], COUNTER].choose(&mut rng).unwrap(),
                    4 => *[3 * HISTORY_MAX, -3 * HISTORY_MAX].choose(&mut rng).unwrap(),
                    _ => rng.gen_range(-spread..=spread),
                };
            }
            let expected = reference_order(list.iter().copied().collect(), scores[..n].to_vec());
            let mut scored = ScoredMoves::from_scores(list, &scores);
            let picked: Vec<(Move, i32)> =
                (0..n).map_while(|cursor| scored.pick_confirmed(cursor, n, i32::MIN, |_| true)).collect();
            assert_eq!(scored.pick_confirmed(n, n, i32::MIN, |_| true), None);
            assert_eq!(picked, expected, "round {round}, {n} moves");
        }
    }

    #[test]
    fn hash_move_then_good_captures_then_quiets_then_bad_captures() {
        // Red rook e1 can take a free horse on e5; red cannon b2 can take a pawn b9? no: set up a
        // losing capture: red rook a1 takes a pawn a6 guarded by a rook a9.
        let mut pos = Position::from_fen("r2k5/9/9/p8/4n4/9/9/9/R3R4/5K3 w - - 0 1").unwrap();
        let moves = movegen::legal_moves(&mut pos);
        let hash = Move::parse_iccs("e1e2").unwrap();
        let scored = ScoredMoves::new(
            &mut pos,
            moves,
            hash,
            &mut OrderingTables::default(),
            [Move::NONE; 2],
            [NO_CONTINUATION; 3],
            0,
        );
        let order: Vec<Move> = in_order(scored, &mut pos).into_iter().map(|(m, _)| m).collect();
        assert_eq!(order[0], hash);
        assert_eq!(order[1].to_string(), "e1e5", "the free horse next");
        assert_eq!(order.last().unwrap().to_string(), "a1a6", "the losing capture last");
    }

    #[test]
    fn a_selection_key_keeps_the_score_and_the_place_of_every_class() {
        // Each class's lowest and highest score, from the losing captures up to the hash move.
        let scores = [
            BAD_CAPTURE - CAPTURE_SPREAD,
            BAD_CAPTURE + CAPTURE_SPREAD,
            -3 * HISTORY_MAX,
            -1,
            0,
            1,
            3 * HISTORY_MAX,
            COUNTER,
            KILLER[1],
            KILLER[0],
            GOOD_CAPTURE - CAPTURE_SPREAD,
            GOOD_CAPTURE + CAPTURE_SPREAD,
            HASH_MOVE,
        ];
        let last = crate::board::moves::MAX_MOVES - 1;
        for pair in scores.windows(2) {
            // A higher score wins from any place; an equal one from an earlier place.
            assert!(selection_key(pair[0], 0) < selection_key(pair[1], last), "{pair:?}");
            assert!(selection_key(pair[0], 0) > selection_key(pair[0], 1), "{pair:?}");
        }
        for score in scores {
            for place in [0, 1, last] {
                let key = selection_key(score, place);
                assert_eq!(key >> PLACE_BITS, score, "{score} at {place}");
                assert_eq!((PLACE_MASK - (key & PLACE_MASK)) as usize, place, "{score} at {place}");
            }
        }
    }

    #[test]
    fn killers_then_the_counter_move_rank_above_any_history() {
        let mut pos = Position::startpos();
        let central_cannon = Move::parse_iccs("h2e2").unwrap();
        let mut tables = OrderingTables::default();
        let [killer, second_killer, counter, favourite, plain] =
            ["h9g7", "b9c7", "h7e7", "i9i8", "a6a5"].map(|m| Move::parse_iccs(m).unwrap());
        pos.make_move(central_cannon);
        // `favourite` gets all the history there is; `counter` is the last move to have refuted
        // h2e2 (each reward makes its move the counter move).
        let conts = [piece_square(&Position::startpos(), central_cannon), NO_CONTINUATION, NO_CONTINUATION];
        for _ in 0..1_000 {
            tables.reward_quiet(&pos, favourite, &[], 20, conts);
        }
        tables.reward_quiet(&pos, counter, &[], 1, conts);
        let moves = movegen::legal_moves(&mut pos);
        let scored =
            ScoredMoves::new(&mut pos, moves, Move::NONE, &mut tables, [killer, second_killer], conts, 0);
        let scored = in_order(scored, &mut pos);
        let rank = |mv: Move| scored.iter().position(|&(m, _)| m == mv).unwrap();
        let score = |mv: Move| scored[rank(mv)].1;
        assert!(rank(killer) < rank(second_killer));
        assert!(rank(second_killer) < rank(counter));
        assert!(rank(counter) < rank(favourite));
        assert!(rank(favourite) < rank(plain));
        assert!(score(counter) >= REFUTATION && score(second_killer) >= REFUTATION);
        assert!(score(favourite) < REFUTATION && score(favourite) > 2 * HISTORY_MAX - HISTORY_MAX / 8);
    }

    #[test]
    fn capture_history_reorders_captures_of_one_class_when_switched_on() {
        // Red's two cannons can each take a horse (losing by exchange, both): the same class
        // and MVV-LVA, so without capture history the list's order decides; with it, the
        // capture that cut before leads.
        let mut pos = Position::startpos();
        let mut tables = OrderingTables::default();
        let captures = |pos: &mut Position, tables: &mut OrderingTables, div: i32| -> Vec<Move> {
            let moves = movegen::legal_moves(pos);
            let scored =
                ScoredMoves::new(pos, moves, Move::NONE, tables, [Move::NONE; 2], [NO_CONTINUATION; 3], div);
            in_order(scored, pos)
                .into_iter()
                .map(|(m, _)| m)
                .filter(|m| pos.piece_at(m.to()).is_piece())
                .collect()
        };
        let plain = captures(&mut pos, &mut tables, 0);
        assert_eq!(plain.len(), 2, "{plain:?}");
        let (first, second) = (plain[0], plain[1]);
        tables.reward_capture(&pos, Some(second), &[first, second], 8);
        assert_eq!(captures(&mut pos, &mut tables, 0), plain, "off: the history is not read");
        assert_eq!(captures(&mut pos, &mut tables, 256), vec![second, first]);
    }

    /// A position along a random game from the start (`plies` random legal moves).
    fn random_position(rng: &mut rand::rngs::StdRng, plies: usize) -> Position {
        use rand::Rng;
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = movegen::legal_moves(&mut pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
        }
        pos
    }

    #[test]
    fn lazy_see_hands_out_the_order_of_scores_with_every_exchange_played_out() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut losing_seen = 0;
        for round in 0..600 {
            let plies = rng.gen_range(0..80);
            let mut pos = random_position(&mut rng, plies);
            let mut moves = MoveList::new();
            movegen::pseudo_moves(&pos, &mut moves);
            if moves.is_empty() {
                continue;
            }
            let any = |rng: &mut rand::rngs::StdRng| moves.as_slice()[rng.gen_range(0..moves.len())];
            let mut tables = OrderingTables::default();
            let conts = [piece_square(&pos, any(&mut rng)), NO_CONTINUATION, NO_CONTINUATION];
            for _ in 0..8 {
                let mv = any(&mut rng);
                if pos.piece_at(mv.to()).is_piece() {
                    tables.reward_capture(&pos, Some(mv), &[mv], rng.gen_range(1..10));
                } else {
                    tables.reward_quiet(&pos, mv, &[], rng.gen_range(1..10), conts);
                }
            }
            let (hash, killers) = ([Move::NONE, any(&mut rng)][round % 2], [any(&mut rng), Move::NONE]);
            let div = [0, 4][round % 2];
            let scored = ScoredMoves::new(&mut pos, moves.clone(), hash, &mut tables, killers, conts, div);
            // Eagerly: each capture keyed good is moved down now if its exchange loses.
            let mut scores: Vec<i32> =
                (0..moves.len()).map(|place| scored.keys[place] >> PLACE_BITS).collect();
            for (score, &mv) in scores.iter_mut().zip(moves.iter()) {
                if is_good_capture(*score) && !see_non_negative(&mut pos, mv) {
                    *score += BAD_CAPTURE - GOOD_CAPTURE;
                    losing_seen += 1;
                }
            }
            let expected = reference_order(moves.iter().copied().collect(), scores);
            let fen = pos.to_fen();
            assert_eq!(in_order(scored, &mut pos), expected, "round {round}: {fen}");
            assert_eq!(pos.to_fen(), fen, "round {round}: SEE leaves the position as it was");
        }
        assert!(losing_seen > 50, "captures that lose by exchange came up: {losing_seen}");
    }

    #[test]
    fn a_capture_below_the_first_move_has_no_exchange_played_out() {
        // Red's rook takes a free horse (first) or a guarded pawn; red's cannon takes a guarded
        // rook. Only the captures at the top before the first hand-out are looked at.
        let mut pos = Position::from_fen("r2k5/9/9/p8/4n4/9/9/9/R3R4/5K3 w - - 0 1").unwrap();
        let moves = movegen::legal_moves(&mut pos);
        let captures = moves.iter().filter(|m| pos.piece_at(m.to()).is_piece()).count();
        assert!(captures >= 2, "{captures} captures");
        let unordered = |pos: &mut Position| {
            let moves = movegen::legal_moves(pos);
            ScoredMoves::new(
                pos,
                moves,
                Move::NONE,
                &mut OrderingTables::default(),
                [Move::NONE; 2],
                [NO_CONTINUATION; 3],
                0,
            )
        };
        let mut scored = unordered(&mut pos);
        let mut asked = Vec::new();
        let first = scored.pick_confirmed(0, scored.len(), i32::MIN, |mv| {
            asked.push(mv);
            true
        });
        assert_eq!(first.map(|(m, _)| m.to_string()), Some("e1e5".to_string()));
        assert_eq!(asked.len(), 1, "one exchange played out: {asked:?}");
        // Told that it loses, the first capture goes below every quiet move.
        let mut scored = unordered(&mut pos);
        let (mv, score) =
            scored.pick_confirmed(0, scored.len(), i32::MIN, |mv| mv.to_string() != "e1e5").unwrap();
        assert_ne!(mv.to_string(), "e1e5");
        assert!(score > LOSING_CAPTURE_MAX);
        let order: Vec<(Move, i32)> = (1..scored.len())
            .map_while(|cursor| {
                scored.pick_confirmed(cursor, scored.len(), i32::MIN, |mv| mv.to_string() != "e1e5")
            })
            .collect();
        let e1e5 = order.iter().find(|(m, _)| m.to_string() == "e1e5").unwrap();
        assert!(e1e5.1 <= LOSING_CAPTURE_MAX, "{e1e5:?}");
    }
}
