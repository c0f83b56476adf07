//! Evaluation: material, piece-square tables (tapered), and the terms tables cannot see.

pub mod psq;
pub mod score;
pub mod weights;

pub use score::Score;
