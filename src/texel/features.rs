//! The evaluation as a linear function of the weight vector: for a position, the coefficient of
//! every weight pair (Red's count minus Black's) and the phase that blends the pair's two halves.
//!
//! This mirrors `eval::classic::evaluate` term by term; `reconstruct` and a test over many positions keep
//! the two in step (they agree to within the taper's integer rounding).

use crate::board::{Color, PieceKind, Position};
use crate::eval::classic::weights::{MAX_PHASE, TEMPO};
use crate::eval::classic::{term_counts, PsqState};

use super::layout::{self, Term};

/// One weight pair's coefficient: `pair` as in `layout`, `coef` = Red's count minus Black's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The weight pair.
    pub pair: u16,
    /// Its coefficient (never zero).
    pub coef: i16,
}

/// A position's linear decomposition.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// The game phase, clamped to `0..=MAX_PHASE` (the middlegame share is `phase / MAX_PHASE`).
    pub phase: i32,
    /// Whether Red is to move (the tempo bonus goes to the mover).
    pub red_to_move: bool,
    /// The non-zero coefficients, sorted by pair.
    pub entries: Vec<Entry>,
}

impl Features {
    /// The middlegame share of the blend, 0..=1.
    #[inline]
    pub fn mg_share(&self) -> f64 {
        self.phase as f64 / MAX_PHASE as f64
    }

    /// The fixed part of the evaluation from Red's view: the tempo bonus.
    #[inline]
    pub fn red_offset(&self) -> f64 {
        if self.red_to_move {
            TEMPO as f64
        } else {
            -(TEMPO as f64)
        }
    }

    /// The evaluation from Red's view under weights `w` (no rounding).
    pub fn red_eval(&self, w: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for e in &self.entries {
            let p = e.pair as usize;
            mg += w[2 * p] * e.coef as f64;
            eg += w[2 * p + 1] * e.coef as f64;
        }
        let rho = self.mg_share();
        rho * mg + (1.0 - rho) * eg + self.red_offset()
    }

    /// The evaluation from the side to move's view, as `eval::classic::evaluate` reports it.
    pub fn reconstruct(&self, w: &[f64]) -> f64 {
        let red = self.red_eval(w);
        if self.red_to_move {
            red
        } else {
            -red
        }
    }
}

/// Accumulates per-pair coefficients densely, then keeps the non-zero ones.
struct Accumulator {
    coefs: Vec<i32>,
}

impl Accumulator {
    fn add(&mut self, pair: usize, value: i32) {
        self.coefs[pair] += value;
    }
}

/// Decomposes `pos`'s evaluation.
pub fn extract(pos: &Position) -> Features {
    let mut acc = Accumulator { coefs: vec![0; layout::PAIRS] };
    for color in Color::BOTH {
        let sign = if color == Color::Red { 1 } else { -1 };
        for kind in PieceKind::ALL {
            for sq in pos.pieces(color, kind) {
                // Tables are written from Red's side: Red's rank r is row 9 − r; Black's squares
                // are flipped top to bottom, so its rank r is row r.
                let row = if color == Color::Red { 9 - sq.rank() } else { sq.rank() } as usize;
                acc.add(layout::material(kind), sign);
                acc.add(layout::pst(kind, row, sq.file() as usize), sign);
            }
        }
        side_terms(pos, color, sign, &mut acc);
    }
    let entries = acc
        .coefs
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(p, &c)| Entry { pair: p as u16, coef: c.clamp(i16::MIN as i32, i16::MAX as i32) as i16 })
        .collect();
    Features {
        phase: PsqState::of(pos).phase.clamp(0, MAX_PHASE),
        red_to_move: pos.side_to_move() == Color::Red,
        entries,
    }
}

/// The counts behind `eval::classic::side_terms` for `us` (the evaluation's own), added with `sign`.
fn side_terms(pos: &Position, us: Color, sign: i32, acc: &mut Accumulator) {
    let c = term_counts(pos, us);
    acc.add(layout::term(Term::MissingAdvisor), sign * c.missing_advisors_by_force);
    acc.add(layout::term(Term::MissingElephant), sign * c.missing_elephants_by_force);
    acc.add(layout::term(Term::EmptyScreenCannon), sign * c.empty_screen_cannons);
    acc.add(layout::term(Term::BottomCannon), sign * c.bottom_cannons);
    acc.add(layout::term(Term::TrappedHorse), sign * c.trapped_horses);
    acc.add(layout::term(Term::CrampedHorse), sign * c.cramped_horses);
    acc.add(layout::term(Term::RookMobility), sign * c.rook_mobility);
    acc.add(layout::term(Term::HorseMobility), sign * c.horse_mobility);
    acc.add(layout::term(Term::CannonMobility), sign * c.cannon_mobility);
    acc.add(layout::term(Term::ConnectedPawns), sign * c.connected_pawns);
    acc.add(layout::term(Term::ScreenedCannon), sign * c.screened_cannons);
    acc.add(layout::term(Term::KingAttack), sign * c.king_attacker_pairs);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::classic::evaluate;

    #[test]
    fn start_position_has_only_the_tempo() {
        let f = extract(&Position::startpos());
        assert!(f.entries.is_empty(), "{:?}", f.entries);
        assert_eq!(f.phase, MAX_PHASE);
        assert_eq!(f.reconstruct(&layout::current()), TEMPO as f64);
    }

    #[test]
    fn an_extra_red_rook_shows_in_material() {
        // Black's a9 rook removed: Red is a rook up and Black has that rook's table entry less.
        let pos = Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
            .unwrap();
        let f = extract(&pos);
        let rook = Entry { pair: layout::material(PieceKind::Rook) as u16, coef: 1 };
        assert!(f.entries.contains(&rook), "{:?}", f.entries);
        assert_eq!(f.phase, MAX_PHASE - 4);
        assert!(!f.red_to_move);
        let w = layout::current();
        assert!((f.reconstruct(&w) - evaluate(&pos) as f64).abs() <= 1.0);
    }
}
