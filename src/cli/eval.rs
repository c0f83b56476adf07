//! `chariot eval [--fen FEN] [--moves …] [--evalfile NET | --classic]`: the static evaluation
//! explained piece by piece and term by term, for both sides, with the tapered total from the side
//! to move's view; then the net's score (the built-in net's, or `--evalfile`'s; none with
//! `--classic`) and each piece's share of it (the score with the piece on the board less the
//! score with it taken off); then each piece's attackers and protectors, whether it hangs and
//! what the exchange on its square wins. The text is `eval::explain`'s, which the protocol's
//! `eval` prints too (the relations apart).

use std::io::Write;

use anyhow::Result;
use clap::Args;

use super::common::{put_shown_score, setup_position, shown_score_text, tablebases, view_text, wdl_text};
use crate::board::Position;
use crate::eval::nnue::Network;
use crate::eval::relations::json::relations_json;
use crate::eval::{explain, EvalChoice};
use crate::search::score_scale::ScoreScale;
use crate::winrate::WinRateModel;

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
    pub eval: super::eval_source::EvalSource,
    /// One JSON object: each evaluation's internal and normalised score with win/draw/loss, and
    /// each piece's relations (square, attackers' and protectors' squares, hangs, exchange).
    #[arg(long)]
    pub json: bool,
    /// A folder of endgame tables: a position they hold gets the table's verdict too.
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
}

/// `score` of `eval` at `pos` said for people: normalised, with whose view and the chances.
fn normalised_line(model: WinRateModel, pos: &Position, score: i32) -> String {
    let scale = ScoreScale::new(model, pos);
    format!(
        "{} normalised ({}; +100 is a 50% chance to win): {}",
        shown_score_text(&scale, score),
        view_text(pos.side_to_move()),
        wdl_text(scale.wdl(score))
    )
}

/// `score` of `eval` at `pos` as a JSON object: internal units, normalised score and chances.
fn score_json(model: WinRateModel, pos: &Position, score: i32) -> serde_json::Value {
    let mut obj = serde_json::Map::new();
    obj.insert("internal".into(), serde_json::json!(score));
    put_shown_score(&mut obj, &ScoreScale::new(model, pos), score, pos.side_to_move());
    serde_json::Value::Object(obj)
}

/// Writes the breakdown of `pos`'s classic evaluation on `out`.
pub fn explain(pos: &Position, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", explain::classic_breakdown(pos))?;
    let total = crate::eval::classic::breakdown(pos).total;
    writeln!(out, "Normalised: {}", normalised_line(EvalChoice::Classic.win_rate(), pos, total))?;
    Ok(())
}

/// Writes the net's score of `pos` and each piece's share of it on `out`.
pub fn explain_net(net: &Network, pos: &Position, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", explain::net_breakdown(net, pos))?;
    let total = net.evaluate(pos);
    writeln!(out, "Normalised: {}", normalised_line(*net.win_rate(), pos, total))?;
    Ok(())
}

/// Runs `chariot eval`.
pub fn run(args: &EvalArgs, out: &mut impl Write) -> Result<()> {
    let net = match args.eval.choice()? {
        EvalChoice::Nnue(net) => Some(net),
        EvalChoice::Classic => None,
    };
    let pos = setup_position(args.fen.as_deref(), &args.moves)?;
    let verdict = tablebases(args.egtb.as_deref())?.0.and_then(|t| t.probe(&pos));
    if args.json {
        let mut obj = serde_json::Map::new();
        obj.insert("fen".into(), serde_json::json!(pos.to_fen()));
        let classic = crate::eval::classic::evaluate(&pos);
        obj.insert("classic".into(), score_json(EvalChoice::Classic.win_rate(), &pos, classic));
        if let Some(net) = &net {
            obj.insert("nnue".into(), score_json(*net.win_rate(), &pos, net.evaluate(&pos)));
        }
        obj.insert("relations".into(), relations_json(&pos));
        if let Some(v) = verdict {
            obj.insert("tablebase".into(), serde_json::json!(v.to_string()));
        }
        writeln!(out, "{}", serde_json::Value::Object(obj))?;
        out.flush()?;
        return Ok(());
    }
    explain(&pos, out)?;
    if let Some(net) = net {
        explain_net(&net, &pos, out)?;
    }
    write!(out, "{}", explain::relations_breakdown(&pos))?;
    if let Some(v) = verdict {
        writeln!(out, "tablebase: {v} ({} to move)", crate::egtb::verify::side_name(&pos))?;
    }
    out.flush()?;
    Ok(())
}
