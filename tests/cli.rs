//! The built binary: `chariot perft` and the protocol loop over pipes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_chariot");

/// Two bare kings: Red's on e0 has e1 and f0 (d0 would face the black king on d9).
const BARE_KINGS: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";

/// The start position after h2e2 h9g7, written out by hand.
const AFTER_H2E2_H9G7: &str = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";

fn chariot(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the chariot binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).unwrap().lines().map(str::to_string).collect()
}

/// Feeds `script` to the protocol loop, closes its input, and returns its output.
fn protocol(script: &str) -> Output {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary runs");
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The node count printed on perft's last line.
fn perft_nodes(args: &[&str]) -> u64 {
    let output = chariot(args);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    let lines = stdout_lines(&output);
    let last = lines.last().expect("perft prints a nodes line");
    last.strip_prefix("nodes ").expect("last line is 'nodes N'").parse().unwrap()
}

#[test]
fn perft_matches_the_reference_counts() {
    let text = std::fs::read_to_string("tests/data/perft.txt").expect("tests/data is in the repository");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.is_empty()) {
        let parts: Vec<&str> = line.split(';').collect();
        let (fen, depth, leaves) = (parts[0], parts[1], parts[2].parse::<u64>().unwrap());
        if depth == "3" {
            assert_eq!(perft_nodes(&["perft", depth, "--fen", fen]), leaves, "{line}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} reference lines at depth 3");
}

#[test]
fn perft_defaults_to_the_start_position() {
    // docs/rules.md: 44, 1920, 79666 at depths 1..3.
    assert_eq!(perft_nodes(&["perft", "1"]), 44);
    assert_eq!(perft_nodes(&["perft", "2"]), 1920);
    assert_eq!(perft_nodes(&["perft", "3"]), 79666);
}

#[test]
fn divide_lists_every_root_move_sorted_and_sums_to_the_total() {
    let output = chariot(&["perft", "3", "--divide"]);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    let (last, moves) = lines.split_last().unwrap();
    assert_eq!(last, "nodes 79666");
    assert_eq!(moves.len(), 44, "one line per legal root move");
    let mut total = 0;
    let mut names = Vec::new();
    for line in moves {
        let (mv, count) = line.split_once(' ').expect("'<move> <count>'");
        assert_eq!(mv.len(), 4, "{line}");
        names.push(mv.to_string());
        total += count.parse::<u64>().unwrap();
    }
    assert_eq!(total, 79666);
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(names.contains(&"h2e2".to_string()) && names.contains(&"b0c2".to_string()));
    // Timing goes to stderr so that stdout stays comparable.
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("info time_ms ") && stderr.contains(" nps "), "{stderr}");
}

#[test]
fn divide_of_bare_kings() {
    let output = chariot(&["perft", "1", "--divide", "--fen", BARE_KINGS]);
    assert_eq!(stdout_lines(&output), ["e0e1 1", "e0f0 1", "nodes 2"]);
}

#[test]
fn moves_lead_to_the_same_count_as_the_fen_after_them() {
    let after_moves = perft_nodes(&["perft", "3", "--moves", "h2e2", "h9g7"]);
    assert_eq!(after_moves, perft_nodes(&["perft", "3", "--fen", AFTER_H2E2_H9G7]));
    let from_fen_with_moves = perft_nodes(&["perft", "2", "--fen", BARE_KINGS, "--moves", "e0f0", "d9d8"]);
    assert_eq!(from_fen_with_moves, perft_nodes(&["perft", "2", "--fen", "9/3k5/9/9/9/9/9/9/9/5K3 w"]));
}

/// Asserts a refusal: exit status 2, nothing on stdout, and `error: <wanted…>` on stderr.
fn assert_refused(args: &[&str], wanted: &str) {
    let output = chariot(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with(&format!("error: {wanted}")), "{args:?} gave '{stderr}'");
}

#[test]
fn bad_fen_and_bad_moves_exit_with_status_2() {
    let wide = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P1/1C5C1/9/RNBAKABNR w";
    assert_refused(&["perft", "2", "--fen", wide], "bad FEN: rank 3 has 10 files");
    assert_refused(
        &["perft", "2", "--moves", "h2e2", "h9g7", "h2h9"],
        "move 3: no legal move matches 'h2h9'",
    );
    assert_refused(&["perft", "2", "--moves", "zz"], "move 1: 'zz' is not a move");
    assert_refused(&["perft", "two"], "invalid value 'two'");
}

#[test]
fn end_of_input_ends_the_loop_cleanly() {
    let output = protocol("isready\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_lines(&output), ["readyok"]);
}

#[test]
fn every_moves_flag_takes_any_notation() {
    for args in [["perft", "2"].as_slice(), ["book", "probe"].as_slice()] {
        let run = |moves: &[&str]| {
            let output = chariot(&[args, &["--moves"], moves].concat());
            assert!(
                output.status.success(),
                "{args:?} {moves:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            stdout_lines(&output)
        };
        // The central cannon, the opening every book holds.
        let iccs = run(&["h2e2"]);
        assert!(!iccs.is_empty(), "{args:?}");
        assert_eq!(run(&["炮二平五"]), iccs, "{args:?} in Chinese");
        assert_eq!(run(&["C2=5"]), iccs, "{args:?} in WXF");
    }
}

#[test]
fn every_command_that_writes_a_file_makes_its_folder() {
    let dir = std::env::temp_dir().join(format!("chariot-cli-folders-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("game.pgn");
    std::fs::write(&game, "[Event \"x\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n").unwrap();
    let made = |name: &str| dir.join(name).join("deeper").join("file");
    let runs: [(&str, Vec<String>); 4] = [
        ("show --svg", vec!["show".into(), "--svg".into(), made("show").display().to_string()]),
        (
            "nnue random",
            vec![
                "nnue".into(),
                "random".into(),
                "--width".into(),
                "32".into(),
                "-o".into(),
                made("net").display().to_string(),
            ],
        ),
        (
            "book build",
            vec![
                "book".into(),
                "build".into(),
                "--pgn".into(),
                game.display().to_string(),
                "-o".into(),
                made("book").display().to_string(),
            ],
        ),
        (
            "annotate",
            vec![
                "annotate".into(),
                game.display().to_string(),
                "--depth".into(),
                "1".into(),
                "-o".into(),
                made("annotated").display().to_string(),
                "--svg".into(),
                made("curve").display().to_string(),
            ],
        ),
    ];
    for (what, args) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = chariot(&args);
        assert!(output.status.success(), "{what}: {}", String::from_utf8_lossy(&output.stderr));
    }
    for name in ["show", "net", "book", "annotated", "curve"] {
        let file = made(name);
        assert!(
            std::fs::metadata(&file).is_ok_and(|m| m.len() > 0),
            "{name}: {} not written",
            file.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
