//! `chariot lab` through the built binary: the table, the JSON, the algorithms' agreement on the
//! value, alpha-beta's saving over minimax, `--positions`, and refusals.

use crate::common;

use std::process::Output;

use serde_json::Value;

fn chariot(args: &[&str]) -> Output {
    common::run_chariot(args, "")
}

fn ok_stdout(args: &[&str]) -> String {
    let output = chariot(args);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn refused(args: &[&str]) -> String {
    let output = chariot(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    String::from_utf8(output.stderr).unwrap()
}

fn objects(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

/// Every algorithm `chariot lab --help` must name.
const NAMES: [&str; 12] = [
    "minimax",
    "alphabeta",
    "failsoft",
    "aspiration",
    "pvs",
    "iterative",
    "alphabeta-tt",
    "alphabeta-history",
    "mtdf",
    "sss",
    "dual",
    "negascout-tt-history",
];

#[test]
fn every_algorithm_agrees_with_minimax_and_alpha_beta_costs_less() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let text = ok_stdout(&["lab", "--depth", "3", "--json", "--fen", fen]);
    let rows = objects(&text);
    assert_eq!(rows.len(), NAMES.len() * 3);
    let row = |name: &str, depth: u64| {
        rows.iter()
            .find(|r| r["algorithm"] == name && r["depth"] == depth)
            .unwrap_or_else(|| panic!("{name} {depth}"))
    };
    for depth in 1..=3 {
        let minimax = row("minimax", depth);
        for name in NAMES {
            let r = row(name, depth);
            assert_eq!(r["value"], minimax["value"], "{name} at depth {depth}");
            assert!(r["nodes"].as_u64().unwrap() >= 1 && r["ms"].as_f64().unwrap() >= 0.0, "{r}");
        }
        let (ab, mm) = (row("alphabeta", depth)["leaves"].as_u64(), minimax["leaves"].as_u64());
        assert!(ab <= mm, "depth {depth}: {ab:?} > {mm:?}");
    }
    assert!(row("alphabeta", 3)["leaves"].as_u64() < row("minimax", 3)["leaves"].as_u64());
}

#[test]
fn the_table_has_a_row_per_algorithm_and_the_start_has_44_leaves_at_depth_one() {
    let text = ok_stdout(&["lab", "--depth", "2", "--algorithms", "minimax,pvs"]);
    assert!(text.starts_with("Leaves evaluated\n"), "{text}");
    let minimax = text.lines().find(|l| l.starts_with("minimax ")).unwrap();
    let cells: Vec<&str> = minimax.split_whitespace().collect();
    // Minimax evaluates every leaf: the perft counts of docs/rules.md, 44 and 1,920.
    assert_eq!(cells[1..3], ["44", "1,920"], "{minimax}");
    for title in ["Interior nodes", "Milliseconds", "Value (side to move's view)"] {
        assert!(text.contains(&format!("\n{title}\n")), "{title}: {text}");
    }
    assert!(!text.contains("\nsss "), "only the algorithms asked for: {text}");
}

#[test]
fn help_lists_every_algorithm_and_a_bad_name_is_refused() {
    let help = ok_stdout(&["lab", "--help"]);
    for name in NAMES {
        assert!(help.contains(name), "--help does not name {name}: {help}");
    }
    let err = refused(&["lab", "--algorithms", "pvs,scout"]);
    assert!(err.starts_with("error: unknown algorithm 'scout' (known: minimax,"), "{err}");
    let err = refused(&["lab", "--depth", "0"]);
    assert!(err.contains("--depth"), "{err}");
    let err = refused(&["lab", "--fen", "rnbakabnr/9 w"]);
    assert!(err.starts_with("error: bad FEN"), "{err}");
}

#[test]
fn positions_from_a_file_are_averaged_and_a_bad_file_is_named() {
    let dir = common::scratch_dir("lab", "positions");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nh2e2 h9g7\n\nb2e2\n").unwrap();
    let path = file.to_str().unwrap();
    let rows = objects(&ok_stdout(&[
        "lab",
        "--depth",
        "1",
        "--json",
        "--algorithms",
        "minimax",
        "--positions",
        path,
    ]));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["positions"], 2);
    let values = rows[0]["values"].as_array().unwrap();
    assert_eq!(values.len(), 2);
    let mean = (values[0].as_i64().unwrap() + values[1].as_i64().unwrap()) as f64 / 2.0;
    assert_eq!(rows[0]["value"].as_i64().unwrap(), mean.round() as i64);
    std::fs::write(&file, "h2e2 h9g7\nh2e2 h2e2\n").unwrap();
    let err = refused(&["lab", "--depth", "1", "--positions", path]);
    assert!(err.contains("line 2") && err.contains(path), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
