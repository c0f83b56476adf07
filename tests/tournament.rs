//! `chariot match`: games against Fairy-Stockfish and against tiny fake engines (shell scripts in
//! tests/fake_engines/), the PGN it writes, resuming, bad input, and the Elo/SPRT arithmetic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chariot::notation::read_pgn;
use chariot::rules;
use chariot::tournament::{sprt_bounds, sprt_verdict, SprtSpec, SprtVerdict, Tally};

const BIN: &str = env!("CARGO_BIN_EXE_chariot");
const FSF: &str = "/usr/games/fairy-stockfish";

/// A fresh empty directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The path of a fake engine script.
fn fake(name: &str) -> String {
    format!("{}/tests/fake_engines/{name}.sh", env!("CARGO_MANIFEST_DIR"))
}

fn chariot_match(args: &[&str]) -> Output {
    Command::new(BIN).arg("match").args(args).output().expect("the chariot binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Checks a match PGN: every game replays legally from its start, its Result tag equals its
/// movetext result, a rules ending agrees with what the rules module says of the final position,
/// and the rounds are 1..=n. Returns (Red, Black, result, termination) per game, by round.
fn check_pgn(path: &Path, games: usize) -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(path).expect("the PGN was written");
    let parsed = read_pgn(&text).expect("the PGN reads back");
    assert_eq!(parsed.len(), games, "{text}");
    let (mut out, mut rounds) = (Vec::new(), Vec::new());
    for (i, game) in parsed.iter().enumerate() {
        let last = game.final_position().expect("every move replays legally");
        assert_eq!(game.tag("Result"), Some(game.result.as_str()));
        assert_eq!(game.tag("Variant"), Some("xiangqi"));
        let termination = game.tag("Termination").expect("a Termination tag").to_string();
        let by_rules = [
            "checkmate",
            "stalemate",
            "perpetual check",
            "perpetual chase",
            "repetition",
            "insufficient material",
        ];
        if by_rules.contains(&termination.as_str()) || termination.starts_with("120 plies") {
            let verdict = rules::game_result(&last).expect("the rules end the game where the PGN does");
            assert_eq!(verdict.termination.to_string(), termination);
            assert_eq!(verdict.pgn_result(), game.result);
        } else {
            assert!(rules::game_result(&last).is_none(), "game {} went on after the rules ended it", i + 1);
        }
        let tag = |n: &str| game.tag(n).unwrap().to_string();
        rounds.push(tag("Round").parse::<usize>().expect("a numeric Round tag"));
        out.push((tag("Round"), tag("Red"), tag("Black"), game.result.clone(), termination));
    }
    // Parallel games finish in any order; the PGN holds each round once, sorted here by round.
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=games).collect::<Vec<_>>());
    out.sort_by_key(|g| g.0.parse::<usize>().unwrap());
    out.into_iter().map(|(_, red, black, result, why)| (red, black, result, why)).collect()
}

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

#[test]
fn resume_keeps_finished_games() {
    let dir = scratch("resume");
    let pgn = dir.join("games.pgn");
    let a = format!("name=good,cmd={},arg=h2e2", fake("scripted"));
    let b = format!("name=bad,cmd={}", fake("illegal"));
    let run = |games: &str, resume: bool| {
        let mut args = vec![
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            games,
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ];
        if resume {
            args.push("--resume");
        }
        chariot_match(&args)
    };
    assert!(run("2", false).status.success());
    let first = std::fs::read_to_string(&pgn).unwrap();
    // Without --resume an existing PGN is not overwritten.
    let refused = run("4", false);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("--resume"), "{}", stderr(&refused));
    let resumed = run("4", true);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let second = std::fs::read_to_string(&pgn).unwrap();
    assert!(second.starts_with(&first), "the finished games are kept as they were");
    let games = check_pgn(&pgn, 4);
    assert_eq!(games.iter().map(|g| g.2.as_str()).collect::<Vec<_>>(), ["1-0", "0-1", "1-0", "0-1"]);
    // The table counts the two old games and the two new ones.
    let table = String::from_utf8(resumed.stdout).unwrap();
    let row = table.lines().find(|l| l.starts_with("good vs bad")).expect("a row for the pairing");
    let numbers: Vec<&str> = row.split_whitespace().skip(3).take(4).collect();
    assert_eq!(numbers, ["4", "4", "0", "0"], "{table}");
    // Another pairing's PGN does not fit this schedule.
    let other = format!("name=other,cmd={}", fake("illegal"));
    let mismatch = chariot_match(&[
        "--engine",
        &a,
        "--engine",
        &other,
        "--depth",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(mismatch.status.code(), Some(2));
    assert!(stderr(&mismatch).contains("not in this match's schedule"), "{}", stderr(&mismatch));
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let dir = scratch("bad-input");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let good = format!("name=good,cmd={}", fake("scripted"));
    let cases: [(Vec<&str>, &str); 5] = [
        (
            vec!["--engine", "name=x,cmd=/no/such/engine", "--engine", &good, "--depth", "1"],
            "no such file /no/such/engine",
        ),
        (
            vec!["--engine", "name=x,cmd=/bin/sh,speed=9", "--engine", &good, "--depth", "1"],
            "unknown or empty key 'speed'",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                "name=y,cmd=/bin/sh",
                "--depth",
                "1",
                "--openings",
                "/no/such/openings.txt",
            ],
            "cannot read openings file /no/such/openings.txt",
        ),
        (vec!["--engine", &good, "--depth", "1"], "at least two --engine"),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                "name=y,cmd=/bin/sh",
                "--depth",
                "1",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "alpha= is missing",
        ),
    ];
    for (args, message) in cases {
        let mut args = args.clone();
        args.extend_from_slice(&["--pgn", pgn_arg]);
        let output = chariot_match(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).starts_with("error: "), "{}", stderr(&output));
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
        assert!(!pgn.exists(), "no game was played for {args:?}");
    }
}

#[test]
fn fairy_stockfish_ucci_against_uci_with_ranks_from_one() {
    assert!(Path::new(FSF).is_file(), "{FSF} is missing: .ci/run installs it");
    let dir = scratch("fsf");
    let pgn = dir.join("games.pgn");
    let openings = format!("{}/tests/data/openings.txt", env!("CARGO_MANIFEST_DIR"));
    let ucci = format!("name=fsf-ucci,cmd={FSF}");
    let uci = format!("name=fsf-uci,cmd={FSF},proto=uci,ranks=1,option.Hash=8");
    let output = chariot_match(&[
        "--engine",
        &ucci,
        "--engine",
        &uci,
        "--games",
        "4",
        "--nodes",
        "1500",
        "--concurrency",
        "2",
        "--openings",
        &openings,
        "--pgn",
        pgn.to_str().unwrap(),
        "--pgn-notation",
        "wxf",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = check_pgn(&pgn, 4);
    // Both dialects played real games: nobody lost on an illegal move, a crash or the clock.
    for g in &games {
        assert!(
            !g.3.starts_with("illegal") && !g.3.starts_with("crash") && !g.3.starts_with("no answer"),
            "{g:?}"
        );
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Format \"WXF\"]"), "{text}");
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains("fsf-ucci vs fsf-uci      4"), "{table}");
}

#[test]
fn chariot_self_play_at_fixed_nodes() {
    let dir = scratch("self-play");
    let pgn = dir.join("games.pgn");
    let openings = format!("{}/tests/data/openings.txt", env!("CARGO_MANIFEST_DIR"));
    let a = format!("name=chariot-a,cmd={BIN}");
    let b = format!("name=chariot-b,cmd={BIN},proto=uci");
    let output = chariot_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--nodes",
        "3000",
        "--openings",
        &openings,
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    for g in check_pgn(&pgn, 2) {
        assert!(
            !g.3.starts_with("illegal") && !g.3.starts_with("crash") && !g.3.starts_with("no answer"),
            "{g:?}"
        );
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn elo_error_and_los_by_hand() {
    // 12 wins, 6 draws, 2 losses: score 15/20 = 0.75, so Elo = -400·log10(1/3) = 190.8485.
    // Per-game variance (12·0.25² + 6·0.25² + 2·0.75²)/20 = 0.1125, σ/√n = 0.075; the score
    // interval 0.75 ± 1.96·0.075 maps to Elo half-width 151.682. LOS = ½(1 + erf((12-2)/√(2·14)))
    // = ½(1 + erf(1.88982)) = 0.996237.
    let t = Tally { wins: 12, draws: 6, losses: 2 };
    assert_eq!(t.score(), Some(0.75));
    assert!(close(t.elo().unwrap(), 190.8485, 1e-3));
    assert!(close(t.elo_error95().unwrap(), 151.682, 1e-2));
    assert!(close(t.los().unwrap(), 0.996237, 1e-5));
    assert_eq!(t.draw_ratio(), Some(0.3));
    // 40 wins, 100 draws, 60 losses: score 0.45, Elo = -400·log10(11/9) = -34.860;
    // LOS = ½(1 + erf(-20/√200)) = Φ(-2) = 0.0227501.
    let u = Tally { wins: 40, draws: 100, losses: 60 };
    assert!(close(u.elo().unwrap(), -34.860, 1e-3));
    assert!(close(u.los().unwrap(), 0.0227501, 1e-6));
    // Even and all-won results.
    assert!(close(Tally { wins: 3, draws: 4, losses: 3 }.elo().unwrap(), 0.0, 1e-9));
    assert_eq!(Tally { wins: 3, draws: 0, losses: 0 }.elo_error95(), None);
    assert_eq!(Tally::default().los(), None);
}

#[test]
fn sprt_llr_and_bounds_by_hand() {
    let sprt = SprtSpec { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
    // ln(0.05/0.95) = -2.944439 and ln(0.95/0.05) = +2.944439.
    let (lower, upper) = sprt_bounds(&sprt);
    assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
    // s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071941; with +12 =6 -2 (s = 0.75, σ² = 0.1125):
    // LLR = 20·(s1 - s0)·(2·0.75 - s0 - s1)/(2·0.1125) = 0.315180.
    let t = Tally { wins: 12, draws: 6, losses: 2 };
    assert!(close(t.llr(&sprt), 0.315180, 1e-5));
    assert_eq!(sprt_verdict(t.llr(&sprt), &sprt), SprtVerdict::Continue);
    // +40 =100 -60: s = 0.45, σ² = (40·0.55² + 100·0.05² + 60·0.45²)/200 = 24.5/200 = 0.1225,
    // LLR = 200·0.0071941·(0.9 - 1.0071941)/0.245 = -0.62961.
    let u = Tally { wins: 40, draws: 100, losses: 60 };
    let expected = -0.62961;
    assert!(close(u.llr(&sprt), expected, 1e-3), "{}", u.llr(&sprt));
    // Ten times as many of the same games is ten times the LLR: past the lower bound.
    let many = Tally { wins: 400, draws: 1000, losses: 600 };
    assert!(close(many.llr(&sprt), 10.0 * expected, 1e-2));
    assert_eq!(sprt_verdict(many.llr(&sprt), &sprt), SprtVerdict::AcceptH0);
    assert_eq!(sprt_verdict(3.0, &sprt), SprtVerdict::AcceptH1);
}
