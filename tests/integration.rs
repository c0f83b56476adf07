//! The integration tests, built as one test binary. Under `[profile.release]`'s fat LTO every
//! test binary of `cargo test --release` costs a whole-program link, so one binary instead of
//! one per file saves most of the suite's build. Each file of tests/ stays a module named after
//! it: `cargo test --release --test integration book::` runs one file's tests.
//!
//! Three files keep binaries of their own (Cargo.toml), because their tests assert wall-clock
//! latencies and ran beside fewer busy neighbours that way: `protocol.rs` (`quit`, `stop`,
//! `isready` within 100 ms), `search.rs` (the clock) and `stop_latency.rs` (alone).

mod common;
mod prop_support;

mod analysis;
mod book;
mod cli;
mod datagen;
mod egtb;
mod fen;
mod inputs;
mod judge;
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
mod serve;
mod shards;
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
