//! Squares of the 16×16 mailbox.
//!
//! The playing area is rows 3..=12 and columns 3..=11 of a 16×16 array (ElephantEye's layout, which
//! is also the square numbering of the BOOK.DAT format). Row 3 is Black's back rank (ICCS rank 9),
//! row 12 is Red's back rank (ICCS rank 0); column 3 is ICCS file `a`. Everything outside is a guard
//! band wide enough that a horse or elephant step from any playing square stays inside the array.

use std::fmt;

use super::piece::Color;

/// A square index into the 256-entry mailbox (on or off the playing area).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

/// Whether mailbox index `index` lies on the 9×10 playing area: worked out, for building tables
/// (`Square::on_board` looks the answer up).
pub(crate) const fn in_playing_area(index: usize) -> bool {
    let (row, col) = (index / 16, index % 16);
    row >= 3 && row <= 12 && col >= 3 && col <= 11
}

const fn build_on_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = in_playing_area(i);
        i += 1;
    }
    t
}

const fn build_in_palace() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (row, col) = (i / 16, i % 16);
        t[i] = col >= 6 && col <= 8 && ((row >= 3 && row <= 5) || (row >= 10 && row <= 12));
        i += 1;
    }
    t
}

static ON_BOARD: [bool; 256] = build_on_board();
static IN_PALACE: [bool; 256] = build_in_palace();

impl Square {
    /// The "no square" value; row 0 is guard band, so it never names a playing square.
    pub const NONE: Square = Square(0);

    /// A square from its raw mailbox index.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The square at ICCS `file` (0 = `a` .. 8 = `i`) and `rank` (0 = Red's back rank .. 9).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((12 - rank) * 16 + 3 + file)
    }

    /// Parses two ICCS characters such as `e0`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        (file < 9 && rank < 10).then(|| Square::new(file, rank))
    }

    /// The raw mailbox index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// ICCS file, 0 (`a`) ..= 8 (`i`). Only meaningful on the playing area.
    #[inline]
    pub const fn file(self) -> u8 {
        (self.0 & 15) - 3
    }

    /// ICCS rank, 0 (Red's back rank) ..= 9. Only meaningful on the playing area.
    #[inline]
    pub const fn rank(self) -> u8 {
        12 - (self.0 >> 4)
    }

    /// Whether this square is on the 9×10 playing area.
    #[inline]
    pub fn on_board(self) -> bool {
        ON_BOARD[self.index()]
    }

    /// Whether this square lies in either palace.
    #[inline]
    pub fn in_any_palace(self) -> bool {
        IN_PALACE[self.index()]
    }

    /// Whether this square lies in `color`'s palace.
    #[inline]
    pub fn in_palace(self, color: Color) -> bool {
        IN_PALACE[self.index()] && self.on_home_side(color)
    }

    /// Whether this square is on `color`'s own half (has not crossed the river, from its view).
    #[inline]
    pub const fn on_home_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 >= 0x80,
            Color::Black => self.0 < 0x80,
        }
    }

    /// The square `d` mailbox steps away (may be in the guard band).
    #[inline]
    pub const fn offset(self, d: i8) -> Square {
        Square(self.0.wrapping_add(d as u8))
    }

    /// The square mirrored top to bottom (rank r ↔ 9 − r).
    #[inline]
    pub const fn flip_ranks(self) -> Square {
        Square(self.0 ^ 0xF0)
    }

    /// The square mirrored left to right (file a ↔ i).
    #[inline]
    pub const fn mirror_files(self) -> Square {
        Square((self.0 & 0xF0) | (14 - (self.0 & 15)))
    }

    /// Every playing square, rank 9 first and file `a` first within a rank (FEN order).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..10u8).rev().flat_map(|rank| (0..9u8).map(move |file| Square::new(file, rank)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on_board() {
            write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
        } else {
            write!(f, "#{}", self.0)
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert!(sq.on_board());
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::all().count(), 90);
        // BOOK.DAT numbering: e0 is 12*16+7.
        assert_eq!(Square::parse("e0").unwrap().index(), 199);
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn mirrors_and_regions() {
        let e0 = Square::parse("e0").unwrap();
        assert_eq!(e0.flip_ranks(), Square::parse("e9").unwrap());
        assert_eq!(Square::parse("a3").unwrap().mirror_files(), Square::parse("i3").unwrap());
        assert!(e0.in_palace(Color::Red) && !e0.in_palace(Color::Black));
        assert!(Square::parse("f9").unwrap().in_palace(Color::Black));
        assert!(!Square::parse("c0").unwrap().in_any_palace());
        assert!(Square::parse("a4").unwrap().on_home_side(Color::Red));
        assert!(!Square::parse("a5").unwrap().on_home_side(Color::Red));
        assert!(!Square::NONE.on_board());
    }
}
