//! `chariot match`: games against Fairy-Stockfish and against tiny fake engines (shell scripts in
//! tests/fake_engines/; `faulty.sh` floods, stalls, crashes or garbles on demand), the PGN it
//! writes, resuming, bad input, and the Elo/SPRT arithmetic. Every match runs under a time and
//! memory limit, so a hang or a runaway fails its test instead of stopping the suite.
//!
//! This module keeps what the tests share (running a match, checking its PGN, scratch folders);
//! each module holds one concern: `rulings` (games lost by the rules or by faults of a scripted
//! engine), `runs` (matches against real engines, resuming, bad input, the library's API),
//! `resign` (resignation and draw rules by the engines' own chances), `faults` (misbehaving
//! engines in bounded time and memory), `stats` (Elo, LOS and SPRT by hand).

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

mod faults;
mod resign;
mod rulings;
mod runs;
mod stats;

/// Writes an executable shell script `name` into `dir` and returns its path.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/usr/bin/env bash\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Whether process `pid` is alive (a zombie counts as gone).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
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
