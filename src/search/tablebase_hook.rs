//! How the search consults endgame tables (`egtb`): the handle the engine options carry, the
//! score a table gives a node, and the root moves that keep the table's result.
//!
//! A table's mate distance is exact, so a node in a table scores as the mate it is (and a rule
//! win like the repetition rules' wins); a draw scores 0. The 120-ply rule is not in the tables:
//! a mate that would come after the rule's draw is no verdict, and the search goes on as without
//! tables.

use std::sync::Arc;

use crate::board::{Move, Position};
use crate::egtb::{Tablebases, Value};
use crate::rules::MOVE_LIMIT_PLIES;

use super::score::{DRAW, MATE, RULE_WIN};

/// The tables a search may consult (none by default). Two handles are equal when they share one
/// set of tables.
#[derive(Clone, Default)]
pub struct TablebaseHandle(pub Option<Arc<Tablebases>>);

impl PartialEq for TablebaseHandle {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for TablebaseHandle {}

impl std::fmt::Debug for TablebaseHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => write!(f, "no tablebases"),
            Some(t) => write!(f, "{} tablebases", t.len()),
        }
    }
}

/// The score of `value` at `ply` from the root, for the side to move; `None` when a mate would
/// come after the 120-ply rule's draw (`clock` plies since the last capture).
pub fn value_score(value: Value, ply: i32, clock: u32) -> Option<i32> {
    let in_time = |d: u8| clock as i64 + d as i64 <= MOVE_LIMIT_PLIES as i64;
    match value {
        Value::Draw => Some(DRAW),
        Value::Win(d) => in_time(d).then(|| MATE - ply - d as i32),
        Value::Loss(d) => in_time(d).then(|| -(MATE - ply - d as i32)),
        Value::RuleWin(_) => Some(RULE_WIN - ply),
        Value::RuleLoss(_) => Some(-RULE_WIN + ply),
    }
}

/// The table's score for the node `pos` at `ply`, if a table holds its material.
#[inline]
pub(crate) fn tree_score(tables: &Tablebases, pos: &Position, ply: i32) -> Option<i32> {
    value_score(tables.probe(pos)?, ply, pos.halfmove_clock())
}

/// The root moves that keep the table's result (`None` without a verdict, or when the verdict
/// does not hold under the 120-ply rule).
pub(crate) fn keeping_root_moves(tables: &Tablebases, pos: &Position) -> Option<Vec<Move>> {
    let (value, keep) = tables.keeping_moves(pos)?;
    value_score(value, 0, pos.halfmove_clock())?;
    (!keep.is_empty()).then(|| keep.iter().map(|m| m.mv).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_values_score_as_mates_draws_and_rule_wins() {
        assert_eq!(value_score(Value::Win(3), 2, 0), Some(MATE - 5));
        assert_eq!(value_score(Value::Loss(4), 1, 0), Some(-(MATE - 5)));
        assert_eq!(value_score(Value::Draw, 7, 0), Some(0));
        assert_eq!(value_score(Value::RuleWin(2), 3, 0), Some(RULE_WIN - 3));
        // A mate in 9 with 115 quiet plies already played comes after the 120-ply draw.
        assert_eq!(value_score(Value::Win(9), 0, 115), None);
        assert_eq!(value_score(Value::Win(5), 0, 115), Some(MATE - 5));
    }
}
