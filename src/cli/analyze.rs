//! `chariot analyze [--fen FEN | --startpos] [--moves …] [--depth D | --movetime MS | --nodes N]
//! [--multipv K] [--threads N] [--hash MB] [--evalfile NET | --classic] [--json]`: searches
//! positions and prints each iteration. `--fen -` reads one FEN per line from stdin and answers each.

use std::io::{BufRead, Write};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::{json, Value};

use super::common::{put_shown_score, setup_position, shown_score_text, tablebases, view_text, wdl_text};
use crate::board::{Move, Position};
use crate::notation::{format_line, MoveNotation};
use crate::protocol::input::{read_line, MAX_LINE_BYTES};
use crate::quote::quoted;
use crate::search::score_scale::ScoreScale;
use crate::search::{Engine, Info, IterationInfo, Limits, ScoreBound, SearchControl};

/// Depth searched when no limit is given.
pub const DEFAULT_DEPTH: i32 = 10;

/// Arguments of `chariot analyze`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct AnalyzeArgs {
    /// Position to analyse, as one quoted argument; `-` reads one FEN per line from stdin.
    #[arg(long, conflicts_with = "startpos")]
    pub fen: Option<String>,
    /// Analyse the standard start position (the default).
    #[arg(long)]
    pub startpos: bool,
    /// Moves to play first, in ICCS, WXF or Chinese notation.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Search this many plies (the default is 10).
    #[arg(long, conflicts_with_all = ["movetime", "nodes"], value_parser = clap::value_parser!(i32).range(1..=127))]
    pub depth: Option<i32>,
    /// Search this many milliseconds.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Report the K best lines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub multipv: u16,
    /// Search threads (at most one per core is used).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Hash table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The evaluation: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: super::eval_source::EvalSource,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// A folder of endgame tables: the search plays and scores by them, and a position they hold
    /// is reported as the table's verdict ("tablebase: draw").
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
}

impl AnalyzeArgs {
    /// The search limits these arguments ask for.
    pub fn limits(&self) -> Limits {
        let mut limits = match (self.depth, self.movetime, self.nodes) {
            (_, Some(ms), _) => Limits::movetime(ms),
            (_, _, Some(n)) => Limits::nodes(n),
            (d, _, _) => Limits::depth(d.unwrap_or(DEFAULT_DEPTH)),
        };
        limits.multipv = self.multipv as usize;
        limits
    }
}

fn iccs_list(pv: &[Move]) -> Vec<String> {
    pv.iter().map(Move::to_string).collect()
}

/// One iteration as a line of text or JSON.
fn iteration_line(
    pos: &Position,
    fen: &str,
    it: &IterationInfo,
    scale: &ScoreScale,
    as_json: bool,
) -> String {
    let bound = match it.bound {
        ScoreBound::Exact => None,
        ScoreBound::Lower => Some("lowerbound"),
        ScoreBound::Upper => Some("upperbound"),
    };
    if as_json {
        let mut obj = serde_json::Map::new();
        obj.insert("fen".into(), json!(fen));
        obj.insert("depth".into(), json!(it.depth));
        obj.insert("seldepth".into(), json!(it.seldepth));
        obj.insert("multipv".into(), json!(it.multipv));
        put_shown_score(&mut obj, scale, it.score, pos.side_to_move());
        if let Some(b) = bound {
            obj.insert("bound".into(), json!(b));
        }
        obj.insert("nodes".into(), json!(it.nodes));
        obj.insert("nps".into(), json!(it.nps));
        obj.insert("time_ms".into(), json!(it.time_ms));
        obj.insert("pv".into(), json!(iccs_list(&it.pv)));
        Value::Object(obj).to_string()
    } else {
        let chinese = format_line(pos, &it.pv, MoveNotation::Chinese).join(" ");
        format!(
            "depth {} seldepth {} multipv {} score {}{} ({}, {}) nodes {} nps {} time {} pv {} | {chinese}",
            it.depth,
            it.seldepth,
            it.multipv,
            shown_score_text(scale, it.score),
            bound.map(|b| format!(" {b}")).unwrap_or_default(),
            view_text(pos.side_to_move()),
            wdl_text(scale.wdl(it.score)),
            it.nodes,
            it.nps,
            it.time_ms,
            iccs_list(&it.pv).join(" "),
        )
    }
}

/// Searches `pos`, writing each iteration and then the best move to `out`.
pub fn analyze_position(
    engine: &mut Engine,
    pos: &Position,
    limits: &Limits,
    as_json: bool,
    out: &mut (impl Write + Send),
) -> Result<()> {
    let fen = pos.to_fen();
    let scale = ScoreScale::of(&engine.options.eval, pos);
    if !as_json {
        writeln!(out, "position {fen}")?;
    }
    let control = SearchControl::new();
    control.start(false);
    // The reporter cannot return an error: keep the first one and stop writing.
    let mut failure: Option<std::io::Error> = None;
    let result = engine.search(pos, limits, &control, &mut |info: &Info| {
        if let (Info::Iteration(it), None) = (info, &failure) {
            if let Err(e) = writeln!(out, "{}", iteration_line(pos, &fen, it, &scale, as_json)) {
                failure = Some(e);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e.into());
    }
    let best = result.best.map(|m| m.to_string());
    let verdict = engine.options.tablebases.0.as_deref().and_then(|t| t.probe(pos));
    if as_json {
        let tablebase = verdict.map(|v| v.to_string());
        writeln!(out, "{}", json!({"fen": fen, "bestmove": best, "tablebase": tablebase}))?;
    } else {
        let chinese = result.best.map(|m| format_line(pos, &[m], MoveNotation::Chinese).join(""));
        match (best, chinese) {
            (Some(b), Some(c)) => writeln!(
                out,
                "bestmove {b} {c} score {} ({}, {})",
                shown_score_text(&scale, result.score),
                view_text(pos.side_to_move()),
                wdl_text(scale.wdl(result.score))
            )?,
            _ => writeln!(out, "bestmove (none)")?,
        }
        if let Some(v) = verdict {
            writeln!(out, "tablebase: {v} ({} to move)", crate::egtb::verify::side_name(pos))?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The longest line echoed whole in an error record: longer than any FEN.
const MAX_FEN_ECHO: usize = 256;

/// A refused line as its error record repeats it: whole if it could be a FEN, else quoted short
/// (a megabyte of junk must not come back whole).
fn echo_line(line: &str) -> String {
    if line.len() <= MAX_FEN_ECHO {
        line.to_string()
    } else {
        quoted(line)
    }
}

/// Runs `chariot analyze`; `input` is read only for `--fen -`.
pub fn run(
    args: &AnalyzeArgs,
    input: &mut impl BufRead,
    out: &mut (impl Write + Send),
    diag: &mut impl Write,
) -> Result<()> {
    let mut engine = Engine::try_new(args.hash as usize)?;
    engine.options.threads = args.threads as usize;
    engine.options.eval = args.eval.choice()?;
    engine.options.tablebases = tablebases(args.egtb.as_deref())?;
    let limits = args.limits();
    if args.fen.as_deref() != Some("-") {
        let pos = setup_position(args.fen.as_deref(), &args.moves)?;
        return analyze_position(&mut engine, &pos, &limits, args.json, out);
    }
    let (mut lines_read, mut failed) = (0, 0);
    let mut number = 0;
    while let Some(line) = read_line(input, MAX_LINE_BYTES).context("cannot read stdin")? {
        number += 1;
        // A line that is not text is one failed position, like a bad FEN; the rest still count.
        let (fen, outcome) = match line.into_text() {
            Ok(text) => {
                let fen = text.trim().to_string();
                if fen.is_empty() || fen.starts_with('#') {
                    continue;
                }
                let outcome = setup_position(Some(&fen), &args.moves);
                (fen, outcome)
            }
            Err(why) => (String::new(), Err(anyhow!(why))),
        };
        lines_read += 1;
        // Each position is analysed on its own, as if it were the only one.
        engine.clear_hash();
        match outcome {
            Ok(pos) => analyze_position(&mut engine, &pos, &limits, args.json, out)?,
            Err(e) => {
                failed += 1;
                let echo = echo_line(&fen);
                let why = format!("{e:#}");
                // The error is told once, on stderr; JSON's answer to every line is data, so a
                // program reading stdout still finds one record per position.
                if args.json {
                    writeln!(out, "{}", json!({"fen": echo, "error": why}))?;
                }
                writeln!(diag, "error: stdin line {number}: {why}")?;
            }
        }
    }
    if failed > 0 {
        bail!("{failed} of {lines_read} positions could not be analysed");
    }
    Ok(())
}
