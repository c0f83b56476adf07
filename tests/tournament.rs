//! `chariot match`: games against Fairy-Stockfish and against tiny fake engines (shell scripts in
//! tests/fake_engines/; `faulty.sh` floods, stalls, crashes or garbles on demand), the PGN it
//! writes, resuming, bad input, and the Elo/SPRT arithmetic. Every match runs under a time and
//! memory limit, so a hang or a runaway fails its test instead of stopping the suite.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use chariot::notation::read_pgn;
use chariot::notation::MoveNotation;
use chariot::rules;
use chariot::tournament::{
    run_match, sprt_bounds, sprt_verdict, EngineSpec, FinishedGame, GameSettings, Limit, MatchConfig,
    MatchProgress, Opening, SprtSpec, SprtVerdict, Tally,
};

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

/// Memory a `chariot match` run may use with fake engines, however they misbehave (resident,
/// in kB). Chariot itself needs a few megabytes; each engine's output may hold one megabyte.
const MAX_RSS_KB: u64 = 100_000;

/// A `chariot match` run that finished in time and within `MAX_RSS_KB`.
struct Run {
    output: Output,
    /// The largest resident size seen while it ran, in kB.
    peak_rss_kb: u64,
    /// From start to exit.
    elapsed: Duration,
}

/// The resident-size high-water mark of a running process, in kB (Linux's /proc).
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `chariot match ARGS`; kills it and fails the test if it runs longer than `limit` (a hang)
/// or its resident size passes `MAX_RSS_KB` (a runaway).
fn bounded_match(args: &[&str], limit: Duration) -> Run {
    let mut child = Command::new(BIN)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        peak = peak_rss_kb(child.id()).unwrap_or(0).max(peak);
        if peak > MAX_RSS_KB || started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "chariot match {args:?} ran away: {peak} kB resident after {:?} (limits {MAX_RSS_KB} kB, \
                 {limit:?})",
                started.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = started.elapsed();
    let output = Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() };
    Run { output, peak_rss_kb: peak, elapsed }
}

/// Runs `chariot match ARGS` with a generous limit against hangs.
fn chariot_match(args: &[&str]) -> Output {
    bounded_match(args, Duration::from_secs(300)).output
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
    // `match report` reads the extended match whole, although its first two games carry the
    // 2-game match's settings fingerprint.
    let report = chariot_match(&["report", pgn.to_str().unwrap()]);
    assert!(report.status.success(), "{}", stderr(&report));
    let table = String::from_utf8(report.stdout).unwrap();
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
    // The same pairing at another limit is another match: its games are not counted in, and the
    // file is left as it was. (Only a larger --games, as above, continues the same match.)
    let before = std::fs::read(&pgn).unwrap();
    let deeper = chariot_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "6",
        "--depth",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(deeper.status.code(), Some(2));
    assert!(stderr(&deeper).contains("game 1 in"), "{}", stderr(&deeper));
    assert!(stderr(&deeper).contains("was played with other settings"), "{}", stderr(&deeper));
    assert_eq!(std::fs::read(&pgn).unwrap(), before);
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let dir = scratch("bad-input");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let good = format!("name=good,cmd={}", fake("scripted"));
    let not_executable = dir.join("engine.txt");
    std::fs::write(&not_executable, "not a program\n").unwrap();
    let dir_spec = format!("name=x,cmd={}", dir.display());
    let text_spec = format!("name=x,cmd={}", not_executable.display());
    let dir_message = format!("{} is a directory", dir.display());
    let text_message = format!("{} is not executable", not_executable.display());
    // Below the kernel's 128 KiB limit on one argument.
    let junk_spec = format!("name=x,cmd=/bin/sh,proto={}", "u".repeat(100_000));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--engine", "name=x,cmd=/no/such/engine", "--engine", &good, "--depth", "1"],
            "no such file /no/such/engine",
        ),
        (vec!["--engine", &dir_spec, "--engine", &good, "--depth", "1"], &dir_message),
        (vec!["--engine", &text_spec, "--engine", &good, "--depth", "1"], &text_message),
        (
            vec!["--engine", "name=x,cmd=no-such-program-on-the-path", "--engine", &good, "--depth", "1"],
            "no program 'no-such-program-on-the-path' on PATH",
        ),
        // A hundred kilobytes of junk are quoted, not echoed.
        (vec!["--engine", &junk_spec, "--engine", &good, "--depth", "1"], "proto must be ucci or uci"),
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
        assert!(stderr(&output).len() < 600, "a short message: {} bytes", stderr(&output).len());
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

/// What a match reported to its watcher, in order.
#[derive(Default)]
struct Recorded(Vec<String>);

impl MatchProgress for Recorded {
    fn started(&mut self, games: u64, already_played: u64, first_pairing: Tally) {
        self.0.push(format!("started {games} {already_played} {}", first_pairing.games()));
    }

    fn game_finished(&mut self, game: &FinishedGame<'_>) {
        let first = game.first_pairing.games();
        self.0.push(format!("game {} {}-{} {} {first}", game.round, game.red, game.black, game.result));
    }

    fn finished(&mut self) {
        self.0.push("finished".to_string());
    }
}

#[test]
fn the_library_reports_progress_to_its_caller_and_draws_nothing() {
    let dir = scratch("progress");
    let pgn = dir.join("games.pgn");
    let engine = |name: &str| EngineSpec::parse(&format!("name={name},cmd={BIN}")).unwrap();
    let mut config = MatchConfig {
        engines: vec![engine("a"), engine("b")],
        gauntlet: false,
        games: 2,
        openings: vec![Opening::startpos()],
        random_plies: None,
        concurrency: 1,
        pgn: Some(pgn.clone()),
        notation: MoveNotation::Iccs,
        sprt: None,
        resume: false,
        shard: None,
        settings: GameSettings {
            limit: Limit::Depth(1),
            tolerance_ms: 0,
            move_timeout: Duration::from_secs(60),
            handshake_timeout: Duration::from_secs(30),
            draw: None,
            resign: None,
        },
    };
    let mut first = Recorded::default();
    let mut table = Vec::new();
    run_match(&config, &mut table, &mut first).unwrap();
    assert_eq!(first.0.len(), 4, "{:?}", first.0);
    assert_eq!(first.0[0], "started 2 0 0");
    let mut rounds: Vec<&str> = first.0[1..3].iter().map(|e| &e[..6]).collect();
    rounds.sort();
    assert_eq!(rounds, ["game 1", "game 2"], "{:?}", first.0);
    assert!(first.0[1].contains(" a-b ") && first.0[1].ends_with(" 1"), "{:?}", first.0);
    assert!(first.0[2].contains(" b-a ") && first.0[2].ends_with(" 2"), "{:?}", first.0);
    assert_eq!(first.0[3], "finished");
    assert!(String::from_utf8(table).unwrap().contains("a vs b"));

    // Resumed with two more games: the two in the PGN count from the start, two are played.
    config.games = 4;
    config.resume = true;
    let mut second = Recorded::default();
    run_match(&config, &mut Vec::new(), &mut second).unwrap();
    assert_eq!(second.0[0], "started 4 2 2", "{:?}", second.0);
    assert_eq!(second.0.len(), 4, "{:?}", second.0);
    assert!(
        second.0[1..3].iter().all(|e| e.starts_with("game 3") || e.starts_with("game 4")),
        "{:?}",
        second.0
    );
    assert_eq!(check_pgn(&pgn, 4).len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The book moves (`{book}` comments) of each game of a match PGN, by round.
fn book_moves(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("the PGN was written");
    let mut games = read_pgn(&text).expect("the PGN reads back");
    games.sort_by_key(|g| g.tag("Round").unwrap().parse::<usize>().unwrap());
    games
        .iter()
        .map(|g| {
            g.moves
                .iter()
                .take_while(|m| m.comment.as_deref() == Some("book"))
                .map(|m| m.mv.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn random_plies_give_each_pair_its_own_opening() {
    let dir = scratch("random-plies");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h2e2 h9g7\n").unwrap();
    let a = format!("name=chariot-a,cmd={BIN}");
    let b = format!("name=chariot-b,cmd={BIN}");
    let play = |name: &str, extra: &[&str]| {
        let pgn = dir.join(name);
        let mut args = vec![
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "6",
            "--depth",
            "1",
            "--openings",
            openings.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let output = chariot_match(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        check_pgn(&pgn, 6);
        (book_moves(&pgn), stderr(&output))
    };
    // Without random plies every pair starts from the one line, and the match says so.
    let (plain, err) = play("plain.pgn", &[]);
    assert!(plain.iter().all(|book| book == &["h2e2", "h9g7"]), "{plain:?}");
    assert!(err.contains("note: 6 games a pairing from 1 opening under fixed nodes or depth"), "{err}");
    let (varied, err) = play("varied.pgn", &["--random-plies", "3", "--seed", "5"]);
    assert!(!err.contains("note:"), "{err}");
    for (pair, games) in varied.chunks(2).enumerate() {
        assert_eq!(games[0].len(), 5, "pair {pair}: the line and three plies: {games:?}");
        assert_eq!(games[0][..2], ["h2e2", "h9g7"]);
        assert_eq!(games[0], games[1], "both games of pair {pair} start alike");
    }
    assert!(varied[0] != varied[2] || varied[2] != varied[4], "three pairs, one opening: {varied:?}");
    // The same seed gives the same openings; another seed, others.
    assert_eq!(play("again.pgn", &["--random-plies", "3", "--seed", "5"]).0, varied);
    assert_ne!(play("reseeded.pgn", &["--random-plies", "3", "--seed", "6"]).0, varied);
}

/// An engine's own limit replaces the match's for that engine alone: one side is asked for a
/// fixed depth, the other keeps the match's clock and is shown its own clock for the opponent.
#[test]
fn an_engine_plays_under_its_own_limit() {
    let dir = scratch("own-limit");
    let (red_log, black_log) = (dir.join("red.log"), dir.join("black.log"));
    let pgn = dir.join("games.pgn");
    let red =
        format!("name=deep,cmd={},arg=log={},arg=h2e2,arg=h0g2,depth=3", fake("scripted"), red_log.display());
    let black = format!("name=timed,cmd={},arg=log={},arg=h9g7", fake("scripted"), black_log.display());
    let output = chariot_match(&[
        "--engine",
        &red,
        "--engine",
        &black,
        "--games",
        "1",
        "--tc",
        "10+0.1",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let red_gos = std::fs::read_to_string(&red_log).unwrap();
    let black_gos = std::fs::read_to_string(&black_log).unwrap();
    assert!(red_gos.lines().count() >= 2 && red_gos.lines().all(|l| l == "go depth 3"), "{red_gos}");
    let first = black_gos.lines().next().unwrap_or_default();
    let words: Vec<&str> = first.split_whitespace().collect();
    assert_eq!(words[..2], ["go", "time"], "{black_gos}");
    // Its untouched clock, and the opponent (who has none) shown the same clock and increment.
    assert_eq!(
        words[2..],
        ["10000", "increment", "100", "opptime", "10000", "oppincrement", "100"],
        "{first}"
    );
    let games = check_pgn(&pgn, 1);
    assert_eq!(games[0].2, "1-0", "{games:?}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[TimeControl \"10+0.1; deep: depth=3\"]"), "{text}");
}

/// The start position without Black's a9 rook and b7 cannon: Red is winning from the first move.
const BLACK_A_ROOK_AND_CANNON_DOWN: &str =
    "1nbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Two games of Chariot against itself (one UCCI, one UCI, `extra` added to both specs) from
/// `BLACK_A_ROOK_AND_CANNON_DOWN` at 2,000 nodes a move, with `--resign movecount=2,wdl=950`, and
/// a draw by scores after two moves each that ends any game the resign rule has not: the draw
/// rule is checked after the resign rule, so it ends only games the resign rule cannot.
/// Returns the games (Red, Black, result, termination) and stderr.
fn chariot_from_rook_and_cannon_up(
    test: &str,
    extra: &[&str; 2],
) -> (Vec<(String, String, String, String)>, String) {
    let dir = scratch(test);
    let pgn = dir.join("games.pgn");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{BLACK_A_ROOK_AND_CANNON_DOWN}\n")).unwrap();
    let a = format!("name=chariot-ucci,cmd={BIN}{}", extra[0]);
    let b = format!("name=chariot-uci,cmd={BIN},proto=uci{}", extra[1]);
    let output = chariot_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--nodes",
        "2000",
        "--openings",
        openings.to_str().unwrap(),
        "--resign",
        "movecount=2,wdl=950",
        "--draw",
        "movenumber=0,movecount=2,score=30000",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    (check_pgn(&pgn, 2), stderr(&output))
}

#[test]
fn chariot_resigns_by_its_win_draw_loss_chances() {
    // The match turns on `showwdl` (UCCI) and `UCI_ShowWDL` (UCI): both sides agree at once
    // that Red wins, whichever engine has Red.
    let (games, err) = chariot_from_rook_and_cannon_up("wdl-resign", &["", ""]);
    assert!(!err.contains("note:"), "{err}");
    for (_, _, result, why) in &games {
        assert_eq!((result.as_str(), why.as_str()), ("1-0", "adjudication: resignation by win/draw/loss"));
    }
    assert_ne!(games[0].0, games[1].0, "each engine had Red once");
}

#[test]
fn a_wdl_rule_never_fires_for_engines_told_not_to_print_chances() {
    // The user's own setting of the option stands: no chances, so only the draw rule ends games.
    let off = [",option.showwdl=false", ",option.UCI_ShowWDL=false"];
    let (games, _) = chariot_from_rook_and_cannon_up("wdl-off", &off);
    for (_, _, result, why) in &games {
        assert_eq!((result.as_str(), why.as_str()), ("1/2-1/2", "adjudication: draw by scores"));
    }
}

/// The `setoption` lines of the wdl option a `wdl.sh` engine logged (UCCI engines are also sent
/// `usemillisec`).
fn logged(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().filter(|l| l.to_lowercase().contains("showwdl")).map(str::to_string).collect()
}

#[test]
fn wdl_rules_ask_engines_for_their_chances_and_judge_by_them() {
    let dir = scratch("wdl-fakes");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    // `winner` always claims 990 per mille to win, `loser` concedes as much, in either colour.
    let winner =
        format!("name=winner,cmd={},arg={},arg=990,arg=10,arg=0,proto=uci", fake("wdl"), log_a.display());
    let loser = format!("name=loser,cmd={},arg={},arg=0,arg=10,arg=990", fake("wdl"), log_b.display());
    let play = |test: &str, engines: [&str; 2], extra: &[&str]| {
        let _ = std::fs::remove_file(&log_a);
        let _ = std::fs::remove_file(&log_b);
        let pgn = dir.join(format!("{test}.pgn"));
        let mut args = vec!["--engine", engines[0], "--engine", engines[1], "--games", "2", "--depth", "1"];
        args.extend_from_slice(&["--pgn", pgn.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let run = bounded_match(&args, FAULT_LIMIT);
        assert!(run.output.status.success(), "{}", stderr(&run.output));
        (check_pgn(&pgn, 2), stderr(&run.output))
    };
    let set_uci = "setoption name UCI_ShowWDL value true".to_string();
    let set_ucci = "setoption showwdl true".to_string();

    // Asked for chances, both agree after two moves each: the loser loses in either colour.
    let (games, err) = play("agree", [&winner, &loser], &["--resign", "movecount=2,wdl=950"]);
    assert!(!err.contains("note:"), "{err}");
    for (red, _, result, why) in &games {
        let expected = if red == "winner" { "1-0" } else { "0-1" };
        assert_eq!((result.as_str(), why.as_str()), (expected, "adjudication: resignation by win/draw/loss"));
    }
    assert!(logged(&log_a).contains(&set_uci), "{:?}", logged(&log_a));
    assert!(logged(&log_b).contains(&set_ucci), "{:?}", logged(&log_b));
    // Above what they claim (990): never.
    let (games, _) = play("too-sure", [&winner, &loser], &["--resign", "movecount=2,wdl=991"]);
    assert!(games.iter().all(|g| g.3 == "resignation (no move while legal moves remain)"), "{games:?}");
    // A draw by chances: both must see one at least as likely as the rule asks (they see 10 per
    // mille).
    let (games, _) = play("draw-at-10", [&winner, &loser], &["--draw", "movenumber=0,movecount=1,wdl=10"]);
    assert!(games.iter().all(|g| g.3 == "adjudication: draw by win/draw/loss"), "{games:?}");
    let (games, _) = play("no-draw", [&winner, &loser], &["--draw", "movenumber=0,movecount=1,wdl=11"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation")), "{games:?}");

    // A score rule asks for nothing, and the scores (0) end nothing.
    let (games, _) = play("by-score", [&winner, &loser], &["--resign", "movecount=2,score=500"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation (no move")), "{games:?}");
    assert!(
        logged(&log_a).is_empty() && logged(&log_b).is_empty(),
        "{:?} {:?}",
        logged(&log_a),
        logged(&log_b)
    );

    // The user's own setting stands, and an engine silent on its chances never agrees.
    let quiet = format!("{winner},option.uci_showwdl=false");
    let (games, _) = play("quiet", [&quiet, &loser], &["--resign", "movecount=2,wdl=950"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation (no move")), "{games:?}");
    assert_eq!(logged(&log_a).iter().filter(|l| l.contains("true")).count(), 0, "{:?}", logged(&log_a));
    assert!(logged(&log_a).contains(&"setoption name uci_showwdl value false".to_string()));

    // An engine with no such option gets a note, once, and its games are not adjudicated.
    let plain = faulty("plain", "good", None);
    let (games, err) = play("plain", [&plain, &loser], &["--resign", "movecount=2,wdl=950"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation (no move")), "{games:?}");
    assert_eq!(
        err.matches("note: engine 'plain' offers no UCI_ShowWDL or showwdl option").count(),
        1,
        "{err}"
    );
    assert!(!err.contains("'loser'"), "{err}");
}

/// A spec for `tests/fake_engines/faulty.sh` in `mode`; with `marker`, only starts after the
/// trial start misbehave.
fn faulty(name: &str, mode: &str, marker: Option<&Path>) -> String {
    let mut spec = format!("name={name},cmd={},arg={mode}", fake("faulty"));
    if let Some(marker) = marker {
        spec.push_str(&format!(",arg={}", marker.display()));
    }
    spec
}

/// How long a match with one faulty engine may take: a few seconds when all goes well, more on
/// a loaded machine; the old runner never finished at all.
const FAULT_LIMIT: Duration = Duration::from_secs(120);

/// Two games of `bad` (a spec named "bad") against `faulty.sh good`, within `FAULT_LIMIT` and
/// `MAX_RSS_KB`: the match must finish and print its table, and `bad` lose both games with
/// terminations `why` accepts. Returns the run and the PGN text.
fn faulty_loses_both(test: &str, bad: &str, extra: &[&str], why: impl Fn(&str) -> bool) -> (Run, String) {
    let dir = scratch(test);
    let pgn = dir.join("games.pgn");
    let good = faulty("good", "good", None);
    let mut args = vec!["--engine", &good, "--engine", bad, "--games", "2", "--pgn", pgn.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = bounded_match(&args, FAULT_LIMIT);
    assert!(run.output.status.success(), "{}", stderr(&run.output));
    let games = check_pgn(&pgn, 2);
    assert_eq!((games[0].0.as_str(), games[0].2.as_str()), ("good", "1-0"), "{test}: bad as Black loses");
    assert_eq!((games[1].0.as_str(), games[1].2.as_str()), ("bad", "0-1"), "{test}: bad as Red loses");
    for g in &games {
        assert!(why(&g.3), "{test}: termination '{}'", g.3);
    }
    let table = String::from_utf8_lossy(&run.output.stdout).into_owned();
    let row =
        table.lines().find(|l| l.starts_with("good vs bad")).unwrap_or_else(|| panic!("{test}: {table}"));
    assert_eq!(row.split_whitespace().skip(3).take(4).collect::<Vec<_>>(), ["2", "2", "0", "0"], "{table}");
    (run, std::fs::read_to_string(&pgn).unwrap())
}

#[test]
fn flooding_after_go_loses_the_game_in_bounded_time_and_memory() {
    // `info` lines without end, as fast as the pipe takes them: the output limit ends the move
    // long before the 30 s move timeout would.
    let flood = faulty("bad", "flood", None);
    let (run, _) = faulty_loses_both("flood", &flood, &["--depth", "1", "--timeout", "30"], |t| {
        t.starts_with("output flood")
    });
    assert!(run.elapsed < Duration::from_secs(60), "{:?}", run.elapsed);
    eprintln!("flood: {:?}, {} kB resident at most", run.elapsed, run.peak_rss_kb);
    // Under a short clock, the flag or the output limit, whichever comes first.
    faulty_loses_both("flood-tc", &flood, &["--tc", "0.3"], |t| {
        t == "time forfeit" || t.starts_with("output flood")
    });
    // One line without end: what is kept of a line is bounded too.
    let endless = faulty("bad", "endless", None);
    let (run, _) = faulty_loses_both("endless", &endless, &["--depth", "1", "--timeout", "30"], |t| {
        t.starts_with("output flood")
    });
    assert!(run.elapsed < Duration::from_secs(60), "{:?}", run.elapsed);
}

#[test]
fn flooding_or_stalling_the_handshake_is_refused_up_front_or_loses_the_game() {
    let good = faulty("good", "good", None);
    // `yes` as an engine: refused before any game, promptly, with bounded memory.
    let run = bounded_match(
        &["--engine", "name=y,cmd=/usr/bin/yes", "--engine", &good, "--depth", "1"],
        FAULT_LIMIT,
    );
    assert_eq!(run.output.status.code(), Some(2), "{}", stderr(&run.output));
    let message = stderr(&run.output);
    // Which comes first on a loaded machine, the output limit or the handshake deadline, depends
    // on how fast the pipe is read: either refuses the engine.
    assert!(
        message.starts_with("error: engine 'y' failed during the handshake: output flood")
            || message.starts_with("error: engine 'y' did not answer the handshake in time"),
        "{message}"
    );
    assert!(message.len() < 300, "{message}");
    // Silence: refused when --handshake-timeout runs out.
    let silent = faulty("silent", "stall-hello", None);
    let run = bounded_match(
        &["--engine", &silent, "--engine", &good, "--depth", "1", "--handshake-timeout", "0.5"],
        FAULT_LIMIT,
    );
    assert_eq!(run.output.status.code(), Some(2), "{}", stderr(&run.output));
    assert!(
        stderr(&run.output).contains("engine 'silent' did not answer the handshake in time"),
        "{}",
        stderr(&run.output)
    );
    // The same faults after a good trial start strike in a game: that game is lost, the match
    // goes on and prints its table.
    let dir = scratch("handshake-in-game");
    let flood = faulty("flood", "flood-hello", Some(&dir.join("flood-started")));
    let silent = faulty("silent", "stall-hello", Some(&dir.join("silent-started")));
    let pgn = dir.join("games.pgn");
    let run = bounded_match(
        &[
            "--engine",
            &good,
            "--engine",
            &flood,
            "--engine",
            &silent,
            "--gauntlet",
            "--games",
            "2",
            "--depth",
            "1",
            "--handshake-timeout",
            "0.5",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        FAULT_LIMIT,
    );
    assert!(run.output.status.success(), "{}", stderr(&run.output));
    let games = check_pgn(&pgn, 4);
    for (red, black, result, why) in &games {
        let (winner, loser) = if result == "1-0" { (red, black) } else { (black, red) };
        assert_eq!(winner, "good", "{games:?}");
        // The flood reaches the output limit or the handshake deadline first, whichever.
        let expected: &[&str] = match loser.as_str() {
            "flood" => &[
                "engine failed to start: engine 'flood' failed during the handshake: output flood",
                "engine failed to start: engine 'flood' did not answer the handshake in time",
            ],
            _ => &["engine failed to start: engine 'silent' did not answer the handshake in time"],
        };
        assert!(expected.iter().any(|e| why.starts_with(e)), "{why}");
    }
    let table = String::from_utf8_lossy(&run.output.stdout).into_owned();
    assert!(table.contains("good vs flood") && table.contains("good vs silent"), "{table}");
}

#[test]
fn stalling_after_go_loses_on_the_move_deadline() {
    let stall = faulty("bad", "stall-go", None);
    faulty_loses_both("stall-tc", &stall, &["--tc", "0.3"], |t| t == "time forfeit");
    faulty_loses_both("stall-depth", &stall, &["--depth", "1", "--timeout", "0.5"], |t| {
        t == "no answer within 0.5 s"
    });
}

#[test]
fn crashing_mid_game_loses_with_its_exit_status() {
    let crash = faulty("bad", "crash-later", None);
    let (_, pgn) = faulty_loses_both("crash-later", &crash, &["--depth", "1"], |t| {
        t.starts_with("crash: it exited") && t.contains('3')
    });
    // Each game got as far as the crashing engine's second turn.
    assert!(pgn.contains("[PlyCount \"3\"]") && pgn.contains("[PlyCount \"2\"]"), "{pgn}");
}

#[test]
fn output_that_is_not_utf8_loses_and_is_quoted() {
    let garbled = faulty("bad", "garbled", None);
    faulty_loses_both("garbled", &garbled, &["--depth", "1"], |t| {
        t == r"protocol violation: a line that is not UTF-8: 'bestmove \xff\xfe'"
    });
}

#[test]
fn legacy_encoded_id_and_info_string_lines_are_tolerated() {
    // GBK in `id author` and `info string`: free text that is never read, so no reason to lose.
    let dir = scratch("legacy");
    let pgn = dir.join("games.pgn");
    let legacy = faulty("legacy", "legacy", None);
    let good = faulty("good", "good", None);
    let run = bounded_match(
        &[
            "--engine",
            &legacy,
            "--engine",
            &good,
            "--games",
            "2",
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        FAULT_LIMIT,
    );
    assert!(run.output.status.success(), "{}", stderr(&run.output));
    // Both follow the same eight-ply line; then Red, to move, has none and resigns.
    for (_, _, result, why) in check_pgn(&pgn, 2) {
        assert_eq!(
            (result.as_str(), why.as_str()),
            ("0-1", "resignation (no move while legal moves remain)")
        );
    }
}

#[test]
fn engine_names_are_checked_when_the_spec_is_read() {
    let dir = scratch("names");
    let pgn = dir.join("games.pgn");
    let good = faulty("good", "good", None);
    let long = format!("name={},cmd={},arg=good", "n".repeat(65_531), fake("faulty"));
    let cases = [
        (long.as_str(), "is 65531 characters long; at most 64"),
        ("name=tab\there,cmd=/bin/sh", "control character"),
        ("name=say \"hi\",cmd=/bin/sh", "'\"'"),
        ("name=back\\slash,cmd=/bin/sh", "'\\'"),
        ("name=a\u{202e}b,cmd=/bin/sh", "U+202E"),
        ("cmd=/bin/sh,option.Hash=16\nquit", "control character"),
    ];
    for (spec, message) in cases {
        let run = bounded_match(
            &["--engine", spec, "--engine", &good, "--depth", "1", "--pgn", pgn.to_str().unwrap()],
            FAULT_LIMIT,
        );
        let err = stderr(&run.output);
        assert_eq!(run.output.status.code(), Some(2), "{err}");
        assert!(err.starts_with("error: bad engine spec") && err.contains(message), "{err}");
        assert!(err.len() < 400, "a short message: {err}");
        assert!(!pgn.exists());
    }
    // The longest name allowed plays, and the table has room for it.
    let longest = "L".repeat(64);
    let spec = format!("name={longest},cmd={},arg=good", fake("faulty"));
    let run = bounded_match(&["--engine", &spec, "--engine", &good, "--depth", "1"], FAULT_LIMIT);
    assert!(run.output.status.success(), "{}", stderr(&run.output));
    let table = String::from_utf8_lossy(&run.output.stdout).into_owned();
    assert!(table.contains(&format!("{longest} vs good ")), "{table}");
}

#[test]
fn numbers_that_do_not_fit_are_refused_with_their_range() {
    let dir = scratch("numbers");
    let pgn = dir.join("games.pgn");
    let good = faulty("good", "good", None);
    let other = faulty("other", "good", None);
    let huge = "9".repeat(1 << 16);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--tc", "1e17+0"], "the base time must be from 0.001 to 86400 seconds"),
        (vec!["--tc", "1+1e20"], "the increment must be from 0 to 3600 seconds"),
        (vec!["--tc=-5"], "the base time must be from 0.001 to 86400 seconds"),
        (
            vec!["--nodes", "99999999999999999999999"],
            "--nodes '99999999999999999999999': expected a whole number from 1 to 1000000000000",
        ),
        (vec!["--nodes", &huge], "(65536 bytes): expected a whole number from 1 to 1000000000000"),
        (vec!["--depth", "4294967296"], "--depth '4294967296': expected a whole number from 1 to 1000"),
        (vec!["--movetime", "0"], "--movetime '0': expected a whole number from 1 to 86400000"),
        (
            vec!["--depth", "1", "--games", "4294967296"],
            "--games '4294967296': expected a whole number from 1 to 100000",
        ),
        (
            vec!["--depth", "1", "--concurrency", "0"],
            "--concurrency '0': expected a whole number from 1 to 256",
        ),
        (
            vec!["--depth", "1", "--tolerance", "18446744073709551616"],
            "expected a whole number from 0 to 60000",
        ),
        (vec!["--depth", "1", "--timeout", "1e30"], "--timeout '1e30': expected seconds from 0.1 to 86400"),
        (
            vec!["--depth", "1", "--handshake-timeout", "0"],
            "--handshake-timeout '0': expected seconds from 0.1 to 600",
        ),
        (
            vec!["--depth", "1", "--draw", "movenumber=40,movecount=8,score=4294967297"],
            "score='4294967297' is not a whole number from 0 to 30000",
        ),
        (
            vec!["--depth", "1", "--resign", "movecount=99999999999,score=600"],
            "movecount='99999999999' is not a whole number from 1 to 1000",
        ),
        (
            vec!["--depth", "1", "--sprt", "elo0=0,elo1=1e400,alpha=0.05,beta=0.05"],
            "elo1='1e400' is not a number from -1000 to 1000",
        ),
        (
            vec!["--depth", "1", "--random-plies", "21"],
            "--random-plies '21': expected a whole number from 0 to 20",
        ),
        (
            vec!["--depth", "1", "--random-plies", "2", "--seed", "1.5"],
            "--seed '1.5': expected a whole number from 0 to 18446744073709551615",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--engine", &good, "--engine", &other, "--pgn", pgn.to_str().unwrap()];
        args.extend_from_slice(&extra);
        let run = bounded_match(&args, FAULT_LIMIT);
        let err = stderr(&run.output);
        assert_eq!(run.output.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(message), "{extra:?}: {err}");
        assert!(err.len() < 400, "a short message: {err}");
        assert!(!pgn.exists(), "no game was played for {extra:?}");
    }
}

#[test]
fn the_pgn_directory_is_checked_or_made_before_the_first_game() {
    let dir = scratch("pgn-dir");
    let file = dir.join("plain-file");
    std::fs::write(&file, "").unwrap();
    let good = faulty("good", "good", None);
    let other = faulty("other", "good", None);
    let missing = dir.join("no-such-dir/games.pgn");
    let under_file = file.join("games.pgn");
    let cases = [
        (
            PathBuf::from("/proc/no-such-dir/games.pgn"),
            "--pgn /proc/no-such-dir/games.pgn: cannot create directory /proc/no-such-dir".to_string(),
        ),
        (
            under_file.clone(),
            format!("--pgn {}: {} is not a directory", under_file.display(), file.display()),
        ),
        (dir.clone(), format!("--pgn {} is a directory", dir.display())),
        (PathBuf::from("/proc/games.pgn"), "--pgn /proc/games.pgn: cannot write in /proc".to_string()),
    ];
    for (pgn, message) in cases {
        let run = bounded_match(
            &["--engine", &good, "--engine", &other, "--depth", "1", "--pgn", pgn.to_str().unwrap()],
            FAULT_LIMIT,
        );
        let err = stderr(&run.output);
        assert_eq!(run.output.status.code(), Some(2), "{err}");
        assert!(err.starts_with("error: ") && err.contains(&message), "{err}");
        assert!(!err.contains("game 1"), "refused before the first game: {err}");
    }
    // A folder that does not exist yet is made, as every command that writes a file makes it.
    let run = bounded_match(
        &["--engine", &good, "--engine", &other, "--depth", "1", "--pgn", missing.to_str().unwrap()],
        FAULT_LIMIT,
    );
    assert!(run.output.status.success(), "{}", stderr(&run.output));
    assert_eq!(check_pgn(&missing, 2).len(), 2);
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

#[test]
fn a_sweep_or_a_run_of_draws_still_reaches_a_verdict() {
    // One outcome only: the variance is zero, so the ratio is the exact generalised one. With
    // elo1 = 10, s1 = 0.5143872; the likeliest win chance at expected score s is s, so each won
    // game adds ln(s1/0.5) = 0.0283682: 103 wins are 2.92192 (go on), 104 are 2.95029 (H1).
    let sprt = SprtSpec { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
    let wins = |n| Tally { wins: n, draws: 0, losses: 0 };
    assert!(close(wins(23).llr(&sprt), 0.652468, 1e-5), "{}", wins(23).llr(&sprt));
    assert_eq!(sprt_verdict(wins(103).llr(&sprt), &sprt), SprtVerdict::Continue);
    assert_eq!(sprt_verdict(wins(104).llr(&sprt), &sprt), SprtVerdict::AcceptH1);
    // A draw's likeliest chance is 2·min(s, 1 − s): 1 under H0, 0.9712254 under H1, so each
    // draw adds −0.0291965: 100 draws are −2.91965 (go on), 101 are −2.94884 (H0).
    let draws = |n| Tally { wins: 0, draws: n, losses: 0 };
    assert_eq!(sprt_verdict(draws(100).llr(&sprt), &sprt), SprtVerdict::Continue);
    assert_eq!(sprt_verdict(draws(101).llr(&sprt), &sprt), SprtVerdict::AcceptH0);
    // A loss's is 1 − s: ln(0.4856128/0.5) = −0.0291965 each.
    let losses = Tally { wins: 0, draws: 0, losses: 7 };
    assert!(close(losses.llr(&sprt), -7.0 * 0.0291965, 1e-5), "{}", losses.llr(&sprt));
    // One other result brings back the usual formula (here far past the upper bound).
    assert_eq!(
        sprt_verdict(Tally { wins: 23, draws: 1, losses: 0 }.llr(&sprt), &sprt),
        SprtVerdict::AcceptH1
    );
    assert_eq!(Tally::default().llr(&sprt), 0.0);
}

/// Writes an executable shell script `name` into `dir` and returns its path.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/usr/bin/env bash\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn an_engine_that_stops_reading_loses_instead_of_blocking_the_match() {
    // After its first start (the match's trial start, which must pass) it answers the handshake
    // blindly and never reads again; its 100 kB option then fills the pipe (64 kB on Linux), and
    // a write without a deadline would wait for it forever.
    let dir = scratch("deaf-engine");
    let marker = dir.join("started");
    let deaf = script(
        &dir,
        "deaf.sh",
        &format!(
            "if [ ! -e {m} ]; then : > {m}; exec {good} good; fi\n\
             echo 'id name deaf'; echo ucciok; echo readyok\n\
             exec sleep 300\n",
            m = marker.display(),
            good = fake("faulty"),
        ),
    );
    let big = "x".repeat(100_000);
    let bad = format!("name=bad,cmd={},option.Big={big}", deaf.display());
    faulty_loses_both("deaf", &bad, &["--depth", "1", "--handshake-timeout", "1"], |t| {
        t == "engine failed to start: engine 'bad' did not answer the handshake in time"
    });
}

/// Whether process `pid` is alive (a zombie counts as gone).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

#[test]
fn an_engines_child_processes_end_with_it() {
    // Each start of this engine leaves a `sleep 300` behind and writes its pid down; once the
    // match is over, none may be left.
    let dir = scratch("grandchild");
    let pids = dir.join("pids");
    let parent = script(
        &dir,
        "parent.sh",
        &format!("sleep 300 &\necho $! >> {}\nexec {} good\n", pids.display(), fake("faulty")),
    );
    let spec = format!("name=parent,cmd={}", parent.display());
    let good = faulty("good", "good", None);
    let run =
        bounded_match(&["--engine", &good, "--engine", &spec, "--games", "2", "--depth", "1"], FAULT_LIMIT);
    assert!(run.output.status.success(), "{}", stderr(&run.output));
    let started: Vec<u32> =
        std::fs::read_to_string(&pids).unwrap().lines().map(|l| l.parse().unwrap()).collect();
    // The trial start and one start per game.
    assert_eq!(started.len(), 3, "{started:?}");
    // A moment for the kernel to finish what the match began.
    std::thread::sleep(Duration::from_millis(200));
    let left: Vec<u32> = started.iter().copied().filter(|&pid| alive(pid)).collect();
    for &pid in &left {
        let _ = Command::new("kill").arg(pid.to_string()).status();
    }
    assert!(left.is_empty(), "grandchildren left running: {left:?} of {started:?}");
}
