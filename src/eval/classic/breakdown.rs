//! The evaluation explained piece by piece and term by term, for `chariot eval`.

use super::evaluate;
use super::psq::{PsqState, PSQ};
use super::score::Score;
use super::terms::{side_terms, Terms};
use super::weights::MAX_PHASE;
use crate::board::{Color, Position, Square};

/// A full account of an evaluation, for `chariot eval`.
pub struct Breakdown {
    /// Each piece with its material + placement value (owner's view, before tapering).
    pub pieces: Vec<(Square, char, Score)>,
    /// Terms per side (Red, Black).
    pub terms: [Terms; 2],
    /// Phase and its maximum.
    pub phase: (i32, i32),
    /// The final value from the side to move's view (what `evaluate` returns).
    pub total: i32,
}

/// Explains `evaluate(pos)` term by term.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut pieces = Vec::new();
    for sq in Square::all() {
        let p = pos.piece_at(sq);
        if p.is_piece() {
            pieces.push((sq, p.letter(), PSQ[p.type_index()][sq.index()]));
        }
    }
    Breakdown {
        pieces,
        terms: [side_terms(pos, Color::Red), side_terms(pos, Color::Black)],
        phase: (PsqState::of(pos).phase, MAX_PHASE),
        total: evaluate(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::super::weights::TEMPO;
    use super::*;

    #[test]
    fn breakdown_adds_up() {
        let pos =
            Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 0 1")
                .unwrap();
        let b = breakdown(&pos);
        let mut red = Score::ZERO;
        for (_, letter, s) in &b.pieces {
            if letter.is_ascii_uppercase() {
                red += *s
            } else {
                red -= *s
            }
        }
        red += b.terms[0].total() - b.terms[1].total();
        assert_eq!(-red.taper(b.phase.0, b.phase.1) + TEMPO, b.total);
    }
}
