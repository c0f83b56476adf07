//! SPSA tuning of an engine's parameters by game pairs (`chariot spsa`), as fishtest tunes
//! Stockfish's: every iteration moves all the parameters at once, a random direction each, plays
//! the engine moved one way against the engine moved the other, and steps the values towards
//! the side that scored more. Many parameters are tuned together in the games a single gate
//! would take for one.
//!
//! `param` reads the parameters, `gains` holds the step sizes' schedule, `tuner` the values and
//! their updates, `state` the file a run resumes from, and `run` plays the pairs on several
//! threads through the match runner's `play_game`.

pub mod gains;
pub mod param;
pub mod run;
pub mod state;
pub mod tuner;

pub use gains::Gains;
pub use param::{ParamSpec, ParamSpecError};
pub use run::{run_spsa, FinishedPair, SpsaConfig, SpsaError, SpsaProgress, SpsaSummary};
pub use state::{SavedRun, StateError};
pub use tuner::{Trial, Tuner};
