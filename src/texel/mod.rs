//! Texel tuning of the classic evaluation's weights.
//!
//! The pipeline: `datagen` (the text mode of `datagen::games`) labels quiet positions with the
//! game's result; `dataset` reads them; `features` decomposes `eval::classic::evaluate` into a linear
//! function of the weight vector that `layout` defines; `optimizer` fits that vector to the
//! results (Texel's method); `writer` turns it back into `src/eval/classic/weights.rs`.
//!
//! Tuning starts from the weights compiled into the binary. The workflow: `chariot datagen
//! --games 20000 --nodes 5000 --concurrency 2 --out target/tune/data.txt`, then `chariot tune
//! --data target/tune/data.txt --out target/tune/weights.rs`; build a second binary with that
//! file as `src/eval/classic/weights.rs`, and keep it only if `scripts/sprt.sh OLD NEW` (and
//! `scripts/strength.sh`) show it stronger.

pub mod dataset;
pub mod features;
pub mod layout;
pub mod optimizer;
pub mod writer;
