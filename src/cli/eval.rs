//! `chariot eval [--fen FEN] [--moves …] [--evalfile NET | --classic]`: the static evaluation
//! explained piece by piece and term by term, for both sides, with the tapered total from the side
//! to move's view; then the net's score (the built-in net's, or `--evalfile`'s; none with
//! `--classic`) and each piece's share of it (the score with the piece on the board less the
//! score with it taken off). The text is `eval::explain`'s, which the protocol's `eval` prints
//! too.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use super::common::{setup_position, MoveText};
use crate::board::Position;
use crate::eval::nnue::Network;
use crate::eval::{explain, EvalChoice};

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
}

/// Writes the breakdown of `pos`'s classic evaluation on `out`.
pub fn explain(pos: &Position, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", explain::classic_breakdown(pos))?;
    Ok(())
}

/// Writes the net's score of `pos` and each piece's share of it on `out`.
pub fn explain_net(net: &Network, pos: &Position, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", explain::net_breakdown(net, pos))?;
    Ok(())
}

/// Runs `chariot eval`.
pub fn run(args: &EvalArgs, out: &mut impl Write) -> Result<()> {
    let net = match args.eval.choice()? {
        EvalChoice::Nnue(net) => Some(net),
        EvalChoice::Classic => None,
    };
    let pos = setup_position(args.fen.as_deref(), &args.moves, MoveText::AnyNotation)?;
    explain(&pos, out)?;
    if let Some(net) = net {
        explain_net(&net, &pos, out)?;
    }
    out.flush()?;
    Ok(())
}
