//! What the classic evaluation's scores mean as chances to win: its win-rate model, fitted with
//! `chariot nnue winrate --classic` to games it played against itself (`docs/winrate.md` gives
//! the data and the command).

use crate::winrate::WinRateModel;

/// The classic evaluation's win-rate model.
pub const WIN_RATE: WinRateModel =
    WinRateModel { a: [25.392, 129.390, -248.952, 135.354], b: [92.940, -105.080, 109.680, 2.378] };
