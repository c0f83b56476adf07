//! What `annotate` writes about the judged moves: the PGN comments and marks, one JSON object per
//! move, the summary per side and the curve of the game. Text and JSON speak from one view,
//! Red's, and show scores on the normalised scale (+100: Red wins half its games).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::judge::MoveReport;
use crate::board::{Color, Move, Position};
use crate::counted::counted;
use crate::eval::relations::move_effect;
use crate::notation::{format_move, MoveNotation, PgnGame};
use crate::search::score::mate_in_moves;
use crate::svg::{curve_svg, CurvePoint};
use crate::winrate::{WdlPerMille, WinRateModel};

/// The view every score, chance and curve of `annotate` is from: the JSON's `view` field.
pub const VIEW: &str = "red";

/// A score from Red's view, as it is shown: what the JSON says of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// On the normalised scale.
    Normalised(i32),
    /// Mate in this many moves (negative: Red is mated).
    Mate(i32),
    /// A win by the repetition rules, for Red if true.
    RuleWin(bool),
}

impl Shown {
    /// `red_score` (internal units, Red's view) as shown, read at `material`.
    pub fn new(model: &WinRateModel, red_score: i32, material: u32) -> Shown {
        if let Some(m) = mate_in_moves(red_score) {
            Shown::Mate(m)
        } else if crate::search::score_scale::is_decisive(red_score) {
            Shown::RuleWin(red_score > 0)
        } else {
            Shown::Normalised(model.normalise(red_score, material))
        }
    }

    /// As text: `+35`, `mate 3`, `mate -2`, `rule win`, `rule loss`.
    pub fn text(self) -> String {
        match self {
            Shown::Normalised(s) => format!("{s:+}"),
            Shown::Mate(m) => format!("mate {m}"),
            Shown::RuleWin(true) => "rule win".to_string(),
            Shown::RuleWin(false) => "rule loss".to_string(),
        }
    }

    /// Into a JSON object: `score` (normalised), `mate` (moves) or `rule_win` (`red`/`black`).
    pub fn put(self, obj: &mut Map<String, Value>) {
        match self {
            Shown::Normalised(s) => obj.insert("score".into(), json!(s)),
            Shown::Mate(m) => obj.insert("mate".into(), json!(m)),
            Shown::RuleWin(red) => obj.insert("rule_win".into(), json!(if red { "red" } else { "black" })),
        };
    }
}

/// Chances as a percentage with no decimals.
fn percent(fraction: f64) -> String {
    format!("{:.0}%", 100.0 * fraction)
}

/// What `mv` does to the material in `pos`, in the classic evaluation's values, as the end of a
/// comment: `, wins the horse on e5 (+106)`, `, leaves the rook on e4 hanging (-251)`, or nothing.
fn material_note(pos: &Position, mv: Move) -> String {
    let effect = move_effect(pos, mv);
    let mut note = String::new();
    if let Some((sq, piece, gain)) = effect.wins {
        note.push_str(&format!(", wins the {} on {sq} (+{gain})", piece.kind().name()));
    }
    for (sq, piece, loss) in effect.leaves_hanging {
        note.push_str(&format!(", leaves the {} on {sq} hanging (-{loss})", piece.kind().name()));
    }
    note
}

/// The comment on one move: `book, ` for a book move, the score and Red's expected score after
/// the move played, then the engine's choice when it differs, what the move wins or leaves
/// hanging (`eval::relations`), and what the move loses when marked.
pub fn comment(r: &MoveReport, pos: &Position, model: &WinRateModel, notation: MoveNotation) -> String {
    let shown = Shown::new(model, r.red_score(r.score), r.material);
    let red = r.red_view(r.chances).expected_score();
    let mut note = if r.book { "book, ".to_string() } else { String::new() };
    note.push_str(&format!("{} (Red), {} Red", shown.text(), percent(red)));
    if let Some(best) = r.best.filter(|&b| b != r.played && !r.book) {
        let best_shown = Shown::new(model, r.red_score(r.best_score), r.material);
        note.push_str(&format!(", best {} {}", format_move(pos, best, notation), best_shown.text()));
    }
    note.push_str(&material_note(pos, r.played));
    if let Some(verdict) = r.tablebase {
        note.push_str(&format!(", {verdict}"));
    }
    if r.mark.is_some() {
        note.push_str(&format!(", loses {}", percent(r.expected_loss)));
    }
    note
}

/// `game` with the reports as comments and marks.
pub fn annotated(
    game: &PgnGame,
    reports: &[MoveReport],
    model: &WinRateModel,
    notation: MoveNotation,
) -> PgnGame {
    let mut out = game.clone();
    let mut pos = game.start.clone();
    for (m, r) in out.moves.iter_mut().zip(reports) {
        let note = comment(r, &pos, model, notation);
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

/// Chances as `[win, draw, loss]`.
fn wdl_array(w: WdlPerMille) -> Value {
    json!([w.win, w.draw, w.loss])
}

/// A fraction rounded to 4 decimals for JSON.
fn rounded(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// One move as a JSON object; every score, chance and expected score is from Red's view except
/// `expected_loss`, which is the mover's.
pub fn report_json(game_index: usize, r: &MoveReport, model: &WinRateModel) -> Value {
    let mut obj = Map::new();
    obj.insert("game".into(), json!(game_index));
    obj.insert("ply".into(), json!(r.ply));
    obj.insert("side".into(), json!(r.side.name()));
    obj.insert("move".into(), json!(r.played.to_string()));
    obj.insert("view".into(), json!(VIEW));
    obj.insert("book".into(), json!(r.book));
    Shown::new(model, r.red_score(r.score), r.material).put(&mut obj);
    let red = r.red_view(r.chances);
    obj.insert("wdl".into(), wdl_array(red));
    obj.insert("expected".into(), json!(rounded(red.expected_score())));
    obj.insert("best".into(), json!(r.best.map(|m| m.to_string())));
    let mut best = Map::new();
    Shown::new(model, r.red_score(r.best_score), r.material).put(&mut best);
    best.insert("wdl".into(), wdl_array(r.red_view(r.best_chances)));
    obj.insert("best_score".into(), Value::Object(best));
    obj.insert("material".into(), json!(r.material));
    obj.insert("expected_loss".into(), json!(rounded(r.expected_loss)));
    obj.insert("mark".into(), json!(r.mark));
    // The tables' verdict, the mover's view (`null` outside the endings they hold).
    obj.insert(
        "tablebase".into(),
        json!(r.tablebase.map(|v| json!({"before": v.before.to_string(), "after": v.after.to_string()}))),
    );
    Value::Object(obj)
}

/// Per side: moves, book moves, the expected score lost out of book, and counts of ?!, ? and ??.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Of which the book held.
    pub book: usize,
    /// Sum of the expected-score losses of the judged moves out of book.
    pub total_loss: f64,
    /// The judged moves out of book.
    pub judged: usize,
    /// Inaccuracies, mistakes, blunders.
    pub counts: [usize; 3],
}

impl SideSummary {
    /// Average expected-score loss per judged move out of book (0 without any).
    pub fn average_loss(&self) -> f64 {
        if self.judged == 0 {
            0.0
        } else {
            self.total_loss / self.judged as f64
        }
    }
}

/// The summaries for Red and Black.
pub fn summarise(reports: &[MoveReport]) -> [SideSummary; 2] {
    let mut sums = [SideSummary::default(), SideSummary::default()];
    for r in reports {
        let s = &mut sums[r.side.index()];
        s.moves += 1;
        if r.book {
            s.book += 1;
        } else if r.judged {
            s.judged += 1;
            s.total_loss += r.expected_loss;
        }
        match r.mark {
            Some("?!") => s.counts[0] += 1,
            Some("?") => s.counts[1] += 1,
            Some("??") => s.counts[2] += 1,
            _ => {}
        }
    }
    sums
}

/// A side's summary as JSON.
pub fn summary_json(s: &SideSummary) -> Value {
    json!({
        "moves": s.moves,
        "book": s.book,
        "average_expected_loss": rounded(s.average_loss()),
        "inaccuracies": s.counts[0],
        "mistakes": s.counts[1],
        "blunders": s.counts[2],
    })
}

/// A side's summary as a line of text.
pub fn summary_line(side: Color, s: &SideSummary) -> String {
    let name = if side == Color::Red { "Red" } else { "Black" };
    format!(
        "{name:<6} {} ({} from the book), average expected loss {:.1}%, {} (?!), {} (?), {} (??)",
        counted(s.moves, "move", "moves"),
        s.book,
        100.0 * s.average_loss(),
        counted(s.counts[0], "inaccuracy", "inaccuracies"),
        counted(s.counts[1], "mistake", "mistakes"),
        counted(s.counts[2], "blunder", "blunders")
    )
}

/// The game's curve: Red's expected score before the first move (from the engine's choice
/// there) and after every move played, each move's mark on it.
pub fn curve_points(reports: &[MoveReport]) -> Vec<CurvePoint> {
    let start = reports.first().filter(|r| r.judged).map(|r| CurvePoint {
        ply: 0,
        red_expected: r.red_view(r.best_chances).expected_score(),
        mark: None,
    });
    start
        .into_iter()
        .chain(reports.iter().map(|r| CurvePoint {
            ply: r.ply,
            red_expected: r.red_view(r.chances).expected_score(),
            mark: r.mark.map(str::to_string),
        }))
        .collect()
}

/// The title of game `index` (1-based) of `file`: the players and the event when the tags
/// name them.
pub fn curve_title(game: &PgnGame, index: usize) -> String {
    let players = match (game.tag("Red"), game.tag("Black")) {
        (Some(red), Some(black)) if !red.is_empty() || !black.is_empty() => format!("{red} – {black}"),
        _ => format!("Game {index}"),
    };
    match game.tag("Event").filter(|e| !e.is_empty() && *e != "?") {
        Some(event) => format!("{players} · {event}"),
        None => players,
    }
}

/// The file the curve of game `index` (1-based) goes to: `path` itself for the first, then
/// `-2`, `-3`… inserted before the extension (`curve.svg`, `curve-2.svg`).
pub fn curve_path(path: &Path, index: usize) -> PathBuf {
    if index <= 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{index}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{index}"),
    };
    path.with_file_name(name)
}

/// The SVG of the game's curve.
pub fn curve(game: &PgnGame, index: usize, reports: &[MoveReport]) -> String {
    curve_svg(&curve_title(game, index), &curve_points(reports))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::search::score::{MATE, RULE_WIN};

    fn report(side: Color, score: i32, mark: Option<&'static str>) -> MoveReport {
        let model = WinRateModel::constant(200.0, 50.0);
        let c = super::super::judge::chances(&model, score, 94);
        MoveReport {
            ply: if side == Color::Red { 1 } else { 2 },
            side,
            played: Move::parse_iccs("h2e2").unwrap(),
            book: false,
            judged: true,
            best: None,
            best_score: score,
            score,
            material: 94,
            best_chances: c,
            chances: c,
            expected_loss: 0.0,
            mark,
            tablebase: None,
        }
    }

    #[test]
    fn summary_counts_agree_with_their_nouns() {
        let one_each = SideSummary { moves: 1, book: 0, total_loss: 0.5, judged: 1, counts: [1, 0, 2] };
        let line = summary_line(Color::Black, &one_each);
        assert_eq!(
            line,
            "Black  1 move (0 from the book), average expected loss 50.0%, 1 inaccuracy (?!), 0 mistakes (?), 2 blunders (??)"
        );
        let many = SideSummary { moves: 2, book: 1, total_loss: 0.0, judged: 1, counts: [2, 1, 1] };
        let line = summary_line(Color::Red, &many);
        assert!(line.contains("2 moves (1 from the book)"), "{line}");
        assert!(line.contains("2 inaccuracies (?!), 1 mistake (?), 1 blunder (??)"), "{line}");
    }

    #[test]
    fn scores_are_shown_from_reds_view() {
        let model = WinRateModel::constant(200.0, 50.0);
        let pos = Position::startpos();
        // Black to move and 300 up is Red 150 down on the normalised scale.
        let black = report(Color::Black, 300, None);
        let text = comment(&black, &pos, &model, MoveNotation::Iccs);
        assert!(text.starts_with("-150 (Red), "), "{text}");
        let json = report_json(1, &black, &model);
        assert_eq!(json["score"], -150);
        assert_eq!(json["view"], "red");
        let wdl = json["wdl"].as_array().unwrap();
        assert!(wdl[0].as_u64().unwrap() < wdl[2].as_u64().unwrap(), "{json}");
        // The same for Red is +150 and Red's chances.
        let red = report(Color::Red, 300, None);
        assert!(comment(&red, &pos, &model, MoveNotation::Iccs).starts_with("+150 (Red), "));
        assert_eq!(report_json(1, &red, &model)["score"], 150);
    }

    #[test]
    fn a_move_that_wins_a_piece_or_leaves_one_hanging_says_so() {
        use crate::eval::classic::weights::MATERIAL;
        let model = WinRateModel::constant(200.0, 50.0);
        let mut r = report(Color::Red, 300, None);
        r.played = Move::parse_iccs("e1e5").unwrap();
        let pos = Position::from_fen("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1").unwrap();
        let text = comment(&r, &pos, &model, MoveNotation::Iccs);
        assert!(text.ends_with(&format!(", wins the horse on e5 (+{})", MATERIAL[3].mg)), "{text}");
        r.played = Move::parse_iccs("a4e4").unwrap();
        let pos = Position::from_fen("3k5/9/9/9/4p4/R8/9/9/9/4K4 w - - 0 1").unwrap();
        let text = comment(&r, &pos, &model, MoveNotation::Iccs);
        assert!(text.ends_with(&format!(", leaves the rook on e4 hanging (-{})", MATERIAL[4].mg)), "{text}");
        r.played = Move::parse_iccs("a4a5").unwrap();
        let text = comment(&r, &pos, &model, MoveNotation::Iccs);
        assert!(!text.contains("hanging") && !text.contains("wins"), "{text}");
    }

    #[test]
    fn mates_and_rule_wins_are_named_from_reds_view() {
        let model = WinRateModel::constant(200.0, 50.0);
        assert_eq!(Shown::new(&model, MATE - 3, 94).text(), "mate 2");
        assert_eq!(Shown::new(&model, -(MATE - 2), 94).text(), "mate -1");
        assert_eq!(Shown::new(&model, RULE_WIN - 8, 94).text(), "rule win");
        assert_eq!(Shown::new(&model, -(RULE_WIN - 8), 94), Shown::RuleWin(false));
        let black_mates = report(Color::Black, MATE - 1, None);
        let json = report_json(1, &black_mates, &model);
        assert_eq!(json["mate"], -1);
        assert_eq!(json["wdl"], json!([0, 0, 1000]));
        assert_eq!(json["expected"], 0.0);
    }

    #[test]
    fn curve_files_are_numbered_before_the_extension() {
        assert_eq!(curve_path(Path::new("out/c.svg"), 1), Path::new("out/c.svg"));
        assert_eq!(curve_path(Path::new("out/c.svg"), 2), Path::new("out/c-2.svg"));
        assert_eq!(curve_path(Path::new("curve"), 3), Path::new("curve-3"));
    }

    #[test]
    fn the_curve_starts_before_the_first_move_and_carries_every_mark() {
        let reports = [report(Color::Red, 100, None), report(Color::Black, -400, Some("??"))];
        let points = curve_points(&reports);
        assert_eq!(points.len(), 3);
        assert_eq!(points[0].ply, 0);
        assert_eq!(points[2].mark.as_deref(), Some("??"));
        // Black scoring −400 is Red well ahead.
        assert!(points[2].red_expected > 0.9, "{points:?}");
    }
}
