//! `chariot datagen`: self-play games at a fixed node count from randomised openings, in three
//! modes:
//! - text (Texel tuning): `--games N --out FILE`, quiet positions as `FEN;result` lines;
//! - scored (NNUE training): `--scored (--games N | --positions N) --out FILE`, binary records
//!   labelled with the search score and the result, appended to FILE and resumed after an
//!   interruption (docs/datagen.md);
//! - `--stats FILE`: checks a scored data file and prints what it holds;
//! - `merge -o OUT FILE…`: merges the shard files of a run (`--scored --shard K/N`) into one;
//! - `rescore FILE -o OUT`: the file's positions searched again, deeper labels for the trainer.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Error, Result};
use clap::{Args, Subcommand};
use indicatif::ProgressBar;

use super::common::{bar_style, check_writable, progress_bar, write_file};
use crate::datagen::format::{Wdl, BLOCK};
use crate::datagen::games::{generate, DatagenConfig, GameData, GameEnd};
use crate::datagen::merge;
use crate::datagen::rescore::{self, RescoreConfig, RescoreProgress};
use crate::datagen::scored::{self, Progress, Target};
use crate::datagen::shard::Shard;
use crate::datagen::stats::{self, DataStats, SCORE_EDGES};
use crate::tournament::openings;

/// Arguments of `chariot datagen`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    /// `merge`; without it, the options below generate data or check it.
    #[command(subcommand)]
    pub action: Option<DatagenAction>,
    /// Games to play; with --scored, play until the file holds this many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000),
          required_unless_present_any = ["positions", "stats"], conflicts_with = "positions")]
    pub games: Option<u64>,
    /// With --scored: play until the file holds at least this many positions.
    #[arg(long, requires = "scored", value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// Write binary records labelled with the search score and the result (NNUE training data),
    /// appending to --out and resuming it after an interruption.
    #[arg(long)]
    pub scored: bool,
    /// With --scored: play only shard K of N of the run, the games numbered g with
    /// g mod N = K − 1 (K from 1); --games and --positions then count this shard's games.
    #[arg(long, value_name = "K/N", requires = "scored", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Check a scored data file and print what it holds (records, games, results, scores).
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "games", "positions", "scored", "out", "openings", "nodes", "soft_nodes", "random_plies", "seed", "concurrency", "hash",
        "evalfile", "classic", "shard"
    ])]
    pub stats: Option<PathBuf>,
    /// With --stats: skip the rules' check of every position and best move (faster).
    #[arg(long, requires = "stats")]
    pub quick: bool,
    /// Nodes searched per move, at most [default: 2000, or 5000 with --scored; with
    /// --soft-nodes, SOFT_NODES_HARD_FACTOR times that].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub nodes: Option<u64>,
    /// With --scored: deepen no further once an iteration ends past this many nodes, so that
    /// every label comes from a whole iteration (--nodes stays the hard limit).
    #[arg(long, requires = "scored", value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub soft_nodes: Option<u64>,
    /// Random legal plies before the engine takes over (after the book line, if any).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Start each game from a random line of this file (ICCS moves or a FEN per line).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Where to write: text lines (replaced whole when all games are done), or with --scored
    /// the data file to create or append to.
    #[arg(long, value_name = "FILE", required_unless_present = "stats")]
    pub out: Option<PathBuf>,
    /// Seed of the random plies and book choices: the same seed gives the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// `--concurrency` and `--hash`.
    #[command(flatten)]
    pub slots: GameSlots,
    /// The evaluation the games are searched with: the built-in net, `--evalfile NET` or
    /// `--classic`. Part of a scored file's settings: a file is resumed with the one it began with.
    #[command(flatten)]
    pub eval: super::eval_source::EvalSource,
}

/// How many games run at once and the table each gets (generating and rescoring alike).
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct GameSlots {
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Hash table of each concurrent game, in megabytes (cleared before every game).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
}

/// What `chariot datagen` does besides generating and checking.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum DatagenAction {
    /// Merge the shard files of one run (`--scored --shard K/N`, every K) into one file.
    ///
    /// Checks that the files share the seed, nodes and settings, that each is whole and that no
    /// game is in two, and writes the games in order, as one process would have.
    Merge(MergeArgs),
    /// Search a data file's positions again (deeper, or with another evaluation) into a new file.
    ///
    /// The records keep their board, game, ply and result; the score and best move are the new
    /// search's. Each game is searched by one engine whose tables are cleared before it, so the
    /// output does not depend on --concurrency. An interrupted run resumes where the output ends.
    Rescore(RescoreArgs),
}

/// Arguments of `chariot datagen rescore`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct RescoreArgs {
    /// The data file whose positions are searched again (one run or shard).
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// The file to write, or to resume.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: PathBuf,
    /// Search each position at most this many plies.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    pub depth: Option<i32>,
    /// Search each position at most this many nodes [default with --soft-nodes:
    /// SOFT_NODES_HARD_FACTOR times that].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub nodes: Option<u64>,
    /// Deepen no further once an iteration ends past this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub soft_nodes: Option<u64>,
    /// Stop once the output holds at least this many positions (after a whole game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// `--concurrency` and `--hash`.
    #[command(flatten)]
    pub slots: GameSlots,
    /// The evaluation the searches use: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: super::eval_source::EvalSource,
}

/// Arguments of `chariot datagen merge`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct MergeArgs {
    /// The shard files.
    #[arg(required = true, num_args = 1.., value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
    /// The merged file (written whole or not at all; not one of the inputs).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: PathBuf,
}

/// Reads `--shard K/N`.
fn parse_shard(text: &str) -> std::result::Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| e.to_string())
}

/// With --soft-nodes and no --nodes, the hard limit is this many times the soft one: room for
/// the iteration that crosses the soft limit, a cap on a search that explodes.
pub const SOFT_NODES_HARD_FACTOR: u64 = 5;

/// Runs the mode the arguments ask for: results on `out`, notes (resuming a file) on stderr.
pub fn run(args: &DatagenArgs, out: &mut impl Write, progress: bool) -> Result<()> {
    match &args.action {
        Some(DatagenAction::Merge(merge_args)) => return run_merge(merge_args, out),
        Some(DatagenAction::Rescore(rescore_args)) => {
            return run_rescore(rescore_args, out, &mut std::io::stderr(), progress)
        }
        None => {}
    }
    if let Some(path) = &args.stats {
        return stats(path, !args.quick, out);
    }
    let path = args.out.as_deref().ok_or_else(|| anyhow!("--out FILE is required"))?;
    let mut cfg = if args.scored {
        let hard = match args.soft_nodes {
            Some(soft) => {
                args.nodes.unwrap_or(soft.saturating_mul(SOFT_NODES_HARD_FACTOR).min(u64::from(u32::MAX)))
            }
            None => args.nodes.unwrap_or(5000),
        };
        if args.soft_nodes.is_some_and(|soft| soft > hard) {
            bail!("--soft-nodes must not be above --nodes, the hard limit");
        }
        let mut cfg = DatagenConfig::scored(hard, args.random_plies, args.seed);
        cfg.soft_nodes = args.soft_nodes;
        cfg
    } else {
        DatagenConfig::new(
            args.games.unwrap_or(0) as usize,
            args.nodes.unwrap_or(2000),
            args.random_plies,
            args.seed,
        )
    };
    cfg.concurrency = args.slots.concurrency as usize;
    cfg.hash_mb = args.slots.hash as usize;
    cfg.shard = args.shard.unwrap_or(Shard::WHOLE);
    cfg.eval = args.eval.choice()?;
    if let Some(file) = &args.openings {
        cfg.openings = openings::load(file)?;
    }
    cfg.validate().map_err(Error::msg)?;
    // A first run's folder (`--out ~/chariot-data/s1.bin`) is made rather than refused.
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty() && !dir.exists()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    if args.scored {
        let target = match (args.games, args.positions) {
            (Some(n), _) => Target::Games(n),
            (None, Some(n)) => Target::Positions(n),
            (None, None) => bail!("--scored needs --games N or --positions N"),
        };
        run_scored(path, &cfg, target, out, &mut std::io::stderr(), progress)
    } else {
        run_text(path, &cfg, out, progress)
    }
}

/// The progress bar of `len` games or positions (`unit`).
fn bar(len: u64, progress: bool, unit: &str) -> ProgressBar {
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} {{msg}} [{{elapsed}} < {{eta}}]");
    progress_bar(len, progress, bar_style(&template))
}

/// The text mode: plays the games, writes the `FEN;result` file, prints a summary.
fn run_text(path: &Path, cfg: &DatagenConfig, out: &mut impl Write, progress: bool) -> Result<()> {
    // Refuse an unwritable destination before playing for minutes.
    check_writable(path)?;
    let bar = bar(cfg.games as u64, progress, "games");
    let kept = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let games = generate(cfg, &|game: &GameData| {
        let total = kept.fetch_add(game.fens.len(), std::sync::atomic::Ordering::SeqCst) + game.fens.len();
        bar.set_message(format!("{total} positions"));
        bar.inc(1);
    })
    .map_err(Error::msg)?;
    bar.finish_and_clear();

    let text: String = games.iter().map(GameData::lines).collect();
    write_file(path, &text)?;
    let count = |r: f64| games.iter().filter(|g| g.result == r).count();
    let positions: usize = games.iter().map(|g| g.fens.len()).sum();
    writeln!(
        out,
        "games {} (red wins {}, draws {}, black wins {}), {positions} positions written to {}, {:.1} s",
        games.len(),
        count(1.0),
        count(0.5),
        count(0.0),
        path.display(),
        started.elapsed().as_secs_f64()
    )?;
    out.flush()?;
    Ok(())
}

/// The scored mode: appends games to the data file until the target holds, then prints games,
/// positions and positions per second.
fn run_scored(
    path: &Path,
    cfg: &DatagenConfig,
    target: Target,
    out: &mut impl Write,
    err: &mut impl Write,
    progress: bool,
) -> Result<()> {
    let (len, unit) = match target {
        Target::Games(n) => (n, "games"),
        Target::Positions(n) => (n, "positions"),
    };
    let bar = bar(len, progress, unit);
    let started = Instant::now();
    let summary = scored::run(
        path,
        cfg,
        target,
        &mut |note| {
            bar.suspend(|| {
                let _ = writeln!(err, "{note}");
            })
        },
        &mut |p: &Progress| {
            bar.set_position(match target {
                Target::Games(_) => p.file_games,
                Target::Positions(_) => p.file_positions,
            });
            if p.games == 0 {
                // Before the first game: what the file held already says nothing of the speed.
                bar.reset_eta();
            }
            let rate = p.positions as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "({} games, {} positions, {rate:.0} positions/s)",
                p.file_games, p.file_positions
            ));
        },
    )
    .map_err(Error::msg)?;
    bar.finish_and_clear();
    let p = &summary.progress;
    let secs = summary.elapsed.as_secs_f64();
    writeln!(
        out,
        "games {} (red wins {}, draws {}, black wins {}), {} positions in {secs:.1} s: {:.1} positions/s; \
         {} now holds {} games, {} positions",
        p.games,
        p.red_wins,
        p.draws,
        p.black_wins,
        p.positions,
        p.positions as f64 / secs.max(1e-9),
        path.display(),
        p.file_games,
        p.file_positions
    )?;
    out.flush()?;
    Ok(())
}

/// `merge -o OUT FILE…`: merges the shard files and prints what was written.
fn run_merge(args: &MergeArgs, out: &mut impl Write) -> Result<()> {
    if let Some(dir) = args.out.parent().filter(|dir| !dir.as_os_str().is_empty() && !dir.exists()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    let s = merge::merge(&args.inputs, &args.out)?;
    writeln!(
        out,
        "merged {} file{} ({} shard{} of seed {}, nodes {}, settings {:016x}): {} games, {} positions written to {}",
        s.files,
        if s.files == 1 { "" } else { "s" },
        s.shards,
        if s.shards == 1 { "" } else { "s" },
        s.header.seed,
        s.header.nodes,
        s.header.settings,
        s.games,
        s.records,
        args.out.display()
    )?;
    out.flush()?;
    Ok(())
}

/// `rescore IN -o OUT`: searches the positions again and prints what changed.
fn run_rescore(args: &RescoreArgs, out: &mut impl Write, err: &mut impl Write, progress: bool) -> Result<()> {
    if args.soft_nodes.zip(args.nodes).is_some_and(|(soft, hard)| soft > hard) {
        bail!("--soft-nodes must not be above --nodes, the hard limit");
    }
    let cfg = RescoreConfig {
        depth: args.depth,
        nodes: args.nodes.or(args
            .soft_nodes
            .map(|soft| soft.saturating_mul(SOFT_NODES_HARD_FACTOR).min(u64::from(u32::MAX)))),
        soft_nodes: args.soft_nodes,
        concurrency: args.slots.concurrency as usize,
        hash_mb: args.slots.hash as usize,
        eval: args.eval.choice()?,
        positions: args.positions,
    };
    // Without a target, the input's blocks less its header: its positions, as near as a bar needs.
    let total = args.positions.unwrap_or_else(|| {
        std::fs::metadata(&args.input).map_or(0, |m| (m.len() / BLOCK as u64).saturating_sub(1))
    });
    let bar = bar(total, progress, "positions");
    let started = Instant::now();
    let summary = rescore::rescore(
        &args.input,
        &args.out,
        &cfg,
        &mut |note| {
            bar.suspend(|| {
                let _ = writeln!(err, "{note}");
            })
        },
        &mut |p: &RescoreProgress| {
            bar.set_position(p.file_positions);
            if p.games == 0 {
                bar.reset_eta();
            }
            let rate = p.positions as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("({} positions, {rate:.0} positions/s)", p.file_positions));
        },
    )
    .map_err(Error::msg)?;
    bar.finish_and_clear();
    let p = &summary.progress;
    let secs = summary.elapsed.as_secs_f64();
    writeln!(
        out,
        "rescored {} games, {} positions in {secs:.1} s ({:.1} positions/s): mean score change {:.1}, best move changed in {:.1}%; \
         {} now holds {} positions{}",
        p.games,
        p.positions,
        p.positions as f64 / secs.max(1e-9),
        p.score_change as f64 / p.positions.max(1) as f64,
        percent(p.best_changed, p.positions),
        args.out.display(),
        p.file_positions,
        if summary.complete { ", every game of the input" } else { "" }
    )?;
    out.flush()?;
    Ok(())
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// `--stats FILE`: checks the file (refusing it with the fault) and prints what it holds.
fn stats(path: &Path, full: bool, out: &mut impl Write) -> Result<()> {
    let s: DataStats = stats::collect(path, full)?;
    let shown = 3;
    let mut shards: Vec<String> = s
        .shards
        .iter()
        .take(if s.shards.len() > shown + 1 { shown } else { shown + 1 })
        .map(|h| {
            let shard = if h.shard.is_whole() { String::new() } else { format!(", shard {}", h.shard) };
            format!("seed {}, nodes {}, settings {:016x}{shard}", h.seed, h.nodes, h.settings)
        })
        .collect();
    if s.shards.len() > shards.len() {
        shards.push(format!("… {} more", s.shards.len() - shards.len()));
    }
    // The newest version among the headers (a concatenation may mix whole runs and shards).
    let version = s.shards.iter().map(|h| h.version()).max().unwrap_or(1);
    writeln!(
        out,
        "{}: format version {version}, {} shard{} ({})",
        path.display(),
        s.shards.len(),
        if s.shards.len() == 1 { "" } else { "s" },
        shards.join("; ")
    )?;
    let mut seen = std::collections::HashSet::new();
    let repeated = s.shards.iter().filter(|h| !seen.insert(**h)).count();
    if repeated > 0 {
        writeln!(
            out,
            "warning: {repeated} shard{} the seed and settings of an earlier one: the same games twice",
            if repeated == 1 { " repeats" } else { "s repeat" }
        )?;
    }
    writeln!(
        out,
        "records {}, games {}{}, {:.1} positions a game",
        s.records,
        s.games,
        if s.unfinished_games > 0 {
            format!(" ({} without their last record)", s.unfinished_games)
        } else {
            String::new()
        },
        s.records as f64 / s.games.max(1) as f64
    )?;
    let [black, draw, red] = s.game_results;
    writeln!(
        out,
        "games: red wins {red} ({:.1}%), draws {draw} ({:.1}%), black wins {black} ({:.1}%)",
        percent(red, s.games),
        percent(draw, s.games),
        percent(black, s.games)
    )?;
    let ends: Vec<String> = GameEnd::ALL
        .iter()
        .filter(|e| s.game_ends[e.code() as usize] > 0)
        .map(|e| format!("{e} {}", s.game_ends[e.code() as usize]))
        .collect();
    writeln!(out, "game ends: {}", if ends.is_empty() { "none".to_string() } else { ends.join(", ") })?;
    let [loss, draw, win] = s.position_results;
    writeln!(
        out,
        "positions: red to move {:.1}%; result for the side to move: wins {:.1}%, draws {:.1}%, losses {:.1}%",
        percent(s.red_to_move, s.records),
        percent(win, s.records),
        percent(draw, s.records),
        percent(loss, s.records)
    )?;
    let mean = |w| s.mean_score(w).map_or("-".to_string(), |m| format!("{m:+.0}"));
    writeln!(
        out,
        "mean score for the side to move, by its result: win {}, draw {}, loss {}",
        mean(Wdl::Win),
        mean(Wdl::Draw),
        mean(Wdl::Loss)
    )?;
    if s.records > 0 {
        writeln!(
            out,
            "plies {}..{}, mean {:.1}; best move a capture in {} records",
            s.plies.0,
            s.plies.1,
            s.plies.2 as f64 / s.records as f64,
            s.capture_best_moves
        )?;
    }
    writeln!(out, "score for the side to move (centipawns):")?;
    let most = s.score_histogram.iter().copied().max().unwrap_or(0).max(1);
    for (i, &n) in s.score_histogram.iter().enumerate() {
        let label = match i {
            0 => format!("≤ {}", SCORE_EDGES[0]),
            i if i == SCORE_EDGES.len() => format!("> {}", SCORE_EDGES[i - 1]),
            i => format!("{}..{}", SCORE_EDGES[i - 1] + 1, SCORE_EDGES[i]),
        };
        let width = (40 * n).div_ceil(most) as usize;
        writeln!(out, "  {label:>12} {n:>10} {:>5.1}% {}", percent(n, s.records), "#".repeat(width))?;
    }
    writeln!(
        out,
        "check: every record valid ({})",
        if full {
            "board, labels, order; each position legal and each best move legal"
        } else {
            "board, labels, order; --quick: positions and moves not checked against the rules"
        }
    )?;
    out.flush()?;
    Ok(())
}
