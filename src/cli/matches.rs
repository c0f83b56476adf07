//! `chariot match --engine name=A,cmd=PATH … --engine … [options]`: plays engines against each
//! other and reports Elo, LOS and, with `--sprt`, the test's verdict.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::CliError;
use crate::notation::MoveNotation;
use crate::tournament::{
    openings, run_match, DrawRule, EngineSpec, GameSettings, Limit, MatchConfig, Opening, ResignRule,
    SprtSpec,
};

/// Arguments of `chariot match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine: `name=A,cmd=PATH[,proto=ucci|uci][,ranks=0|1][,arg=X…][,option.X=Y…]` (two or more).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// The first engine plays each other one, instead of everyone playing everyone.
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pairing.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Clock per side in seconds, `BASE[+INC]` (e.g. `10+0.1`).
    #[arg(long, group = "limit")]
    pub tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, group = "limit")]
    pub depth: Option<u32>,
    /// Fixed milliseconds per move.
    #[arg(long, group = "limit")]
    pub movetime: Option<u64>,
    /// Openings: one per line, ICCS moves from the start or a FEN (`[moves …]`).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games played at once, each with its own engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write the games here (rewritten after each game).
    #[arg(long, value_name = "OUT.pgn")]
    pub pgn: Option<PathBuf>,
    /// Move notation in the PGN: iccs, wxf or chinese.
    #[arg(long, default_value = "iccs")]
    pub pgn_notation: MoveNotation,
    /// Stop on a verdict of this test: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Continue the match recorded in the `--pgn` file, keeping its finished games.
    #[arg(long)]
    pub resume: bool,
    /// Draw adjudication: `movenumber=N,movecount=M,score=CP`.
    #[arg(long, value_name = "SPEC")]
    pub draw: Option<String>,
    /// Resign adjudication: `movecount=M,score=CP`.
    #[arg(long, value_name = "SPEC")]
    pub resign: Option<String>,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub tolerance: u64,
    /// Seconds to wait for a move under --nodes or --depth before the engine loses.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
}

/// The match configuration the arguments describe; every refusal is a sentence.
pub fn config(args: &MatchArgs) -> Result<MatchConfig, CliError> {
    let engines =
        args.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<Vec<_>, _>>().map_err(CliError)?;
    let limit = match (&args.tc, args.nodes, args.depth, args.movetime) {
        (Some(tc), ..) => Limit::parse_tc(tc).map_err(CliError)?,
        (_, Some(n), ..) if n > 0 => Limit::Nodes(n),
        (_, _, Some(d), _) if d > 0 => Limit::Depth(d),
        (.., Some(ms)) if ms > 0 => Limit::MoveTime(ms),
        (None, None, None, None) => {
            return Err(CliError("give one of --tc, --nodes, --depth or --movetime".to_string()))
        }
        _ => return Err(CliError("--nodes, --depth and --movetime must be more than zero".to_string())),
    };
    let openings = match &args.openings {
        Some(path) => openings::load(path).map_err(CliError)?,
        None => vec![Opening::startpos()],
    };
    Ok(MatchConfig {
        engines,
        gauntlet: args.gauntlet,
        games: args.games,
        openings,
        concurrency: args.concurrency,
        pgn: args.pgn.clone(),
        notation: args.pgn_notation,
        sprt: args.sprt.as_deref().map(SprtSpec::parse).transpose().map_err(CliError)?,
        resume: args.resume,
        settings: GameSettings {
            limit,
            tolerance_ms: args.tolerance,
            move_timeout: Duration::from_secs(args.timeout.max(1)),
            draw: args.draw.as_deref().map(DrawRule::parse).transpose().map_err(CliError)?,
            resign: args.resign.as_deref().map(ResignRule::parse).transpose().map_err(CliError)?,
        },
    })
}

/// Runs the match: progress on stderr, the results table on `out`.
pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<(), CliError> {
    let config = config(args)?;
    run_match(&config, out).map(|_| ()).map_err(CliError)
}
