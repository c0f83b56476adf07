//! `chariot match ratings`: the engines of several PGNs on one Elo scale, the anchor fixed; the
//! files' troubles and an engine no game links to the anchor are named.

use std::path::PathBuf;
use std::process::Output;

use crate::common;

fn chariot(args: &[&str]) -> Output {
    common::run_chariot(args, "")
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("ratings", name)
}

/// A PGN of games between `a` and `b` with these results for Red, colours alternating (each
/// result is Red's, so `a` scores it in odd games and its complement in even ones).
fn pgn(games: &[(&str, &str, &str)]) -> String {
    let mut text = String::new();
    for (i, (red, black, result)) in games.iter().enumerate() {
        text.push_str(&format!(
            "[Event \"t\"]\n[Round \"{}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. h2e2 h9g7 {result}\n\n",
            i + 1
        ));
    }
    text
}

/// `a` scores 15 of 20 against `b`; `b` and `c` split 20 games evenly.
fn ladder(dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let mut ab = Vec::new();
    for k in 0..20 {
        // a wins 15 (as Red or Black by turns) and loses 5.
        let a_wins = k < 15;
        ab.push(match (k % 2 == 0, a_wins) {
            (true, true) => ("a", "b", "1-0"),
            (true, false) => ("a", "b", "0-1"),
            (false, true) => ("b", "a", "0-1"),
            (false, false) => ("b", "a", "1-0"),
        });
    }
    let bc: Vec<(&str, &str, &str)> =
        (0..20).map(|k| if k % 2 == 0 { ("b", "c", "1/2-1/2") } else { ("c", "b", "1/2-1/2") }).collect();
    let (one, two) = (dir.join("ab.pgn"), dir.join("bc.pgn"));
    std::fs::write(&one, pgn(&ab)).unwrap();
    std::fs::write(&two, pgn(&bc)).unwrap();
    (one, two)
}

/// The Elo the table gives `name`.
fn elo_of(table: &str, name: &str) -> f64 {
    let row = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no row for {name} in {table}"));
    row.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn a_chain_of_matches_is_one_scale() {
    let dir = scratch("chain");
    let (one, two) = ladder(&dir);
    let output =
        chariot(&["match", "ratings", one.to_str().unwrap(), two.to_str().unwrap(), "--anchor", "b=1000"]);
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{table}{}", String::from_utf8_lossy(&output.stderr));
    assert!(table.starts_with("40 games;"), "{table}");
    // 75% is +191 Elo; one virtual draw per pairing pulls it to 15.5 of 21 (+181).
    let a = elo_of(&table, "a");
    assert!((a - 1181.0).abs() < 2.0, "{table}");
    assert_eq!(elo_of(&table, "b"), 1000.0, "{table}");
    assert!((elo_of(&table, "c") - 1000.0).abs() < 0.5, "{table}");
    // Strongest first: a is ranked 1.
    assert!(table.lines().nth(2).unwrap().split_whitespace().nth(1) == Some("a"), "{table}");
}

#[test]
fn what_cannot_be_rated_is_named() {
    let dir = scratch("refusals");
    let (one, _) = ladder(&dir);
    let refused = |args: &[&str]| {
        let output = chariot(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let one = one.to_str().unwrap();
    assert!(refused(&["match", "ratings", one, "--anchor", "z"]).contains("the anchor z played no game"));
    assert!(refused(&["match", "ratings", one, "--anchor", "a=x"]).contains("--anchor a=x: the Elo after ="));
    let apart = dir.join("apart.pgn");
    std::fs::write(&apart, pgn(&[("d", "e", "1-0")])).unwrap();
    let err = refused(&["match", "ratings", one, apart.to_str().unwrap(), "--anchor", "a"]);
    assert!(err.contains("no chain of games links d, e to the anchor"), "{err}");
    let nameless = dir.join("nameless.pgn");
    std::fs::write(&nameless, "[Event \"t\"]\n[Result \"1-0\"]\n\n1. h2e2 1-0\n").unwrap();
    let err = refused(&["match", "ratings", nameless.to_str().unwrap(), "--anchor", "a"]);
    assert!(err.contains("game 1 has a result but no Red or Black tag"), "{err}");
    let broken = dir.join("broken.pgn");
    std::fs::write(&broken, "[Event \"t\"\n1. h2e2 zz9 1-0\n").unwrap();
    let err = refused(&["match", "ratings", broken.to_str().unwrap(), "--anchor", "a"]);
    assert!(err.contains("broken.pgn"), "{err}");
}
