//! Every evaluation weight, in one place, so that tuning can rewrite this file whole.
//!
//! Piece-square tables are written as the board looks from Red's side: the first row is rank 9
//! (Black's back rank), the last row rank 0 (Red's back rank), files `a`..`i` left to right.
//! Black uses the same tables flipped top to bottom.

use super::score::Score;

/// Material per kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const MATERIAL: [Score; 7] = [
    Score::new(0, 0),
    Score::new(20, 20),
    Score::new(20, 20),
    Score::new(90, 100),
    Score::new(200, 200),
    Score::new(95, 90),
    Score::new(10, 15),
];

/// Phase weight per kind: the sum over the pieces on the board, over `MAX_PHASE`, is the
/// middlegame share of the tapered evaluation.
pub const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// The phase of the full starting material.
pub const MAX_PHASE: i32 = 32;

/// Middlegame piece-square tables, by kind, Red's view.
pub const PST_MG: [[i32; 90]; 7] = [[0; 90]; 7];
/// Endgame piece-square tables, by kind, Red's view.
pub const PST_EG: [[i32; 90]; 7] = [[0; 90]; 7];
