//! Files given as input: a net, a Chariot book, a BOOK.DAT, a PGN, an openings file, Texel and
//! scored data. Each refuses a character device, a FIFO and a file past its kind's limit, with a
//! message naming the file and the trouble, without hanging and without reading what it refuses:
//! the commands run under an address-space limit smaller than the largest files they refuse.

use crate::common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chariot::input_file::Limit;
use common::{chariot_bin, scratch_dir, EngineProcess};

/// The address-space limit the commands run under, in kilobytes (768 MiB): room for the engine,
/// none for reading a 1 GiB file whole.
const LIMIT_KIB: u64 = 786_432;

/// Seconds before a command that hangs (on a FIFO, say) is stopped and the test fails.
const HANG_SECONDS: u64 = 60;

/// `chariot ARGS` under the address-space limit and a timeout; its stderr, after checking it
/// refused (exit 2) without hanging or crashing.
fn refused(args: &[&str]) -> String {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec timeout {HANG_SECONDS} \"$0\" \"$@\""))
        .arg(chariot_bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_ne!(output.status.code(), Some(124), "{args:?} hung");
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

/// A FIFO in `dir`, or `None` where `mkfifo` is missing.
fn fifo(dir: &Path) -> Option<PathBuf> {
    let path = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&path).status();
    made.is_ok_and(|s| s.success()).then_some(path)
}

/// A sparse file one byte past `limit`, starting with `head`: its size is there, its bytes are not.
fn oversized(dir: &Path, name: &str, head: &[u8], limit: Limit) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, head).unwrap();
    File::options().write(true).open(&path).unwrap().set_len(limit.max_len + 1).unwrap();
    path
}

/// The message for a file of `limit`'s kind one byte past it.
fn too_large(limit: Limit) -> String {
    format!(
        "it is {} bytes, more than a {} can be ({} bytes at most); nothing was read",
        limit.max_len + 1,
        limit.what,
        limit.max_len
    )
}

const DEVICE: &str = "it is a character device, not a regular file";
const PIPE: &str = "it is a FIFO (named pipe), not a regular file";

/// Runs `command` (a command line with `{}` where the file goes) on `/dev/zero`, a FIFO and,
/// with a limit, a sparse file past it; each must be refused naming the file and the trouble.
fn check_refusals(suite: &str, command: &[&str], oversize: Option<(&[u8], Limit)>) {
    let dir = scratch_dir("inputs", suite);
    let out = dir.join("out");
    let mut cases = vec![(PathBuf::from("/dev/zero"), DEVICE.to_string())];
    if let Some(pipe) = fifo(&dir) {
        cases.push((pipe, PIPE.to_string()));
    }
    if let Some((head, limit)) = oversize {
        cases.push((oversized(&dir, "big", head, limit), too_large(limit)));
    }
    for (file, message) in cases {
        let file = file.to_str().unwrap();
        let args: Vec<&str> = command
            .iter()
            .map(|&a| match a {
                "{}" => file,
                "{out}" => out.to_str().unwrap(),
                a => a,
            })
            .collect();
        let stderr = refused(&args);
        assert!(stderr.starts_with("error: ") && stderr.contains(file), "{args:?}: {stderr}");
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
    }
    assert!(!out.exists(), "{command:?} wrote its output");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_net_file_must_be_a_regular_file_no_larger_than_the_largest_net() {
    let limit = chariot::eval::nnue::format::FILE_LIMIT;
    check_refusals("net", &["nnue", "check", "{}"], Some((b"CHARNNUE", limit)));
    check_refusals("net-eval", &["eval", "--evalfile", "{}"], None);
}

#[test]
fn a_book_must_be_a_regular_file_no_larger_than_the_largest_book() {
    let limit = chariot::book::FILE_LIMIT;
    check_refusals("cbk", &["book", "dump", "{}"], Some((b"CHARIOTBK", limit)));
    check_refusals("dat", &["book", "import", "--eleeye", "{}", "-o", "{out}"], Some((b"", limit)));
    check_refusals("probe", &["book", "probe", "--file", "{}"], None);
}

#[test]
fn a_pgn_file_must_be_a_regular_file_no_larger_than_the_limit() {
    // The limit (1 GiB) is past the address-space limit: a refusal that read it would fail.
    let limit = chariot::notation::pgn::FILE_LIMIT;
    assert!(limit.max_len > LIMIT_KIB << 10);
    check_refusals("pgn", &["annotate", "{}", "--depth", "1"], Some((b"[Event \"t\"]\n", limit)));
    check_refusals("pgn-book", &["book", "build", "--pgn", "{}", "-o", "{out}"], Some((b"", limit)));
}

#[test]
fn an_openings_file_must_be_a_regular_file_no_larger_than_the_limit() {
    let limit = chariot::tournament::openings::FILE_LIMIT;
    let command = ["datagen", "--openings", "{}", "--games", "1", "--nodes", "10", "--out", "{out}"];
    check_refusals("openings", &command, Some((b"h2e2\n", limit)));
}

#[test]
fn data_files_must_be_regular_files() {
    // Scored data is streamed, whatever its size; Texel data is read whole.
    check_refusals("scored", &["datagen", "--stats", "{}"], None);
    check_refusals("train", &["nnue", "train", "--data", "{}", "--out", "{out}"], None);
    let limit = chariot::texel::dataset::FILE_LIMIT;
    assert!(limit.max_len > LIMIT_KIB << 10);
    check_refusals("texel", &["tune", "--data", "{}", "--out", "{out}"], Some((b"", limit)));
}

#[test]
fn a_sparse_file_of_gigabytes_is_refused_at_once() {
    let dir = scratch_dir("inputs", "sparse");
    let path = dir.join("huge.nnue");
    File::create(&path).unwrap().set_len(3 << 30).unwrap();
    let start = std::time::Instant::now();
    let stderr = refused(&["nnue", "check", path.to_str().unwrap()]);
    assert!(stderr.contains("it is 3221225472 bytes, more than a net file can be"), "{stderr}");
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_protocol_refuses_a_device_as_net_or_book_and_plays_on() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name EvalFile value /dev/zero");
    let line = e.expect("info string");
    assert!(
        line.starts_with("info string error: ")
            && line
                .contains("cannot read net file '/dev/zero': it is a character device, not a regular file"),
        "{line}"
    );
    // UCI starts with the book off; a book file is read once the book is on.
    e.send("setoption name OwnBook value true");
    e.send("setoption name BookFile value /dev/zero");
    let line = e.expect("info string");
    assert!(
        line.starts_with("info string error: ")
            && line.contains(&format!("'/dev/zero': cannot read it: {DEVICE}")),
        "{line}"
    );
    e.send("isready");
    e.expect("readyok");
    e.send("position startpos");
    e.send("go depth 2");
    let line = e.expect("bestmove");
    assert!(common::best_of(&line).is_some(), "{line}");
}
