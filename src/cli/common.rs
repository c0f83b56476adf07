//! What the subcommands share: the position `--fen` and `--moves` describe, scores as text and
//! JSON, progress bars on a terminal, and the reading and writing of game files.

use std::ffi::OsStr;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};

use crate::board::{Color, Position};
use crate::egtb::Tablebases;
use crate::files;
use crate::input_file;
use crate::notation::{parse_move, pgn, read_pgn, PgnGame};
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::search::TablebaseHandle;
use crate::winrate::WdlPerMille;

/// The position `fen` describes, or the standard start without one.
pub fn starting_position(fen: Option<&str>) -> Result<Position> {
    Ok(match fen {
        Some(fen) => Position::from_fen(fen)?,
        None => Position::startpos(),
    })
}

/// The moves of `--moves`, one a word: `--moves "h2e2 h9g7"` (one quoted word) is as welcome as
/// separate words. Chinese and WXF moves as this crate writes them have no spaces inside, so
/// splitting on whitespace is safe for every notation.
pub fn move_words(moves: &[String]) -> Vec<&str> {
    moves.iter().flat_map(|m| m.split_whitespace()).collect()
}

/// The position `fen` (or the start) after `moves`, each in ICCS, WXF or Chinese as
/// `notation::parse_move` reads it: every subcommand's `--moves` takes any notation. The moves
/// stay in the position's history, so the last one can be marked and repetitions judged.
pub fn setup_position(fen: Option<&str>, moves: &[String]) -> Result<Position> {
    let mut pos = starting_position(fen)?;
    for (i, word) in move_words(moves).into_iter().enumerate() {
        let mv = parse_move(&pos, word).with_context(|| format!("move {}", i + 1))?;
        pos.make_move(mv);
    }
    Ok(pos)
}

/// A score on the normalised scale as text (`+35`, `mate 3`).
pub fn shown_score_text(scale: &ScoreScale, score: i32) -> String {
    match scale.shown(score) {
        ShownScore::Cp(cp) => format!("{cp:+}"),
        ShownScore::Mate(moves) => format!("mate {moves}"),
    }
}

/// Win, draw and loss chances as text in per cent: `win 45% draw 20% loss 35%`.
pub fn wdl_text(wdl: WdlPerMille) -> String {
    let pc = |per_mille: u32| format!("{:.0}%", per_mille as f64 / 10.0);
    format!("win {} draw {} loss {}", pc(wdl.win), pc(wdl.draw), pc(wdl.loss))
}

/// Whose view a score is from, as text says it: `Red's view`.
pub fn view_text(side: Color) -> &'static str {
    match side {
        Color::Red => "Red's view",
        Color::Black => "Black's view",
    }
}

/// Adds a score to a JSON object on the normalised scale: `score_cp` or `mate`, `wdl` (per
/// mille) and `view` (the side whose view both are from).
pub fn put_shown_score(
    obj: &mut serde_json::Map<String, Value>,
    scale: &ScoreScale,
    score: i32,
    view: Color,
) {
    match scale.shown(score) {
        ShownScore::Cp(cp) => obj.insert("score_cp".into(), json!(cp)),
        ShownScore::Mate(moves) => obj.insert("mate".into(), json!(moves)),
    };
    let wdl = scale.wdl(score);
    obj.insert("wdl".into(), json!([wdl.win, wdl.draw, wdl.loss]));
    obj.insert("view".into(), json!(if view == Color::Red { "red" } else { "black" }));
}

/// Whether the board may be drawn in colour: on a terminal, unless `NO_COLOR` holds anything
/// but the empty text (<https://no-color.org>).
pub fn color_wanted(on_terminal: bool, no_color: Option<&OsStr>) -> bool {
    on_terminal && no_color.is_none_or(OsStr::is_empty)
}

/// Whether a progress bar may be drawn: stderr is a terminal (not a log, a pipe or CI).
pub fn progress_wanted() -> bool {
    std::io::stderr().is_terminal()
}

/// The look of a progress bar, from an indicatif template (the default look if the template
/// does not parse).
pub fn bar_style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// A progress bar of `len` steps drawn on stderr in `style`, or a hidden one unless `shown`.
pub fn progress_bar(len: u64, shown: bool, style: ProgressStyle) -> ProgressBar {
    let target = if shown { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(style);
    bar
}

/// Every game of the PGN file at `path`; the errors name the file (and the line).
pub fn load_games(path: &Path) -> Result<Vec<PgnGame>> {
    let text = input_file::read_text(path, pgn::FILE_LIMIT)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let games = read_pgn(&text).with_context(|| path.display().to_string())?;
    if games.is_empty() {
        bail!("{}: no game found", path.display());
    }
    Ok(games)
}

/// Replaces (or creates) `path` with `text`, whole or not at all.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    files::write_atomically(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Checks that `path` could be written (its directory exists and takes a new file), without
/// touching `path` itself: a long job refuses a bad destination before it starts.
pub fn check_writable(path: &Path) -> Result<()> {
    files::check_writable(path)
        .map_err(|e| anyhow::anyhow!("cannot write in {}: {e}", files::directory_of(path).display()))
}

/// The tablebases of an `--egtb DIR` argument (every table in DIR, mapped and checked), or none
/// without it.
pub fn tablebases(dir: Option<&Path>) -> Result<TablebaseHandle> {
    let Some(dir) = dir else { return Ok(TablebaseHandle(None)) };
    let tables = Tablebases::load_dir(dir)
        .with_context(|| format!("cannot load the tablebases in {}", dir.display()))?;
    Ok(TablebaseHandle(Some(Arc::new(tables))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn fen_and_moves_in_any_notation() {
        let moves = ["h2e2".to_string(), "h9g7 a0a1".to_string()];
        let iccs = setup_position(None, &moves).unwrap();
        let any = setup_position(None, &["炮二平五".into(), "马8进7".into(), "R9+1".into()]).unwrap();
        assert_eq!(iccs.to_fen(), any.to_fen());
        assert_eq!(iccs.history().len(), 3);
        let one_word = setup_position(None, &["h2e2 马8进7 a0a1".into()]).unwrap();
        assert_eq!(one_word.to_fen(), any.to_fen());
        let err = setup_position(None, &["h2e2".into(), "h2e2".into()]).unwrap_err();
        assert!(format!("{err:#}").starts_with("move 2: "), "{err:#}");
        let err = setup_position(Some("9/9 w"), &[]).unwrap_err();
        assert_eq!(format!("{err:#}"), "bad FEN: 2 ranks instead of 10");
        let err = setup_position(Some("9 w"), &[]).unwrap_err();
        assert_eq!(format!("{err:#}"), "bad FEN: 1 rank instead of 10");
    }

    #[test]
    fn no_color_set_and_not_empty_turns_colour_off() {
        assert!(color_wanted(true, None));
        assert!(color_wanted(true, Some(OsStr::new(""))));
        assert!(!color_wanted(true, Some(OsStr::new("1"))));
        assert!(!color_wanted(true, Some(OsStr::new("false"))));
        assert!(!color_wanted(false, None));
    }

    #[test]
    fn scores_as_text_and_json() {
        // A scale on which the internal units read as they are (+100 at 100).
        let scale = ScoreScale::at(crate::winrate::WinRateModel::constant(100.0, 50.0), 94);
        assert_eq!(shown_score_text(&scale, 34), "+34");
        assert_eq!(shown_score_text(&scale, -5), "-5");
        assert_eq!(shown_score_text(&scale, MATE - 5), "mate 3");
        let mut obj = serde_json::Map::new();
        put_shown_score(&mut obj, &scale, -(MATE - 4), Color::Black);
        assert_eq!(Value::Object(obj), json!({"mate": -2, "wdl": [0, 0, 1000], "view": "black"}));
        let mut obj = serde_json::Map::new();
        put_shown_score(&mut obj, &scale, 0, Color::Red);
        assert_eq!(obj["score_cp"], json!(0));
        assert_eq!(obj["view"], json!("red"));
    }

    #[test]
    fn game_files_name_themselves_in_errors() {
        let dir = std::env::temp_dir().join(format!("chariot-cli-common-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.pgn");
        let err = load_games(&path).unwrap_err();
        assert!(format!("{err:#}").starts_with(&format!("cannot read {}: ", path.display())), "{err:#}");
        write_file(&path, "[Event \"x\"]\n\n1. h2e2 h9g7 *\n").unwrap();
        assert_eq!(load_games(&path).unwrap()[0].moves.len(), 2);
        write_file(&path, "").unwrap();
        assert_eq!(
            format!("{:#}", load_games(&path).unwrap_err()),
            format!("{}: no game found", path.display())
        );
        // A missing folder is made; a file where the folder should be is refused by name.
        write_file(&dir.join("missing/out.pgn"), "x").unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("missing/out.pgn")).unwrap(), "x");
        let err = write_file(&dir.join("game.pgn/out.pgn"), "x").unwrap_err();
        assert!(format!("{err:#}").starts_with("cannot write "), "{err:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
