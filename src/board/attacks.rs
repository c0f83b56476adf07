//! Piece geometry in one place: how each kind of piece steps or slides on the mailbox, what
//! blocks it (the elephant's eye, the horse's leg, the first and second pieces along a line), and
//! the questions built on that: where a piece may go, whether a king is attacked, where a piece
//! can ever stand.
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

/// Whether a king standing on `king` is attacked by `attacker`: by a rook, cannon, horse or pawn,
/// or by the attacker's king on an open file (the flying-general rule). Advisors and elephants
/// never leave their own half, so they are not looked at.
#[inline]
pub fn king_attacked(board: &Mailbox, king: Square, attacker: Color) -> bool {
    pawn_or_horse_attacks(board, king, attacker)
        || delta::ORTHOGONAL.into_iter().any(|d| line_attacks(board, king, attacker, d))
}

/// `king_attacked` after a move from `from` to `to` (the only squares it changed), for a king
/// that nothing attacked before it and that did not move itself. An attack now must come from
/// the piece on `to` (a pawn's or a horse's here; a rook's, cannon's or king's along a line) or
/// through a changed square: a line through `from` or `to` (a piece gone or a new cannon screen),
/// or a horse whose leg was `from`. Only those are looked at; the king's other lines, the walks
/// that are most of the full test's work, are not.
///
/// Both uses meet the condition: a move's legality when its side is not in check (its own king,
/// attacked by nothing before), and whether a move gives check (the other king: a legal position
/// never has the side not to move in check).
#[inline]
pub fn king_attacked_after(board: &Mailbox, king: Square, attacker: Color, [from, to]: [Square; 2]) -> bool {
    let is = |sq: Square, kind: PieceKind| holds(board, sq, attacker, kind);
    let arrived = board[to];
    if arrived.is_color(attacker) {
        match arrived.kind() {
            PieceKind::Pawn => {
                let beside = PAWN_SIDE_STEPS.into_iter().any(|d| king.offset(d) == to);
                if to == king.offset(-pawn_forward(attacker)) || (beside && !to.on_home_side(attacker)) {
                    return true;
                }
            }
            PieceKind::Horse => {
                let attacks = HORSE_ATTACKER_STEPS.into_iter().any(|(leg, sources)| {
                    (king.offset(sources[0]) == to || king.offset(sources[1]) == to)
                        && board[king.offset(leg)].is_empty()
                });
                if attacks {
                    return true;
                }
            }
            _ => {}
        }
    }
    if is_horse_leg_toward(king, from) {
        let uncovered = HORSE_ATTACKER_STEPS.into_iter().any(|(leg, sources)| {
            king.offset(leg) == from
                && (is(king.offset(sources[0]), PieceKind::Horse)
                    || is(king.offset(sources[1]), PieceKind::Horse))
        });
        if uncovered {
            return true;
        }
    }
    let first = line_step(king, from);
    let second = line_step(king, to).filter(|&d| Some(d) != first);
    first.into_iter().chain(second).any(|d| line_attacks(board, king, attacker, d))
}

/// Whether an `attacker` pawn or horse attacks the king on `king`: a pawn one rank behind it as
/// the attacker moves, or beside it from across the river; a horse over an empty leg.
#[inline(always)]
fn pawn_or_horse_attacks(board: &Mailbox, king: Square, attacker: Color) -> bool {
    let is = |sq: Square, kind: PieceKind| holds(board, sq, attacker, kind);
    if is(king.offset(-pawn_forward(attacker)), PieceKind::Pawn) {
        return true;
    }
    for d in PAWN_SIDE_STEPS {
        let s = king.offset(d);
        if is(s, PieceKind::Pawn) && !s.on_home_side(attacker) {
            return true;
        }
    }
    HORSE_ATTACKER_STEPS.into_iter().any(|(leg, sources)| {
        board[king.offset(leg)].is_empty()
            && (is(king.offset(sources[0]), PieceKind::Horse)
                || is(king.offset(sources[1]), PieceKind::Horse))
    })
}

/// Whether `attacker` attacks the king on `king` along the line `d`: a rook (or, on the file, the
/// king) as the first blocker, a cannon as the second.
#[inline(always)]
fn line_attacks(board: &Mailbox, king: Square, attacker: Color, d: i8) -> bool {
    let Blockers { first, second } = blockers(board, king, d);
    let p = board[first];
    if p.is_color(attacker)
        && (p.kind() == PieceKind::Rook || (p.kind() == PieceKind::King && (d == UP || d == DOWN)))
    {
        return true;
    }
    holds(board, second, attacker, PieceKind::Cannon)
}

/// Whether `sq` holds a piece of `color` and `kind`.
#[inline(always)]
fn holds(board: &Mailbox, sq: Square, color: Color, kind: PieceKind) -> bool {
    let p = board[sq];
    p.is_color(color) && p.kind() == kind
}

/// Whether a move of a `kind` piece from `from` to `to` may attack the king on `king` (false
/// means it surely does not; true asks for the full test). A move gives check by attacking from
/// `to` or by uncovering an attack: rook, cannon, pawn and king attacks run along the king's
/// rank or file (a pawn's from a square beside it), a new cannon screen stands on them, and an
/// uncovered rook or cannon line, or a new cannon screen gone, starts from them; a horse attacks
/// from a horse's step away, and an uncovered horse attack needs its leg, diagonal to the king,
/// vacated.
#[inline]
pub fn may_give_check(kind: PieceKind, from: Square, to: Square, king: Square) -> bool {
    may_change_lines_or_legs(king, from, to) || (kind == PieceKind::Horse && is_horse_step(king, to))
}

/// Whether a move from `from` to `to` by a piece other than the king on `king` may uncover or
/// make an attack on it through the squares it changes: either stands on the king's rank or
/// file (a line opened, blocked, or a cannon screen added or taken away), or `from` is a
/// horse's leg toward it. False means every line and horse attack on the king is as before.
#[inline(always)]
pub fn may_change_lines_or_legs(king: Square, from: Square, to: Square) -> bool {
    on_lines_of(king, from) || on_lines_of(king, to) || is_horse_leg_toward(king, from)
}

/// Whether `sq` stands on the rank or the file of `king`.
#[inline(always)]
pub fn on_lines_of(king: Square, sq: Square) -> bool {
    sq.file() == king.file() || sq.rank() == king.rank()
}

/// Whether `a` and `b` are a horse's step apart (one file and two ranks, or two files and one
/// rank), legs aside.
#[inline(always)]
pub fn is_horse_step(a: Square, b: Square) -> bool {
    let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
    (df, dr) == (1, 2) || (df, dr) == (2, 1)
}

/// Whether `sq` is the leg of a horse's attack on `target` (one of its four diagonal neighbours):
/// a piece leaving it may uncover that attack.
#[inline]
pub fn is_horse_leg_toward(target: Square, sq: Square) -> bool {
    matches!(sq.index() as i32 - target.index() as i32, -17 | -15 | 15 | 17)
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
mod tests {
    //! Each table and walker against a definition in files and ranks, square by square, on empty
    //! and random boards.

    use super::*;
    use crate::board::Piece;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    /// The square `df` files and `dr` ranks from `sq`, if that is on the board.
    fn shifted(sq: Square, df: i32, dr: i32) -> Option<Square> {
        let (file, rank) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
        ((0..9).contains(&file) && (0..10).contains(&rank)).then(|| Square::new(file as u8, rank as u8))
    }

    fn in_a_palace(sq: Square) -> bool {
        (3..=5).contains(&sq.file()) && (sq.rank() <= 2 || sq.rank() >= 7)
    }

    fn on_own_half(sq: Square, color: Color) -> bool {
        match color {
            Color::Red => sq.rank() <= 4,
            Color::Black => sq.rank() >= 5,
        }
    }

    fn forward_ranks(color: Color) -> i32 {
        match color {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// Boards with pieces of random colour and kind on about `percent` of the squares (not
    /// necessarily legal positions: the geometry must not care).
    fn random_boards(seed: u64) -> Vec<Mailbox> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut boards = vec![Mailbox::empty()];
        for percent in [5, 15, 30, 50, 80] {
            for _ in 0..8 {
                let mut board = Mailbox::empty();
                for sq in Square::all() {
                    if rng.gen_range(0..100) < percent {
                        let color = if rng.gen() { Color::Red } else { Color::Black };
                        board[sq] = Piece::from_slot(color, rng.gen_range(0..16));
                    }
                }
                boards.push(board);
            }
        }
        boards
    }

    fn collect(visitor: impl FnOnce(&mut dyn FnMut(Square))) -> Vec<Square> {
        let mut seen = Vec::new();
        visitor(&mut |s| {
            if s.on_board() {
                seen.push(s);
            }
        });
        seen.sort();
        seen
    }

    /// Where a `color` `kind` on `from` steps by the rules as people state them (not rooks and
    /// cannons), on `board`.
    fn stepped_to(board: &Mailbox, color: Color, kind: PieceKind, from: Square) -> Vec<Square> {
        let mut to = Vec::new();
        for df in -2..=2i32 {
            for dr in -2..=2i32 {
                let Some(s) = shifted(from, df, dr) else { continue };
                let ok = match kind {
                    PieceKind::King => df.abs() + dr.abs() == 1 && in_a_palace(s),
                    PieceKind::Advisor => df.abs() == 1 && dr.abs() == 1 && in_a_palace(s),
                    PieceKind::Elephant => {
                        let eye = shifted(from, df / 2, dr / 2).unwrap();
                        df.abs() == 2 && dr.abs() == 2 && board[eye].is_empty() && on_own_half(s, color)
                    }
                    PieceKind::Horse => {
                        df.abs() + dr.abs() == 3
                            && df != 0
                            && dr != 0
                            && board[horse_leg(from, df, dr)].is_empty()
                    }
                    PieceKind::Pawn => {
                        (df == 0 && dr == forward_ranks(color))
                            || (dr == 0 && df.abs() == 1 && !on_own_half(from, color))
                    }
                    PieceKind::Rook | PieceKind::Cannon => unreachable!("lines are tested apart"),
                };
                if ok {
                    to.push(s);
                }
            }
        }
        to.sort();
        to
    }

    /// The leg of a horse on `from` moving `df` files and `dr` ranks (an L on the board): the
    /// first square along the long side of the L.
    fn horse_leg(from: Square, df: i32, dr: i32) -> Square {
        if df.abs() == 2 { shifted(from, df / 2, 0) } else { shifted(from, 0, dr / 2) }.unwrap()
    }

    /// The pieces strictly between two squares on one line, or `None` if they share no line.
    fn pieces_between(board: &Mailbox, a: Square, b: Square) -> Option<usize> {
        let (df, dr) = (b.file() as i32 - a.file() as i32, b.rank() as i32 - a.rank() as i32);
        if (df != 0 && dr != 0) || a == b {
            return None;
        }
        let n = df.abs().max(dr.abs());
        Some(
            (1..n)
                .filter(|i| board[shifted(a, df.signum() * i, dr.signum() * i).unwrap()].is_piece())
                .count(),
        )
    }

    #[test]
    fn step_visitors_follow_the_rules_on_every_square() {
        for board in random_boards(1) {
            for from in Square::all() {
                for color in Color::BOTH {
                    let b = &board;
                    assert_eq!(
                        collect(|v| king_steps(from, v)),
                        stepped_to(b, color, PieceKind::King, from),
                        "king {from}"
                    );
                    assert_eq!(
                        collect(|v| advisor_steps(from, v)),
                        stepped_to(b, color, PieceKind::Advisor, from),
                        "advisor {from}"
                    );
                    assert_eq!(
                        collect(|v| elephant_steps(b, color, from, v)),
                        stepped_to(b, color, PieceKind::Elephant, from),
                        "{color:?} elephant {from}"
                    );
                    assert_eq!(
                        collect(|v| horse_steps(b, from, v)),
                        stepped_to(b, color, PieceKind::Horse, from),
                        "horse {from}"
                    );
                    assert_eq!(
                        collect(|v| pawn_steps(color, from, v)),
                        stepped_to(b, color, PieceKind::Pawn, from),
                        "{color:?} pawn {from}"
                    );
                }
            }
        }
    }

    #[test]
    fn step_tables_hold_every_move_once_with_its_blocking_square() {
        for from in Square::all() {
            // Elephant: (eye, destination) is (midpoint, two diagonal steps away).
            let table: BTreeSet<_> = ELEPHANT_STEPS
                .iter()
                .map(|&(eye, to)| (from.offset(eye), from.offset(to)))
                .filter(|(_, to)| to.on_board())
                .collect();
            let mut rule = BTreeSet::new();
            for (df, dr) in [(-2, -2), (-2, 2), (2, -2), (2, 2)] {
                if let Some(to) = shifted(from, df, dr) {
                    rule.insert((shifted(from, df / 2, dr / 2).unwrap(), to));
                }
            }
            assert_eq!(table, rule, "elephant {from}");

            // Horse, both ways: (leg, destination) from the horse, (leg, horse) from its target.
            let mut forward = BTreeSet::new();
            let mut backward = BTreeSet::new();
            for other in Square::all() {
                let (df, dr) =
                    (other.file() as i32 - from.file() as i32, other.rank() as i32 - from.rank() as i32);
                if df.abs() + dr.abs() != 3 || df == 0 || dr == 0 {
                    continue;
                }
                forward.insert((horse_leg(from, df, dr), other));
                backward.insert((horse_leg(other, -df, -dr), other));
            }
            // The table's (leg, other square) pairs from `from`, those with the other on the board.
            let pairs = |table: [(i8, [i8; 2]); 4]| -> BTreeSet<(Square, Square)> {
                table
                    .iter()
                    .flat_map(|&(leg, others)| others.map(|d| (from.offset(leg), from.offset(d))))
                    .filter(|(_, other)| other.on_board())
                    .collect()
            };
            assert_eq!(pairs(HORSE_STEPS), forward, "horse from {from}");
            assert_eq!(pairs(HORSE_ATTACKER_STEPS), backward, "horses attacking {from}");

            // The legs toward a square are its diagonal neighbours (near the edge, some with no
            // horse square behind them: a filter may ask about a few squares too many).
            for sq in Square::all() {
                let diagonal = sq.file().abs_diff(from.file()) == 1 && sq.rank().abs_diff(from.rank()) == 1;
                assert_eq!(is_horse_leg_toward(from, sq), diagonal, "leg {sq} toward {from}");
                if backward.iter().any(|&(leg, _)| leg == sq) {
                    assert!(diagonal);
                }
            }
        }
    }

    #[test]
    fn the_ray_walker_finds_what_a_naive_walk_finds() {
        let directions =
            [(delta::UP, 0, 1), (delta::DOWN, 0, -1), (delta::LEFT, -1, 0), (delta::RIGHT, 1, 0)];
        for board in random_boards(2) {
            for from in Square::all() {
                for (d, df, dr) in directions {
                    // Naively: every square along the line in files and ranks, until the edge.
                    let line: Vec<Square> = (1..10).map_while(|i| shifted(from, df * i, dr * i)).collect();
                    let empties: Vec<Square> =
                        line.iter().copied().take_while(|&s| board[s].is_empty()).collect();
                    let mut pieces = line.iter().copied().filter(|&s| board[s].is_piece());
                    let (first, second) = (pieces.next(), pieces.next());

                    let mut visited = Vec::new();
                    let stop = walk(&board, from, d, |s| visited.push(s));
                    assert_eq!(visited, empties, "{from} {d}");
                    let found = blockers(&board, from, d);
                    assert_eq!(found.first, stop);
                    assert_eq!(first_blocker(&board, from, d), stop);
                    match first {
                        Some(first) => assert_eq!(found.first, first, "{from} {d}"),
                        None => assert!(!found.first.on_board() && !board[found.first].is_piece()),
                    }
                    match (first, second) {
                        (None, _) => assert_eq!(found.second, found.first),
                        (Some(_), Some(second)) => assert_eq!(found.second, second, "{from} {d}"),
                        (Some(_), None) => {
                            assert!(!found.second.on_board() && !board[found.second].is_piece())
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn reaches_follows_the_rules_for_every_piece() {
        for board in random_boards(3) {
            for from in Square::all().filter(|&s| board[s].is_piece()) {
                let (color, kind) = (board[from].color(), board[from].kind());
                let steps = match kind {
                    PieceKind::Rook | PieceKind::Cannon => Vec::new(),
                    _ => stepped_to(&board, color, kind, from),
                };
                for to in Square::all() {
                    let rule = match kind {
                        PieceKind::Rook => pieces_between(&board, from, to) == Some(0),
                        PieceKind::Cannon => {
                            pieces_between(&board, from, to) == Some(board[to].is_piece() as usize)
                        }
                        _ => steps.contains(&to),
                    };
                    assert_eq!(reaches(&board, from, to), rule, "{color:?} {kind:?} {from} to {to}");
                }
            }
        }
    }

    #[test]
    fn king_attacked_agrees_with_each_attacker_looked_at_alone() {
        for board in random_boards(4) {
            for attacker in Color::BOTH {
                for king in Square::all() {
                    let rule = Square::all().filter(|&a| board[a].is_color(attacker)).any(|a| {
                        let between = pieces_between(&board, a, king);
                        match board[a].kind() {
                            PieceKind::Rook => between == Some(0),
                            PieceKind::Cannon => between == Some(1),
                            PieceKind::King => between == Some(0) && a.file() == king.file(),
                            PieceKind::Advisor | PieceKind::Elephant => false,
                            kind => stepped_to(&board, attacker, kind, a).contains(&king),
                        }
                    });
                    assert_eq!(king_attacked(&board, king, attacker), rule, "{attacker:?} on {king}");
                }
            }
        }
    }

    #[test]
    fn the_attack_test_after_a_move_agrees_with_the_full_test() {
        use crate::board::{movegen, MoveList, Position};
        let mut rng = StdRng::seed_from_u64(13);
        let (mut own, mut own_attacked, mut other, mut other_attacked) = (0, 0, 0, 0);
        // Random games from the start: every pseudo-legal move of every position they reach,
        // tried on the board; the targeted test is asked where its condition holds.
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let mover = pos.side_to_move();
                let (ours, theirs) = (pos.king_square(mover), pos.king_square(mover.opponent()));
                let in_check = pos.is_check();
                let fen = pos.to_fen();
                let mut pseudo = MoveList::new();
                movegen::pseudo_moves(&pos, &mut pseudo);
                for &mv in pseudo.iter() {
                    let changed = [mv.from(), mv.to()];
                    pos.with_board_move(mv, |p| {
                        let board = p.mailbox();
                        // The other king: attacked by nothing before (the position is legal).
                        let full = king_attacked(board, theirs, mover);
                        assert_eq!(
                            king_attacked_after(board, theirs, mover, changed),
                            full,
                            "{mv} checks in {fen}"
                        );
                        other += 1;
                        other_attacked += usize::from(full);
                        // The mover's own king, when it was not in check and did not move.
                        if !in_check && mv.from() != ours {
                            let full = king_attacked(board, ours, mover.opponent());
                            let after = king_attacked_after(board, ours, mover.opponent(), changed);
                            assert_eq!(after, full, "{mv} exposes its king in {fen}");
                            own += 1;
                            own_attacked += usize::from(full);
                        }
                    });
                }
                let legal = movegen::legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        // Both answers were seen often enough to mean something.
        assert!(own > 100_000 && own_attacked > 500, "{own} own, {own_attacked} exposed");
        assert!(other > 100_000 && other_attacked > 1_000, "{other} other, {other_attacked} checks");
    }

    #[test]
    fn a_move_the_check_filter_passes_over_never_gives_check() {
        use crate::board::{movegen, MoveList, Position};
        let mut rng = StdRng::seed_from_u64(11);
        let (mut passed_over, mut checks) = (0, 0);
        // Random games from the start: every pseudo-legal move of every position they reach.
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let mut pseudo = MoveList::new();
                movegen::pseudo_moves(&pos, &mut pseudo);
                let king = pos.king_square(pos.side_to_move().opponent());
                for &mv in pseudo.iter() {
                    let kind = pos.piece_at(mv.from()).kind();
                    let mover = pos.side_to_move();
                    let check = pos.with_board_move(mv, |p| p.king_attacked(mover.opponent()));
                    checks += usize::from(check);
                    if !may_give_check(kind, mv.from(), mv.to(), king) {
                        assert!(!check, "{mv} gives check in {}", pos.to_fen());
                        passed_over += 1;
                    }
                }
                let legal = movegen::legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(passed_over > 100_000 && checks > 1_000, "{passed_over} passed over, {checks} checks");
    }

    #[test]
    fn is_check_after_a_move_or_a_null_move_is_the_full_attack_test() {
        use crate::board::{movegen, Position};
        let mut rng = StdRng::seed_from_u64(12);
        let (mut positions, mut checks) = (0, 0);
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let full = king_attacked(
                    pos.mailbox(),
                    pos.king_square(pos.side_to_move()),
                    pos.side_to_move().opponent(),
                );
                assert_eq!(pos.is_check(), full, "{}", pos.to_fen());
                positions += 1;
                checks += usize::from(full);
                let legal = movegen::legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                if !full && rng.gen_bool(0.05) {
                    pos.make_null_move();
                    continue;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(positions > 20_000 && checks > 500, "{positions} positions, {checks} checks");
    }

    #[test]
    fn reachable_squares_are_those_the_steps_reach_from_the_start() {
        let empty = Mailbox::empty();
        let starts: [(PieceKind, &[&str]); 7] = [
            (PieceKind::King, &["e0"]),
            (PieceKind::Advisor, &["d0", "f0"]),
            (PieceKind::Elephant, &["c0", "g0"]),
            (PieceKind::Horse, &["b0", "h0"]),
            (PieceKind::Rook, &["a0", "i0"]),
            (PieceKind::Cannon, &["b2", "h2"]),
            (PieceKind::Pawn, &["a3", "c3", "e3", "g3", "i3"]),
        ];
        for color in Color::BOTH {
            for (kind, squares) in starts {
                // Red's start squares, turned over for Black; then every square the steps lead to.
                let mut seen: BTreeSet<Square> = squares
                    .iter()
                    .map(|s| Square::parse(s).unwrap())
                    .map(|s| if color == Color::Red { s } else { s.flip_ranks() })
                    .collect();
                let mut frontier: Vec<Square> = seen.iter().copied().collect();
                while let Some(from) = frontier.pop() {
                    let next = match kind {
                        PieceKind::Rook | PieceKind::Cannon => collect(|v| {
                            delta::ORTHOGONAL.iter().for_each(|&d| _ = walk(&empty, from, d, &mut *v))
                        }),
                        _ => stepped_to(&empty, color, kind, from),
                    };
                    for to in next {
                        if seen.insert(to) {
                            frontier.push(to);
                        }
                    }
                }
                // The rule is looser for pawns: it takes every file of the two ranks before the
                // river, where the steps keep an uncrossed pawn on its own file.
                let red_frame = |sq: Square| if color == Color::Red { sq } else { sq.flip_ranks() };
                let loose = |sq: Square| {
                    let sq = red_frame(sq);
                    kind == PieceKind::Pawn && (3..=4).contains(&sq.rank()) && sq.file() % 2 == 1
                };
                for sq in Square::all() {
                    let expected = seen.contains(&sq) || loose(sq);
                    assert_eq!(reachable(color, kind, sq), expected, "{color:?} {kind:?} {sq}");
                }
            }
        }
    }

    #[test]
    fn capture_targets_are_the_occupied_squares_a_piece_reaches() {
        let mut relations = 0;
        for board in random_boards(31) {
            for from in Square::all().filter(|&s| board[s].is_piece()) {
                let mut directions = Vec::new();
                let got = collect(|v| {
                    capture_targets(&board, from, |d, s| {
                        directions.push(d);
                        v(s)
                    })
                });
                let expected: Vec<Square> = Square::all()
                    .filter(|&to| to != from && board[to].is_piece() && reaches(&board, from, to))
                    .collect();
                assert_eq!(got, expected, "{:?} on {from}", board[from].kind());
                let distinct: BTreeSet<usize> = directions.iter().copied().collect();
                assert!(distinct.len() == directions.len() && directions.iter().all(|&d| d < MAX_TARGETS));
                relations += got.len();
            }
        }
        // Whatever else stands on the board, a target found a given way has the same direction.
        let directions = |fen: &str| {
            let pos = crate::board::Position::from_fen(fen).unwrap();
            let mut found = Vec::new();
            capture_targets(pos.mailbox(), Square::parse("e1").unwrap(), |d, s| {
                found.push((d, s.to_string()))
            });
            found
        };
        let up_down = |up: &str| vec![(0, up.to_string()), (1, "e0".to_string())];
        assert_eq!(directions("4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1"), up_down("e9"));
        assert_eq!(directions("3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), up_down("e8"));
        assert!(relations > 1_000, "{relations}");
    }
}
