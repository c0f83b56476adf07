//! The tuned weight vector: which entry is which evaluation weight.
//!
//! Weights come in middlegame/endgame pairs: pair `p` is entries `2p` (middlegame) and `2p + 1`
//! (endgame). Pairs: the material of the 7 kinds, then each kind's piece-square table folded
//! left-right (10 rows × 5 files, rows as written: rank 9 first, files `a`..`e`, with `f`..`i`
//! mirroring `d`..`a`, so the tables stay symmetric), then the linear extra terms. The attack force,
//! the rook mobility base, the phase weights and the tempo stay fixed.

use crate::board::PieceKind;
use crate::eval::classic::weights::*;
use crate::eval::Score;

/// Piece kinds, in `PieceKind::index` order.
pub const KINDS: usize = 7;
/// Folded squares per piece-square table: 10 rows × 5 files.
pub const PST_SQUARES: usize = 50;
/// First material pair.
pub const MATERIAL_BASE: usize = 0;
/// First piece-square pair.
pub const PST_BASE: usize = MATERIAL_BASE + KINDS;
/// First extra-term pair.
pub const TERM_BASE: usize = PST_BASE + KINDS * PST_SQUARES;

/// The extra terms whose weights are tuned, in pair order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Per missing advisor per unit of enemy force.
    MissingAdvisor,
    /// Per missing elephant per unit of enemy force.
    MissingElephant,
    /// Cannon facing the enemy king with nothing between.
    EmptyScreenCannon,
    /// Cannon on the enemy king's back rank.
    BottomCannon,
    /// Horse with no square to go to.
    TrappedHorse,
    /// Horse with one square to go to.
    CrampedHorse,
    /// Per rook square reached beyond the base.
    RookMobility,
    /// Per horse square reached beyond the base.
    HorseMobility,
    /// Per cannon square reached beyond the base.
    CannonMobility,
    /// Per pair of crossed pawns side by side.
    ConnectedPawns,
    /// Cannon on the enemy king's file with two pieces between.
    ScreenedCannon,
    /// Per pair of attackers in the enemy king's zone.
    KingAttack,
}

impl Term {
    /// Every term, in pair order.
    pub const ALL: [Term; 12] = [
        Term::MissingAdvisor,
        Term::MissingElephant,
        Term::EmptyScreenCannon,
        Term::BottomCannon,
        Term::TrappedHorse,
        Term::CrampedHorse,
        Term::RookMobility,
        Term::HorseMobility,
        Term::CannonMobility,
        Term::ConnectedPawns,
        Term::ScreenedCannon,
        Term::KingAttack,
    ];

    /// The constant's name in `eval::classic::weights`.
    pub const fn name(self) -> &'static str {
        match self {
            Term::MissingAdvisor => "MISSING_ADVISOR",
            Term::MissingElephant => "MISSING_ELEPHANT",
            Term::EmptyScreenCannon => "EMPTY_SCREEN_CANNON",
            Term::BottomCannon => "BOTTOM_CANNON",
            Term::TrappedHorse => "TRAPPED_HORSE",
            Term::CrampedHorse => "CRAMPED_HORSE",
            Term::RookMobility => "ROOK_MOBILITY",
            Term::HorseMobility => "HORSE_MOBILITY",
            Term::CannonMobility => "CANNON_MOBILITY",
            Term::ConnectedPawns => "CONNECTED_PAWNS",
            Term::ScreenedCannon => "SCREENED_CANNON",
            Term::KingAttack => "KING_ATTACK",
        }
    }

    /// Its current weight.
    pub const fn current(self) -> Score {
        match self {
            Term::MissingAdvisor => MISSING_ADVISOR,
            Term::MissingElephant => MISSING_ELEPHANT,
            Term::EmptyScreenCannon => EMPTY_SCREEN_CANNON,
            Term::BottomCannon => BOTTOM_CANNON,
            Term::TrappedHorse => TRAPPED_HORSE,
            Term::CrampedHorse => CRAMPED_HORSE,
            Term::RookMobility => ROOK_MOBILITY,
            Term::HorseMobility => HORSE_MOBILITY,
            Term::CannonMobility => CANNON_MOBILITY,
            Term::ConnectedPawns => CONNECTED_PAWNS,
            Term::ScreenedCannon => SCREENED_CANNON,
            Term::KingAttack => KING_ATTACK,
        }
    }
}

/// Number of middlegame/endgame pairs.
pub const PAIRS: usize = TERM_BASE + Term::ALL.len();
/// Length of the weight vector.
pub const WEIGHTS: usize = 2 * PAIRS;

/// The material pair of `kind`.
pub const fn material(kind: PieceKind) -> usize {
    MATERIAL_BASE + kind.index()
}

/// The piece-square pair of `kind` on written row `row` (0 = rank 9 from Red's side) and file
/// `file` (0 = `a` .. 8 = `i`; the right half folds onto the left).
pub const fn pst(kind: PieceKind, row: usize, file: usize) -> usize {
    let folded = if file > 4 { 8 - file } else { file };
    PST_BASE + kind.index() * PST_SQUARES + row * 5 + folded
}

/// The pair of an extra term.
pub const fn term(t: Term) -> usize {
    TERM_BASE + t as usize
}

/// A readable name of pair `p`, e.g. `PST_MG/EG[horse][row 3][file c]`.
pub fn pair_name(p: usize) -> String {
    if p < PST_BASE {
        format!("MATERIAL[{}]", PieceKind::ALL[p - MATERIAL_BASE].name())
    } else if p < TERM_BASE {
        let i = p - PST_BASE;
        let (kind, sq) = (i / PST_SQUARES, i % PST_SQUARES);
        let file = (b'a' + (sq % 5) as u8) as char;
        format!("PST[{}][rank {}][file {file}]", PieceKind::ALL[kind].name(), 9 - sq / 5)
    } else {
        Term::ALL[p - TERM_BASE].name().to_string()
    }
}

/// The weights `eval::classic::weights` holds now, as a vector in this layout.
pub fn current() -> Vec<f64> {
    let mut w = vec![0.0; WEIGHTS];
    let mut set = |pair: usize, s: Score| {
        w[2 * pair] = s.mg as f64;
        w[2 * pair + 1] = s.eg as f64;
    };
    for kind in PieceKind::ALL {
        set(material(kind), MATERIAL[kind.index()]);
        for row in 0..10 {
            for file in 0..5 {
                let i = row * 9 + file;
                set(pst(kind, row, file), Score::new(PST_MG[kind.index()][i], PST_EG[kind.index()][i]));
            }
        }
    }
    for t in Term::ALL {
        set(term(t), t.current());
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn current_tables_are_symmetric_so_folding_loses_nothing() {
        for table in PST_MG.iter().chain(PST_EG.iter()) {
            for row in 0..10 {
                for file in 0..9 {
                    assert_eq!(table[row * 9 + file], table[row * 9 + 8 - file], "row {row} file {file}");
                }
            }
        }
    }

    #[test]
    fn pairs_are_distinct_and_cover_the_vector() {
        let mut seen = vec![false; PAIRS];
        for kind in PieceKind::ALL {
            seen[material(kind)] = true;
            for row in 0..10 {
                for file in 0..5 {
                    assert!(!seen[pst(kind, row, file)]);
                    seen[pst(kind, row, file)] = true;
                    assert_eq!(pst(kind, row, file), pst(kind, row, 8 - file));
                }
            }
        }
        for t in Term::ALL {
            seen[term(t)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(pair_name(pst(PieceKind::Horse, 2, 7)), "PST[horse][rank 7][file b]");
    }
}
