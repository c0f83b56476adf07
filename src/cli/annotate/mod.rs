//! `chariot annotate GAME.pgn [--movetime MS | --depth D] [-o OUT.pgn] [--json] [--svg FILE]
//! [--book FILES | --no-book] [--evalfile NET | --classic]`: searches every position of a game,
//! comments each move with the score and Red's expected score, the engine's best alternative,
//! marks inaccuracies (?!), mistakes (?) and blunders (??) by the expected score (win + ½ draw)
//! they lose, leaves the opening book's moves unmarked, sums up each side's play and can draw the
//! game's curve. Every score is from Red's view, on the normalised scale of the evaluation's
//! win-rate model.

pub mod judge;
pub mod report;

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use super::common::{bar_style, check_writable, load_games, progress_bar, write_file};
use crate::board::Color;
use crate::book::BookSet;
use crate::notation::{write_pgn, MoveNotation};
use crate::search::{Engine, Limits};

pub use judge::{analyse_game, mark_for, MoveReport, BLUNDER, INACCURACY, MISTAKE, THRESHOLDS};
pub use report::{annotated, summarise, SideSummary};

/// Depth searched per position when no limit is given.
pub const DEFAULT_DEPTH: i32 = 8;

/// Arguments of `chariot annotate`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct AnnotateArgs {
    /// The game(s) to annotate (PGN with ICCS, WXF or Chinese moves).
    pub game: PathBuf,
    /// Search each position this many milliseconds.
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search each position this many plies (the default is 8).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=127))]
    pub depth: Option<i32>,
    /// Write the annotated PGN here instead of to stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT.pgn")]
    pub output: Option<PathBuf>,
    /// Print one JSON object per move and a summary instead of the PGN and text summary.
    #[arg(long)]
    pub json: bool,
    /// Draw the game's curve (Red's expected score by ply, with the marks) as SVG here; with
    /// several games, the second goes to FILE-2.svg, the third to FILE-3.svg, and so on.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Opening books whose moves are never marked: paths separated by `;`, `embedded` for the
    /// built-in book (the default).
    #[arg(long, value_name = "FILES", default_value = "embedded", conflicts_with = "no_book")]
    pub book: String,
    /// Judge the book's moves like any other.
    #[arg(long)]
    pub no_book: bool,
    /// Notation of the moves in the written PGN and its comments: iccs, wxf or chinese.
    #[arg(long, default_value = "iccs")]
    pub notation: MoveNotation,
    /// Hash table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The evaluation: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: super::eval_source::EvalSource,
}

/// The books whose moves are not marked, as `args` asks (`None` with `--no-book`).
fn books(args: &AnnotateArgs) -> Result<Option<BookSet>> {
    if args.no_book {
        return Ok(None);
    }
    Ok(Some(BookSet::from_option(&args.book)?))
}

/// Runs `chariot annotate`; the progress bar goes to stderr when `progress` (a terminal).
pub fn run(args: &AnnotateArgs, out: &mut impl Write, progress: bool) -> Result<()> {
    let games = load_games(&args.game)?;
    let books = books(args)?;
    for path in args.output.iter().chain(&args.svg) {
        check_writable(path)?;
    }
    let limits = match args.movetime {
        Some(ms) => Limits::movetime(ms),
        None => Limits::depth(args.depth.unwrap_or(DEFAULT_DEPTH)),
    };
    let mut engine = Engine::try_new(args.hash as usize)?;
    engine.options.eval = args.eval.choice()?;
    let model = engine.options.eval.win_rate();
    let total: usize = games.iter().map(|g| g.moves.len()).sum();
    let bar = progress_bar(total as u64, progress, bar_style("{bar:40} {pos}/{len} moves {elapsed}"));
    let mut pgn = String::new();
    let mut results = Vec::new();
    for game in &games {
        engine.clear_hash();
        let reports = analyse_game(&mut engine, game, &limits, &model, books.as_ref(), &mut || bar.inc(1));
        let mut marked = annotated(game, &reports, &model, args.notation);
        let limit = match args.movetime {
            Some(ms) => format!("{ms} ms per position"),
            None => format!("depth {}", args.depth.unwrap_or(DEFAULT_DEPTH)),
        };
        marked.tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Annotator"));
        marked.tags.push((
            "Annotator".into(),
            format!("Chariot {} ({limit}; scores from Red's view)", env!("CARGO_PKG_VERSION")),
        ));
        let text = write_pgn(&marked, args.notation).context("cannot write the game")?;
        if !pgn.is_empty() {
            pgn.push('\n');
        }
        pgn.push_str(&text);
        results.push(reports);
    }
    bar.finish_and_clear();
    if let Some(path) = &args.output {
        write_file(path, &pgn)?;
    } else if !args.json {
        writeln!(out, "{pgn}")?;
    }
    if let Some(path) = &args.svg {
        for (g, (game, reports)) in games.iter().zip(&results).enumerate() {
            write_file(&report::curve_path(path, g + 1), &report::curve(game, g + 1, reports))?;
        }
    }
    for (g, reports) in results.iter().enumerate() {
        let [red, black] = summarise(reports);
        if args.json {
            for r in reports {
                writeln!(out, "{}", report::report_json(g + 1, r, &model))?;
            }
            let summary = json!({
                "game": g + 1,
                "summary": {"red": report::summary_json(&red), "black": report::summary_json(&black)},
            });
            writeln!(out, "{summary}")?;
        } else {
            if results.len() > 1 {
                writeln!(out, "Game {}:", g + 1)?;
            }
            for (side, s) in [(Color::Red, &red), (Color::Black, &black)] {
                writeln!(out, "{}", report::summary_line(side, s))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
