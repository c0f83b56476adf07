//! The shell scripts that keep a strength gate's evidence: `scripts/gate-archive.sh` splits a
//! gate's PGN into compressed parts for `docs/gates/`, and the joined parts must give back every
//! whole game, byte for byte, leaving out a game the match is still writing;
//! `scripts/pair-speed.sh` measures each engine's speed alone and two at a time, and
//! `scripts/egtb-reach.py` counts the games of a tables match that reached a table; and
//! `scripts/sprt.sh` says which of its two builds is the one it calls `new`; and
//! `scripts/gate-queue.sh` plays the undecided gates of a queue in order; and
//! `scripts/pgn-depth.py` says how each engine spent its own clock; and `scripts/pgn-paired.py`
//! compares two gauntlets opening by opening; and `scripts/loss-lag.py` finds where a lost game
//! went wrong unseen and searches it deeper; and `scripts/datagen-background.sh upgrade` hands a
//! data run only to a build that searches the same trees; and `scripts/spsa-run.sh` turns a
//! parameters file into `chariot spsa`'s arguments and resumes a run that has a state file, and
//! `scripts/spsa-drift.py` weighs each parameter's move against a walk without a slope; and
//! `scripts/spsa-archive.sh` keeps a run in the repository, from which it starts again only with
//! the same program.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh empty directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-scripts-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a stand-in program (a shell script) to `path` and makes it executable.
fn write_executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    Command::new("chmod").arg("+x").arg(path).status().unwrap();
}

/// One finished game in the shape `chariot match` writes.
fn game(round: usize, result: &str) -> String {
    format!(
        "[Event \"chariot match\"]\n[Round \"{round}\"]\n[Result \"{result}\"]\n\n\
         1. h2e2 {{+0.33/12 0.156s}} 1... h9g7 {{-0.38/13 0.195s}} {result}\n\n"
    )
}

fn archive(dir: &Path, gates: &Path, part: usize) -> Output {
    Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gate-archive.sh"))
        .arg(dir)
        .arg("cand")
        .env("GATES", gates)
        .env("PART", part.to_string())
        .output()
        .expect("bash runs the script")
}

/// The parts of `cand-builtin`, joined and decompressed.
fn joined(gates: &Path) -> String {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(gates)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pgn.xz"))
        .collect();
    parts.sort();
    let mut text = String::new();
    for part in parts {
        let out = Command::new("xz").arg("-dc").arg(&part).output().unwrap();
        assert!(out.status.success());
        text.push_str(&String::from_utf8(out.stdout).unwrap());
    }
    text
}

#[test]
fn a_gate_is_archived_in_parts_that_give_back_its_whole_games() {
    let dir = scratch("parts");
    let (gate, gates) = (dir.join("gate-cand"), dir.join("gates"));
    std::fs::create_dir_all(&gate).unwrap();
    let whole: String =
        ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"].iter().enumerate().map(|(i, r)| game(i + 1, r)).collect();
    // The sixth game is still being written.
    let pgn = format!("{whole}[Event \"chariot match\"]\n[Round \"6\"]\n\n1. h2e2 {{+0.1/3 0.1s}}");
    std::fs::write(gate.join("builtin.pgn"), pgn).unwrap();

    let out = archive(&gate, &gates, 2);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("cand-builtin: 5 games in 3 part(s)"), "{said}");
    for k in 1..=3 {
        assert!(gates.join(format!("cand-builtin-00{k}.pgn.xz")).is_file(), "part {k}");
    }
    assert_eq!(joined(&gates), whole);

    // The finished sixth game joins the last part; the parts before it stay as they were.
    let first = std::fs::read(gates.join("cand-builtin-001.pgn.xz")).unwrap();
    let six = format!("{whole}{}", game(6, "1-0"));
    std::fs::write(gate.join("builtin.pgn"), &six).unwrap();
    assert!(archive(&gate, &gates, 2).status.success());
    assert_eq!(joined(&gates), six);
    assert_eq!(std::fs::read(gates.join("cand-builtin-001.pgn.xz")).unwrap(), first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn archiving_a_folder_that_is_not_there_or_holds_no_game_fails() {
    let dir = scratch("missing");
    let gates = dir.join("gates");
    let out = archive(&dir.join("no-such-gate"), &gates, 400);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no gate folder"));

    let empty = dir.join("gate-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = archive(&empty, &gates, 400);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no PGN"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The second argument of `scripts/sprt.sh` is the engine it calls `new` (a swap once turned
/// a gain into a loss in the record): the script says so, and hands `chariot match` that order.
#[test]
fn sprt_names_its_second_argument_new_and_says_so() {
    // `echo` in the runner's place prints the match's arguments instead of playing it.
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let out = Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/sprt.sh"))
        .args(["/bin/true", chariot])
        .env("CHARIOT", "/bin/echo")
        .env("NEW_OPTS", "option.tune=lmr_cut=2")
        .env("PGN", scratch("sprt-names").join("none.pgn"))
        .output()
        .expect("bash runs the script");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!("new = {chariot} (option.tune=lmr_cut=2); old = /bin/true")), "{said}");
    let args = String::from_utf8_lossy(&out.stdout);
    let new_at = args.find(&format!("name=new,cmd={chariot},")).expect("the new engine");
    let old_at = args.find("name=old,cmd=/bin/true,").expect("the old engine");
    assert!(new_at < old_at, "{args}");
    assert!(args.contains("option.tune=lmr_cut=2"), "{args}");
    let _ = std::fs::remove_dir_all(scratch("sprt-names"));
}

/// `scripts/gate-queue.sh QUEUE DIR` with a stand-in for `gate-search.sh` that records each
/// call in DIR/calls.
fn gate_queue(queue: &Path, dir: &Path) -> Output {
    gate_queue_with(queue, dir, "", &[])
}

/// As `gate_queue`, the stand-in then running `then` (shell), with the environment `env`.
fn gate_queue_with(queue: &Path, dir: &Path, then: &str, env: &[(&str, &str)]) -> Output {
    let fake = dir.join("fake-gate.sh");
    write_executable(&fake, &format!("#!/bin/sh\necho \"$1 $2 $3 $TC\" >> \"$3/calls\"\n{then}\n"));
    Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gate-queue.sh"))
        .arg(queue)
        .arg(dir)
        .env("GATE", &fake)
        .env_remove("TC")
        .env_remove("PLAY_SECONDS")
        .envs(env.iter().copied())
        .output()
        .expect("bash runs the script")
}

#[test]
fn the_gate_queue_stops_when_its_time_is_up_and_leaves_the_gate_resumable() {
    let dir = scratch("gate-queue-time");
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_chariot");
    let queue = dir.join("queue.txt");
    std::fs::write(&queue, format!("long {bin} a=1\nnext {bin} b=2\n")).unwrap();
    // The stand-in gate would play for a minute; the queue has two seconds.
    let start = std::time::Instant::now();
    let out = gate_queue_with(&queue, &dir, "sleep 60", &[("PLAY_SECONDS", "2")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(start.elapsed().as_secs() < 30, "the gate was not stopped");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("long paused, resumable"), "{said}");
    // The stopped gate is not marked as played, and the next one never began.
    assert!(!dir.join("gate-long.skip").exists());
    let d = dir.display();
    assert_eq!(std::fs::read_to_string(dir.join("calls")).unwrap(), format!("long a=1 {d} 2+0.02\n"));
    // A time that is not a number of seconds is refused by name.
    let bad = gate_queue_with(&queue, &dir, "", &[("PLAY_SECONDS", "ten")]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("PLAY_SECONDS"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_gate_queue_plays_the_undecided_gates_in_order_and_refuses_a_line_without_a_build() {
    let dir = scratch("gate-queue");
    let bin = env!("CARGO_BIN_EXE_chariot");
    // One gate already decided, one marked to skip, two to play.
    std::fs::create_dir_all(dir.join("gate-done")).unwrap();
    std::fs::write(dir.join("gate-done/report.txt"), "SPRT ...: H1 accepted\n").unwrap();
    std::fs::write(dir.join("gate-skipped.skip"), "").unwrap();
    let queue = dir.join("queue.txt");
    std::fs::write(
        &queue,
        format!("# a comment\ndone {bin} a=1\nskipped {bin} b=2\n\nfirst {bin} c=3 d=4\nsecond {bin} e=5\n"),
    )
    .unwrap();
    let out = gate_queue(&queue, &dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let calls = std::fs::read_to_string(dir.join("calls")).unwrap();
    let d = dir.display();
    assert_eq!(calls, format!("first c=3 d=4 {d} 2+0.02\nsecond e=5 {d} 2+0.02\n"));
    // Each played gate got its own copy of the build, and is marked as played.
    for name in ["first", "second"] {
        assert!(dir.join(format!("gate-{name}/chariot")).is_file());
        assert!(dir.join(format!("gate-{name}.skip")).exists());
    }
    assert!(String::from_utf8_lossy(&out.stdout).contains("empty"));
    // Run again: nothing left to play.
    let again = gate_queue(&queue, &dir);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(dir.join("calls")).unwrap(), calls);
    // A line with no executable build is refused by name.
    std::fs::write(&queue, "broken /no/such/chariot x=1\n").unwrap();
    let bad = gate_queue(&queue, &dir);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("broken"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn pair_speed(args: &[&str], b: &str) -> Output {
    Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pair-speed.sh"))
        .args(args)
        .env("BIN", env!("CARGO_BIN_EXE_chariot"))
        .env("A", "--classic")
        .env("B", b)
        .env("DEPTH", "2")
        .output()
        .expect("bash runs the script")
}

#[test]
fn pair_speed_prints_each_engines_medians_and_their_ratios_to_alone() {
    let out = pair_speed(&["1"], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("engine A: --classic; engine B: built-in net"), "{said}");
    for engine in ["A", "B"] {
        let row = said.lines().find(|l| l.starts_with(&format!("| {engine} |"))).expect("a row per engine");
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 4, "{row}");
        let alone: f64 = cells[1].parse().expect("a speed alone");
        assert!(alone > 0.0, "{row}");
        for cell in &cells[2..] {
            // "123456 (0.812)": the median beside the other engine and its ratio to alone.
            let (speed, ratio) = cell.split_once(" (").expect("speed and ratio");
            let speed: f64 = speed.parse().unwrap();
            let ratio: f64 = ratio.trim_end_matches(')').parse().unwrap();
            assert!((ratio - speed / alone).abs() < 0.001, "{row}");
        }
    }
}

#[test]
fn pair_speed_refuses_a_bad_count_and_names_a_net_it_cannot_read() {
    let out = pair_speed(&["0"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = pair_speed(&["1"], "--evalfile /no/such/net.nnue");
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("engine B") && said.contains("/no/such/net.nnue"), "{said}");
}

/// A game of a tables match as `chariot match` writes it: `red` names Red's engine.
fn table_game(red: &str, fen: Option<&str>, moves: &str, result: &str) -> String {
    let black = if red == "tables" { "plain" } else { "tables" };
    let fen = fen.map(|f| format!("[FEN \"{f}\"]\n")).unwrap_or_default();
    format!(
        "[Event \"chariot match\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n{fen}\n\
         {moves} {result}\n\n"
    )
}

/// Runs the Python script `scripts/NAME` with `args`.
fn python_script(name: &str, args: &[&Path]) -> Output {
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name))
        .args(args)
        .output()
        .expect("python runs the script")
}

fn egtb_reach(pgn: &Path, tables: &Path) -> Output {
    python_script("egtb-reach.py", &[pgn, tables])
}

#[test]
fn egtb_reach_counts_the_games_that_reach_a_tables_material_and_their_score() {
    let dir = scratch("reach");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::write(tables.join("KRKAA.egtb"), b"").unwrap();
    let pgn = [
        // At the start: king and rook against king and two advisors; the tables (Red) win.
        table_game("tables", Some("3aka3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"), "1. a0a8 {+M3/5 0.01s}", "1-0"),
        // From the opening: never there.
        table_game("tables", None, "1. h2e2 {+0.3/9 0.1s} 1... h9g7 {-0.3/9 0.1s}", "1/2-1/2"),
        // The colour mirror (Black's rook, Red's advisors), the tables playing Black and winning.
        table_game("plain", Some("3k5/9/9/9/r8/9/9/9/9/3AKA3 w - - 0 1"), "1. e0e1", "0-1"),
        // After Red's rook takes the cannon; drawn.
        table_game(
            "plain",
            Some("3aka3/9/9/9/c8/9/9/9/9/R2K5 w - - 0 1"),
            "1. a0a5 {+9.0/9 0.1s}",
            "1/2-1/2",
        ),
    ]
    .concat();
    std::fs::write(dir.join("match.pgn"), pgn).unwrap();
    let out = egtb_reach(&dir.join("match.pgn"), &tables);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        said.trim(),
        "4 games; 3 reached a table's material; there the side with tables won 2, drew 1, lost 0"
    );

    // A move from an empty square is an error that names the game, not a count.
    let bad = table_game("tables", None, "1. a5a6", "1-0");
    std::fs::write(dir.join("bad.pgn"), bad).unwrap();
    let out = egtb_reach(&dir.join("bad.pgn"), &tables);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("game 1: no piece on a5"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/strength.sh` with `echo` in the runner's place, so that it prints the match's
/// arguments instead of playing it.
fn strength_args(concurrency: &str) -> Output {
    Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/strength.sh"))
        .arg(env!("CARGO_BIN_EXE_chariot"))
        .env("CHARIOT", "/bin/echo")
        .env("FSF", "/bin/true")
        .env("CONCURRENCY", concurrency)
        .env("PGN", scratch("strength-args").join("none.pgn"))
        .env_remove("OPPONENT")
        .output()
        .expect("bash runs the script")
}

#[test]
fn the_strength_match_plays_as_many_games_at_once_as_asked_and_refuses_a_bad_count() {
    let out = strength_args("14");
    let args = String::from_utf8_lossy(&out.stdout);
    assert!(args.contains("--concurrency 14 "), "{args}");
    for bad in ["0", "two", "-3"] {
        let refused = strength_args(bad);
        assert_eq!(refused.status.code(), Some(2), "CONCURRENCY={bad:?}");
        assert!(String::from_utf8_lossy(&refused.stderr).contains("CONCURRENCY"));
    }
    let _ = std::fs::remove_dir_all(scratch("strength-args"));
}

fn pgn_depth(pgn: &Path) -> Output {
    python_script("pgn-depth.py", &[pgn])
}

#[test]
fn pgn_depth_measures_each_engine_against_its_own_clock() {
    // Time odds: `new` has 10 s + 0.1 s, `old` the match's 5 s + 0.05 s. Old (Red) spends
    // 2 × 1.53 s of 5.1 s available (60%), new 2 × 1.02 s of 10.2 s (20%).
    let dir = scratch("depth");
    let pgn = dir.join("odds.pgn");
    std::fs::write(
        &pgn,
        "[Event \"chariot match\"]\n[Red \"old\"]\n[Black \"new\"]\n[Result \"1/2-1/2\"]\n\
         [TimeControl \"5+0.05; new: 10+0.1\"]\n\n\
         1. h2e2 {book} 1... h9g7 {book} 2. h0g2 {+0.20/11 1.530s} 2... i9h9 {-0.10/14 1.020s}\n\
         3. i0h0 {+0.10/12 1.530s} 3... b9c7 {-0.10/15 1.020s} 1/2-1/2\n\n",
    )
    .unwrap();
    let out = pgn_depth(&pgn);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("new: a game used a median 20%"), "{said}");
    assert!(said.contains("old: a game used a median 60%"), "{said}");
    assert!(said.contains("2 moves without a depth comment"), "{said}");
    // A file that is not there is named, without a traceback.
    let out = pgn_depth(&dir.join("missing.pgn"));
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("cannot read") && said.contains("missing.pgn") && !said.contains("Traceback"),
        "{said}"
    );
}

/// One game of `cand` against `peer` (cand has Red in odd rounds) from the opening `book`, in
/// the shape `chariot match` writes; `cand_halves` is cand's score in half points (0, 1 or 2).
fn paired_game(round: usize, book: &str, cand_halves: u8) -> String {
    let cand_red = round % 2 == 1;
    let (red, black) = if cand_red { ("cand", "peer") } else { ("peer", "cand") };
    let red_halves = if cand_red { cand_halves } else { 2 - cand_halves };
    let result = ["0-1", "1/2-1/2", "1-0"][red_halves as usize];
    format!(
        "[Event \"chariot match\"]\n[Round \"{round}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n\
         [Result \"{result}\"]\n\n1. {book} {{book}} 1... h9g7 {{book}} 2. h0g2 {{+0.20/11 0.1s}} {result}\n\n"
    )
}

#[test]
fn pgn_paired_compares_two_gauntlets_opening_by_opening_and_leaves_out_other_openings() {
    let dir = scratch("paired");
    let (base, new) = (dir.join("base.pgn"), dir.join("new.pgn"));
    // cand scores 0.5, 0, 0.5, 0 with the base build and 1, 0.5, 0.5, 0 with the new one; round
    // 5 began from another opening in each file and must not be paired.
    let base_games = [1, 0, 1, 0].iter().enumerate().map(|(i, &p)| paired_game(i + 1, "h2e2", p));
    let new_games = [2, 1, 1, 0].iter().enumerate().map(|(i, &p)| paired_game(i + 1, "h2e2", p));
    let base_text: String = base_games.chain([paired_game(5, "b2e2", 2)]).collect();
    let new_text: String = new_games.chain([paired_game(5, "c3c4", 0)]).collect();
    std::fs::write(&base, base_text).unwrap();
    std::fs::write(&new, new_text).unwrap();
    let out = python_script("pgn-paired.py", &[&base, &new, Path::new("cand")]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("4 games paired by round (2 openings)"), "{said}");
    assert!(said.contains("1 rounds began differently and are left out: [5]"), "{said}");
    // 25% is -190.8 Elo, 50% is 0: the difference is +190.8.
    assert!(said.contains("base  W0 D2 L2  score 25.0%  Elo -190.8"), "{said}");
    assert!(said.contains("new   W1 D2 L1  score 50.0%  Elo +0.0"), "{said}");
    assert!(said.contains("new - base: +190.8"), "{said}");
    assert!(said.contains("games whose result changed: 2 of 4"), "{said}");
    // Files of other openings only, and a missing file, are refused with what is wrong.
    let other = dir.join("other.pgn");
    std::fs::write(&other, paired_game(1, "c3c4", 2)).unwrap();
    let out = python_script("pgn-paired.py", &[&base, &other, Path::new("cand")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("same opening"));
    let out = python_script("pgn-paired.py", &[&base, &dir.join("missing.pgn"), Path::new("cand")]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("cannot read") && said.contains("missing.pgn") && !said.contains("Traceback"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn loss_lag_probes_the_position_where_the_opponent_saw_the_loss_and_searches_it() {
    let dir = scratch("loss-lag");
    let pgn = dir.join("games.pgn");
    // Game 1: Chariot (Black) loses; the opponent's score is +1.00 or more from its second move
    // on, Chariot's -1.00 or less only from its fourth: the probe is Chariot's second move.
    // Game 2: Chariot (Red) sees its loss at once: no probe. Game 3: a win: no probe.
    let lost_late = "[Event \"chariot match\"]\n[Round \"1\"]\n[Red \"op\"]\n[Black \"chariot\"]\n\
        [Result \"1-0\"]\n\n1. h2e2 {+0.20/10 0.1s} 1... h9g7 {-0.10/10 0.1s} 2. h0g2 {+1.10/10 0.1s} \
        2... i9h9 {-0.20/10 0.1s} 3. i0h0 {+1.20/10 0.1s} 3... b9c7 {-0.30/10 0.1s} \
        4. b0c2 {+1.50/10 0.1s} 4... a9a8 {-1.10/10 0.1s} 5. a0a1 {+2.00/10 0.1s} \
        5... a8d8 {-1.50/10 0.1s} 1-0\n\n";
    let lost_at_once = "[Event \"chariot match\"]\n[Round \"2\"]\n[Red \"chariot\"]\n[Black \"op\"]\n\
        [Result \"0-1\"]\n\n1. h2e2 {-1.20/10 0.1s} 1... h9g7 {+1.50/10 0.1s} 2. h0g2 {-1.30/10 0.1s} \
        2... i9h9 {+1.60/10 0.1s} 0-1\n\n";
    let won = "[Event \"chariot match\"]\n[Round \"3\"]\n[Red \"chariot\"]\n[Black \"op\"]\n\
        [Result \"1-0\"]\n\n1. h2e2 {-1.20/10 0.1s} 1... h9g7 {+1.50/10 0.1s} 1-0\n\n";
    std::fs::write(&pgn, format!("{lost_late}{lost_at_once}{won}")).unwrap();
    let chariot = Path::new(env!("CARGO_BIN_EXE_chariot"));
    let script = |extra: &[&str]| {
        Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/loss-lag.py"))
            .arg(&pgn)
            .arg("chariot")
            .arg(chariot)
            .args(extra)
            .output()
            .expect("python runs the script")
    };
    let out = script(&["--list"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(said, "1\t3\t7\t-0.20\tstartpos\th2e2 h9g7 h0g2\n");
    // When each loss was decided: game 1 at ply 2 (the opponent's +1.10), game 2 at ply 1.
    let out = script(&["--phases"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.ends_with("0-29: 2  30-59: 0  60-99: 0  100+: 0  median ply 1.5\n"), "{said}");
    // Searched: the probe at each node count, then a summary line per count.
    let out = script(&["--nodes", "500,3000"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.starts_with("game 1 ply 3: in the game -20  500: "), "{said}");
    assert!(said.contains("1 probes\n"), "{said}");
    assert!(said.contains("      game  median    -20 cp  <= -50:   0  <= -100:   0\n"), "{said}");
    assert_eq!(said.lines().filter(|l| l.contains("median depth")).count(), 2, "{said}");
    // Bad node counts and a missing engine are refused with what is wrong.
    let out = script(&["--nodes", "500,x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--nodes wants positive node counts"));
    let out = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/loss-lag.py"))
        .args([pgn.as_path(), Path::new("chariot"), &dir.join("no-such-engine")])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("cannot run") && !said.contains("Traceback"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A stand-in engine whose bench searches `nodes` nodes.
fn fake_engine(path: &Path, nodes: u64) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\necho 'Nodes searched: {nodes}'\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn datagen_upgrade_hands_the_run_to_a_build_with_the_same_bench_only() {
    let dir = scratch("datagen-upgrade");
    // The run's name, as the script reads it.
    let current =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/datagen-current.sh")).unwrap();
    let name = current
        .lines()
        .find_map(|l| l.strip_prefix("current_name="))
        .expect("datagen-current.sh names the run")
        .trim_matches('"')
        .to_string();
    let (old, same, other) = (dir.join("old"), dir.join("same"), dir.join("other"));
    fake_engine(&old, 3_196_987);
    fake_engine(&same, 3_196_987);
    fake_engine(&other, 3_196_988);
    let engine_file = dir.join(format!("{name}.engine"));
    let upgrade = |build: &Path| {
        Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/datagen-background.sh"))
            .arg("upgrade")
            .arg(build)
            .env("DATA", &dir)
            .output()
            .expect("bash runs the script")
    };
    // No engine yet: refused.
    let out = upgrade(&same);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("start it first"));
    std::fs::write(&engine_file, format!("{}\n", old.display())).unwrap();
    // Another bench: refused, and the run keeps its engine.
    let out = upgrade(&other);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("refused") && said.contains("3196988") && said.contains("3196987"), "{said}");
    assert_eq!(std::fs::read_to_string(&engine_file).unwrap().trim(), old.to_str().unwrap());
    // A missing build: refused.
    let out = upgrade(&dir.join("missing"));
    assert_eq!(out.status.code(), Some(2));
    // The same bench: a pinned copy takes over.
    let out = upgrade(&same);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    let pinned = std::fs::read_to_string(&engine_file).unwrap().trim().to_string();
    assert!(pinned.starts_with(dir.join("chariot-").to_str().unwrap()), "{pinned}");
    assert_eq!(std::fs::read(&pinned).unwrap(), std::fs::read(&same).unwrap());
    assert!(said.contains("now runs") && said.contains(&pinned), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `scripts/spsa-run.sh PARAMS DIR` with `BIN` a stand-in that prints its arguments a line each.
fn spsa_run(params: &Path, dir: &Path) -> Output {
    let fake = dir.parent().unwrap().join("args.sh");
    write_executable(&fake, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    spsa_run_with(params, dir, &fake, None)
}

/// The command `scripts/spsa-run.sh PARAMS DIR` with the build `bin`, 40 pairs.
fn spsa_run_command(params: &Path, dir: &Path, bin: &Path) -> Command {
    let mut command = Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/spsa-run.sh"));
    command.arg(params).arg(dir).env("BIN", bin).env("ITERATIONS", "40");
    command
}

/// `scripts/spsa-run.sh PARAMS DIR` with the build `bin`, started from a kept run `from` if given.
fn spsa_run_with(params: &Path, dir: &Path, bin: &Path, from: Option<&Path>) -> Output {
    let mut command = spsa_run_command(params, dir, bin);
    if let Some(from) = from {
        command.env("FROM", from);
    }
    command.output().expect("bash runs the script")
}

#[test]
fn spsa_run_passes_each_parameter_line_and_resumes_only_a_run_with_a_state_file() {
    let dir = scratch("spsa-run");
    let params = dir.join("p.txt");
    std::fs::write(&params, "# a comment\nrfp_margin=85,30,250,12,0.01  # margin\n\n lmp_base=3,0,12,1\n")
        .unwrap();
    let run = dir.join("run");
    let out = spsa_run(&params, &run);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let args: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    let after = |flag: &str| -> Vec<&str> {
        args.windows(2).filter(|w| w[0] == flag).map(|w| w[1].as_str()).collect()
    };
    assert_eq!(args[0], "spsa");
    assert_eq!(after("--param"), ["rfp_margin=85,30,250,12,0.01", "lmp_base=3,0,12,1"]);
    assert_eq!(after("--iterations"), ["40"]);
    assert_eq!(after("--tune-option"), ["tune"]);
    assert_eq!(after("--state"), [run.join("state.spsa").to_str().unwrap()]);
    assert!(after("--engine")[0].ends_with("/run/chariot,option.usebook=false"), "{args:?}");
    assert!(!args.iter().any(|a| a == "--resume"), "a first run: {args:?}");
    assert!(run.join("chariot").exists(), "the build is copied into the run's folder");
    std::fs::write(run.join("state.spsa"), "chariot spsa 1\n").unwrap();
    let again = spsa_run(&params, &run);
    assert!(String::from_utf8_lossy(&again.stdout).lines().any(|a| a == "--resume"));
    // A missing file, and one that names no parameter, are refused.
    let missing = spsa_run(&dir.join("none.txt"), &run);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read the parameters file"));
    std::fs::write(&params, "# nothing\n\n").unwrap();
    let empty = spsa_run(&params, &run);
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("names no parameter"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spsa_drift_weighs_each_move_against_a_walk_of_the_same_steps() {
    let dir = scratch("spsa-drift");
    let params = dir.join("p.txt");
    let state = dir.join("s.spsa");
    let log = dir.join("pairs.log");
    // Two parameters, C_END 2 and R_END 0.01 over 4 iterations; two pairs with results +2 and -2
    // (spread 2.828), the first parameter at 12 after them, the second back at its start.
    std::fs::write(&params, "# two\na=10,0,100,2,0.01\nb=50,0,100,2,0.01\n").unwrap();
    std::fs::write(&state, "chariot spsa 1\nsettings 0123456789abcdef\niterations 4\ndone 2\n").unwrap();
    std::fs::write(
        &log,
        "0 +2 checkmate | checkmate | 11.000 50.500\n1 -2 repetition | checkmate | 12.000 50.000\n",
    )
    .unwrap();
    let out = python_script("spsa-drift.py", &[&params, &state, &log]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("pairs 2 of 4; a pair's result: mean +0.000, standard deviation 2.828"), "{text}");
    // The steps a_k / c_k for k = 0 and 1, by the gains' formulas.
    let step = |k: f64| {
        let c = 2.0 * (4.0 / (k + 1.0)).powf(0.101);
        let a = 0.01 * 4.0 * ((0.4 + 4.0) / (0.4 + k + 1.0)).powf(0.602);
        a / c
    };
    let walk = (step(0.0).powi(2) + step(1.0).powi(2)).sqrt() * 8f64.sqrt();
    let line_a = text.lines().find(|l| l.starts_with("a ")).unwrap();
    let fields: Vec<&str> = line_a.split_whitespace().collect();
    assert_eq!(&fields[1..4], ["10.0", "12.00", "+2.00"], "{line_a}");
    assert_eq!(fields[4], format!("{walk:.2}"), "{line_a}");
    assert_eq!(fields[5], format!("{:+.2}", 2.0 / walk), "{line_a}");
    let line_b = text.lines().find(|l| l.starts_with("b ")).unwrap();
    assert!(line_b.ends_with("+0.00"), "{line_b}");
    // The values now, rounded, as a `tune` list for a gate.
    assert!(text.lines().any(|l| l == "tune now: a=12 b=50"), "{text}");
    // A log that is not chariot spsa's, and one with another count of values, are refused.
    std::fs::write(&log, "a b c\nd e f\n").unwrap();
    let bad = python_script("spsa-drift.py", &[&params, &state, &log]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is not a chariot spsa log"));
    std::fs::write(&log, "0 +2 x | y | 11.0\n1 -2 x | y | 12.0\n").unwrap();
    let short = python_script("spsa-drift.py", &[&params, &state, &log]);
    assert!(
        String::from_utf8_lossy(&short.stderr).contains("the log has 1 values a line, the parameters file 2")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/spsa-archive.sh DIR NAME` with `RUNS` in the test's folder.
fn spsa_archive(dir: &Path, runs: &Path) -> Output {
    Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/spsa-archive.sh"))
        .arg(dir)
        .arg("tuned")
        .env("RUNS", runs)
        .env("TRIES", "2")
        .output()
        .expect("bash runs the script")
}

/// A stand-in tuner for `spsa-run.sh`: it plays one pair, then two more, and exits with 7.
/// With a `hold` file in its folder it waits after the first pair until it is stopped (a
/// minute at most) and then writes a fifth pair, as `chariot spsa` finishes its pairs' games
/// when stopped.
const FAKE_TUNER: &str = r#"#!/bin/sh
dir=$(dirname "$0")
write() {
    : > "$dir/pairs.log.new"
    i=0
    while [ $i -lt "$1" ]; do echo "$i +0 repetition | repetition | 85.000" >> "$dir/pairs.log.new"; i=$((i + 1)); done
    mv "$dir/pairs.log.new" "$dir/pairs.log"
    printf 'chariot spsa 1\nsettings 00\niterations 40\ndone %s\n' "$1" > "$dir/state.new"
    mv "$dir/state.new" "$dir/state.spsa"
}
trap 'write 5; exit 143' TERM
write 1
if [ -f "$dir/hold" ]; then
    i=0
    while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
    exit 9
fi
write 3
exit 7
"#;

/// The number of pairs a kept run's state says were played.
fn kept_pairs(kept: &Path) -> Option<String> {
    let state = std::fs::read_to_string(kept.join("state.spsa")).ok()?;
    state.lines().find_map(|l| l.strip_prefix("done ")).map(str::to_string)
}

#[test]
fn an_spsa_run_with_archive_is_kept_as_it_goes_and_when_it_stops() {
    let dir = scratch("spsa-keep");
    let params = dir.join("p.txt");
    std::fs::write(&params, "rfp_margin=85,30,250,12\n").unwrap();
    let tuner = dir.join("tuner.sh");
    write_executable(&tuner, FAKE_TUNER);
    let runs = dir.join("runs");
    let start = |run: &Path| {
        let mut command = spsa_run_command(&params, run, &tuner);
        command.env("ARCHIVE", "kept").env("ARCHIVE_EVERY", "1").env("RUNS", &runs).env("TRIES", "2");
        command
    };

    // A run that ends by itself is kept as it ended, and its exit status is the tuner's.
    let out = start(&dir.join("run")).output().unwrap();
    assert_eq!(out.status.code(), Some(7), "{}", String::from_utf8_lossy(&out.stderr));
    let kept = runs.join("kept");
    assert_eq!(kept_pairs(&kept).as_deref(), Some("3"));
    let log = Command::new("xz").arg("-dc").arg(kept.join("pairs.log.xz")).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&log.stdout).lines().count(), 3);

    // A run that plays on is kept every ARCHIVE_EVERY seconds; stopped from outside, it is
    // kept with the pairs it finished while stopping.
    let held = dir.join("held");
    std::fs::create_dir_all(&held).unwrap();
    std::fs::copy(&tuner, held.join("chariot")).unwrap();
    std::fs::write(held.join("hold"), "").unwrap();
    std::fs::remove_dir_all(&kept).unwrap();
    let mut child = start(&held).spawn().unwrap();
    let waited = std::time::Instant::now();
    while kept_pairs(&kept).is_none() {
        assert!(waited.elapsed().as_secs() < 60, "no archive while the run played");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(kept_pairs(&kept).as_deref(), Some("1"));
    Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143));
    assert_eq!(kept_pairs(&kept).as_deref(), Some("5"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_spsa_run_kept_in_the_repository_starts_again_only_with_the_same_program() {
    let dir = scratch("spsa-archive");
    let params = dir.join("p.txt");
    std::fs::write(&params, "rfp_margin=85,30,250,12\n").unwrap();
    // A first run copies the stand-in build into its folder; then it "plays" two pairs, and
    // a third line is still being written.
    let run = dir.join("run");
    assert!(spsa_run(&params, &run).status.success());
    let state = "chariot spsa 1\nsettings 00\niterations 40\ndone 2\ngames 1 2 1\nvalue rfp_margin 86.5\n";
    std::fs::write(run.join("state.spsa"), state).unwrap();
    let log = "0 +1 checkmate | repetition | 86.000\n1 +0 checkmate | checkmate | 86.500\n";
    std::fs::write(run.join("pairs.log"), format!("{log}2 -1 chec")).unwrap();

    let runs = dir.join("runs");
    let out = spsa_archive(&run, &runs);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said} {}", String::from_utf8_lossy(&out.stderr));
    assert!(said.starts_with("tuned: 2 pairs"), "{said}");
    let kept = runs.join("tuned");
    assert_eq!(std::fs::read_to_string(kept.join("state.spsa")).unwrap(), state);
    let unpacked = Command::new("xz").arg("-dc").arg(kept.join("pairs.log.xz")).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&unpacked.stdout), log, "whole lines only");

    // An empty folder starts from the kept run with the same program, and resumes it.
    let moved = dir.join("moved");
    let again = spsa_run_with(&params, &moved, &dir.join("args.sh"), Some(&kept));
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(String::from_utf8_lossy(&again.stdout).lines().any(|a| a == "--resume"));
    assert_eq!(std::fs::read_to_string(moved.join("state.spsa")).unwrap(), state);
    assert_eq!(std::fs::read_to_string(moved.join("pairs.log")).unwrap(), log);

    // Another program is refused before anything is written, and its copy is not kept.
    let other = dir.join("other.sh");
    std::fs::write(&other, "#!/bin/sh\necho other\n").unwrap();
    let elsewhere = dir.join("elsewhere");
    let refused = spsa_run_with(&params, &elsewhere, &other, Some(&kept));
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("was played by the program"));
    assert!(!elsewhere.join("state.spsa").exists() && !elsewhere.join("chariot").exists());

    // A state and a log that disagree are not kept.
    std::fs::write(run.join("pairs.log"), log.lines().next().unwrap().to_string() + "\n").unwrap();
    let torn = spsa_archive(&run, &dir.join("torn"));
    assert_eq!(torn.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&torn.stderr).contains("the log holds 1"));
    assert!(!dir.join("torn").exists(), "a refused archive leaves no folder");
    let _ = std::fs::remove_dir_all(&dir);
}
