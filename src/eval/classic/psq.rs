//! The combined material + piece-square table, and `PsqState`: its sum over the board with the
//! game phase, the part of the classic evaluation that a move changes by a few entries.

use super::score::Score;
use super::weights::{MATERIAL, PHASE, PST_EG, PST_MG};
use crate::board::{Color, Move, Piece, PieceKind, Position};

const fn build() -> [[Score; 256]; 14] {
    let mut table = [[Score::ZERO; 256]; 14];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                // Row in the written table: rank 9 first.
                let red_index = (9 - rank) * 9 + file;
                let black_index = rank * 9 + file;
                let sq = (12 - rank) * 16 + 3 + file;
                let m = MATERIAL[kind];
                table[kind][sq] = Score::new(m.mg + PST_MG[kind][red_index], m.eg + PST_EG[kind][red_index]);
                table[kind + 7][sq] =
                    Score::new(m.mg + PST_MG[kind][black_index], m.eg + PST_EG[kind][black_index]);
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    table
}

/// Material plus placement of a piece, by `Piece::type_index` and mailbox square, from the
/// owner's point of view (Black's values are already mirrored).
pub static PSQ: [[Score; 256]; 14] = build();

/// The table's sum over the board and the game phase: what the evaluation tapers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PsqState {
    /// Material + placement, Red's minus Black's.
    pub score: Score,
    /// Sum of `PHASE` over the pieces on the board.
    pub phase: i32,
}

impl PsqState {
    /// The state of `pos`, summed from scratch.
    pub fn of(pos: &Position) -> PsqState {
        let mut state = PsqState::default();
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    state.add(pos.piece_at(sq), sq.index());
                }
            }
        }
        state
    }

    /// The state after `mv`, about to be played on `pos` (whose state this is).
    #[inline]
    pub fn after_move(mut self, pos: &Position, mv: Move) -> PsqState {
        let (from, to) = (mv.from().index(), mv.to().index());
        let piece = pos.piece_at(mv.from());
        let captured = pos.piece_at(mv.to());
        if captured.is_piece() {
            self.remove(captured, to);
        }
        // The mover keeps its kind and phase: only its placement changes.
        let t = piece.type_index();
        let gain = PSQ[t][to] - PSQ[t][from];
        match piece.color() {
            Color::Red => self.score += gain,
            Color::Black => self.score -= gain,
        }
        self
    }

    #[inline]
    fn add(&mut self, piece: Piece, sq: usize) {
        self.phase += PHASE[piece.kind().index()];
        match piece.color() {
            Color::Red => self.score += PSQ[piece.type_index()][sq],
            Color::Black => self.score -= PSQ[piece.type_index()][sq],
        }
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: usize) {
        self.phase -= PHASE[piece.kind().index()];
        match piece.color() {
            Color::Red => self.score -= PSQ[piece.type_index()][sq],
            Color::Black => self.score += PSQ[piece.type_index()][sq],
        }
    }
}
