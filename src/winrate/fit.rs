//! Fitting a [`WinRateModel`] to scored games: which internal score wins how often.
//!
//! The method is the one of Stockfish's WDL model fitting, in two stages:
//! 1. the positions are grouped by material, and in each group with enough positions the
//!    midpoint `a` and slope `b` are fitted by maximum likelihood (Newton's method on the two
//!    parameters, the likelihood being the model's chance of each game's actual result);
//! 2. cubic polynomials in the material are fitted to those `a`s and `b`s by least squares,
//!    each group weighted by its number of positions.

use std::fmt;

use super::model::{ModelError, WinRateModel, MATERIAL_FLOOR, MATERIAL_SCALE};

/// A game's result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move went on to win.
    Win,
    /// The game was drawn.
    Draw,
    /// The side to move went on to lose.
    Loss,
}

/// One scored position: the search score and the game's result, both from the side to move's
/// view, and the material on the board (as [`super::material`] counts it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The score in the evaluation's internal units.
    pub score: i32,
    /// How the game ended for the side to move.
    pub outcome: Outcome,
    /// The material on the board.
    pub material: u32,
}

/// Why no model could be fitted.
#[derive(Clone, Debug, PartialEq)]
pub enum FitError {
    /// Fewer than four material levels had enough positions to fit a cubic through.
    TooFewMaterialLevels {
        /// Levels with enough positions.
        found: usize,
        /// Positions a level needs.
        per_level: usize,
    },
    /// The fitted polynomials do not make a valid model over the whole material range.
    Invalid(ModelError),
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::TooFewMaterialLevels { found, per_level } => write!(
                f,
                "only {found} material levels have {per_level} or more decisive and drawn positions; \
                 fitting a win-rate model needs at least 4: give more data"
            ),
            FitError::Invalid(e) => write!(f, "the fitted model is not valid: {e}"),
        }
    }
}

impl std::error::Error for FitError {}

/// The fit's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitOptions {
    /// Positions a material level needs before its midpoint and slope are fitted.
    pub min_per_level: usize,
    /// Scores beyond this (in absolute value) are left out: mates and rule wins say nothing about
    /// the scale.
    pub max_score: i32,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions { min_per_level: 500, max_score: 3000 }
    }
}

/// The midpoint and slope fitted at one material level, with the number of positions behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelFit {
    /// The material level.
    pub material: u32,
    /// The fitted midpoint.
    pub a: f64,
    /// The fitted slope.
    pub b: f64,
    /// Positions at this level.
    pub count: usize,
}

/// What a fit found: the model and the per-level fits it smooths.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted model.
    pub model: WinRateModel,
    /// The per-level midpoints and slopes the cubics were fitted to.
    pub levels: Vec<LevelFit>,
}

/// Fits a win-rate model to `samples`.
pub fn fit(samples: &[Sample], options: FitOptions) -> Result<Fit, FitError> {
    let mut by_level: Vec<Vec<(f64, Outcome)>> = vec![Vec::new(); MATERIAL_SCALE as usize + 1];
    for s in samples.iter().filter(|s| s.score.abs() <= options.max_score) {
        let level = s.material.clamp(MATERIAL_FLOOR, MATERIAL_SCALE as u32) as usize;
        by_level[level].push((s.score as f64, s.outcome));
    }
    let levels: Vec<LevelFit> = by_level
        .iter()
        .enumerate()
        .filter(|(_, level)| level.len() >= options.min_per_level)
        .filter_map(|(material, level)| {
            let (a, b) = fit_level(level)?;
            Some(LevelFit { material: material as u32, a, b, count: level.len() })
        })
        .collect();
    if levels.len() < 4 {
        return Err(FitError::TooFewMaterialLevels { found: levels.len(), per_level: options.min_per_level });
    }
    let points = |value: fn(&LevelFit) -> f64| -> Vec<(f64, f64, f64)> {
        levels.iter().map(|l| (l.material as f64 / MATERIAL_SCALE, value(l), l.count as f64)).collect()
    };
    let model =
        WinRateModel { a: least_squares_cubic(&points(|l| l.a)), b: least_squares_cubic(&points(|l| l.b)) };
    model.validate().map_err(FitError::Invalid)?;
    Ok(Fit { model, levels })
}

/// The negative log-likelihood of `samples` under midpoint `a` and slope `b`, and its gradient.
fn likelihood(samples: &[(f64, Outcome)], a: f64, b: f64) -> (f64, [f64; 2]) {
    let mut nll = 0.0;
    let mut grad = [0.0; 2];
    for &(score, outcome) in samples {
        let u = (score - a) / b;
        let v = (-score - a) / b;
        let (pw, pl) = (logistic(u), logistic(v));
        let (sw, sl) = (pw * (1.0 - pw), pl * (1.0 - pl));
        let dw = [-sw / b, -sw * u / b];
        let dl = [-sl / b, -sl * v / b];
        let (p, dp) = match outcome {
            Outcome::Win => (pw, dw),
            Outcome::Loss => (pl, dl),
            Outcome::Draw => (1.0 - pw - pl, [-dw[0] - dl[0], -dw[1] - dl[1]]),
        };
        let p = p.max(1e-12);
        nll -= p.ln();
        grad[0] -= dp[0] / p;
        grad[1] -= dp[1] / p;
    }
    (nll, grad)
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The smallest midpoint or slope a step may reach: the model needs both positive.
const FLOOR: f64 = 1.0;

/// The maximum-likelihood midpoint and slope of one material level, or `None` when the level
/// cannot pin them (for instance, every game drawn).
fn fit_level(samples: &[(f64, Outcome)]) -> Option<(f64, f64)> {
    let mut x = [100.0, 50.0];
    let (mut nll, mut grad) = likelihood(samples, x[0], x[1]);
    for _ in 0..200 {
        // Newton's step with the Hessian by finite differences of the analytic gradient.
        let h = 1e-4 * x[0].abs().max(x[1].abs()).max(1.0);
        let (_, ga) = likelihood(samples, x[0] + h, x[1]);
        let (_, gb) = likelihood(samples, x[0], x[1] + h);
        let hess =
            [[(ga[0] - grad[0]) / h, (gb[0] - grad[0]) / h], [(ga[1] - grad[1]) / h, (gb[1] - grad[1]) / h]];
        let hxy = (hess[0][1] + hess[1][0]) / 2.0;
        let det = hess[0][0] * hess[1][1] - hxy * hxy;
        let mut step = if hess[0][0] > 0.0 && det > 0.0 {
            [-(hess[1][1] * grad[0] - hxy * grad[1]) / det, -(hess[0][0] * grad[1] - hxy * grad[0]) / det]
        } else {
            // Not convex here: a gradient step no longer than a tenth of the parameters.
            let norm = (grad[0] * grad[0] + grad[1] * grad[1]).sqrt().max(1e-12);
            let length = 0.1 * x[0].max(x[1]);
            [-grad[0] / norm * length, -grad[1] / norm * length]
        };
        let mut improved = false;
        for _ in 0..40 {
            let next = [x[0] + step[0], x[1] + step[1]];
            if next[0] >= FLOOR && next[1] >= FLOOR {
                let (next_nll, next_grad) = likelihood(samples, next[0], next[1]);
                if next_nll <= nll {
                    improved =
                        (nll - next_nll) > 1e-9 * nll.abs().max(1.0) || step[0].abs() + step[1].abs() > 1e-6;
                    x = next;
                    nll = next_nll;
                    grad = next_grad;
                    break;
                }
            }
            step = [step[0] / 2.0, step[1] / 2.0];
        }
        if !improved || step[0].abs() + step[1].abs() < 1e-6 {
            break;
        }
    }
    // A level whose parameters ran off (every game drawn, or one result only) pins nothing.
    (x[0].is_finite() && x[1].is_finite() && x[0] < 1e5 && x[1] < 1e5).then_some((x[0], x[1]))
}

/// Weighted least-squares cubic through `(x, y, weight)` points, coefficients highest power
/// first.
fn least_squares_cubic(points: &[(f64, f64, f64)]) -> [f64; 4] {
    // The normal equations, in powers x³, x², x, 1.
    let mut m = [[0.0f64; 5]; 4];
    for &(x, y, w) in points {
        let powers = [x * x * x, x * x, x, 1.0];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * powers[i] * powers[j];
            }
            m[i][4] += w * powers[i] * y;
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs())).unwrap_or(col);
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-300 {
            continue;
        }
        let pivot_row = m[col];
        for (row, values) in m.iter_mut().enumerate() {
            if row != col {
                let factor = values[col] / pivot_row[col];
                for (value, pivot) in values.iter_mut().zip(pivot_row).skip(col) {
                    *value -= factor * pivot;
                }
            }
        }
    }
    let solve = |i: usize| if m[i][i].abs() < 1e-300 { 0.0 } else { m[i][4] / m[i][i] };
    [solve(0), solve(1), solve(2), solve(3)]
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Samples drawn from `model`: random materials and scores, results by the model's chances.
    fn synthetic(model: &WinRateModel, count: usize, seed: u64) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let material = rng.gen_range(20..=94);
                let score = rng.gen_range(-600..=600);
                let wdl = model.wdl(score, material);
                let roll = rng.gen_range(0..1000);
                let outcome = if roll < wdl.win {
                    Outcome::Win
                } else if roll < wdl.win + wdl.draw {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                };
                Sample { score, outcome, material }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_the_model_the_data_was_made_with() {
        let truth = WinRateModel { a: [-60.0, 120.0, -40.0, 140.0], b: [0.0, 20.0, 10.0, 45.0] };
        let samples = synthetic(&truth, 300_000, 7);
        let fit = fit(&samples, FitOptions::default()).unwrap();
        for material in [25, 40, 60, 80, 94] {
            let (a, b) = truth.parameters(material);
            let (fa, fb) = fit.model.parameters(material);
            assert!((fa - a).abs() < 0.05 * a, "a({material}): fitted {fa:.1}, made with {a:.1}");
            assert!((fb - b).abs() < 0.08 * b, "b({material}): fitted {fb:.1}, made with {b:.1}");
        }
    }

    #[test]
    fn too_little_data_is_refused_with_what_is_missing() {
        let samples = synthetic(&WinRateModel::constant(150.0, 50.0), 1000, 1);
        let err = fit(&samples, FitOptions::default()).unwrap_err();
        assert!(matches!(err, FitError::TooFewMaterialLevels { found: 0, per_level: 500 }), "{err}");
        assert!(err.to_string().contains("give more data"));
    }

    #[test]
    fn the_cubic_least_squares_is_exact_on_a_cubic() {
        let c = [2.0, -3.0, 0.5, 7.0];
        let points: Vec<_> = (0..10)
            .map(|i| {
                let x = i as f64 / 9.0;
                (x, ((c[0] * x + c[1]) * x + c[2]) * x + c[3], 1.0 + i as f64)
            })
            .collect();
        let fitted = least_squares_cubic(&points);
        for (f, t) in fitted.iter().zip(c) {
            assert!((f - t).abs() < 1e-6, "{fitted:?}");
        }
    }
}
