//! `chariot egtb {generate | probe | verify | endings}`: endgame tablebases (see `docs/egtb.md`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};

use super::common::starting_position;
use crate::board::{Color, PieceKind, Position};
use crate::datagen::reader::read_all;
use crate::egtb::build::{self, Step};
use crate::egtb::{verify, Signature, Tablebases, Value};
use crate::files;
use crate::input_file;
use crate::notation::{pgn, PgnGames};
use crate::rules::game_result;

/// Arguments of `chariot egtb`.
#[derive(Args, Debug, Clone)]
pub struct EgtbArgs {
    /// What to do with tables.
    #[command(subcommand)]
    pub action: EgtbAction,
}

/// The `egtb` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum EgtbAction {
    /// Solve the named endings (and every ending a capture away) into DIR; tables already
    /// there are kept, so an interrupted run resumes.
    Generate(GenerateArgs),
    /// The result of a position for the side to move, its distance, and the moves that keep it.
    Probe(ProbeArgs),
    /// Check every table in DIR: its checksum, and every position's value against its children's.
    Verify(VerifyArgs),
    /// Starting positions for matches in endings: from each game of the data files and PGNs,
    /// the first position the tables in DIR hold (or, with `--attackers N`, the first with at
    /// most N rooks, horses, cannons and pawns) that still has one of them.
    Endings(EndingsArgs),
}

/// Arguments of `chariot egtb endings`.
#[derive(Args, Debug, Clone)]
pub struct EndingsArgs {
    /// The folder of tables: a position is picked only where they hold its material.
    #[arg(long)]
    pub dir: PathBuf,
    /// Games to read, as `datagen` wrote them (repeatable).
    #[arg(long, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Games to read, as PGN (repeatable).
    #[arg(long, value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Write the FENs here, one a line (an openings file for `chariot match`).
    #[arg(short = 'o', long = "output", value_name = "OUT.txt")]
    pub output: PathBuf,
    /// At most this many positions.
    #[arg(long, default_value_t = usize::MAX)]
    pub limit: usize,
    /// Pick the first position with at most N rooks, horses, cannons and pawns in all (any
    /// advisors and elephants), whether or not the tables hold it yet: the games then reach the
    /// tables by captures. Without it, only positions the tables hold are picked.
    #[arg(long, value_name = "N")]
    pub attackers: Option<usize>,
}

/// Arguments of `chariot egtb generate`.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Signatures: Red's pieces then Black's, each from its king (`KRKAABB`).
    #[arg(value_name = "SIG", required_unless_present = "all")]
    pub signatures: Vec<String>,
    /// Every signature with at most N rooks, horses, cannons and pawns in all, with any
    /// advisors and elephants on either side.
    #[arg(long, value_name = "N")]
    pub all: Option<usize>,
    /// The folder the tables go to (created if missing).
    #[arg(long)]
    pub dir: PathBuf,
    /// Leave out tables of more positions than this (and those that need them).
    #[arg(long, default_value_t = 2_000_000_000)]
    pub max_positions: u64,
}

/// Arguments of `chariot egtb probe`.
#[derive(Args, Debug, Clone)]
pub struct ProbeArgs {
    /// The folder of tables.
    #[arg(long)]
    pub dir: PathBuf,
    /// The position, as one quoted argument.
    #[arg(long)]
    pub fen: String,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `chariot egtb verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The folder of tables.
    #[arg(long)]
    pub dir: PathBuf,
}

/// Runs `chariot egtb`.
pub fn run(args: &EgtbArgs, out: &mut impl Write) -> Result<()> {
    match &args.action {
        EgtbAction::Generate(a) => generate(a, out),
        EgtbAction::Probe(a) => probe(a, out),
        EgtbAction::Verify(a) => verify_dir(a, out),
        EgtbAction::Endings(a) => endings(a, out),
    }
}

/// Rooks, horses, cannons and pawns on the board.
fn attackers(pos: &Position) -> usize {
    let kinds = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn];
    Color::BOTH.iter().flat_map(|&c| kinds.iter().map(move |&k| pos.pieces(c, k).count())).sum()
}

/// The first of `positions` (a game's, in order) that `tables` hold, not over by the rules and
/// with an attacker left: the point where the game entered the tables' endings.
/// With `max_attackers`, the first with at most that many attackers instead, held or not.
fn entry_into_tables(
    tables: &Tablebases,
    max_attackers: Option<usize>,
    positions: impl IntoIterator<Item = Position>,
) -> Option<Position> {
    positions.into_iter().find(|pos| {
        let n = attackers(pos);
        let wanted = match max_attackers {
            Some(max) => n <= max,
            None => tables.probe(pos).is_some(),
        };
        n > 0 && wanted && game_result(pos).is_none()
    })
}

fn endings(args: &EndingsArgs, out: &mut impl Write) -> Result<()> {
    if args.data.is_empty() && args.pgn.is_empty() {
        bail!("give games to read: --data FILE or --pgn FILE");
    }
    let tables = load(&args.dir)?;
    if tables.is_empty() {
        bail!("no tables in '{}'", args.dir.display());
    }
    let mut seen = std::collections::HashSet::new();
    let mut fens = Vec::new();
    let mut games = 0usize;
    let mut keep = |entry: Option<Position>| {
        if let Some(fen) = entry.map(|pos| pos.to_fen()) {
            if seen.insert(fen.clone()) {
                fens.push(fen);
            }
        }
    };
    for path in &args.data {
        let records = read_all(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut by_game: std::collections::BTreeMap<u32, Vec<&crate::datagen::format::Record>> =
            std::collections::BTreeMap::new();
        for r in &records {
            by_game.entry(r.game()).or_default().push(r);
        }
        for (_, mut game) in by_game {
            game.sort_by_key(|r| r.ply());
            games += 1;
            let positions = game.into_iter().filter_map(|r| r.to_position().ok());
            keep(entry_into_tables(&tables, args.attackers, positions));
        }
    }
    for path in &args.pgn {
        let text = input_file::read_text(path, pgn::FILE_LIMIT)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for game in PgnGames::new(&text) {
            let game = game.with_context(|| path.display().to_string())?;
            games += 1;
            // The positions one by one, as the search for the entry asks for them.
            let after_each = game.moves.iter().scan(game.start.clone(), |pos, m| {
                pos.make_move(m.mv);
                Some(pos.clone())
            });
            keep(entry_into_tables(
                &tables,
                args.attackers,
                std::iter::once(game.start.clone()).chain(after_each),
            ));
        }
    }
    fens.truncate(args.limit);
    let mut text = String::new();
    for fen in &fens {
        text.push_str(fen);
        text.push('\n');
    }
    files::replace_with(&args.output, |file| -> Result<()> { Ok(file.write_all(text.as_bytes())?) })?;
    writeln!(out, "{} positions from {games} games written to {}", fens.len(), args.output.display())?;
    Ok(())
}

fn generate(args: &GenerateArgs, out: &mut impl Write) -> Result<()> {
    let mut wanted: Vec<Signature> = Vec::new();
    for text in &args.signatures {
        wanted.push(text.parse().with_context(|| "bad signature".to_string())?);
    }
    if let Some(n) = args.all {
        if n > 4 {
            bail!("--all {n}: at most 4 attackers (larger sets cannot be generated on one machine)");
        }
        wanted.extend(Signature::all_with_attackers(n));
    }
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create the folder '{}'", args.dir.display()))?;
    let mut total = build::Stats::default();
    let mut failed: Option<std::io::Error> = None;
    build::build(&wanted, &args.dir, args.max_positions, |sig, step| {
        let line = match step {
            Step::Kept => format!("{sig}: kept (already generated)"),
            Step::Skipped { size } => format!("{sig}: left out ({size} positions, or needs a table left out)"),
            Step::Generated(s) => {
                total.indices += s.indices;
                total.positions += s.positions;
                total.won += s.won;
                total.drawn += s.drawn;
                total.lost += s.lost;
                total.by_rule += s.by_rule;
                total.seconds += s.seconds;
                total.longest_mate = total.longest_mate.max(s.longest_mate);
                format!(
                    "{sig}: {} positions ({} legal) in {:.1} s, {:.0} positions/s: won {} drawn {} lost {} (by the check rule {}), longest mate {} plies",
                    s.indices,
                    s.positions,
                    s.seconds,
                    s.indices as f64 / s.seconds.max(1e-9),
                    s.won,
                    s.drawn,
                    s.lost,
                    s.by_rule,
                    s.longest_mate
                )
            }
        };
        if let Err(e) = writeln!(out, "{line}") {
            failed.get_or_insert(e);
        }
    })
    .context("generation stopped")?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    writeln!(
        out,
        "generated {} positions ({} legal) in {:.1} s: won {} drawn {} lost {} (by the check rule {})",
        total.indices, total.positions, total.seconds, total.won, total.drawn, total.lost, total.by_rule
    )?;
    Ok(())
}

fn load(dir: &std::path::Path) -> Result<Tablebases> {
    Ok(Tablebases::load_dir(dir)?)
}

/// What a value reads as for the side to move.
pub fn value_text(value: Value) -> String {
    value.to_string()
}

fn probe(args: &ProbeArgs, out: &mut impl Write) -> Result<()> {
    let pos = starting_position(Some(&args.fen))?;
    let tables = load(&args.dir)?;
    let Some((value, keep)) = tables.keeping_moves(&pos) else {
        if args.json {
            writeln!(out, "{}", serde_json::json!({ "fen": pos.to_fen(), "result": null }))?;
        } else {
            writeln!(out, "no verdict: no table in '{}' holds this material", args.dir.display())?;
        }
        return Ok(());
    };
    let (result, distance) = match value {
        Value::Draw => ("draw", None),
        Value::Win(d) => ("win", Some(d)),
        Value::Loss(d) => ("loss", Some(d)),
        Value::RuleWin(_) => ("win", None),
        Value::RuleLoss(_) => ("loss", None),
    };
    let by_rule = matches!(value, Value::RuleWin(_) | Value::RuleLoss(_));
    if args.json {
        let moves: Vec<_> = keep
            .iter()
            .map(|m| serde_json::json!({ "move": m.mv.to_string(), "value": m.value.to_string() }))
            .collect();
        let json = serde_json::json!({
            "fen": pos.to_fen(),
            "result": result,
            "mate_plies": distance,
            "by_perpetual_check_rule": by_rule,
            "value": value.to_string(),
            "moves": moves,
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(out, "tablebase: {} ({} to move)", value_text(value), verify::side_name(&pos))?;
        let list: Vec<String> = keep.iter().map(|m| format!("{} ({})", m.mv, m.value)).collect();
        if list.is_empty() {
            writeln!(out, "moves that keep it: none (no legal move)")?;
        } else {
            writeln!(out, "moves that keep it: {}", list.join(", "))?;
        }
    }
    Ok(())
}

fn verify_dir(args: &VerifyArgs, out: &mut impl Write) -> Result<()> {
    let tables = load(&args.dir)?;
    if tables.is_empty() {
        bail!("no tables in '{}'", args.dir.display());
    }
    let mut faults = 0;
    for sig in tables.signatures() {
        let Some(report) = verify::verify(&tables, sig) else { continue };
        writeln!(out, "{sig}: checksum ok, {} positions, {} faults", report.positions, report.fault_count)?;
        for f in &report.faults {
            writeln!(out, "  {f}")?;
        }
        faults += report.fault_count;
    }
    if faults > 0 {
        bail!("{faults} positions disagree with their children");
    }
    writeln!(out, "all {} tables consistent", tables.len())?;
    Ok(())
}
