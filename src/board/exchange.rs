//! The static exchange on one square, played out on the board: the side to move captures there,
//! then each side recaptures with its least valuable piece and is free to stop. Cannons make
//! xiangqi exchanges awkward for attack tables (every capture changes screens), so the exchange
//! is played with real legal moves. The values are the caller's: the search's SEE weighs pieces
//! its own way (`search/see.rs`), the evaluation's explanation by the classic material
//! (`eval/relations`); both walk this one exchange.

use super::{attacks, Move, PieceKind, Position, Square};

/// What each kind is worth in an exchange, and the order a side recaptures in (cheapest first;
/// kinds of equal value in `PieceKind::ALL`'s order).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExchangeValues {
    value: [i32; 7],
    cheapest_first: [PieceKind; 7],
}

impl ExchangeValues {
    /// The values by kind (in `PieceKind::index` order), with the recapture order they imply.
    pub const fn new(value: [i32; 7]) -> ExchangeValues {
        // A stable insertion sort, written with `while` to run at compile time.
        let mut order = PieceKind::ALL;
        let mut i = 1;
        while i < order.len() {
            let mut j = i;
            while j > 0 && value[order[j - 1].index()] > value[order[j].index()] {
                let t = order[j - 1];
                order[j - 1] = order[j];
                order[j] = t;
                j -= 1;
            }
            i += 1;
        }
        ExchangeValues { value, cheapest_first: order }
    }

    /// The value of a piece of `kind`.
    #[inline]
    pub fn of(&self, kind: PieceKind) -> i32 {
        self.value[kind.index()]
    }

    /// The value of what stands on `sq` (0 if empty).
    #[inline]
    pub fn on(&self, pos: &Position, sq: Square) -> i32 {
        let p = pos.piece_at(sq);
        if p.is_piece() {
            self.of(p.kind())
        } else {
            0
        }
    }
}

/// What the side to move gains by the move `mv` (legal; a capture or a quiet move) once the
/// exchange on its square is played out.
pub fn capture_gain(pos: &mut Position, mv: Move, values: &ExchangeValues) -> i32 {
    let gain = values.on(pos, mv.to());
    pos.make_move(mv);
    let reply = best_recapture(pos, mv.to(), values);
    pos.unmake_move();
    gain - reply
}

/// What the side to move gains by recapturing on `sq` with its cheapest piece, and so on (≥ 0:
/// it may stop).
fn best_recapture(pos: &mut Position, sq: Square, values: &ExchangeValues) -> i32 {
    match cheapest_capture(pos, sq, values) {
        Some(mv) => capture_gain(pos, mv, values).max(0),
        None => 0,
    }
}

/// The side to move's legal capture on `sq` with its least valuable piece.
pub fn cheapest_capture(pos: &mut Position, sq: Square, values: &ExchangeValues) -> Option<Move> {
    let side = pos.side_to_move();
    for kind in values.cheapest_first {
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

    #[test]
    fn the_recapture_order_follows_the_values_and_keeps_ties_in_kind_order() {
        use PieceKind::*;
        let v = ExchangeValues::new([5_000, 20, 20, 90, 200, 95, 15]);
        assert_eq!(v.cheapest_first, [Pawn, Advisor, Elephant, Horse, Cannon, Rook, King]);
        let v = ExchangeValues::new([10_000, 35, 28, 106, 251, 131, 17]);
        assert_eq!(v.cheapest_first, [Pawn, Elephant, Advisor, Horse, Cannon, Rook, King]);
        assert_eq!(v.of(Rook), 251);
    }
}
