//! The gain sequences of SPSA (Spall 1998), in the form fishtest uses: each parameter's
//! perturbation `c` and learning rate `a` shrink with the iteration, so that they reach the
//! parameter's `C_END` and `R_END × C_END²` at the last one.
//!
//! At iteration k (counted from 0) of N, with the stability constant A (a tenth of N):
//!
//! - `c_k = C_END × (N / (k + 1))^γ`, γ = 0.101;
//! - `a_k = R_END × C_END² × ((A + N) / (A + k + 1))^α`, α = 0.602.
//!
//! A pair's result r (the `+` side's wins less its losses, −2 to 2) moves the value by
//! `a_k / c_k × r` in the direction of the `+` side.

use super::param::ParamSpec;

/// The learning rate's decay exponent (Spall's recommended 0.602).
pub const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent (Spall's recommended 0.101).
pub const GAMMA: f64 = 0.101;
/// The stability constant as a share of the iterations (fishtest's default).
pub const STABILITY_SHARE: f64 = 0.1;

/// The gains of a run of `iterations` game pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    iterations: f64,
    stability: f64,
}

impl Gains {
    /// The gains of a run of `iterations` (at least 1) pairs.
    pub fn new(iterations: u32) -> Gains {
        let n = f64::from(iterations.max(1));
        Gains { iterations: n, stability: STABILITY_SHARE * n }
    }

    /// How far each side of iteration `k`'s pair lies from the tuned value.
    pub fn perturbation(&self, spec: &ParamSpec, k: u32) -> f64 {
        spec.c_end * (self.iterations / (f64::from(k) + 1.0)).powf(GAMMA)
    }

    /// Iteration `k`'s learning rate.
    pub fn learning_rate(&self, spec: &ParamSpec, k: u32) -> f64 {
        let a_end = spec.r_end * spec.c_end * spec.c_end;
        a_end * ((self.stability + self.iterations) / (self.stability + f64::from(k) + 1.0)).powf(ALPHA)
    }

    /// How far a pair's result of 1 at iteration `k` moves the value.
    pub fn step(&self, spec: &ParamSpec, k: u32) -> f64 {
        self.learning_rate(spec, k) / self.perturbation(spec, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(c_end: f64, r_end: f64) -> ParamSpec {
        ParamSpec { name: "x".into(), start: 0.0, min: -1000.0, max: 1000.0, c_end, r_end }
    }

    #[test]
    fn the_gains_reach_their_end_values_at_the_last_iteration_and_shrink_before() {
        let gains = Gains::new(1000);
        let s = spec(8.0, 0.002);
        assert!((gains.perturbation(&s, 999) - 8.0).abs() < 1e-9);
        assert!((gains.learning_rate(&s, 999) - 0.002 * 64.0).abs() < 1e-9);
        // At the first: c × 1000^0.101 (about 2.01×), a × (1100 / 101)^0.602 (about 4.21×).
        assert!((gains.perturbation(&s, 0) / 8.0 - 1000f64.powf(0.101)).abs() < 1e-9);
        assert!((gains.learning_rate(&s, 0) / 0.128 - (1100.0f64 / 101.0).powf(0.602)).abs() < 1e-9);
        for k in 1..1000 {
            assert!(gains.perturbation(&s, k) < gains.perturbation(&s, k - 1));
            assert!(gains.learning_rate(&s, k) < gains.learning_rate(&s, k - 1));
        }
        assert!((gains.step(&s, 999) - 0.128 / 8.0).abs() < 1e-12);
    }
}
