//! Relation inputs: which piece attacks which, and which protects which.
//!
//! A *relation* is a piece and an occupied square it could capture on if an enemy stood there
//! (`attacks::capture_targets`): an attack when the piece there is the other side's, a
//! protection when it is its own. A net with relation inputs has, besides its piece-square
//! features, one input per (attacker's relative type, victim's relative type and square) for
//! each perspective, switched on once per relation (two rooks on one victim count twice). This
//! is what the leaders' "threat" inputs see: a hanging piece, a pinned defender, a double attack.
//!
//! Relations change all over the board when one piece moves (a slider's line opens, a horse's
//! leg is freed), so they are not replayed move by move. A position's relations are kept in a
//! table with a place for each piece (by its slot in its side's piece list, which a piece keeps
//! as it moves) and each of its directions (`attacks::capture_targets`). Two positions' tables
//! differ only where some piece's target changed, and comparing them is a pass over 512 bytes:
//! the accumulator applies the difference between a computed ply's table and the current one,
//! a handful of columns for most moves.

use super::piece_squares::FEATURES_PER_BUCKET;
use crate::board::attacks::{capture_targets, MAX_TARGETS};
use crate::board::mailbox::Mailbox;
use crate::board::{Color, Piece, PieceKind, Position, Square};

/// Most relations a position can hold. Per side: two rooks and two cannons with four lines each,
/// two horses with eight steps, two elephants, two advisors and the king with four each, five
/// pawns with three: 67; both sides 134. (The FEN reader allows no more pieces than that.)
pub const MAX_RELATIONS: usize = 134;

/// Relation inputs per perspective: 14 attacker types × the 708 (victim type, square) slots.
pub const RELATION_FEATURES: usize = 14 * FEATURES_PER_BUCKET;

/// One relation, packed so that sorting is sorting numbers: the attacker's colour-and-kind
/// index (`Piece::type_index`, 0..14) in bits 12–15, the victim's in bits 8–11, the victim's
/// square (mailbox index) in bits 0–7.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Relation(u16);

impl Relation {
    /// The piece `attacker` attacks or protects `victim` on `square`.
    pub fn new(attacker: (Color, PieceKind), victim: (Color, PieceKind), square: Square) -> Relation {
        let code = |(c, k): (Color, PieceKind)| (c.index() * 7 + k.index()) as u16;
        Relation(code(attacker) << 12 | code(victim) << 8 | square.index() as u16)
    }

    /// The colour and kind of the piece that attacks or protects.
    #[inline]
    pub fn attacker(self) -> (Color, PieceKind) {
        decode(self.0 >> 12)
    }

    /// The colour and kind of the piece attacked or protected.
    #[inline]
    pub fn victim(self) -> (Color, PieceKind) {
        decode((self.0 >> 8) & 15)
    }

    /// Where the piece attacked or protected stands.
    #[inline]
    pub fn square(self) -> Square {
        Square::from_index(self.0 as u8)
    }
}

#[inline]
fn decode(code: u16) -> (Color, PieceKind) {
    (Color::BOTH[code as usize / 7], PieceKind::ALL[code as usize % 7])
}

/// Which way a relation changed between two tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Delta {
    /// In the older table, not the newer.
    Removed,
    /// In the newer table, not the older.
    Added,
}

/// Places in a table: 16 piece slots per side, `MAX_TARGETS` directions each.
const PLACES: usize = 2 * 16 * MAX_TARGETS;

/// A position's relations, each at its attacker's place: `2 · 16 · 8` entries, the attacker's
/// colour, its slot in the piece list and the direction it found the victim in; 0 where there is
/// no relation (a packed relation is never 0: its square is a playing square).
#[derive(Clone)]
pub struct Relations {
    entries: [u16; PLACES],
}

impl Relations {
    /// No relations (a board without pieces).
    pub const EMPTY: Relations = Relations { entries: [0; PLACES] };

    /// The relations of `pos`.
    pub fn of_position(pos: &Position) -> Relations {
        let mut out = Relations::EMPTY;
        out.set_to(pos);
        out
    }

    /// Makes this table `pos`'s relations, in place (the search's tables are reused, not rebuilt).
    pub fn set_to(&mut self, pos: &Position) {
        self.entries = [0; PLACES];
        let board = pos.mailbox();
        for color in Color::BOTH {
            for slot in 0..16u8 {
                let from = pos.slot_square(color, slot);
                if from != Square::NONE {
                    self.add_piece(board, (color.index() * 16 + slot as usize) * MAX_TARGETS, from);
                }
            }
        }
    }

    /// The relations of the board holding `pieces` (colour, kind, square) and nothing else, at
    /// most 16 a side (the rest are left out).
    pub fn of_pieces(pieces: impl IntoIterator<Item = (Color, PieceKind, Square)>) -> Relations {
        let mut board = Mailbox::empty();
        let mut squares = [[Square::NONE; 16]; 2];
        let mut count = [0; 2];
        for (color, kind, sq) in pieces {
            let c = color.index();
            if count[c] < 16 {
                board[sq] = Piece::from_slot(color, kind.slots().0);
                squares[c][count[c]] = sq;
                count[c] += 1;
            }
        }
        let mut out = Relations::EMPTY;
        for (c, squares) in squares.iter().enumerate() {
            for (slot, &from) in squares[..count[c]].iter().enumerate() {
                out.add_piece(&board, (c * 16 + slot) * MAX_TARGETS, from);
            }
        }
        out
    }

    /// Writes the relations of the piece on `from` at `place` and the directions after it.
    #[inline]
    fn add_piece(&mut self, board: &Mailbox, place: usize, from: Square) {
        let attacker = board[from];
        let attacker = (attacker.color(), attacker.kind());
        let entries = &mut self.entries[place..place + MAX_TARGETS];
        capture_targets(board, from, |direction, to| {
            let victim = board[to];
            entries[direction] = Relation::new(attacker, (victim.color(), victim.kind()), to).0;
        });
    }

    /// The relations, in table order.
    pub fn iter(&self) -> impl Iterator<Item = Relation> + '_ {
        self.entries.iter().filter(|&&e| e != 0).map(|&e| Relation(e))
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.entries.iter().filter(|&&e| e != 0).count()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What changes from `self` to `newer`, place by place: `visit` is called with each
    /// relation `self` holds where `newer` holds another or none (`Delta::Removed`), and each
    /// `newer` holds where `self` held another or none (`Delta::Added`). Compared four entries
    /// at a time (measured: fewer instructions than 16 at a time): most places of two nearby
    /// positions are equal.
    #[inline]
    pub fn diff(&self, newer: &Relations, mut visit: impl FnMut(Relation, Delta)) {
        for (old, new) in self.entries.chunks_exact(4).zip(newer.entries.chunks_exact(4)) {
            let word =
                |e: &[u16]| e[0] as u64 | (e[1] as u64) << 16 | (e[2] as u64) << 32 | (e[3] as u64) << 48;
            if word(old) == word(new) {
                continue;
            }
            for j in 0..4 {
                let (o, n) = (old[j], new[j]);
                if o != n {
                    if o != 0 {
                        visit(Relation(o), Delta::Removed);
                    }
                    if n != 0 {
                        visit(Relation(n), Delta::Added);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;
    use rand::{Rng, SeedableRng};

    fn relations(fen: &str) -> Vec<(String, String, String)> {
        let pos = Position::from_fen(fen).unwrap();
        let name = |(c, k): (Color, PieceKind)| format!("{} {}", c.name(), k.name());
        Relations::of_position(&pos)
            .iter()
            .map(|r| (name(r.attacker()), name(r.victim()), r.square().to_string()))
            .collect()
    }

    fn triple(a: &str, v: &str, sq: &str) -> (String, String, String) {
        (a.to_string(), v.to_string(), sq.to_string())
    }

    #[test]
    fn a_small_position_by_hand() {
        // The red rook on a0 attacks the black horse up its file and protects its king along the
        // rank; nothing else stands where a piece could take it.
        let mut got = relations("2bk5/9/9/9/n8/9/9/9/9/R3K4 w - - 0 1");
        got.sort();
        assert_eq!(got, vec![triple("red rook", "black horse", "a5"), triple("red rook", "red king", "e0")]);
    }

    #[test]
    fn the_start_position_has_sixteen() {
        let mut red: Vec<_> =
            relations(crate::board::START_FEN).into_iter().filter(|r| r.0.starts_with("red")).collect();
        red.sort();
        let mut expected = vec![
            triple("red rook", "red pawn", "a3"),
            triple("red rook", "red horse", "b0"),
            triple("red rook", "red pawn", "i3"),
            triple("red rook", "red horse", "h0"),
            triple("red king", "red advisor", "d0"),
            triple("red king", "red advisor", "f0"),
            // Each cannon, screened by the other side's cannon, attacks the horse behind it.
            triple("red cannon", "black horse", "b9"),
            triple("red cannon", "black horse", "h9"),
        ];
        expected.sort();
        assert_eq!(red, expected);
        assert_eq!(Relations::of_position(&Position::startpos()).len(), 16);
    }

    #[test]
    fn the_bound_is_never_passed_and_both_builders_agree() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut most = 0;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let moves = movegen::legal_moves(&mut pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
                let from_position = Relations::of_position(&pos);
                let mut pieces = Vec::new();
                for c in Color::BOTH {
                    for k in PieceKind::ALL {
                        pieces.extend(pos.pieces(c, k).map(|s| (c, k, s)));
                    }
                }
                let from_pieces = Relations::of_pieces(pieces);
                let sorted = |r: &Relations| {
                    let mut v: Vec<Relation> = r.iter().collect();
                    v.sort_unstable();
                    v
                };
                assert_eq!(sorted(&from_position), sorted(&from_pieces));
                most = most.max(from_position.len());
            }
        }
        assert!(most > 20 && most < MAX_RELATIONS, "{most}");
    }

    #[test]
    fn the_difference_turns_one_list_into_the_other() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let mut pos = Position::startpos();
        let mut before = Relations::of_position(&pos);
        let mut changes = 0;
        for _ in 0..300 {
            let moves = movegen::legal_moves(&mut pos);
            if moves.is_empty() {
                pos = Position::startpos();
                before = Relations::of_position(&pos);
                continue;
            }
            pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
            let after = Relations::of_position(&pos);
            let mut list: Vec<Relation> = before.iter().collect();
            before.diff(&after, |r, delta| match delta {
                Delta::Removed => {
                    let at = list.iter().position(|&x| x == r).expect("removes only what is there");
                    list.remove(at);
                }
                Delta::Added => list.push(r),
            });
            list.sort_unstable();
            let mut expected: Vec<Relation> = after.iter().collect();
            expected.sort_unstable();
            assert_eq!(list, expected);
            changes += before.len().abs_diff(after.len());
            before = after;
        }
        assert!(changes > 0);
    }

    #[test]
    fn packing_round_trips() {
        for sq in Square::all() {
            for a in Color::BOTH.into_iter().flat_map(|c| PieceKind::ALL.map(|k| (c, k))) {
                let v = (a.0.opponent(), PieceKind::ALL[(a.1.index() + 3) % 7]);
                for (a, v) in [(a, v), (v, a), (a, a)] {
                    let r = Relation::new(a, v, sq);
                    assert_eq!((r.attacker(), r.victim(), r.square()), (a, v, sq));
                }
            }
        }
    }
}
