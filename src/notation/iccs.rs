//! ICCS coordinates (`h2e2`, also `H2-E2`): the engine's own move notation.

use crate::board::{movegen, Move, Position};

use super::{NotationError, UnreadableReason};

/// The legal move `text` names in ICCS (case and a dash between the squares do not matter).
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    let Some(mv) = Move::parse_iccs(text) else {
        return Err(NotationError::Unreadable { text: text.to_string(), reason: UnreadableReason::Iccs });
    };
    let mut scratch = pos.clone();
    if movegen::is_legal(&mut scratch, mv) {
        Ok(mv)
    } else {
        Err(NotationError::NoLegalMatch { text: text.to_string() })
    }
}

/// Whether `text` has the shape of an ICCS move (whether or not it is legal anywhere).
pub fn looks_like(text: &str) -> bool {
    Move::parse_iccs(text.trim()).is_some()
}

/// The move in lower-case ICCS without a dash, as UCCI writes it: `h2e2`.
pub fn format(mv: Move) -> String {
    mv.to_string()
}
