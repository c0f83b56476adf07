//! The shards of a run: each game played once, merged into one process's file; foreign games
//! and partial sets refused; the same on the command line.

use super::*;

#[test]
fn the_shards_of_a_run_play_its_games_once_and_merge_into_one_processs_file() {
    let dir = scratch("shards-split");
    let cfg = tiny(5);
    // One process: games 0..6.
    let whole = dir.join("whole.bin");
    run(&whole, &cfg, Target::Games(6));
    let reference = std::fs::read(&whole).unwrap();
    let all = read_all(&whole).unwrap();
    let games_of = |records: &[Record]| {
        let mut games: Vec<u32> = records.iter().map(|r| r.game()).collect();
        games.dedup();
        games
    };
    // Every game keeps positions, so each shard's games show in its file.
    assert_eq!(games_of(&all), (0..6).collect::<Vec<u32>>());

    // Two shards of 3 games each: the even and the odd games of the same run, record for record.
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let (sa, notes) = run(&a, &shard_of(&cfg, 1, 2), Target::Games(3));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((sa.progress.games, sa.progress.file_games), (3, 3));
    let mut two = shard_of(&cfg, 2, 2);
    two.concurrency = 2;
    run(&b, &two, Target::Games(3));
    let (ra, rb) = (read_all(&a).unwrap(), read_all(&b).unwrap());
    let even: Vec<Record> = all.iter().filter(|r| r.game() % 2 == 0).copied().collect();
    let odd: Vec<Record> = all.iter().filter(|r| r.game() % 2 == 1).copied().collect();
    assert_eq!((ra.clone(), rb.clone()), (even, odd));
    assert_eq!(DataReader::open(&a).unwrap().header().shard, Shard::new(1, 2).unwrap());
    assert_eq!(DataReader::open(&b).unwrap().header().shard, Shard::new(2, 2).unwrap());
    // A shard's header is version 2; the whole run's stays version 1.
    assert_eq!((std::fs::read(&a).unwrap()[12], reference[12]), (2, 1));

    // Merged (in any order of the inputs): the one process's file, byte for byte.
    let merged = dir.join("merged.bin");
    let summary = merge(&[b.clone(), a.clone()], &merged).unwrap();
    assert_eq!(std::fs::read(&merged).unwrap(), reference);
    assert_eq!((summary.files, summary.shards, summary.records), (2, 2, all.len() as u64));
    assert_eq!(summary.games, games_of(&all).len() as u64);
    // Three shards of two games: the same run again.
    let thirds: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("t{k}.bin"))).collect();
    for (k, path) in thirds.iter().enumerate() {
        run(path, &shard_of(&cfg, k as u64 + 1, 3), Target::Games(2));
        assert!(read_all(path).unwrap().iter().all(|r| r.game() % 3 == k as u32), "shard {}", k + 1);
    }
    let merged3 = dir.join("merged3.bin");
    merge(&thirds, &merged3).unwrap();
    assert_eq!(std::fs::read(&merged3).unwrap(), reference);

    // The merged file's statistics are the sum of the shards'.
    let (s1, s2, sm) = (
        stats::collect(&a, true).unwrap(),
        stats::collect(&b, true).unwrap(),
        stats::collect(&merged, true).unwrap(),
    );
    assert_eq!(sm.records, s1.records + s2.records);
    assert_eq!(sm.games, s1.games + s2.games);
    assert_eq!(sm.unfinished_games, 0);
    for i in 0..3 {
        assert_eq!(sm.game_results[i], s1.game_results[i] + s2.game_results[i]);
        assert_eq!(sm.position_results[i], s1.position_results[i] + s2.position_results[i]);
    }
    for (i, n) in sm.game_ends.iter().enumerate() {
        assert_eq!(*n, s1.game_ends[i] + s2.game_ends[i]);
    }
    for (i, n) in sm.score_histogram.iter().enumerate() {
        assert_eq!(*n, s1.score_histogram[i] + s2.score_histogram[i]);
    }
    assert_eq!(sm.shards, vec![Header::whole(5, 150, scored::fingerprint(&cfg))]);

    // Resuming a shard: two games, then three; and after an interruption inside its last game.
    let b_bytes = std::fs::read(&b).unwrap();
    let resumed = dir.join("resumed.bin");
    run(&resumed, &shard_of(&cfg, 2, 2), Target::Games(2));
    let (summary, notes) = run(&resumed, &shard_of(&cfg, 2, 2), Target::Games(3));
    assert_eq!(summary.progress.games, 1);
    assert!(
        notes[0].starts_with(&format!("resuming {} (shard 2/2): 2 games played, ", resumed.display())),
        "{notes:?}"
    );
    assert_eq!(std::fs::read(&resumed).unwrap(), b_bytes);
    let last_game = rb.last().unwrap().game();
    let start_of_last = end_of_game(&b_bytes, last_game - 2);
    std::fs::write(&resumed, &b_bytes[..start_of_last + BLOCK + 9]).unwrap();
    let point = scan_for_append(&resumed).unwrap();
    assert_eq!(point.next_game, last_game as u64, "the shard's next game is its last one, played again");
    run(&resumed, &shard_of(&cfg, 2, 2), Target::Games(3));
    assert_eq!(std::fs::read(&resumed).unwrap(), b_bytes);
    // A shard file is resumed only as the same shard.
    for other in [shard_of(&cfg, 1, 2), shard_of(&cfg, 2, 3), cfg.clone()] {
        let e = scored::run(&resumed, &other, Target::Games(4), &mut |_| {}, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("was made with other settings") && e.contains(", shard 2/2;"), "{e}");
        assert_eq!(std::fs::read(&resumed).unwrap(), b_bytes);
    }
}

#[test]
fn a_game_of_another_shard_is_refused_by_the_reader() {
    let dir = scratch("shards-foreign");
    let path = dir.join("s.bin");
    // Games 0..3 of a whole run, relabelled shard 2 of 3 (which holds games 1, 4, 7, …).
    write_small_file(&path, 3, 0, 3);
    let mut bytes = std::fs::read(&path).unwrap();
    let header = Header { shard: Shard::new(2, 3).unwrap(), ..Header::whole(3, 100, 42) };
    bytes[..BLOCK].copy_from_slice(&header.to_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let e = refusal(&path);
    assert_eq!(
        (e.record, e.offset, e.message.as_str()),
        (Some(0), offset(0), "game 0 is not one of shard 2/3's (its games are numbered 1 mod 3)")
    );
}

#[test]
fn a_merge_refuses_what_is_not_the_whole_of_one_run() {
    let dir = scratch("shards-merge");
    let cfg = tiny(7);
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    run(&a, &shard_of(&cfg, 1, 2), Target::Games(2));
    run(&b, &shard_of(&cfg, 2, 2), Target::Games(2));
    let (a_bytes, b_bytes) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let out = dir.join("out.bin");
    let before = names_in(&dir);
    // Each refusal leaves no output, no temporary, and the inputs as they were.
    let refused = |inputs: &[&Path], output: &Path| -> MergeError {
        let inputs: Vec<PathBuf> = inputs.iter().map(|p| p.to_path_buf()).collect();
        let e = merge(&inputs, output).expect_err("refused");
        assert_eq!(std::fs::read(&a).unwrap(), a_bytes);
        assert_eq!(std::fs::read(&b).unwrap(), b_bytes);
        e
    };
    let name = |p: &Path| p.display().to_string();

    // Another fingerprint, seed, node count or number of shards: not the same run.
    let others = [
        (DatagenConfig { random_plies: 3, ..shard_of(&cfg, 2, 2) }, "settings"),
        (shard_of(&tiny(8), 2, 2), "seed"),
        (DatagenConfig { nodes: 151, ..shard_of(&cfg, 2, 2) }, "nodes"),
        (shard_of(&cfg, 2, 3), "shards"),
    ];
    for (i, (other_cfg, what)) in others.iter().enumerate() {
        let other = dir.join(format!("other{i}.bin"));
        run(&other, other_cfg, Target::Games(1));
        let e = refused(&[&a, &other], &out);
        let MergeError::OtherRun { first, file, .. } = &e else { panic!("{what}: {e}") };
        assert_eq!((first.as_str(), file.as_str()), (name(&a).as_str(), name(&other).as_str()), "{what}");
        assert!(e.to_string().contains("is not a shard of the run"), "{what}: {e}");
        std::fs::remove_file(&other).unwrap();
    }
    assert_eq!(names_in(&dir), before);

    // A shard twice (a copy): its games twice, naming both files.
    let copy = dir.join("copy.bin");
    std::fs::copy(&b, &copy).unwrap();
    let e = refused(&[&a, &b, &copy], &out);
    let first_of_b = read_all(&b).unwrap()[0].game();
    assert_eq!(
        e.to_string(),
        format!("game {first_of_b} is in both {} and {}: the same games twice", name(&b), name(&copy))
    );
    std::fs::remove_file(&copy).unwrap();

    // A shard missing.
    let e = refused(&[&b], &out);
    assert!(
        matches!(&e, MergeError::MissingShards { missing } if missing == &[Shard::new(1, 2).unwrap()]),
        "{e}"
    );
    assert!(e.to_string().starts_with("shard 1/2 of the run is missing"), "{e}");

    // Truncated inside a record, and cut inside a game (an interrupted run): refused, naming the
    // file and the fault.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &b_bytes[..b_bytes.len() - 7]).unwrap();
    let e = refused(&[&a, &cut], &out);
    assert!(
        matches!(&e, MergeError::Read(d) if d.file == name(&cut) && d.message.starts_with("truncated last record")),
        "{e}"
    );
    let rb = read_all(&b).unwrap();
    let last_of_b = rb.last().unwrap().game();
    assert_eq!(rb[rb.len() - 2].game(), last_of_b, "the last game has two records at least");
    std::fs::write(&cut, &b_bytes[..b_bytes.len() - BLOCK]).unwrap();
    let e = refused(&[&a, &cut], &out);
    assert!(
        e.to_string().starts_with(&format!("data file {} ends in unfinished game {last_of_b} ", name(&cut))),
        "{e}"
    );
    // A damaged record.
    let mut damaged = b_bytes.clone();
    damaged[BLOCK + 30] = 7;
    std::fs::write(&cut, &damaged).unwrap();
    let e = refused(&[&a, &cut], &out);
    assert!(e.to_string().contains("record 0 at byte offset 40: result code 7"), "{e}");
    // Two files concatenated.
    std::fs::write(&cut, [a_bytes.clone(), b_bytes.clone()].concat()).unwrap();
    let e = refused(&[&cut, &b], &out);
    assert!(e.to_string().contains("holds several shards"), "{e}");
    std::fs::remove_file(&cut).unwrap();
    assert_eq!(names_in(&dir), before);

    // The output one of the inputs, however it is spelled: refused before anything is written.
    for output in [b.clone(), dir.join(".").join("b.bin")] {
        let e = refused(&[&a, &b], &output);
        assert!(matches!(e, MergeError::OutputIsInput { .. }), "{e}");
    }
    // An output that exists and is no input is replaced whole.
    std::fs::write(&out, "old").unwrap();
    merge(&[a.clone(), b.clone()], &out).unwrap();
    assert_eq!(read_all(&out).unwrap().len(), (a_bytes.len() + b_bytes.len()) / BLOCK - 2);
    assert_eq!(names_in(&dir), [before, vec!["out.bin".to_string()]].concat());
}

#[test]
fn shard_and_merge_on_the_command_line() {
    let dir = scratch("shards-cli");
    let args =
        ["datagen", "--scored", "--games", "2", "--nodes", "150", "--random-plies", "2", "--hash", "1"];
    let with = |extra: &[&str]| chariot(&[&args[..], extra].concat());
    // Bad shards are refused with what is wrong, exit status 2, and no file.
    let d = dir.join("d.bin");
    for (bad, says) in
        [("0/4", "between 1 and N"), ("5/4", "between 1 and N"), ("x/y", "expected K/N"), ("1/0", "N is 0")]
    {
        let out = with(&["--shard", bad, "--out", d.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("invalid value '{bad}' for '--shard <K/N>'")) && err.contains(says),
            "{bad}: {err}"
        );
    }
    let out = chariot(&["datagen", "--games", "2", "--shard", "1/2", "--out", d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--scored"));
    assert!(!d.exists());

    let (a, b, m) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("m.bin"));
    for (shard, path) in [("1/2", &a), ("2/2", &b)] {
        let out = with(&["--shard", shard, "--out", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = chariot(&["datagen", "--stats", a.to_str().unwrap()]);
    let stats_a = String::from_utf8(out.stdout).unwrap();
    assert!(
        stats_a.starts_with(&format!(
            "{}: format version 2, 1 shard (seed 1, nodes 150, settings ",
            a.display()
        )),
        "{stats_a}"
    );
    assert!(stats_a.lines().next().unwrap().ends_with(", shard 1/2)"), "{stats_a}");

    let out =
        chariot(&["datagen", "merge", "-o", m.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8(out.stdout).unwrap();
    let records = read_all(&a).unwrap().len() + read_all(&b).unwrap().len();
    assert!(said.starts_with("merged 2 files (2 shards of seed 1, nodes 150, settings "), "{said}");
    assert!(
        said.trim_end().ends_with(&format!("games, {records} positions written to {}", m.display())),
        "{said}"
    );
    // `--stats` of the merge: a whole run's file holding what the two shards held.
    let count = |file: &Path, what: &str| -> u64 {
        let out = chariot(&["datagen", "--stats", file.to_str().unwrap()]);
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text.lines().find(|l| l.starts_with("records ")).unwrap().to_string();
        let at = line.find(what).unwrap() + what.len();
        line[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
    };
    for what in ["records ", "games "] {
        assert_eq!(count(&m, what), count(&a, what) + count(&b, what), "{what}");
    }
    assert_eq!(count(&m, "games "), 4);
    let out = chariot(&["datagen", "--stats", m.to_str().unwrap()]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with(&format!("{}: format version 1, 1 shard (seed 1, ", m.display())));

    // Refusals: exit status 2, the reason on stderr, the output left alone.
    let m_bytes = std::fs::read(&m).unwrap();
    let out =
        chariot(&["datagen", "merge", "-o", a.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with(&format!("error: the output {} is the input", a.display())));
    let out = chariot(&["datagen", "merge", "-o", m.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("shard 2/2 of the run is missing"));
    assert_eq!(std::fs::read(&m).unwrap(), m_bytes);
    let out = chariot(&["datagen", "merge", "-o", m.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = chariot(&["datagen", "merge", a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
