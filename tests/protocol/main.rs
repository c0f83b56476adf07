//! The protocol loop end to end: the real binary driven through pipes in both dialects.
//!
//! This file keeps the helpers the tests share; `sessions` holds whole UCCI and UCI sessions
//! (pondering, the book, refused input), `options` what each option changes and how a bad
//! value is refused, `lifecycle` commands answered while a search runs, end of input, closed
//! output and junk.

#[path = "../common/mod.rs"]
mod common;

mod lifecycle;
mod options;
mod sessions;

use std::time::Duration;

use chariot::board::{movegen, Move, Position};
use common::book_dat::{book_dat, AFTER_H2E2_H9G7};
use common::{best_of, EngineProcess};

const SECOND: Duration = Duration::from_secs(1);

fn legal_in(position_args: &str, mv: &str) -> bool {
    let mut pos = chariot::protocol::position_cmd::parse_position(position_args).unwrap();
    Move::parse_iccs(mv).is_some_and(|m| movegen::is_legal(&mut pos, m))
}

/// Nodes of the last full iteration a UCI `go depth` reported.
fn nodes_to_depth(e: &mut EngineProcess, depth: u32) -> u64 {
    e.send(&format!("go depth {depth}"));
    e.expect("bestmove");
    let line = e.transcript.iter().rev().find(|l| l.starts_with(&format!("info depth {depth} "))).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

/// A UCI session without its book, at the position after 1. h2e2 h9g7.
fn uci_session_two_plies_in() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves h2e2 h9g7");
    e
}

/// Nodes to depth 7 after `setoption` (on an empty table, so that one thread is deterministic).
fn nodes_after(e: &mut EngineProcess, setoption: &str) -> u64 {
    e.send("setoption name Clear Hash");
    e.send(setoption);
    nodes_to_depth(e, 7)
}

/// Nodes to depth 7 after `setoption` (on an empty table) and the move played.
fn nodes_and_move_after(e: &mut EngineProcess, setoption: &str) -> (u64, String) {
    let nodes = nodes_after(e, setoption);
    let answer = e.transcript.iter().rev().find(|l| l.starts_with("bestmove")).unwrap();
    (nodes, best_of(answer).unwrap())
}

/// The `info` lines since the `from`th line of the transcript.
fn infos_since(e: &EngineProcess, from: usize) -> Vec<&String> {
    e.transcript[from..].iter().filter(|l| l.starts_with("info ")).collect()
}

/// The largest `nodes N` of `lines`.
fn most_nodes(lines: &[&String]) -> u64 {
    let nodes = |l: &&String| l.split_whitespace().skip_while(|&w| w != "nodes").nth(1)?.parse().ok();
    lines.iter().filter_map(nodes).max().unwrap_or(0)
}

/// The score of the depth-1 iteration of the search just started, in either dialect (UCI says
/// `score cp N`, UCCI `score N`), once its `bestmove` has come.
fn depth_1_score(e: &mut EngineProcess) -> i32 {
    e.expect("bestmove");
    let line = e.transcript.iter().rev().find(|l| l.starts_with("info depth 1 ")).unwrap().clone();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").unwrap();
    let number = if words[at + 1] == "cp" { words[at + 2] } else { words[at + 1] };
    number.parse::<i32>().unwrap()
}

/// Nodes of a UCCI `go depth <depth>` on an empty table: the last `info time … nodes` line before
/// the answer is the whole search's count.
fn ucci_nodes_to_depth(e: &mut EngineProcess, depth: u32) -> u64 {
    e.send("setoption newgame");
    e.send(&format!("go depth {depth}"));
    e.expect("bestmove");
    let line = e.transcript.iter().rev().find(|l| l.starts_with("info time ")).unwrap();
    line.split_whitespace().skip_while(|&w| w != "nodes").nth(1).unwrap().parse().unwrap()
}

/// Starts a UCI session without its book at the start position, runs `go`, lets it search a
/// moment, and closes the input.
fn search_then_close_input(go: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send(go);
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    e
}

// --- Issue 24: analysis GUIs get analysis; d, eval and flip. ---

/// Whether the transcript from `from` on holds an `info depth` line before its first
/// `bestmove`, and no book move anywhere.
fn searched_since(e: &EngineProcess, from: usize) -> bool {
    let lines = &e.transcript[from..];
    let Some(answer) = lines.iter().position(|l| l.starts_with("bestmove")) else { return false };
    lines[..answer].iter().any(|l| l.starts_with("info depth"))
        && !lines.iter().any(|l| l.contains(" book move "))
}
