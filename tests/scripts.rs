//! The shell scripts that keep a strength gate's evidence: `scripts/gate-archive.sh` splits a
//! gate's PGN into compressed parts for `docs/gates/`, and the joined parts must give back every
//! whole game, byte for byte, leaving out a game the match is still writing;
//! `scripts/pair-speed.sh` measures each engine's speed alone and two at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh empty directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-scripts-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
