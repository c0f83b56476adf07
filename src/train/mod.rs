//! The NNUE trainer (`chariot nnue train`): fits a `FloatNetwork` to scored self-play data and
//! exports it as a quantised net file. `docs/nnue-training.md` says how to use it.
//!
//! * `data`: the data files read whole, cut to complete games, split by game;
//! * `samples`: positions converted once to the feature indices the engine uses;
//! * `loss`: the target (a blend of score and result), the loss, the fit of K;
//! * `float`: the network in floating point, and its quantisation;
//! * `grow`: a trained net in a wider or finer-bucketed shape, computing the same (`--init`);
//! * `model`: forward and backward passes, gradients, the clipping limits of quantisation;
//! * `adam`: Adam's moments over the whole net, stepped on several threads (`crate::adam` has
//!   the arithmetic);
//! * `settings`: what a run is asked to do, the learning-rate schedule;
//! * `trainer`: the epoch loop on several threads, validation, the quantised net's check;
//! * `measure`: finished nets' losses on data (`chariot nnue loss`);
//! * `checkpoint`: the whole state, saved after every epoch and resumed from;
//! * `rng`: the random generator whose state a checkpoint saves;
//! * `run`: all of it as the command runs it.

pub mod adam;
pub mod checkpoint;
pub mod data;
pub mod float;
pub mod grow;
pub mod loss;
pub mod measure;
pub mod model;
pub mod rng;
pub mod run;
pub mod samples;
pub mod settings;
pub mod trainer;

pub use float::FloatNetwork;
pub use run::{train, Export, TrainJob};
pub use settings::{Schedule, SettingsRequest, TrainSettings};
