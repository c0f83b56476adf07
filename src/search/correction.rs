//! Correction history: the search's verdicts teach it how far the static evaluation errs in
//! positions with the same pawns, and later static evaluations there are corrected by that much.
//! A net trained on a few million positions misjudges some pawn structures the same way all
//! game long; the search finds out, and pruning decisions (futility, null move) should hear it.
//!
//! An entry, by side to move and pawn key, is a running average of (search score − static
//! evaluation) over the nodes that fell into it, a deeper search weighing more (up to the
//! `corr_weight` search parameter out of 256; 0 switches correction off). Only results that say
//! something about the evaluation are learned: not in check, no capture as the best move, and
//! the score on the side of the bound that the static evaluation did not already predict.

use crate::board::Position;

use super::score::RULE_WIN;
use super::tt::Bound;

/// Entries per side to move (a power of two).
const ENTRIES: usize = 16_384;

/// Entries hold centipawns times this, so that small corrections average without rounding away.
const GRAIN: i32 = 256;

/// A result's weight is out of this.
const WEIGHT_SCALE: i32 = 256;

/// No entry corrects by more than this many centipawns.
const LIMIT_CP: i32 = 96;

/// Where a position's correction is kept: its side to move and pawn key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CorrectionSlot {
    side: usize,
    index: usize,
}

/// One search thread's correction table (see the module documentation).
pub struct CorrectionHistory {
    /// The entries by side to move, none when correction is off: a search makes a new table,
    /// and zeroing 128 KB for nothing cost short searches (data generation's) 1% of their time.
    entries: Option<Box<[[i32; ENTRIES]; 2]>>,
    max_weight: i32,
}

impl CorrectionHistory {
    /// An empty table whose results weigh at most `max_weight` of 256 (0: no correction at all).
    pub fn new(max_weight: i32) -> CorrectionHistory {
        let max_weight = max_weight.clamp(0, WEIGHT_SCALE);
        CorrectionHistory { entries: (max_weight > 0).then(|| Box::new([[0; ENTRIES]; 2])), max_weight }
    }

    /// Whether corrections are made and learned.
    #[inline]
    pub fn enabled(&self) -> bool {
        self.entries.is_some()
    }

    /// `pos`'s entry.
    #[inline]
    pub fn slot(pos: &Position) -> CorrectionSlot {
        CorrectionSlot { side: pos.side_to_move().index(), index: (pos.pawn_key() >> 40) as usize % ENTRIES }
    }

    /// `pos`'s slot when corrections are made, so that the pawn key is only computed then.
    #[inline]
    pub fn slot_if_enabled(&self, pos: &Position) -> Option<CorrectionSlot> {
        self.enabled().then(|| Self::slot(pos))
    }

    /// `raw` corrected at `slot`, or `raw` itself without a slot.
    #[inline]
    pub fn corrected_at(&self, slot: Option<CorrectionSlot>, raw: i32) -> i32 {
        slot.map_or(raw, |slot| self.corrected(slot, raw))
    }

    /// The static evaluation `raw` corrected by the entry at `slot`.
    #[inline]
    pub fn corrected(&self, slot: CorrectionSlot, raw: i32) -> i32 {
        self.entries.as_ref().map_or(raw, |entries| raw + entries[slot.side][slot.index] / GRAIN)
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
        let Some(entries) = self.entries.as_mut() else {
            return;
        };
        if score.abs() >= RULE_WIN / 2 {
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
        let target = (score - raw).clamp(-LIMIT_CP, LIMIT_CP) * GRAIN;
        let entry = &mut entries[slot.side][slot.index];
        *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots() -> (CorrectionSlot, CorrectionSlot, CorrectionSlot) {
        let start = Position::startpos();
        // The same pawns with the other side to move, and other pawns.
        let other_side = Position::from_fen(&crate::board::START_FEN.replace(" w ", " b ")).unwrap();
        let other_pawns =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 1 1")
                .unwrap();
        (
            CorrectionHistory::slot(&start),
            CorrectionHistory::slot(&other_side),
            CorrectionHistory::slot(&other_pawns),
        )
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
    fn corrections_follow_the_search_in_their_own_entry_only() {
        let (slot, other_side, other_pawns) = slots();
        assert!(slot != other_side && slot != other_pawns);
        let mut history = CorrectionHistory::new(16);
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
        let (mut shallow, mut deep) = (CorrectionHistory::new(16), CorrectionHistory::new(16));
        for _ in 0..10 {
            shallow.learn(slot, 0, shallow.corrected(slot, 0), -60, Bound::Exact, 1);
            deep.learn(slot, 0, deep.corrected(slot, 0), -60, Bound::Exact, 12);
        }
        assert!(deep.corrected(slot, 0) < shallow.corrected(slot, 0) && shallow.corrected(slot, 0) < 0);
    }

    #[test]
    fn bounds_teach_only_what_they_prove_and_corrections_stay_limited() {
        let (slot, _, _) = slots();
        let mut history = CorrectionHistory::new(256);
        // A fail-high at or below the evaluation, and a fail-low above it, say nothing new.
        history.learn(slot, 100, 100, 90, Bound::Lower, 20);
        history.learn(slot, 100, 100, 110, Bound::Upper, 20);
        assert_eq!(history.corrected(slot, 100), 100);
        // Rule and mate scores are not evaluation errors.
        history.learn(slot, 100, 100, RULE_WIN, Bound::Exact, 20);
        assert_eq!(history.corrected(slot, 100), 100);
        // A huge error corrects by the limit at most.
        history.learn(slot, 0, 0, 5_000, Bound::Lower, 300);
        assert_eq!(history.corrected(slot, 0), LIMIT_CP);
        // Switched off: nothing is learned.
        let mut off = CorrectionHistory::new(0);
        off.learn(slot, 0, 0, 500, Bound::Exact, 20);
        assert!(!off.enabled());
        assert_eq!(off.corrected(slot, 7), 7);
    }
}
