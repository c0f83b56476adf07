//! Piece geometry in one place: how each kind of piece steps or slides on the mailbox, what
//! blocks it (the elephant's eye, the horse's leg, the first and second pieces along a line), and
//! the questions built on that: where a piece may go, where a piece can ever stand, and (in
//! `check`) whether a king is attacked.
//!
//! Move generation, check detection, the chase rule, SEE, the evaluation and the FEN reader all
//! read the board through this module and keep no geometry of their own. It works on the
//! `Mailbox` alone, so it sits below `Position` and the evaluation.
//!
//! Steps are mailbox deltas (`delta`). The guard band holds `Piece::OFFBOARD`, which no piece may
//! enter and which is never empty, so a step off the board needs no test and a slide stops at the
//! edge by itself. The step visitors therefore hand over squares that may lie off the board or
//! hold the mover's own pieces: what may be entered is the caller's question.

use super::mailbox::Mailbox;
use super::piece::{Color, PieceKind};
use super::square::Square;

/// Step deltas on the mailbox: one rank towards Black (`UP`) and so on.
pub mod delta {
    /// One rank towards Black's back rank.
    pub const UP: i8 = -16;
    /// One rank towards Red's back rank.
    pub const DOWN: i8 = 16;
    /// One file towards file `a`.
    pub const LEFT: i8 = -1;
    /// One file towards file `i`.
    pub const RIGHT: i8 = 1;
    /// The four orthogonal directions.
    pub const ORTHOGONAL: [i8; 4] = [UP, DOWN, LEFT, RIGHT];
    /// The four diagonal single steps.
    pub const DIAGONAL: [i8; 4] = [UP + LEFT, UP + RIGHT, DOWN + LEFT, DOWN + RIGHT];
}

mod check;

pub use check::{
    is_horse_leg_toward, is_horse_step, king_attacked, king_attacked_after, may_change_lines_or_legs,
    may_give_check, on_lines_of,
};
use delta::{DOWN, LEFT, RIGHT, UP};

/// The king's steps: one square orthogonally, inside its palace.
pub const KING_STEPS: [i8; 4] = delta::ORTHOGONAL;

/// The advisor's steps: one square diagonally, inside its palace.
pub const ADVISOR_STEPS: [i8; 4] = delta::DIAGONAL;

/// The elephant's moves as (eye, destination): two squares diagonally, over an eye that must be
/// empty, and never across the river.
pub const ELEPHANT_STEPS: [(i8, i8); 4] = [
    (UP + LEFT, 2 * (UP + LEFT)),
    (UP + RIGHT, 2 * (UP + RIGHT)),
    (DOWN + LEFT, 2 * (DOWN + LEFT)),
    (DOWN + RIGHT, 2 * (DOWN + RIGHT)),
];

/// A horse's moves from its own square, by leg: (the orthogonal neighbour that must be empty, the
/// two destinations past it).
pub const HORSE_STEPS: [(i8, [i8; 2]); 4] = [
    (UP, [2 * UP + LEFT, 2 * UP + RIGHT]),
    (DOWN, [2 * DOWN + LEFT, 2 * DOWN + RIGHT]),
    (LEFT, [UP + 2 * LEFT, DOWN + 2 * LEFT]),
    (RIGHT, [UP + 2 * RIGHT, DOWN + 2 * RIGHT]),
];

/// The same horse moves seen from the square attacked, by leg: (the diagonal neighbour of the
/// attacked square that must be empty, the two squares a horse attacks from over that leg).
pub const HORSE_ATTACKER_STEPS: [(i8, [i8; 2]); 4] = [
    (UP + LEFT, [2 * UP + LEFT, UP + 2 * LEFT]),
    (UP + RIGHT, [2 * UP + RIGHT, UP + 2 * RIGHT]),
    (DOWN + LEFT, [2 * DOWN + LEFT, DOWN + 2 * LEFT]),
    (DOWN + RIGHT, [2 * DOWN + RIGHT, DOWN + 2 * RIGHT]),
];

/// The sideways steps a pawn gains once it has crossed the river.
pub const PAWN_SIDE_STEPS: [i8; 2] = [LEFT, RIGHT];

/// One rank forward for a pawn of `color`.
#[inline]
pub const fn pawn_forward(color: Color) -> i8 {
    match color {
        Color::Red => UP,
        Color::Black => DOWN,
    }
}

/// Calls `visit` with each square a king on `from` steps to (inside a palace).
#[inline]
pub fn king_steps(from: Square, visit: impl FnMut(Square)) {
    palace_steps(from, KING_STEPS, visit);
}

/// Calls `visit` with each square an advisor on `from` steps to (inside a palace).
#[inline]
pub fn advisor_steps(from: Square, visit: impl FnMut(Square)) {
    palace_steps(from, ADVISOR_STEPS, visit);
}

#[inline]
fn palace_steps(from: Square, steps: [i8; 4], mut visit: impl FnMut(Square)) {
    for d in steps {
        let to = from.offset(d);
        if to.in_any_palace() {
            visit(to);
        }
    }
}

/// Calls `visit` with each square a `color` elephant on `from` steps to: its eye is empty and the
/// destination on its own side of the river.
#[inline]
pub fn elephant_steps(board: &Mailbox, color: Color, from: Square, mut visit: impl FnMut(Square)) {
    for (eye, step) in ELEPHANT_STEPS {
        if board[from.offset(eye)].is_empty() {
            let to = from.offset(step);
            if to.on_home_side(color) {
                visit(to);
            }
        }
    }
}

/// Calls `visit` with each square a horse on `from` steps to: those past an empty leg.
#[inline]
pub fn horse_steps(board: &Mailbox, from: Square, mut visit: impl FnMut(Square)) {
    for (leg, targets) in HORSE_STEPS {
        if board[from.offset(leg)].is_empty() {
            for d in targets {
                visit(from.offset(d));
            }
        }
    }
}

/// Calls `visit` with each square a `color` pawn on `from` steps to: forward, and sideways once
/// across the river.
#[inline]
pub fn pawn_steps(color: Color, from: Square, mut visit: impl FnMut(Square)) {
    visit(from.offset(pawn_forward(color)));
    if !from.on_home_side(color) {
        for d in PAWN_SIDE_STEPS {
            visit(from.offset(d));
        }
    }
}

/// The ray walker: from `from` along `d`, calls `visit` with each empty square and returns the
/// first square that is not empty (a piece, or the guard cell past the board's edge).
#[inline]
pub fn walk(board: &Mailbox, from: Square, d: i8, mut visit: impl FnMut(Square)) -> Square {
    let mut s = from.offset(d);
    while board[s].is_empty() {
        visit(s);
        s = s.offset(d);
    }
    s
}

/// The first square along `d` from `from` that is not empty: what a rook or a king looks at.
#[inline]
pub fn first_blocker(board: &Mailbox, from: Square, d: i8) -> Square {
    walk(board, from, d, |_| {})
}

/// The next blocker past `blocker` along `d` (what a cannon screened by `blocker` looks at), or
/// `blocker` itself when it is the board's edge.
#[inline]
pub fn blocker_behind(board: &Mailbox, blocker: Square, d: i8) -> Square {
    if board[blocker].is_piece() {
        first_blocker(board, blocker, d)
    } else {
        blocker
    }
}

/// The first two blockers along a line: a rook's or king's target and a cannon's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Blockers {
    /// The first square that is not empty.
    pub first: Square,
    /// The next one past `first`, or `first` itself when that is the board's edge.
    pub second: Square,
}

/// The first two blockers along `d` from `from`.
#[inline]
pub fn blockers(board: &Mailbox, from: Square, d: i8) -> Blockers {
    let first = first_blocker(board, from, d);
    Blockers { first, second: blocker_behind(board, first, d) }
}

/// The orthogonal step that leads from `from` to `to` when they share a file or a rank (both on
/// the board, not equal).
#[inline]
pub fn line_step(from: Square, to: Square) -> Option<i8> {
    if from == to {
        None
    } else if from.file() == to.file() {
        Some(if to.rank() > from.rank() { UP } else { DOWN })
    } else if from.rank() == to.rank() {
        Some(if to.file() > from.file() { RIGHT } else { LEFT })
    } else {
        None
    }
}

/// Whether the piece on `from` may go to `to` by its movement rules, given what stands in its way
/// (palace, river, eye, leg, the pieces on a line; a cannon's screen when `to` holds a piece).
/// Whose piece stands on `to` is the caller's question. Both squares are on the board and `from`
/// holds a piece.
pub fn reaches(board: &Mailbox, from: Square, to: Square) -> bool {
    let piece = board[from];
    let color = piece.color();
    let mut found = false;
    let look = |s: Square| found |= s == to;
    match piece.kind() {
        PieceKind::King => king_steps(from, look),
        PieceKind::Advisor => advisor_steps(from, look),
        PieceKind::Elephant => elephant_steps(board, color, from, look),
        PieceKind::Horse => horse_steps(board, from, look),
        PieceKind::Pawn => pawn_steps(color, from, look),
        kind @ (PieceKind::Rook | PieceKind::Cannon) => {
            let Some(d) = line_step(from, to) else {
                return false;
            };
            let first = walk(board, from, d, look);
            return if kind == PieceKind::Rook {
                found || first == to
            } else if board[to].is_piece() {
                blocker_behind(board, first, d) == to
            } else {
                found
            };
        }
    }
    found
}

/// The most capture targets one piece has: a horse's eight.
pub const MAX_TARGETS: usize = 8;

/// Calls `visit(direction, square)` with each occupied square the piece on `from` could capture
/// on if an enemy piece stood there: the pieces it attacks and the pieces of its own side it
/// protects. `direction` (below `MAX_TARGETS`) says which of the piece's steps or lines found it,
/// the same one whenever the piece finds a target that way, so two positions' targets can be
/// compared direction by direction. A king's are its palace steps (two kings facing each other on
/// an open file is the position's illegality, not a relation). `from` holds a piece.
#[inline]
pub fn capture_targets(board: &Mailbox, from: Square, mut visit: impl FnMut(usize, Square)) {
    let piece = board[from];
    let color = piece.color();
    let mut occupied = |direction: usize, s: Square| {
        if board[s].is_piece() {
            visit(direction, s);
        }
    };
    match piece.kind() {
        PieceKind::King => {
            for (i, d) in KING_STEPS.into_iter().enumerate() {
                let to = from.offset(d);
                if to.in_any_palace() {
                    occupied(i, to);
                }
            }
        }
        PieceKind::Advisor => {
            for (i, d) in ADVISOR_STEPS.into_iter().enumerate() {
                let to = from.offset(d);
                if to.in_any_palace() {
                    occupied(i, to);
                }
            }
        }
        PieceKind::Elephant => {
            for (i, (eye, step)) in ELEPHANT_STEPS.into_iter().enumerate() {
                let to = from.offset(step);
                if board[from.offset(eye)].is_empty() && to.on_home_side(color) {
                    occupied(i, to);
                }
            }
        }
        PieceKind::Horse => {
            for (i, (leg, targets)) in HORSE_STEPS.into_iter().enumerate() {
                if board[from.offset(leg)].is_empty() {
                    occupied(2 * i, from.offset(targets[0]));
                    occupied(2 * i + 1, from.offset(targets[1]));
                }
            }
        }
        PieceKind::Pawn => {
            occupied(0, from.offset(pawn_forward(color)));
            if !from.on_home_side(color) {
                occupied(1, from.offset(PAWN_SIDE_STEPS[0]));
                occupied(2, from.offset(PAWN_SIDE_STEPS[1]));
            }
        }
        PieceKind::Rook => {
            for (i, d) in delta::ORTHOGONAL.into_iter().enumerate() {
                occupied(i, first_blocker(board, from, d));
            }
        }
        PieceKind::Cannon => {
            for (i, d) in delta::ORTHOGONAL.into_iter().enumerate() {
                occupied(i, blockers(board, from, d).second);
            }
        }
    }
}

/// Whether a piece of `color` and `kind` may stand on `sq` (the FEN reader's rule, and the
/// network's input squares): kings and advisors on their palace points, elephants on their seven
/// points, pawns from their starting rank on (on any file: looser than the steps, which keep a
/// pawn on its file until it crosses the river); the others anywhere.
pub const fn reachable(color: Color, kind: PieceKind, sq: Square) -> bool {
    // Work in Red's frame: flip Black's squares top to bottom.
    let sq = match color {
        Color::Red => sq,
        Color::Black => sq.flip_ranks(),
    };
    let (file, rank) = (sq.file(), sq.rank());
    match kind {
        PieceKind::King => file >= 3 && file <= 5 && rank <= 2,
        PieceKind::Advisor => matches!((file, rank), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        PieceKind::Elephant => {
            matches!((file, rank), (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4))
        }
        PieceKind::Pawn => rank >= 3,
        PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

#[cfg(test)]
mod tests;
