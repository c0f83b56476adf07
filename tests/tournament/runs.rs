//! Whole matches: resuming, bad input refused before any game, Fairy-Stockfish, Chariot against
//! itself, the library's progress reports, random plies, an engine's own limit, the PGN folder.

use super::*;

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
    let b = format!("name=chariot-b,cmd={BIN},proto=uci,option.Tune=lmr_cut=2");
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
    // Each game names the program and options of each side, not only their names: each engine
    // played one game as Red and one as Black.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = chariot::notation::read_pgn(&text).unwrap();
    let spec = |name: &str| match name {
        "chariot-a" => format!("cmd={BIN}"),
        "chariot-b" => format!("cmd={BIN},proto=uci,option.Tune=lmr_cut=2"),
        other => panic!("an engine the match did not have: {other}"),
    };
    let mut red_names = Vec::new();
    for game in &games {
        for (side, tag) in [("Red", "RedEngine"), ("Black", "BlackEngine")] {
            let name = game.tag(side).expect("a side's name");
            assert_eq!(game.tag(tag), Some(spec(name).as_str()), "{tag} of a game {name} played");
        }
        red_names.push(game.tag("Red").unwrap().to_string());
    }
    red_names.sort();
    assert_eq!(red_names, ["chariot-a", "chariot-b"]);
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
