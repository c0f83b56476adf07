//! Piece-square indices: the place of each (relative type, reachable square) pair within a
//! block of `FEATURES_PER_BUCKET`, and how a perspective orients the board.
//!
//! Within the oriented board a piece is one of 14 *relative types* (own king … own pawn, their
//! king … their pawn) on one of the squares that type can ever reach (the rule the FEN reader
//! enforces: kings and advisors in their palace, elephants on their seven points, pawns from
//! their starting rank on): 354 squares per side, 708 slots.

use crate::board::attacks::reachable;
use crate::board::square::in_playing_area;
use crate::board::{Color, PieceKind, Square};

/// Features per king bucket: every (relative type, reachable square) pair.
pub const FEATURES_PER_BUCKET: usize = 708;

/// Most features one perspective can have on at once (32 pieces).
pub const MAX_ACTIVE: usize = 32;

/// The slot of relative type `relative` (0..14) on oriented square `sq`, or None where that
/// type can never stand.
#[inline]
pub(super) fn slot(relative: usize, sq: Square) -> Option<usize> {
    let slot = SLOTS[relative][square_90(sq)];
    (slot != UNREACHABLE).then_some(slot as usize)
}

/// The first slot of relative type `relative`: where an unreachable square maps.
#[inline]
pub(super) fn first_slot(relative: usize) -> usize {
    FIRST_SLOT[relative] as usize
}

/// `sq`'s number among the 90 playing squares, `file + 9 * rank`: the order feature slots and
/// the refresh cache's boards use.
#[inline]
pub(in crate::eval::nnue) fn square_90(sq: Square) -> usize {
    SQUARE_90[sq.index()] as usize
}

/// `sq` as `perspective` sees it: Black's view turns the board so that its pieces start at the bottom.
#[inline]
pub(super) fn orient(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_ranks(),
    }
}

/// A slot table's mark for a square the type can never reach.
const UNREACHABLE: u16 = u16::MAX;

/// For each relative type (own king … own pawn, their king … their pawn) and oriented square
/// `file + 9 * rank`, the feature's place in a bucket: types in that order, squares in that order.
const fn build_slots() -> [[u16; 90]; 14] {
    let mut slots = [[UNREACHABLE; 90]; 14];
    let mut next = 0u16;
    let mut relative = 0;
    while relative < 14 {
        let (kind, theirs) = (relative % 7, relative >= 7);
        let mut sq = 0;
        while sq < 90 {
            let (file, rank) = (sq % 9, sq / 9);
            // Their pieces start at the top of the oriented board: mirror the rank to test them.
            let red_rank = if theirs { 9 - rank } else { rank };
            if reachable(Color::Red, PieceKind::ALL[kind], Square::new(file as u8, red_rank as u8)) {
                slots[relative][sq] = next;
                next += 1;
            }
            sq += 1;
        }
        relative += 1;
    }
    assert!(next as usize == FEATURES_PER_BUCKET);
    slots
}

const fn build_first_slots() -> [u16; 14] {
    let mut first = [0u16; 14];
    let mut relative = 0;
    while relative < 14 {
        let mut sq = 0;
        while sq < 90 && SLOTS[relative][sq] == UNREACHABLE {
            sq += 1;
        }
        first[relative] = SLOTS[relative][sq];
        relative += 1;
    }
    first
}

/// Mailbox index to `file + 9 * rank` (0 off the board).
const fn build_square_90() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        if in_playing_area(i) {
            let (row, col) = (i / 16, i % 16);
            t[i] = ((col - 3) + 9 * (12 - row)) as u8;
        }
        i += 1;
    }
    t
}

static SLOTS: [[u16; 90]; 14] = build_slots();
static FIRST_SLOT: [u16; 14] = build_first_slots();
static SQUARE_90: [u8; 256] = build_square_90();
