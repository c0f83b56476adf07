//! Chariot: a xiangqi (Chinese chess) engine.
//!
//! The crate is laid out by concern, floor by floor (a room uses only rooms on the floors
//! below it):
//! * `files` (files written whole or not at all), `input_file` (every file a user names, read
//!   with a bound), `quote`, `counted` (a count and its noun, singular or plural), `binary` (the
//!   little-endian codec and FNV-1a checksums of every binary file) and `adam` (the optimiser
//!   both fits use);
//! * `board` (position and move generation);
//! * `winrate` (what a score means: the win-rate model and normalised scores);
//! * `eval` (the evaluator choice; `eval/classic` the classic evaluation, `eval/nnue` the net's
//!   inference, `eval/relations` who attacks and protects each piece), `rules` (the one authority
//!   on legality and game results), `notation` (ICCS, WXF, Chinese, PGN), `egtb` (endgame
//!   tablebases);
//! * `search`, `tournament` (matches between engines), `svg` (pictures of the board and of a
//!   game's curve), `lab` (the textbook's search algorithms side by side);
//! * `datagen` (self-play training data and its file format), `book` (opening books);
//! * `texel` (Texel tuning of the classic weights), `train` (the NNUE trainer);
//! * `protocol` (UCCI and UCI), `serve` (the web board: HTTP, WebSocket, games between people
//!   and with the engine);
//! * `cli` (the subcommands).

#![deny(clippy::undocumented_unsafe_blocks)]
#![deny(missing_docs)]

pub mod adam;
pub mod binary;
pub mod board;
pub mod book;
pub mod cli;
pub mod counted;
pub mod datagen;
pub mod egtb;
pub mod eval;
pub mod files;
pub mod input_file;
pub mod lab;
pub mod notation;
pub mod protocol;
pub mod quote;
pub mod rules;
pub mod search;
pub mod serve;
pub mod spsa;
pub mod svg;
pub mod texel;
pub mod tournament;
pub mod train;
pub mod winrate;
