//! The classic evaluation: material and piece-square tables tapered by the game phase, plus a
//! few xiangqi terms the tables cannot see. Its weights are in `weights`, written by the tuner.
//! The search keeps the tables' sum along its line in a `PsqStack`; everyone else evaluates a
//! position from scratch.

pub mod breakdown;
pub mod counts;
pub mod psq;
pub mod score;
pub mod stack;
pub mod terms;
pub mod weights;
pub mod win_rate;

pub use breakdown::{breakdown, Breakdown};
pub use counts::{term_counts, TermCounts};
pub use psq::PsqState;
pub use score::Score;
pub use stack::PsqStack;
pub use terms::{side_terms, TermSet, Terms, UnknownTerm};
pub use win_rate::WIN_RATE;

use crate::board::{Color, Position};
use weights::{MAX_PHASE, TEMPO};

/// Static evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, TermSet::ALL)
}

/// Static evaluation with only the extra terms of `set`.
#[inline]
pub fn evaluate_with(pos: &Position, set: TermSet) -> i32 {
    evaluate_from(pos, PsqState::of(pos), set)
}

/// Static evaluation with only the extra terms of `set`, given `pos`'s table sum and phase
/// (which a `PsqStack` keeps along the search line).
#[inline]
pub fn evaluate_from(pos: &Position, psq: PsqState, set: TermSet) -> i32 {
    let terms = |color| set.keep(side_terms(pos, color)).total();
    let red = psq.score + terms(Color::Red) - terms(Color::Black);
    let value = red.taper(psq.phase, MAX_PHASE);
    match pos.side_to_move() {
        Color::Red => value + TEMPO,
        Color::Black => -value + TEMPO,
    }
}

#[cfg(test)]
mod tests {
    use super::weights::EMPTY_SCREEN_CANNON;
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), TEMPO, "symmetric: only the tempo bonus");
        assert_eq!(PsqState::of(&pos), PsqState { score: Score::ZERO, phase: MAX_PHASE });
        let b = breakdown(&pos);
        assert_eq!(b.terms[0], b.terms[1]);
        assert_eq!(b.pieces.len(), 32);
    }

    #[test]
    fn colour_flip_negates_and_mirror_keeps() {
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "4k4/4C4/5P3/1R7/9/9/4r4/3A5/6pp1/5K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos.color_flipped()), evaluate(&pos), "{fen}");
            assert_eq!(evaluate(&pos.files_mirrored()), evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn extra_rook_is_winning() {
        // Red has an extra rook on a0; otherwise the start position.
        let with = eval_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        let without = eval_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert!(without - with > 150, "{without} vs {with}");
    }

    #[test]
    fn term_groups_switch_off_by_name() {
        // Red's cannon faces the black king over an empty file: only the cannon group sees it.
        let pos = Position::from_fen("3akab2/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1").unwrap();
        let all = evaluate(&pos);
        assert_eq!(evaluate_with(&pos, TermSet::ALL.without_list("").unwrap()), all);
        let no_cannons = evaluate_with(&pos, TermSet::ALL.without_list("cannons").unwrap());
        // Within one for the taper's rounding of a sum against the sum of its parts.
        assert!(
            (all - no_cannons - EMPTY_SCREEN_CANNON.taper(PsqState::of(&pos).phase, MAX_PHASE)).abs() <= 1
        );
        assert!(all > no_cannons);
        assert_eq!(evaluate_with(&pos, TermSet::ALL.without_list("pawns, kingattack").unwrap()), all);
        let err = TermSet::ALL.without_list("cannons,tempo").unwrap_err();
        assert_eq!(err, terms::UnknownTerm("tempo".to_string()));
        assert!(err.to_string().starts_with("unknown evaluation term 'tempo' (kingsafety, "), "{err}");
    }
}
