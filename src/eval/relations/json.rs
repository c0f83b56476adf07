//! The relations as JSON, the one shape `chariot eval --json` prints and the web board's
//! Evaluate receives.

use serde_json::{json, Value};

use super::relations;
use crate::board::{Position, Square};

/// Each piece's relations: `{square, piece, attackers, protectors, hangs, exchange}`, squares
/// in ICCS, `piece` its FEN letter, `exchange` what the other side wins by taking it (null where
/// it has no legal capture there, and for the kings).
pub fn relations_json(pos: &Position) -> Value {
    let names = |squares: &[Square]| -> Vec<String> { squares.iter().map(|s| s.to_string()).collect() };
    relations(pos)
        .iter()
        .map(|r| {
            json!({
                "square": r.square.to_string(),
                "piece": r.piece.letter().to_string(),
                "attackers": names(&r.attackers),
                "protectors": names(&r.protectors),
                "hangs": r.hangs(),
                "exchange": r.exchange,
            })
        })
        .collect()
}
