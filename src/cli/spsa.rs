//! `chariot spsa --engine cmd=PATH --param NAME=START,MIN,MAX,C_END[,R_END] … --iterations N
//! --state FILE [limits, openings, adjudication as for chariot match]`: tunes an engine's
//! parameters by game pairs, resumable from its state file.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use indicatif::ProgressBar;

use super::common::{bar_style, progress_bar, progress_wanted};
use super::matches::{
    game_settings, openings_and_plies, AdjudicationArgs, LimitArgs, OpeningArgs, MAX_CONCURRENCY,
};
use crate::spsa::{run_spsa, FinishedPair, ParamSpec, SpsaConfig, SpsaProgress, SpsaSummary};
use crate::tournament::spec::whole_number;
use crate::tournament::EngineSpec;

/// The most iterations a run may plan.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// Arguments of `chariot spsa`.
#[derive(Args, Debug, Clone)]
pub struct SpsaArgs {
    /// The engine: `cmd=PATH[,name=X][,proto=ucci|uci][,arg=X…][,option.X=Y…]`; both sides of
    /// every pair are this engine with the parameters moved apart.
    #[arg(long, value_name = "SPEC")]
    pub engine: String,
    /// A parameter to tune: `NAME=START,MIN,MAX,C_END[,R_END]` (repeat for each). C_END is how
    /// far each side plays from the tuned value at the end (at least 0.5: values are whole
    /// numbers), R_END the learning rate there (default 0.002).
    #[arg(long = "param", value_name = "SPEC", required = true)]
    pub params: Vec<String>,
    /// Put every parameter in this one option as `NAME=VALUE NAME=VALUE …` (Chariot's `tune`),
    /// after the value `--engine` gives it, instead of setting each as an option of its own.
    #[arg(long, value_name = "OPTION")]
    pub tune_option: Option<String>,
    /// Game pairs to play in all (the gains' schedule ends there).
    #[arg(long, value_name = "N")]
    pub iterations: String,
    /// The state file: rewritten after each pair; `--resume` continues from it.
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// Continue the run in the state file (the same settings only).
    #[arg(long)]
    pub resume: bool,
    /// Add a line per pair to this file: iteration, result, endings, values.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Games played at once, each with its own engine processes (1 to 256).
    #[arg(long, default_value = "1", value_name = "N")]
    pub concurrency: String,
    /// The search limit and the deadlines.
    #[command(flatten)]
    pub limits: Box<LimitArgs>,
    /// The openings (one a pair in turn), their random plies, and the seed (of the random
    /// plies and of the directions).
    #[command(flatten)]
    pub opening: OpeningArgs,
    /// Draw and resign adjudication, as for `chariot match`.
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
}

/// The run the arguments describe.
pub fn config(args: &SpsaArgs) -> Result<SpsaConfig> {
    let mut engine = args.engine.clone();
    if !engine.split(',').any(|field| field.trim_start().starts_with("name=")) {
        engine = format!("name=engine,{engine}");
    }
    let engine = EngineSpec::parse(&engine)?;
    let params = ParamSpec::parse_all(&args.params)?;
    if let Some(option) = &args.tune_option {
        if option.trim().is_empty() || option.contains(['\n', '\r']) {
            bail!("--tune-option: expected an option's name");
        }
    }
    let iterations = whole_number("--iterations", &args.iterations, 1, MAX_ITERATIONS)?;
    let concurrency = whole_number("--concurrency", &args.concurrency, 1, MAX_CONCURRENCY)?;
    let settings = game_settings(&args.limits, &args.adjudication)?;
    let (openings, random_plies) = openings_and_plies(&args.opening)?;
    let seed = whole_number("--seed", &args.opening.seed, 0, u64::MAX)?;
    Ok(SpsaConfig {
        engine,
        params,
        tune_option: args.tune_option.clone(),
        // The ranges fit the fields.
        iterations: iterations as u32,
        seed,
        openings,
        random_plies,
        concurrency: concurrency as usize,
        settings,
        state: args.state.clone(),
        resume: args.resume,
        log: args.log.clone(),
    })
}

/// Runs the tuning (progress on stderr) and prints the tuned values on `out`.
pub fn run(args: &SpsaArgs, out: &mut impl Write) -> Result<()> {
    let config = config(args)?;
    let summary = run_spsa(&config, &mut PairBar::new())?;
    write_summary(out, &summary)?;
    Ok(())
}

/// The tuned values: a line per parameter, then the games and the values in the tune option's form.
pub fn write_summary(out: &mut impl Write, summary: &SpsaSummary) -> std::io::Result<()> {
    writeln!(out, "{:<24} {:>10} {:>12} {:>8}", "parameter", "start", "tuned", "rounded")?;
    for (p, v) in summary.params.iter().zip(&summary.values) {
        writeln!(out, "{:<24} {:>10} {:>12.3} {:>8}", p.name, p.start, v, v.round() as i64)?;
    }
    let [w, d, l] = summary.games;
    writeln!(out, "pairs {}, games of the + side: {w} won, {d} drawn, {l} lost", summary.done)?;
    writeln!(out, "tuned: {}", summary.tune_list())
}

/// Progress on stderr: a bar of the pairs, and a line per pair in a log.
struct PairBar {
    bar: ProgressBar,
}

impl PairBar {
    fn new() -> PairBar {
        let style = bar_style("{bar:30} {pos}/{len} pairs  {msg}  [{elapsed}]");
        PairBar { bar: progress_bar(0, progress_wanted(), style) }
    }
}

impl SpsaProgress for PairBar {
    fn started(&mut self, iterations: u32, done: u32) {
        self.bar.set_length(u64::from(iterations));
        self.bar.set_position(u64::from(done));
    }

    fn pair_finished(&mut self, pair: &FinishedPair<'_>) {
        let values: Vec<String> = pair.values.iter().map(|v| format!("{v:.1}")).collect();
        if self.bar.is_hidden() {
            eprintln!(
                "pair {} ({}): {:+} ({}; {}) {}",
                pair.done,
                pair.iteration,
                pair.result,
                pair.endings[0],
                pair.endings[1],
                values.join(" ")
            );
        }
        self.bar.set_position(u64::from(pair.done));
        self.bar.set_message(values.join(" "));
    }

    fn finished(&mut self) {
        self.bar.finish_and_clear();
    }
}
