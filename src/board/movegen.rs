//! Move generation: pseudo-legal moves (all, or captures only), legality, and perft.
//!
//! Pseudo-legal moves obey every movement rule (palace, elephant eye and river, horse leg, cannon
//! screen, pawn direction) but may leave the mover's king attacked or facing the other king;
//! `Position::leaves_king_safe` filters those.

use super::moves::{Move, MoveList};
use super::piece::{Color, PieceKind};
use super::position::{Position, HORSE_STEPS};
use super::square::{delta, Square};

/// Which moves a generator emits.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Wanted {
    All,
    Captures,
}

/// Appends every pseudo-legal move of the side to move.
pub fn pseudo_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list, Wanted::All);
}

/// Appends the pseudo-legal captures of the side to move (for quiescence).
pub fn pseudo_captures(pos: &Position, list: &mut MoveList) {
    generate(pos, list, Wanted::Captures);
}

/// Decides legality of pseudo-legal moves in one position, skipping the board test for moves
/// that cannot expose the king.
///
/// Not in check, a move by a piece other than the king can only uncover an attack on its king
/// if it leaves the king's rank or file (unblocking a rook, a facing king, or changing a cannon's
/// screens), lands on it (a new cannon screen), or leaves a square diagonal to the king (a horse
/// leg). Pawn attacks never depend on our pieces.
#[derive(Copy, Clone)]
pub struct LegalityFilter {
    king: Square,
    in_check: bool,
}

impl LegalityFilter {
    /// The filter for the side to move in `pos`.
    #[inline]
    pub fn new(pos: &Position) -> LegalityFilter {
        LegalityFilter { king: pos.king_square(pos.side_to_move()), in_check: pos.is_check() }
    }

    /// Whether the side to move was in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Whether the pseudo-legal `mv` is legal.
    #[inline]
    pub fn is_legal(&self, pos: &mut Position, mv: Move) -> bool {
        let (from, to, k) = (mv.from(), mv.to(), self.king);
        if !self.in_check && from != k {
            let on_lines = |s: Square| s.file() == k.file() || s.rank() == k.rank();
            let d = from.index() as i32 - k.index() as i32;
            let leg = matches!(d, -17 | -15 | 15 | 17);
            if !on_lines(from) && !on_lines(to) && !leg {
                return true;
            }
        }
        pos.leaves_king_safe(mv)
    }
}

/// Every legal move of the side to move. An empty list means the side to move has lost.
pub fn legal_moves(pos: &mut Position) -> MoveList {
    let mut list = MoveList::new();
    pseudo_moves(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    list.retain(|mv| filter.is_legal(pos, mv));
    list
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move(pos: &mut Position) -> bool {
    let mut list = MoveList::new();
    pseudo_moves(pos, &mut list);
    list.iter().any(|&mv| pos.leaves_king_safe(mv))
}

/// Whether `mv` is a legal move in `pos`.
pub fn is_legal(pos: &mut Position, mv: Move) -> bool {
    is_pseudo_legal(pos, mv) && pos.leaves_king_safe(mv)
}

#[inline]
fn generate(pos: &Position, list: &mut MoveList, wanted: Wanted) {
    let us = pos.side_to_move();
    for slot in 0..16u8 {
        let from = pos.slot_square(us, slot);
        if from == Square::NONE {
            continue;
        }
        match pos.piece_at(from).kind() {
            PieceKind::King => steps(pos, list, wanted, us, from, &delta::ORTHOGONAL, true),
            PieceKind::Advisor => steps(pos, list, wanted, us, from, &delta::DIAGONAL, true),
            PieceKind::Elephant => elephant(pos, list, wanted, us, from),
            PieceKind::Horse => horse(pos, list, wanted, us, from),
            PieceKind::Rook => rook(pos, list, wanted, us, from),
            PieceKind::Cannon => cannon(pos, list, wanted, us, from),
            PieceKind::Pawn => pawn(pos, list, wanted, us, from),
        }
    }
}

#[inline]
fn push_if(pos: &Position, list: &mut MoveList, wanted: Wanted, us: Color, from: Square, to: Square) {
    let target = pos.piece_at(to);
    if target.is_enterable_by(us) && (wanted == Wanted::All || target.is_piece()) {
        list.push(Move::new(from, to));
    }
}

#[inline]
fn steps(
    pos: &Position,
    list: &mut MoveList,
    wanted: Wanted,
    us: Color,
    from: Square,
    deltas: &[i8; 4],
    palace: bool,
) {
    for &d in deltas {
        let to = from.offset(d);
        if !palace || to.in_any_palace() {
            push_if(pos, list, wanted, us, from, to);
        }
    }
}

#[inline]
fn elephant(pos: &Position, list: &mut MoveList, wanted: Wanted, us: Color, from: Square) {
    for d in delta::DIAGONAL {
        let eye = from.offset(d);
        if pos.piece_at(eye).is_empty() {
            let to = eye.offset(d);
            if to.on_home_side(us) {
                push_if(pos, list, wanted, us, from, to);
            }
        }
    }
}

#[inline]
fn horse(pos: &Position, list: &mut MoveList, wanted: Wanted, us: Color, from: Square) {
    for (leg, targets) in HORSE_STEPS {
        if pos.piece_at(from.offset(leg)).is_empty() {
            for d in targets {
                push_if(pos, list, wanted, us, from, from.offset(d));
            }
        }
    }
}

#[inline]
fn rook(pos: &Position, list: &mut MoveList, wanted: Wanted, us: Color, from: Square) {
    for d in delta::ORTHOGONAL {
        let mut to = from.offset(d);
        while pos.piece_at(to).is_empty() {
            if wanted == Wanted::All {
                list.push(Move::new(from, to));
            }
            to = to.offset(d);
        }
        if pos.piece_at(to).is_color(us.opponent()) {
            list.push(Move::new(from, to));
        }
    }
}

#[inline]
fn cannon(pos: &Position, list: &mut MoveList, wanted: Wanted, us: Color, from: Square) {
    for d in delta::ORTHOGONAL {
        let mut to = from.offset(d);
        while pos.piece_at(to).is_empty() {
            if wanted == Wanted::All {
                list.push(Move::new(from, to));
            }
            to = to.offset(d);
        }
        if !pos.piece_at(to).is_piece() {
            continue;
        }
        to = to.offset(d);
        while pos.piece_at(to).is_empty() {
            to = to.offset(d);
        }
        if pos.piece_at(to).is_color(us.opponent()) {
            list.push(Move::new(from, to));
        }
    }
}

#[inline]
fn pawn(pos: &Position, list: &mut MoveList, wanted: Wanted, us: Color, from: Square) {
    push_if(pos, list, wanted, us, from, from.offset(us.forward()));
    if !from.on_home_side(us) {
        push_if(pos, list, wanted, us, from, from.offset(delta::LEFT));
        push_if(pos, list, wanted, us, from, from.offset(delta::RIGHT));
    }
}

/// Whether `mv` obeys the movement rules for the piece on its origin square, with the side to
/// move's piece there (checks of king safety are separate). Used to vet moves from outside:
/// hash tables, books, killers, user input.
pub fn is_pseudo_legal(pos: &Position, mv: Move) -> bool {
    let (from, to) = (mv.from(), mv.to());
    if !from.on_board() || !to.on_board() || from == to {
        return false;
    }
    let us = pos.side_to_move();
    let piece = pos.piece_at(from);
    if !piece.is_color(us) || !pos.piece_at(to).is_enterable_by(us) {
        return false;
    }
    let d = to.index() as i32 - from.index() as i32;
    let (df, dr) = (to.file() as i32 - from.file() as i32, to.rank() as i32 - from.rank() as i32);
    match piece.kind() {
        PieceKind::King => to.in_palace(us) && df.abs() + dr.abs() == 1,
        PieceKind::Advisor => to.in_palace(us) && df.abs() == 1 && dr.abs() == 1,
        PieceKind::Elephant => {
            df.abs() == 2
                && dr.abs() == 2
                && to.on_home_side(us)
                && pos.piece_at(from.offset((d / 2) as i8)).is_empty()
        }
        PieceKind::Horse => HORSE_STEPS
            .iter()
            .any(|&(leg, targets)| targets.contains(&(d as i8)) && pos.piece_at(from.offset(leg)).is_empty()),
        PieceKind::Rook | PieceKind::Cannon => {
            if df != 0 && dr != 0 {
                return false;
            }
            let step: i8 = if df == 0 {
                if dr > 0 {
                    delta::UP
                } else {
                    delta::DOWN
                }
            } else if df > 0 {
                delta::RIGHT
            } else {
                delta::LEFT
            };
            let mut between = 0;
            let mut s = from.offset(step);
            while s != to {
                if !pos.piece_at(s).is_empty() {
                    between += 1;
                }
                s = s.offset(step);
            }
            if piece.kind() == PieceKind::Rook {
                between == 0
            } else if pos.piece_at(to).is_piece() {
                between == 1
            } else {
                between == 0
            }
        }
        PieceKind::Pawn => d == us.forward() as i32 || (!from.on_home_side(us) && dr == 0 && df.abs() == 1),
    }
}

/// Counts the leaves of the legal move tree `depth` plies deep.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pseudo_moves(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    if depth == 1 {
        return list.iter().filter(|&&mv| filter.is_legal(pos, mv)).count() as u64;
    }
    let mut nodes = 0;
    for &mv in &list {
        if filter.is_legal(pos, mv) {
            pos.make_move(mv);
            nodes += perft(pos, depth - 1);
            pos.unmake_move();
        }
    }
    nodes
}

/// Perft split by root move: each legal root move with its leaf count, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = legal_moves(pos);
    moves
        .iter()
        .map(|&mv| {
            pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (mv, n)
        })
        .collect()
}
