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
    Score::new(29, 18),
    Score::new(27, 11),
    Score::new(95, 92),
    Score::new(238, 221),
    Score::new(110, 68),
    Score::new(12, 19),
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
      0,   0,   0, -22, -18, -22,   0,   0,   0,
      0,   0,   0, -23, -13, -23,   0,   0,   0,
      0,   0,   0,   6,  25,   6,   0,   0,   0,
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
      0,   0,   0,  -6,  -1,  -6,   0,   0,   0,
      0,   0,   0,  -2,   3,  -2,   0,   0,   0,
      0,   0,   0,   2,  -5,   2,   0,   0,   0,
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
      0,   0,   0,  -7,   0,  -7,   0,   0,   0,
      0,   0,   0,   0,  16,   0,   0,   0,   0,
      0,   0,   0,   1,   0,   1,   0,   0,   0,
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
      0,   0,   0,  -3,   0,  -3,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -1,   0,  -1,   0,   0,   0,
];
#[rustfmt::skip]
const ELEPHANT_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -4,   0,   0,   0,  -4,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
    -10,   0,   0,   0,  17,   0,   0,   0, -10,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   4,   0,   0,   0,   4,   0,   0,
];
#[rustfmt::skip]
const ELEPHANT_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -7,   0,   0,   0,  -7,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
     -3,   0,   0,   0,  -1,   0,   0,   0,  -3,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const HORSE_MG: [i32; 90] = [
     -4,   0,   4,   4,   0,   4,   4,   0,  -4,
      0,   6,  16,   9,   2,   9,  16,   6,   0,
      4,   8,  14,  15,  12,  15,  14,   8,   4,
      5,  16,  12,  23,  11,  23,  12,  16,   5,
      3,   7,  13,  21,  17,  21,  13,   7,   3,
     -1,   8,  11,  12,  11,  12,  11,   8,  -1,
     -5,   3,   3,   6,  11,   6,   3,   3,  -5,
      0,  -3,  -5,   3,   4,   3,  -5,  -3,   0,
    -13,  -3,  -3, -11,  -9, -11,  -3,  -3, -13,
    -11, -21,  -6, -12, -10, -12,  -6, -21, -11,
];
#[rustfmt::skip]
const HORSE_EG: [i32; 90] = [
     -6,  -2,   2,   4,   4,   4,   2,  -2,  -6,
     -3,   5,   9,  11,  11,  11,   9,   5,  -3,
      1,   6,  12,  13,  13,  13,  12,   6,   1,
      2,   7,  14,  14,  11,  14,  14,   7,   2,
      1,   5,  13,  14,  17,  14,  13,   5,   1,
     -2,   6,  11,  11,  12,  11,  11,   6,  -2,
     -5,   3,   5,   3,   8,   3,   5,   3,  -5,
     -6,  -2,   2,   7,   2,   7,   2,  -2,  -6,
    -13,  -4,  -4,  -3,   1,  -3,  -4,  -4, -13,
    -12, -12,  -6,  -9,  -5,  -9,  -6, -12, -12,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 90] = [
      5,  10,   6,  15,  16,  15,   6,  10,   5,
      8,  17,  11,  21,  19,  21,  11,  17,   8,
      7,   8,   9,  17,  17,  17,   9,   8,   7,
      5,  11,  14,  12,  17,  12,  14,  11,   5,
      5,   2,  11,  10,  12,  10,  11,   2,   5,
      4,   4,   7,   9,  12,   9,   7,   4,   4,
      3,   7,  10,   9,  10,   9,  10,   7,   3,
     -2,   4,   3,   8,   5,   8,   3,   4,  -2,
     -6,   3,   2,   8,  -2,   8,   2,   3,  -6,
    -12,   5,  -1,   5,   0,   5,  -1,   5, -12,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 90] = [
      4,   4,   8,   7,  10,   7,   8,   4,   4,
      6,   6,   7,   7,  11,   7,   7,   6,   6,
      7,   8,   8,  10,  12,  10,   8,   8,   7,
      5,   5,   7,   8,  12,   8,   7,   5,   5,
      4,   2,   7,   8,  10,   8,   7,   2,   4,
      3,   5,   2,   8,   9,   8,   2,   5,   3,
      2,   4,   6,   7,   6,   7,   6,   4,   2,
      1,   0,   2,   4,   5,   4,   2,   0,   1,
     -1,   1,   2,   0,   5,   0,   2,   1,  -1,
     -7,   1,  -1,   1,   2,   1,  -1,   1,  -7,
];
#[rustfmt::skip]
const CANNON_MG: [i32; 90] = [
      6,   6,  -7,  -7, -10,  -7,  -7,   6,   6,
      3,  -1,   2,  -3,  -9,  -3,   2,  -1,   3,
      1,   3,  -7,  -5,  -3,  -5,  -7,   3,   1,
      1,  -1,   2,   0,   5,   0,   2,  -1,   1,
     -2,  -5,  -1,  -5,  15,  -5,  -1,  -5,  -2,
     -2,  -2,   9,   3,  16,   3,   9,  -2,  -2,
      0,  -4,   2,  -2,   8,  -2,   2,  -4,   0,
      9,  -3,   7,   9,  19,   9,   7,  -3,   9,
     -2,   3,   3,   0,   6,   0,   3,   3,  -2,
     -1,  -3,   5,   6,   4,   6,   5,  -3,  -1,
];
#[rustfmt::skip]
const CANNON_EG: [i32; 90] = [
     -3,   1,  -5,  -2,  -6,  -2,  -5,   1,  -3,
     -1,   1,   0,   0,   0,   0,   0,   1,  -1,
     -1,  -1,  -6,   0,   1,   0,  -6,  -1,  -1,
      1,   0,   2,   3,   4,   3,   2,   0,   1,
     -1,   1,   0,   0,   5,   0,   0,   1,  -1,
      0,   2,   0,   3,   3,   3,   0,   2,   0,
      0,   1,   0,   0,   4,   0,   0,   1,   0,
      0,   2,   1,   1,   4,   1,   1,   2,   0,
      0,   0,   1,   3,   2,   3,   1,   0,   0,
     -1,  -1,   0,  -1,   0,  -1,   0,  -1,  -1,
];
#[rustfmt::skip]
const PAWN_MG: [i32; 90] = [
      2,   4,   5,   8,  11,   8,   5,   4,   2,
     21,  27,  41,  56,  54,  56,  41,  27,  21,
     18,  27,  38,  48,  52,  48,  38,  27,  18,
     15,  24,  31,  36,  41,  36,  31,  24,  15,
      2,  13,  19,  25,  24,  25,  19,  13,   2,
     -2,   0,   6,   0,   4,   0,   6,   0,  -2,
     -9,   0,  -5,   0,   9,   0,  -5,   0,  -9,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 90] = [
      5,   5,   8,   9,  12,   9,   8,   5,   5,
     25,  37,  42,  45,  59,  45,  42,  37,  25,
     24,  33,  43,  58,  56,  58,  43,  33,  24,
     22,  31,  37,  34,  36,  34,  37,  31,  22,
     18,  20,  27,  26,  27,  26,  27,  20,  18,
      5,   0,   7,   0,   9,   0,   7,   0,   5,
      9,   0,   5,   0,   6,   0,   5,   0,   9,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// Middlegame piece-square tables, by kind, Red's view.
pub const PST_MG: [[i32; 90]; 7] = [KING_MG, ADVISOR_MG, ELEPHANT_MG, HORSE_MG, ROOK_MG, CANNON_MG, PAWN_MG];

/// Endgame piece-square tables, by kind, Red's view.
pub const PST_EG: [[i32; 90]; 7] = [KING_EG, ADVISOR_EG, ELEPHANT_EG, HORSE_EG, ROOK_EG, CANNON_EG, PAWN_EG];

/// Per missing advisor, per unit of enemy attacking force (`ATTACK_FORCE`).
pub const MISSING_ADVISOR: Score = Score::new(-3, 1);
/// Per missing elephant, per unit of enemy attacking force.
pub const MISSING_ELEPHANT: Score = Score::new(-3, 0);
/// Attacking force of an enemy rook, horse and cannon (other kinds: 0), by kind index.
pub const ATTACK_FORCE: [i32; 7] = [0, 0, 0, 2, 3, 2, 0];
/// A cannon facing the enemy king on an open file with no screen (空头炮).
pub const EMPTY_SCREEN_CANNON: Score = Score::new(49, 5);
/// A cannon on the enemy back rank, on the king's rank (沉底炮).
pub const BOTTOM_CANNON: Score = Score::new(10, 2);
/// A horse with no square to go to (leg blocked or own pieces on all targets).
pub const TRAPPED_HORSE: Score = Score::new(-17, -13);
/// A horse with exactly one square to go to.
pub const CRAMPED_HORSE: Score = Score::new(-4, -9);
/// Per square a rook can reach (moves and captures).
pub const ROOK_MOBILITY: Score = Score::new(1, 3);
/// Per square a horse can reach.
pub const HORSE_MOBILITY: Score = Score::new(0, 0);
/// Per square a cannon can reach (moves, and captures over a screen).
pub const CANNON_MOBILITY: Score = Score::new(0, 0);
/// Per pair of crossed pawns side by side.
pub const CONNECTED_PAWNS: Score = Score::new(0, 0);
/// A cannon on the enemy king's file with two pieces between: one moving away gives check (中炮).
pub const SCREENED_CANNON: Score = Score::new(0, 0);
/// Per pair of attackers (rooks, horses, cannons, crossed pawns) in the enemy king's zone.
pub const KING_ATTACK: Score = Score::new(0, 0);
/// Rook mobility is counted relative to this typical value.
pub const ROOK_MOBILITY_BASE: i32 = 6;
/// Horse mobility is counted relative to this typical value.
pub const HORSE_MOBILITY_BASE: i32 = 4;
/// Cannon mobility is counted relative to this typical value.
pub const CANNON_MOBILITY_BASE: i32 = 8;
/// For the side to move.
pub const TEMPO: i32 = 6;
