//! Output buckets: which output layer the material on the board selects.

use crate::board::{Color, PieceKind, Position};

/// Pieces of both sides other than the kings, at most (the output bucket's input).
pub const MAX_NON_KING_PIECES: usize = 30;

/// The output bucket of a position with `non_king_pieces` pieces besides the kings, for a net
/// with `buckets` output buckets: `non_king_pieces * buckets / 31`.
#[inline]
pub fn output_bucket(non_king_pieces: usize, buckets: usize) -> usize {
    (non_king_pieces.min(MAX_NON_KING_PIECES) * buckets) / (MAX_NON_KING_PIECES + 1)
}

/// Pieces on the board other than the two kings.
pub fn non_king_pieces(pos: &Position) -> usize {
    Color::BOTH.iter().flat_map(|&c| PieceKind::ALL[1..].iter().map(move |&k| pos.count(c, k))).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_buckets_span_the_material_range() {
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(30, 8), 7);
        assert_eq!(output_bucket(30, 1), 0);
        assert_eq!(output_bucket(99, 4), 3);
        assert_eq!(non_king_pieces(&Position::startpos()), 30);
        let buckets: std::collections::HashSet<_> = (0..=30).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(buckets.len(), 8);
    }
}
