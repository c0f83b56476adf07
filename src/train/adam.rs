//! Adam over the whole network, dense, once per batch: every weight takes a step from its own
//! first and second moment estimates (`crate::adam`'s folded form), then is clipped to the
//! quantisation's limits.
//!
//! Dense rather than sparse ("lazy") on the feature weights: with batches of ~16k positions
//! nearly every input row is touched in each batch anyway, and a dense pass over the weights is a
//! few percent of a batch's time (docs/nnue-training.md has the measurement). It also keeps the
//! textbook semantics: an untouched weight still moves by its momentum.
//!
//! The step reads the gradients of every thread, sums them in thread order (so the result does
//! not depend on which thread finished first), and zeroes them for the next batch. The work is
//! split over threads by ranges of weights, which changes nothing in the result.

use crate::adam::{folded_step_size, Decays};
use crate::eval::nnue::architecture::Architecture;

use super::float::FloatNetwork;
use super::model::{ClipLimits, Gradients};

/// Weights handled per thread at the least: smaller tensors are updated by one thread.
const MIN_PARALLEL: usize = 1 << 15;

/// Adam's state: its settings, the number of steps taken and both moment estimates.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// The decays and ε.
    pub decays: Decays<f32>,
    /// Steps taken (the bias correction needs it).
    pub steps: u64,
    /// First moments, one per weight.
    pub m: Gradients,
    /// Second moments, one per weight.
    pub v: Gradients,
}

impl Adam {
    /// A fresh optimiser for a net of `arch`, with the usual decays and ε.
    pub fn new(arch: &Architecture) -> Adam {
        Adam { decays: Decays::usual(), steps: 0, m: Gradients::zeros(arch), v: Gradients::zeros(arch) }
    }

    /// One step of size `lr` on `net` along the mean gradient: the sum of `grads` (one per
    /// thread, added in order) over `batch` positions. Zeroes `grads`; clips every weight to
    /// `limits`; uses up to `threads` threads.
    pub fn step(
        &mut self,
        net: &mut FloatNetwork,
        grads: &mut [Gradients],
        batch: usize,
        lr: f64,
        limits: &ClipLimits,
        threads: usize,
    ) {
        self.steps += 1;
        let t = self.steps as f64;
        let d = self.decays;
        let step_size = folded_step_size(lr, d.beta1 as f64, d.beta2 as f64, t) as f32;
        let update = Update { decays: d, step_size, inv_batch: 1.0 / batch.max(1) as f32 };
        let weights = net.tensors_mut();
        let firsts = self.m.tensors_mut();
        let seconds = self.v.tensors_mut();
        let mut per_thread: Vec<Vec<&mut Vec<f32>>> = grads.iter_mut().map(|g| g.tensors_mut()).collect();
        let per_tensor = limits.per_tensor();
        for (j, ((w, m), v)) in weights.into_iter().zip(firsts).zip(seconds).enumerate() {
            let limit = per_tensor[j];
            let mut g: Vec<&mut [f32]> = per_thread.iter_mut().map(|t| t[j].as_mut_slice()).collect();
            let parts = threads.clamp(1, (w.len() / MIN_PARALLEL).max(1));
            if parts == 1 {
                update.apply(w, m, v, &mut g, limit);
                continue;
            }
            let chunk = w.len().div_ceil(parts).next_multiple_of(64);
            // Transpose: for each range of weights, that range of every thread's gradient.
            let mut ranges: Vec<Vec<&mut [f32]>> = (0..parts).map(|_| Vec::new()).collect();
            for grad in g {
                for (p, piece) in grad.chunks_mut(chunk).enumerate() {
                    ranges[p].push(piece);
                }
            }
            std::thread::scope(|s| {
                let jobs = w.chunks_mut(chunk).zip(m.chunks_mut(chunk)).zip(v.chunks_mut(chunk)).zip(ranges);
                for (((w, m), v), mut g) in jobs {
                    let update = &update;
                    s.spawn(move || update.apply(w, m, v, &mut g, limit));
                }
            });
        }
    }
}

/// What one step does to each weight.
struct Update {
    decays: Decays<f32>,
    step_size: f32,
    inv_batch: f32,
}

impl Update {
    /// Updates the weights `w` with moments `m`, `v` from the per-thread gradients `g` (all the
    /// same length), zeroing them, and clips the weights to ±`limit`.
    fn apply(&self, w: &mut [f32], m: &mut [f32], v: &mut [f32], g: &mut [&mut [f32]], limit: f32) {
        let Some((first, rest)) = g.split_first_mut() else { return };
        for other in rest.iter_mut() {
            for (a, b) in first.iter_mut().zip(other.iter_mut()) {
                *a += *b;
                *b = 0.0;
            }
        }
        let (d, size, inv) = (self.decays, self.step_size, self.inv_batch);
        for (((w, m), v), g) in w.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(first.iter_mut()) {
            let grad = *g * inv;
            *g = 0.0;
            d.moments(m, v, grad);
            *w = (*w - d.folded_step(size, *m, *v)).clamp(-limit, limit);
        }
    }
}
