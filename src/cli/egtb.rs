//! `chariot egtb {generate | probe | verify}`: endgame tablebases (see `docs/egtb.md`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};

use super::common::starting_position;
use crate::egtb::build::{self, Step};
use crate::egtb::{verify, Signature, Tablebases, Value};

/// Arguments of `chariot egtb`.
#[derive(Args, Debug, Clone)]
pub struct EgtbArgs {
    /// What to do with tables.
    #[command(subcommand)]
    pub action: EgtbAction,
}

/// The `egtb` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum EgtbAction {
    /// Solve the named endings (and every ending a capture away) into DIR; tables already
    /// there are kept, so an interrupted run resumes.
    Generate(GenerateArgs),
    /// The result of a position for the side to move, its distance, and the moves that keep it.
    Probe(ProbeArgs),
    /// Check every table in DIR: its checksum, and every position's value against its children's.
    Verify(VerifyArgs),
}

/// Arguments of `chariot egtb generate`.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Signatures: Red's pieces then Black's, each from its king (`KRKAABB`).
    #[arg(value_name = "SIG", required_unless_present = "all")]
    pub signatures: Vec<String>,
    /// Every signature with at most N rooks, horses, cannons and pawns in all, with any
    /// advisors and elephants on either side.
    #[arg(long, value_name = "N")]
    pub all: Option<usize>,
    /// The folder the tables go to (created if missing).
    #[arg(long)]
    pub dir: PathBuf,
    /// Leave out tables of more positions than this (and those that need them).
    #[arg(long, default_value_t = 2_000_000_000)]
    pub max_positions: u64,
}

/// Arguments of `chariot egtb probe`.
#[derive(Args, Debug, Clone)]
pub struct ProbeArgs {
    /// The folder of tables.
    #[arg(long)]
    pub dir: PathBuf,
    /// The position, as one quoted argument.
    #[arg(long)]
    pub fen: String,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chariot egtb verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The folder of tables.
    #[arg(long)]
    pub dir: PathBuf,
}

/// Runs `chariot egtb`.
pub fn run(args: &EgtbArgs, out: &mut impl Write) -> Result<()> {
    match &args.action {
        EgtbAction::Generate(a) => generate(a, out),
        EgtbAction::Probe(a) => probe(a, out),
        EgtbAction::Verify(a) => verify_dir(a, out),
    }
}

fn generate(args: &GenerateArgs, out: &mut impl Write) -> Result<()> {
    let mut wanted: Vec<Signature> = Vec::new();
    for text in &args.signatures {
        wanted.push(text.parse().with_context(|| "bad signature".to_string())?);
    }
    if let Some(n) = args.all {
        if n > 4 {
            bail!("--all {n}: at most 4 attackers (larger sets cannot be generated on one machine)");
        }
        wanted.extend(Signature::all_with_attackers(n));
    }
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create the folder '{}'", args.dir.display()))?;
    let mut total = build::Stats::default();
    let mut failed: Option<std::io::Error> = None;
    build::build(&wanted, &args.dir, args.max_positions, |sig, step| {
        let line = match step {
            Step::Kept => format!("{sig}: kept (already generated)"),
            Step::Skipped { size } => format!("{sig}: left out ({size} positions, or needs a table left out)"),
            Step::Generated(s) => {
                total.indices += s.indices;
                total.positions += s.positions;
                total.won += s.won;
                total.drawn += s.drawn;
                total.lost += s.lost;
                total.by_rule += s.by_rule;
                total.seconds += s.seconds;
                total.longest_mate = total.longest_mate.max(s.longest_mate);
                format!(
                    "{sig}: {} positions ({} legal) in {:.1} s, {:.0} positions/s: won {} drawn {} lost {} (by the check rule {}), longest mate {} plies",
                    s.indices,
                    s.positions,
                    s.seconds,
                    s.indices as f64 / s.seconds.max(1e-9),
                    s.won,
                    s.drawn,
                    s.lost,
                    s.by_rule,
                    s.longest_mate
                )
            }
        };
        if let Err(e) = writeln!(out, "{line}") {
            failed.get_or_insert(e);
        }
    })
    .context("generation stopped")?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    writeln!(
        out,
        "generated {} positions ({} legal) in {:.1} s: won {} drawn {} lost {} (by the check rule {})",
        total.indices, total.positions, total.seconds, total.won, total.drawn, total.lost, total.by_rule
    )?;
    Ok(())
}

fn load(dir: &std::path::Path) -> Result<Tablebases> {
    Ok(Tablebases::load_dir(dir)?)
}

/// What a value reads as for the side to move.
pub fn value_text(value: Value) -> String {
    value.to_string()
}

fn probe(args: &ProbeArgs, out: &mut impl Write) -> Result<()> {
    let pos = starting_position(Some(&args.fen))?;
    let tables = load(&args.dir)?;
    let Some((value, keep)) = tables.keeping_moves(&pos) else {
        if args.json {
            writeln!(out, "{}", serde_json::json!({ "fen": pos.to_fen(), "result": null }))?;
        } else {
            writeln!(out, "no verdict: no table in '{}' holds this material", args.dir.display())?;
        }
        return Ok(());
    };
    let (result, distance) = match value {
        Value::Draw => ("draw", None),
        Value::Win(d) => ("win", Some(d)),
        Value::Loss(d) => ("loss", Some(d)),
        Value::RuleWin(_) => ("win", None),
        Value::RuleLoss(_) => ("loss", None),
    };
    let by_rule = matches!(value, Value::RuleWin(_) | Value::RuleLoss(_));
    if args.json {
        let moves: Vec<_> = keep
            .iter()
            .map(|m| serde_json::json!({ "move": m.mv.to_string(), "value": m.value.to_string() }))
            .collect();
        let json = serde_json::json!({
            "fen": pos.to_fen(),
            "result": result,
            "mate_plies": distance,
            "by_perpetual_check_rule": by_rule,
            "value": value.to_string(),
            "moves": moves,
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(out, "tablebase: {} ({} to move)", value_text(value), verify::side_name(&pos))?;
        let list: Vec<String> = keep.iter().map(|m| format!("{} ({})", m.mv, m.value)).collect();
        if list.is_empty() {
            writeln!(out, "moves that keep it: none (no legal move)")?;
        } else {
            writeln!(out, "moves that keep it: {}", list.join(", "))?;
        }
    }
    Ok(())
}

fn verify_dir(args: &VerifyArgs, out: &mut impl Write) -> Result<()> {
    let tables = load(&args.dir)?;
    if tables.is_empty() {
        bail!("no tables in '{}'", args.dir.display());
    }
    let mut faults = 0;
    for sig in tables.signatures() {
        let Some(report) = verify::verify(&tables, sig) else { continue };
        writeln!(out, "{sig}: checksum ok, {} positions, {} faults", report.positions, report.fault_count)?;
        for f in &report.faults {
            writeln!(out, "  {f}")?;
        }
        faults += report.fault_count;
    }
    if faults > 0 {
        bail!("{faults} positions disagree with their children");
    }
    writeln!(out, "all {} tables consistent", tables.len())?;
    Ok(())
}
