//! `chariot eval [--fen FEN] [--moves …]`: the static evaluation explained piece by piece and
//! term by term, for both sides, with the tapered total from the side to move's view.

use std::io::Write;

use clap::Args;

use super::show::{piece_char, setup_position};
use super::CliError;
use crate::board::{Color, PieceKind, Position};
use crate::eval::{breakdown, Score};

/// Arguments of `chariot eval`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct EvalArgs {
    /// Position to evaluate, as one quoted argument (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, in ICCS, WXF or Chinese notation.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
}

fn signed(s: Score) -> String {
    format!("{:+}/{:+}", s.mg, s.eg)
}

/// Writes the breakdown of `pos`'s evaluation on `out`.
pub fn explain(pos: &Position, out: &mut impl Write) -> Result<(), CliError> {
    let b = breakdown(pos);
    writeln!(out, "Pieces (material + placement, owner's view, mg/eg):")?;
    let mut sums = [Score::ZERO; 2];
    for &(sq, letter, value) in &b.pieces {
        let color = if letter.is_ascii_uppercase() { Color::Red } else { Color::Black };
        let kind = PieceKind::from_letter(letter.to_ascii_uppercase())
            .ok_or_else(|| CliError(format!("unknown piece letter '{letter}' in the breakdown")))?;
        sums[color.index()] += value;
        writeln!(
            out,
            "  {sq} {letter} {} {:<5} {:<8} {}",
            piece_char(color, kind),
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
    Ok(())
}

/// Runs `chariot eval`.
pub fn run(args: &EvalArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = setup_position(args.fen.as_deref(), &args.moves)?;
    explain(&pos, out)?;
    out.flush()?;
    Ok(())
}
