//! What the classic evaluation's scores mean as chances to win: its win-rate model, fitted with
//! `chariot nnue winrate --classic` to games it played against itself (`docs/winrate.md` gives
//! the data and the command).

use crate::winrate::WinRateModel;

/// The classic evaluation's win-rate model.
pub const WIN_RATE: WinRateModel =
    WinRateModel { a: [138.201, -45.147, -179.707, 128.486], b: [498.032, -791.437, 443.828, -42.816] };
