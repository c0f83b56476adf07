//! The integration tests, built as one test binary. Every test binary costs a link of the whole
//! crate, so one binary instead of one per file saves much of the suite's build. Each file of
//! tests/ stays a module named after it: `cargo test --profile testing --test integration book::`
//! runs one file's tests.
//!
//! Three files keep binaries of their own (Cargo.toml), because their tests assert wall-clock
//! latencies and ran beside fewer busy neighbours that way: `protocol/` (`quit`, `stop`,
//! `isready` within 100 ms), `search.rs` (the clock) and `stop_latency.rs` (alone).

mod common;
mod prop_support;

mod analysis;
mod book;
mod cli;
mod datagen;
mod docs;
mod egtb;
mod fen;
mod inputs;
mod judge;
mod lab;
mod levels;
mod nnue;
mod nnue_train;
mod notation;
mod perft;
mod pgn;
mod play;
mod prop_book;
mod prop_fen;
mod prop_net;
mod prop_notation;
mod prop_pgn;
mod prop_serve;
mod ratings;
mod resources;
mod rules;
mod scripts;
mod serve;
mod shards;
mod spsa;
mod stdin;
mod tournament;
mod tune;
mod winrate;

/// With `autotests = false` a new file in tests/ runs only once it is listed above or given a
/// `[[test]]` of its own in Cargo.toml: this test names any file that would be left out.
#[test]
fn every_test_file_is_built() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = std::fs::read_to_string(root.join("tests/integration.rs")).unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut left_out = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        let own_binary = manifest.contains(&format!("path = \"tests/{name}\""));
        if !own_binary && !listed.lines().any(|line| line == format!("mod {module};")) {
            left_out.push(name);
        }
    }
    assert!(left_out.is_empty(), "tests/ files no test binary builds: {left_out:?}");
}

#[test]
fn ci_runs_the_readmes_test_command() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    let command = |text: &str| -> Vec<String> {
        let lines = text.lines().filter(|l| l.starts_with("cargo test"));
        lines.map(|l| l.split('#').next().unwrap().trim().to_string()).collect()
    };
    let (readme, ci) = (command(&readme), command(&ci));
    assert_eq!(readme.len(), 1, "the README names one test command: {readme:?}");
    assert_eq!(ci, readme, ".ci/run runs the README's test command");
}
