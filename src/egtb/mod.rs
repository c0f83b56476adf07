//! Endgame tablebases: every position of a few-piece ending solved by retrograde analysis under
//! xiangqi's rules, written to files, read back and asked (see `docs/egtb.md`).
//!
//! `signature` names the material, `index` numbers its positions, `value` says what a table
//! stores for one, `unmoves` takes moves back, `generate` solves one table, `format` is the file (`mapped`: read through a
//! read-only mapping, not copied),
//! `build` makes a folder of tables (children first, resuming), `probe` answers positions and
//! `verify` checks a table against itself.

pub mod build;
pub mod format;
pub mod generate;
pub mod index;
pub mod mapped;
pub mod probe;
pub mod signature;
pub mod unmoves;
pub mod value;
pub mod verify;

pub use format::Table;
pub use probe::{ScoredMove, Tablebases};
pub use signature::Signature;
pub use value::Value;
