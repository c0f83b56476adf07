//! `chariot eval [--fen FEN] [--moves …] [--evalfile NET | --classic]`: the static evaluation
//! explained piece by piece and term by term, for both sides, with the tapered total from the side
//! to move's view; then the net's score (the built-in net's, or `--evalfile`'s; none with
//! `--classic`) and each piece's share of it (the score with the piece on the board less the
//! score with it taken off).

use std::io::Write;

use anyhow::{anyhow, Result};
use clap::Args;

use super::common::{put_shown_score, setup_position, shown_score_text, view_text, wdl_text, MoveText};
use crate::board::{Color, PieceKind, Position, Square};
use crate::eval::classic::breakdown;
use crate::eval::nnue::Network;
use crate::eval::{EvalChoice, Score};
use crate::notation::chinese::{piece_char, Script};
use crate::search::score_scale::ScoreScale;
use std::sync::Arc;

/// Arguments of `chariot eval`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct EvalArgs {
    /// Position to evaluate, as one quoted argument (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, in ICCS, WXF or Chinese notation.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// The net whose score and pieces' shares follow the classic breakdown: the built-in one,
    /// `--evalfile NET`, or none with `--classic`.
    #[command(flatten)]
    pub eval: super::nnue::EvalSource,
    /// One JSON object: each evaluation's internal and normalised score with win/draw/loss.
    #[arg(long)]
    pub json: bool,
}

/// `score` of `eval` at `pos` said for people: normalised, with whose view and the chances.
fn normalised_line(eval: &EvalChoice, pos: &Position, score: i32) -> String {
    let scale = ScoreScale::of(eval, pos);
    format!(
        "{} normalised ({}; +100 is a 50% chance to win): {}",
        shown_score_text(&scale, score),
        view_text(pos.side_to_move()),
        wdl_text(scale.wdl(score))
    )
}

/// `score` of `eval` at `pos` as a JSON object: internal units, normalised score and chances.
fn score_json(eval: &EvalChoice, pos: &Position, score: i32) -> serde_json::Value {
    let mut obj = serde_json::Map::new();
    obj.insert("internal".into(), serde_json::json!(score));
    put_shown_score(&mut obj, &ScoreScale::of(eval, pos), score, pos.side_to_move());
    serde_json::Value::Object(obj)
}

fn signed(s: Score) -> String {
    format!("{:+}/{:+}", s.mg, s.eg)
}

/// Writes the breakdown of `pos`'s evaluation on `out`.
pub fn explain(pos: &Position, out: &mut impl Write) -> Result<()> {
    let b = breakdown(pos);
    writeln!(out, "Pieces (material + placement, owner's view, mg/eg):")?;
    let mut sums = [Score::ZERO; 2];
    for &(sq, letter, value) in &b.pieces {
        let color = if letter.is_ascii_uppercase() { Color::Red } else { Color::Black };
        let kind = PieceKind::from_letter(letter.to_ascii_uppercase())
            .ok_or_else(|| anyhow!("unknown piece letter '{letter}' in the breakdown"))?;
        sums[color.index()] += value;
        writeln!(
            out,
            "  {sq} {letter} {} {:<5} {:<8} {}",
            piece_char(color, kind, Script::Traditional),
            color.name(),
            kind.name(),
            signed(value)
        )?;
    }
    writeln!(out, "Terms (each side's own view, mg/eg):")?;
    writeln!(out, "  {:<22} {:>12} {:>12}", "term", "red", "black")?;
    writeln!(out, "  {:<22} {:>12} {:>12}", "pieces", signed(sums[0]), signed(sums[1]))?;
    let (red, black) = (b.terms[0].named(), b.terms[1].named());
    for ((name, r), (_, k)) in red.iter().zip(black.iter()) {
        writeln!(out, "  {name:<22} {:>12} {:>12}", signed(*r), signed(*k))?;
    }
    let totals = [sums[0] + b.terms[0].total(), sums[1] + b.terms[1].total()];
    writeln!(out, "  {:<22} {:>12} {:>12}", "sum", signed(totals[0]), signed(totals[1]))?;
    writeln!(out, "Phase: {}/{} (share of the middlegame values)", b.phase.0, b.phase.1)?;
    let side = pos.side_to_move();
    writeln!(out, "Total: {:+} ({} to move's view, tapered, with the tempo bonus)", b.total, side.name())?;
    writeln!(out, "Normalised: {}", normalised_line(&EvalChoice::Classic, pos, b.total))?;
    Ok(())
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

/// Writes the net's score of `pos` and each piece's share of it on `out`.
pub fn explain_net(net: &Network, pos: &Position, out: &mut impl Write) -> Result<()> {
    let built_in = if crate::eval::nnue::embedded::is_built_in(net) { " (built in)" } else { "" };
    writeln!(out, "NNUE{built_in}: {}", net.arch())?;
    writeln!(out, "Piece shares (score with the piece less score without it, owner's view):")?;
    for (sq, color, kind, share) in net_shares(net, pos) {
        let letter = if color == Color::Red { kind.letter() } else { kind.letter().to_ascii_lowercase() };
        writeln!(
            out,
            "  {sq} {letter} {} {:<5} {:<8} {share:+}",
            piece_char(color, kind, Script::Traditional),
            color.name(),
            kind.name()
        )?;
    }
    let side = pos.side_to_move();
    let total = net.evaluate(pos);
    writeln!(out, "NNUE total: {total:+} ({} to move's view)", side.name())?;
    writeln!(out, "Normalised: {}", normalised_line(&EvalChoice::Nnue(Arc::new(net.clone())), pos, total))?;
    Ok(())
}

/// Runs `chariot eval`.
pub fn run(args: &EvalArgs, out: &mut impl Write) -> Result<()> {
    let net = match args.eval.choice()? {
        EvalChoice::Nnue(net) => Some(net),
        EvalChoice::Classic => None,
    };
    let pos = setup_position(args.fen.as_deref(), &args.moves, MoveText::AnyNotation)?;
    if args.json {
        let mut obj = serde_json::Map::new();
        obj.insert("fen".into(), serde_json::json!(pos.to_fen()));
        let classic = crate::eval::classic::evaluate(&pos);
        obj.insert("classic".into(), score_json(&EvalChoice::Classic, &pos, classic));
        if let Some(net) = &net {
            obj.insert("nnue".into(), score_json(&EvalChoice::Nnue(net.clone()), &pos, net.evaluate(&pos)));
        }
        writeln!(out, "{}", serde_json::Value::Object(obj))?;
        out.flush()?;
        return Ok(());
    }
    explain(&pos, out)?;
    if let Some(net) = net {
        explain_net(&net, &pos, out)?;
    }
    out.flush()?;
    Ok(())
}
