//! Texel's method: the mean squared error between `sigmoid(K · eval)` and the game results, the
//! scaling `K` that minimises it for fixed weights, and Adam over every weight at once on the
//! full-batch gradient. Nothing here is random, so a run is reproducible.

use crate::adam::Decays;

use super::dataset::Sample;

/// The logistic function `1 / (1 + e^−x)`.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predictions `sigmoid(k · eval)` (Red's view) against the results.
pub fn mean_error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(k * s.features.red_eval(w)) - s.result;
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The `K` in `[1e-5, 1]` that minimises `mean_error` for fixed weights: a scan over a
/// logarithmic grid, then golden-section search (on log K) around the best grid point.
pub fn find_k(samples: &[Sample], w: &[f64]) -> f64 {
    // Evaluations do not change with K: compute them once.
    let evals: Vec<(f64, f64)> = samples.iter().map(|s| (s.features.red_eval(w), s.result)).collect();
    let error = |log_k: f64| -> f64 {
        let k = log_k.exp();
        evals
            .iter()
            .map(|&(e, r)| {
                let d = sigmoid(k * e) - r;
                d * d
            })
            .sum::<f64>()
    };
    let (lo, hi) = (1e-5f64.ln(), 1f64.ln());
    let steps = 60;
    let grid = |i: usize| lo + (hi - lo) * i as f64 / steps as f64;
    let best = (0..=steps).min_by(|&a, &b| error(grid(a)).total_cmp(&error(grid(b)))).unwrap_or(0);
    let (mut a, mut b) = (grid(best.saturating_sub(1)), grid((best + 1).min(steps)));
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (error(c), error(d));
    for _ in 0..80 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = error(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = error(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The mean error and its gradient with respect to every weight.
pub fn gradient(samples: &[Sample], w: &[f64], k: f64, grad: &mut [f64]) -> f64 {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let n = samples.len().max(1) as f64;
    let mut error = 0.0;
    for s in samples {
        let p = sigmoid(k * s.features.red_eval(w));
        let d = p - s.result;
        error += d * d;
        // d/dw of (p − r)² = 2 (p − r) · p (1 − p) · K · d(eval)/dw.
        let common = 2.0 * d * p * (1.0 - p) * k / n;
        let rho = s.features.mg_share();
        let (gm, ge) = (common * rho, common * (1.0 - rho));
        for e in &s.features.entries {
            let i = 2 * e.pair as usize;
            grad[i] += gm * e.coef as f64;
            grad[i + 1] += ge * e.coef as f64;
        }
    }
    error / n
}

/// Adam's settings for the full-batch fit (the bias-corrected form of `crate::adam`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Adam {
    /// Passes over the whole data, one step each.
    pub epochs: usize,
    /// Step size (in evaluation units: roughly the most a weight moves per step).
    pub lr: f64,
    /// The decays and ε.
    pub decays: Decays<f64>,
    /// Ridge penalty `l2 · Σ (w − w_start)²` added to the error: holds weights the data says
    /// little about near where they started (0 = none).
    pub l2: f64,
}

impl Adam {
    /// The usual decays with the given epochs and step size.
    pub fn new(epochs: usize, lr: f64) -> Adam {
        Adam { epochs, lr, decays: Decays::usual(), l2: 0.0 }
    }

    /// Runs the optimiser on `w` in place; `on_epoch(epoch, error before the step)` after each
    /// step. Returns the error of the final weights (the reported errors leave out the penalty).
    pub fn run(
        &self,
        samples: &[Sample],
        w: &mut [f64],
        k: f64,
        on_epoch: &mut dyn FnMut(usize, f64),
    ) -> f64 {
        let mut grad = vec![0.0; w.len()];
        let mut m = vec![0.0; w.len()];
        let mut v = vec![0.0; w.len()];
        let start = w.to_vec();
        for epoch in 1..=self.epochs {
            let error = gradient(samples, w, k, &mut grad);
            if self.l2 > 0.0 {
                for i in 0..w.len() {
                    grad[i] += 2.0 * self.l2 * (w[i] - start[i]);
                }
            }
            let corrections = self.decays.corrections(epoch as i32);
            for i in 0..w.len() {
                self.decays.moments(&mut m[i], &mut v[i], grad[i]);
                // A weight no position touches has a zero gradient and stays exactly where it is.
                if grad[i] != 0.0 || m[i] != 0.0 {
                    w[i] -= self.decays.corrected_step(self.lr, m[i], v[i], corrections);
                }
            }
            on_epoch(epoch, error);
        }
        mean_error(samples, w, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texel::features::{Entry, Features};

    fn sample(coef: i16, result: f64) -> Sample {
        let features = Features { phase: 32, red_to_move: true, entries: vec![Entry { pair: 0, coef }] };
        Sample { features, result }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let samples = vec![sample(1, 1.0), sample(-2, 0.0), sample(3, 0.5)];
        let mut w = vec![0.0; 4];
        w[0] = 40.0;
        let mut grad = vec![0.0; 4];
        gradient(&samples, &w, 0.01, &mut grad);
        let h = 1e-4;
        let mut up = w.clone();
        up[0] += h;
        let mut down = w.clone();
        down[0] -= h;
        let numeric = (mean_error(&samples, &up, 0.01) - mean_error(&samples, &down, 0.01)) / (2.0 * h);
        assert!((grad[0] - numeric).abs() < 1e-9, "{} vs {numeric}", grad[0]);
        assert_eq!(grad[1], 0.0, "phase 32 of 32: the endgame half plays no part");
    }

    #[test]
    fn the_ridge_penalty_holds_weights_back() {
        // All positions won with a positive coefficient: the weight grows, less so with a penalty.
        let samples = vec![sample(1, 1.0), sample(2, 1.0)];
        let mut free = vec![0.0; 4];
        Adam::new(50, 1.0).run(&samples, &mut free, 0.01, &mut |_, _| {});
        let mut held = vec![0.0; 4];
        Adam { l2: 1e-4, ..Adam::new(50, 1.0) }.run(&samples, &mut held, 0.01, &mut |_, _| {});
        assert!(free[0] > 20.0, "{free:?}");
        assert!(held[0] > 0.0 && held[0] < free[0] - 5.0, "{held:?} vs {free:?}");
        assert_eq!((free[1], free[2], free[3]), (0.0, 0.0, 0.0), "untouched weights stay put");
    }
}
