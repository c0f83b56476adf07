//! The extra terms weighted: `Terms` per side from the counts, and `TermSet`, the groups of them
//! an evaluation may leave out.

use std::fmt;

use super::counts::term_counts;
use super::score::Score;
use super::weights::*;
use crate::board::{Color, Position};

/// The non-table terms for one side, each as a middlegame/endgame pair.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Missing advisors and elephants against the enemy's attacking pieces.
    pub king_safety: Score,
    /// Cannons facing the enemy king with no screen (空头炮).
    pub empty_screen_cannon: Score,
    /// Cannons on the enemy back rank beside the king (沉底炮).
    pub bottom_cannon: Score,
    /// Trapped or cramped horses.
    pub horse_mobility: Score,
    /// Squares the rooks reach.
    pub rook_mobility: Score,
    /// Squares the horses and cannons reach.
    pub minor_mobility: Score,
    /// Crossed pawns side by side.
    pub connected_pawns: Score,
    /// Cannons on the enemy king's file with two pieces between (中炮 pressure).
    pub screened_cannon: Score,
    /// Pairs of attackers near the enemy king.
    pub king_attack: Score,
}

impl Terms {
    /// Names and values, in a fixed order (for printing).
    pub fn named(&self) -> [(&'static str, Score); 9] {
        [
            ("king safety", self.king_safety),
            ("empty-screen cannon", self.empty_screen_cannon),
            ("bottom cannon", self.bottom_cannon),
            ("horse mobility", self.horse_mobility),
            ("rook mobility", self.rook_mobility),
            ("horse/cannon mobility", self.minor_mobility),
            ("connected pawns", self.connected_pawns),
            ("screened cannon", self.screened_cannon),
            ("king attack", self.king_attack),
        ]
    }

    /// The sum of all terms.
    pub fn total(&self) -> Score {
        self.named().iter().fold(Score::ZERO, |acc, (_, s)| acc + *s)
    }
}

/// Groups of extra terms the evaluation can leave out, to measure what each is worth in games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TermSet {
    /// Missing advisors and elephants against attackers.
    pub king_safety: bool,
    /// Empty-screen, bottom and central (two-screen) cannons.
    pub cannons: bool,
    /// Trapped and cramped horses, rook, horse and cannon mobility.
    pub mobility: bool,
    /// Connected crossed pawns.
    pub pawns: bool,
    /// Attacker pairs near the enemy king.
    pub king_attack: bool,
}

impl TermSet {
    /// Every term: the evaluation as it plays.
    pub const ALL: TermSet =
        TermSet { king_safety: true, cannons: true, mobility: true, pawns: true, king_attack: true };

    /// The group names, as the `withoutterms` option takes them.
    pub const NAMES: [&'static str; 5] = ["kingsafety", "cannons", "mobility", "pawns", "kingattack"];

    /// The set with each group named in `list` (comma- or space-separated, may be empty) left out.
    pub fn without_list(mut self, list: &str) -> Result<TermSet, UnknownTerm> {
        for name in list.split([',', ' ']).filter(|n| !n.is_empty()) {
            let flag = match name {
                "kingsafety" => &mut self.king_safety,
                "cannons" => &mut self.cannons,
                "mobility" => &mut self.mobility,
                "pawns" => &mut self.pawns,
                "kingattack" => &mut self.king_attack,
                other => return Err(UnknownTerm(other.to_string())),
            };
            *flag = false;
        }
        Ok(self)
    }

    /// `terms` with the groups this set leaves out zeroed.
    #[inline]
    pub(super) fn keep(self, mut terms: Terms) -> Terms {
        if self == TermSet::ALL {
            return terms;
        }
        let zero_unless = |on: bool, s: &mut Score| {
            if !on {
                *s = Score::ZERO;
            }
        };
        zero_unless(self.king_safety, &mut terms.king_safety);
        zero_unless(self.cannons, &mut terms.empty_screen_cannon);
        zero_unless(self.cannons, &mut terms.bottom_cannon);
        zero_unless(self.cannons, &mut terms.screened_cannon);
        zero_unless(self.mobility, &mut terms.horse_mobility);
        zero_unless(self.mobility, &mut terms.rook_mobility);
        zero_unless(self.mobility, &mut terms.minor_mobility);
        zero_unless(self.pawns, &mut terms.connected_pawns);
        zero_unless(self.king_attack, &mut terms.king_attack);
        terms
    }
}

/// A name `TermSet::without_list` does not know; the message lists the names it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTerm(pub String);

impl fmt::Display for UnknownTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown evaluation term '{}' ({})", self.0, TermSet::NAMES.join(", "))
    }
}

impl std::error::Error for UnknownTerm {}

impl Default for TermSet {
    fn default() -> Self {
        TermSet::ALL
    }
}

/// The terms for `us`.
pub fn side_terms(pos: &Position, us: Color) -> Terms {
    let c = term_counts(pos, us);
    Terms {
        king_safety: MISSING_ADVISOR * c.missing_advisors_by_force
            + MISSING_ELEPHANT * c.missing_elephants_by_force,
        empty_screen_cannon: EMPTY_SCREEN_CANNON * c.empty_screen_cannons,
        bottom_cannon: BOTTOM_CANNON * c.bottom_cannons,
        horse_mobility: TRAPPED_HORSE * c.trapped_horses + CRAMPED_HORSE * c.cramped_horses,
        rook_mobility: ROOK_MOBILITY * c.rook_mobility,
        minor_mobility: HORSE_MOBILITY * c.horse_mobility + CANNON_MOBILITY * c.cannon_mobility,
        connected_pawns: CONNECTED_PAWNS * c.connected_pawns,
        screened_cannon: SCREENED_CANNON * c.screened_cannons,
        king_attack: KING_ATTACK * c.king_attacker_pairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_fire_on_positions_that_show_them() {
        // Red cannon e4 faces the black king e9 over an empty file: 空头炮.
        let pos = Position::from_fen("3akab2/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Red).empty_screen_cannon, EMPTY_SCREEN_CANNON);
        assert_eq!(side_terms(&pos, Color::Red).bottom_cannon, Score::ZERO);
        // Red cannon a9 on Black's back rank with the king there (it checks over d9: Black to move).
        let pos = Position::from_fen("C2akab2/9/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Red).bottom_cannon, BOTTOM_CANNON);
        assert_eq!(side_terms(&pos, Color::Red).empty_screen_cannon, Score::ZERO);
        // Red horse a0 boxed in by its own rooks on b2 and c1: no square to go to.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/1R7/2R6/N2K5 w - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Red).horse_mobility, TRAPPED_HORSE);
        // Black has one advisor and faces two red rooks (force 2 x 3): a penalty for one missing
        // advisor. Red misses an advisor and both elephants but Black has no attackers: no penalty.
        let pos = Position::from_fen("2b1kab2/9/9/9/9/9/9/9/R3A3R/3K5 w - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Black).king_safety, MISSING_ADVISOR * 6);
        assert_eq!(side_terms(&pos, Color::Red).king_safety, Score::ZERO);
    }
}
