//! The static evaluation explained, as `chariot eval` and the protocol's `eval` print it: the
//! classic evaluation piece by piece and term by term, for both sides, with the tapered total
//! from the side to move's view; a net's score and each piece's share of it (the score with the
//! piece on the board less the score with it taken off); each piece's attackers and protectors,
//! whether it hangs and what the exchange on its square wins (`relations`). The pieces are drawn
//! with notation's Chinese characters (notation rests on the board alone, so this makes no cycle).

use std::fmt::Write;

use crate::board::{Color, PieceKind, Position, Square};
use crate::notation::chinese::{piece_char, Script};

use super::classic::breakdown;
use super::nnue::{embedded, Network};
use super::relations::{relations, PieceRelations};
use super::Score;

fn signed(s: Score) -> String {
    format!("{:+}/{:+}", s.mg, s.eg)
}

/// A piece's letter as FEN writes it: upper case for Red.
fn letter(color: Color, kind: PieceKind) -> char {
    if color == Color::Red {
        kind.letter()
    } else {
        kind.letter().to_ascii_lowercase()
    }
}

/// One piece's line: square, letter, character, colour and kind.
fn piece_line(sq: Square, color: Color, kind: PieceKind) -> String {
    format!(
        "  {sq} {} {} {:<5} {:<8}",
        letter(color, kind),
        piece_char(color, kind, Script::Traditional),
        color.name(),
        kind.name()
    )
}

/// The classic evaluation of `pos` explained, one line after another (each ending in a newline).
pub fn classic_breakdown(pos: &Position) -> String {
    let b = breakdown(pos);
    // Writing into a String cannot fail.
    let mut out = String::new();
    let _ = writeln!(out, "Pieces (material + placement, owner's view, mg/eg):");
    let mut sums = [Score::ZERO; 2];
    for &(sq, _, value) in &b.pieces {
        let piece = pos.piece_at(sq);
        sums[piece.color().index()] += value;
        let _ = writeln!(out, "{} {}", piece_line(sq, piece.color(), piece.kind()), signed(value));
    }
    let _ = writeln!(out, "Terms (each side's own view, mg/eg):");
    let _ = writeln!(out, "  {:<22} {:>12} {:>12}", "term", "red", "black");
    let _ = writeln!(out, "  {:<22} {:>12} {:>12}", "pieces", signed(sums[0]), signed(sums[1]));
    let (red, black) = (b.terms[0].named(), b.terms[1].named());
    for ((name, r), (_, k)) in red.iter().zip(black.iter()) {
        let _ = writeln!(out, "  {name:<22} {:>12} {:>12}", signed(*r), signed(*k));
    }
    let totals = [sums[0] + b.terms[0].total(), sums[1] + b.terms[1].total()];
    let _ = writeln!(out, "  {:<22} {:>12} {:>12}", "sum", signed(totals[0]), signed(totals[1]));
    let _ = writeln!(out, "Phase: {}/{} (share of the middlegame values)", b.phase.0, b.phase.1);
    let side = pos.side_to_move();
    let _ =
        writeln!(out, "Total: {:+} ({} to move's view, tapered, with the tempo bonus)", b.total, side.name());
    out
}

/// Each piece but the kings with its share of the net's score, from its owner's view: the score
/// with it on the board less the score with it taken off, the side to move unchanged.
pub fn net_shares(net: &Network, pos: &Position) -> Vec<(Square, Color, PieceKind, i32)> {
    let pieces: Vec<(Color, PieceKind, Square)> = Square::all()
        .map(|sq| (sq, pos.piece_at(sq)))
        .filter(|(_, p)| p.is_piece())
        .map(|(sq, p)| (p.color(), p.kind(), sq))
        .collect();
    let side = pos.side_to_move();
    // The score from `owner`'s view of the board holding `board`.
    let view = |board: &[(Color, PieceKind, Square)], owner: Color| {
        let s = net.evaluate_pieces(board, side);
        if owner == side {
            s
        } else {
            -s
        }
    };
    let mut shares = Vec::new();
    for (i, &(color, kind, sq)) in pieces.iter().enumerate() {
        if kind == PieceKind::King {
            continue;
        }
        let mut without = pieces.clone();
        without.remove(i);
        shares.push((sq, color, kind, view(&pieces, color) - view(&without, color)));
    }
    shares
}

/// The net's score of `pos` and each piece's share of it, one line after another.
pub fn net_breakdown(net: &Network, pos: &Position) -> String {
    let mut out = String::new();
    let built_in = if embedded::is_built_in(net) { " (built in)" } else { "" };
    let _ = writeln!(out, "NNUE{built_in}: {}", net.arch());
    let _ = writeln!(out, "Piece shares (score with the piece less score without it, owner's view):");
    for (sq, color, kind, share) in net_shares(net, pos) {
        let _ = writeln!(out, "{} {share:+}", piece_line(sq, color, kind));
    }
    let side = pos.side_to_move();
    let _ = writeln!(out, "NNUE total: {:+} ({} to move's view)", net.evaluate(pos), side.name());
    out
}

/// The pieces on `squares` as `R e1, p e6`, or `nothing`.
fn named_squares(pos: &Position, squares: &[Square]) -> String {
    if squares.is_empty() {
        return "nothing".to_string();
    }
    let names: Vec<String> = squares.iter().map(|&s| format!("{} {s}", pos.piece_at(s).letter())).collect();
    names.join(", ")
}

/// What one piece's relations say: hangs, or what taking it would cost, or nothing.
fn verdict(r: &PieceRelations) -> String {
    match r.exchange {
        Some(gain) if gain > 0 => format!("; HANGS: taking it wins {gain}"),
        Some(gain) => format!("; taking it wins {gain}"),
        None => String::new(),
    }
}

/// Each piece's attackers and protectors, whether it hangs and what the exchange on its square
/// wins (classic middlegame material values), one line a piece.
pub fn relations_breakdown(pos: &Position) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Relations (who attacks and who protects each piece; it hangs when the other side wins \
         material by taking it):"
    );
    for r in relations(pos) {
        let (color, kind) = (r.piece.color(), r.piece.kind());
        let _ = writeln!(
            out,
            "{} attacked by {}; protected by {}{}",
            piece_line(r.square, color, kind),
            named_squares(pos, &r.attackers),
            named_squares(pos, &r.protectors),
            verdict(&r)
        );
    }
    out
}
