//! Subcommands that read commands or positions from stdin (`analyze --fen -`, `play`): a line that
//! is not UTF-8 text, or a megabyte of junk, is one error for that line, never the end of the run.

use crate::common;

use std::process::Command;

use common::{chariot_bin, run_to_end};
use serde_json::Value;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const BARE_KINGS: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";

fn chariot(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut command = Command::new(chariot_bin());
    command.args(args);
    run_to_end(command, stdin)
}

#[test]
fn analyze_reads_past_lines_that_are_not_text_or_too_long() {
    let mut input = format!("{START}\n").into_bytes();
    input.extend_from_slice(b"\xff\xfe junk\n");
    input.extend_from_slice(&[b'x'; 300]);
    input.extend_from_slice(format!("\n{BARE_KINGS}\n").as_bytes());
    let output = chariot(&["analyze", "--fen", "-", "--json", "--depth", "1"], &input);
    assert_eq!(output.status.code(), Some(2), "two positions failed");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let answered: Vec<&Value> =
        lines.iter().filter(|l| l.get("bestmove").is_some()).map(|l| &l["fen"]).collect();
    assert_eq!(answered, [START, BARE_KINGS], "both FENs around the bad lines are analysed");
    let errors: Vec<&Value> = lines.iter().filter(|l| l.get("error").is_some()).collect();
    assert_eq!(errors.len(), 2, "{stdout}");
    assert_eq!(errors[0]["error"], "the line is not UTF-8 text (byte 0xff at offset 0)");
    // Longer than any FEN: echoed as a short quote with its length.
    assert_eq!(errors[1]["fen"], format!("'{}…' (300 bytes)", "x".repeat(40)));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("error: stdin line 2: the line is not UTF-8 text"), "{stderr}");
    assert!(stderr.contains("error: stdin line 3: "), "{stderr}");
    assert!(stderr.ends_with("error: 2 of 4 positions could not be analysed\n"), "{stderr}");
}

#[test]
fn play_reads_past_lines_that_are_not_text_or_too_long() {
    let mut script = b"h2e2\n\xe7\x82\n".to_vec();
    script.extend_from_slice(&[b'z'; 100_000]);
    script.extend_from_slice(b"\nfen\nquit\n");
    let output = chariot(&["play", "--red", "human", "--black", "human"], &script);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let after_h2e2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    assert!(stdout.lines().any(|l| l == after_h2e2), "the game went on: {stdout}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    let errors: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        errors,
        [
            "error: the line is not UTF-8 text (byte 0xe7 at offset 0)".to_string(),
            format!("error: '{}…' (100000 bytes) is neither a command nor a move", "z".repeat(40)),
        ]
    );
}
