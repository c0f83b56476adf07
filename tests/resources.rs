//! Hash sizes and thread counts beyond what the machine has: refused or capped, never fatal.
//! Sizes the machine cannot give are made certain with an address-space limit (`ulimit -v`), so
//! the tests say the same on any machine, and never allocate more than they can have.

use crate::common;

use std::time::Duration;

use chariot::board::{movegen, Move, Position};
use common::{best_of, limited_command, run_to_end, EngineProcess};

/// An address-space limit of about 2 GB, in kilobytes: room for the engine, its threads and a
/// 1 GB table, none for a 4 GB one.
const TWO_GB: u64 = 2_000_000;

fn legal_at_start(line: &str) -> bool {
    let mv = best_of(line).and_then(|m| Move::parse_iccs(&m));
    mv.is_some_and(|m| movegen::is_legal(&mut Position::startpos(), m))
}

/// Whether `mb` megabytes are more than this machine has free (so asking for them must fail
/// without any limit).
fn more_than_free(mb: u64) -> bool {
    chariot::search::memory::available_bytes().is_some_and(|free| mb << 20 > free)
}

#[test]
fn a_hash_the_address_space_cannot_hold_is_refused_and_the_old_table_kept() {
    let mut e = EngineProcess::start_limited(TWO_GB);
    e.send("ucci");
    e.expect("ucciok");
    for size in ["4096", "65536"] {
        e.send(&format!("setoption hashsize {size}"));
        let line = e.expect("info string");
        assert!(
            line.starts_with(&format!("info string error: a hash table of {size} MB cannot be allocated"))
                && line.ends_with("the 64 MB table stays"),
            "{line}"
        );
        e.send("isready");
        e.expect("readyok");
    }
    // A size that fits is taken, and searched with.
    e.send("setoption hashsize 1024");
    e.send("setoption usebook false");
    e.send("isready");
    assert_eq!(e.expect("readyok"), "readyok");
    assert!(!e.transcript.iter().any(|l| l.contains("1024 MB")), "{:?}", e.transcript);
    e.send("position startpos");
    e.send("go depth 6");
    assert!(legal_at_start(&e.expect("bestmove")));
    e.send("ucci");
    e.expect("ucciok");
    assert!(e
        .transcript
        .iter()
        .any(|l| l.starts_with("option hashsize type spin min 1 max 65536 default 1024")));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)));
}

#[test]
fn a_hash_larger_than_the_machine_is_refused_in_both_dialects() {
    for (handshake, setoption, mb) in
        [("uci", "setoption name Hash value 65536", 65536), ("ucci", "setoption hashsize 32768", 32768)]
    {
        if !more_than_free(mb) {
            eprintln!("skipped {setoption}: this machine has that much memory free");
            continue;
        }
        let mut e = EngineProcess::start();
        e.send(handshake);
        e.send(setoption);
        let line = e.expect("info string");
        assert!(
            line.starts_with(&format!("info string error: a hash table of {mb} MB cannot be allocated")),
            "{line}"
        );
        e.send("position startpos");
        e.send("go depth 5");
        assert!(legal_at_start(&e.expect("bestmove")));
    }
}

/// `chariot ARGS` under the address-space limit; its stderr, after checking it refused (exit 2)
/// without a crash.
fn refused_under_the_limit(args: &[&str], stdin: &str) -> String {
    let output = run_to_end(limited_command(TWO_GB, args), stdin.as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

#[test]
fn subcommands_refuse_a_hash_they_cannot_have() {
    let dir = std::env::temp_dir().join(format!("chariot-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, "[Event \"t\"]\n\n1. h2e2 h9g7 *\n").unwrap();
    let (book, data, text) = (dir.join("out.cbk"), dir.join("out.bin"), dir.join("out.txt"));
    let (pgn, book) = (pgn.to_str().unwrap(), book.to_str().unwrap());
    let (data, text) = (data.to_str().unwrap(), text.to_str().unwrap());
    let cases: [(&[&str], &str); 7] = [
        (&["analyze", "--depth", "3", "--hash", "4096"], ""),
        (&["bench", "--depth", "1", "--hash", "4096"], ""),
        (&["play", "--depth", "1", "--hash", "4096"], "quit\n"),
        (&["annotate", pgn, "--depth", "1", "--hash", "4096"], ""),
        (&["book", "build", "--search", "-o", book, "--depth", "1", "--max-ply", "1", "--hash", "4096"], ""),
        (&["datagen", "--scored", "--games", "1", "--nodes", "100", "--out", data, "--hash", "4096"], ""),
        (&["datagen", "--games", "1", "--nodes", "100", "--out", text, "--hash", "4096"], ""),
    ];
    for (args, stdin) in cases {
        let stderr = refused_under_the_limit(args, stdin);
        assert!(
            stderr.starts_with("error: a hash table of 4096 MB cannot be allocated"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!std::path::Path::new(book).exists(), "no book is written");
    assert!(!std::path::Path::new(text).exists(), "no text data is written");
    assert!(!std::path::Path::new(data).exists(), "no scored data file, not even its header, is written");
    // And without a limit, beyond what the machine has.
    if more_than_free(65536) {
        let output = common::run_chariot(&["bench", "--depth", "1", "--hash", "65536"], "");
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("error: a hash table of 65536 MB cannot be allocated"), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn more_threads_than_cores_are_capped_and_said_so() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores >= 256 {
        eprintln!("skipped: {cores} cores");
        return;
    }
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name Threads value 256");
    assert_eq!(e.expect("info string"), format!("info string 256 threads asked, {cores} used: one per core"));
    // The option keeps the value asked for, as the GUI set it.
    e.send("uci");
    e.expect("uciok");
    assert!(e.transcript.iter().any(|l| l.starts_with("option name Threads type spin default 256")));
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 5");
    assert!(legal_at_start(&e.expect("bestmove")));
}

#[test]
fn under_a_tight_limit_the_engine_starts_with_the_smallest_table() {
    // About 60 MB of address space: no room for the default 64 MB table and a search beside it.
    let mut e = EngineProcess::start_limited(60_000);
    e.send("uci");
    e.expect("uciok");
    assert!(
        e.transcript.iter().any(|l| l == "option name Hash type spin default 1 min 1 max 65536"),
        "{:?}",
        e.transcript
    );
    e.send("setoption name OwnBook value false");
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go depth 5");
    assert!(legal_at_start(&e.expect("bestmove")));
    // And a table that would leave the search no room is refused.
    e.send("setoption name Hash value 48");
    let line = e.expect("info string");
    assert!(line.contains("the address-space limit (ulimit -v) leaves"), "{line}");
}
