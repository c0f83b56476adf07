//! Command-line subcommands. With none, the binary runs the UCCI/UCI loop on stdin/stdout.
//!
//! Each subcommand lives in its own file with its clap `Args` struct and a `run` that writes
//! results to stdout and diagnostics to stderr, returning a `CliError` for bad input.

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod eval;
pub mod judge;
pub mod matches;
pub mod nnue;
pub mod perft;
pub mod play;
pub mod show;
pub mod tune;

use std::fmt;
use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::protocol;

/// Exit status for bad input (the same status clap uses for bad arguments).
pub const EXIT_BAD_INPUT: u8 = 2;

/// `chariot [SUBCOMMAND]`.
#[derive(Parser, Debug)]
#[command(name = "chariot", version, about = "Chariot: a xiangqi engine speaking UCCI and UCI")]
pub struct Cli {
    /// What to do; without one, the engine reads UCCI/UCI commands on stdin.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree (checks the move generator, measures its speed).
    Perft(perft::PerftArgs),
    /// Play engines against each other (UCCI or UCI) and report Elo, LOS and SPRT.
    Match(matches::MatchArgs),
    /// Draw a position with Chinese piece characters.
    Show(show::ShowArgs),
    /// Search positions and print every iteration (text or JSON lines).
    Analyze(analyze::AnalyzeArgs),
    /// Annotate a game: scores, best alternatives, ?!/?/?? marks and a summary per side.
    Annotate(annotate::AnnotateArgs),
    /// Play against the engine in the terminal (commands on stdin; `help` lists them).
    Play(play::PlayArgs),
    /// Explain the static evaluation of a position, piece by piece and term by term.
    Eval(eval::EvalArgs),
    /// Replay a game and report where and why the rules end it (perpetual check or chase, …).
    Judge(judge::JudgeArgs),
    /// Search the fixed bench positions and print the node count and speed.
    Bench(bench::BenchArgs),
    /// Opening books: probe, build (from PGN or from search), import BOOK.DAT, dump, merge.
    Book(book::BookArgs),
    /// Play fast self-play games and write quiet positions with their results (tuning data).
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation weights to game results (Texel's method) and write a new weights.rs.
    Tune(tune::TuneArgs),
    /// Neural evaluation nets: check a net file, make one with random weights, train one.
    Nnue(nnue::NnueArgs),
}

/// A refusal a subcommand reports as `error: <message>` on stderr, with exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError(format!("cannot write the output: {e}"))
    }
}

/// Parses the command line and runs what it asks for.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => protocol::run_stdio().map_err(CliError::from),
        Some(Command::Perft(args)) => {
            perft::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock())
        }
        Some(Command::Match(args)) => matches::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Show(args)) => {
            let color = std::io::stdout().is_terminal();
            show::run(&args, &mut std::io::stdout().lock(), color)
        }
        Some(Command::Analyze(args)) => analyze::run(
            &args,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout(),
            &mut std::io::stderr().lock(),
        ),
        Some(Command::Annotate(args)) => {
            annotate::run(&args, &mut std::io::stdout().lock(), annotate::progress_wanted())
        }
        Some(Command::Play(args)) => play::run(
            &args,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
            std::io::stdout().is_terminal(),
            std::io::stdin().is_terminal(),
        ),
        Some(Command::Eval(args)) => eval::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Judge(args)) => judge::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Bench(args)) => bench::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Book(args)) => {
            book::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock())
        }
        Some(Command::Datagen(args)) => {
            datagen::run(&args, &mut std::io::stdout().lock(), datagen::progress_wanted())
        }
        Some(Command::Tune(args)) => tune::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Nnue(args)) => nnue::run(&args, &mut std::io::stdout().lock()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
