//! Self-play training data: the games, the binary format they are stored in, and reading it back.
//!
//! * `games`: fast self-play games at a fixed node count, from random openings, each searched
//!   position offered to a keep filter (the text mode, `FEN;result` lines for Texel tuning, is
//!   `games::generate`);
//! * `scored`: the scored mode, whole games appended to a data file as records with the search
//!   score and the result, for the NNUE trainer;
//! * `format`: that file's 40-byte header and record blocks;
//! * `reader`: the streaming reader that checks every block and the order of games;
//! * `stats`: what a data file holds, and the check of every record;
//! * `shard`: `--shard K/N`, which of a run's games one process plays;
//! * `merge`: the shard files of a run merged into one, checked;
//! * `rescore`: a file's positions searched again (deeper labels), games and results kept.
//!
//! `docs/datagen.md` describes the format byte by byte and how to run it.

pub mod format;
pub mod games;
pub mod merge;
pub mod reader;
pub mod rescore;
pub mod scored;
pub mod shard;
pub mod stats;
