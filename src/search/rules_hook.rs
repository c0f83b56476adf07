//! How the search applies the rules module: repetitions get the rules' verdict at their first
//! occurrence, the 120-ply rule is a draw, and so is material with which neither side can mate.

use crate::board::Position;
use crate::rules::{insufficient_material, search_verdict, MOVE_LIMIT_PLIES};

use super::score::{DRAW, RULE_WIN};

/// The score the rules impose on this node (side to move's view), if any.
#[inline]
pub(crate) fn rule_score(pos: &Position, ply: i32) -> Option<i32> {
    if ply == 0 {
        return None;
    }
    if let Some(verdict) = search_verdict(pos) {
        return Some(match verdict.loser() {
            None => DRAW,
            Some(loser) if loser == pos.side_to_move() => -RULE_WIN + ply,
            Some(_) => RULE_WIN - ply,
        });
    }
    if pos.halfmove_clock() >= MOVE_LIMIT_PLIES {
        return Some(DRAW);
    }
    // Counts pieces kind by kind and stops at the first attacker, so in all but bare endgames
    // it answers after a rook slot or two.
    if insufficient_material(pos) {
        return Some(DRAW);
    }
    None
}
