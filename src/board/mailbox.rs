//! The mailbox: what stands on each of the 256 cells of the 16×16 board, guard band included.
//!
//! This is the board as the geometry in `attacks` reads it. `Position` owns one and keeps it in
//! step with its piece lists; everything else sees it through `Position::mailbox`.

use std::ops::{Index, IndexMut};

use super::piece::Piece;
use super::square::{in_playing_area, Square};

/// The 256 mailbox cells: `Piece::EMPTY` or a piece on the playing area, `Piece::OFFBOARD` on the
/// guard band, so that a step or a slide off the board stops by itself.
#[derive(Clone)]
pub struct Mailbox([Piece; 256]);

impl Mailbox {
    /// An empty board: every playing square empty, every guard cell `OFFBOARD`.
    pub(crate) const fn empty() -> Mailbox {
        let mut cells = [Piece::OFFBOARD; 256];
        let mut i = 0;
        while i < 256 {
            if in_playing_area(i) {
                cells[i] = Piece::EMPTY;
            }
            i += 1;
        }
        Mailbox(cells)
    }
}

impl Index<Square> for Mailbox {
    type Output = Piece;

    #[inline]
    fn index(&self, sq: Square) -> &Piece {
        &self.0[sq.index()]
    }
}

impl IndexMut<Square> for Mailbox {
    #[inline]
    fn index_mut(&mut self, sq: Square) -> &mut Piece {
        &mut self.0[sq.index()]
    }
}
