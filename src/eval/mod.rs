//! Evaluation, as the search sees it: `EvalChoice` picks the neural network (`nnue`, the default)
//! or the classic evaluation (`classic`), and `Evaluator` follows the search line and scores its
//! nodes with either.

pub mod choice;
pub mod classic;
pub mod explain;
pub mod nnue;
pub mod relations;

pub use choice::{EvalChoice, Evaluator};
pub use classic::{Score, TermSet};
