//! Command-line subcommands. With none, the binary runs the UCCI/UCI loop on stdin/stdout.
//!
//! Each subcommand lives in its own file with its clap `Args` struct and a `run` that writes
//! results to stdout and diagnostics to stderr; what several share is in `common`. A refusal is
//! an `anyhow::Error` whose context names the file or process it concerns, reported on stderr
//! as one line, `error: outer: inner`, with exit status 2.

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod book;
pub mod common;
pub mod datagen;
pub mod egtb;
pub mod eval;
pub mod eval_source;
pub mod judge;
pub mod lab;
pub mod matches;
pub mod nnue;
pub mod perft;
pub mod play;
pub mod serve;
pub mod show;
pub mod spsa;
pub mod tune;
pub mod winrate_fit;

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::protocol;

/// Exit status for bad input (the same status clap uses for bad arguments).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status of `match report` on a match with games missing: its table was printed, but a
/// script must notice that a shard failed.
pub const EXIT_INCOMPLETE: u8 = 1;

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
    /// The textbook lab: the book's search algorithms side by side, leaves, nodes and time.
    Lab(lab::LabArgs),
    /// Opening books: probe, build (from PGN or from search), import BOOK.DAT, dump, merge.
    Book(book::BookArgs),
    /// Serve a web board: play the engine or a friend in the browser, others watch.
    Serve(serve::ServeArgs),
    /// Play fast self-play games and write quiet positions with their results (tuning data).
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation weights to game results (Texel's method) and write a new weights.rs.
    Tune(tune::TuneArgs),
    /// Tune an engine's search parameters by game pairs (SPSA), resumable from a state file.
    Spsa(spsa::SpsaArgs),
    /// Neural evaluation nets: check a net file, make one with random weights, train one.
    Nnue(nnue::NnueArgs),
    /// Endgame tablebases: generate, probe, verify.
    Egtb(egtb::EgtbArgs),
}

/// Parses the command line and runs what it asks for.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match run_command(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            if e.downcast_ref::<matches::Incomplete>().is_some() {
                ExitCode::from(EXIT_INCOMPLETE)
            } else {
                ExitCode::from(EXIT_BAD_INPUT)
            }
        }
    }
}

/// Runs a subcommand, or the protocol loop without one, on the process's standard streams.
fn run_command(command: Option<Command>) -> Result<()> {
    match command {
        None => protocol::run_stdio().context(OUTPUT_FAILED),
        Some(Command::Perft(args)) => {
            perft::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock())
        }
        Some(Command::Match(args)) => matches::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Show(args)) => show::run(&args, &mut std::io::stdout().lock(), stdout_color()),
        Some(Command::Analyze(args)) => analyze::run(
            &args,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout(),
            &mut std::io::stderr().lock(),
        ),
        Some(Command::Annotate(args)) => {
            annotate::run(&args, &mut std::io::stdout().lock(), common::progress_wanted())
        }
        Some(Command::Play(args)) => play::run(
            &args,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
            stdout_color(),
            std::io::stdin().is_terminal(),
        ),
        Some(Command::Eval(args)) => eval::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Judge(args)) => judge::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Bench(args)) => bench::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Lab(args)) => lab::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Book(args)) => {
            book::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock())
        }
        Some(Command::Serve(args)) => serve::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Datagen(args)) => {
            datagen::run(&args, &mut std::io::stdout().lock(), common::progress_wanted())
        }
        Some(Command::Tune(args)) => tune::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Spsa(args)) => spsa::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Nnue(args)) => nnue::run(&args, &mut std::io::stdout().lock()),
        Some(Command::Egtb(args)) => egtb::run(&args, &mut std::io::stdout().lock()),
    }
}

/// What a failure to write the results says.
/// Whether the board on stdout is drawn in colour: a terminal, and no `NO_COLOR`.
fn stdout_color() -> bool {
    common::color_wanted(std::io::stdout().is_terminal(), std::env::var_os("NO_COLOR").as_deref())
}

const OUTPUT_FAILED: &str = "cannot write the output";

/// The line a refusal is reported as (after `error: `): the error and its causes, outermost
/// first, `outer: inner`. Every file and process a subcommand uses is named in the context of
/// its errors, so an I/O error with nothing said about it came from writing the results to
/// stdout or stderr (the `?` after a `writeln!`), and is reported as such.
pub fn error_line(e: &anyhow::Error) -> String {
    let bare_io = e.chain().count() == 1 && e.downcast_ref::<std::io::Error>().is_some();
    if bare_io {
        format!("{OUTPUT_FAILED}: {e}")
    } else {
        format!("{e:#}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;

    #[test]
    fn an_error_is_one_line_outermost_first() {
        let e = anyhow!("bad FEN: 2 ranks instead of 10");
        assert_eq!(error_line(&e), "bad FEN: 2 ranks instead of 10");
        let e = Err::<(), _>(std::io::Error::from(std::io::ErrorKind::NotFound))
            .context("cannot read game.pgn")
            .unwrap_err();
        assert_eq!(error_line(&e), "cannot read game.pgn: entity not found");
        let e = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert_eq!(error_line(&e), "cannot write the output: broken pipe");
    }
}
