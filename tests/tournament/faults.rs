//! Misbehaving engines (`tests/fake_engines/faulty.sh`): flooding, stalling, crashing, garbled
//! output, engines that stop reading or leave children; the match ends in bounded time and memory.

use super::*;

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
