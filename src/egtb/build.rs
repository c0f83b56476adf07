//! Building a set of tables in a folder: the capture children of what is asked come first, a
//! table already there (and whole) is kept, and each new table is written whole once done, so
//! an interrupted run resumes where it stopped, the signature in progress started again.

use std::path::Path;
use std::time::Instant;

use super::format::Table;
use super::generate::{generate, GenerateError};
use super::index::Layout;
use super::probe::Tablebases;
use super::signature::Signature;
use super::value::Value;

/// What happened to one signature.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Its file was there and whole.
    Kept,
    /// Generated now.
    Generated(Stats),
    /// Larger than the limit asked for (or needs such a table), left out.
    Skipped {
        /// Its positions, counted with the impossible placements.
        size: u64,
    },
}

/// Figures of one generated table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Indices, impossible placements included (one byte each).
    pub indices: u64,
    /// Legal positions.
    pub positions: u64,
    /// Won for the side to move (mates and rule wins).
    pub won: u64,
    /// Drawn.
    pub drawn: u64,
    /// Lost for the side to move.
    pub lost: u64,
    /// Won or lost by the perpetual-check rule (counted in `won` and `lost` too).
    pub by_rule: u64,
    /// The longest mate, in plies.
    pub longest_mate: u8,
    /// Seconds spent.
    pub seconds: f64,
}

impl Stats {
    /// The figures of `table`, generated in `seconds`.
    pub fn of(table: &Table, seconds: f64) -> Stats {
        let mut s = Stats { indices: table.codes().len() as u64, seconds, ..Stats::default() };
        for &code in table.codes() {
            let Some(v) = Value::from_code(code) else { continue };
            s.positions += 1;
            match v.wdl() {
                1 => s.won += 1,
                0 => s.drawn += 1,
                _ => s.lost += 1,
            }
            match v {
                Value::RuleWin(_) | Value::RuleLoss(_) => s.by_rule += 1,
                Value::Win(d) | Value::Loss(d) => s.longest_mate = s.longest_mate.max(d),
                Value::Draw => {}
            }
        }
        s
    }
}

/// Why a build stopped.
#[derive(Debug)]
pub enum BuildError {
    /// A file could not be read back or written.
    File(crate::binary::FileError),
    /// Generation failed.
    Generate(GenerateError),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::File(e) => write!(f, "{e}"),
            BuildError::Generate(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// `wanted` and every signature a capture away from one of them, canonical, smallest first (a
/// child is always smaller than its parent, so it comes before it).
pub fn with_children(wanted: &[Signature]) -> Vec<Signature> {
    let mut all: Vec<Signature> = Vec::new();
    let mut stack: Vec<Signature> = wanted.iter().map(|s| s.canonical().0).collect();
    while let Some(sig) = stack.pop() {
        if all.contains(&sig) {
            continue;
        }
        all.push(sig);
        stack.extend(sig.capture_children());
    }
    all.sort_by_key(|s| (Layout::new(*s).size(), *s));
    all
}

/// Builds `wanted` (and their children) in `dir`, leaving out tables of more than `max_size`
/// indices and those that need them; `report` hears of each signature as it is done.
pub fn build(
    wanted: &[Signature],
    dir: &Path,
    max_size: u64,
    mut report: impl FnMut(Signature, &Step),
) -> Result<Tablebases, BuildError> {
    let mut tables = Tablebases::new();
    let mut skipped: Vec<Signature> = Vec::new();
    for sig in with_children(wanted) {
        let size = Layout::new(sig).size();
        if size > max_size || sig.capture_children().iter().any(|c| skipped.contains(c)) {
            skipped.push(sig);
            report(sig, &Step::Skipped { size });
            continue;
        }
        let path = Table::path_in(dir, &sig);
        let step = if path.exists() {
            tables.insert(Table::load(&path, sig).map_err(BuildError::File)?);
            Step::Kept
        } else {
            let start = Instant::now();
            let table = generate(sig, &tables).map_err(BuildError::Generate)?;
            let stats = Stats::of(&table, start.elapsed().as_secs_f64());
            table.save(&path).map_err(BuildError::File)?;
            tables.insert(table);
            Step::Generated(stats)
        };
        report(sig, &step);
    }
    Ok(tables)
}
