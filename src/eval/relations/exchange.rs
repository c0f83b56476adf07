//! The exchange on one square as the evaluation's explanation weighs it: the board's exchange
//! (`board::exchange`, played out with legal moves, as the search's SEE is) in the classic
//! evaluation's middlegame material values, for any square and either side. It explains; it
//! decides nothing.

use crate::board::exchange::{self, ExchangeValues};
use crate::board::{attacks, Color, Move, PieceKind, Position, Square};
use crate::eval::classic::weights::MATERIAL;

/// A king's value in an exchange: more than everything else on the board together.
const KING_VALUE: i32 = 10_000;

/// The classic middlegame material, the king at `KING_VALUE`.
const CLASSIC: ExchangeValues = ExchangeValues::new([
    KING_VALUE,
    MATERIAL[1].mg,
    MATERIAL[2].mg,
    MATERIAL[3].mg,
    MATERIAL[4].mg,
    MATERIAL[5].mg,
    MATERIAL[6].mg,
]);

/// What a piece of `kind` is worth in an exchange: the classic middlegame material value.
pub fn value(kind: PieceKind) -> i32 {
    CLASSIC.of(kind)
}

/// The legal captures the side to move has on `sq`.
pub fn captures_on(pos: &mut Position, sq: Square) -> Vec<Move> {
    let side = pos.side_to_move();
    let mut out = Vec::new();
    for slot in 0..16u8 {
        let from = pos.slot_square(side, slot);
        let mv = Move::new(from, sq);
        if from != Square::NONE
            && pos.piece_at(sq).is_color(side.opponent())
            && attacks::reaches(pos.mailbox(), from, sq)
            && pos.leaves_king_safe(mv)
        {
            out.push(mv);
        }
    }
    out
}

/// What the side to move wins by the capture `mv` (legal), the exchange then played out.
pub fn capture_gain(pos: &mut Position, mv: Move) -> i32 {
    exchange::capture_gain(pos, mv, &CLASSIC)
}

/// The best the side to move wins by starting the exchange on `sq` with any of its legal
/// captures there, or `None` if it has none.
pub fn best_gain(pos: &mut Position, sq: Square) -> Option<i32> {
    captures_on(pos, sq).into_iter().map(|mv| capture_gain(pos, mv)).max()
}

/// The best the other side of `color` wins by capturing the piece of `color` on `sq` first, as
/// if it were the other side's turn (a null move is played when it is not), or `None` if it
/// has no legal capture there.
pub fn threat_on(pos: &mut Position, sq: Square, color: Color) -> Option<i32> {
    if pos.side_to_move() != color {
        return best_gain(pos, sq);
    }
    pos.make_null_move();
    let gain = best_gain(pos, sq);
    pos.unmake_null_move();
    gain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gain(fen: &str, mv: &str) -> i32 {
        let mut pos = Position::from_fen(fen).unwrap();
        capture_gain(&mut pos, Move::parse_iccs(mv).unwrap())
    }

    const HORSE: i32 = MATERIAL[3].mg;
    const ROOK: i32 = MATERIAL[4].mg;
    const CANNON: i32 = MATERIAL[5].mg;
    const PAWN: i32 = MATERIAL[6].mg;

    #[test]
    fn exchanges_played_out() {
        // Rook takes an unprotected horse.
        assert_eq!(gain("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), HORSE);
        // The horse is protected by the pawn on e6: the rook is lost for it.
        assert_eq!(gain("3k5/9/9/4p4/4n4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), HORSE - ROOK);
        // Cannon over a screen takes a pawn that a rook protects along the rank.
        assert_eq!(gain("3k5/9/9/9/r3p4/9/4P4/9/4C4/5K3 w - - 0 1", "e1e5"), PAWN - CANNON);
        // Black would lose the rook by recapturing (the red rook on c0 guards c5): it stops.
        assert_eq!(gain("3k5/9/9/9/r1c6/9/1N7/9/9/2R1K4 w - - 0 1", "b3c5"), CANNON);
    }

    #[test]
    fn a_threat_is_read_for_either_side_to_move() {
        // The black horse on e5 is attacked by the red rook; with Black to move, as if Red's turn.
        let mut pos = Position::from_fen("4k4/9/9/9/4n4/9/9/9/4R4/3K5 b - - 0 1").unwrap();
        let e5 = Square::parse("e5").unwrap();
        assert_eq!(threat_on(&mut pos, e5, Color::Black), Some(HORSE));
        assert_eq!(pos.side_to_move(), Color::Black, "the null move is taken back");
        // Nothing of Red's is attacked: the rook on e1 has no black capture on it.
        assert_eq!(threat_on(&mut pos, Square::parse("e1").unwrap(), Color::Red), None);
    }
}
