//! An untrained net of any architecture, built on the inference side: small pseudo-random
//! integer weights from a seed, for tests and benchmarks of the evaluation and the net file,
//! which then need nothing of the trainer.
//!
//! The weights follow the trainer's random start (`train::FloatNetwork::random`) in scale, so the
//! net scores positions in a plausible range, but not in value: the two give different nets for
//! the same seed. Every weight stays far inside the ranges `Network::check_ranges` demands, for
//! every architecture that validates.

use super::architecture::{Architecture, ArchitectureError, QH};
use super::layers::Dense;
use super::network::{Network, DEFAULT_WIN_RATE};

/// SplitMix64: a few lines, and the same numbers on every platform.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A whole number in `low..=high`.
    fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = (high - low + 1) as u64;
        low + (self.next() % span) as i64
    }

    /// `count` whole numbers in `low..=high`.
    fn values(&mut self, count: usize, low: i64, high: i64) -> Vec<i64> {
        (0..count).map(|_| self.between(low, high)).collect()
    }
}

/// `x · scale`, rounded, as a whole number (at least 1 where `x` is positive).
fn scaled(x: f64, scale: f64) -> i64 {
    ((x * scale).round() as i64).max(1)
}

impl Network {
    /// A net of `arch` with pseudo-random weights from `seed`: feature weights within ±0.1,
    /// feature biases in 0.2..0.6, each dense layer's weights within ±1/√inputs (in their
    /// scales). The same `arch` and `seed` give the same net on every platform.
    pub fn random(arch: Architecture, seed: u64) -> Result<Network, ArchitectureError> {
        arch.validate()?;
        let mut rng = SplitMix(seed);
        let q = arch.quantisation;
        let (qa, qb) = (q.qa as f64, q.qb as f64);
        let to_i16 = |values: Vec<i64>| values.into_iter().map(|v| v as i16).collect::<Vec<i16>>();
        let to_i32 = |values: Vec<i64>| values.into_iter().map(|v| v as i32).collect::<Vec<i32>>();
        let feature = scaled(0.1, qa);
        let feature_weights = to_i16(rng.values(arch.feature_weight_count(), -feature, feature));
        let feature_bias = to_i16(rng.values(arch.width, scaled(0.2, qa), scaled(0.6, qa)));
        let buckets = arch.output_buckets;
        let shapes = arch.dense_shapes();
        let mut hidden = Vec::with_capacity(shapes.len() - 1);
        for (layer, &(inputs, outputs)) in shapes[..shapes.len() - 1].iter().enumerate() {
            let limit = scaled(1.0 / (inputs as f64).sqrt(), QH as f64);
            let weights = to_i16(rng.values(buckets * outputs * inputs, -limit, limit));
            let bias_scale = arch.dense_input_scale(layer) as f64 * QH as f64;
            let bias =
                to_i32(rng.values(buckets * outputs, scaled(0.25, bias_scale), scaled(0.75, bias_scale)));
            hidden.push(Dense::new(inputs, outputs, weights, bias));
        }
        let out = scaled(1.0 / (arch.output_inputs() as f64).sqrt(), qb);
        let output_weights = to_i16(rng.values(arch.output_weight_count(), -out, out));
        let bias = scaled(0.05, arch.output_input_scale() as f64 * qb);
        let output_bias = to_i32(rng.values(buckets, -bias, bias));
        Ok(Network {
            arch,
            feature_weights,
            feature_bias,
            hidden,
            output_weights,
            output_bias,
            description: String::new(),
            win_rate: DEFAULT_WIN_RATE,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::architecture::{Activation, Hidden, Quantisation, MAX_HIDDEN, MAX_WIDTH};
    use crate::eval::nnue::features::{FeatureSet, KingBuckets};

    /// The widest nets, with relation inputs and two of the widest hidden layers, are still in
    /// range: the loader would take every net this makes.
    #[test]
    fn every_valid_architecture_gives_a_net_in_range() {
        for (width, hidden, relations) in [
            (16, Hidden::NONE, false),
            (MAX_WIDTH, Hidden::NONE, true),
            (MAX_WIDTH, Hidden::new(&[MAX_HIDDEN, MAX_HIDDEN]).unwrap(), true),
        ] {
            let arch = Architecture {
                features: FeatureSet { king_buckets: KingBuckets::Single, mirror: true, relations },
                width,
                output_buckets: 2,
                hidden,
                ..Architecture::DEFAULT
            };
            let net = Network::random(arch, 1).unwrap();
            assert_eq!(net.check_ranges(), Ok(()), "{arch}");
        }
    }

    /// The same seed gives the same net, another seed another, and a wrong architecture is
    /// refused with the reason.
    #[test]
    fn the_seed_decides_the_weights() {
        let arch = Architecture { width: 32, output_buckets: 3, ..Architecture::DEFAULT };
        assert_eq!(Network::random(arch, 7), Network::random(arch, 7));
        assert_ne!(Network::random(arch, 7), Network::random(arch, 8));
        let net = Network::random(arch, 7).unwrap();
        assert!(net.feature_weights.iter().any(|&w| w < 0) && net.feature_weights.iter().any(|&w| w > 0));
        assert!(net.feature_weights.iter().all(|&w| w.abs() <= 26));
        let bad = Architecture {
            activation: Activation::SCRelu,
            quantisation: Quantisation { qa: 300, ..Quantisation::DEFAULT },
            ..arch
        };
        assert_eq!(Network::random(bad, 1), Err(ArchitectureError::ScreluQa(300)));
    }
}
