//! Correction history: the search's verdicts teach it how far the static evaluation errs in
//! positions with the same pawns (or the same other pieces of one side), and later static
//! evaluations there are corrected by that much. A net trained on a few million positions
//! misjudges some structures the same way all game long; the search finds out, and pruning
//! decisions (futility, null move) should hear it.
//!
//! An entry, by side to move and key, is a running average of (search score − static
//! evaluation) over the nodes that fell into it, a deeper search weighing more (up to the
//! `corr_weight` search parameter out of 256; 0 switches correction off). The keys are chosen by
//! `corr_keys`: the pawns, each side's other pieces, or both, and a position is corrected by the
//! mean of its entries. Only results that say something about the evaluation are learned: not in
//! check, no capture as the best move, and the score on the side of the bound that the static
//! evaluation did not already predict.

use crate::board::{Color, Position};

use super::history::{CORRECTION_GRAIN, CORRECTION_LIMIT_CP};
use super::score::RULE_WIN;
use super::tt::Bound;

/// Entries per side to move in each table (a power of two).
const ENTRIES: usize = 16_384;

/// A result's weight is out of this.
const WEIGHT_SCALE: i32 = 256;

/// Which keys the correction history learns and corrects by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    /// Both sides' pawns.
    pub pawns: bool,
    /// Each side's other pieces, king included: one entry for Red's and one for Black's.
    pub other_pieces: bool,
}

impl CorrectionKeys {
    /// The pawns alone.
    pub const PAWNS: CorrectionKeys = CorrectionKeys { pawns: true, other_pieces: false };

    /// The keys of the `corr_keys` search parameter: bit 1 the pawns, bit 2 the other pieces;
    /// without either bit, the pawns.
    pub fn from_bits(bits: i32) -> CorrectionKeys {
        let keys = CorrectionKeys { pawns: bits & 1 != 0, other_pieces: bits & 2 != 0 };
        if keys.pawns || keys.other_pieces {
            keys
        } else {
            CorrectionKeys::PAWNS
        }
    }
}

/// Where a position's corrections are kept: an index into each table in use, side to move
/// included.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CorrectionSlot {
    pawns: Option<usize>,
    other_pieces: Option<[usize; 2]>,
}

/// One search thread's correction tables (see the module documentation).
pub struct CorrectionHistory {
    /// Entries by side to move, then pawn key; none unless the pawns are a key. A search makes
    /// new tables, and zeroing 128 KB for nothing cost short searches (data generation's) 1% of
    /// their time, so a table not in use is never made.
    pawns: Option<Box<[i32]>>,
    /// Entries by the pieces' side, then side to move, then key; none unless other pieces are a
    /// key.
    other_pieces: Option<Box<[i32]>>,
    max_weight: i32,
}

/// The index of `key`'s entry for `side` to move in a table of `ENTRIES` per side.
#[inline]
fn index(side: Color, key: u64) -> usize {
    side.index() * ENTRIES + (key >> 40) as usize % ENTRIES
}

impl CorrectionHistory {
    /// Empty tables for `keys` whose results weigh at most `max_weight` of 256 (0: no
    /// correction at all).
    pub fn new(max_weight: i32, keys: CorrectionKeys) -> CorrectionHistory {
        let max_weight = max_weight.clamp(0, WEIGHT_SCALE);
        let table = |used: bool, sides: usize| {
            (max_weight > 0 && used).then(|| vec![0; sides * 2 * ENTRIES].into_boxed_slice())
        };
        CorrectionHistory {
            pawns: table(keys.pawns, 1),
            other_pieces: table(keys.other_pieces, 2),
            max_weight,
        }
    }

    /// Whether corrections are made and learned.
    #[inline]
    pub fn enabled(&self) -> bool {
        self.pawns.is_some() || self.other_pieces.is_some()
    }

    /// `pos`'s entries in the tables in use.
    #[inline]
    pub fn slot(&self, pos: &Position) -> CorrectionSlot {
        let side = pos.side_to_move();
        CorrectionSlot {
            pawns: self.pawns.as_ref().map(|_| index(side, pos.pawn_key())),
            other_pieces: self.other_pieces.as_ref().map(|_| {
                Color::BOTH
                    .map(|owner| owner.index() * 2 * ENTRIES + index(side, pos.other_pieces_key(owner)))
            }),
        }
    }

    /// `pos`'s slot when corrections are made, so that the keys are only computed then.
    #[inline]
    pub fn slot_if_enabled(&self, pos: &Position) -> Option<CorrectionSlot> {
        self.enabled().then(|| self.slot(pos))
    }

    /// `raw` corrected at `slot`, or `raw` itself without a slot.
    #[inline]
    pub fn corrected_at(&self, slot: Option<CorrectionSlot>, raw: i32) -> i32 {
        slot.map_or(raw, |slot| self.corrected(slot, raw))
    }

    /// The static evaluation `raw` corrected by the mean of the entries at `slot`.
    #[inline]
    pub fn corrected(&self, slot: CorrectionSlot, raw: i32) -> i32 {
        let (mut sum, mut count) = (0, 0);
        if let (Some(table), Some(i)) = (&self.pawns, slot.pawns) {
            sum += table[i];
            count += 1;
        }
        if let (Some(table), Some(indices)) = (&self.other_pieces, slot.other_pieces) {
            sum += indices.iter().map(|&i| table[i]).sum::<i32>();
            count += 2;
        }
        if count == 0 {
            raw
        } else {
            raw + sum / (count * CORRECTION_GRAIN)
        }
    }

    /// Learns from a node's result: `raw` and `corrected` its static evaluation before and after
    /// correction, `score` and `bound` what a search of `depth` plies found.
    pub fn learn(
        &mut self,
        slot: CorrectionSlot,
        raw: i32,
        corrected: i32,
        score: i32,
        bound: Bound,
        depth: i32,
    ) {
        if !self.enabled() || score.abs() >= RULE_WIN / 2 {
            return;
        }
        // A bound only tells which side of it the true score lies: learn it where it
        // contradicts the corrected evaluation.
        let contradicts = match bound {
            Bound::Exact => true,
            Bound::Lower => score > corrected,
            Bound::Upper => score < corrected,
        };
        if !contradicts {
            return;
        }
        let weight = (depth + 1).clamp(1, self.max_weight);
        let target = (score - raw).clamp(-CORRECTION_LIMIT_CP, CORRECTION_LIMIT_CP) * CORRECTION_GRAIN;
        let update =
            |entry: &mut i32| *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        if let (Some(table), Some(i)) = (self.pawns.as_mut(), slot.pawns) {
            update(&mut table[i]);
        }
        if let (Some(table), Some(indices)) = (self.other_pieces.as_mut(), slot.other_pieces) {
            indices.iter().for_each(|&i| update(&mut table[i]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots() -> (CorrectionSlot, CorrectionSlot, CorrectionSlot) {
        let history = CorrectionHistory::new(16, CorrectionKeys::PAWNS);
        let start = Position::startpos();
        // The same pawns with the other side to move, and other pawns.
        let other_side = Position::from_fen(&crate::board::START_FEN.replace(" w ", " b ")).unwrap();
        let other_pawns =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 1 1")
                .unwrap();
        (history.slot(&start), history.slot(&other_side), history.slot(&other_pawns))
    }

    #[test]
    fn the_pawn_key_sees_the_pawns_and_nothing_else() {
        let start = Position::startpos();
        let mut pos = Position::startpos();
        pos.make_move(crate::board::Move::parse_iccs("b0c2").unwrap());
        assert_eq!(pos.pawn_key(), start.pawn_key(), "a horse move");
        pos.make_move(crate::board::Move::parse_iccs("c6c5").unwrap());
        assert_ne!(pos.pawn_key(), start.pawn_key(), "a pawn move");
        pos.unmake_move();
        assert_eq!(pos.pawn_key(), start.pawn_key());
        let no_pawns = Position::from_fen("rnbakabnr/9/1c2c4/9/9/9/9/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        assert_eq!(no_pawns.pawn_key(), 0);
        assert_ne!(start.pawn_key(), 0);
    }

    #[test]
    fn the_other_pieces_key_sees_one_sides_pieces_but_its_pawns() {
        let start = Position::startpos();
        let mut pos = Position::startpos();
        pos.make_move(crate::board::Move::parse_iccs("b0c2").unwrap());
        assert_ne!(pos.other_pieces_key(Color::Red), start.other_pieces_key(Color::Red), "Red's horse");
        assert_eq!(pos.other_pieces_key(Color::Black), start.other_pieces_key(Color::Black));
        pos.make_move(crate::board::Move::parse_iccs("c6c5").unwrap());
        assert_eq!(pos.other_pieces_key(Color::Black), start.other_pieces_key(Color::Black), "a pawn");
        pos.make_move(crate::board::Move::parse_iccs("h2e2").unwrap());
        pos.make_move(crate::board::Move::parse_iccs("h9g7").unwrap());
        assert_ne!(pos.other_pieces_key(Color::Black), start.other_pieces_key(Color::Black), "Black's horse");
        // The kings alone still make a key, and taking a piece changes its side's.
        let kings = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_ne!(kings.other_pieces_key(Color::Red), 0);
        let rook_more = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        assert_ne!(rook_more.other_pieces_key(Color::Red), kings.other_pieces_key(Color::Red));
        assert_eq!(rook_more.other_pieces_key(Color::Black), kings.other_pieces_key(Color::Black));
    }

    #[test]
    fn keys_come_from_the_parameter_bits() {
        assert_eq!(CorrectionKeys::from_bits(1), CorrectionKeys::PAWNS);
        assert_eq!(CorrectionKeys::from_bits(0), CorrectionKeys::PAWNS);
        assert_eq!(CorrectionKeys::from_bits(2), CorrectionKeys { pawns: false, other_pieces: true });
        assert_eq!(CorrectionKeys::from_bits(3), CorrectionKeys { pawns: true, other_pieces: true });
    }

    #[test]
    fn other_piece_entries_follow_one_sides_pieces_and_the_mean_corrects() {
        let others = CorrectionKeys { pawns: false, other_pieces: true };
        let both = CorrectionKeys { pawns: true, other_pieces: true };
        let start = Position::startpos();
        let mut moved = Position::startpos();
        moved.make_move(crate::board::Move::parse_iccs("c3c4").unwrap());
        moved.make_move(crate::board::Move::parse_iccs("b9c7").unwrap());
        // Red to move in both, the same Red pieces, other pawns and another Black horse.
        let mut history = CorrectionHistory::new(16, others);
        let slot = history.slot(&start);
        assert_ne!(slot, history.slot(&moved));
        for _ in 0..200 {
            let corrected = history.corrected(slot, 0);
            history.learn(slot, 0, corrected, 60, Bound::Exact, 12);
        }
        assert!((55..=60).contains(&history.corrected(slot, 0)), "{}", history.corrected(slot, 0));
        // Red's entry is shared, Black's is not: the mean of 60 and 0.
        let shared_half = history.corrected(history.slot(&moved), 0);
        assert!((27..=30).contains(&shared_half), "{shared_half}");
        // With the pawns too, the start learns in all three entries; the moved position shares
        // only Red's other pieces: a third.
        let mut history = CorrectionHistory::new(16, both);
        let slot = history.slot(&start);
        for _ in 0..200 {
            let corrected = history.corrected(slot, 0);
            history.learn(slot, 0, corrected, 60, Bound::Exact, 12);
        }
        assert!((55..=60).contains(&history.corrected(slot, 0)));
        let shared_third = history.corrected(history.slot(&moved), 0);
        assert!((18..=20).contains(&shared_third), "{shared_third}");
    }

    #[test]
    fn corrections_follow_the_search_in_their_own_entry_only() {
        let (slot, other_side, other_pawns) = slots();
        assert!(slot != other_side && slot != other_pawns);
        let mut history = CorrectionHistory::new(16, CorrectionKeys::PAWNS);
        assert_eq!(history.corrected(slot, 30), 30);
        // The search keeps finding the position 50 cp better than the evaluation says.
        for _ in 0..200 {
            let corrected = history.corrected(slot, 30);
            history.learn(slot, 30, corrected, 80, Bound::Exact, 12);
        }
        let learned = history.corrected(slot, 30);
        assert!((75..=80).contains(&learned), "{learned}");
        assert_eq!(history.corrected(other_side, 30), 30);
        assert_eq!(history.corrected(other_pawns, 30), 30);
        // Shallow results move an entry less than deep ones.
        let (mut shallow, mut deep) = (
            CorrectionHistory::new(16, CorrectionKeys::PAWNS),
            CorrectionHistory::new(16, CorrectionKeys::PAWNS),
        );
        for _ in 0..10 {
            shallow.learn(slot, 0, shallow.corrected(slot, 0), -60, Bound::Exact, 1);
            deep.learn(slot, 0, deep.corrected(slot, 0), -60, Bound::Exact, 12);
        }
        assert!(deep.corrected(slot, 0) < shallow.corrected(slot, 0) && shallow.corrected(slot, 0) < 0);
    }

    #[test]
    fn bounds_teach_only_what_they_prove_and_corrections_stay_limited() {
        let (slot, _, _) = slots();
        let mut history = CorrectionHistory::new(256, CorrectionKeys::PAWNS);
        // A fail-high at or below the evaluation, and a fail-low above it, say nothing new.
        history.learn(slot, 100, 100, 90, Bound::Lower, 20);
        history.learn(slot, 100, 100, 110, Bound::Upper, 20);
        assert_eq!(history.corrected(slot, 100), 100);
        // Rule and mate scores are not evaluation errors.
        history.learn(slot, 100, 100, RULE_WIN, Bound::Exact, 20);
        assert_eq!(history.corrected(slot, 100), 100);
        // A huge error corrects by the limit at most.
        history.learn(slot, 0, 0, 5_000, Bound::Lower, 300);
        assert_eq!(history.corrected(slot, 0), CORRECTION_LIMIT_CP);
        // Switched off: nothing is learned.
        let mut off = CorrectionHistory::new(0, CorrectionKeys::PAWNS);
        off.learn(slot, 0, 0, 500, Bound::Exact, 20);
        assert!(!off.enabled());
        assert_eq!(off.corrected(slot, 7), 7);
    }
}
