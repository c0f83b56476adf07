//! `chariot bench [--depth D] [--threads N] [--hash MB] [--algorithm pvs|mtdf] [--without F,…]
//! [--tune NAME=VALUE,…] [--egtb DIR] [--evalfile NET | --classic]`: searches the fixed bench positions and
//! prints the node count, the search's signature, and the speed. `--without` switches search
//! features off, to measure what each one saves; `--tune` changes search parameters; `--evalfile`
//! searches with another net than the built-in one, `--classic` with the classic evaluation;
//! `--egtb` loads tablebases, to time what probing costs where no table holds the position.

use std::io::Write;

use anyhow::{Error, Result};
use clap::Args;

use super::common::tablebases;
use crate::search::{bench, Algorithm, EngineOptions, ParamError, SearchFeatures, SearchParams, UnknownName};

/// Arguments of `chariot bench`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct BenchArgs {
    /// Depth of every search, in plies.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
    /// Search threads, at most one per core (more than one makes the node count vary from run to
    /// run).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Hash table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Root search algorithm: pvs or mtdf.
    #[arg(long, default_value = "pvs", value_parser = parse_algorithm)]
    pub algorithm: Algorithm,
    /// Search features to switch off, comma-separated: null, rfp, futility, lmp, lmr, checkext,
    /// qsprune, mdp.
    #[arg(long, value_delimiter = ',', value_parser = parse_feature)]
    pub without: Vec<String>,
    /// Search parameters to change, `name=value` pairs separated by commas (see the `Tune` option).
    #[arg(long, default_value = "", value_parser = parse_params)]
    pub tune: SearchParams,
    /// The evaluation: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: super::eval_source::EvalSource,
    /// Endgame tablebases to search with, to measure what they cost where they hold no
    /// position (the bench's middlegames): the node count must not change.
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
}

fn parse_params(text: &str) -> Result<SearchParams, ParamError> {
    SearchParams::with_list(text)
}

fn parse_feature(text: &str) -> Result<String, UnknownName> {
    SearchFeatures::ALL.without(text).map(|_| text.to_string())
}

fn parse_algorithm(text: &str) -> Result<Algorithm, UnknownName> {
    text.parse()
}

/// Runs the bench: one `index best nodes` line per position, then `Nodes searched: N` and
/// `Nodes/second: X` as the last two lines.
pub fn run(args: &BenchArgs, out: &mut impl Write) -> Result<()> {
    let features = SearchFeatures::ALL.without_list(&args.without.join(",")).map_err(Error::msg)?;
    let options = EngineOptions {
        threads: args.threads as usize,
        algorithm: args.algorithm,
        features,
        params: args.tune,
        eval: args.eval.choice()?,
        tablebases: tablebases(args.egtb.as_deref())?,
        ..EngineOptions::default()
    };
    let report = bench::run_with(args.depth, args.hash as usize, &options)?;
    for (i, (best, nodes)) in report.per_position.iter().enumerate() {
        writeln!(out, "{:>3} {best:<6} {nodes}", i + 1)?;
    }
    // A run too fast to time still gets a finite speed: count it as one millisecond.
    let nps = report.nodes * 1000 / report.time_ms.max(1);
    writeln!(out, "Nodes searched: {}", report.nodes)?;
    writeln!(out, "Nodes/second: {nps}")?;
    out.flush()?;
    Ok(())
}
