//! The neural evaluation (NNUE): a one-hidden-layer network over piece-square features from each
//! side's perspective, evaluated in integers from accumulators kept up to date move by move.
//!
//! * `features/`: which inputs a position switches on (shared with the trainer): king buckets,
//!   piece-square indices, frames, the relation inputs, output buckets;
//! * `architecture`: the shape of a net and the one codec of its header's bytes;
//! * `network`: the quantised network;
//! * `layers`: the optional hidden layers (dense, in integers) and their forward pass;
//! * `format`: the versioned, checksummed net file;
//! * `accumulator`: the per-ply accumulator stack the search updates incrementally;
//! * `refresh_cache`: each frame's last rebuilt accumulator, so a king move costs a difference;
//! * `simd`: the vectorised inner loops;
//! * `embedded`: the net built into the binary, the default evaluation;
//! * `random_net`: an untrained net of any shape, for tests and benchmarks.
//!
//! `docs/nnue.md` describes the whole design, the file byte by byte, and the quantisation.

pub mod accumulator;
pub mod architecture;
pub mod embedded;
pub mod features;
pub mod format;
pub mod layers;
pub mod network;
pub mod random_net;
pub mod refresh_cache;
pub mod simd;

pub use accumulator::{AccumulatorStack, SCORE_LIMIT};
pub use architecture::{Activation, Architecture, Hidden, Quantisation};
pub use features::{FeatureSet, KingBuckets};
pub use network::Network;
