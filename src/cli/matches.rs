//! `chariot match --engine name=A,cmd=PATH … --engine … [options]`: plays engines against each
//! other (all the games, or with `--shard K/N` one slice of them) and reports Elo, LOS and, with
//! `--sprt`, the test's verdict. `chariot match report A.pgn B.pgn …` reports on the games of
//! PGNs that shards wrote, as the one process that played them all would have.

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use indicatif::ProgressBar;

use super::common::{bar_style, progress_bar, progress_wanted};

use crate::counted::counted;
use crate::notation::MoveNotation;
use crate::tournament::random_plies::MAX_RANDOM_PLIES;
use crate::tournament::ratings;
use crate::tournament::report::{progress_line, write_merged, write_ratings};
use crate::tournament::spec::{seconds, whole_number};
use crate::tournament::{
    merge_files, openings, run_match, DrawRule, EngineSpec, FinishedGame, GameSettings, Limit, MatchConfig,
    MatchProgress, Opening, RandomPlies, ResignRule, Shard, SprtSpec, Tally,
};

/// Arguments of `chariot match`: the match to play, or `report` and its arguments.
#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    /// `report`: the results of shards' PGNs instead of a match to play.
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// An engine: `name=A,cmd=PATH[,proto=ucci|uci][,ranks=0|1][,arg=X…][,option.X=Y…]` (two or more).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// The first engine plays each other one, instead of everyone playing everyone.
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pairing (1 to 100000).
    #[arg(long, default_value = "2", value_name = "N")]
    pub games: String,
    /// The search limit and the deadlines (boxed, so that `Command` stays small).
    #[command(flatten)]
    pub limits: Box<LimitArgs>,
    /// The openings, their random plies and the seed.
    #[command(flatten)]
    pub opening: OpeningArgs,
    /// Games played at once, each with its own engine processes (1 to 256).
    #[arg(long, default_value = "1", value_name = "N")]
    pub concurrency: String,
    /// Write the games here (rewritten after each game).
    #[arg(long, value_name = "OUT.pgn")]
    pub pgn: Option<PathBuf>,
    /// Move notation in the PGN: iccs, wxf or chinese.
    #[arg(long, default_value = "iccs")]
    pub pgn_notation: MoveNotation,
    /// Stop on a verdict of this test: `elo0=0,elo1=5,alpha=0.05,beta=0.05`. A shard
    /// (`--shard`) plays all its games: the verdict needs every shard's games (`chariot match
    /// report`).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Play only shard K of N: the games g (numbered 1 to T as one process plays them) with
    /// (g - 1) mod N = K - 1. `chariot match report` merges the shards' PGNs.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Continue the match recorded in the `--pgn` file, keeping its finished games (refused when
    /// they were played with other settings; a larger `--games` extends the match).
    #[arg(long)]
    pub resume: bool,
    /// The `--draw` and `--resign` rules.
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
}

/// What `chariot match` does instead of playing.
#[derive(Subcommand, Debug, Clone)]
pub enum MatchCommand {
    /// Report on the games of match PGNs (the shards' of one match) as one process would.
    ///
    /// The results table, then the missing and duplicated games. Exit status 0 when every game is
    /// there, 1 when some are missing, 2 when the files cannot be merged.
    Report(ReportArgs),
    /// One Elo scale for every engine in the games of any number of PGNs (any matches).
    ///
    /// The maximum-likelihood Elo of each engine under the logistic model, the anchor fixed,
    /// with 95% errors against the anchor: a ladder of matches between neighbours becomes one
    /// table. Every engine must be linked to the anchor by a chain of games.
    Ratings(RatingsArgs),
}

/// Arguments of `chariot match ratings`.
#[derive(Args, Debug, Clone)]
pub struct RatingsArgs {
    /// PGN files of finished games (their `Red`, `Black` and `Result` tags are read).
    #[arg(required = true, value_name = "FILE.pgn")]
    pub files: Vec<PathBuf>,
    /// The engine whose Elo is fixed, and at what: `NAME=ELO` (`NAME` alone: 0).
    #[arg(long, value_name = "NAME=ELO")]
    pub anchor: String,
}

/// Arguments of `chariot match report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// The PGN files `chariot match --pgn` wrote (one per shard).
    #[arg(required = true, value_name = "FILE.pgn")]
    pub files: Vec<PathBuf>,
    /// The SPRT to judge by, instead of the one the games record.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
}

/// The openings and the random plies after them: part of `MatchArgs` and `SpsaArgs`.
#[derive(Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Openings: one per line, ICCS moves from the start or a FEN (`[moves …]`).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal plies after each opening, drawn anew for each game pair and kept when a
    /// depth-5 search finds the position within ±60 centipawns (0 to 20; 0: the openings as they
    /// are). Under a node or depth limit the same opening gives the same game again, so a match
    /// longer than two games an opening needs them to gather new evidence.
    #[arg(long, default_value = "0", value_name = "N")]
    pub random_plies: String,
    /// Seed of the random plies: the same seed gives each pair the same opening again.
    #[arg(long, default_value = "1", value_name = "SEED")]
    pub seed: String,
}

/// Draw and resign adjudication: part of `MatchArgs` and `SpsaArgs`.
#[derive(Args, Debug, Clone)]
pub struct AdjudicationArgs {
    /// Draw adjudication: `movenumber=N,movecount=M,score=CP` (both engines' scores within ±CP
    /// centipawns) or `movenumber=N,movecount=M,wdl=P` (both engines' draw chance at least P per
    /// mille), for M moves of each from move N on.
    #[arg(long, value_name = "SPEC")]
    pub draw: Option<String>,
    /// Resign adjudication: `movecount=M,score=CP` (one engine at or below -CP centipawns, the
    /// other at or above CP) or `movecount=M,wdl=P` (one engine's loss chance and the other's win
    /// chance at least P per mille), for M moves of each.
    #[arg(long, value_name = "SPEC")]
    pub resign: Option<String>,
}

/// How moves are limited and how long engines may take: part of `MatchArgs`.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Clock per side in seconds, `BASE[+INC]` (e.g. `10+0.1`; base up to a day, increment up to
    /// an hour).
    #[arg(long, group = "limit")]
    pub tc: Option<String>,
    /// Fixed nodes per move (1 to 10^12).
    #[arg(long, group = "limit", value_name = "N")]
    pub nodes: Option<String>,
    /// Fixed depth per move (1 to 1000).
    #[arg(long, group = "limit", value_name = "D")]
    pub depth: Option<String>,
    /// Fixed milliseconds per move (1 to 86400000, a day).
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<String>,
    /// Milliseconds an engine may overrun its clock before it loses on time (0 to 60000).
    #[arg(long, default_value = "100", value_name = "MS")]
    pub tolerance: String,
    /// Seconds to wait for a move under --nodes or --depth before the engine loses (0.1 to 86400).
    #[arg(long, default_value = "60", value_name = "SECONDS")]
    pub timeout: String,
    /// Seconds an engine may take to start: handshake, options, `isready` (0.1 to 600).
    #[arg(long, default_value = "10", value_name = "SECONDS")]
    pub handshake_timeout: String,
}

/// The most games per pairing.
pub const MAX_GAMES: u64 = 100_000;
/// The most games at once.
pub const MAX_CONCURRENCY: u64 = 256;
/// The largest `--tolerance`, in milliseconds.
pub const MAX_TOLERANCE_MS: u64 = 60_000;
/// The shortest `--timeout` and `--handshake-timeout`, in milliseconds.
pub const MIN_TIMEOUT_MS: u64 = 100;
/// The longest `--timeout`, in milliseconds: a day.
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;
/// The longest `--handshake-timeout`, in milliseconds.
pub const MAX_HANDSHAKE_TIMEOUT_MS: u64 = 600_000;

/// The match configuration the arguments describe; every refusal is a sentence, and a number
/// out of range is refused with its range.
pub fn config(args: &MatchArgs) -> Result<MatchConfig> {
    let engines = args.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<Vec<_>, _>>()?;
    let settings = game_settings(&args.limits, &args.adjudication)?;
    let games = whole_number("--games", &args.games, 1, MAX_GAMES)?;
    let concurrency = whole_number("--concurrency", &args.concurrency, 1, MAX_CONCURRENCY)?;
    let (openings, random_plies) = openings_and_plies(&args.opening)?;
    Ok(MatchConfig {
        engines,
        gauntlet: args.gauntlet,
        // The ranges fit the fields.
        games: games as u32,
        openings,
        random_plies,
        concurrency: concurrency as usize,
        pgn: args.pgn.clone(),
        notation: args.pgn_notation,
        sprt: args.sprt.as_deref().map(SprtSpec::parse).transpose()?,
        resume: args.resume,
        shard: args.shard.as_deref().map(Shard::parse).transpose()?,
        settings,
    })
}

/// How each game is played and judged, from the limit flags and the `--draw` and `--resign`
/// rules (`chariot match` and `chariot spsa` alike).
pub fn game_settings(limits: &LimitArgs, adjudication: &AdjudicationArgs) -> Result<GameSettings> {
    let limit = match (&limits.tc, &limits.nodes, &limits.depth, &limits.movetime) {
        (Some(tc), ..) => Limit::parse_tc(tc)?,
        (_, Some(n), ..) => Limit::parse_nodes(n)?,
        (_, _, Some(d), _) => Limit::parse_depth(d)?,
        (.., Some(ms)) => Limit::parse_movetime(ms)?,
        (None, None, None, None) => bail!("give one of --tc, --nodes, --depth or --movetime"),
    };
    let tolerance_ms = whole_number("--tolerance", &limits.tolerance, 0, MAX_TOLERANCE_MS)?;
    let timeout = seconds("--timeout", &limits.timeout, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS)?;
    let handshake =
        seconds("--handshake-timeout", &limits.handshake_timeout, MIN_TIMEOUT_MS, MAX_HANDSHAKE_TIMEOUT_MS)?;
    Ok(GameSettings {
        limit,
        tolerance_ms,
        move_timeout: Duration::from_millis(timeout),
        handshake_timeout: Duration::from_millis(handshake),
        draw: adjudication.draw.as_deref().map(DrawRule::parse).transpose()?,
        resign: adjudication.resign.as_deref().map(ResignRule::parse).transpose()?,
    })
}

/// The openings of `--openings` (the start position without it) and the `--random-plies` drawn
/// after them from `--seed`.
pub fn openings_and_plies(args: &OpeningArgs) -> Result<(Vec<Opening>, Option<RandomPlies>)> {
    let lines = match &args.openings {
        Some(path) => openings::load(path)?,
        None => vec![Opening::startpos()],
    };
    let plies = whole_number("--random-plies", &args.random_plies, 0, u64::from(MAX_RANDOM_PLIES))?;
    let seed = whole_number("--seed", &args.seed, 0, u64::MAX)?;
    // The range fits the field.
    let random_plies = (plies > 0).then_some(RandomPlies { plies: plies as u32, seed });
    Ok((lines, random_plies))
}

/// A report on a match some of whose games are missing: the table was printed, and the exit
/// status says that the match is not complete (`EXIT_INCOMPLETE`).
#[derive(Debug)]
pub struct Incomplete {
    /// How many games are missing.
    pub missing: usize,
    /// The games of the whole match.
    pub games: u32,
}

impl fmt::Display for Incomplete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.missing == 1 { "is" } else { "are" };
        write!(
            f,
            "the match is incomplete: {} of its {} {verb} missing",
            self.missing,
            counted(self.games, "game", "games")
        )
    }
}

impl std::error::Error for Incomplete {}

/// Runs the match (progress on stderr, the results table on `out`), or with `report` reports on
/// the PGNs (an `Incomplete` error when games are missing).
pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<()> {
    match &args.command {
        Some(MatchCommand::Report(report)) => return run_report(report, out),
        Some(MatchCommand::Ratings(ratings)) => return run_ratings(ratings, out),
        None => {}
    }
    let config = config(args)?;
    run_match(&config, out, &mut GameBar::new())?;
    Ok(())
}

/// The match's progress on stderr: a bar of the games with the first pairing's score beside it
/// when stderr is a terminal, and a line per game above it (only the lines in a log).
struct GameBar {
    bar: ProgressBar,
}

impl GameBar {
    fn new() -> GameBar {
        let style = bar_style("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]");
        GameBar { bar: progress_bar(0, progress_wanted(), style) }
    }
}

impl MatchProgress for GameBar {
    fn started(&mut self, games: u64, already_played: u64, first_pairing: Tally) {
        self.bar.set_length(games);
        self.bar.set_position(already_played);
        self.bar.set_message(progress_line(&first_pairing));
    }

    fn game_finished(&mut self, game: &FinishedGame<'_>) {
        let line = format!(
            "game {} {} - {}: {} ({})",
            game.round, game.red, game.black, game.result, game.termination
        );
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
        self.bar.inc(1);
        self.bar.set_message(progress_line(&game.first_pairing));
    }

    fn finished(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// `chariot match ratings`.
fn run_ratings(args: &RatingsArgs, out: &mut impl Write) -> Result<()> {
    let (name, elo) = match args.anchor.rsplit_once('=') {
        Some((name, elo)) => match elo.trim().parse::<f64>() {
            Ok(elo) if elo.is_finite() && elo.abs() <= 100_000.0 => (name, elo),
            _ => bail!("--anchor {}: the Elo after = must be a number within ±100000", args.anchor),
        },
        None => (args.anchor.as_str(), 0.0),
    };
    let games = ratings::read_encounters(&args.files)?;
    let table = ratings::fit(&games, name, elo)?;
    write_ratings(out, &table, games.len())?;
    Ok(())
}

/// `chariot match report`.
fn run_report(args: &ReportArgs, out: &mut impl Write) -> Result<()> {
    let chosen = args.sprt.as_deref().map(SprtSpec::parse).transpose()?;
    let merged = merge_files(&args.files)?;
    let sprt = merged.sprt(chosen)?;
    write_merged(out, &merged, sprt.as_ref(), args.files.len())?;
    if !merged.missing.is_empty() {
        return Err(Incomplete { missing: merged.missing.len(), games: merged.games }.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_incomplete_match_counts_its_missing_games_in_words() {
        let one = Incomplete { missing: 1, games: 6 }.to_string();
        assert_eq!(one, "the match is incomplete: 1 of its 6 games is missing");
        let two = Incomplete { missing: 2, games: 6 }.to_string();
        assert_eq!(two, "the match is incomplete: 2 of its 6 games are missing");
    }
}
