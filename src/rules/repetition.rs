//! Repetition: finding a repeated position in the history, and judging the cycle of moves
//! between its occurrences (perpetual check beats perpetual chase beats a plain draw).

use std::fmt;

use super::chase::chasing_move;
use crate::board::{Color, Position};

/// How a repetition cycle is judged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither side is to blame (or both are): a draw.
    Draw,
    /// `loser` gave check with every one of its moves in the cycle.
    PerpetualCheck {
        /// The side that checked perpetually.
        loser: Color,
    },
    /// `loser` chased with every one of its moves in the cycle (and the other side did not).
    PerpetualChase {
        /// The side that chased perpetually.
        loser: Color,
    },
}

impl Verdict {
    /// The losing side, or `None` for a draw.
    pub fn loser(self) -> Option<Color> {
        match self {
            Verdict::Draw => None,
            Verdict::PerpetualCheck { loser } | Verdict::PerpetualChase { loser } => Some(loser),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Draw => write!(f, "draw by repetition"),
            Verdict::PerpetualCheck { loser } => write!(f, "{} loses by perpetual check", loser.name()),
            Verdict::PerpetualChase { loser } => write!(f, "{} loses by perpetual chase", loser.name()),
        }
    }
}

/// Whether the current position (placement and side to move) has occurred `occurrences` times
/// in all, counting now, since the last capture and the last null move. Returns the history
/// index of the earliest of those occurrences, where the cycle to judge starts. A repetition
/// needs at least two occurrences: smaller counts give `None`.
///
/// Runs at every search node, so it only reads the history.
pub fn find_repetition(pos: &Position, occurrences: usize) -> Option<usize> {
    if occurrences < 2 {
        return None;
    }
    let history = pos.history();
    let key = pos.key();
    let mut seen = 1;
    for index in (0..history.len()).rev() {
        let undo = &history[index];
        // The position at `index` stood before this move: a capture changed the material
        // since, and a null move is no game move to repeat across.
        if undo.mv.is_none() || undo.captured.is_piece() {
            return None;
        }
        // Only an even distance leaves the same side to move.
        if (history.len() - index).is_multiple_of(2) && undo.key == key {
            seen += 1;
            if seen == occurrences {
                return Some(index);
            }
        }
    }
    None
}

/// Judges the cycle of moves from history index `start` up to now, as `docs/rules.md` says. A cycle with
/// no moves (`start` at or past the end of the history) is a draw.
pub fn judge_cycle(pos: &Position, start: usize) -> Verdict {
    let mut replay = pos.clone();
    let end = replay.history().len();
    let start = start.min(end);
    let moves: Vec<_> = replay.history()[start..].iter().map(|undo| undo.mv).collect();
    for mv in moves.iter().rev() {
        if mv.is_none() {
            replay.unmake_null_move();
        } else {
            replay.unmake_move();
        }
    }
    let mut record = [SideRecord::default(); 2];
    for mv in moves {
        let side = replay.side_to_move();
        let entry = &mut record[side.index()];
        entry.moved = true;
        if mv.is_none() {
            // Passing neither checks nor chases.
            entry.always_checked = false;
            entry.always_chased = false;
            replay.make_null_move();
            continue;
        }
        if entry.always_chased && !chasing_move(&mut replay, mv) {
            entry.always_chased = false;
        }
        replay.make_move(mv);
        if !replay.in_check(side.opponent()) {
            entry.always_checked = false;
        }
    }
    verdict(&record)
}

/// What one side did in a cycle.
#[derive(Copy, Clone)]
struct SideRecord {
    moved: bool,
    always_checked: bool,
    always_chased: bool,
}

impl Default for SideRecord {
    fn default() -> Self {
        SideRecord { moved: false, always_checked: true, always_chased: true }
    }
}

impl SideRecord {
    fn checks_perpetually(&self) -> bool {
        self.moved && self.always_checked
    }

    fn chases_perpetually(&self) -> bool {
        self.moved && !self.checks_perpetually() && self.always_chased
    }
}

/// Check outranks chase; a side is blamed only when the other side is not equally to blame.
fn verdict(record: &[SideRecord; 2]) -> Verdict {
    let [red, black] = record;
    match (red.checks_perpetually(), black.checks_perpetually()) {
        (true, false) => return Verdict::PerpetualCheck { loser: Color::Red },
        (false, true) => return Verdict::PerpetualCheck { loser: Color::Black },
        (true, true) => return Verdict::Draw,
        (false, false) => {}
    }
    match (red.chases_perpetually(), black.chases_perpetually()) {
        (true, false) => Verdict::PerpetualChase { loser: Color::Red },
        (false, true) => Verdict::PerpetualChase { loser: Color::Black },
        _ => Verdict::Draw,
    }
}

/// The verdict on the first repetition of the current position, for the search.
pub fn search_verdict(pos: &Position) -> Option<Verdict> {
    find_repetition(pos, 2).map(|start| judge_cycle(pos, start))
}

/// The verdict once the current position occurs for the third time, for games.
pub fn game_verdict(pos: &Position) -> Option<Verdict> {
    find_repetition(pos, 3).map(|start| judge_cycle(pos, start))
}
