//! The analysis subcommands through the built binary: `bench`, `analyze` (text, JSON, batch),
//! `annotate`, `eval` and `show`.

use crate::common;

use std::process::Output;

use chariot::board::{movegen, Move, Position};
use chariot::notation::{format_move, parse_move, read_pgn, MoveNotation};
use serde_json::Value;

/// The start position after h2e2 h9g7, written out by hand.
const AFTER_H2E2_H9G7: &str = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";

/// Black king e9 alone against rooks a8 and b0 (Red king d0): b0b9 mates, as the a8 rook holds
/// rank 8, the b9 rook rank 9, and the red king the d file.
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";

fn chariot(args: &[&str], stdin: &str) -> Output {
    common::run_chariot(args, stdin)
}

fn ok_stdout(args: &[&str], stdin: &str) -> String {
    let output = chariot(args, stdin);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn refused(args: &[&str], stdin: &str) -> String {
    let output = chariot(args, stdin);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    String::from_utf8(output.stderr).unwrap()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

/// Plays the ICCS moves of `pv` from `fen`, failing on the first illegal one.
fn assert_replays(fen: &str, pv: &[Value]) {
    let mut pos = Position::from_fen(fen).unwrap();
    for mv in pv {
        let text = mv.as_str().expect("PV moves are strings");
        let mv = Move::parse_iccs(text).unwrap_or_else(|| panic!("'{text}' is not ICCS"));
        assert!(movegen::is_legal(&mut pos, mv), "{text} is illegal in {}", pos.to_fen());
        pos.make_move(mv);
    }
}

#[test]
fn bench_is_repeatable_and_ends_with_the_totals() {
    let runs: Vec<Vec<String>> = (0..2)
        .map(|_| ok_stdout(&["bench", "--depth", "5"], "").lines().map(str::to_string).collect())
        .collect();
    let totals: Vec<u64> = runs
        .iter()
        .map(|lines| {
            let n = lines.len();
            assert_eq!(n, chariot::search::bench::BENCH_FENS.len() + 2, "one line per position + 2");
            let nodes: u64 =
                lines[n - 2].strip_prefix("Nodes searched: ").expect("Nodes searched").parse().unwrap();
            let nps = lines[n - 1].strip_prefix("Nodes/second: ").expect("Nodes/second");
            assert!(nps.parse::<u64>().is_ok(), "{nps}");
            // The per-position counts add up to the total.
            let sum: u64 = lines[..n - 2]
                .iter()
                .map(|l| l.split_whitespace().last().unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(sum, nodes);
            assert!(nodes > 0);
            nodes
        })
        .collect();
    assert_eq!(totals[0], totals[1]);
    assert!(refused(&["bench", "--algorithm", "minimax"], "").contains("minimax"));
    // Late move reductions save nodes: without them the same depth costs more.
    let nodes_of = |args: &[&str]| -> u64 {
        let text = ok_stdout(args, "");
        let line =
            text.lines().find(|l| l.starts_with("Nodes searched: ")).expect("Nodes searched").to_string();
        line["Nodes searched: ".len()..].parse().unwrap()
    };
    assert_eq!(nodes_of(&["bench", "--depth", "5"]), totals[0]);
    assert!(nodes_of(&["bench", "--depth", "5", "--without", "lmr,null"]) > totals[0]);
    assert!(refused(&["bench", "--without", "alphabeta"], "").contains("unknown search feature 'alphabeta'"));
}

#[test]
fn json_analysis_parses_and_its_pvs_replay() {
    let text = ok_stdout(&["analyze", "--json", "--depth", "5", "--multipv", "2", "--moves", "炮二平五"], "");
    let lines = json_lines(&text);
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let (last, iterations) = lines.split_last().unwrap();
    assert!(iterations.len() >= 5, "{text}");
    for it in iterations {
        assert_eq!(it["fen"], fen);
        assert!(it["score_cp"].is_i64() || it["mate"].is_i64(), "{it}");
        for key in ["depth", "multipv", "nodes", "nps", "time_ms"] {
            assert!(it[key].is_u64(), "{key} in {it}");
        }
        let pv = it["pv"].as_array().unwrap();
        assert!(!pv.is_empty());
        assert_replays(fen, pv);
    }
    assert!(iterations.iter().any(|it| it["multipv"] == 2));
    assert_eq!(last["fen"], fen);
    assert_replays(fen, std::slice::from_ref(&last["bestmove"]));
}

#[test]
fn text_analysis_finds_the_mate_and_writes_it_in_chinese() {
    let text = ok_stdout(&["analyze", "--fen", MATE_IN_ONE, "--depth", "3"], "");
    assert!(text.lines().any(|l| l.contains("score mate 1") && l.ends_with("| 车八进九")), "{text}");
    assert_eq!(
        text.lines().last().unwrap(),
        "bestmove b0b9 车八进九 score mate 1 (Red's view, win 100% draw 0% loss 0%)"
    );
    let json = json_lines(&ok_stdout(&["analyze", "--fen", MATE_IN_ONE, "--depth", "3", "--json"], ""));
    assert_eq!(json[json.len() - 2]["mate"], 1);
}

#[test]
fn batch_analysis_answers_every_line() {
    let fens = [MATE_IN_ONE, AFTER_H2E2_H9G7, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"];
    let input = format!("{}\n\n{}\n{}\n", fens[0], fens[1], fens[2]);
    let lines = json_lines(&ok_stdout(&["analyze", "--fen", "-", "--json", "--nodes", "3000"], &input));
    let answers: Vec<&Value> = lines.iter().filter(|l| l.get("bestmove").is_some()).collect();
    assert_eq!(answers.len(), 3);
    for (answer, fen) in answers.iter().zip(fens) {
        assert_eq!(answer["fen"], fen);
        assert_replays(fen, std::slice::from_ref(&answer["bestmove"]));
    }
    // A bad line gets its own error answer; the others are still analysed, and the exit says so.
    let output =
        chariot(&["analyze", "--fen", "-", "--json", "--depth", "2"], &format!("{}\nnonsense\n", fens[1]));
    assert_eq!(output.status.code(), Some(2));
    let lines = json_lines(&String::from_utf8(output.stdout).unwrap());
    assert_eq!(lines.last().unwrap()["fen"], "nonsense");
    assert!(lines.last().unwrap()["error"].as_str().unwrap().contains("bad FEN"));
    assert_eq!(lines.iter().filter(|l| l.get("bestmove").is_some()).count(), 1);
    assert!(String::from_utf8(output.stderr).unwrap().contains("stdin line 2"));
}

#[test]
fn a_bad_line_in_batch_text_analysis_is_reported_once_on_stderr() {
    let output =
        chariot(&["analyze", "--fen", "-", "--depth", "1"], &format!("nonsense\n{AFTER_H2E2_H9G7}\n"));
    assert_eq!(output.status.code(), Some(2));
    let (stdout, stderr) =
        (String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap());
    assert!(!stdout.contains("nonsense") && !stdout.contains("error"), "{stdout}");
    assert!(
        stdout.contains(&format!("position {AFTER_H2E2_H9G7}")) && stdout.contains("bestmove"),
        "{stdout}"
    );
    let errors: Vec<&str> = stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{stderr}");
    assert!(errors[0].starts_with("error: stdin line 1: bad FEN"), "{stderr}");
    assert_eq!(errors[1], "error: 1 of 2 positions could not be analysed");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rooks on a0 and i9 with pawns between the kings. Red's 2. 车九平一 (a5i5) puts its rook
/// where Black's rook on i8 takes it for nothing: a blunder worth a rook.
const BLUNDER_GAME: &str = "[Event \"planted blunder\"]
[FEN \"3akab1r/9/9/4p4/9/9/4P4/9/9/R2AKAB2 w - - 0 1\"]

1. 车九进五 车9进1 2. 车九平一 车9进3 3. 兵五进一 *
";

#[test]
fn annotate_marks_the_hanging_rook() {
    let dir = temp_dir("annotate");
    let game = dir.join("game.pgn");
    std::fs::write(&game, BLUNDER_GAME).unwrap();
    let out = dir.join("out.pgn");
    let summary =
        ok_stdout(&["annotate", game.to_str().unwrap(), "--depth", "5", "-o", out.to_str().unwrap()], "");
    let annotated = read_pgn(&std::fs::read_to_string(&out).unwrap()).unwrap().remove(0);
    let moves: Vec<String> = annotated.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves, ["a0a5", "i9i8", "a5i5", "i8i5", "e3e4"]);
    assert_eq!(annotated.moves[2].suffix.as_deref(), Some("??"));
    assert!(annotated.moves[2].comment.as_deref().unwrap().contains("best"));
    let comment = annotated.moves[2].comment.as_deref().unwrap();
    assert!(comment.contains(", leaves the rook on i5 hanging (-"), "{comment}");
    // Taking the rook is what Black should do: no mark, and the comment says what it won.
    assert_eq!(annotated.moves[3].suffix, None);
    let comment = annotated.moves[3].comment.as_deref().unwrap();
    assert!(comment.contains(", wins the rook on i5 (+"), "{comment}");
    assert!(annotated.moves.iter().all(|m| m.comment.is_some()));
    let red = summary.lines().find(|l| l.starts_with("Red")).expect("a Red summary");
    assert!(red.contains("3 moves") && red.contains("1 blunder (??)"), "{red}");
    assert!(summary.lines().any(|l| l.starts_with("Black") && l.contains("0 blunders")), "{summary}");

    let lines = json_lines(&ok_stdout(&["annotate", game.to_str().unwrap(), "--depth", "5", "--json"], ""));
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[2]["move"], "a5i5");
    assert_eq!(lines[2]["mark"], "??");
    assert!(lines[2]["expected_loss"].as_f64().unwrap() >= chariot::cli::annotate::BLUNDER);
    assert_eq!(lines[5]["summary"]["red"]["blunders"], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// From the start position: three moves the embedded book holds (h2e2 h9g7 h0g2), then Black's
/// rook swings along rank 8 to b8, where Red's cannon takes it over the b7 cannon for nothing
/// (4. b2b8).
const BOOK_BLUNDER_GAME: &str = "[Event \"book then blunder\"]
[Red \"Rouge\"]
[Black \"Noir\"]

1. h2e2 h9g7 2. h0g2 i9i8 3. b0c2 i8b8 4. b2b8 *
";

/// The score at the head of a comment (`book, +35 (Red), 62% Red, ...`): the text before ` (Red)`.
fn comment_score(comment: &str) -> &str {
    let head = comment.strip_prefix("book, ").unwrap_or(comment);
    head.split_once(" (Red)").unwrap_or_else(|| panic!("no Red view in '{comment}'")).0
}

/// The `g class="mark"` elements of an SVG document, which must parse as XML.
fn svg_marks(path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants().filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("mark")).count()
}

#[test]
fn annotate_leaves_the_book_unmarked_and_speaks_from_reds_view() {
    let dir = temp_dir("annotate-book");
    let game = dir.join("game.pgn");
    std::fs::write(&game, BOOK_BLUNDER_GAME).unwrap();
    let (out, svg) = (dir.join("out.pgn"), dir.join("curve.svg"));
    let args = ["annotate", game.to_str().unwrap(), "--depth", "5", "--json", "-o", out.to_str().unwrap()];
    let lines = json_lines(&ok_stdout(&[&args[..], &["--svg", svg.to_str().unwrap()]].concat(), ""));
    let annotated = read_pgn(&std::fs::read_to_string(&out).unwrap()).unwrap().remove(0);
    assert_eq!(lines.len(), 8, "7 moves and the summary");
    // The book's moves: never marked, said to be the book's, in the text and in the JSON.
    for (m, line) in annotated.moves.iter().zip(&lines).take(3) {
        assert_eq!(m.suffix, None);
        assert!(m.comment.as_deref().unwrap().starts_with("book, "), "{line}");
        assert_eq!(line["book"], true, "{line}");
        assert_eq!(line["mark"], Value::Null);
    }
    // Out of book: the rook left to the cannon is a blunder.
    assert_eq!(lines[5]["move"], "i8b8");
    assert_eq!(lines[5]["book"], false);
    assert_eq!(lines[5]["mark"], "??", "{}", lines[5]);
    assert!(lines[5]["expected_loss"].as_f64().unwrap() >= 0.2);
    assert_eq!(annotated.moves[5].suffix.as_deref(), Some("??"));
    assert!(annotated.moves[5].comment.as_deref().unwrap().contains(", loses "));
    assert_eq!(lines[7]["summary"]["red"]["book"], 2);
    assert_eq!(lines[7]["summary"]["black"]["book"], 1);
    assert_eq!(lines[7]["summary"]["black"]["blunders"], 1);
    // One view: after 4. b2b8 Red is a rook up, and text and JSON both say so from Red's view.
    for (ply, line) in lines[..7].iter().enumerate() {
        assert_eq!(line["view"], "red");
        let text = comment_score(annotated.moves[ply].comment.as_deref().unwrap());
        assert_eq!(text, format!("{:+}", line["score"].as_i64().unwrap()), "ply {}: {line}", ply + 1);
    }
    let won = &lines[6];
    assert!(won["score"].as_i64().unwrap() > 150, "{won}");
    let wdl: Vec<u64> = won["wdl"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(wdl.iter().sum::<u64>(), 1000);
    assert!(wdl[0] > wdl[2], "{won}");
    assert!(won["expected"].as_f64().unwrap() > 0.5);
    assert!(annotated.moves[6].comment.as_deref().unwrap().contains("% Red"));
    // The curve: well-formed, one mark per marked move.
    let marked = lines[..7].iter().filter(|l| !l["mark"].is_null()).count();
    assert!(marked >= 1);
    assert_eq!(svg_marks(&svg), marked);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("Rouge – Noir"));

    // Without the book the opening moves are judged like the rest.
    let lines = json_lines(&ok_stdout(&[&args[..2], &["--depth", "5", "--json", "--no-book"]].concat(), ""));
    assert!(lines[..7].iter().all(|l| l["book"] == false));
    assert_eq!(lines[7]["summary"]["red"]["book"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn annotate_never_marks_what_the_book_holds() {
    // A book made of this very game holds the blunder: it is then a book move, unmarked.
    let dir = temp_dir("annotate-own-book");
    let game = dir.join("game.pgn");
    std::fs::write(&game, BOOK_BLUNDER_GAME).unwrap();
    let book = dir.join("own.cbk");
    let output =
        chariot(&["book", "build", "--pgn", game.to_str().unwrap(), "-o", book.to_str().unwrap()], "");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let args =
        ["annotate", game.to_str().unwrap(), "--depth", "5", "--json", "--book", book.to_str().unwrap()];
    let lines = json_lines(&ok_stdout(&args, ""));
    assert_eq!(lines[5]["move"], "i8b8");
    assert_eq!(lines[5]["book"], true);
    assert_eq!(lines[5]["mark"], Value::Null);
    assert!(lines[5]["expected_loss"].as_f64().unwrap() >= 0.2, "still measured: {}", lines[5]);
    let err =
        refused(&["annotate", game.to_str().unwrap(), "--book", dir.join("none.cbk").to_str().unwrap()], "");
    assert!(err.contains("none.cbk"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn annotate_draws_one_curve_per_game() {
    let dir = temp_dir("annotate-svg");
    let game = dir.join("games.pgn");
    std::fs::write(&game, format!("{BLUNDER_GAME}\n{BOOK_BLUNDER_GAME}")).unwrap();
    let svg = dir.join("curve.svg");
    let args = ["annotate", game.to_str().unwrap(), "--depth", "4", "--json", "--svg", svg.to_str().unwrap()];
    let lines = json_lines(&ok_stdout(&args, ""));
    for (index, path) in [(1, svg.clone()), (2, dir.join("curve-2.svg"))] {
        let marked =
            lines.iter().filter(|l| l["game"] == index && l.get("ply").is_some() && !l["mark"].is_null());
        assert_eq!(svg_marks(&path), marked.count(), "{}", path.display());
    }
    assert!(!dir.join("curve-3.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn annotate_names_the_bad_line() {
    let dir = temp_dir("annotate-bad");
    let game = dir.join("bad.pgn");
    std::fs::write(&game, "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h2h9 *\n").unwrap();
    let err = refused(&["annotate", game.to_str().unwrap(), "--depth", "2"], "");
    assert!(err.starts_with("error: ") && err.contains("line 4"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let err = refused(&["annotate", dir.join("missing.pgn").to_str().unwrap()], "");
    assert!(err.contains("cannot read"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn annotate_refuses_a_bad_later_game_before_any_search() {
    let dir = temp_dir("annotate-bad-later");
    let game = dir.join("games.pgn");
    std::fs::write(&game, format!("{BLUNDER_GAME}\n[Event \"bad\"]\n\n1. a0a5 *\n")).unwrap();
    let out = dir.join("out.pgn");
    let err = refused(&["annotate", game.to_str().unwrap(), "--depth", "2", "-o", out.to_str().unwrap()], "");
    assert!(err.starts_with(&format!("error: {}", game.display())) && err.contains("a0a5"), "{err}");
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `chariot ARGS` to its end, reading its output meanwhile: its exit status and the largest
/// resident size seen while it ran (Linux's `VmHWM`, in kB).
fn peak_rss_kb(args: &[&str]) -> (std::process::ExitStatus, u64) {
    let mut child = std::process::Command::new(common::chariot_bin())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()).unwrap());
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
        let hwm = status.lines().find_map(|l| l.strip_prefix("VmHWM:"));
        if let Some(kb) = hwm.and_then(|v| v.split_whitespace().next()).and_then(|v| v.parse().ok()) {
            peak = peak.max(kb);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    reader.join().unwrap();
    (status, peak)
}

#[test]
fn annotate_holds_one_game_of_a_large_file_at_a_time() {
    let dir = temp_dir("annotate-large");
    // Games without moves (nothing to search) whose tags are long: 40 games of 500 kB each.
    let game = |i: usize| format!("[Event \"{i}\"]\n[Annotator \"{}\"]\n\n*\n\n", "x".repeat(500_000));
    let (one, many) = (dir.join("one.pgn"), dir.join("many.pgn"));
    std::fs::write(&one, game(0)).unwrap();
    std::fs::write(&many, (0..40).map(game).collect::<String>()).unwrap();
    let size_kb = std::fs::metadata(&many).unwrap().len() / 1024;
    let run = |path: &std::path::Path| {
        peak_rss_kb(&["annotate", path.to_str().unwrap(), "--depth", "1", "--hash", "1"])
    };
    let (status, small) = run(&one);
    assert!(status.success());
    let (status, large) = run(&many);
    assert!(status.success());
    // The text itself, and one game: all the games at once (as characters, tokens and games)
    // took about six times the file.
    assert!(
        large.saturating_sub(small) < 2 * size_kb,
        "{small} kB for one game, {large} kB for {size_kb} kB of them"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The value printed on eval's `Total:` line.
fn eval_total(fen: &str) -> i32 {
    let text = ok_stdout(&["eval", "--fen", fen], "");
    let total = text.lines().find_map(|l| l.strip_prefix("Total: ")).expect("a Total line");
    total.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn eval_counts_an_extra_rook_for_its_owner() {
    // The start position without Black's a9 rook: Red is a rook (about 200) up.
    let red_to_move = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let black_to_move = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    assert!(eval_total(red_to_move) > 150);
    assert!(eval_total(black_to_move) < -150);
    let text = ok_stdout(&["eval", "--fen", red_to_move], "");
    let net_total =
        text.lines().find_map(|l| l.strip_prefix("NNUE total: ")).expect("the built-in net's total");
    assert!(net_total.split_whitespace().next().unwrap().parse::<i32>().unwrap() > 150, "{net_total}");
    assert!(text.contains("NNUE (built in): "), "{text}");
    let text = ok_stdout(&["eval", "--classic", "--fen", red_to_move], "");
    assert!(!text.contains("NNUE"), "--classic shows no net: {text}");
    // 31 pieces, each on its own line with its square, letter and character.
    let piece_lines: Vec<&str> =
        text.lines().filter(|l| l.starts_with("  ") && l.as_bytes()[3].is_ascii_digit()).collect();
    // Each piece twice: its value, then its relations.
    let (relation_lines, piece_lines): (Vec<&str>, Vec<&str>) =
        piece_lines.into_iter().partition(|l| l.contains(" attacked by "));
    assert_eq!(piece_lines.len(), 31);
    assert_eq!(relation_lines.len(), 31);
    assert!(piece_lines.iter().any(|l| l.starts_with("  a0 R 俥 red")));
    assert!(!piece_lines.iter().any(|l| l.starts_with("  a9 ")));
    let pieces = text.lines().find(|l| l.trim_start().starts_with("pieces")).unwrap();
    let mg: Vec<i32> =
        pieces.split_whitespace().skip(1).map(|v| v.split('/').next().unwrap().parse().unwrap()).collect();
    assert!(mg[0] - mg[1] > 150, "{pieces}");
    let err = refused(&["eval", "--fen", "rnbakabnr/9 w"], "");
    assert!(err.starts_with("error: bad FEN"), "{err}");
}

#[test]
fn eval_says_who_attacks_and_protects_and_what_hangs() {
    // The black horse on e5 stands unprotected before the red rook on e1; the black pawn on c5
    // is protected by nothing and attacked by nothing.
    let fen = "4k4/9/9/9/2p1n4/9/9/9/4R4/3K5 b - - 0 1";
    let text = ok_stdout(&["eval", "--classic", "--fen", fen], "");
    let horse = text
        .lines()
        .find(|l| l.starts_with("  e5 n ") && l.contains(" attacked by "))
        .expect("the horse's relations");
    assert!(horse.contains("attacked by R e1; protected by nothing; HANGS: taking it wins"), "{horse}");
    let v: Value =
        serde_json::from_str(&ok_stdout(&["eval", "--classic", "--json", "--fen", fen], "")).unwrap();
    let relations = v["relations"].as_array().unwrap();
    assert_eq!(relations.len(), 5);
    let horse = relations.iter().find(|r| r["square"] == "e5").unwrap();
    assert_eq!(horse["piece"], "n");
    assert_eq!(horse["attackers"], serde_json::json!(["e1"]));
    assert_eq!(horse["hangs"], true);
    let pawn = relations.iter().find(|r| r["square"] == "c5").unwrap();
    assert_eq!((pawn["hangs"].as_bool(), pawn["exchange"].is_null()), (Some(false), true));
    // The horse's steps reach no red piece: the rook is safe.
    let rook = relations.iter().find(|r| r["square"] == "e1").unwrap();
    assert_eq!((rook["attackers"].clone(), rook["hangs"].as_bool()), (serde_json::json!([]), Some(false)));
}

#[test]
fn show_reads_every_notation_and_marks_the_last_move() {
    let iccs = ok_stdout(&["show", "--moves", "h2e2", "h9g7"], "");
    let mixed = ok_stdout(&["show", "--moves", "炮二平五", "H8+7"], "");
    assert_eq!(iccs, mixed);
    assert!(iccs.contains(&format!("FEN: {AFTER_H2E2_H9G7}")));
    assert!(!iccs.contains('\x1b'), "no colours into a pipe");
    // The black horse went from h9 to g7.
    assert!(iccs.lines().any(|l| l.starts_with("9 ") && l.contains("(＋)")));
    assert!(iccs.lines().any(|l| l.starts_with("7 ") && l.contains("[馬]")));
    let err = refused(&["show", "--moves", "h2e2", "h0g2"], "");
    assert!(err.starts_with("error: move 2: "), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn chinese_and_wxf_round_trip_through_the_notation_module() {
    for fen in
        [chariot::board::START_FEN, AFTER_H2E2_H9G7, "2bak4/4a4/4b4/P3P4/4C4/2P6/9/4B4/4A4/2RAK4 w - - 0 1"]
    {
        let mut pos = Position::from_fen(fen).unwrap();
        for &mv in movegen::legal_moves(&mut pos).iter() {
            for notation in [MoveNotation::Chinese, MoveNotation::Wxf] {
                let text = format_move(&pos, mv, notation);
                assert_eq!(parse_move(&pos, &text), Ok(mv), "{text} in {fen}");
            }
        }
    }
}
