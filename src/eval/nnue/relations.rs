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
//! leg is freed), so they are not replayed move by move like the piece features: the
//! accumulator keeps the sorted list of each computed ply and applies the difference between
//! two lists (`Relations::diff`), a handful of columns for most moves.

use super::features::FEATURES_PER_BUCKET;
use crate::board::attacks::capture_targets;
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

/// Which way a relation changed between two lists.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Delta {
    /// In the older list, not the newer.
    Removed,
    /// In the newer list, not the older.
    Added,
}

/// A position's relations, sorted.
#[derive(Clone)]
pub struct Relations {
    len: u8,
    items: [Relation; MAX_RELATIONS],
}

impl Relations {
    /// No relations (a board without pieces).
    pub const EMPTY: Relations = Relations { len: 0, items: [Relation(0); MAX_RELATIONS] };

    /// The relations of `pos`.
    pub fn of_position(pos: &Position) -> Relations {
        let mut out = Relations::EMPTY;
        out.set_to(pos);
        out
    }

    /// Makes this list `pos`'s relations, in place (the search's lists are reused, not rebuilt).
    pub fn set_to(&mut self, pos: &Position) {
        let board = pos.mailbox();
        let squares = Color::BOTH
            .into_iter()
            .flat_map(|c| PieceKind::ALL.into_iter().flat_map(move |k| pos.pieces(c, k)));
        self.fill(board, squares);
    }

    /// The relations of the board holding `pieces` (colour, kind, square) and nothing else.
    pub fn of_pieces(pieces: impl IntoIterator<Item = (Color, PieceKind, Square)>) -> Relations {
        let mut board = Mailbox::empty();
        let mut squares = Vec::with_capacity(32);
        for (color, kind, sq) in pieces {
            board[sq] = Piece::from_slot(color, kind.slots().0);
            squares.push(sq);
        }
        let mut out = Relations::EMPTY;
        out.fill(&board, squares.into_iter());
        out
    }

    fn fill(&mut self, board: &Mailbox, squares: impl Iterator<Item = Square>) {
        let out = self;
        let mut len = 0;
        for from in squares {
            let attacker = board[from];
            let attacker = (attacker.color(), attacker.kind());
            capture_targets(board, from, |to| {
                // More than MAX_RELATIONS needs more pieces than a position may have; dropping
                // the excess keeps a malformed board harmless.
                if len < MAX_RELATIONS {
                    let victim = board[to];
                    out.items[len] = Relation::new(attacker, (victim.color(), victim.kind()), to);
                    len += 1;
                }
            });
        }
        out.items[..len].sort_unstable();
        out.len = len as u8;
    }

    /// The relations, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Relation] {
        &self.items[..self.len as usize]
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What changes from `self` to `newer`: `visit` is called with each relation `self` has more
    /// often than `newer` (`Delta::Removed`) and each `newer` has more often (`Delta::Added`).
    #[inline]
    pub fn diff(&self, newer: &Relations, mut visit: impl FnMut(Relation, Delta)) {
        let (old, new) = (self.as_slice(), newer.as_slice());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < new.len() {
            match old[i].cmp(&new[j]) {
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => {
                    visit(old[i], Delta::Removed);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    visit(new[j], Delta::Added);
                    j += 1;
                }
            }
        }
        old[i..].iter().for_each(|&r| visit(r, Delta::Removed));
        new[j..].iter().for_each(|&r| visit(r, Delta::Added));
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
            .as_slice()
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
                assert_eq!(from_position.as_slice(), from_pieces.as_slice());
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
            let mut list: Vec<Relation> = before.as_slice().to_vec();
            before.diff(&after, |r, delta| match delta {
                Delta::Removed => {
                    let at = list.iter().position(|&x| x == r).expect("removes only what is there");
                    list.remove(at);
                }
                Delta::Added => list.push(r),
            });
            list.sort_unstable();
            assert_eq!(list, after.as_slice());
            changes += before.as_slice().len().abs_diff(after.len());
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
