//! The loss the trainer minimises, and the scale `K` that links centipawns to win probability.
//!
//! * The **target** of a position blends its two labels: `t = λ·σ(score/K) + (1−λ)·result`, with
//!   the search score in centipawns and the result 0, ½ or 1 (both from the side to move's view).
//! * The **prediction** is `p = σ(cp/K)` for the net's output `cp` in centipawns.
//! * The **loss** is the mean squared error `(p − t)²`. Squared error rather than cross-entropy:
//!   its gradient `2(p − t)·p(1 − p)` vanishes where the net is already sure and right *and* where
//!   it is sure and wrong, so the few positions whose result contradicts a clear score (a blunder
//!   later in the game) pull the net less than they would under cross-entropy, whose gradient
//!   `p − t` stays large for them; and its value, a squared probability error, reads the same
//!   whatever λ is. It is what the common NNUE trainers use with these labels.
//! * **K** is the sigmoid's scale in centipawns: given, or fitted to the data as the K for which
//!   `σ(score/K)` best predicts the results (least squares), the same fit Texel tuning makes.

/// K is fitted within this range of centipawns.
pub const K_RANGE: (f64, f64) = (10.0, 10_000.0);

/// The logistic function `1 / (1 + e^−x)`.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The logistic function in single precision (the training loop's).
#[inline]
pub fn sigmoid32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The result code of a record (0 loss, 1 draw, 2 win) as a probability: 0, ½, 1.
#[inline]
pub fn result_value(code: u8) -> f32 {
    code as f32 * 0.5
}

/// How a position's labels make its target: `λ·σ(score/K) + (1−λ)·result`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Blend {
    /// λ: the search score's share of the target (1: the score only, 0: the result only).
    pub lambda: f32,
    /// K, centipawns: `σ(cp/K)` is the win probability of a score of `cp`.
    pub k: f32,
}

impl Blend {
    /// The target of a position scored `score` centipawns whose game ended `result` (code 0..2).
    #[inline]
    pub fn target(self, score: i16, result: u8) -> f32 {
        self.lambda * sigmoid32(score as f32 / self.k) + (1.0 - self.lambda) * result_value(result)
    }

    /// The loss of predicting `cp` centipawns for a position whose target is `target`.
    #[inline]
    pub fn loss(self, cp: f32, target: f32) -> f32 {
        let d = sigmoid32(cp / self.k) - target;
        d * d
    }

    /// The loss and its derivative with respect to the predicted centipawns.
    #[inline]
    pub fn loss_and_slope(self, cp: f32, target: f32) -> (f32, f32) {
        let p = sigmoid32(cp / self.k);
        let d = p - target;
        (d * d, 2.0 * d * p * (1.0 - p) / self.k)
    }
}

/// Scores a record may hold: ±`format::MAX_SCORE`.
const SCORE_SPAN: i32 = crate::datagen::format::MAX_SCORE;

/// How often each (score, result) pair occurs: all that fitting K needs, however many positions.
#[derive(Clone, Debug)]
pub struct ScoreTable {
    /// `[losses, draws, wins]` of each score from −`SCORE_SPAN` to +`SCORE_SPAN`.
    counts: Vec<[u64; 3]>,
}

impl Default for ScoreTable {
    fn default() -> Self {
        ScoreTable::new()
    }
}

impl ScoreTable {
    /// An empty table.
    pub fn new() -> ScoreTable {
        ScoreTable { counts: vec![[0; 3]; 2 * SCORE_SPAN as usize + 1] }
    }

    /// Counts a position (scores beyond the records' range count as the range's ends).
    pub fn add(&mut self, score: i16, result: u8) {
        let i = (score as i32).clamp(-SCORE_SPAN, SCORE_SPAN) + SCORE_SPAN;
        self.counts[i as usize][result.min(2) as usize] += 1;
    }

    fn rows(&self) -> Vec<(i16, [u64; 3])> {
        let score = |i: usize| (i as i32 - SCORE_SPAN) as i16;
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().any(|&n| n > 0))
            .map(|(i, &c)| (score(i), c))
            .collect()
    }

    /// The mean of `(σ(score/K) − result)²` over the positions counted.
    pub fn error(&self, k: f64) -> f64 {
        error_of(&self.rows(), k)
    }

    /// The K in `K_RANGE` for which `σ(score/K)` best predicts the results: a scan of a
    /// logarithmic grid, then golden-section search around its best point. Deterministic.
    /// With no decisive game the best K is the largest (every score means a draw).
    pub fn fit_k(&self) -> f64 {
        let rows = self.rows();
        let error = |log_k: f64| error_of(&rows, log_k.exp());
        let (lo, hi) = (K_RANGE.0.ln(), K_RANGE.1.ln());
        let steps = 80;
        let grid = |i: usize| lo + (hi - lo) * i as f64 / steps as f64;
        let best = (0..=steps).min_by(|&a, &b| error(grid(a)).total_cmp(&error(grid(b)))).unwrap_or(0);
        let (mut a, mut b) = (grid(best.saturating_sub(1)), grid((best + 1).min(steps)));
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        let (mut c, mut d) = (b - ratio * (b - a), a + ratio * (b - a));
        let (mut fc, mut fd) = (error(c), error(d));
        for _ in 0..60 {
            if fc < fd {
                (b, d, fd) = (d, c, fc);
                c = b - ratio * (b - a);
                fc = error(c);
            } else {
                (a, c, fc) = (c, d, fd);
                d = a + ratio * (b - a);
                fd = error(d);
            }
        }
        ((a + b) / 2.0).exp()
    }
}

fn error_of(rows: &[(i16, [u64; 3])], k: f64) -> f64 {
    let (mut sum, mut n) = (0.0, 0u64);
    for &(score, counts) in rows {
        let p = sigmoid(score as f64 / k);
        for (r, &c) in counts.iter().enumerate() {
            let d = p - r as f64 * 0.5;
            sum += c as f64 * d * d;
            n += c;
        }
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_k_recovers_the_scale_the_results_were_drawn_with() {
        // Results drawn as wins with probability σ(score/150), else losses.
        let mut rng = super::super::rng::SplitMix64::new(3);
        let mut table = ScoreTable::new();
        for _ in 0..200_000 {
            let score = rng.below(1201) as i16 - 600;
            let p = sigmoid(score as f64 / 150.0);
            let win = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p;
            table.add(score, if win { 2 } else { 0 });
        }
        let k = table.fit_k();
        assert!((k - 150.0).abs() < 8.0, "fitted K {k}");
        assert!(table.error(k) < table.error(100.0) && table.error(k) < table.error(220.0));
    }

    #[test]
    fn the_target_blends_score_and_result() {
        let blend = Blend { lambda: 0.75, k: 100.0 };
        assert!((blend.target(0, 2) - (0.75 * 0.5 + 0.25)).abs() < 1e-6);
        assert!((blend.target(100, 0) - 0.75 * sigmoid(1.0) as f32).abs() < 1e-6);
        let score_only = Blend { lambda: 1.0, k: 100.0 };
        assert_eq!(score_only.loss(100.0, score_only.target(100, 0)), 0.0);
    }

    #[test]
    fn the_slope_is_the_derivative_of_the_loss() {
        let blend = Blend { lambda: 0.5, k: 160.0 };
        for (cp, t) in [(-300.0f32, 0.9f32), (0.0, 0.2), (250.0, 0.6), (40.0, 0.55)] {
            let (loss, slope) = blend.loss_and_slope(cp, t);
            assert_eq!(loss, blend.loss(cp, t));
            let h = 0.5f64;
            let f = |x: f64| {
                let d = sigmoid(x / 160.0) - t as f64;
                d * d
            };
            let numeric = (f(cp as f64 + h) - f(cp as f64 - h)) / (2.0 * h);
            assert!(
                (numeric - slope as f64).abs() < 1e-6 + 1e-3 * numeric.abs(),
                "{cp}: {numeric} vs {slope}"
            );
        }
    }
}
