//! How the search applies the rules module: repetitions get the rules' verdict at their first
//! occurrence, the 120-ply rule is a draw, and so is material with which neither side can mate.
//! With `rep_root_rule`, a repetition of a position from before the search's root waits for
//! the game's own third occurrence: the opponent has not yet repeated anything it chose.

use crate::board::Position;
use crate::rules::{find_repetition, insufficient_material, judge_cycle, Verdict, MOVE_LIMIT_PLIES};

use super::score::{DRAW, RULE_WIN};

/// The score the rules impose on this node (side to move's view), if any, `ply` plies below
/// the root; `root_rule` asks a repetition that reaches back before the root for three
/// occurrences, as the game does, instead of two.
#[inline]
pub(crate) fn rule_score(pos: &Position, ply: i32, root_rule: bool) -> Option<i32> {
    if ply == 0 {
        return None;
    }
    if let Some(verdict) = repetition_verdict(pos, ply, root_rule) {
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

/// The rules' verdict on a repetition at this node, `ply` plies below the root: at the second
/// occurrence when the first is the root or stands after it (the search chose every move of
/// the cycle) or when `root_rule` is off, else only at the third, as in the game.
#[inline]
fn repetition_verdict(pos: &Position, ply: i32, root_rule: bool) -> Option<Verdict> {
    let start = find_repetition(pos, 2)?;
    let root = pos.history().len().saturating_sub(ply as usize);
    if !root_rule || start >= root {
        return Some(judge_cycle(pos, start));
    }
    find_repetition(pos, 3).map(|start| judge_cycle(pos, start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    /// Rook against rook: the four plies that bring the start back, played before the root.
    fn shuffled() -> Position {
        let mut pos = Position::from_fen("3k4r/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        for mv in ["a0a1", "i9i8", "a1a0", "i8i9"] {
            pos.make_move(Move::parse_iccs(mv).unwrap());
        }
        pos
    }

    #[test]
    fn a_repetition_of_the_games_history_waits_for_its_third_occurrence_with_the_root_rule() {
        let mut pos = shuffled();
        // One ply below the root, a0a1 repeats a position of the game's history for the
        // second time: a draw at once without the root rule, nothing yet with it (the
        // opponent chose nothing of that cycle in this search).
        pos.make_move(Move::parse_iccs("a0a1").unwrap());
        assert_eq!(rule_score(&pos, 1, false), Some(DRAW));
        assert_eq!(rule_score(&pos, 1, true), None);
        // Three plies on the root itself is repeated: a cycle the search chose every move
        // of, judged at once either way.
        for mv in ["i9i8", "a1a0", "i8i9"] {
            pos.make_move(Move::parse_iccs(mv).unwrap());
        }
        assert_eq!(rule_score(&pos, 4, false), Some(DRAW));
        assert_eq!(rule_score(&pos, 4, true), Some(DRAW));
        // Had the root been a ply later, that cycle would reach back before it: the start
        // position stands there for the third time, so the game's rule judges it too.
        assert_eq!(rule_score(&pos, 3, true), Some(DRAW));
        // A quiet move that repeats nothing has no verdict.
        let mut fresh = shuffled();
        fresh.make_move(Move::parse_iccs("a0a2").unwrap());
        assert_eq!(rule_score(&fresh, 1, true), None);
        assert_eq!(rule_score(&fresh, 1, false), None);
    }
}
