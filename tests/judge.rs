//! The rules' verdicts through the built binary: `chariot judge` (text, JSON, errors), and the
//! reason `chariot match` writes in its PGN and `chariot play` shows, for the chase verdicts.
//! Each expected verdict is worked out by hand in the comments (tests/rules.rs has the same
//! positions clause by clause).

use crate::common;

use std::process::{Command, Output};

use chariot::board::{Move, Position};
use chariot::notation::{format_move, read_pgn, MoveNotation};
use serde_json::Value;

/// The red rook (c5/a5) follows the lone black horse (a7/c8), newly attacking it with every
/// move; nothing guards the horse. The start comes back after plies 4 and 8: at ply 8 Red has
/// chased one piece with every move and loses.
const CHASE_FEN: &str = "4k4/9/n8/9/2R6/9/9/9/9/3K5 w - - 0 1";
const CHASE: [&str; 4] = ["c5a5", "a7c8", "a5c5", "c8a7"];

/// The red rook follows the lone black rook (a7/b7): each attack is answered by an attack back
/// (the black rook could take the red one), an offer to exchange, not a chase: a draw at ply 8.
const EXCHANGE_FEN: &str = "4k4/9/r8/9/1R7/9/9/9/9/3K5 w - - 0 1";
const EXCHANGE: [&str; 4] = ["b5a5", "a7b7", "a5b5", "b7a7"];

/// The red rook checks from a9 and a8 in turn while the black king steps e9-e8-e9: Red gives
/// perpetual check and loses at ply 8.
const CHECK_FEN: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
const CHECK: [&str; 4] = ["a8a9", "e9e8", "a9a8", "e8e9"];

/// b0b9 mates: the a8 rook holds rank 8, the b9 rook rank 9, the red king on d0 the d-file.
const MATE_FEN: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";

fn chariot(args: &[&str]) -> Output {
    common::run_chariot(args, "")
}

/// `chariot judge` with `fen` and `moves` (and `extra` arguments), which must succeed quietly.
fn judge(fen: &str, moves: &[&str], extra: &[&str]) -> String {
    let mut args = vec!["judge", "--fen", fen];
    if !moves.is_empty() {
        args.push("--moves");
        args.extend_from_slice(moves);
    }
    args.extend_from_slice(extra);
    let output = chariot(&args);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn judge_json(fen: &str, moves: &[&str]) -> Value {
    let text = judge(fen, moves, &["--json"]);
    assert_eq!(text.lines().count(), 1, "one JSON object: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn last_line(text: &str) -> &str {
    text.lines().last().expect("some output")
}

/// `cycle` twice, then `extra`.
fn twice<'a>(cycle: &[&'a str; 4], extra: &[&'a str]) -> Vec<&'a str> {
    cycle.iter().chain(cycle.iter()).chain(extra.iter()).copied().collect()
}

#[test]
fn a_perpetual_chase_loses() {
    let text = judge(CHASE_FEN, &twice(&CHASE, &[]), &[]);
    assert_eq!(last_line(&text), "result 0-1 ply 8 reason perpetual chase", "{text}");
    // The cycle is shown move by move, with the rook's chase on each red move.
    assert!(text.contains("ply 1 red c5a5 chases a7 (from a5)\n"), "{text}");
    assert!(text.contains("ply 2 black a7c8\n"), "{text}");
    assert!(text.contains("ply 7 red a5c5 chases c8 (from c5)\n"), "{text}");
    assert!(text.contains("red chased the black horse (on a7 now) with every one of its moves\n"), "{text}");
    assert!(!text.contains("not played"), "{text}");

    let json = judge_json(CHASE_FEN, &twice(&CHASE, &[]));
    assert_eq!(json["result"], "0-1");
    assert_eq!(json["ply"], 8);
    assert_eq!(json["reason"], "perpetual chase");
    let cycle = json["cycle"].as_array().expect("a cycle for a repetition verdict");
    assert_eq!(cycle.len(), 8);
    let expected_chases = [("a5", "a7"), ("c5", "c8")];
    for (i, entry) in cycle.iter().enumerate() {
        assert_eq!(entry["move"], CHASE[i % 4], "{entry}");
        assert_eq!(entry["check"], false, "{entry}");
        let chases = entry["chases"].as_array().unwrap();
        if i % 2 == 0 {
            let (attacker, victim) = expected_chases[(i / 2) % 2];
            assert_eq!(chases.len(), 1, "{entry}");
            assert_eq!(
                (chases[0]["attacker"].as_str(), chases[0]["victim"].as_str()),
                (Some(attacker), Some(victim))
            );
        } else {
            assert!(chases.is_empty(), "the horse attacks nothing: {entry}");
        }
    }
    assert_eq!(json["not_played"], Value::Array(vec![]));
}

#[test]
fn an_offer_to_exchange_is_a_draw() {
    let text = judge(EXCHANGE_FEN, &twice(&EXCHANGE, &[]), &[]);
    assert_eq!(last_line(&text), "result 1/2-1/2 ply 8 reason repetition", "{text}");
    assert!(text.contains("ply 1 red b5a5 offers to exchange a7 (from a5)\n"), "{text}");
    assert!(!text.contains("chases"), "no chase listed: {text}");
    let json = judge_json(EXCHANGE_FEN, &twice(&EXCHANGE, &[]));
    assert_eq!((json["result"].as_str(), json["ply"].as_u64()), (Some("1/2-1/2"), Some(8)));
    assert_eq!(json["reason"], "repetition");
    let cycle = json["cycle"].as_array().unwrap();
    assert_eq!(cycle.len(), 8);
    assert!(cycle.iter().all(|m| m["chases"].as_array().unwrap().is_empty() && m["check"] == false));
}

#[test]
fn a_perpetual_check_loses() {
    let text = judge(CHECK_FEN, &twice(&CHECK, &[]), &[]);
    assert_eq!(last_line(&text), "result 0-1 ply 8 reason perpetual check", "{text}");
    assert!(text.contains("ply 1 red a8a9 check\n"), "{text}");
    assert!(text.contains("red gave check with every one of its moves\n"), "{text}");
    let json = judge_json(CHECK_FEN, &twice(&CHECK, &[]));
    let checks: Vec<bool> =
        json["cycle"].as_array().unwrap().iter().map(|m| m["check"].as_bool().unwrap()).collect();
    assert_eq!(checks, [true, false, true, false, true, false, true, false]);
}

#[test]
fn moves_after_the_end_are_not_played() {
    // Two more moves after the perpetual chase: the verdict stays at ply 8 and both are listed.
    let moves = twice(&CHASE, &["c5a5", "a7c8"]);
    let text = judge(CHASE_FEN, &moves, &[]);
    assert_eq!(last_line(&text), "result 0-1 ply 8 reason perpetual chase", "{text}");
    assert!(text.contains("not played: 2 moves after the end: 'c5a5' 'a7c8'\n"), "{text}");
    assert!(text.starts_with("position after ply 8: 4k4/9/n8/9/2R6/9/9/9/9/3K5 w - - 8 5\n"), "{text}");
    let json = judge_json(CHASE_FEN, &moves);
    assert_eq!(json["ply"], 8);
    assert_eq!(json["not_played"], serde_json::json!(["c5a5", "a7c8"]));
    // After the end nothing is read: an illegal move there is not an error.
    let text = judge(CHASE_FEN, &twice(&CHASE, &["h2h9"]), &[]);
    assert!(text.contains("not played: 1 move after the end: 'h2h9'\n"), "{text}");
}

#[test]
fn checkmate_ends_the_game() {
    let text = judge(MATE_FEN, &["b0b9", "e9e8"], &[]);
    assert_eq!(last_line(&text), "result 1-0 ply 1 reason checkmate", "{text}");
    assert!(text.contains("not played: 1 move after the end: 'e9e8'\n"), "{text}");
    assert!(!text.contains("cycle"), "{text}");
    let json = judge_json(MATE_FEN, &["b0b9"]);
    assert_eq!((json["result"].as_str(), json["ply"].as_u64()), (Some("1-0"), Some(1)));
    assert_eq!(json["reason"], "checkmate");
    assert!(json["cycle"].is_null(), "no cycle for a checkmate: {json}");
    // A game that starts mated ends at ply 0.
    let text = judge("1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 1 1", &[], &[]);
    assert_eq!(last_line(&text), "result 1-0 ply 0 reason checkmate", "{text}");
}

#[test]
fn the_120_ply_rule_draws() {
    // 118 plies without a capture before; two rook and king moves make 120.
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 60";
    assert_eq!(last_line(&judge(fen, &["a0a1"], &[])), "result none");
    let text = judge(fen, &["a0a1", "e9e8"], &[]);
    assert_eq!(last_line(&text), "result 1/2-1/2 ply 2 reason 120 plies without a capture", "{text}");
    let json = judge_json(fen, &["a0a1", "e9e8"]);
    assert_eq!(json["reason"], "120 plies without a capture");
    assert!(json["cycle"].is_null());
}

#[test]
fn a_game_that_goes_on_has_no_result() {
    let output = chariot(&["judge", "--moves", "h2e2", "h9g7"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(last_line(&text), "result none");
    let json = judge_json("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", &["h2e2"]);
    for key in ["result", "ply", "reason", "cycle"] {
        assert!(json[key].is_null(), "{key}: {json}");
    }
}

#[test]
fn moves_in_any_notation() {
    // The perpetual chase written in WXF and in Chinese gets the same verdict as in ICCS.
    for notation in [MoveNotation::Wxf, MoveNotation::Chinese] {
        let mut pos = Position::from_fen(CHASE_FEN).unwrap();
        let mut written = Vec::new();
        for text in twice(&CHASE, &[]) {
            let mv = Move::parse_iccs(text).unwrap();
            written.push(format_move(&pos, mv, notation));
            pos.make_move(mv);
        }
        let words: Vec<&str> = written.iter().map(String::as_str).collect();
        let text = judge(CHASE_FEN, &words, &[]);
        assert_eq!(last_line(&text), "result 0-1 ply 8 reason perpetual chase", "{notation}: {words:?}");
    }
    // One quoted word holding all the moves is welcome too.
    let joined = twice(&CHASE, &[]).join(" ");
    assert_eq!(last_line(&judge(CHASE_FEN, &[&joined], &[])), "result 0-1 ply 8 reason perpetual chase");
}

/// Runs `chariot ARGS`, which must refuse: exit 2, nothing on stdout, one `error:` line.
fn refused(args: &[&str]) -> String {
    let output = chariot(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn bad_input_is_refused() {
    let err = refused(&["judge", "--moves", "h2e2", "h9g7", "h2h9"]);
    assert!(err.starts_with("error: move 3 'h2h9' is illegal (red to move in "), "{err}");
    let err = refused(&["judge", "--moves", "h2e2", "zz9"]);
    assert!(err.starts_with("error: move 2 'zz9' is not a move: "), "{err}");
    let err = refused(&["judge", "--fen", "rnbakabnr/9 w"]);
    assert!(err.starts_with("error: bad FEN"), "{err}");
    // A long word of junk (as long as one argument may be) is quoted, not echoed whole.
    let junk = "x".repeat(100_000);
    let err = refused(&["judge", "--moves", &junk]);
    assert!(
        err.starts_with("error: move 1 'xxxx") && err.contains("(100000 bytes)"),
        "{}",
        &err[..err.len().min(300)]
    );
    assert!(err.len() < 300, "{}", &err[..300]);
    // An illegal move in the middle of a perpetual chase: nothing is judged.
    let mut moves = twice(&CHASE, &[]);
    moves[6] = "a5c6";
    let err = refused(&[&["judge", "--fen", CHASE_FEN, "--moves"], &moves[..]].concat());
    assert!(err.starts_with("error: move 7 'a5c6' is illegal"), "{err}");
}

// ----- the same verdicts in `match` and `play` -----

/// A fresh empty directory for one test's files.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-judge-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One `chariot match` game from `fen` between two scripted engines (tests/fake_engines) that
/// play `red` and `black`; returns the PGN's (Result, Termination, PlyCount).
fn scripted_match(test: &str, fen: &str, red: &[&str], black: &[&str]) -> (String, String, String) {
    let dir = scratch(test);
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{fen}\n")).unwrap();
    let pgn = dir.join("games.pgn");
    let script = format!("{}/tests/fake_engines/scripted.sh", env!("CARGO_MANIFEST_DIR"));
    let spec = |name: &str, moves: &[&str]| {
        let args: Vec<String> = moves.iter().map(|m| format!("arg={m}")).collect();
        format!("name={name},cmd={script},{}", args.join(","))
    };
    let (red, black) = (spec("red", red), spec("black", black));
    let output = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["match", "--engine", &red, "--engine", &black, "--games", "1", "--depth", "1"])
        .args(["--openings", openings.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let game = read_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap().remove(0);
    let tag = |name: &str| game.tag(name).unwrap_or_else(|| panic!("a {name} tag")).to_string();
    let found = (game.result.clone(), tag("Termination"), tag("PlyCount"));
    std::fs::remove_dir_all(&dir).unwrap();
    found
}

#[test]
fn match_pgns_give_the_chase_verdicts() {
    // The engines are scripted to repeat the cycle (with spare moves); the runner ends the game
    // at the third occurrence, ply 8.
    let red = ["c5a5", "a5c5", "c5a5", "a5c5", "c5a5", "a5c5"];
    let black = ["a7c8", "c8a7", "a7c8", "c8a7", "a7c8", "c8a7"];
    let found = scripted_match("chase", CHASE_FEN, &red, &black);
    assert_eq!(found, ("0-1".into(), "perpetual chase".into(), "8".into()));
    let red = ["b5a5", "a5b5", "b5a5", "a5b5", "b5a5", "a5b5"];
    let black = ["a7b7", "b7a7", "a7b7", "b7a7", "a7b7", "b7a7"];
    let found = scripted_match("exchange", EXCHANGE_FEN, &red, &black);
    assert_eq!(found, ("1/2-1/2".into(), "repetition".into(), "8".into()));
}

#[test]
fn play_shows_the_chase_verdicts() {
    for (fen, cycle, shown) in [
        (CHASE_FEN, CHASE, "game over: 0-1 (perpetual chase)"),
        (EXCHANGE_FEN, EXCHANGE, "game over: 1/2-1/2 (repetition)"),
    ] {
        let script = format!("{}\n{}\nquit\n", twice(&cycle, &[]).join("\n"), cycle[0]);
        let output =
            common::run_chariot(&["play", "--fen", fen, "--red", "human", "--black", "human"], &script);
        assert!(output.status.success());
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(stdout.matches(shown).count(), 1, "shown once, after the 8th move: {stdout}");
        // The move after the end is refused with the reason.
        let stderr = String::from_utf8(output.stderr).unwrap();
        let why = shown.strip_prefix("game over: ").unwrap();
        assert_eq!(stderr, format!("error: the game is over: {why}; undo, new or quit\n"));
    }
}

// ----- the README's examples -----

/// Splits a shell command line on spaces, keeping "double-quoted" words whole (enough for the
/// README's examples).
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    words.push(word);
    words
}

#[test]
fn the_readme_examples_work_as_shown() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut examples = 0;
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ chariot judge ") else { continue };
        let shown: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
        let mut args = vec!["judge".to_string()];
        args.extend(shell_words(command));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = chariot(&args);
        assert!(output.status.success(), "{command}");
        let printed = String::from_utf8(output.stdout).unwrap();
        assert_eq!(printed.lines().collect::<Vec<_>>(), shown, "{command}");
        examples += 1;
    }
    assert_eq!(examples, 2, "a perpetual chase and an offer to exchange");
}
