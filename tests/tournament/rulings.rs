//! Games lost by the rules or by a scripted engine's fault: an illegal move, the flag, a crash,
//! perpetual check.

use super::*;

/// Two games of `bad` against a scripted engine that opens h2e2: `bad` must lose both, as Red
/// and as Black, with a termination starting with `why`.
fn loses_both(bad: &str, extra: &[&str], why: &str) {
    let dir = scratch(bad);
    let pgn = dir.join("games.pgn");
    let good = format!("name=good,cmd={},arg=h2e2", fake("scripted"));
    let badspec = format!("name={bad},cmd={}", fake(bad));
    let mut args =
        vec!["--engine", &good, "--engine", &badspec, "--games", "2", "--pgn", pgn.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = chariot_match(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = check_pgn(&pgn, 2);
    assert_eq!(games[0].0, "good");
    assert_eq!(games[0].2, "1-0", "{bad} as Black loses");
    assert_eq!(games[1].0, bad);
    assert_eq!(games[1].2, "0-1", "{bad} as Red loses");
    for g in &games {
        assert!(g.3.starts_with(why), "termination '{}' for {bad}", g.3);
    }
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains(&format!("good vs {bad}")), "{table}");
}

#[test]
fn illegal_move_loses() {
    loses_both("illegal", &["--depth", "1"], "illegal move 'a0a5'");
}

#[test]
fn sleeping_past_the_flag_loses_on_time() {
    loses_both("sleepy", &["--tc", "0.3"], "time forfeit");
}

#[test]
fn crash_loses() {
    loses_both("crash", &["--depth", "1"], "crash");
}

#[test]
fn perpetual_check_is_scored_for_the_checked_side() {
    // Red's rook checks from a9 and a8 in turn while the black king steps e9-e8-e9: the position
    // with the rook on a9 and Black to move comes a third time after Red's 5th move, and the side
    // giving perpetual check (Red) loses.
    let dir = scratch("perpetual");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# bare kings and a red rook\n4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1\n").unwrap();
    let pgn = dir.join("games.pgn");
    let rook: Vec<String> =
        ["a7a9", "a9a8", "a8a9", "a9a8", "a8a9", "a9a8", "a8a9"].iter().map(|m| format!("arg={m}")).collect();
    let king: Vec<String> =
        ["e9e8", "e8e9", "e9e8", "e8e9", "e9e8", "e8e9", "e9e8"].iter().map(|m| format!("arg={m}")).collect();
    let red = format!("name=checker,cmd={},{}", fake("scripted"), rook.join(","));
    let black = format!("name=king,cmd={},{}", fake("scripted"), king.join(","));
    let output = chariot_match(&[
        "--engine",
        &red,
        "--engine",
        &black,
        "--games",
        "1",
        "--depth",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = check_pgn(&pgn, 1);
    assert_eq!(games[0], ("checker".into(), "king".into(), "0-1".into(), "perpetual check".into()));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[FEN \"4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1\"]"), "{text}");
    assert!(text.contains("[PlyCount \"9\"]"), "{text}");
}
