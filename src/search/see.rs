//! Static exchange evaluation for the search: the exchange on a square (`board::exchange`,
//! played out with real legal moves) in the search's own piece values. It only runs for
//! captures whose victim is worth less than the capturer, and for the pruning candidates.

use crate::board::exchange::{capture_gain, ExchangeValues};
use crate::board::{Move, Position, Square};

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

/// `SEE_VALUE` with the recapture order it implies.
const SEE: ExchangeValues = ExchangeValues::new(SEE_VALUE);

/// Value of what stands on `sq` (0 if empty).
#[inline]
pub fn value_on(pos: &Position, sq: Square) -> i32 {
    SEE.on(pos, sq)
}

/// The material the mover gains by the move `mv` (legal) if both sides exchange on its square
/// as well as they can.
pub fn see(pos: &mut Position, mv: Move) -> i32 {
    capture_gain(pos, mv, &SEE)
}

/// Whether the capture `mv` does not lose material (cheap when the victim is worth as much).
#[inline]
pub fn see_non_negative(pos: &mut Position, mv: Move) -> bool {
    let attacker = value_on(pos, mv.from());
    let victim = value_on(pos, mv.to());
    victim >= attacker || see(pos, mv) >= 0
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
