//! The win-rate model: what an evaluation's internal score means as a chance to win, draw or
//! lose, and the normalised score built on it (+100 means a 50% chance to win).
//!
//! The form is the one Stockfish and Pikafish use. For a score `s` (side to move's view) in a
//! position whose material is `m`:
//!
//! ```text
//! P(win)  = σ((s − a(m)) / b(m))
//! P(loss) = σ((−s − a(m)) / b(m))
//! P(draw) = 1 − P(win) − P(loss)
//! ```
//!
//! where σ is the logistic function and `a`, `b` are cubic polynomials in `m / MATERIAL_SCALE`.
//! `a(m)` is the score at which the side to move wins half its games; `b(m)` is how quickly the
//! chance rises around it. Both depend on material because a lead of the same size decides a
//! bare ending more surely than a full middlegame. Each evaluation has its own scale, so each has
//! its own model: the classic evaluation's is built in, and every net file carries its own.

use std::fmt;

use crate::board::{Color, PieceKind, Position};

/// The material of the start position under [`material`]: the polynomials' variable is the
/// material over this.
pub const MATERIAL_SCALE: f64 = 94.0;

/// Below this material the model reads as at this material: bare endings are too rare in games
/// for a fit to pin them, and a cubic must not be trusted outside the data it was fitted to.
pub const MATERIAL_FLOOR: u32 = 20;

/// Each kind's weight in [`material`]: rook 9, horse and cannon 4, advisor and elephant 2, pawn 1.
const MATERIAL_WEIGHTS: [(PieceKind, u32); 6] = [
    (PieceKind::Rook, 9),
    (PieceKind::Horse, 4),
    (PieceKind::Cannon, 4),
    (PieceKind::Advisor, 2),
    (PieceKind::Elephant, 2),
    (PieceKind::Pawn, 1),
];

/// The material on the board, both sides together (94 at the start, 0 with bare kings): the
/// variable the model's midpoint and slope depend on.
pub fn material(pos: &Position) -> u32 {
    MATERIAL_WEIGHTS
        .iter()
        .map(|&(kind, weight)| weight * (pos.count(Color::Red, kind) + pos.count(Color::Black, kind)) as u32)
        .sum()
}

/// The material of these pieces (of either side), as [`material`] counts it.
pub fn material_of(kinds: impl IntoIterator<Item = PieceKind>) -> u32 {
    kinds
        .into_iter()
        .map(|kind| MATERIAL_WEIGHTS.iter().find(|&&(k, _)| k == kind).map_or(0, |&(_, weight)| weight))
        .sum()
}

/// Win, draw and loss chances in per mille, from the side to move's view; they add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlPerMille {
    /// The side to move wins, per mille.
    pub win: u32,
    /// A draw, per mille.
    pub draw: u32,
    /// The side to move loses, per mille.
    pub loss: u32,
}

impl WdlPerMille {
    /// The same chances from the other side's view.
    pub fn flipped(self) -> WdlPerMille {
        WdlPerMille { win: self.loss, draw: self.draw, loss: self.win }
    }

    /// The expected score (win 1, draw ½) as a fraction.
    pub fn expected_score(self) -> f64 {
        (self.win as f64 + self.draw as f64 / 2.0) / 1000.0
    }
}

/// A model parameter that cannot describe a win rate.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// A coefficient is NaN or infinite.
    NotFinite {
        /// `"a"` or `"b"`.
        polynomial: &'static str,
        /// The coefficient's index (0 is the cubic term).
        index: usize,
    },
    /// The midpoint or the slope is not positive somewhere in the material range.
    NotPositive {
        /// `"a"` or `"b"`.
        polynomial: &'static str,
        /// The material at which it is not positive.
        material: u32,
        /// Its value there.
        value: f64,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::NotFinite { polynomial, index } => {
                write!(f, "win-rate model coefficient {polynomial}[{index}] is not a finite number")
            }
            ModelError::NotPositive { polynomial, material, value } => {
                // A damaged file can hold any double: keep the message short whatever it is.
                let value = if value.abs() < 1e6 { format!("{value:.3}") } else { format!("{value:.3e}") };
                write!(
                    f,
                    "win-rate model {polynomial}(m) is {value} at material {material}; it must be at least 1 over {MATERIAL_FLOOR}..={}",
                    MATERIAL_SCALE as u32
                )
            }
        }
    }
}

impl std::error::Error for ModelError {}

/// A midpoint and slope as cubic polynomials of the material (coefficients highest power first,
/// in `m / MATERIAL_SCALE`), in the evaluation's internal units.
///
/// Two models are equal when their coefficients are bit for bit the same, so that a net, which
/// carries one, can be compared whole.
#[derive(Clone, Copy, Debug)]
pub struct WinRateModel {
    /// The score at which the side to move wins half its games.
    pub a: [f64; 4],
    /// The spread of the logistic curve around `a`.
    pub b: [f64; 4],
}

impl PartialEq for WinRateModel {
    fn eq(&self, other: &WinRateModel) -> bool {
        self.to_array().map(f64::to_bits) == other.to_array().map(f64::to_bits)
    }
}

impl Eq for WinRateModel {}

/// Evaluates a cubic with coefficients highest power first at `x` (Horner's rule).
fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WinRateModel {
    /// A model whose midpoint and slope do not depend on material.
    pub fn constant(a: f64, b: f64) -> WinRateModel {
        WinRateModel { a: [0.0, 0.0, 0.0, a], b: [0.0, 0.0, 0.0, b] }
    }

    /// Checks that every coefficient is finite and that `a(m)` and `b(m)` are positive over the
    /// whole material range, so every chance the model gives is a probability.
    pub fn validate(&self) -> Result<(), ModelError> {
        for (polynomial, coefficients) in [("a", &self.a), ("b", &self.b)] {
            if let Some(index) = coefficients.iter().position(|c| !c.is_finite()) {
                return Err(ModelError::NotFinite { polynomial, index });
            }
            for material in MATERIAL_FLOOR..=MATERIAL_SCALE as u32 {
                let value = cubic(coefficients, material as f64 / MATERIAL_SCALE);
                // Below 1 internal unit the curve is a step: no evaluation has so fine a scale.
                if value.is_nan() || value < 1.0 {
                    return Err(ModelError::NotPositive { polynomial, material, value });
                }
            }
        }
        Ok(())
    }

    /// The midpoint `a(m)` and slope `b(m)` at `material` (read as `MATERIAL_FLOOR` below it).
    pub fn parameters(&self, material: u32) -> (f64, f64) {
        let x = material.clamp(MATERIAL_FLOOR, MATERIAL_SCALE as u32) as f64 / MATERIAL_SCALE;
        (cubic(&self.a, x), cubic(&self.b, x))
    }

    /// The chance (0 to 1) that the side to move wins with `score` at `material`.
    pub fn win_chance(&self, score: i32, material: u32) -> f64 {
        let (a, b) = self.parameters(material);
        logistic((score as f64 - a) / b)
    }

    /// Win, draw and loss chances in per mille for `score` at `material`.
    pub fn wdl(&self, score: i32, material: u32) -> WdlPerMille {
        let win = (1000.0 * self.win_chance(score, material)).round() as u32;
        let loss = (1000.0 * self.win_chance(-score, material)).round() as u32;
        // Rounding can make the two exceed 1000 only when the draw chance is below ½ per mille.
        let loss = loss.min(1000 - win);
        WdlPerMille { win, draw: 1000 - win - loss, loss }
    }

    /// `score` on the normalised scale: 100 is the score at which the side to move wins half its
    /// games at this material.
    pub fn normalise(&self, score: i32, material: u32) -> i32 {
        let (a, _) = self.parameters(material);
        (100.0 * score as f64 / a).round() as i32
    }

    /// The internal score that reads `normalised` on the normalised scale at `material`: the
    /// inverse of [`WinRateModel::normalise`], for thresholds given on the normalised scale.
    pub fn internal(&self, normalised: i32, material: u32) -> i32 {
        let (a, _) = self.parameters(material);
        (normalised as f64 * a / 100.0).round() as i32
    }

    /// The coefficients as 8 numbers (a then b), as net files store them.
    pub fn to_array(&self) -> [f64; 8] {
        let mut out = [0.0; 8];
        out[..4].copy_from_slice(&self.a);
        out[4..].copy_from_slice(&self.b);
        out
    }

    /// The model from 8 numbers (a then b), checked with [`WinRateModel::validate`].
    pub fn from_array(values: [f64; 8]) -> Result<WinRateModel, ModelError> {
        let model = WinRateModel {
            a: [values[0], values[1], values[2], values[3]],
            b: [values[4], values[5], values[6], values[7]],
        };
        model.validate().map(|_| model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_the_full_material() {
        let start = Position::startpos();
        assert_eq!(material(&start), MATERIAL_SCALE as u32);
        let pieces = crate::board::Square::all().map(|sq| start.piece_at(sq)).filter(|p| p.is_piece());
        assert_eq!(material_of(pieces.map(|p| p.kind())), MATERIAL_SCALE as u32);
    }

    #[test]
    fn the_midpoint_is_a_half_chance_to_win_and_reads_100() {
        let model = WinRateModel { a: [10.0, -20.0, 30.0, 120.0], b: [0.0, 5.0, 10.0, 40.0] };
        for material in [0, 30, 60, 94] {
            let (a, _) = model.parameters(material);
            let at_midpoint = a.round() as i32;
            assert!((model.win_chance(at_midpoint, material) - 0.5).abs() < 0.01);
            assert_eq!(model.normalise(at_midpoint, material), 100);
            assert!((model.internal(100, material) - at_midpoint).abs() <= 1);
        }
    }

    #[test]
    fn wdl_adds_up_to_1000_and_is_symmetric() {
        let model = WinRateModel::constant(150.0, 60.0);
        for score in (-3000..=3000).step_by(7) {
            let wdl = model.wdl(score, 50);
            assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "score {score}");
            assert_eq!(model.wdl(-score, 50), wdl.flipped(), "score {score}");
        }
        assert_eq!(model.wdl(30_000, 50), WdlPerMille { win: 1000, draw: 0, loss: 0 });
    }

    #[test]
    fn a_model_that_is_not_positive_or_not_finite_is_refused() {
        assert!(WinRateModel::constant(150.0, 60.0).validate().is_ok());
        let negative_slope = WinRateModel { a: [0.0, 0.0, 0.0, 150.0], b: [0.0, 0.0, -100.0, 60.0] };
        let err = negative_slope.validate().unwrap_err();
        assert!(matches!(err, ModelError::NotPositive { polynomial: "b", .. }), "{err}");
        let nan = WinRateModel::from_array([f64::NAN, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 60.0]).unwrap_err();
        assert_eq!(nan, ModelError::NotFinite { polynomial: "a", index: 0 });
        assert!(nan.to_string().contains("a[0]"), "{nan}");
        let huge =
            WinRateModel::from_array([0.0, 0.0, 0.0, -1e300, 0.0, 0.0, 0.0, 60.0]).unwrap_err().to_string();
        assert!(huge.len() < 120 && huge.contains("-1.000e300"), "{huge}");
    }
}
