//! Positions of one signature numbered densely: `Layout` maps a placement and the side to move to
//! an index and back.
//!
//! Each piece is numbered by the squares it can ever stand on: a king's nine palace points, an
//! advisor's five, an elephant's seven, a pawn's fifty-five (its file's two squares on each of the
//! five starting files before the river, all forty-five past it), ninety for the others. Like
//! pieces of one side (two rooks, two advisors) are one group, numbered as a set of squares (the
//! combinatorial number system), so their order does not count twice. Placements with two pieces
//! on one square, or with the side not to move in check, are indices too: the generator marks
//! them as no position. One position costs one byte of table.

use crate::board::attacks::reachable;
use crate::board::{Color, PieceKind, Position, Square};

use super::signature::{Signature, WRITTEN_ORDER};

/// The most pieces a table holds (kings included).
pub const MAX_PIECES: usize = 16;

/// Binomial coefficients C(n, k) for n ≤ 90, k ≤ 5.
const fn binomials() -> [[u64; 6]; 91] {
    let mut c = [[0u64; 6]; 91];
    let mut n = 0;
    while n <= 90 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            c[n][k] = if n == 0 { 0 } else { c[n - 1][k - 1] + c[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    c
}

static BINOMIAL: [[u64; 6]; 91] = binomials();

/// Whether a `color` piece of `kind` can ever stand on `sq`; for a pawn, stricter than the FEN
/// reader's rule: before the river only on its own starting files.
pub fn can_stand(color: Color, kind: PieceKind, sq: Square) -> bool {
    if !sq.on_board() || !reachable(color, kind, sq) {
        return false;
    }
    kind != PieceKind::Pawn || !sq.on_home_side(color) || sq.file().is_multiple_of(2)
}

/// The squares a piece of one colour and kind may stand on, and each square's number among them.
#[derive(Clone)]
struct SquareList {
    squares: Vec<Square>,
    number: [u8; 256],
}

impl SquareList {
    fn new(color: Color, kind: PieceKind) -> SquareList {
        let squares: Vec<Square> = Square::all().filter(|&sq| can_stand(color, kind, sq)).collect();
        let mut number = [u8::MAX; 256];
        for (i, sq) in squares.iter().enumerate() {
            number[sq.index()] = i as u8;
        }
        SquareList { squares, number }
    }
}

/// Like pieces of one side: their squares are numbered as one set.
#[derive(Clone)]
struct Group {
    color: Color,
    kind: PieceKind,
    count: usize,
    /// The first of the group's slots in a placement.
    first: usize,
    list: SquareList,
    /// How many sets of `count` squares there are.
    size: u64,
}

/// The numbering of one signature's positions.
#[derive(Clone)]
pub struct Layout {
    signature: Signature,
    groups: Vec<Group>,
    pieces: usize,
    size: u64,
}

/// One position of a table: the square of each piece in the layout's slot order (Red's king,
/// Black's king, then each side's pieces in written order) and the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Squares by slot; only the first `Layout::pieces()` count.
    pub squares: [Square; MAX_PIECES],
    /// The side to move.
    pub side: Color,
}

impl Layout {
    /// The layout of `signature`.
    pub fn new(signature: Signature) -> Layout {
        let mut groups = Vec::new();
        let mut first = 0;
        let mut add = |color: Color, kind: PieceKind, count: usize| {
            if count > 0 {
                let list = SquareList::new(color, kind);
                let size = BINOMIAL[list.squares.len()][count];
                groups.push(Group { color, kind, count, first, list, size });
                first += count;
            }
        };
        add(Color::Red, PieceKind::King, 1);
        add(Color::Black, PieceKind::King, 1);
        for color in Color::BOTH {
            for kind in WRITTEN_ORDER {
                add(color, kind, signature.count(color, kind));
            }
        }
        let size = groups.iter().map(|g| g.size).product::<u64>() * 2;
        Layout { signature, groups, pieces: first, size }
    }

    /// The signature laid out.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// The number of indices (positions, counted with the impossible placements).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Pieces on the board, kings included.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The slots of the pieces of `color` and `kind` (empty when the signature has none).
    pub fn slots_of(&self, color: Color, kind: PieceKind) -> std::ops::Range<usize> {
        self.groups
            .iter()
            .find(|g| g.color == color && g.kind == kind)
            .map_or(0..0, |g| g.first..g.first + g.count)
    }

    /// Colour and kind of each slot, in slot order.
    pub fn slot_pieces(&self) -> Vec<(Color, PieceKind)> {
        self.groups.iter().flat_map(|g| std::iter::repeat_n((g.color, g.kind), g.count)).collect()
    }

    /// Whether a piece of slot `slot`'s group may stand on `sq`.
    pub fn slot_can_stand(&self, slot: usize, sq: Square) -> bool {
        self.groups
            .iter()
            .any(|g| slot >= g.first && slot < g.first + g.count && g.list.number[sq.index()] != u8::MAX)
    }

    /// The index of `placement`, or `None` when a piece stands where its kind never can.
    pub fn index(&self, placement: &Placement) -> Option<u64> {
        let mut index = 0u64;
        for g in &self.groups {
            let mut numbers = [0u8; 5];
            for (number, sq) in numbers.iter_mut().zip(&placement.squares[g.first..g.first + g.count]) {
                *number = g.list.number[sq.index()];
                if *number == u8::MAX {
                    return None;
                }
            }
            let numbers = &mut numbers[..g.count];
            numbers.sort_unstable();
            let rank: u64 = numbers.iter().enumerate().map(|(i, &n)| BINOMIAL[n as usize][i + 1]).sum();
            index = index * g.size + rank;
        }
        Some(index * 2 + placement.side.index() as u64)
    }

    /// The placement numbered `index` (which must be below `size`); like pieces come in
    /// ascending square number.
    pub fn placement(&self, index: u64) -> Placement {
        let side = if index.is_multiple_of(2) { Color::Red } else { Color::Black };
        let mut rest = index / 2;
        let mut squares = [Square::NONE; MAX_PIECES];
        for g in self.groups.iter().rev() {
            let mut rank = rest % g.size;
            rest /= g.size;
            let mut top = g.list.squares.len();
            for i in (1..=g.count).rev() {
                // The largest n with C(n, i) <= rank.
                let mut n = top - 1;
                while BINOMIAL[n][i] > rank {
                    n -= 1;
                }
                rank -= BINOMIAL[n][i];
                squares[g.first + i - 1] = g.list.squares[n];
                top = n;
            }
        }
        Placement { squares, side }
    }

    /// The position of `placement` (`None` when two pieces share a square); it may still be
    /// illegal (the side not to move in check).
    pub fn position(&self, placement: &Placement) -> Option<Position> {
        if self.overlaps(placement) {
            return None;
        }
        let mut pos = Position::empty();
        for (g, sq) in
            self.groups.iter().flat_map(|g| std::iter::repeat_n(g, g.count)).zip(&placement.squares)
        {
            pos.put(g.color, g.kind, *sq);
        }
        pos.set_side(placement.side);
        Some(pos)
    }

    /// Whether two pieces of `placement` share a square.
    pub fn overlaps(&self, placement: &Placement) -> bool {
        let squares = &placement.squares[..self.pieces];
        let mut seen = [false; 256];
        for sq in squares {
            if std::mem::replace(&mut seen[sq.index()], true) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_count_each_pieces_squares() {
        let layout = Layout::new("KRKAABB".parse().unwrap());
        // Kings 9 × 9, rook 90, two advisors C(5,2), two elephants C(7,2), two sides to move.
        assert_eq!(layout.size(), 81 * 90 * 10 * 21 * 2);
        assert_eq!(Layout::new("KPK".parse().unwrap()).size(), 81 * 55 * 2);
        assert_eq!(Layout::new("KK".parse().unwrap()).size(), 81 * 2);
    }

    #[test]
    fn every_index_comes_back_from_its_placement() {
        for (sig, like) in [("KRKAABB", 3), ("KPPKA", 2), ("KNCKB", 0)] {
            let layout = Layout::new(sig.parse().unwrap());
            let step = (layout.size() / 20_011).max(1);
            for index in (0..layout.size()).step_by(step as usize) {
                let p = layout.placement(index);
                assert_eq!(layout.index(&p), Some(index), "{sig} {index}");
                // Like pieces in either order name the same position.
                if like > 0 {
                    let mut swapped = p;
                    swapped.squares.swap(like, like + 1);
                    assert_eq!(layout.index(&swapped), Some(index), "{sig} {index} swapped");
                }
            }
        }
    }

    #[test]
    fn pieces_off_their_squares_have_no_index() {
        let layout = Layout::new("KPK".parse().unwrap());
        let mut p = layout.placement(0);
        // A Red pawn on b3 (its own side, not a starting file) can never stand there.
        p.squares[2] = Square::new(1, 3);
        assert_eq!(layout.index(&p), None);
        p.squares[2] = Square::new(1, 5);
        assert!(layout.index(&p).is_some());
    }
}
