//! `chariot book {probe | build | import | dump | merge}`: opening-book tools.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::{Args, Subcommand};

use super::common::{bar_style, progress_bar, progress_wanted, setup_position};
use crate::book::builder::{self, PgnBuildOptions, SearchBuildOptions};
use crate::book::{embedded, Book, ChariotBook};

/// Arguments of `chariot book`.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// What to do with books.
    #[command(subcommand)]
    pub action: BookAction,
}

/// The `book` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum BookAction {
    /// Print the book moves of a position, `<iccs> <weight>` per line, best first.
    Probe(ProbeArgs),
    /// Build a Chariot book from game records (--pgn) or from Chariot's own analysis (--search).
    Build(BuildArgs),
    /// Convert an ElephantEye BOOK.DAT into a Chariot book.
    Import(ImportArgs),
    /// Print every entry of a book as text, for inspection.
    Dump(DumpArgs),
    /// Merge Chariot books into one (weights of the same move in the same position add up).
    Merge(MergeArgs),
}

/// Arguments of `chariot book probe`.
#[derive(Args, Debug, Clone, Default)]
pub struct ProbeArgs {
    /// Book file, Chariot's or BOOK.DAT (default: the embedded book).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Position to start from, as one quoted argument (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played before probing, in ICCS, WXF or Chinese (e.g. `--moves h2e2 h9g7`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
}

/// Arguments of `chariot book build`.
#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// PGN files or directories of `*.pgn` files (moves in ICCS, WXF or Chinese).
    #[arg(long, num_args = 1.., value_name = "DIR_OR_FILE", required_unless_present = "search", conflicts_with = "search")]
    pub pgn: Vec<PathBuf>,
    /// Build from Chariot's own analysis, starting at the start position.
    #[arg(long)]
    pub search: bool,
    /// Output book file.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Book moves for positions up to this many plies from the start (default: 30 for --pgn, 8 for --search).
    #[arg(long)]
    pub max_ply: Option<usize>,
    /// --pgn: keep only moves played in at least this many games.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    /// --search: search depth for each position.
    #[arg(long, default_value_t = 8)]
    pub depth: i32,
    /// --search: keep moves within this many centipawns of the best.
    #[arg(long, default_value_t = 25)]
    pub margin: i32,
    /// --search: at most this many moves per position.
    #[arg(long, default_value_t = 4)]
    pub max_moves: usize,
    /// --search: hash table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// --search: search threads, at most one per core is used (1 gives the same book on every run).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
}

/// Arguments of `chariot book import`.
#[derive(Args, Debug, Clone)]
pub struct ImportArgs {
    /// The ElephantEye BOOK.DAT to convert.
    #[arg(long)]
    pub eleeye: PathBuf,
    /// Output book file.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Follow the book's moves at most this many plies from the start.
    #[arg(long, default_value_t = 60)]
    pub max_ply: usize,
}

/// Arguments of `chariot book dump`.
#[derive(Args, Debug, Clone)]
pub struct DumpArgs {
    /// Book file (Chariot's or BOOK.DAT).
    pub file: PathBuf,
}

/// Arguments of `chariot book merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// Chariot books to merge.
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// Output book file.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

/// Runs a `book` subcommand: results to `out`, summaries to `diag`.
pub fn run(args: &BookArgs, out: &mut impl Write, diag: &mut impl Write) -> Result<()> {
    match &args.action {
        BookAction::Probe(a) => probe(a, out),
        BookAction::Build(a) => build(a, diag),
        BookAction::Import(a) => import(a, diag),
        BookAction::Dump(a) => dump(a, out),
        BookAction::Merge(a) => merge(a, diag),
    }
}

fn probe(args: &ProbeArgs, out: &mut impl Write) -> Result<()> {
    let book = match &args.file {
        Some(f) => Book::open(f)?,
        None => embedded::book()?,
    };
    let pos = setup_position(args.fen.as_deref(), &args.moves)?;
    for e in book.probe(&pos) {
        writeln!(out, "{} {}", e.mv, e.weight)?;
    }
    Ok(())
}

fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
}

fn build(args: &BuildArgs, diag: &mut impl Write) -> Result<()> {
    let name = name_of(&args.output);
    let book = if args.search {
        if args.depth < 1 || args.max_moves < 1 || args.margin < 0 {
            bail!("--depth and --max-moves must be at least 1, --margin at least 0");
        }
        let opts = SearchBuildOptions {
            depth: args.depth,
            max_ply: args.max_ply.unwrap_or(8),
            margin: args.margin,
            max_moves: args.max_moves,
            hash_mb: args.hash as usize,
            threads: args.threads as usize,
        };
        let style = bar_style("{elapsed_precise} [{bar:40}] {pos}/{len} positions (eta {eta})");
        let bar = progress_bar(1, progress_wanted(), style.progress_chars("=> "));
        // Without a terminal (a log, CI) the bar is hidden: print a plain line now and then instead.
        let plain = bar.is_hidden();
        let book = builder::from_search(&opts, &name, &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            if plain && done.is_multiple_of(100) {
                let _ = writeln!(diag, "searched {done} positions, {total} found so far");
            }
        });
        bar.finish_and_clear();
        book?
    } else {
        let files = builder::pgn_files(&args.pgn)?;
        let games = builder::read_games(&files)?;
        let opts = PgnBuildOptions { max_ply: args.max_ply.unwrap_or(30), min_games: args.min_games };
        writeln!(diag, "read {} games from {} files", games.len(), files.len())?;
        builder::from_games(&games, opts, &name)
    };
    book.write(&args.output)?;
    summary(diag, &book, &args.output)
}

fn summary(diag: &mut impl Write, book: &ChariotBook, path: &Path) -> Result<()> {
    writeln!(
        diag,
        "wrote {}: {} positions, {} moves",
        path.display(),
        book.position_count(),
        book.entries().len()
    )?;
    Ok(())
}

fn import(args: &ImportArgs, diag: &mut impl Write) -> Result<()> {
    let Book::Eleeye(source) = Book::open(&args.eleeye)? else {
        bail!("'{}' is a Chariot book, not a BOOK.DAT", args.eleeye.display());
    };
    let (book, found) = builder::from_eleeye(&source, args.max_ply, &name_of(&args.output));
    writeln!(
        diag,
        "reached {found} positions of the BOOK.DAT's {} records from the start",
        source.records().len()
    )?;
    book.write(&args.output)?;
    summary(diag, &book, &args.output)
}

fn dump(args: &DumpArgs, out: &mut impl Write) -> Result<()> {
    match Book::open(&args.file)? {
        Book::Chariot(b) => {
            writeln!(
                out,
                "# Chariot book: {} positions, {} entries (key move weight)",
                b.position_count(),
                b.entries().len()
            )?;
            for e in b.entries() {
                writeln!(out, "{:016x} {} {}", e.key, crate::board::Move::from_bits(e.mv), e.weight)?;
            }
        }
        Book::Eleeye(b) => {
            writeln!(out, "# BOOK.DAT: {} records (lock move weight)", b.records().len())?;
            for r in b.records() {
                writeln!(out, "{:08x} {} {}", r.lock, crate::board::Move::from_bits(r.mv), r.weight)?;
            }
        }
    }
    Ok(())
}

fn merge(args: &MergeArgs, diag: &mut impl Write) -> Result<()> {
    let mut all = Vec::new();
    for path in &args.inputs {
        match Book::open(path)? {
            Book::Chariot(b) => all.extend(b.entries().iter().map(|e| (e.key, e.mv, e.weight as u64))),
            Book::Eleeye(_) => {
                bail!("'{}' is a BOOK.DAT; convert it first with `chariot book import`", path.display())
            }
        }
    }
    let book = ChariotBook::from_entries(name_of(&args.output), all);
    book.write(&args.output)?;
    summary(diag, &book, &args.output)
}
