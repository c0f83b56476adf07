//! Command-line subcommands. With none, the binary runs the UCCI/UCI loop on stdin/stdout.
//!
//! Each subcommand lives in its own file with its clap `Args` struct and a `run` that writes
//! results to stdout and diagnostics to stderr, returning a `CliError` for bad input.

pub mod book;
pub mod perft;

use std::fmt;
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
    /// Opening books: probe, build (from PGN or from search), import BOOK.DAT, dump, merge.
    Book(book::BookArgs),
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
        Some(Command::Book(args)) => {
            book::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
