//! Sharded matches (`chariot match --shard K/N`) and `chariot match report`: the shards play the
//! match's games between them, and the report on their PGNs says what the one process that
//! played them all said; missing games, duplicates, mixed settings and damaged files are named.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use chariot::notation::read_pgn;

use crate::common;

/// `chariot ARGS`, run to its end.
fn chariot(args: &[&str]) -> Output {
    common::run_chariot(args, "")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The games of a PGN by `Round`: (Red, Black, result, tags, moves without comments).
type Games = BTreeMap<u32, (String, String, String, Vec<(String, String)>, Vec<String>)>;

fn games_of(path: &Path) -> Games {
    let pgn = std::fs::read_to_string(path).unwrap();
    let mut out = BTreeMap::new();
    for game in read_pgn(&pgn).unwrap() {
        let tag = |name: &str| game.tag(name).unwrap_or_else(|| panic!("no {name} in {pgn}")).to_string();
        let round: u32 = tag("Round").parse().unwrap();
        let moves = game.moves.iter().map(|m| m.mv.to_string()).collect();
        let fresh =
            out.insert(round, (tag("Red"), tag("Black"), game.result.clone(), game.tags.clone(), moves));
        assert!(fresh.is_none(), "round {round} twice in {}", path.display());
    }
    out
}

/// The value of tag `name` among `tags`.
fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// The lines of a results table: from the `Results` line up to the first line after it that
/// is not a table row.
fn table(output: &str) -> Vec<String> {
    let lines: Vec<&str> = output.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("Results (")).unwrap_or_else(|| panic!("{output}"));
    lines[start..]
        .iter()
        .take_while(|l| !l.starts_with("games: ") && !l.starts_with("shard "))
        .map(|l| l.to_string())
        .collect()
}

/// W, D, L of `first` against `second`, counted from the games.
fn wdl(games: &Games, first: &str, second: &str) -> [u32; 3] {
    let mut out = [0; 3];
    for (red, black, result, _, _) in games.values() {
        let first_is_red = match (red.as_str(), black.as_str()) {
            (r, b) if r == first && b == second => true,
            (r, b) if r == second && b == first => false,
            _ => continue,
        };
        let i = match (result.as_str(), first_is_red) {
            ("1/2-1/2", _) => 1,
            ("1-0", true) | ("0-1", false) => 0,
            _ => 2,
        };
        out[i] += 1;
    }
    out
}

#[test]
fn shards_report_what_the_whole_match_reports() {
    let dir = common::scratch_dir("shards", "whole");
    let bin = common::chariot_bin();
    let openings = format!("{}/tests/data/openings.txt", env!("CARGO_MANIFEST_DIR"));
    // Fixed nodes, one thread, no random book: every game is the same however it is scheduled.
    let a = format!("name=a,cmd={bin},option.usebook=false");
    let b = format!("name=b,cmd={bin},proto=uci");
    let c = format!("name=c,cmd={bin},option.usebook=false,option.Hash=8");
    let pgn = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let play = |extra: &[&str], nodes: &str| {
        let mut args = vec![
            "match",
            "--engine",
            &a,
            "--engine",
            &b,
            "--engine",
            &c,
            "--games",
            "2",
            "--nodes",
            nodes,
            "--openings",
            &openings,
        ];
        args.extend_from_slice(extra);
        let output = chariot(&args);
        assert!(output.status.success(), "{args:?}: {}", text(&output.stderr));
        text(&output.stdout)
    };
    let whole = play(&["--pgn", &pgn("whole.pgn")], "2000");
    let shards: Vec<String> = (1..=3).map(|k| pgn(&format!("shard{k}.pgn"))).collect();
    for (k, path) in shards.iter().enumerate() {
        let out = play(&["--shard", &format!("{}/3", k + 1), "--pgn", path, "--concurrency", "2"], "2000");
        assert!(out.contains(&format!("shard {}/3: 2 of the match's 6 games", k + 1)), "{out}");
    }

    // Three pairings of two games: six games, and shard K has games K and K + 3.
    let all = games_of(Path::new(&pgn("whole.pgn")));
    assert_eq!(all.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    let mut merged = Games::new();
    for (k, path) in shards.iter().enumerate() {
        let k = k as u32 + 1;
        let games = games_of(Path::new(path));
        assert_eq!(games.keys().copied().collect::<Vec<_>>(), [k, k + 3], "{path}");
        for (round, game) in games {
            assert_eq!(tag(&game.3, "MatchShard"), Some(format!("{k}/3").as_str()));
            merged.insert(round, game);
        }
    }
    let settings = tag(&all[&1].3, "MatchSettings").unwrap().to_string();
    assert!(settings.len() == 16 && settings.bytes().all(|b| b.is_ascii_hexdigit()), "{settings}");
    for (round, game) in all.iter().chain(&merged) {
        assert_eq!(tag(&game.3, "MatchSettings"), Some(settings.as_str()), "game {round}");
        assert_eq!(tag(&game.3, "MatchGames"), Some("6"), "game {round}");
    }
    // The same games, whoever played them (else the tables below could not agree).
    for (round, game) in &all {
        let shard_game = &merged[round];
        assert_eq!(
            (&game.0, &game.1, &game.2, &game.4),
            (&shard_game.0, &shard_game.1, &shard_game.2, &shard_game.4)
        );
    }

    let whole_table = table(&whole);
    // The rows count the games: a against b as the PGN has them.
    let row = whole_table.iter().find(|l| l.starts_with("a vs b ")).unwrap();
    let numbers: Vec<u32> = row.split_whitespace().skip(3).take(4).map(|n| n.parse().unwrap()).collect();
    let [w, d, l] = wdl(&all, "a", "b");
    assert_eq!(numbers, [2, w, d, l], "{whole}");
    assert!(whole_table.iter().any(|l| l.starts_with("c vs field ")), "{whole}");

    let report = |files: &[&str]| {
        let mut args = vec!["match", "report"];
        args.extend_from_slice(files);
        chariot(&args)
    };
    let s: Vec<&str> = shards.iter().map(String::as_str).collect();
    let of_shards = report(&s);
    assert_eq!(of_shards.status.code(), Some(0), "{}", text(&of_shards.stderr));
    let out = text(&of_shards.stdout);
    assert_eq!(table(&out), whole_table, "{out}\n{whole}");
    assert!(out.contains(&format!("games: 6 of 6 from 3 files (settings {settings})")), "{out}");
    assert!(!out.contains("missing") && !out.contains("duplicated"), "{out}");
    let of_whole = report(&[&pgn("whole.pgn")]);
    assert_eq!(of_whole.status.code(), Some(0), "{}", text(&of_whole.stderr));
    assert_eq!(table(&text(&of_whole.stdout)), whole_table);

    // A shard missing: the table of what is there, the missing games and their shard, status 1.
    let partial = report(&[s[0], s[2]]);
    assert_eq!(partial.status.code(), Some(1), "{}", text(&partial.stderr));
    let out = text(&partial.stdout);
    assert!(out.contains("games: 4 of 6 from 2 files"), "{out}");
    assert!(out.contains("missing games (2): 2, 5"), "{out}");
    assert!(out.contains("missing shards: 2/3"), "{out}");
    assert!(text(&partial.stderr).contains("2 of its 6 games are missing"), "{}", text(&partial.stderr));
    let row = table(&out).into_iter().find(|l| l.starts_with("a vs b ")).unwrap();
    // Games 1 and 4 are a against b (pairings interleave), both in shards 1 and 3.
    assert_eq!(row.split_whitespace().nth(3), Some("2"), "{out}");

    // Rerunning the missing shard alone completes the match.
    std::fs::remove_file(s[1]).unwrap();
    play(&["--shard", "2/3", "--pgn", s[1]], "2000");
    let rerun = report(&s);
    assert_eq!(rerun.status.code(), Some(0), "{}", text(&rerun.stderr));
    assert_eq!(table(&text(&rerun.stdout)), whole_table);

    // A shard given twice is counted once, and said.
    let copy = pgn("copy-of-shard1.pgn");
    std::fs::copy(s[0], &copy).unwrap();
    let twice = report(&[s[0], s[1], s[2], &copy]);
    assert_eq!(twice.status.code(), Some(0), "{}", text(&twice.stderr));
    let out = text(&twice.stdout);
    assert_eq!(table(&out), whole_table);
    assert!(out.contains("duplicated games (2)"), "{out}");
    assert!(out.contains(&format!("1 ({}, {copy})", s[0])), "{out}");

    // A shard of another match (other nodes per move) is refused, by name.
    let other = pgn("other.pgn");
    play(&["--shard", "2/3", "--pgn", &other], "1500");
    let mixed = report(&[s[0], &other, s[2]]);
    assert_eq!(mixed.status.code(), Some(2));
    let err = text(&mixed.stderr);
    assert!(
        err.starts_with(&format!("error: {other}: game 1 in the file comes from another match")),
        "{err}"
    );
    assert!(err.contains(s[0]), "{err}");
    assert!(mixed.stdout.is_empty(), "nothing is reported: {}", text(&mixed.stdout));
}

#[test]
fn damaged_or_foreign_pgns_are_refused() {
    let dir = common::scratch_dir("shards", "damaged");
    let good = format!("name=good,cmd={}/tests/fake_engines/faulty.sh,arg=good", env!("CARGO_MANIFEST_DIR"));
    let other =
        format!("name=other,cmd={}/tests/fake_engines/faulty.sh,arg=good", env!("CARGO_MANIFEST_DIR"));
    let pgn = dir.join("games.pgn");
    let played = chariot(&[
        "match",
        "--engine",
        &good,
        "--engine",
        &other,
        "--games",
        "4",
        "--depth",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    let whole = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(chariot(&["match", "report", pgn.to_str().unwrap()]).status.code(), Some(0));
    let refused = |name: &str, content: &str, message: &str| {
        let path: PathBuf = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let output = chariot(&["match", "report", pgn.to_str().unwrap(), path.to_str().unwrap()]);
        let err = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {err}");
        assert!(err.starts_with(&format!("error: {}", path.display())), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(output.stdout.is_empty(), "{name}: {}", text(&output.stdout));
    };
    // Cut in the middle of a game's moves, between two moves and inside one.
    let middle = whole.rfind("4. ").unwrap();
    refused("cut.pgn", &whole[..middle], "cut short");
    refused("cut-in-move.pgn", &whole[..middle + 5], "cut short");
    // Cut inside the result token: half a token that the PGN reader refuses.
    refused("cut-in-result.pgn", &whole[..whole.trim_end().len() - 2], "cut short");
    // Cut just before the last result: every move is there, the result only in the tag.
    let last = whole.trim_end().rfind(char::is_whitespace).unwrap();
    refused("cut-at-result.pgn", &whole[..last], "cut short");
    // Cut inside the tags of the last game.
    let tags = whole.rfind("[MatchEngines").unwrap();
    refused("cut-in-tags.pgn", &whole[..tags], "cut short");
    // Not PGN at all.
    refused("junk.pgn", "[Round \"1\"]\n1. zz99 1-0\n", "is not a match PGN: line 2");
    refused("empty.pgn", "", "holds no game");
    // Without the match tags (a PGN from elsewhere, or from before them).
    let bare: String = whole.lines().filter(|l| !l.starts_with("[Match")).map(|l| format!("{l}\n")).collect();
    refused("bare.pgn", &bare, "has no MatchGames tag");
    // A game moved to another number.
    refused("renumbered.pgn", &whole.replacen("[Round \"1\"]", "[Round \"2\"]", 1), "not the match's game 2");
    refused(
        "out-of-range.pgn",
        &whole.replacen("[Round \"1\"]", "[Round \"9\"]", 1),
        "not a game number from 1 to 4",
    );
    // A file that is not there.
    let output = chariot(&["match", "report", dir.join("no-such.pgn").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no-such.pgn"), "{}", text(&output.stderr));
}

#[test]
fn bad_shards_are_refused_before_any_game() {
    let dir = common::scratch_dir("shards", "bad");
    let pgn = dir.join("games.pgn");
    let good = format!("name=good,cmd={}/tests/fake_engines/faulty.sh,arg=good", env!("CARGO_MANIFEST_DIR"));
    let other =
        format!("name=other,cmd={}/tests/fake_engines/faulty.sh,arg=good", env!("CARGO_MANIFEST_DIR"));
    let run = |shard: &str| {
        let args = [
            "match",
            "--engine",
            &good,
            "--engine",
            &other,
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
            // Joined, so that `-1/2` is the flag's value rather than a flag of its own.
            &format!("--shard={shard}"),
        ];
        let output = chariot(&args);
        assert_eq!(output.status.code(), Some(2), "--shard {shard}");
        assert!(!pgn.exists(), "no game was played for --shard {shard}");
        text(&output.stderr)
    };
    for bad in ["0/4", "5/4", "x/y", "4", "1/0", "-1/2", "1/2/3", ""] {
        let err = run(bad);
        assert!(err.starts_with(&format!("error: --shard '{bad}': expected K/N")), "{err}");
    }
    // Two games (the default) cannot make three shards.
    let err = run("1/3");
    assert!(err.contains("--shard 1/3: the match has 2 games, fewer than 3 shards"), "{err}");
    // As many shards as games is fine.
    let output = chariot(&[
        "match",
        "--engine",
        &good,
        "--engine",
        &other,
        "--depth",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
        "--shard",
        "2/2",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games_of(&pgn).keys().copied().collect::<Vec<_>>(), [2]);
}

#[test]
fn a_shard_plays_on_past_an_sprt_verdict_and_the_report_gives_it() {
    // Both engines play the same eight plies, after which Red has no move and resigns: each
    // engine wins as Black, so the score stays at one half. Against elo1 = 500 (an expected
    // score of 0.946) each game lowers the LLR by about 0.4, so the lower bound (-2.94) is
    // passed within a dozen games, but no verdict comes before 30 pairs (60 games).
    let dir = common::scratch_dir("shards", "sprt");
    let engine = |name: &str| {
        format!("name={name},cmd={}/tests/fake_engines/faulty.sh,arg=good", env!("CARGO_MANIFEST_DIR"))
    };
    let (a, b) = (engine("a"), engine("b"));
    let sprt = "elo0=0,elo1=500,alpha=0.05,beta=0.05";
    let play = |pgn: &Path, extra: &[&str]| {
        let mut args = vec![
            "match", "--engine", &a, "--engine", &b, "--games", "80", "--depth", "1", "--sprt", sprt, "--pgn",
        ];
        args.push(pgn.to_str().unwrap());
        args.extend_from_slice(extra);
        let output = chariot(&args);
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let whole = play(&dir.join("whole.pgn"), &[]);
    assert!(whole.contains("H0 accepted") && whole.contains("stopped early on the SPRT verdict"), "{whole}");
    let decided = games_of(&dir.join("whole.pgn")).len();
    assert_eq!(decided, 60, "the verdict comes with the 30th pair: {whole}");
    // Resuming a match whose SPRT has decided plays no further game and gives the same verdict.
    let resumed = play(&dir.join("whole.pgn"), &["--resume"]);
    assert!(
        resumed.contains("H0 accepted") && resumed.contains("stopped early on the SPRT verdict"),
        "{resumed}"
    );
    assert_eq!(games_of(&dir.join("whole.pgn")).len(), decided, "{resumed}");
    let (one, two) = (dir.join("one.pgn"), dir.join("two.pgn"));
    for (pgn, shard) in [(&one, "1/2"), (&two, "2/2")] {
        let out = play(pgn, &["--shard", shard]);
        assert!(out.contains("SPRT: no verdict from one shard"), "{out}");
        assert!(!out.contains("LLR") && !out.contains("stopped early"), "{out}");
        let games = games_of(pgn);
        assert_eq!(games.len(), 40, "a shard plays all its games");
        assert!(games.values().all(|g| tag(&g.3, "MatchSprt") == Some(sprt)));
    }
    let report = chariot(&["match", "report", one.to_str().unwrap(), two.to_str().unwrap()]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    let out = text(&report.stdout);
    assert!(
        out.contains("SPRT elo0=0 elo1=500 alpha=0.05 beta=0.05") && out.contains("H0 accepted"),
        "{out}"
    );
    let row = table(&out).into_iter().find(|l| l.starts_with("a vs b ")).unwrap();
    assert_eq!(row.split_whitespace().skip(3).take(4).collect::<Vec<_>>(), ["80", "40", "0", "40"], "{out}");
    // Each opening's two games, split between the shards, pair up again: one win and one loss
    // each, so every pair scored one point, and the SPRT (of 40 pairs) still judges the games.
    assert!(out.contains("pairs 40: 0-½-1-1½-2 points 0-0-40-0-0, Elo +0.0"), "{out}");
    assert!(out.contains("of 40 pairs"), "{out}");
    let whole_pairs = games_of(&dir.join("whole.pgn")).len() / 2;
    assert!(
        whole.contains(&format!("pairs {whole_pairs}: 0-½-1-1½-2 points 0-0-{whole_pairs}-0-0")),
        "{whole}"
    );
    // Another test for the same games: 80 even games say nothing yet about 5 Elo.
    let report = chariot(&[
        "match",
        "report",
        "--sprt",
        "elo0=0,elo1=5,alpha=0.05,beta=0.05",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
    ]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    assert!(text(&report.stdout).contains("no verdict yet"), "{}", text(&report.stdout));
}
