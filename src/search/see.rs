//! Static exchange evaluation: the material balance of a capture sequence on one square, each
//! side recapturing with its least valuable piece and free to stop.
//!
//! Cannons make xiangqi exchanges awkward for attack tables (every capture changes screens), so
//! this plays the exchange out on the board with real legal moves; it only runs for captures
//! whose victim is worth less than the capturer.

use crate::board::{attacks, Color, Move, PieceKind, Position, Square};

/// Exchange values by kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const SEE_VALUE: [i32; 7] = [5_000, 20, 20, 90, 200, 95, 15];
/// The greatest of `SEE_VALUE`: move ordering's capture terms are bounded by it.
pub const SEE_VALUE_MAX: i32 = {
    let (mut max, mut i) = (0, 0);
    while i < SEE_VALUE.len() {
        if SEE_VALUE[i] > max {
            max = SEE_VALUE[i];
        }
        i += 1;
    }
    max
};

/// Kinds in the order a side prefers to recapture with them.
const CHEAPEST_FIRST: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

/// Value of what stands on `sq` (0 if empty).
#[inline]
pub fn value_on(pos: &Position, sq: Square) -> i32 {
    let p = pos.piece_at(sq);
    if p.is_piece() {
        SEE_VALUE[p.kind().index()]
    } else {
        0
    }
}

/// The material the mover gains by the capture `mv` (legal) if both sides exchange on its
/// square as well as they can.
pub fn see(pos: &mut Position, mv: Move) -> i32 {
    let gain = value_on(pos, mv.to());
    pos.make_move(mv);
    let reply = best_exchange(pos, mv.to());
    pos.unmake_move();
    gain - reply
}

/// Whether the capture `mv` does not lose material (cheap when the victim is worth as much).
#[inline]
pub fn see_non_negative(pos: &mut Position, mv: Move) -> bool {
    let attacker = value_on(pos, mv.from());
    let victim = value_on(pos, mv.to());
    victim >= attacker || see(pos, mv) >= 0
}

/// What the side to move gains by capturing on `sq` with its cheapest piece, and so on (≥ 0).
fn best_exchange(pos: &mut Position, sq: Square) -> i32 {
    let Some(mv) = cheapest_capture(pos, sq, pos.side_to_move()) else {
        return 0;
    };
    let gain = value_on(pos, sq);
    pos.make_move(mv);
    let reply = best_exchange(pos, sq);
    pos.unmake_move();
    (gain - reply).max(0)
}

fn cheapest_capture(pos: &mut Position, sq: Square, side: Color) -> Option<Move> {
    for kind in CHEAPEST_FIRST {
        let (first, end) = kind.slots();
        for slot in first..end {
            let from = pos.slot_square(side, slot);
            if from == Square::NONE {
                continue;
            }
            let mv = Move::new(from, sq);
            if attacks::reaches(pos.mailbox(), from, sq) && pos.leaves_king_safe(mv) {
                return Some(mv);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let mut pos = Position::from_fen(fen).unwrap();
        see(&mut pos, Move::parse_iccs(mv).unwrap())
    }

    #[test]
    fn exchanges() {
        // Rook takes an unprotected horse: wins the horse.
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), 90);
        // Rook takes a horse protected by the pawn on e6: 90 - 200.
        assert_eq!(see_of("3k5/9/9/4p4/4n4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), 90 - 200);
        // Cannon takes a pawn over a screen; the pawn is protected by a rook on the rank:
        // cannon lost for the pawn.
        assert_eq!(see_of("3k5/9/9/9/r3p4/9/4P4/9/4C4/5K3 w - - 0 1", "e1e5"), 15 - 95);
        // Horse takes a cannon that a rook guards, but a red rook on c0 guards c5 too: black's
        // recapture would lose the rook, so black stops and red wins the cannon.
        assert_eq!(see_of("3k5/9/9/9/r1c6/9/1N7/9/9/2R1K4 w - - 0 1", "b3c5"), 95);
        // Without the red rook, black recaptures: cannon for horse.
        assert_eq!(see_of("3k5/9/9/9/r1c6/9/1N7/9/9/4K4 w - - 0 1", "b3c5"), 95 - 90);
    }
}
