//! Every evaluation weight, in one place, so that tuning can rewrite this file whole.
//!
//! Piece-square tables are written as the board looks from Red's side: the first row is rank 9
//! (Black's back rank), the last row rank 0 (Red's back rank), files `a`..`i` left to right.
//! Black uses the same tables flipped top to bottom. Values are centipawn-like: a horse or a
//! cannon is about 100.

use super::score::Score;

/// Material per kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const MATERIAL: [Score; 7] = [
    Score::new(0, 0),
    Score::new(20, 22),
    Score::new(20, 22),
    Score::new(92, 100),
    Score::new(205, 200),
    Score::new(98, 90),
    Score::new(10, 15),
];

/// Phase weight per kind: the sum over the pieces on the board, over `MAX_PHASE`, is the
/// middlegame share of the tapered evaluation.
pub const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// The phase of the full starting material.
pub const MAX_PHASE: i32 = 32;

#[rustfmt::skip]
const KING_MG: [i32; 90] = [
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0, -18, -14, -18, 0, 0, 0,
    0, 0, 0,  -9,  -6,  -9, 0, 0, 0,
    0, 0, 0,  -1,   3,  -1, 0, 0, 0,
];
#[rustfmt::skip]
const KING_EG: [i32; 90] = [
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0,  0, 0, 0, 0,
    0, 0, 0, -8, -4, -8, 0, 0, 0,
    0, 0, 0, -3,  2, -3, 0, 0, 0,
    0, 0, 0,  0,  4,  0, 0, 0, 0,
];
#[rustfmt::skip]
const ADVISOR: [i32; 90] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0,-2, 0,-2, 0, 0, 0,
    0, 0, 0, 0, 3, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
];
#[rustfmt::skip]
const ELEPHANT: [i32; 90] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0,-2, 0, 0, 0,-2, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
   -3, 0, 0, 0, 4, 0, 0, 0,-3,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 1, 0, 0, 0, 1, 0, 0,
];
#[rustfmt::skip]
const HORSE_MG: [i32; 90] = [
    -4,  0,  4,  4,  0,  4,  4,  0, -4,
     0,  4, 14,  8,  2,  8, 14,  4,  0,
     2,  8, 10, 14, 10, 14, 10,  8,  2,
     4, 12, 10, 16, 12, 16, 10, 12,  4,
     2,  8, 10, 12, 12, 12, 10,  8,  2,
     0,  6,  8, 10, 10, 10,  8,  6,  0,
    -2,  2,  6,  6,  8,  6,  6,  2, -2,
    -4,  0,  4,  2,  6,  2,  4,  0, -4,
    -8, -4,  0, -2, -4, -2,  0, -4, -8,
   -12, -8, -6, -8,-10, -8, -6, -8,-12,
];
#[rustfmt::skip]
const HORSE_EG: [i32; 90] = [
    -6, -2,  2,  4,  4,  4,  2, -2, -6,
    -2,  4,  8, 10, 10, 10,  8,  4, -2,
     0,  6, 10, 12, 12, 12, 10,  6,  0,
     0,  6, 10, 12, 14, 12, 10,  6,  0,
     0,  6, 10, 12, 14, 12, 10,  6,  0,
    -2,  4,  8, 10, 12, 10,  8,  4, -2,
    -4,  2,  6,  8,  8,  8,  6,  2, -4,
    -6,  0,  4,  6,  6,  6,  4,  0, -6,
    -8, -4,  0,  2,  2,  2,  0, -4, -8,
   -12, -8, -6, -4, -4, -4, -6, -8,-12,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 90] = [
     6,  8,  6, 12, 14, 12,  6,  8,  6,
     8, 12, 10, 16, 18, 16, 10, 12,  8,
     4,  8,  6, 12, 14, 12,  6,  8,  4,
     4, 10, 10, 12, 14, 12, 10, 10,  4,
     6, 10, 10, 12, 14, 12, 10, 10,  6,
     4,  8,  8, 10, 12, 10,  8,  8,  4,
     0,  6,  4,  8,  8,  8,  4,  6,  0,
    -2,  4,  2,  6,  6,  6,  2,  4, -2,
    -2,  4,  2,  6,  2,  6,  2,  4, -2,
    -8,  2, -2,  4,  0,  4, -2,  2, -8,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 90] = [
     4,  6,  6,  8,  8,  8,  6,  6,  4,
     6,  8,  8, 10, 10, 10,  8,  8,  6,
     4,  6,  6,  8,  8,  8,  6,  6,  4,
     4,  6,  6,  8,  8,  8,  6,  6,  4,
     4,  6,  6,  8,  8,  8,  6,  6,  4,
     2,  4,  4,  6,  6,  6,  4,  4,  2,
     0,  2,  2,  4,  4,  4,  2,  2,  0,
     0,  2,  2,  4,  4,  4,  2,  2,  0,
     0,  2,  2,  4,  4,  4,  2,  2,  0,
    -2,  0,  0,  2,  2,  2,  0,  0, -2,
];
#[rustfmt::skip]
const CANNON_MG: [i32; 90] = [
     4,  4,  0, -4, -6, -4,  0,  4,  4,
     2,  2,  0, -4, -8, -4,  0,  2,  2,
     2,  2,  0, -4, -2, -4,  0,  2,  2,
     0,  0,  0,  2,  6,  2,  0,  0,  0,
     0,  0,  0,  2,  6,  2,  0,  0,  0,
    -2,  0,  2,  2,  6,  2,  2,  0, -2,
     0,  0,  0,  2,  6,  2,  0,  0,  0,
     2,  0,  4,  4,  8,  4,  4,  0,  2,
     0,  2,  2,  0,  4,  0,  2,  2,  0,
     0,  0,  2,  4,  4,  4,  2,  0,  0,
];
#[rustfmt::skip]
const CANNON_EG: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  2,  2,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  2,  2,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const PAWN_MG: [i32; 90] = [
     2,  4,  6, 10, 12, 10,  6,  4,  2,
    20, 28, 40, 50, 54, 50, 40, 28, 20,
    18, 26, 36, 46, 50, 46, 36, 26, 18,
    14, 22, 28, 36, 40, 36, 28, 22, 14,
     8, 12, 16, 22, 26, 22, 16, 12,  8,
     0,  0,  4,  0,  8,  0,  4,  0,  0,
     0,  0,  0,  0,  4,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 90] = [
     4,  6, 10, 14, 16, 14, 10,  6,  4,
    24, 34, 46, 58, 62, 58, 46, 34, 24,
    22, 32, 42, 52, 56, 52, 42, 32, 22,
    18, 26, 34, 42, 46, 42, 34, 26, 18,
    12, 18, 22, 28, 30, 28, 22, 18, 12,
     0,  0,  6,  0,  8,  0,  6,  0,  0,
     0,  0,  2,  0,  4,  0,  2,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Middlegame piece-square tables, by kind, Red's view.
pub const PST_MG: [[i32; 90]; 7] = [KING_MG, ADVISOR, ELEPHANT, HORSE_MG, ROOK_MG, CANNON_MG, PAWN_MG];
/// Endgame piece-square tables, by kind, Red's view.
pub const PST_EG: [[i32; 90]; 7] = [KING_EG, ADVISOR, ELEPHANT, HORSE_EG, ROOK_EG, CANNON_EG, PAWN_EG];

/// Per missing advisor, per unit of enemy attacking force (`ATTACK_FORCE`).
pub const MISSING_ADVISOR: Score = Score::new(-3, -2);
/// Per missing elephant, per unit of enemy attacking force.
pub const MISSING_ELEPHANT: Score = Score::new(-2, -2);
/// Attacking force of an enemy rook, horse and cannon (other kinds: 0), by kind index.
pub const ATTACK_FORCE: [i32; 7] = [0, 0, 0, 2, 3, 2, 0];
/// A cannon facing the enemy king on an open file with no screen (空头炮).
pub const EMPTY_SCREEN_CANNON: Score = Score::new(45, 20);
/// A cannon on the enemy back rank, on the king's rank (沉底炮).
pub const BOTTOM_CANNON: Score = Score::new(18, 8);
/// A horse with no square to go to (leg blocked or own pieces on all targets).
pub const TRAPPED_HORSE: Score = Score::new(-14, -10);
/// A horse with exactly one square to go to.
pub const CRAMPED_HORSE: Score = Score::new(-5, -4);
/// Per square a rook can reach (moves and captures).
pub const ROOK_MOBILITY: Score = Score::new(2, 2);
/// Rook mobility is counted relative to this typical value.
pub const ROOK_MOBILITY_BASE: i32 = 6;
/// For the side to move.
pub const TEMPO: i32 = 6;
