//! Who attacks and who protects each piece, whether it hangs, and what the exchange on its
//! square wins: the relations the evaluation article builds on, for `chariot eval`, the web
//! board's Evaluate and `annotate`'s comments. It explains; no score depends on it.
//!
//! A piece *attacks* an enemy piece, or *protects* one of its own, when it could capture on
//! that square if an enemy stood there (`attacks::capture_targets`, the same geometry as the
//! net's relation inputs: horse legs, elephant eyes, cannon screens, palaces, the river). One
//! relation more comes from the facing-kings rule: a king protects a piece of its own standing
//! in the other palace on its open file, since the other king may not take it there and face
//! it. A piece *hangs* when the other side, were it to move, wins material by capturing it
//! (`exchange::threat_on` above zero, legal moves only): it is attacked and not protected, or
//! attacked by something cheaper.

pub mod exchange;
pub mod json;

use crate::board::attacks::{self, capture_targets, delta};
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};

/// One piece and its relations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceRelations {
    /// Where it stands.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// The enemy pieces that attack it.
    pub attackers: Vec<Square>,
    /// The pieces of its own side that protect it.
    pub protectors: Vec<Square>,
    /// What the other side wins by capturing here first (`None`: it has no legal capture here;
    /// never computed for the kings, whose attackers give check).
    pub exchange: Option<i32>,
}

impl PieceRelations {
    /// Whether the other side wins material by taking it.
    pub fn hangs(&self) -> bool {
        self.exchange.is_some_and(|gain| gain > 0)
    }
}

/// The pieces on the board, Red's then Black's, each in square order.
fn pieces(pos: &Position) -> Vec<(Square, Piece)> {
    let mut out: Vec<(Square, Piece)> =
        Square::all().map(|sq| (sq, pos.piece_at(sq))).filter(|(_, p)| p.is_piece()).collect();
    out.sort_by_key(|&(sq, p)| (p.color().index(), sq.index()));
    out
}

/// The square a king of `color` on `king` protects by the facing-kings rule, if any: the first
/// piece up its file toward the other side, when it is its own and stands in the other palace.
fn facing_protection(pos: &Position, color: Color, king: Square) -> Option<Square> {
    let d = if color == Color::Red { delta::UP } else { delta::DOWN };
    let first = attacks::first_blocker(pos.mailbox(), king, d);
    let p = pos.piece_at(first);
    (p.is_color(color) && first.in_palace(color.opponent())).then_some(first)
}

/// Every piece of `pos` with its attackers, protectors and exchange.
pub fn relations(pos: &Position) -> Vec<PieceRelations> {
    let board = pos.mailbox();
    let mut out: Vec<PieceRelations> = pieces(pos)
        .into_iter()
        .map(|(square, piece)| PieceRelations {
            square,
            piece,
            attackers: Vec::new(),
            protectors: Vec::new(),
            exchange: None,
        })
        .collect();
    let at = |out: &[PieceRelations], sq: Square| out.iter().position(|r| r.square == sq);
    for i in 0..out.len() {
        let (from, piece) = (out[i].square, out[i].piece);
        let mut targets = Vec::new();
        capture_targets(board, from, |_, to| targets.push(to));
        if piece.kind() == PieceKind::King {
            targets.extend(facing_protection(pos, piece.color(), from));
        }
        for to in targets {
            if let Some(j) = at(&out, to) {
                if out[j].piece.color() == piece.color() {
                    out[j].protectors.push(from);
                } else {
                    out[j].attackers.push(from);
                }
            }
        }
    }
    let mut scratch = pos.clone();
    for r in &mut out {
        if r.piece.kind() != PieceKind::King && !r.attackers.is_empty() {
            r.exchange = exchange::threat_on(&mut scratch, r.square, r.piece.color());
        }
    }
    for r in &mut out {
        r.attackers.sort_by_key(|s| s.index());
        r.protectors.sort_by_key(|s| s.index());
    }
    out
}

/// What a move does to the material on the board, as `annotate` comments it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// The piece captured and what the exchange it starts wins, when it wins something.
    pub wins: Option<(Square, Piece, i32)>,
    /// The mover's pieces that hang after the move, with what taking each wins (the piece
    /// that just captured is left out when its exchange wins or breaks even: that is counted).
    pub leaves_hanging: Vec<(Square, Piece, i32)>,
}

/// What the legal move `mv` does in `pos`: the material it wins by a capture, and the pieces it
/// leaves hanging.
pub fn move_effect(pos: &Position, mv: Move) -> MoveEffect {
    let mut scratch = pos.clone();
    let victim = pos.piece_at(mv.to());
    let mut effect = MoveEffect::default();
    let mut exchange_holds = false;
    if victim.is_piece() {
        let gain = exchange::capture_gain(&mut scratch, mv);
        exchange_holds = gain >= 0;
        if gain > 0 {
            effect.wins = Some((mv.to(), victim, gain));
        }
    }
    let mover = pos.side_to_move();
    scratch.make_move(mv);
    for r in relations(&scratch) {
        if r.piece.color() != mover || !r.hangs() || (exchange_holds && r.square == mv.to()) {
            continue;
        }
        effect.leaves_hanging.push((r.square, r.piece, r.exchange.unwrap_or(0)));
    }
    effect
}

#[cfg(test)]
mod tests;
