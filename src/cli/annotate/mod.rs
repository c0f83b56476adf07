//! `chariot annotate GAME.pgn [--movetime MS | --depth D] [-o OUT.pgn] [--json] [--svg FILE]
//! [--book FILES | --no-book] [--egtb DIR] [--evalfile NET | --classic]`: searches every position of a game,
//! comments each move with the score and Red's expected score, the engine's best alternative,
//! marks inaccuracies (?!), mistakes (?) and blunders (??) by the expected score (win + ½ draw)
//! they lose, leaves the opening book's moves unmarked, sums up each side's play and can draw the
//! game's curve. Every score is from Red's view, on the normalised scale of the evaluation's
//! win-rate model.

pub mod judge;
pub mod report;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;

use super::common::{bar_style, check_writable, progress_bar, tablebases, write_file};
use crate::board::Color;
use crate::book::BookSet;
use crate::files;
use crate::input_file;
use crate::notation::{pgn, write_pgn, MoveNotation, PgnGames};
use crate::search::{Engine, Limits};
use crate::winrate::WinRateModel;

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
    /// Endgame tablebases (`chariot egtb generate`): the search uses them, and a move played in
    /// an ending they hold is judged by them, its comment saying the table's verdict before and
    /// after it ("tablebase: win, mate in 13 plies → draw").
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
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

/// How many games a PGN text holds and their moves, every game read and checked once without
/// keeping it: a bad game is refused before any search, and the bar knows its length.
fn count_games(text: &str, path: &Path) -> Result<(usize, u64)> {
    let (mut games, mut moves) = (0, 0);
    for game in PgnGames::new(text) {
        let game = game.with_context(|| path.display().to_string())?;
        games += 1;
        moves += game.moves.len() as u64;
    }
    if games == 0 {
        bail!("{}: no game found", path.display());
    }
    Ok((games, moves))
}

/// Where the annotation goes while the games are read one at a time.
struct Sinks<'a> {
    /// The annotated PGN: the `-o` file being written, or stdout (`None` with `--json` and no
    /// `-o`, which writes no PGN).
    pgn: Option<&'a mut dyn Write>,
    /// Each move's JSON and each game's summary as they are found, with `--json`.
    json: Option<&'a mut dyn Write>,
}

/// Runs `chariot annotate`; the progress bar goes to stderr when `progress` (a terminal). The
/// games are read, searched and written one at a time, so a large PGN costs its text and one
/// game, not all of its games at once.
pub fn run(args: &AnnotateArgs, out: &mut impl Write, progress: bool) -> Result<()> {
    let text = input_file::read_text(&args.game, pgn::FILE_LIMIT)
        .with_context(|| format!("cannot read {}", args.game.display()))?;
    let (games, moves) = count_games(&text, &args.game)?;
    let books = books(args)?;
    for path in args.output.iter().chain(&args.svg) {
        check_writable(path)?;
    }
    let mut annotator = Annotator::new(args, &text, books)?;
    let bar = progress_bar(moves, progress, bar_style("{bar:40} {pos}/{len} moves {elapsed}"));
    let mut summaries = Vec::with_capacity(games);
    let mut tick = || bar.inc(1);
    match (&args.output, args.json) {
        (Some(path), json) => files::replace_with(path, |file| -> Result<()> {
            let json = if json { Some(out as &mut dyn Write) } else { None };
            annotator.all(Sinks { pgn: Some(file), json }, &mut tick, &mut summaries)
        })?,
        (None, true) => annotator.all(Sinks { pgn: None, json: Some(out) }, &mut tick, &mut summaries)?,
        (None, false) => {
            annotator.all(Sinks { pgn: Some(out), json: None }, &mut tick, &mut summaries)?;
            writeln!(out)?;
        }
    }
    bar.finish_and_clear();
    if !args.json {
        for (g, [red, black]) in summaries.iter().enumerate() {
            if summaries.len() > 1 {
                writeln!(out, "Game {}:", g + 1)?;
            }
            for (side, s) in [(Color::Red, red), (Color::Black, black)] {
                writeln!(out, "{}", report::summary_line(side, s))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// The engine and settings that annotate each game of one PGN text.
struct Annotator<'a> {
    args: &'a AnnotateArgs,
    text: &'a str,
    books: Option<BookSet>,
    engine: Engine,
    model: WinRateModel,
    limits: Limits,
}

impl<'a> Annotator<'a> {
    fn new(args: &'a AnnotateArgs, text: &'a str, books: Option<BookSet>) -> Result<Annotator<'a>> {
        let limits = match args.movetime {
            Some(ms) => Limits::movetime(ms),
            None => Limits::depth(args.depth.unwrap_or(DEFAULT_DEPTH)),
        };
        let mut engine = Engine::try_new(args.hash as usize)?;
        engine.options.eval = args.eval.choice()?;
        engine.options.tablebases = tablebases(args.egtb.as_deref())?;
        let model = engine.options.eval.win_rate();
        Ok(Annotator { args, text, books, engine, model, limits })
    }

    /// Annotates every game in turn, writing each as soon as it is done and keeping only its
    /// summary.
    fn all(
        &mut self,
        mut sinks: Sinks<'_>,
        tick: &mut dyn FnMut(),
        summaries: &mut Vec<[SideSummary; 2]>,
    ) -> Result<()> {
        let limit = match self.args.movetime {
            Some(ms) => format!("{ms} ms per position"),
            None => format!("depth {}", self.args.depth.unwrap_or(DEFAULT_DEPTH)),
        };
        for (g, game) in PgnGames::new(self.text).enumerate() {
            // `count_games` read every game once already.
            let game = game.with_context(|| self.args.game.display().to_string())?;
            self.engine.clear_hash();
            let tables = self.engine.options.tablebases.0.clone();
            let reports = analyse_game(
                &mut self.engine,
                &game,
                &self.limits,
                &self.model,
                self.books.as_ref(),
                tables.as_deref(),
                tick,
            );
            if let Some(pgn) = sinks.pgn.as_mut() {
                let mut marked = annotated(&game, &reports, &self.model, self.args.notation);
                marked.tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Annotator"));
                marked.tags.push((
                    "Annotator".into(),
                    format!("Chariot {} ({limit}; scores from Red's view)", env!("CARGO_PKG_VERSION")),
                ));
                let text = write_pgn(&marked, self.args.notation).context("cannot write the game")?;
                let separator = if g > 0 { "\n" } else { "" };
                write!(pgn, "{separator}{text}")?;
            }
            if let Some(path) = &self.args.svg {
                write_file(&report::curve_path(path, g + 1), &report::curve(&game, g + 1, &reports))?;
            }
            let [red, black] = summarise(&reports);
            if let Some(json) = sinks.json.as_mut() {
                for r in &reports {
                    writeln!(json, "{}", report::report_json(g + 1, r, &self.model))?;
                }
                let summary = json!({
                    "game": g + 1,
                    "summary": {"red": report::summary_json(&red), "black": report::summary_json(&black)},
                });
                writeln!(json, "{summary}")?;
            }
            summaries.push([red, black]);
        }
        Ok(())
    }
}
