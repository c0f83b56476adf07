//! `chariot tune --data FILE --out FILE [--epochs N] [--lr X] [--k K]`: fits every evaluation
//! weight to the game results in FILE (Texel's method) and writes a new `weights.rs`.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Error, Result};
use clap::Args;

use super::common::{check_writable, write_file};
use crate::texel::optimizer::{find_k, mean_error, Adam};
use crate::texel::{dataset, layout, writer};

/// Arguments of `chariot tune`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct TuneArgs {
    /// The data: `FEN;result` lines (as `chariot datagen` writes them).
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Where to write the generated `weights.rs` (e.g. src/eval/classic/weights.rs).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Adam steps, each over the whole data.
    #[arg(long, default_value_t = 500)]
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// The sigmoid's scaling; found by minimising the error over K when not given.
    #[arg(long)]
    pub k: Option<f64>,
    /// Ridge penalty on the distance from the current weights (0 = none; try 1e-6 on small data).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Held-out data (same format) whose error is reported before and after, to spot overfitting.
    #[arg(long, value_name = "FILE")]
    pub validate: Option<PathBuf>,
    /// How many of the largest weight changes to list.
    #[arg(long, default_value_t = 10)]
    pub show: usize,
}

/// Loads the data, finds K, runs Adam, writes the weights; progress and errors go to `out`.
pub fn run(args: &TuneArgs, out: &mut impl Write) -> Result<()> {
    if !(args.lr.is_finite() && args.lr > 0.0) {
        bail!("--lr must be a positive number, not {}", args.lr);
    }
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        bail!("--l2 must be zero or a positive number, not {}", args.l2);
    }
    if let Some(k) = args.k {
        if !(k.is_finite() && k > 0.0) {
            bail!("--k must be a positive number, not {k}");
        }
    }
    // Refuse an unwritable destination before a long fit.
    check_writable(&args.out)?;
    let started = Instant::now();
    let samples = dataset::load(&args.data).map_err(Error::msg)?;
    let held_out = match &args.validate {
        Some(path) => dataset::load(path).map_err(Error::msg)?,
        None => Vec::new(),
    };
    writeln!(out, "positions {} (loaded in {:.1} s)", samples.len(), started.elapsed().as_secs_f64())?;
    let start = layout::current();
    let mut w = start.clone();
    let k = match args.k {
        Some(k) => k,
        None => find_k(&samples, &w),
    };
    let before = mean_error(&samples, &w, k);
    writeln!(out, "K {k:.6}{}", if args.k.is_some() { " (given)" } else { " (fitted)" })?;
    writeln!(out, "error before {before:.6}")?;
    let held_out_before = mean_error(&held_out, &w, k);
    out.flush()?;

    let every = (args.epochs / 10).max(1);
    let mut io_error = None;
    let adam = Adam { l2: args.l2, ..Adam::new(args.epochs, args.lr) };
    let tuned = adam.run(&samples, &mut w, k, &mut |epoch, error| {
        if epoch % every == 0 {
            if let Err(e) = writeln!(out, "epoch {epoch} error {error:.6}").and_then(|_| out.flush()) {
                io_error.get_or_insert(e);
            }
        }
    });
    if let Some(e) = io_error {
        return Err(e.into());
    }
    let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
    let after = mean_error(&samples, &rounded, k);
    writeln!(out, "error after {tuned:.6} (rounded to integers: {after:.6})")?;
    if !held_out.is_empty() {
        let held_out_after = mean_error(&held_out, &rounded, k);
        writeln!(
            out,
            "held-out error {held_out_before:.6} -> {held_out_after:.6} ({} positions)",
            held_out.len()
        )?;
    }
    let mut changes: Vec<(usize, f64)> = (0..w.len()).map(|i| (i, rounded[i] - start[i])).collect();
    changes.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
    for &(i, delta) in changes.iter().take(args.show).filter(|c| c.1 != 0.0) {
        let half = if i % 2 == 0 { "mg" } else { "eg" };
        let name = layout::pair_name(i / 2);
        writeln!(out, "  {name} {half}: {} -> {} ({delta:+})", start[i], rounded[i])?;
    }
    write_file(&args.out, &writer::weights_source(&w))?;
    writeln!(out, "wrote {} in {:.1} s", args.out.display(), started.elapsed().as_secs_f64())?;
    out.flush()?;
    Ok(())
}
