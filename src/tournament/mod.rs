//! The match runner behind `chariot match`: engine processes, games, clocks, adjudication, statistics.
//!
//! `spec` parses the command-line settings and `adjudication` the `--draw` and `--resign`
//! rules, gathered in `match_config`; `engine` runs one engine process, `game` plays one game,
//! `schedule` decides the games and `shard` which of them one process of a sharded match plays,
//! `resume` takes the games a PGN already holds, `runner` plays the rest (in parallel), reports
//! each to a `progress` watcher and writes the PGN, with the tags of `match_tags` (the settings
//! `fingerprint` among them); `match_error` says why a match did not run. `merge` puts the PGNs
//! of a match's shards back together, `stats` and `report` turn results into Elo, LOS and SPRT
//! figures (`pairs` scoring the two games of an opening together), and `ratings` puts the
//! engines of many matches on one Elo scale.

pub mod adjudication;
pub mod coords;
pub mod engine;
pub mod fingerprint;
pub mod game;
pub mod match_config;
pub mod match_error;
pub mod match_tags;
pub mod merge;
pub mod openings;
pub mod pairs;
pub mod pgn_out;
pub mod progress;
pub mod random_plies;
pub mod ratings;
pub mod report;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod shard;
pub mod shown;
pub mod spec;
pub mod stats;

pub use crate::notation::Opening;
pub use adjudication::{AdjudicationError, DrawRule, ResignRule, Threshold};
pub use engine::EngineStartError;
pub use game::{play_game, GameRecord, GameSettings};
pub use match_config::MatchConfig;
pub use match_error::MatchError;
pub use merge::{merge_files, MergeError, Merged};
pub use pairs::{PairCollector, Pentanomial};
pub use pgn_out::{PgnOutError, ResumeError};
pub use progress::{FinishedGame, MatchProgress, NoProgress};
pub use random_plies::RandomPlies;
pub use runner::{run_match, MatchSummary};
pub use shard::{Shard, ShardError};
pub use spec::{EngineSpec, EngineSpecError, Limit, LimitError, NumberError, Protocol, SprtError, SprtSpec};
pub use stats::{sprt_bounds, sprt_verdict, SprtVerdict, Tally};
