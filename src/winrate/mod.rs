//! What a score means: the win-rate model that turns an evaluation's internal score into
//! chances to win, draw and lose (`model`), the normalised score people and GUIs read (+100 is
//! a 50% chance to win), and the fit of the model to scored games (`fit`).

pub mod fit;
pub mod model;

pub use fit::{fit, Fit, FitError, FitOptions, LevelFit, Outcome, Sample};
pub use model::{material, material_of, ModelError, WdlPerMille, WinRateModel, MATERIAL_SCALE};
