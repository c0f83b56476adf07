//! Scored runs: reproducible and resumable, scores and results with the right sign and agreeing
//! with the rules, the `scored` and `stats` commands, the evaluation in the settings.

use super::*;

#[test]
fn runs_are_reproducible_and_resume_where_an_interruption_left_off() {
    let dir = scratch("resume");
    let cfg = tiny(5);
    let whole = dir.join("whole.bin");
    let (summary, notes) = run(&whole, &cfg, Target::Games(5));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(summary.progress.file_games, 5);
    let reference = std::fs::read(&whole).unwrap();
    let records = read_all(&whole).unwrap();
    assert_eq!(records.len() as u64, summary.progress.positions);
    assert_eq!(records.iter().map(|r| r.game()).max(), Some(4));
    assert!(records.len() > 20, "{}", records.len());
    assert_eq!(summary.progress.red_wins + summary.progress.draws + summary.progress.black_wins, 5);

    // The same seed again, two games at once: the same bytes.
    let mut two = cfg.clone();
    two.concurrency = 2;
    let again = dir.join("again.bin");
    run(&again, &two, Target::Games(5));
    assert_eq!(std::fs::read(&again).unwrap(), reference);

    // Another seed: another header and other games.
    let other = dir.join("other.bin");
    run(&other, &tiny(6), Target::Games(2));
    let other_bytes = std::fs::read(&other).unwrap();
    assert_ne!(other_bytes[..BLOCK], reference[..BLOCK]);
    assert_ne!(other_bytes[BLOCK..2 * BLOCK], reference[BLOCK..2 * BLOCK]);

    // Appending: two games, then up to five.
    let appended = dir.join("appended.bin");
    run(&appended, &cfg, Target::Games(2));
    assert_eq!(std::fs::read(&appended).unwrap(), reference[..end_of_game(&reference, 1)]);
    let (summary, notes) = run(&appended, &two, Target::Games(5));
    assert_eq!(
        notes,
        vec![format!("resuming {}: 2 games played, {} positions already there", appended.display(), {
            end_of_game(&reference, 1) / BLOCK - 1
        })]
    );
    assert_eq!(summary.progress.games, 3);
    assert_eq!(std::fs::read(&appended).unwrap(), reference);
    // The target already met: nothing is played, nothing changes.
    let (summary, _) = run(&appended, &cfg, Target::Games(3));
    assert_eq!(summary.progress.games, 0);
    assert_eq!(std::fs::read(&appended).unwrap(), reference);

    // Interrupted in the middle of writing game 2: its first records and half a record.
    let start_of_2 = end_of_game(&reference, 1);
    let end_of_2 = end_of_game(&reference, 2);
    assert!(end_of_2 - start_of_2 >= 2 * BLOCK, "game 2 has at least two records");
    let cut = start_of_2 + BLOCK + BLOCK / 2;
    let interrupted = dir.join("interrupted.bin");
    std::fs::write(&interrupted, &reference[..cut]).unwrap();
    let point = scan_for_append(&interrupted).unwrap();
    assert_eq!(
        (point.next_game, point.keep_bytes, point.cut_bytes),
        (2, start_of_2 as u64, (cut - start_of_2) as u64)
    );
    let (_, notes) = run(&interrupted, &cfg, Target::Games(5));
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(
        notes[0],
        format!(
            "note: {}: cut off {} bytes an interrupted run left (1 records of unfinished game 2 and a partial record); \
             it is played again",
            interrupted.display(),
            cut - start_of_2
        )
    );
    assert_eq!(std::fs::read(&interrupted).unwrap(), reference);

    // Interrupted right after the header, and inside a record of game 0.
    for cut in [BLOCK, BLOCK + 17] {
        std::fs::write(&interrupted, &reference[..cut]).unwrap();
        run(&interrupted, &cfg, Target::Games(5));
        assert_eq!(std::fs::read(&interrupted).unwrap(), reference, "cut at {cut}");
    }

    // A positions target stops after the game that reaches it.
    let positions = dir.join("positions.bin");
    let in_two_games = (end_of_game(&reference, 1) / BLOCK - 1) as u64;
    let (summary, _) = run(&positions, &two, Target::Positions(in_two_games + 1));
    assert_eq!(summary.progress.file_games, 3);
    assert_eq!(std::fs::read(&positions).unwrap(), reference[..end_of_game(&reference, 2)]);

    // Other settings are refused, and the file is left as it was.
    for (changed, what) in [
        (tiny(9), "seed"),
        (DatagenConfig { nodes: 151, ..tiny(5) }, "nodes"),
        (DatagenConfig { random_plies: 3, ..tiny(5) }, "settings"),
    ] {
        let e = scored::run(&appended, &changed, Target::Games(9), &mut |_| {}, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("was made with other settings"), "{what}: {e}");
        assert_eq!(std::fs::read(&appended).unwrap(), reference, "{what}");
    }
    // A damaged file is not appended to.
    let mut damaged = reference.clone();
    damaged[BLOCK + 30] = 7;
    std::fs::write(&interrupted, &damaged).unwrap();
    let e =
        scored::run(&interrupted, &cfg, Target::Games(9), &mut |_| {}, &mut |_| {}).unwrap_err().to_string();
    assert!(
        e.contains("record 0 at byte offset 40: result code 7") && e.ends_with("refusing to append to it"),
        "{e}"
    );
    assert_eq!(std::fs::read(&interrupted).unwrap(), damaged);
}

#[test]
fn scores_and_results_have_the_right_sign() {
    // Black's rook a9 is missing: Red is a rook up, whoever is to move.
    let red_up = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for (fen, ahead) in [
        (red_up.to_string(), Color::Red),
        (Position::from_fen(red_up).unwrap().color_flipped().to_fen(), Color::Black),
    ] {
        let mut cfg = DatagenConfig::scored(2000, 0, 1);
        cfg.openings = vec![Opening::parse(&fen).unwrap()];
        cfg.skip_plies = 0;
        cfg.max_plies = 12;
        // The win-rate model gives a rook up a win at once: no adjudication, to reach the cap.
        cfg.adjudicate_plies = 0;
        let played = play_records(&cfg, 0);
        assert!(played.kept.len() >= 4, "{fen}: {} kept", played.kept.len());
        for rec in &played.kept {
            let to_move_is_ahead = rec.side_to_move() == ahead;
            assert_eq!(rec.score() > 0, to_move_is_ahead, "{fen}: {rec:?}");
            assert_eq!(rec.red_score() > 0, ahead == Color::Red, "{fen}: {rec:?}");
        }
        assert!(played.kept.iter().any(|r| r.side_to_move() == Color::Red));
        assert!(played.kept.iter().any(|r| r.side_to_move() == Color::Black));
        // Capped at 12 plies: a draw, every label a draw.
        assert_eq!((played.end, played.winner), (GameEnd::PlyLimit, None));
    }
    // Played out, the rook up wins, by the model's verdict; the labels say so for each side.
    let mut cfg = DatagenConfig::scored(2000, 0, 1);
    cfg.openings = vec![Opening::parse(red_up).unwrap()];
    // The verdict comes within the plies skipped by default.
    cfg.skip_plies = 0;
    let mut played = play_records(&cfg, 0);
    assert_eq!((played.end, played.winner), (GameEnd::Resigned, Some(Color::Red)));
    let n = played.kept.len();
    assert!(n > 0);
    for (i, rec) in played.kept.iter_mut().enumerate() {
        rec.finish(0, played.end, played.winner, i + 1 == n);
    }
    for rec in &played.kept {
        assert_eq!(rec.result(), if rec.side_to_move() == Color::Red { Wdl::Win } else { Wdl::Loss });
        assert_eq!(rec.red_result(), Wdl::Win);
        assert!(rec.red_score() > 0, "{rec:?}");
    }
}

#[test]
fn results_agree_with_the_rules_on_games_the_rules_end() {
    // No adjudication: every game ends by the rules module (or the generous ply cap).
    let mut cfg = DatagenConfig::scored(200, 6, 21);
    cfg.adjudicate_plies = 0;
    cfg.draw_plies = 0;
    cfg.max_plies = 600;
    cfg.hash_mb = 1;
    let mut ends = Vec::new();
    for game in 0..4 {
        let played = play_records(&cfg, game);
        let GameEnd::Rules(termination) = played.end else { panic!("game {game} ended by {}", played.end) };
        let verdict = game_result(&played.end_position).expect("the rules say the game is over");
        assert_eq!((verdict.winner, verdict.termination), (played.winner, termination), "game {game}");
        ends.push(termination);
    }
    // A mate the rules see, with every label following from it.
    let mut cfg = DatagenConfig::scored(2000, 0, 1);
    cfg.adjudicate_plies = 0;
    cfg.openings = vec![Opening::parse("3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1").unwrap()];
    let played = play_records(&cfg, 0);
    assert_eq!(played.end, GameEnd::Rules(Termination::Checkmate));
    let verdict = game_result(&played.end_position).unwrap();
    assert_eq!(verdict.winner, Some(Color::Red));
    // Through a data file: each record's result is the rules' verdict for its side to move.
    let dir = scratch("rules");
    let path = dir.join("d.bin");
    let mut cfg = DatagenConfig::scored(200, 6, 21);
    cfg.adjudicate_plies = 0;
    cfg.draw_plies = 0;
    cfg.max_plies = 600;
    cfg.hash_mb = 1;
    run(&path, &cfg, Target::Games(4));
    let records = read_all(&path).unwrap();
    for game in 0..4u32 {
        let played = play_records(&cfg, game as u64);
        let verdict = game_result(&played.end_position).unwrap();
        let of_game: Vec<&Record> = records.iter().filter(|r| r.game() == game).collect();
        assert_eq!(of_game.len(), played.kept.len());
        for rec in of_game {
            assert_eq!(rec.result(), Wdl::for_side(rec.side_to_move(), verdict.winner));
            assert_eq!(rec.game_end(), Some(GameEnd::Rules(verdict.termination)));
        }
    }
}

#[test]
fn the_scored_and_stats_commands_end_to_end() {
    let dir = scratch("cli");
    // In a folder that does not exist yet: datagen makes it.
    let data = dir.join("new").join("d.bin");
    let d = data.to_str().unwrap();
    let openings = test_data("openings.txt");
    let args =
        ["datagen", "--scored", "--games", "2", "--nodes", "150", "--random-plies", "2", "--hash", "1"];
    let out = chariot(&[&args[..], &["--openings", openings.to_str().unwrap(), "--out", d]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    let records = read_all(&data).unwrap();
    assert!(summary.starts_with("games 2 (red wins "), "{summary}");
    assert!(summary.contains(&format!("), {} positions in ", records.len())), "{summary}");
    assert!(
        summary.contains(" positions/s; ")
            && summary.trim_end().ends_with(&format!("now holds 2 games, {} positions", records.len())),
        "{summary}"
    );

    let out = chariot(&["datagen", "--stats", d]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats = String::from_utf8(out.stdout).unwrap();
    assert!(
        stats.starts_with(&format!("{d}: format version 1, 1 shard (seed 1, nodes 150, settings ")),
        "{stats}"
    );
    assert!(stats.contains(&format!("\nrecords {}, games 2, ", records.len())), "{stats}");
    assert!(stats.contains("check: every record valid"), "{stats}");
    let histogram: u64 = stats
        .lines()
        .skip_while(|l| !l.starts_with("score for the side to move"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let percent = words.iter().position(|w| w.ends_with('%')).unwrap();
            words[percent - 1].parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(histogram, records.len() as u64, "{stats}");

    // The file twice over: two shards, flagged as the same games twice.
    let twice = dir.join("twice.bin");
    std::fs::write(&twice, [std::fs::read(&data).unwrap(), std::fs::read(&data).unwrap()].concat()).unwrap();
    let out = chariot(&["datagen", "--stats", twice.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats = String::from_utf8(out.stdout).unwrap();
    assert!(stats.contains(": format version 1, 2 shards (seed 1, nodes 150, settings "), "{stats}");
    assert!(stats.contains("\nwarning: 1 shard repeats the seed and settings of an earlier one"), "{stats}");
    assert!(stats.contains(&format!("\nrecords {}, games 4, ", 2 * records.len())), "{stats}");

    // A damaged file: refused with the record and offset, exit status 2.
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[2 * BLOCK + 30] = 9;
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let out = chariot(&["datagen", "--stats", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!("error: data file {}: record 1 at byte offset 80: result code 9 is not 0 (loss), 1 (draw) or 2 (win)", bad.display())
    );

    // A truncated trailing write: the next run cuts it off with a note on stderr and goes on.
    let full = std::fs::read(&data).unwrap();
    std::fs::write(&data, &full[..full.len() - 7]).unwrap();
    let out = chariot(&[&args[..], &["--openings", openings.to_str().unwrap(), "--out", d]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("note: {d}: cut off ")) && err.contains("unfinished game 1"), "{err}");
    assert_eq!(std::fs::read(&data).unwrap(), full);

    // Usage errors.
    let out = chariot(&["datagen", "--scored", "--out", d]);
    assert_eq!(out.status.code(), Some(2));
    let out = chariot(&["datagen", "--positions", "5", "--out", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--scored"));
    let out = chariot(&[
        "datagen",
        "--scored",
        "--games",
        "1",
        "--soft-nodes",
        "600",
        "--nodes",
        "500",
        "--out",
        d,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--soft-nodes must not be above --nodes"));
    let out = chariot(&["datagen", "--games", "1", "--soft-nodes", "600", "--out", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--scored"));
    let out = chariot(&["datagen", "--stats", "/nonexistent/d.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("error: data file /nonexistent/d.bin: byte offset 0: cannot open"));
    // Not a data file at all.
    let out = chariot(&["datagen", "--stats", openings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("bad magic"));
}

#[test]
fn the_evaluation_searched_with_is_part_of_the_settings() {
    let mut cfg = DatagenConfig::scored(5000, 8, 1);
    cfg.openings = chariot::tournament::openings::load(&test_data("openings.txt")).unwrap();
    cfg.eval = EvalChoice::Classic;
    // The settings field of the header this build writes for `datagen --scored --classic --nodes
    // 5000 --random-plies 8 --openings tests/data/openings.txt`: pinned so that a change to what
    // the settings hold, which makes every earlier file unresumable, is made on purpose.
    assert_eq!(scored::fingerprint(&cfg), 0xb58b_7b91_7fd8_b18d);
    // The builds before adjudication went by the win-rate model (01642fd to 353e025) wrote this
    // for the same command; their games were adjudicated otherwise, so their files are refused.
    assert_ne!(scored::fingerprint(&cfg), 0x0135_e7e4_5df7_9a77);
    let classic = scored::fingerprint(&cfg);
    // The adjudication thresholds are settings.
    let resign = DatagenConfig { adjudicate_win_per_mille: 990, ..cfg.clone() };
    let draw = DatagenConfig { draw_cp: 10, ..cfg.clone() };
    assert!(scored::fingerprint(&resign) != classic && scored::fingerprint(&draw) != classic);
    // So is a soft node limit (and its value); without one the fingerprint is the pinned one.
    let soft = DatagenConfig { soft_nodes: Some(2_000), ..cfg.clone() };
    let softer = DatagenConfig { soft_nodes: Some(1_500), ..cfg.clone() };
    assert!(
        scored::fingerprint(&soft) != classic && scored::fingerprint(&soft) != scored::fingerprint(&softer)
    );
    cfg.eval = EvalChoice::default();
    let built_in = scored::fingerprint(&cfg);
    let arch = Architecture { width: 16, ..Architecture::DEFAULT };
    cfg.eval = EvalChoice::Nnue(Arc::new(FloatNetwork::random(arch, 1).quantise().unwrap()));
    let other = scored::fingerprint(&cfg);
    assert!(classic != built_in && built_in != other && other != classic, "{classic} {built_in} {other}");
}
