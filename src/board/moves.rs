//! `Move` and the fixed-capacity `MoveList`.

use arrayvec::ArrayVec;
use std::fmt;

use super::square::Square;

/// A move as two mailbox squares packed into 16 bits: `from | to << 8`.
///
/// This is also BOOK.DAT's move encoding, and it fits a transposition-table entry as is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// No move (both squares are the guard-band square 0).
    pub const NONE: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 8)
    }

    /// Rebuilds a move from its 16-bit packing (e.g. from a hash entry); may be `NONE` or garbage,
    /// so callers check it against the position.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The 16-bit packing.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index(self.0 as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 8) as u8)
    }

    /// Whether this is `Move::NONE`.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The same move on the board mirrored left to right.
    pub const fn mirror_files(self) -> Move {
        Move::new(self.from().mirror_files(), self.to().mirror_files())
    }

    /// The same move on the board flipped top to bottom.
    pub const fn flip_ranks(self) -> Move {
        Move::new(self.from().flip_ranks(), self.to().flip_ranks())
    }

    /// Parses ICCS coordinates without the dash (`h2e2`); also accepts `H2-E2`.
    /// Only the syntax is checked here; whether it is legal is the position's question.
    pub fn parse_iccs(text: &str) -> Option<Move> {
        let t: String = text.chars().filter(|&c| c != '-').collect();
        if t.len() != 4 || !t.is_ascii() {
            return None;
        }
        let from = Square::parse(&t[0..2])?;
        let to = Square::parse(&t[2..4])?;
        (from != to).then(|| Move::new(from, to))
    }
}

impl fmt::Display for Move {
    /// ICCS, lower case, no dash: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Capacity of a `MoveList`; no xiangqi position has this many pseudo-legal moves.
pub const MAX_MOVES: usize = 192;

/// A stack-allocated list of moves, as the generators fill it. Its storage is left
/// uninitialised until written: the search makes three lists a node, and zeroing them cost
/// about 1.5% of its time.
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList { moves: ArrayVec::new_const() }
    }

    /// Appends a move (a list past `MAX_MOVES` is a bug, and panics).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when no move was generated.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.moves.retain(|mv| keep(*mv));
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves as a mutable slice (for ordering in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip() {
        let mv = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(mv.to_string(), "h2e2");
        assert_eq!(Move::parse_iccs("H2-E2"), Some(mv));
        assert_eq!(Move::from_bits(mv.bits()), mv);
        assert_eq!(mv.mirror_files().to_string(), "b2e2");
        assert_eq!(mv.flip_ranks().to_string(), "h7e7");
        for bad in ["", "h2e", "h2e22", "z2e2", "h2e2x", "e2e2", "炮二平五"] {
            assert_eq!(Move::parse_iccs(bad), None, "{bad}");
        }
    }

    #[test]
    fn list_retain_keeps_order() {
        let mut list = MoveList::new();
        for m in ["a0a1", "b0b1", "c0c1"] {
            list.push(Move::parse_iccs(m).unwrap());
        }
        list.retain(|m| m.to_string() != "b0b1");
        let names: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["a0a1", "c0c1"]);
    }
}
