//! `chariot datagen --games N --out FILE [--nodes N] [--random-plies K] [--openings FILE]
//! [--seed S] [--concurrency C] [--hash MB]`: self-play games whose quiet positions, labelled
//! with the result, become tuning data (`FEN;result` lines).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::CliError;
use crate::tournament::openings;
use crate::tune::datagen::{generate, DatagenConfig, GameData};
use crate::tune::{check_writable, write_atomically};

/// Arguments of `chariot datagen`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct DatagenArgs {
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Random legal plies before the engine takes over (after the book line, if any).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Start each game from a random line of this file (ICCS moves or a FEN per line).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Where to write the `FEN;result` lines (replaced whole when all games are done).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the random plies and book choices: the same seed gives the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Hash table of each concurrent game, in megabytes (cleared before every game).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
}

/// Whether stderr is a terminal (and so gets a progress bar).
pub fn progress_wanted() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

/// Plays the games, writes the data file, and prints a summary to `out`.
pub fn run(args: &DatagenArgs, out: &mut impl Write, progress: bool) -> Result<(), CliError> {
    let mut cfg = DatagenConfig::new(args.games as usize, args.nodes, args.random_plies, args.seed);
    cfg.concurrency = args.concurrency as usize;
    cfg.hash_mb = args.hash as usize;
    if let Some(path) = &args.openings {
        cfg.openings = openings::load(path).map_err(CliError)?;
    }
    cfg.validate().map_err(CliError)?;
    // Refuse an unwritable destination before playing for minutes.
    check_writable(&args.out).map_err(CliError)?;

    let bar = ProgressBar::with_draw_target(
        Some(args.games),
        if progress { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() },
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg} [{elapsed} < {eta}]") {
        bar.set_style(style);
    }
    let kept = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let games = generate(&cfg, &|game: &GameData| {
        let total = kept.fetch_add(game.fens.len(), std::sync::atomic::Ordering::SeqCst) + game.fens.len();
        bar.set_message(format!("{total} positions"));
        bar.inc(1);
    })
    .map_err(CliError)?;
    bar.finish_and_clear();

    let text: String = games.iter().map(GameData::lines).collect();
    write_atomically(&args.out, &text).map_err(CliError)?;
    let count = |r: f64| games.iter().filter(|g| g.result == r).count();
    let positions: usize = games.iter().map(|g| g.fens.len()).sum();
    writeln!(
        out,
        "games {} (red wins {}, draws {}, black wins {}), {positions} positions written to {}, {:.1} s",
        games.len(),
        count(1.0),
        count(0.5),
        count(0.0),
        args.out.display(),
        started.elapsed().as_secs_f64()
    )?;
    out.flush()?;
    Ok(())
}
