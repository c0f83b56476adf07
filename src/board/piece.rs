//! Colours, piece kinds, and the mailbox cell value `Piece`.
//!
//! A `Piece` on the mailbox is not only a kind and colour: it is the piece's *slot* in its side's
//! piece list (side tag 16 for Red, 32 for Black, plus a slot 0..16 whose range fixes the kind). The
//! board can then say where every piece stands without searching, and a capture just clears a slot.

use std::fmt;

/// The two sides. Red moves first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Red (upper-case letters in FEN, moves first, home ranks 0..=4).
    Red = 0,
    /// Black (lower-case letters in FEN, home ranks 5..=9).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The tag bit this side's pieces carry on the mailbox.
    #[inline]
    pub const fn tag(self) -> u8 {
        match self {
            Color::Red => 16,
            Color::Black => 32,
        }
    }

    /// Lower-case English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// The seven kinds of xiangqi piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// 帥/將: stays in the palace.
    King = 0,
    /// 仕/士: diagonal steps in the palace.
    Advisor = 1,
    /// 相/象: two diagonal steps, never across the river.
    Elephant = 2,
    /// 傌/馬: the leg-blocked knight.
    Horse = 3,
    /// 俥/車: the rook (chariot).
    Rook = 4,
    /// 炮/砲: moves like a rook, captures over a screen.
    Cannon = 5,
    /// 兵/卒: forward, and sideways after the river.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in slot order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// 0..7 in the order above.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind each side starts with, the most it can ever have.
    pub const fn max_count(self) -> usize {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The slots `first..end` this kind occupies in a side's piece list.
    #[inline]
    pub const fn slots(self) -> (u8, u8) {
        match self {
            PieceKind::King => (0, 1),
            PieceKind::Advisor => (1, 3),
            PieceKind::Elephant => (3, 5),
            PieceKind::Horse => (5, 7),
            PieceKind::Rook => (7, 9),
            PieceKind::Cannon => (9, 11),
            PieceKind::Pawn => (11, 16),
        }
    }

    /// Upper-case FEN letter (Red's).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind named by a FEN letter of either case (accepting `E` for elephant and `H` for horse).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// Lower-case English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

const SLOT_KIND: [PieceKind; 16] = [
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
];

/// What a mailbox cell holds: nothing, the guard band, or one identified piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// An empty playing square.
    pub const EMPTY: Piece = Piece(0);
    /// A guard-band cell: blocks every slide and step.
    pub const OFFBOARD: Piece = Piece(64);

    /// The piece in `slot` (0..16) of `color`'s list.
    #[inline]
    pub const fn from_slot(color: Color, slot: u8) -> Piece {
        Piece(color.tag() | slot)
    }

    /// The raw code: 0, 64, or 16..48.
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// A real piece (neither empty nor guard)?
    #[inline]
    pub const fn is_piece(self) -> bool {
        self.0 & 48 != 0
    }

    /// Nothing on this playing square?
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this cell holds a piece of `color`.
    #[inline]
    pub const fn is_color(self, color: Color) -> bool {
        self.0 & color.tag() != 0
    }

    /// Whether a piece of `color` may step here: empty, or an enemy piece (not guard, not own).
    #[inline]
    pub const fn is_enterable_by(self, color: Color) -> bool {
        self.0 & (color.tag() | 64) == 0
    }

    /// Colour of a real piece.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 16 != 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Slot 0..16 within its side's list.
    #[inline]
    pub const fn slot(self) -> u8 {
        self.0 & 15
    }

    /// Kind of a real piece.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        SLOT_KIND[(self.0 & 15) as usize]
    }

    /// Colour-and-kind index 0..14 (Red king 0 .. Red pawn 6, Black king 7 .. Black pawn 13),
    /// the piece order of Zobrist tables and of BOOK.DAT.
    #[inline]
    pub const fn type_index(self) -> usize {
        (self.color() as usize) * 7 + self.kind() as usize
    }

    /// FEN letter: upper case for Red.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_piece() {
            write!(f, "{}{}", self.letter(), self.slot())
        } else if self.is_empty() {
            write!(f, ".")
        } else {
            write!(f, "#")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_match_kinds() {
        for kind in PieceKind::ALL {
            let (first, end) = kind.slots();
            assert_eq!((end - first) as usize, kind.max_count());
            for slot in first..end {
                for color in Color::BOTH {
                    let p = Piece::from_slot(color, slot);
                    assert_eq!(p.kind(), kind);
                    assert_eq!(p.color(), color);
                    assert!(p.is_piece() && p.is_color(color) && !p.is_color(color.opponent()));
                    assert!(!p.is_enterable_by(color) && p.is_enterable_by(color.opponent()));
                }
            }
        }
        assert!(Piece::EMPTY.is_enterable_by(Color::Red));
        assert!(!Piece::OFFBOARD.is_enterable_by(Color::Black));
        assert!(!Piece::OFFBOARD.is_piece() && !Piece::OFFBOARD.is_empty());
    }

    #[test]
    fn letters() {
        assert_eq!(PieceKind::from_letter('e'), Some(PieceKind::Elephant));
        assert_eq!(PieceKind::from_letter('H'), Some(PieceKind::Horse));
        assert_eq!(PieceKind::from_letter('x'), None);
        assert_eq!(Piece::from_slot(Color::Black, 7).letter(), 'r');
    }
}
