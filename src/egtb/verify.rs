//! The self-consistency check: every position's stored value against the values of its
//! children, each child found through the probing path (`Tablebases::scored_moves`), not the
//! generator's numbering. Checksums are checked when a table is loaded.

use crate::board::{movegen, Color, Position};

use super::index::Placement;
use super::probe::Tablebases;
use super::signature::Signature;
use super::value::{Value, NO_POSITION};

/// What the check of one table found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Legal positions checked.
    pub positions: u64,
    /// Positions whose value does not follow from their children (at most a few kept).
    pub faults: Vec<String>,
    /// How many faults in all.
    pub fault_count: u64,
}

const KEPT_FAULTS: usize = 8;

/// Counts a fault at `place`, keeping the first few.
fn note(report: &mut Report, place: String, what: String) {
    report.fault_count += 1;
    if report.faults.len() < KEPT_FAULTS {
        report.faults.push(format!("{place}: {what}"));
    }
}

/// Whether the stored `value` follows from the children's values (`moves`, each seen from the
/// mover) and, for a rule win at rank 0, from the checks among them.
fn consistent(value: Value, moves: &[(Value, bool)]) -> bool {
    let best = moves.iter().map(|m| m.0).max_by_key(|v| v.preference());
    let Some(best) = best else {
        return value == Value::Loss(0);
    };
    match value {
        Value::Win(_) | Value::Loss(_) | Value::Draw => best == value,
        Value::RuleWin(0) => {
            matches!(best, Value::RuleWin(_))
                && moves.iter().any(|&(v, check)| matches!(v, Value::RuleWin(_)) && !check)
        }
        Value::RuleWin(r) => {
            matches!(best, Value::RuleWin(_))
                && moves.iter().any(|&(v, _)| matches!(v, Value::RuleWin(c) if c <= r))
        }
        Value::RuleLoss(r) => {
            matches!(best, Value::RuleLoss(_))
                && moves.iter().all(|&(v, _)| !matches!(v, Value::RuleLoss(c) if c > r))
        }
    }
}

/// Checks `signature`'s table in `tables` (which must hold its capture children too).
pub fn verify(tables: &Tablebases, signature: Signature) -> Option<Report> {
    let table = tables.table(&signature)?;
    let layout = table.layout();
    let slots = layout.slot_pieces();
    let mut report = Report::default();
    for (index, &code) in table.codes().iter().enumerate() {
        let p: Placement = layout.placement(index as u64);
        let mut pos = Position::empty();
        let overlaps = layout.overlaps(&p);
        if !overlaps {
            for (slot, &(color, kind)) in slots.iter().enumerate() {
                pos.put(color, kind, p.squares[slot]);
            }
            pos.set_side(p.side);
        }
        let impossible = overlaps || pos.king_attacked(p.side.opponent());
        let place = |pos: &Position| if overlaps { format!("index {index}") } else { pos.to_fen() };
        if impossible != (code == NO_POSITION) {
            let what = format!("marked {} a position", if impossible { "as" } else { "as not" });
            note(&mut report, place(&pos), what);
            continue;
        }
        if impossible {
            continue;
        }
        report.positions += 1;
        let Some(value) = Value::from_code(code) else { continue };
        let mut moves = Vec::new();
        let mut missing = false;
        for &mv in movegen::legal_moves(&mut pos.clone()).iter() {
            let check = pos.gives_check(mv);
            pos.make_move(mv);
            match tables.probe(&pos) {
                Some(child) => moves.push((child.before(), check)),
                None => missing = true,
            }
            pos.unmake_move();
        }
        if missing {
            note(&mut report, place(&pos), "a child has no table".into());
        } else if !consistent(value, &moves) {
            let best = moves.iter().map(|m| m.0).max_by_key(|v| v.preference());
            note(&mut report, place(&pos), format!("stored {value}, but the best move gives {best:?}"));
        }
    }
    Some(report)
}

/// The side that moves in `pos` (for messages).
pub fn side_name(pos: &Position) -> &'static str {
    match pos.side_to_move() {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_of_consistency_catch_a_wrong_value() {
        let moves = [(Value::Win(3), false), (Value::Draw, true)];
        assert!(consistent(Value::Win(3), &moves));
        assert!(!consistent(Value::Win(5), &moves));
        assert!(!consistent(Value::Draw, &moves));
        assert!(consistent(Value::Loss(0), &[]));
        assert!(!consistent(Value::Draw, &[]));
        // A rule win in the cycle needs a quiet, non-checking way to keep it.
        assert!(!consistent(Value::RuleWin(0), &[(Value::RuleWin(2), true)]));
        assert!(consistent(Value::RuleWin(0), &[(Value::RuleWin(2), false)]));
        assert!(!consistent(Value::RuleLoss(3), &[(Value::RuleLoss(5), false)]));
    }
}
