//! Search: iterative deepening with PVS (or MTD(f)), quiescence, pruning and reductions, move
//! ordering, the shared transposition table, time management and Lazy SMP threads.
//!
//! `Engine::search` is the one entry point; the protocol loop runs it on its own thread and
//! steers it through a `SearchControl`.
//!
//! The rooms, from the entry down:
//! - `engine`: `Engine` (table, histories, options kept between searches) and its `search`,
//!   which starts the threads;
//! - `options`: what a search runs with (`EngineOptions`, `Algorithm`, `SearchFeatures`), and
//!   `params`: its numbers (`SearchParams`);
//! - `limits`, `control`, `timeman`: what a `go` asks, how it is stopped, when time is up;
//! - `root`: the root move list; `driver`: iterative deepening over it; `worker`: one thread's
//!   tree search; `shared`: what the threads of one search share; `stack`: per-ply state;
//! - `ordering` (over the tables of `history`), `reductions`, `correction`, `see`, `rules_hook`,
//!   `score`, `tt`, `memory`, `tablebase_hook` (endgame tables at the root and in the tree): the
//!   search's tools; `thread_state`: what each thread keeps between searches;
//! - `score_scale`: scores as people and programs read them (normalised, win/draw/loss);
//! - `skill`: playing below full strength (the levels, the choice among lines, the Elo scale);
//! - `info`: what a search reports; `bench`: the fixed node-count signature.

pub mod bench;
pub mod control;
pub mod correction;
mod driver;
pub mod engine;
pub mod history;
pub mod info;
pub mod limits;
pub mod memory;
pub mod options;
pub mod ordering;
pub mod params;
mod picker;
mod reductions;
mod root;
mod rules_hook;
pub mod score;
pub mod score_scale;
pub mod see;
mod shared;
pub mod skill;
mod stack;
pub mod tablebase_hook;
mod thread_state;
pub mod timeman;
pub mod tt;
mod worker;

pub use control::SearchControl;
pub use engine::{usable_threads, Engine, DEFAULT_HASH_MB};
pub use info::{Info, IterationInfo, ScoreBound, SearchResult};
pub use limits::Limits;
pub use options::{Algorithm, EngineOptions, SearchFeatures, UnknownName};
pub use params::{ParamError, SearchParams};
pub use root::RootMove;
pub use shared::Reporter;
pub use skill::Skill;
pub use tablebase_hook::TablebaseHandle;
pub use timeman::{TimeBudget, TimeManager};
pub use tt::{HashError, TranspositionTable};
