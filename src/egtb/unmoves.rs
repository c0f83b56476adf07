//! Moves taken back: the quiet moves that could have led to a position, for the retrograde
//! analysis. Captures are not taken back: a capture leaves the table, and the generator reads
//! those children forward from the smaller tables instead.
//!
//! A quiet move a→b of a king, advisor, elephant, rook or cannon can be taken back exactly when
//! the same piece could step b→a now (the line, eye or palace is the same both ways). A horse's
//! leg lies next to its origin, so a horse came from a when the leg beside a is empty; a pawn came
//! from one square behind it, or from beside it once across the river.

use crate::board::attacks::{delta, pawn_forward, ELEPHANT_STEPS, HORSE_STEPS, PAWN_SIDE_STEPS};
use crate::board::{Color, PieceKind, Square};

use super::index::{Layout, Placement};

/// Calls `visit(slot, origin)` for each quiet move of `mover`'s pieces that could have led to
/// `child` (where `mover` is not to move). Whether the position before was legal is the caller's
/// question; the move itself was legal, as `child` leaves the mover's king safe.
pub fn for_each_unmove(
    layout: &Layout,
    slots: &[(Color, PieceKind)],
    child: &Placement,
    mover: Color,
    mut visit: impl FnMut(usize, Square),
) {
    let mut occupied = [false; 256];
    for sq in &child.squares[..layout.pieces()] {
        occupied[sq.index()] = true;
    }
    let free = |sq: Square| sq.on_board() && !occupied[sq.index()];
    for (slot, &(color, kind)) in slots.iter().enumerate() {
        if color != mover {
            continue;
        }
        let b = child.squares[slot];
        match kind {
            PieceKind::King => {
                for d in delta::ORTHOGONAL {
                    let a = b.offset(d);
                    if free(a) && a.in_palace(mover) {
                        visit(slot, a);
                    }
                }
            }
            PieceKind::Advisor => {
                for d in delta::DIAGONAL {
                    let a = b.offset(d);
                    if free(a) && a.in_palace(mover) {
                        visit(slot, a);
                    }
                }
            }
            PieceKind::Elephant => {
                for (eye, step) in ELEPHANT_STEPS {
                    let a = b.offset(step);
                    if free(b.offset(eye)) && free(a) && a.on_home_side(mover) {
                        visit(slot, a);
                    }
                }
            }
            PieceKind::Rook | PieceKind::Cannon => {
                for d in delta::ORTHOGONAL {
                    let mut a = b.offset(d);
                    while free(a) {
                        visit(slot, a);
                        a = a.offset(d);
                    }
                }
            }
            PieceKind::Horse => {
                for (leg, targets) in HORSE_STEPS {
                    for t in targets {
                        let a = b.offset(-t);
                        if free(a) && free(a.offset(leg)) {
                            visit(slot, a);
                        }
                    }
                }
            }
            PieceKind::Pawn => {
                let a = b.offset(-pawn_forward(mover));
                if free(a) && layout.slot_can_stand(slot, a) {
                    visit(slot, a);
                }
                if !b.on_home_side(mover) {
                    for d in PAWN_SIDE_STEPS {
                        let a = b.offset(d);
                        if free(a) {
                            visit(slot, a);
                        }
                    }
                }
            }
        }
    }
}
