//! Repetition: finding a repeated position in the history, and judging the cycle of moves
//! between its occurrences (perpetual check beats perpetual chase beats a plain draw).

use std::fmt;

use super::chase::{chased_victims, move_chases, MoveChases, Victims};
use crate::board::{Color, Move, Position};

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
    /// `loser` chased one and the same enemy piece with every one of its moves in the cycle (and
    /// the other side did not).
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

/// One move of a judged cycle: who played it, whether it gave check, and what it chased.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleMove {
    /// The move (`Move::NONE` for a null move, which neither checks nor chases).
    pub mv: Move,
    /// The side that played it.
    pub mover: Color,
    /// Whether it left the other side in check.
    pub check: bool,
    /// The enemy pieces it chased, by square and by identity.
    pub chases: MoveChases,
}

/// A repetition cycle judged move by move, for people (`chariot judge`); the search uses
/// `judge_cycle`, which reaches the same verdict without listing anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleReport {
    /// The history index of the cycle's first move.
    pub start: usize,
    /// The moves of the cycle, oldest first.
    pub moves: Vec<CycleMove>,
    /// Per side (by `Color::index`): whether it moved and gave check with every move.
    pub checked: [bool; 2],
    /// Per side (by `Color::index`): the enemy pieces that every one of its moves chased, when
    /// it moved and did not check perpetually; empty otherwise.
    pub chased: [Victims; 2],
    /// The verdict.
    pub verdict: Verdict,
}

/// Judges the cycle of moves from history index `start` up to now, as `docs/rules.md` says. A cycle with
/// no moves (`start` at or past the end of the history) is a draw.
///
/// Runs at every repetition the search meets, so it looks only for victims still in the
/// running (chased by each of the side's earlier moves) and stops once nobody can be blamed.
pub fn judge_cycle(pos: &Position, start: usize) -> Verdict {
    let (mut replay, moves) = rewind(pos, start);
    let mut tally = Tally::default();
    for mv in moves {
        let side = replay.side_to_move();
        if mv.is_none() {
            tally.record(side, false, Victims::NONE);
            replay.make_null_move();
        } else {
            let victims = chased_victims(&mut replay, mv, tally.chased[side.index()]);
            replay.make_move(mv);
            tally.record(side, replay.king_attacked(side.opponent()), victims);
        }
        if tally.nobody_to_blame() {
            return Verdict::Draw;
        }
    }
    tally.verdict()
}

/// `judge_cycle` with every move's check and chases listed, and what each side chased with
/// every one of its moves.
pub fn explain_cycle(pos: &Position, start: usize) -> CycleReport {
    let (mut replay, moves) = rewind(pos, start);
    let start = replay.history().len();
    let mut tally = Tally::default();
    let mut listed = Vec::with_capacity(moves.len());
    for mv in moves {
        let mover = replay.side_to_move();
        let (check, chases) = if mv.is_none() {
            replay.make_null_move();
            (false, MoveChases::default())
        } else {
            let chases = move_chases(&mut replay, mv);
            replay.make_move(mv);
            (replay.king_attacked(mover.opponent()), chases)
        };
        tally.record(mover, check, chases.victims);
        listed.push(CycleMove { mv, mover, check, chases });
    }
    let checked = Color::BOTH.map(|side| tally.checks_perpetually(side));
    let chased = Color::BOTH.map(|side| tally.perpetual_victims(side));
    CycleReport { start, moves: listed, checked, chased, verdict: tally.verdict() }
}

/// `pos` taken back to history index `start` (clamped to the history), and the moves from there.
fn rewind(pos: &Position, start: usize) -> (Position, Vec<Move>) {
    let mut replay = pos.clone();
    let start = start.min(replay.history().len());
    let moves: Vec<Move> = replay.history()[start..].iter().map(|undo| undo.mv).collect();
    for mv in moves.iter().rev() {
        if mv.is_none() {
            replay.unmake_null_move();
        } else {
            replay.unmake_move();
        }
    }
    (replay, moves)
}

/// What each side (by `Color::index`) did in a cycle so far.
#[derive(Copy, Clone)]
struct Tally {
    moved: [bool; 2],
    always_checked: [bool; 2],
    /// The enemy pieces chased by every one of the side's moves so far.
    chased: [Victims; 2],
}

impl Default for Tally {
    fn default() -> Self {
        Tally { moved: [false; 2], always_checked: [true; 2], chased: [Victims::ALL; 2] }
    }
}

impl Tally {
    fn record(&mut self, side: Color, check: bool, victims: Victims) {
        let i = side.index();
        self.moved[i] = true;
        self.always_checked[i] &= check;
        self.chased[i] = self.chased[i].intersect(victims);
    }

    fn checks_perpetually(&self, side: Color) -> bool {
        self.moved[side.index()] && self.always_checked[side.index()]
    }

    /// What a side that moved, and did not check perpetually, chased with every move.
    fn perpetual_victims(&self, side: Color) -> Victims {
        if self.moved[side.index()] && !self.checks_perpetually(side) {
            self.chased[side.index()]
        } else {
            Victims::NONE
        }
    }

    /// Whether no further move can make either side check or chase perpetually.
    fn nobody_to_blame(&self) -> bool {
        (0..2).all(|i| !self.always_checked[i] && self.chased[i].is_empty())
    }

    /// Check outranks chase; a side is blamed only when the other side is not equally to blame.
    fn verdict(&self) -> Verdict {
        let only = |guilty: [bool; 2]| match guilty {
            [true, false] => Some(Color::Red),
            [false, true] => Some(Color::Black),
            _ => None,
        };
        let checks = Color::BOTH.map(|side| self.checks_perpetually(side));
        if checks.iter().any(|&c| c) {
            return only(checks).map_or(Verdict::Draw, |loser| Verdict::PerpetualCheck { loser });
        }
        let chases = Color::BOTH.map(|side| !self.perpetual_victims(side).is_empty());
        only(chases).map_or(Verdict::Draw, |loser| Verdict::PerpetualChase { loser })
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

/// `game_verdict` explained: the cycle since the first of the three occurrences, move by move.
pub fn game_cycle(pos: &Position) -> Option<CycleReport> {
    find_repetition(pos, 3).map(|start| explain_cycle(pos, start))
}
