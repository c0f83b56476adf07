//! Self-play data generation and Texel tuning of the evaluation weights.
//!
//! The pipeline: `datagen` plays fast self-play games and keeps quiet positions labelled with the
//! game's result (as text for Texel tuning; `scored` writes them with the search score in the
//! binary `packed` format that `datafile` reads back and `datastats` summarises, for the NNUE
//! trainer); `features` decomposes `eval::classic::evaluate` into a linear function of the weight
//! vector that `layout` defines; `optimizer` fits that vector to the results (Texel's method);
//! `writer` turns it back into `src/eval/classic/weights.rs`.
//!
//! Tuning starts from the weights compiled into the binary. The workflow: `chariot datagen
//! --games 20000 --nodes 5000 --concurrency 2 --out target/tune/data.txt`, then `chariot tune
//! --data target/tune/data.txt --out target/tune/weights.rs`; build a second binary with that
//! file as `src/eval/classic/weights.rs`, and keep it only if `scripts/sprt.sh OLD NEW` (and
//! `scripts/strength.sh`) show it stronger.

pub mod datafile;
pub mod datagen;
pub mod dataset;
pub mod datastats;
pub mod features;
pub mod layout;
pub mod nnue;
pub mod optimizer;
pub mod packed;
pub mod scored;
pub mod writer;

use std::path::Path;

/// Checks that `path` could be written (its directory exists and takes a new file), without
/// touching `path` itself: a long job refuses a bad destination before it starts.
pub fn check_writable(path: &Path) -> Result<(), String> {
    crate::files::check_writable(path)
        .map_err(|e| format!("cannot write in {}: {e}", crate::files::directory_of(path).display()))
}
