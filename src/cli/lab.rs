//! `chariot lab [--depth N] [--fen FEN] [--moves …] [--positions FILE] [--algorithms a,b,…]
//! [--window W] [--budget-ms MS] [--json]`: the textbook lab. Searches with each of the book's
//! algorithms at depths 1 to N and prints what each cost, as the book's tables 7.2 and 7.3 do:
//! the leaves evaluated, the interior nodes expanded, the milliseconds, and the value found
//! (averaged over the positions of `--positions`, as the book averaged over the moves of an
//! opening). With `--json`, one object a line per algorithm and depth.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use serde_json::json;

use super::common::setup_position;
use crate::board::Position;
use crate::lab::{self, Algorithm, Settings, XiangqiTree};
use crate::tournament::openings;

/// Arguments of `chariot lab`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct LabArgs {
    /// Search depths 1 to this many plies.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Position to search, as one quoted argument (default: the standard start).
    #[arg(long, conflicts_with = "positions")]
    pub fen: Option<String>,
    /// Moves to play first, in ICCS, WXF or Chinese notation.
    #[arg(long, num_args = 1.., value_name = "MOVE", conflicts_with = "positions")]
    pub moves: Vec<String>,
    /// Average over the positions of a file: one a line, ICCS moves from the start or a FEN
    /// with optional `moves …` (an openings file, as `chariot match` reads).
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// The algorithms to run, comma-separated (default: all): minimax, alphabeta, failsoft,
    /// aspiration, pvs, iterative, alphabeta-tt, alphabeta-history, mtdf, sss, dual,
    /// negascout-tt-history.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub algorithms: Vec<String>,
    /// The aspiration window's half-width, in classic evaluation units.
    #[arg(long, default_value_t = Settings::default().window, value_parser = clap::value_parser!(i32).range(1..=10_000))]
    pub window: i32,
    /// Skip an algorithm's deeper depths once one depth took longer than this, per position.
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
    /// One JSON object a line per algorithm and depth instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// One algorithm at one depth, over every position.
struct Row {
    algorithm: Algorithm,
    depth: u32,
    values: Vec<i32>,
    leaves: u64,
    nodes: u64,
    ms: f64,
}

impl Row {
    fn positions(&self) -> usize {
        self.values.len()
    }
    fn mean(&self, total: f64) -> f64 {
        total / self.positions() as f64
    }
    fn json(&self) -> serde_json::Value {
        json!({
            "algorithm": self.algorithm.name(),
            "depth": self.depth,
            "positions": self.positions(),
            "value": self.mean(self.values.iter().map(|&v| v as f64).sum()).round() as i64,
            "values": self.values,
            "leaves": self.mean(self.leaves as f64).round() as u64,
            "nodes": self.mean(self.nodes as f64).round() as u64,
            "ms": (self.mean(self.ms) * 1000.0).round() / 1000.0,
        })
    }
}

/// The algorithms `names` lists, in the order given, or all of them.
fn chosen(names: &[String]) -> Result<Vec<Algorithm>> {
    if names.is_empty() {
        return Ok(Algorithm::ALL.to_vec());
    }
    let mut out = Vec::new();
    for name in names {
        let algorithm = Algorithm::from_name(name.trim())?;
        if !out.contains(&algorithm) {
            out.push(algorithm);
        }
    }
    Ok(out)
}

/// The positions the arguments describe.
fn positions(args: &LabArgs) -> Result<Vec<Position>> {
    match &args.positions {
        Some(path) => Ok(openings::load(path)?.iter().map(|o| o.end()).collect()),
        None => Ok(vec![setup_position(args.fen.as_deref(), &args.moves)?]),
    }
}

/// `n` with commas between the thousands.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Writes one table: a row per algorithm, a column per depth, `cell` of each measured row.
fn table(
    out: &mut impl Write,
    title: &str,
    algorithms: &[Algorithm],
    rows: &[Row],
    depth: u32,
    cell: impl Fn(&Row) -> String,
) -> Result<()> {
    writeln!(out, "{title}")?;
    write!(out, "{:<22}", "algorithm")?;
    for d in 1..=depth {
        write!(out, " {d:>12}")?;
    }
    writeln!(out)?;
    for &algorithm in algorithms {
        write!(out, "{:<22}", algorithm.name())?;
        for d in 1..=depth {
            let text = rows
                .iter()
                .find(|r| r.algorithm == algorithm && r.depth == d)
                .map_or_else(|| "-".to_string(), &cell);
            write!(out, " {text:>12}")?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    Ok(())
}

/// Runs `chariot lab`.
pub fn run(args: &LabArgs, out: &mut impl Write) -> Result<()> {
    let algorithms = chosen(&args.algorithms)?;
    let positions = positions(args)?;
    if positions.is_empty() {
        bail!("no position to search");
    }
    let settings = Settings { window: args.window, ..Settings::default() };
    let mut rows = Vec::new();
    for &algorithm in &algorithms {
        for depth in 1..=args.depth {
            let mut row = Row { algorithm, depth, values: Vec::new(), leaves: 0, nodes: 0, ms: 0.0 };
            for position in &positions {
                let outcome = lab::run(algorithm, &mut XiangqiTree::new(position.clone()), depth, settings);
                row.values.push(outcome.value);
                row.leaves += outcome.counts.leaves;
                row.nodes += outcome.counts.nodes;
                row.ms += outcome.elapsed.as_secs_f64() * 1000.0;
            }
            if args.json {
                writeln!(out, "{}", row.json())?;
                out.flush()?;
            }
            let over_budget = args.budget_ms.is_some_and(|b| row.mean(row.ms) > b as f64);
            rows.push(row);
            if over_budget {
                break;
            }
        }
    }
    if args.json {
        return Ok(());
    }
    let n = positions.len();
    let per = if n == 1 { String::new() } else { format!(", average over {n} positions") };
    let mean = |r: &Row, total: u64| grouped(r.mean(total as f64).round() as u64);
    table(out, &format!("Leaves evaluated{per}"), &algorithms, &rows, args.depth, |r| mean(r, r.leaves))?;
    table(out, &format!("Interior nodes{per}"), &algorithms, &rows, args.depth, |r| mean(r, r.nodes))?;
    table(out, &format!("Milliseconds{per}"), &algorithms, &rows, args.depth, |r| {
        format!("{:.1}", r.mean(r.ms))
    })?;
    let value_title =
        if n == 1 { "Value (side to move's view)".to_string() } else { format!("Mean value{per}") };
    table(out, &value_title, &algorithms, &rows, args.depth, |r| {
        format!("{:+}", r.mean(r.values.iter().map(|&v| v as f64).sum()).round() as i64)
    })?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(22_536_732), "22,536,732");
    }

    #[test]
    fn names_are_read_in_order_once_and_a_bad_one_is_named() {
        let names = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(chosen(&names(&["pvs", " mtdf", "pvs"])).unwrap(), vec![Algorithm::Pvs, Algorithm::Mtdf]);
        assert_eq!(chosen(&[]).unwrap().len(), Algorithm::ALL.len());
        let err = chosen(&names(&["pvs", "scout"])).unwrap_err().to_string();
        assert!(err.contains("unknown algorithm 'scout'"), "{err}");
    }
}
