//! Every history table one search thread keeps from one search to the next, with the bound of
//! its entries, in one place (as Pikafish's `history.h` keeps them):
//!
//! | table | indexed by | entry | bound |
//! |---|---|---|---|
//! | quiet history (`OrderingTables::history`) | the moving piece's type, its destination | i32 | ±`HISTORY_MAX`, by gravity (`update_history`) |
//! | capture history (`OrderingTables::capture`) | the moving piece and destination (`piece_square`), the captured piece's kind | i32 | ±`HISTORY_MAX`, by gravity |
//! | counter moves (`OrderingTables::counter`) | the last move's piece type and destination | the reply that refuted it | |
//! | continuation history (`ContinuationHistory`) | the piece and destination of the move one or two plies before (`ContRow`), and the reply's (`piece_square`) | i32 | ±`HISTORY_MAX`, by gravity |
//! | correction history (`correction::CorrectionHistory`) | side to move, pawn or piece key | centipawns × `CORRECTION_GRAIN` | ±`CORRECTION_LIMIT_CP` centipawns |
//!
//! Move ordering (`ordering`) ranks quiet moves by the quiet, counter and continuation tables,
//! captures within their class by the capture history (when `capture_history_div` is on), and
//! places its classes of moves around `HISTORY_MAX`; the correction history keeps its own
//! learning rule beside the evaluation it corrects. The killers live in the search's per-ply `Stack`.
//!
//! The continuation history fades lazily. Between searches every entry fades to a quarter, so
//! old lessons weigh less. The table holds 1,261 rows of 1,260 entries (6.4 MB), and fading all
//! of it at once cost about a millisecond per search: a fifth of a 5,000-node search's time in
//! data generation. So the fading is lazy and exact: each row remembers how many fades it has
//! taken, and a node brings the two rows it reads up to date (`prepare`) before reading them; a
//! write does the same. What a search sees is what fading every entry at once gave (integer
//! division by 4, k times, truncates as one division by 4^k does).

use crate::board::{Move, Piece, Position, Square};

/// Quiet and continuation history scores stay within ±this, so that the three a quiet move adds
/// up never outrank a killer (`ordering::REFUTATION`).
pub const HISTORY_MAX: i32 = 1 << 20;

/// No correction history entry corrects by more than this many centipawns.
pub const CORRECTION_LIMIT_CP: i32 = 96;

/// Correction history entries hold centipawns times this, so that small corrections average
/// without rounding away.
pub const CORRECTION_GRAIN: i32 = 256;

/// The moving piece's type and the destination of `mv`, which `pos` is about to play: the
/// index into a continuation row, and the row that this move opens for the replies to it.
#[inline]
pub fn piece_square(pos: &Position, mv: Move) -> ContRow {
    piece_on(pos.piece_at(mv.from()), mv.to())
}

/// The continuation index of `piece` arriving on `to` (`piece_square` of the move that brings
/// it there).
#[inline]
fn piece_on(piece: Piece, to: Square) -> ContRow {
    piece.type_index() * 90 + to.rank() as usize * 9 + to.file() as usize
}

/// The move-ordering history tables of one search thread, kept (faded) from one search to the
/// next.
pub struct OrderingTables {
    /// Quiet-move success by (piece type index, destination).
    pub history: Box<[[i32; 256]; 14]>,
    /// Capture success by the capture's `piece_square` and the captured piece's kind.
    pub capture: Box<[[i32; 7]; PIECE_SQUARES]>,
    /// The reply that refuted a move, by (piece type index, destination) of that move.
    pub counter: Box<[[Move; 256]; 14]>,
    /// Quiet-move success after a given earlier move: by the row of the move one or two plies
    /// before (both read the same table) and the reply's `piece_square`.
    pub cont: ContinuationHistory,
    /// History points per unit of depth squared in a cutoff's bonus (the search sets it from
    /// its `history_bonus` parameter).
    pub bonus_per_depth_squared: i32,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            history: Box::new([[0; 256]; 14]),
            capture: Box::new([[0; 7]; PIECE_SQUARES]),
            counter: Box::new([[Move::NONE; 256]; 14]),
            cont: ContinuationHistory::default(),
            bonus_per_depth_squared: BONUS_PER_DEPTH_SQUARED,
        }
    }
}

/// A cutoff's history bonus grows with the depth squared up to this (depth 20), so that the
/// deepest cutoffs do not swamp everything learned shallower.
const BONUS_DEPTH_SQUARED_MAX: i32 = 400;
/// History points per unit of depth squared in a cutoff's bonus, by default (the landed
/// `history_bonus`).
const BONUS_PER_DEPTH_SQUARED: i32 = 16;

impl OrderingTables {
    /// Forgets everything learned (a new game), as new tables would start, but keeps the
    /// memory: the continuation history is 6 MB, and the data generator starts a new game
    /// every few seconds.
    pub fn clear(&mut self) {
        // Every field by name, so that a new table cannot be left out.
        let OrderingTables { history, capture, counter, cont, bonus_per_depth_squared } = self;
        **history = [[0; 256]; 14];
        capture.iter_mut().for_each(|row| *row = [0; 7]);
        **counter = [[Move::NONE; 256]; 14];
        cont.clear();
        *bonus_per_depth_squared = BONUS_PER_DEPTH_SQUARED;
    }

    /// Records a quiet move that caused a beta cutoff, and punishes the quiet moves tried before
    /// it. `conts` are the rows of the moves before it (`Conts`).
    pub fn reward_quiet(&mut self, pos: &Position, mv: Move, tried: &[Move], depth: i32, conts: Conts) {
        let bonus = self.cutoff_bonus(depth);
        self.update_quiet(pos, mv, bonus, conts);
        for &other in tried {
            if other != mv {
                self.update_quiet(pos, other, -bonus, conts);
            }
        }
        if let Some(prev) = pos.last_move() {
            let p = pos.piece_at(prev.to()).type_index();
            self.counter[p][prev.to().index()] = mv;
        }
    }

    /// The reply that last refuted the move that led to `pos` (`Move::NONE` if none did, or
    /// at the root).
    #[inline]
    pub fn counter_move(&self, pos: &Position) -> Move {
        pos.last_move()
            .map(|prev| self.counter[pos.piece_at(prev.to()).type_index()][prev.to().index()])
            .unwrap_or(Move::NONE)
    }

    /// After a node failed low: the quiet move that led to it (`mover`, now on `to`, and
    /// `conts` the rows of the moves before it) refuted every reply, so it earns `sixteenths`
    /// of a cutoff's bonus at the node's `depth` in its own side's history and continuation
    /// histories.
    pub fn reward_prior(&mut self, (mover, to): (Piece, Square), conts: Conts, depth: i32, sixteenths: i32) {
        let bonus = (self.cutoff_bonus(depth) * sixteenths / 16).min(HISTORY_MAX);
        update_history(&mut self.history[mover.type_index()][to.index()], bonus);
        self.update_continuations(piece_on(mover, to), conts, bonus);
    }

    /// After a reduced quiet move (its `piece_square` `at`) beat alpha and was searched again
    /// to `depth`: its continuation histories after the moves of `conts` gain a cutoff's bonus
    /// when the full search still beat alpha (`held`), and lose it when not.
    pub fn reward_research(&mut self, at: usize, conts: Conts, depth: i32, held: bool) {
        let bonus = if held { self.cutoff_bonus(depth) } else { -self.cutoff_bonus(depth) };
        self.update_continuations(at, conts, bonus);
    }

    /// After a beta cutoff: rewards the capture that caused it (`cut_by`, `None` when a quiet
    /// move did) and punishes the captures tried before it, all in `pos`, the node's position.
    pub fn reward_capture(&mut self, pos: &Position, cut_by: Option<Move>, tried: &[Move], depth: i32) {
        let bonus = self.cutoff_bonus(depth);
        if let Some(mv) = cut_by {
            update_history(self.capture_entry(pos, mv), bonus);
        }
        for &other in tried {
            if Some(other) != cut_by {
                update_history(self.capture_entry(pos, other), -bonus);
            }
        }
    }

    fn capture_entry(&mut self, pos: &Position, mv: Move) -> &mut i32 {
        let (row, victim) = capture_index(pos, mv);
        &mut self.capture[row][victim]
    }

    /// The capture history of `mv`, a capture in `pos`.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        let (row, victim) = capture_index(pos, mv);
        self.capture[row][victim]
    }

    fn update_quiet(&mut self, pos: &Position, mv: Move, bonus: i32, conts: Conts) {
        update_history(&mut self.history[pos.piece_at(mv.from()).type_index()][mv.to().index()], bonus);
        self.update_continuations(piece_square(pos, mv), conts, bonus);
    }

    /// Adds `bonus` to the continuation entries of reply `at` after the moves of `conts`.
    fn update_continuations(&mut self, at: usize, conts: Conts, bonus: i32) {
        for row in conts {
            if row != NO_CONTINUATION {
                update_history(self.cont.entry(row, at), bonus);
            }
        }
    }

    /// The history score of a quiet move: its own history and its two continuation histories
    /// (whose rows `ContinuationHistory::prepare` brought up to date).
    #[inline]
    pub fn quiet_score(&self, pos: &Position, mv: Move, conts: Conts) -> i32 {
        let at = piece_square(pos, mv);
        self.history[pos.piece_at(mv.from()).type_index()][mv.to().index()]
            + self.cont.get(conts[0], at)
            + self.cont.get(conts[1], at)
            + self.cont.get(conts[2], at)
    }

    /// The history bonus of a cutoff at `depth` (and the malus of the moves tried before it).
    fn cutoff_bonus(&self, depth: i32) -> i32 {
        (depth * depth).min(BONUS_DEPTH_SQUARED_MAX) * self.bonus_per_depth_squared
    }

    /// Scales history down between searches so old lessons fade.
    pub fn age(&mut self) {
        for h in self.history.iter_mut().flatten().chain(self.capture.iter_mut().flatten()) {
            *h /= 4;
        }
        self.cont.fade();
    }
}

/// A capture's place in the capture history: its `piece_square` and the victim's kind.
#[inline]
fn capture_index(pos: &Position, mv: Move) -> (usize, usize) {
    (piece_square(pos, mv), pos.piece_at(mv.to()).kind().index())
}

/// Gravity update: keeps the value within ±HISTORY_MAX. The decay takes 64 bits: a deep
/// cutoff's bonus (up to 6,400) times an entry near HISTORY_MAX passes the i32 range.
fn update_history(entry: &mut i32, bonus: i32) {
    let decay = i64::from(*entry) * i64::from(bonus.abs()) / i64::from(HISTORY_MAX);
    *entry += bonus - decay as i32;
}

/// Piece types (both colours) times squares: the size of a row, and the number of real rows.
pub const PIECE_SQUARES: usize = 14 * 90;

/// A row of the continuation history: the piece type and destination of an earlier move.
pub type ContRow = usize;

/// The row for "no such move" (the root, a null move): read as zeros, never updated.
pub const NO_CONTINUATION: ContRow = PIECE_SQUARES;

/// The continuation rows a node reads and teaches: those of the moves one, two and four plies
/// before it (the last is `NO_CONTINUATION` unless the `cont_fourth` candidate is on).
pub type Conts = [ContRow; 3];

/// After this many fades by 4 every entry is 0: |entry| ≤ `HISTORY_MAX` = 4^10 < 4^11.
const FADES_TO_ZERO: u32 = 11;
const _: () = assert!(HISTORY_MAX <= 4i32.pow(FADES_TO_ZERO - 1));

/// The continuation history of one search thread (it fades lazily: see the module's note).
pub struct ContinuationHistory {
    rows: Box<[[i32; PIECE_SQUARES]]>,
    /// The fade count each row has caught up with.
    row_fades: Box<[u32]>,
    /// Fades so far (wrapping: only differences are read).
    fades: u32,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory {
            rows: vec![[0; PIECE_SQUARES]; PIECE_SQUARES + 1].into_boxed_slice(),
            row_fades: vec![0; PIECE_SQUARES + 1].into_boxed_slice(),
            fades: 0,
        }
    }
}

impl ContinuationHistory {
    /// Every entry to a quarter (lazily: see the module's note).
    pub fn fade(&mut self) {
        self.fades = self.fades.wrapping_add(1);
    }

    /// Every entry to 0, lazily: each row is zeroed when it is next brought up to date, as a
    /// row that missed `FADES_TO_ZERO` fades is.
    pub fn clear(&mut self) {
        self.fades = self.fades.wrapping_add(FADES_TO_ZERO);
    }

    /// Brings `rows` up to date, so that `get` may read them: a node calls it once for the
    /// rows of the earlier moves (`Conts`).
    #[inline]
    pub fn prepare(&mut self, rows: Conts) {
        for row in rows {
            if self.row_fades[row] != self.fades {
                self.catch_up(row);
            }
        }
    }

    /// The entry for reply `column` after the move of `row`, which `prepare` brought up to date.
    #[inline]
    pub fn get(&self, row: ContRow, column: usize) -> i32 {
        debug_assert_eq!(self.row_fades[row], self.fades, "row {row} read before it was prepared");
        self.rows[row][column]
    }

    /// The entry for reply `column` after the move of `row`, to update.
    #[inline]
    pub fn entry(&mut self, row: ContRow, column: usize) -> &mut i32 {
        self.catch_up(row);
        &mut self.rows[row][column]
    }

    /// Applies to `row` the fades it missed.
    fn catch_up(&mut self, row: ContRow) {
        let missed = self.fades.wrapping_sub(self.row_fades[row]);
        if missed == 0 {
            return;
        }
        self.row_fades[row] = self.fades;
        let entries = &mut self.rows[row];
        if missed >= FADES_TO_ZERO {
            entries.fill(0);
        } else {
            let shift = 2 * missed;
            entries.iter_mut().for_each(|v| *v = divide_by_power_of_two(*v, shift));
        }
    }

    /// Whether every entry of `row` is 0 (once brought up to date).
    pub fn row_is_zero(&mut self, row: ContRow) -> bool {
        self.prepare([row; 3]);
        self.rows[row].iter().all(|&v| v == 0)
    }
}

/// `v / 2^shift` truncated towards zero, as `/` does, with shifts that vectorise (an integer
/// division by a value known only at run time does not): a negative `v` is raised by
/// `2^shift − 1` first so that the arithmetic shift's rounding down becomes rounding up.
#[inline]
fn divide_by_power_of_two(v: i32, shift: u32) -> i32 {
    let bias = (v >> 31) & ((1 << shift) - 1);
    (v + bias) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The rows the test writes, as the table was before: every entry faded at once.
    struct Eager(Vec<Vec<i32>>);

    #[test]
    fn lazy_fading_reads_as_fading_every_entry_at_once() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut lazy = ContinuationHistory::default();
        // A few rows written often, searches (fades) between, some long pauses between writes.
        let rows: Vec<ContRow> = (0..12).map(|_| rng.gen_range(0..PIECE_SQUARES)).collect();
        let mut eager = Eager(vec![vec![0; PIECE_SQUARES]; rows.len()]);
        for search in 0..60 {
            if search % 7 != 6 {
                for _ in 0..200 {
                    let (i, column) = (rng.gen_range(0..rows.len()), rng.gen_range(0..PIECE_SQUARES));
                    let value = rng.gen_range(-HISTORY_MAX..=HISTORY_MAX);
                    *lazy.entry(rows[i], column) = value;
                    eager.0[i][column] = value;
                }
            }
            for (i, &row) in rows.iter().enumerate() {
                lazy.prepare([row; 3]);
                for column in (0..PIECE_SQUARES).step_by(7) {
                    assert_eq!(lazy.get(row, column), eager.0[i][column], "search {search}");
                }
            }
            // Fade one to twelve times before the next search: past FADES_TO_ZERO too.
            for _ in 0..1 + search % 12 {
                lazy.fade();
                eager.0.iter_mut().flatten().for_each(|v| *v /= 4);
            }
        }
        assert!(lazy.row_is_zero(NO_CONTINUATION));
    }

    #[test]
    fn cleared_tables_read_as_new_ones() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut tables = OrderingTables::default();
        let mut pos = Position::startpos();
        // Learn from forty cutoffs of a random game, with fades between.
        for ply in 0..40 {
            let moves = crate::board::movegen::legal_moves(&mut pos);
            let (captures, quiets): (Vec<Move>, Vec<Move>) =
                moves.iter().partition(|m| pos.piece_at(m.to()).is_piece());
            let conts = [rng.gen_range(0..PIECE_SQUARES), rng.gen_range(0..PIECE_SQUARES), NO_CONTINUATION];
            if let Some(&mv) = quiets.get(ply as usize % quiets.len().max(1)) {
                tables.reward_quiet(&pos, mv, &quiets[..quiets.len().min(6)], 1 + ply % 12, conts);
                tables.counter[ply as usize % 14][mv.to().index()] = mv;
            }
            tables.reward_capture(&pos, captures.first().copied(), &captures, 3);
            if ply % 5 == 4 {
                tables.age();
            }
            pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
        }
        assert!(tables.history.iter().flatten().any(|&v| v != 0), "nothing was learnt");
        tables.bonus_per_depth_squared = 99;
        tables.clear();
        let mut fresh = OrderingTables::default();
        assert_eq!(tables.history, fresh.history);
        assert_eq!(tables.capture, fresh.capture);
        assert_eq!(tables.counter, fresh.counter);
        assert_eq!(tables.bonus_per_depth_squared, fresh.bonus_per_depth_squared);
        for row in 0..=PIECE_SQUARES {
            tables.cont.prepare([row; 3]);
            fresh.cont.prepare([row; 3]);
            for column in 0..PIECE_SQUARES {
                assert_eq!(tables.cont.get(row, column), fresh.cont.get(row, column), "row {row}");
            }
        }
    }

    #[test]
    fn shifts_divide_as_division_does() {
        for v in [-HISTORY_MAX, -1_000_003, -17, -4, -3, -1, 0, 1, 3, 4, 17, 999_999, HISTORY_MAX] {
            for k in 1..FADES_TO_ZERO {
                assert_eq!(divide_by_power_of_two(v, 2 * k), v / 4i32.pow(k), "{v} / 4^{k}");
            }
        }
    }

    #[test]
    fn history_stays_in_range_under_the_deepest_bonuses() {
        let (_, _, most) = *crate::search::params::SearchParams::RANGES
            .iter()
            .find(|r| r.0 == "history_bonus")
            .expect("history_bonus is a parameter");
        for (per, sign) in
            [(BONUS_PER_DEPTH_SQUARED, 1), (BONUS_PER_DEPTH_SQUARED, -1), (most, 1), (most, -1)]
        {
            let deepest = BONUS_DEPTH_SQUARED_MAX * per;
            let mut entry = 0;
            for step in 0..2_000 {
                update_history(&mut entry, sign * deepest);
                assert!(entry.abs() <= HISTORY_MAX, "step {step}: {entry}");
            }
            // Saturated, the entry sits just inside the limit and moves no further.
            assert!(entry.abs() > HISTORY_MAX - deepest, "{entry}");
            let before = entry;
            update_history(&mut entry, sign * deepest);
            assert!((entry - before).abs() <= 1, "{before} then {entry}");
            // One deep cutoff the other way pulls it back by about twice the bonus.
            update_history(&mut entry, -sign * deepest);
            assert!((before - entry).abs() >= deepest, "{before} then {entry}");
        }
    }

    #[test]
    fn continuation_history_rewards_a_reply_to_that_move_only() {
        let mut pos = Position::startpos();
        let mut tables = OrderingTables::default();
        let central_cannon = Move::parse_iccs("h2e2").unwrap();
        let flank_pawn = Move::parse_iccs("a3a4").unwrap();
        let after_cannon = piece_square(&pos, central_cannon);
        let after_pawn = piece_square(&pos, flank_pawn);
        pos.make_move(central_cannon);
        let horse = Move::parse_iccs("h9g7").unwrap();
        let rook = Move::parse_iccs("i9h9").unwrap();
        let conts = [after_cannon, NO_CONTINUATION, NO_CONTINUATION];
        tables.reward_quiet(&pos, horse, &[rook, horse], 6, conts);
        // The plain history moves both ways; the continuation entry after h2e2 does too ...
        assert!(
            tables.quiet_score(&pos, horse, conts) > tables.quiet_score(&pos, horse, [NO_CONTINUATION; 3])
        );
        assert!(tables.quiet_score(&pos, rook, conts) < tables.quiet_score(&pos, rook, [NO_CONTINUATION; 3]));
        // ... but after another first move the reply has only its plain history.
        let other = [after_pawn, NO_CONTINUATION, NO_CONTINUATION];
        assert_eq!(
            tables.quiet_score(&pos, horse, other),
            tables.quiet_score(&pos, horse, [NO_CONTINUATION; 3])
        );
        // The row for "no earlier move" is never written.
        assert!(tables.cont.row_is_zero(NO_CONTINUATION));
    }

    #[test]
    fn a_research_teaches_the_continuation_entries_only() {
        let mut pos = Position::startpos();
        let mut tables = OrderingTables::default();
        let central_cannon = Move::parse_iccs("h2e2").unwrap();
        let after_cannon = piece_square(&pos, central_cannon);
        pos.make_move(central_cannon);
        let horse = Move::parse_iccs("h9g7").unwrap();
        let rook = Move::parse_iccs("i9h9").unwrap();
        let conts = [after_cannon, NO_CONTINUATION, NO_CONTINUATION];
        tables.reward_research(piece_square(&pos, horse), conts, 6, true);
        tables.reward_research(piece_square(&pos, rook), conts, 6, false);
        let plain = [NO_CONTINUATION; 3];
        assert!(tables.quiet_score(&pos, horse, conts) > 0, "a search that held is rewarded");
        assert!(tables.quiet_score(&pos, rook, conts) < 0, "one that did not is punished");
        // The plain history is the cutoffs' alone, and the empty row is never written.
        assert_eq!((tables.quiet_score(&pos, horse, plain), tables.quiet_score(&pos, rook, plain)), (0, 0));
        assert!(tables.cont.row_is_zero(NO_CONTINUATION));
    }

    #[test]
    fn a_fail_low_rewards_the_prior_move_within_bounds() {
        // Red played h2e2; Black's every reply failed low, so h2e2 is rewarded for Red.
        let mut pos = Position::startpos();
        let mut tables = OrderingTables::default();
        let central_cannon = Move::parse_iccs("h2e2").unwrap();
        let flank_pawn = Move::parse_iccs("a3a4").unwrap();
        let before_pawn = tables.quiet_score(&pos, flank_pawn, [NO_CONTINUATION; 3]);
        let opening = Move::parse_iccs("b0c2").unwrap();
        let conts = [piece_square(&pos, opening), NO_CONTINUATION, NO_CONTINUATION];
        pos.make_move(central_cannon);
        let cannon = pos.piece_at(central_cannon.to());
        tables.reward_prior((cannon, central_cannon.to()), conts, 6, 16);
        pos.unmake_move();
        let plain = [NO_CONTINUATION; 3];
        let alone = tables.quiet_score(&pos, central_cannon, plain);
        assert_eq!(alone, tables.cutoff_bonus(6), "a full cutoff's bonus for 16 sixteenths");
        assert_eq!(tables.quiet_score(&pos, central_cannon, conts), 2 * alone, "and in its continuation");
        assert_eq!(tables.quiet_score(&pos, flank_pawn, plain), before_pawn, "other moves untouched");
        // Half the sixteenths, half the bonus (on a fresh table).
        let mut half = OrderingTables::default();
        half.reward_prior((cannon, central_cannon.to()), conts, 6, 8);
        assert_eq!(half.quiet_score(&pos, central_cannon, plain), alone / 2);
        // The deepest bonus at the most sixteenths keeps the entry in range.
        for _ in 0..100 {
            tables.reward_prior((cannon, central_cannon.to()), conts, 64, 64);
        }
        let entry = tables.history[cannon.type_index()][central_cannon.to().index()];
        assert!(entry > 0 && entry <= HISTORY_MAX, "{entry}");
        assert!(tables.cont.row_is_zero(NO_CONTINUATION));
    }

    #[test]
    fn capture_history_rewards_the_capture_that_cut_and_punishes_those_before_it() {
        // Red's cannon can take the horse on b9 or h9.
        let pos = Position::startpos();
        let mut tables = OrderingTables::default();
        let take_left = Move::parse_iccs("b2b9").unwrap();
        let take_right = Move::parse_iccs("h2h9").unwrap();
        tables.reward_capture(&pos, Some(take_right), &[take_left, take_right], 5);
        assert!(tables.capture_score(&pos, take_right) > 0);
        assert!(tables.capture_score(&pos, take_left) < 0);
        // A quiet move's cutoff punishes every capture tried.
        let before = tables.capture_score(&pos, take_right);
        tables.reward_capture(&pos, None, &[take_right], 5);
        assert!(tables.capture_score(&pos, take_right) < before);
        // Fading between searches takes every entry towards zero.
        let left = tables.capture_score(&pos, take_left);
        tables.age();
        assert_eq!(tables.capture_score(&pos, take_left), left / 4);
    }
}
