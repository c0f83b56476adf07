//! Search score conventions: centipawn-like values (a horse or cannon ≈ 100), mates as
//! ±(MATE − plies), and rule wins (perpetual check or chase) just below the mate range.

/// Mate at the root; mated in `n` plies scores `-(MATE - n)`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A win by the repetition rules (the opponent checked or chased perpetually).
pub const RULE_WIN: i32 = 20_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// A draw.
pub const DRAW: i32 = 0;

/// Whether `score` announces a forced mate (for either side).
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mate in moves (positive: the side to move mates), as UCI's `score mate`.
pub fn mate_in_moves(score: i32) -> Option<i32> {
    if !is_mate(score) {
        return None;
    }
    let plies = MATE - score.abs();
    let moves = (plies + 1) / 2;
    Some(if score > 0 { moves } else { -moves })
}

/// Converts a root-relative mate score to node-relative for storing.
pub fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored node-relative mate score back to root-relative at `ply`.
pub fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_counting() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in_moves(RULE_WIN), None);
        assert_eq!(from_tt(to_tt(MATE - 9, 4), 4), MATE - 9);
    }
}
