//! `chariot annotate GAME.pgn [--movetime MS | --depth D] [-o OUT.pgn] [--json]
//! [--evalfile NET | --classic]`: searches every position of a game, comments each move with the
//! engine's score and best alternative, marks inaccuracies (?!), mistakes (?) and blunders (??) by
//! the score they lose, and sums up each side's play.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::{json, Value};

use super::common::{bar_style, load_games, progress_bar, put_score, score_text, write_file};
use crate::board::{Color, Move, Position};
use crate::notation::{format_move, write_pgn, MoveNotation, PgnGame};
use crate::rules::game_result;
use crate::search::{Engine, Limits, SearchControl};

/// Depth searched per position when no limit is given.
pub const DEFAULT_DEPTH: i32 = 8;
/// Scores are clamped to ±this before losses are taken, so that a won position that stays won
/// (mate in 3 or a rook up) costs nothing when it is merely "less won".
pub const SCORE_CAP: i32 = 1000;
/// The smallest losses (in centipawns, a horse ≈ 100) marked ?!, ? and ??.
pub const THRESHOLDS: [(i32, &str); 3] = [(100, "??"), (60, "?"), (30, "?!")];

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
    /// Notation of the moves in the written PGN and its comments: iccs, wxf or chinese.
    #[arg(long, default_value = "iccs")]
    pub notation: MoveNotation,
    /// Hash table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The evaluation: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: super::nnue::EvalSource,
}

/// What the engine thinks of one move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// 1-based ply of the move in the game.
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The move played.
    pub played: Move,
    /// The engine's choice in that position (`None` if it had no move to offer).
    pub best: Option<Move>,
    /// The score of the engine's choice, from the mover's view.
    pub best_score: i32,
    /// The score after the move played, from the mover's view.
    pub score: i32,
    /// What the move played loses against the engine's choice (never negative).
    pub loss: i32,
    /// `?!`, `?` or `??`, or `None` for a good enough move.
    pub mark: Option<&'static str>,
}

/// The mark a move losing `loss` centipawns earns.
pub fn mark_for(loss: i32) -> Option<&'static str> {
    THRESHOLDS.iter().find(|(min, _)| loss >= *min).map(|(_, mark)| *mark)
}

/// The engine's search of `pos`, restricted to `only` when given: the score from the side to
/// move's view and the move chosen.
fn search(engine: &mut Engine, pos: &Position, limits: &Limits, only: Option<Move>) -> (i32, Option<Move>) {
    let mut limits = limits.clone();
    limits.search_moves = only.into_iter().collect();
    let control = SearchControl::new();
    control.start(false);
    let result = engine.search(pos, &limits, &control, &mut |_| {});
    (result.score, result.best)
}

/// Searches every position of `game` and reports on every move; `tick` is called after each
/// move is judged (for a progress bar).
///
/// The move played is scored by a search of the same position restricted to it, at the same
/// limits as the free search that finds the best move: comparing with a search of the next
/// position instead would mix depths of different parity and mark noise as inaccuracies.
pub fn analyse_game(
    engine: &mut Engine,
    game: &PgnGame,
    limits: &Limits,
    tick: &mut dyn FnMut(),
) -> Vec<MoveReport> {
    let mut pos = game.start.clone();
    let mut reports = Vec::with_capacity(game.moves.len());
    for (i, m) in game.moves.iter().enumerate() {
        let side = pos.side_to_move();
        let (best_score, best, score) = if game_result(&pos).is_some() {
            // Moves after the rules ended the game are not judged.
            (0, None, 0)
        } else {
            let (best_score, best) = search(engine, &pos, limits, None);
            let score =
                if best == Some(m.mv) { best_score } else { search(engine, &pos, limits, Some(m.mv)).0 };
            (best_score, best, score)
        };
        let loss = (best_score.clamp(-SCORE_CAP, SCORE_CAP) - score.clamp(-SCORE_CAP, SCORE_CAP)).max(0);
        reports.push(MoveReport {
            ply: i + 1,
            side,
            played: m.mv,
            best,
            best_score,
            score,
            loss,
            mark: mark_for(loss),
        });
        pos.make_move(m.mv);
        tick();
    }
    reports
}

/// A mover's-view score as Red's view text.
fn red_view(score: i32, side: Color) -> String {
    score_text(if side == Color::Red { score } else { -score })
}

/// `game` with the reports as comments and marks.
pub fn annotated(game: &PgnGame, reports: &[MoveReport], notation: MoveNotation) -> PgnGame {
    let mut out = game.clone();
    let mut pos = game.start.clone();
    for (m, r) in out.moves.iter_mut().zip(reports) {
        let mut note = format!("{} (Red's view)", red_view(r.score, r.side));
        if let Some(best) = r.best.filter(|&b| b != r.played) {
            note.push_str(&format!(
                "; best {} {}",
                format_move(&pos, best, notation),
                red_view(r.best_score, r.side)
            ));
        }
        if r.mark.is_some() {
            note.push_str(&format!("; loses {}", r.loss));
        }
        m.comment = Some(match m.comment.take() {
            Some(old) if !old.is_empty() => format!("{old} — {note}"),
            _ => note,
        });
        if r.mark.is_some() {
            m.suffix = r.mark.map(str::to_string);
        }
        pos.make_move(m.mv);
    }
    out
}

/// Per side: moves, total loss, and counts of ?!, ? and ??.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Sum of the losses.
    pub total_loss: i64,
    /// Inaccuracies, mistakes, blunders.
    pub counts: [usize; 3],
}

impl SideSummary {
    /// Average loss per move (0 without moves).
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.moves as f64
        }
    }
}

/// The summaries for Red and Black.
pub fn summarise(reports: &[MoveReport]) -> [SideSummary; 2] {
    let mut sums = [SideSummary::default(), SideSummary::default()];
    for r in reports {
        let s = &mut sums[r.side.index()];
        s.moves += 1;
        s.total_loss += r.loss as i64;
        match r.mark {
            Some("?!") => s.counts[0] += 1,
            Some("?") => s.counts[1] += 1,
            Some("??") => s.counts[2] += 1,
            _ => {}
        }
    }
    sums
}

fn summary_json(s: &SideSummary) -> Value {
    json!({
        "moves": s.moves,
        "average_loss": (s.average_loss() * 10.0).round() / 10.0,
        "inaccuracies": s.counts[0],
        "mistakes": s.counts[1],
        "blunders": s.counts[2],
    })
}

fn report_json(game_index: usize, r: &MoveReport) -> Value {
    let mut obj = serde_json::Map::new();
    obj.insert("game".into(), json!(game_index));
    obj.insert("ply".into(), json!(r.ply));
    obj.insert("side".into(), json!(r.side.name()));
    obj.insert("move".into(), json!(r.played.to_string()));
    put_score(&mut obj, r.score);
    obj.insert("best".into(), json!(r.best.map(|m| m.to_string())));
    let mut best = serde_json::Map::new();
    put_score(&mut best, r.best_score);
    obj.insert("best_score".into(), Value::Object(best));
    obj.insert("loss".into(), json!(r.loss));
    obj.insert("mark".into(), json!(r.mark));
    Value::Object(obj)
}

/// Runs `chariot annotate`; the progress bar goes to stderr when `progress` (a terminal).
pub fn run(args: &AnnotateArgs, out: &mut impl Write, progress: bool) -> Result<()> {
    let games = load_games(&args.game)?;
    let limits = match args.movetime {
        Some(ms) => Limits::movetime(ms),
        None => Limits::depth(args.depth.unwrap_or(DEFAULT_DEPTH)),
    };
    let mut engine = Engine::try_new(args.hash as usize)?;
    engine.options.eval = args.eval.choice()?;
    let total: usize = games.iter().map(|g| g.moves.len()).sum();
    let bar = progress_bar(total as u64, progress, bar_style("{bar:40} {pos}/{len} moves {elapsed}"));
    let mut pgn = String::new();
    let mut results = Vec::new();
    for game in &games {
        engine.clear_hash();
        let reports = analyse_game(&mut engine, game, &limits, &mut || bar.inc(1));
        let mut marked = annotated(game, &reports, args.notation);
        let limit = match args.movetime {
            Some(ms) => format!("{ms} ms per position"),
            None => format!("depth {}", args.depth.unwrap_or(DEFAULT_DEPTH)),
        };
        marked.tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Annotator"));
        marked.tags.push(("Annotator".into(), format!("Chariot {} ({limit})", env!("CARGO_PKG_VERSION"))));
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
    for (g, reports) in results.iter().enumerate() {
        let [red, black] = summarise(reports);
        if args.json {
            for r in reports {
                writeln!(out, "{}", report_json(g + 1, r))?;
            }
            writeln!(
                out,
                "{}",
                json!({"game": g + 1, "summary": {"red": summary_json(&red), "black": summary_json(&black)}})
            )?;
        } else {
            if results.len() > 1 {
                writeln!(out, "Game {}:", g + 1)?;
            }
            for (name, s) in [("Red", &red), ("Black", &black)] {
                writeln!(
                    out,
                    "{name:<6} {} moves, average loss {:.1}, {} inaccuracies (?!), {} mistakes (?), {} blunders (??)",
                    s.moves,
                    s.average_loss(),
                    s.counts[0],
                    s.counts[1],
                    s.counts[2]
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_by_loss() {
        assert_eq!(mark_for(0), None);
        assert_eq!(mark_for(29), None);
        assert_eq!(mark_for(30), Some("?!"));
        assert_eq!(mark_for(60), Some("?"));
        assert_eq!(mark_for(99), Some("?"));
        assert_eq!(mark_for(250), Some("??"));
    }
}
