//! Adam (Kingma and Ba, 2015), the optimiser of both fits: the Texel tuner of the classic weights
//! (`f64`, one full-batch step per epoch) and the NNUE trainer (`f32`, minibatches). Here once:
//! the usual decays, the moment update, and the two ways the paper writes the step.
//!
//! * `Decays::corrected_step`: `lr · m̂ / (√v̂ + ε)` with `m̂ = m / (1 − β₁ᵗ)` and
//!   `v̂ = v / (1 − β₂ᵗ)` (the paper's Algorithm 1). The Texel tuner takes it.
//! * `folded_step_size` and `Decays::folded_step`: the corrections folded into one step size
//!   `lr · √(1 − β₂ᵗ) / (1 − β₁ᵗ)`, then `size · m / (√v + ε)` (the paper's §2, cheaper per
//!   weight; ε then sits beside the uncorrected √v). The NNUE trainer takes it, for speed.
//!
//! Each fit keeps its own form so that its results stay bit for bit what they were; the two
//! differ only in where ε acts, which matters only for second moments near zero.

use std::ops::{Add, Div, Mul, Sub};

/// First-moment decay β₁, the paper's default.
pub const BETA1: f64 = 0.9;
/// Second-moment decay β₂, the paper's default.
pub const BETA2: f64 = 0.999;
/// ε, which keeps a step finite where the second moment is zero.
pub const EPSILON: f64 = 1e-8;

/// The floating-point types Adam runs in (`f32` and `f64`).
pub trait Real:
    Copy + PartialEq + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// One.
    const ONE: Self;
    /// `x` rounded to this type.
    fn from_f64(x: f64) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// `self` to the integer power `n`.
    fn powi(self, n: i32) -> Self;
}

macro_rules! real {
    ($($t:ident),*) => {$(
        impl Real for $t {
            const ONE: $t = 1.0;
            #[inline(always)]
            fn from_f64(x: f64) -> $t {
                x as $t
            }
            #[inline(always)]
            fn sqrt(self) -> $t {
                $t::sqrt(self)
            }
            #[inline(always)]
            fn powi(self, n: i32) -> $t {
                $t::powi(self, n)
            }
        }
    )*};
}
real!(f32, f64);

/// Adam's settings: both decays and ε.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Decays<F> {
    /// First-moment decay.
    pub beta1: F,
    /// Second-moment decay.
    pub beta2: F,
    /// Keeps the step finite where the second moment is zero.
    pub epsilon: F,
}

impl<F: Real> Decays<F> {
    /// The paper's defaults: β₁ 0.9, β₂ 0.999, ε 1e-8.
    pub fn usual() -> Decays<F> {
        Decays { beta1: F::from_f64(BETA1), beta2: F::from_f64(BETA2), epsilon: F::from_f64(EPSILON) }
    }

    /// Moves the moment estimates `m` and `v` of one weight toward its gradient `grad`.
    #[inline(always)]
    pub fn moments(&self, m: &mut F, v: &mut F, grad: F) {
        *m = self.beta1 * *m + (F::ONE - self.beta1) * grad;
        *v = self.beta2 * *v + (F::ONE - self.beta2) * grad * grad;
    }

    /// The bias corrections `(1 − β₁ᵗ, 1 − β₂ᵗ)` after `t` steps.
    pub fn corrections(&self, t: i32) -> (F, F) {
        (F::ONE - self.beta1.powi(t), F::ONE - self.beta2.powi(t))
    }

    /// How far one weight moves down its gradient, from its moments and the `corrections`:
    /// `lr · (m / c₁) / (√(v / c₂) + ε)`.
    #[inline(always)]
    pub fn corrected_step(&self, lr: F, m: F, v: F, (c1, c2): (F, F)) -> F {
        lr * (m / c1) / ((v / c2).sqrt() + self.epsilon)
    }

    /// How far one weight moves down its gradient with the corrections already in
    /// `size` (`folded_step_size`): `size · m / (√v + ε)`.
    #[inline(always)]
    pub fn folded_step(&self, size: F, m: F, v: F) -> F {
        size * m / (v.sqrt() + self.epsilon)
    }
}

/// The step size with both bias corrections folded in, after `t` steps of rate `lr` with decays
/// `beta1` and `beta2`: `lr · √(1 − β₂ᵗ) / (1 − β₁ᵗ)`, in `f64` whatever the weights are.
pub fn folded_step_size(lr: f64, beta1: f64, beta2: f64, t: f64) -> f64 {
    lr * (1.0 - beta2.powf(t)).sqrt() / (1.0 - beta1.powf(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_decays_are_the_literals_in_either_width() {
        assert_eq!(Decays::<f32>::usual(), Decays { beta1: 0.9f32, beta2: 0.999f32, epsilon: 1e-8f32 });
        assert_eq!(Decays::<f64>::usual(), Decays { beta1: 0.9, beta2: 0.999, epsilon: 1e-8 });
    }

    #[test]
    fn both_forms_agree_away_from_a_zero_second_moment() {
        let d = Decays::<f64>::usual();
        let (mut m, mut v) = (0.0, 0.0);
        for (t, g) in [0.5, -0.25, 2.0].into_iter().enumerate() {
            d.moments(&mut m, &mut v, g);
            let t = t as i32 + 1;
            let corrected = d.corrected_step(0.01, m, v, d.corrections(t));
            let folded = d.folded_step(folded_step_size(0.01, d.beta1, d.beta2, t as f64), m, v);
            // ε acts on √v̂ in one form and on √v in the other: a relative difference of about
            // ε / (√v̂ · √(1 − β₂ᵗ)), under 1e-6 here.
            assert!((corrected - folded).abs() < 1e-5 * corrected.abs(), "{corrected} vs {folded}");
        }
    }
}
