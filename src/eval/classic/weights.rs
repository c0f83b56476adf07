//! Every evaluation weight, in one place, so that tuning can rewrite this file whole.
//! Written by `chariot tune` (Texel's method on self-play results).
//!
//! Piece-square tables are written as the board looks from Red's side: the first row is rank 9
//! (Black's back rank), the last row rank 0 (Red's back rank), files `a`..`i` left to right.
//! Black uses the same tables flipped top to bottom. Values are centipawn-like.

use super::score::Score;

/// Material per kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const MATERIAL: [Score; 7] = [
    Score::new(0, 0),
    Score::new(35, 17),
    Score::new(28, 11),
    Score::new(106, 87),
    Score::new(251, 222),
    Score::new(131, 66),
    Score::new(17, 13),
];

/// Phase weight per kind: the sum over the pieces on the board, over `MAX_PHASE`, is the
/// middlegame share of the tapered evaluation.
pub const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// The phase of the full starting material.
pub const MAX_PHASE: i32 = 32;

#[rustfmt::skip]
const KING_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -27, -22, -27,   0,   0,   0,
      0,   0,   0, -25,  -7, -25,   0,   0,   0,
      0,   0,   0,   7,  29,   7,   0,   0,   0,
];
#[rustfmt::skip]
const KING_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -9,  -4,  -9,   0,   0,   0,
      0,   0,   0,   2,   7,   2,   0,   0,   0,
      0,   0,   0,  -1,  -3,  -1,   0,   0,   0,
];
#[rustfmt::skip]
const ADVISOR_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -6,   0,  -6,   0,   0,   0,
      0,   0,   0,   0,  16,   0,   0,   0,   0,
      0,   0,   0,   6,   0,   6,   0,   0,   0,
];
#[rustfmt::skip]
const ADVISOR_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -4,   0,  -4,   0,   0,   0,
      0,   0,   0,   0,  -1,   0,   0,   0,   0,
      0,   0,   0,  -1,   0,  -1,   0,   0,   0,
];
#[rustfmt::skip]
const ELEPHANT_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -7,   0,   0,   0,  -7,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
    -12,   0,   0,   0,  22,   0,   0,   0, -12,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   5,   0,   0,   0,   5,   0,   0,
];
#[rustfmt::skip]
const ELEPHANT_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -5,   0,   0,   0,  -5,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
     -1,   0,   0,   0,  -4,   0,   0,   0,  -1,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -2,   0,   0,   0,  -2,   0,   0,
];
#[rustfmt::skip]
const HORSE_MG: [i32; 90] = [
     -4,   0,   4,   4,   0,   4,   4,   0,  -4,
      1,   8,  19,  10,   2,  10,  19,   8,   1,
      7,   9,  14,  17,  14,  17,  14,   9,   7,
      3,  21,  13,  31,   9,  31,  13,  21,   3,
      2,   8,  15,  26,  18,  26,  15,   8,   2,
     -1,   4,  16,  10,  12,  10,  16,   4,  -1,
     -7,   0,  -2,   5,  14,   5,  -2,   0,  -7,
     -7,  -4,  -6,   5,   3,   5,  -6,  -4,  -7,
    -10,  -2,  -9,  -9, -10,  -9,  -9,  -2, -10,
    -13, -23,  -6, -15, -10, -15,  -6, -23, -13,
];
#[rustfmt::skip]
const HORSE_EG: [i32; 90] = [
     -5,  -2,   2,   5,   4,   5,   2,  -2,  -5,
     -3,   8,   8,  11,  12,  11,   8,   8,  -3,
      3,   6,  10,  13,  14,  13,  10,   6,   3,
     -1,  10,  11,  11,  13,  11,  11,  10,  -1,
      1,   6,  13,  14,  13,  14,  13,   6,   1,
     -1,   6,  14,  12,  12,  12,  14,   6,  -1,
     -6,   2,   7,   2,  11,   2,   7,   2,  -6,
     -7,  -2,   3,   7,   1,   7,   3,  -2,  -7,
    -13,  -4,  -8,  -3,   0,  -3,  -8,  -4, -13,
    -14, -13,  -6, -10,  -5, -10,  -6, -13, -14,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 90] = [
      3,   8,   3,  14,  16,  14,   3,   8,   3,
      8,  16,  11,  18,  20,  18,  11,  16,   8,
      9,   7,  10,  17,  19,  17,  10,   7,   9,
      6,  11,  18,  15,  20,  15,  18,  11,   6,
      8,   3,  12,  12,  13,  12,  12,   3,   8,
      4,   5,   9,  13,  14,  13,   9,   5,   4,
      4,   7,  10,  11,  14,  11,  10,   7,   4,
     -3,   2,   5,   6,   7,   6,   5,   2,  -3,
     -4,   2,   0,   3,  -4,   3,   0,   2,  -4,
    -12,   3,  -4,   2,   0,   2,  -4,   3, -12,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 90] = [
      2,   1,   3,   4,   9,   4,   3,   1,   2,
      6,   7,   6,   6,  12,   6,   6,   7,   6,
      7,   9,   5,  12,  13,  12,   5,   9,   7,
      6,   8,   6,   9,  15,   9,   6,   8,   6,
      3,   3,   6,   9,  13,   9,   6,   3,   3,
      4,   7,   4,  12,  11,  12,   4,   7,   4,
      2,   6,   5,   6,   9,   6,   5,   6,   2,
      1,   0,   3,   6,   7,   6,   3,   0,   1,
     -1,   1,   1,  -2,   5,  -2,   1,   1,  -1,
     -9,  -3,  -4,   0,   2,   0,  -4,  -3,  -9,
];
#[rustfmt::skip]
const CANNON_MG: [i32; 90] = [
     14,   8,  -9, -10, -12, -10,  -9,   8,  14,
      5,  -8,  -1,  -4, -10,  -4,  -1,  -8,   5,
      2,  -7,  -4,  -6,  -6,  -6,  -4,  -7,   2,
      4,   3,  -1,  -1,   8,  -1,  -1,   3,   4,
      1,  -3,  -1,  -3,  20,  -3,  -1,  -3,   1,
      0,  -2,  16,   3,  24,   3,  16,  -2,   0,
      1,  -1,   7,  -6,   8,  -6,   7,  -1,   1,
     10,  -1,  12,   4,  20,   4,  12,  -1,  10,
      2,   3,   4,  -2,   4,  -2,   4,   3,   2,
     -2,  -4,   4,   5,   3,   5,   4,  -4,  -2,
];
#[rustfmt::skip]
const CANNON_EG: [i32; 90] = [
     -5,   2,  -5,  -3,  -7,  -3,  -5,   2,  -5,
     -1,   6,  -1,   0,   0,   0,  -1,   6,  -1,
     -1,  -2,  -5,  -1,  -1,  -1,  -5,  -2,  -1,
      3,   2,   4,   2,   6,   2,   4,   2,   3,
      3,   2,  -1,   3,   3,   3,  -1,   2,   3,
      0,   2,  -1,   2,   1,   2,  -1,   2,   0,
      0,   1,   1,  -3,   3,  -3,   1,   1,   0,
     -1,   4,   2,   1,   1,   1,   2,   4,  -1,
      0,   0,   1,   3,   2,   3,   1,   0,   0,
     -2,  -1,   0,  -2,   0,  -2,   0,  -1,  -2,
];
#[rustfmt::skip]
const PAWN_MG: [i32; 90] = [
      2,   5,   5,   8,  11,   8,   5,   5,   2,
     21,  27,  43,  59,  55,  59,  43,  27,  21,
     18,  28,  37,  50,  52,  50,  37,  28,  18,
     17,  24,  30,  34,  38,  34,  30,  24,  17,
      5,  14,  19,  25,  26,  25,  19,  14,   5,
      1,   0,   1,   0,   5,   0,   1,   0,   1,
    -11,   0,  -4,   0,   8,   0,  -4,   0, -11,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 90] = [
      6,   8,   8,   8,  10,   8,   8,   8,   6,
     25,  36,  33,  31,  58,  31,  33,  36,  25,
     24,  35,  36,  58,  54,  58,  36,  35,  24,
     25,  33,  38,  28,  29,  28,  38,  33,  25,
     24,  21,  29,  26,  28,  26,  29,  21,  24,
     11,   0,  11,   0,   8,   0,  11,   0,  11,
     19,   0,   5,   0,   9,   0,   5,   0,  19,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// Middlegame piece-square tables, by kind, Red's view.
pub const PST_MG: [[i32; 90]; 7] = [KING_MG, ADVISOR_MG, ELEPHANT_MG, HORSE_MG, ROOK_MG, CANNON_MG, PAWN_MG];

/// Endgame piece-square tables, by kind, Red's view.
pub const PST_EG: [[i32; 90]; 7] = [KING_EG, ADVISOR_EG, ELEPHANT_EG, HORSE_EG, ROOK_EG, CANNON_EG, PAWN_EG];

/// Per missing advisor, per unit of enemy attacking force (`ATTACK_FORCE`).
pub const MISSING_ADVISOR: Score = Score::new(-4, 4);
/// Per missing elephant, per unit of enemy attacking force.
pub const MISSING_ELEPHANT: Score = Score::new(-4, 3);
/// Attacking force of an enemy rook, horse and cannon (other kinds: 0), by kind index.
pub const ATTACK_FORCE: [i32; 7] = [0, 0, 0, 2, 3, 2, 0];
/// A cannon facing the enemy king on an open file with no screen (空头炮).
pub const EMPTY_SCREEN_CANNON: Score = Score::new(60, -3);
/// A cannon on the enemy back rank, on the king's rank (沉底炮).
pub const BOTTOM_CANNON: Score = Score::new(13, 1);
/// A horse with no square to go to (leg blocked or own pieces on all targets).
pub const TRAPPED_HORSE: Score = Score::new(-4, -15);
/// A horse with exactly one square to go to.
pub const CRAMPED_HORSE: Score = Score::new(3, -11);
/// Per square a rook can reach (moves and captures).
pub const ROOK_MOBILITY: Score = Score::new(2, 0);
/// Per square a horse can reach.
pub const HORSE_MOBILITY: Score = Score::new(7, -3);
/// Per square a cannon can reach (moves, and captures over a screen).
pub const CANNON_MOBILITY: Score = Score::new(1, -1);
/// Per pair of crossed pawns side by side.
pub const CONNECTED_PAWNS: Score = Score::new(-1, -6);
/// A cannon on the enemy king's file with two pieces between: one moving away gives check (中炮).
pub const SCREENED_CANNON: Score = Score::new(4, 6);
/// Per pair of attackers (rooks, horses, cannons, crossed pawns) in the enemy king's zone.
pub const KING_ATTACK: Score = Score::new(10, -1);
/// Rook mobility is counted relative to this typical value.
pub const ROOK_MOBILITY_BASE: i32 = 6;
/// Horse mobility is counted relative to this typical value.
pub const HORSE_MOBILITY_BASE: i32 = 4;
/// Cannon mobility is counted relative to this typical value.
pub const CANNON_MOBILITY_BASE: i32 = 8;
/// For the side to move.
pub const TEMPO: i32 = 6;
