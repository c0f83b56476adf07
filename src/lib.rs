//! Chariot: a xiangqi (Chinese chess) engine.
//!
//! The crate is laid out by concern: `board` (position and move generation), `rules` (the one
//! authority on legality and game results), `eval`, `search`, `book`, `protocol` (UCCI and UCI),
//! `notation` (ICCS, WXF, Chinese, PGN) and `cli` (the subcommands); `files` writes files whole
//! or not at all for all of them.

pub mod board;
pub mod book;
pub mod cli;
pub mod eval;
pub mod files;
pub mod notation;
pub mod protocol;
pub mod quote;
pub mod rules;
pub mod search;
pub mod svg;
pub mod tournament;
pub mod tune;
pub mod winrate;
