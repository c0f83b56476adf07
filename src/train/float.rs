//! The network in floating point, as the trainer updates it, and its quantisation into the
//! integer `Network` the engine evaluates (`eval::nnue::network`'s doc gives both semantics).

use rand::{Rng, SeedableRng};

#[cfg(test)]
use crate::board::Position;
#[cfg(test)]
use crate::eval::nnue::features::{self, MAX_ACTIVE};
use std::fmt;

use crate::eval::nnue::architecture::{Activation, Architecture, ArchitectureError, QH};
use crate::eval::nnue::layers::Dense;
use crate::eval::nnue::network::{Network, RangeError};

/// The tensors of a net or of its gradients (both laid out as `FloatNetwork`: feature weights
/// and biases, each hidden layer's weights and biases, output weights and biases), borrowed with
/// `&` or `&mut`: the one place that says the order the optimiser and the checkpoint rely on.
macro_rules! tensor_list {
    ($s:expr, $($borrow:tt)+) => {{
        let mut out = vec![$($borrow)+ $s.feature_weights, $($borrow)+ $s.feature_bias];
        for layer in $($borrow)+ $s.hidden {
            out.push($($borrow)+ layer.weights);
            out.push($($borrow)+ layer.bias);
        }
        out.push($($borrow)+ $s.output_weights);
        out.push($($borrow)+ $s.output_bias);
        out
    }};
}
pub(crate) use tensor_list;

/// The hidden layer's activation in floating point: `clamp(x, 0, 1)`, squared for SCReLU.
#[inline(always)]
pub fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::CRelu => c,
        Activation::SCRelu => c * c,
    }
}

/// One hidden layer in floating point, for every output bucket (`layers::Dense`'s layout).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatLayer {
    /// Inputs of each neuron.
    pub inputs: usize,
    /// Neurons.
    pub outputs: usize,
    /// `[(bucket · outputs + neuron) · inputs + input]`.
    pub weights: Vec<f32>,
    /// `[bucket · outputs + neuron]`.
    pub bias: Vec<f32>,
}

impl FloatLayer {
    /// Every hidden layer of `arch`, all zero.
    pub fn zeros(arch: &Architecture) -> Vec<FloatLayer> {
        let shapes = arch.dense_shapes();
        let b = arch.output_buckets;
        shapes[..shapes.len() - 1]
            .iter()
            .map(|&(inputs, outputs)| FloatLayer {
                inputs,
                outputs,
                weights: vec![0.0; b * outputs * inputs],
                bias: vec![0.0; b * outputs],
            })
            .collect()
    }
}

/// A network in floating point: what a trainer updates and `quantise` turns into a `Network`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// The shape.
    pub arch: Architecture,
    /// Feature weights, one row of `width` per input: `[input * width + neuron]`.
    pub feature_weights: Vec<f32>,
    /// Feature transformer bias, `width` values.
    pub feature_bias: Vec<f32>,
    /// The hidden layers, first to last (none for a one-layer net).
    pub hidden: Vec<FloatLayer>,
    /// Output weights per bucket: `[bucket * inputs + i]`, over the last hidden layer or, without
    /// one, the `2·width` activated accumulators (the side to move's half first).
    pub output_weights: Vec<f32>,
    /// Output bias per bucket.
    pub output_bias: Vec<f32>,
}

impl FloatNetwork {
    /// A network of `arch` with every weight zero.
    pub fn zeros(arch: Architecture) -> FloatNetwork {
        FloatNetwork {
            arch,
            feature_weights: vec![0.0; arch.feature_weight_count()],
            feature_bias: vec![0.0; arch.width],
            hidden: FloatLayer::zeros(&arch),
            output_weights: vec![0.0; arch.output_weight_count()],
            output_bias: vec![0.0; arch.output_buckets],
        }
    }

    /// The tensors, in the order of `Gradients::tensors_mut` (the optimiser's and the
    /// checkpoint's): feature weights and biases, each hidden layer's weights and biases, output
    /// weights and biases.
    pub fn tensors(&self) -> Vec<&Vec<f32>> {
        tensor_list!(self, &)
    }

    /// The tensors to change, in the order of `tensors`.
    pub fn tensors_mut(&mut self) -> Vec<&mut Vec<f32>> {
        tensor_list!(self, &mut)
    }

    /// A network of `arch` with random weights from `seed` (the same seed gives the same net):
    /// feature weights uniform in ±0.1, biases near the middle of the clipping range, output
    /// weights uniform in ±1/√(2·width), so that scores stay within a few hundred centipawns.
    /// Hidden layers: weights uniform in ±1/√inputs, biases in 0.25..0.75 (most neurons start
    /// inside the clipping range, where they pass gradients); the output layer's weights are then
    /// uniform in ±1/√L over the last hidden layer's L neurons. A net without hidden layers draws
    /// the same numbers as before they existed.
    pub fn random(arch: Architecture, seed: u64) -> FloatNetwork {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut net = FloatNetwork::zeros(arch);
        net.feature_weights.iter_mut().for_each(|w| *w = rng.gen_range(-0.1..=0.1));
        net.feature_bias.iter_mut().for_each(|b| *b = rng.gen_range(0.2..=0.6));
        let out = 1.0 / (arch.output_inputs() as f32).sqrt();
        net.output_weights.iter_mut().for_each(|w| *w = rng.gen_range(-out..=out));
        net.output_bias.iter_mut().for_each(|b| *b = rng.gen_range(-0.05..=0.05));
        for layer in &mut net.hidden {
            let limit = 1.0 / (layer.inputs as f32).sqrt();
            layer.weights.iter_mut().for_each(|w| *w = rng.gen_range(-limit..=limit));
            layer.bias.iter_mut().for_each(|b| *b = rng.gen_range(0.25..=0.75));
        }
        net
    }

    /// The float net a quantised `net` stands for: each weight divided by its scale, so that
    /// `quantise` gives `net`'s weights back exactly. A run started from it (`--init`) trains
    /// on from where `net` left off.
    pub fn from_quantised(net: &Network) -> FloatNetwork {
        let q = net.arch.quantisation;
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        let scaled = |values: &[i16], scale: f32| values.iter().map(|&v| v as f32 / scale).collect();
        FloatNetwork {
            arch: net.arch,
            feature_weights: scaled(&net.feature_weights, qa),
            feature_bias: scaled(&net.feature_bias, qa),
            hidden: net
                .hidden
                .iter()
                .enumerate()
                .map(|(l, layer)| {
                    let bias_scale = net.arch.dense_input_scale(l) as f64 * QH as f64;
                    FloatLayer {
                        inputs: layer.inputs,
                        outputs: layer.outputs,
                        weights: scaled(&layer.weights, QH as f32),
                        bias: layer.bias.iter().map(|&v| (v as f64 / bias_scale) as f32).collect(),
                    }
                })
                .collect(),
            output_weights: scaled(&net.output_weights, qb),
            output_bias: net
                .output_bias
                .iter()
                .map(|&v| (v as f64 / (net.arch.output_input_scale() as f64 * qb as f64)) as f32)
                .collect(),
        }
    }

    /// The accumulator (before the activation) of the features `active`.
    pub fn accumulate(&self, active: &[usize]) -> Vec<f32> {
        let n = self.arch.width;
        let mut acc = self.feature_bias.clone();
        for &f in active {
            for (a, w) in acc.iter_mut().zip(&self.feature_weights[f * n..(f + 1) * n]) {
                *a += w;
            }
        }
        acc
    }

    /// The float output `y` (multiply by `scale` for centipawns) for the side to move's features
    /// `us`, the other side's `them`, and the output bucket.
    pub fn forward(&self, us: &[usize], them: &[usize], bucket: usize) -> f32 {
        let n = self.arch.width;
        let act = self.arch.activation;
        if !self.hidden.is_empty() {
            let mut x: Vec<f32> = self
                .accumulate(us)
                .into_iter()
                .chain(self.accumulate(them))
                .map(|a| activate(act, a))
                .collect();
            for (l, layer) in self.hidden.iter().enumerate() {
                let act = if l == 0 { self.arch.hidden.first_activation() } else { Activation::CRelu };
                x = (0..layer.outputs)
                    .map(|j| {
                        let at = (bucket * layer.outputs + j) * layer.inputs;
                        let w = &layer.weights[at..at + layer.inputs];
                        let z = layer.bias[bucket * layer.outputs + j]
                            + x.iter().zip(w).map(|(a, b)| a * b).sum::<f32>();
                        activate(act, z)
                    })
                    .collect();
            }
            let w = &self.output_weights[bucket * x.len()..(bucket + 1) * x.len()];
            return self.output_bias[bucket] + x.iter().zip(w).map(|(a, b)| a * b).sum::<f32>();
        }
        let w = &self.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let half =
            |acc: Vec<f32>, w: &[f32]| acc.iter().zip(w).map(|(&a, &w)| activate(act, a) * w).sum::<f32>();
        self.output_bias[bucket] + half(self.accumulate(us), &w[..n]) + half(self.accumulate(them), &w[n..])
    }

    /// The score of `pos` in centipawns, from the side to move's view, unrounded: what the
    /// quantised net approximates (only the tests compare them).
    #[cfg(test)]
    pub fn evaluate_cp(&self, pos: &Position) -> f32 {
        let (us, them) = (pos.side_to_move(), pos.side_to_move().opponent());
        let (mut a, mut b) = (Vec::with_capacity(MAX_ACTIVE), Vec::with_capacity(MAX_ACTIVE));
        self.arch.features.active_features(pos, us, &mut a);
        self.arch.features.active_features(pos, them, &mut b);
        let bucket = features::output_bucket(features::non_king_pieces(pos), self.arch.output_buckets);
        self.forward(&a, &b, bucket) * self.arch.quantisation.scale as f32
    }

    /// The integer network: each weight rounded at its scale (see the module's doc). Refused when
    /// a weight does not fit its integer type or the net could overflow its sums.
    pub fn quantise(&self) -> Result<Network, QuantiseError> {
        self.arch.validate()?;
        let q = self.arch.quantisation;
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        let to_i16 = |what: &'static str, values: &[f32], scale: f32| -> Result<Vec<i16>, QuantiseError> {
            values
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    let v = (x * scale).round();
                    if v.is_finite() && (i16::MIN as f32..=i16::MAX as f32).contains(&v) {
                        Ok(v as i16)
                    } else {
                        Err(QuantiseError::DoesNotFit {
                            what,
                            index: i,
                            value: x,
                            scaled: v as f64,
                            bits: 16,
                        })
                    }
                })
                .collect()
        };
        let output_bias = self
            .output_bias
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let v = (x as f64 * self.arch.output_input_scale() as f64 * qb as f64).round();
                if v.is_finite() && (i32::MIN as f64..=i32::MAX as f64).contains(&v) {
                    Ok(v as i32)
                } else {
                    Err(QuantiseError::DoesNotFit {
                        what: "output bias",
                        index: i,
                        value: x,
                        scaled: v,
                        bits: 32,
                    })
                }
            })
            .collect::<Result<Vec<i32>, QuantiseError>>()?;
        let mut hidden = Vec::with_capacity(self.hidden.len());
        for (l, layer) in self.hidden.iter().enumerate() {
            let bias_scale = self.arch.dense_input_scale(l) as f64 * QH as f64;
            let bias = layer
                .bias
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    let v = (x as f64 * bias_scale).round();
                    if v.is_finite() && (i32::MIN as f64..=i32::MAX as f64).contains(&v) {
                        Ok(v as i32)
                    } else {
                        Err(QuantiseError::DoesNotFit {
                            what: "hidden bias",
                            index: i,
                            value: x,
                            scaled: v,
                            bits: 32,
                        })
                    }
                })
                .collect::<Result<Vec<i32>, QuantiseError>>()?;
            hidden.push(Dense::new(
                layer.inputs,
                layer.outputs,
                to_i16("hidden weight", &layer.weights, QH as f32)?,
                bias,
            ));
        }
        let net = Network {
            arch: self.arch,
            feature_weights: to_i16("feature weight", &self.feature_weights, qa)?,
            feature_bias: to_i16("feature bias", &self.feature_bias, qa)?,
            hidden,
            output_weights: to_i16("output weight", &self.output_weights, qb)?,
            output_bias,
            description: String::new(),
            win_rate: crate::eval::nnue::network::DEFAULT_WIN_RATE,
        };
        net.check_ranges()?;
        Ok(net)
    }
}

/// Why a float net has no quantised form.
#[derive(Clone, Debug, PartialEq)]
pub enum QuantiseError {
    /// The architecture is not one the engine evaluates.
    Architecture(ArchitectureError),
    /// A weight times its scale does not fit its integer type.
    DoesNotFit {
        /// Which tensor (`feature weight`, `output bias`, ...).
        what: &'static str,
        /// Its index in the tensor.
        index: usize,
        /// The float value.
        value: f32,
        /// The value times its scale, rounded.
        scaled: f64,
        /// Bits of the integer type.
        bits: u32,
    },
    /// The integer sums could overflow.
    Range(RangeError),
}

impl fmt::Display for QuantiseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantiseError::Architecture(e) => e.fmt(f),
            // A 16-bit weight is scaled in f32, an output bias in f64: each prints as computed.
            QuantiseError::DoesNotFit { what, index, value, scaled, bits: 16 } => {
                write!(f, "{what} {index} is {value}: {} does not fit in 16 bits", *scaled as f32)
            }
            QuantiseError::DoesNotFit { what, index, value, scaled, bits } => {
                write!(f, "{what} {index} is {value}: {scaled} does not fit in {bits} bits")
            }
            QuantiseError::Range(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for QuantiseError {}

impl From<ArchitectureError> for QuantiseError {
    fn from(e: ArchitectureError) -> QuantiseError {
        QuantiseError::Architecture(e)
    }
}

impl From<RangeError> for QuantiseError {
    fn from(e: RangeError) -> QuantiseError {
        QuantiseError::Range(e)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::movegen;
    use crate::eval::nnue::{FeatureSet, KingBuckets, Quantisation};

    fn small(activation: Activation, buckets: KingBuckets, mirror: bool) -> Architecture {
        Architecture {
            features: FeatureSet { king_buckets: buckets, mirror, relations: false },
            width: 32,
            activation,
            output_buckets: 4,
            quantisation: Quantisation::DEFAULT,
            hidden: crate::eval::nnue::Hidden::NONE,
        }
    }

    /// Positions along random games from the start, `count` of them.
    pub(crate) fn random_positions(seed: u64, count: usize) -> Vec<Position> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < count {
            let moves = movegen::legal_moves(&mut pos);
            if moves.is_empty() || pos.game_ply() > 150 {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn colour_flipped_twins_score_the_same() {
        let net =
            FloatNetwork::random(Architecture { width: 32, ..Architecture::DEFAULT }, 2).quantise().unwrap();
        for pos in random_positions(4, 200) {
            assert_eq!(net.evaluate(&pos), net.evaluate(&pos.color_flipped()), "{pos:?}");
        }
    }

    /// Asserts that `float` and its quantised form score 300 random positions (from `seed`)
    /// within `absolute + relative·|score|` centipawns and tell more than `distinct` of them
    /// apart; returns the worst error beyond the relative share.
    fn assert_quantised_agrees(
        float: &FloatNetwork,
        seed: u64,
        (absolute, relative): (f32, f32),
        distinct: usize,
        label: &str,
    ) -> f32 {
        let net = float.quantise().unwrap();
        let mut scores = std::collections::HashSet::new();
        let mut worst = f32::MIN;
        for pos in random_positions(seed, 300) {
            let (exact, quantised) = (float.evaluate_cp(&pos), net.evaluate(&pos) as f32);
            scores.insert(net.evaluate(&pos));
            let error = (exact - quantised).abs();
            worst = worst.max(error - relative * exact.abs());
            assert!(error <= absolute + relative * exact.abs(), "{label} {pos:?}: {exact} vs {quantised}");
        }
        assert!(scores.len() > distinct, "{label}: the random net must tell positions apart");
        worst
    }

    /// Quantised and float nets agree within 1% of the score's size plus 4 centipawns (the
    /// rounding of ~33 feature weights at 1/510 each and of the output weights at 1/128 each).
    #[test]
    fn quantised_agrees_with_float() {
        let mut worst = 0.0f32;
        for activation in Activation::ALL {
            for (buckets, mirror) in [(KingBuckets::Palace, true), (KingBuckets::Rank, false)] {
                let float = FloatNetwork::random(small(activation, buckets, mirror), 5);
                let label = format!("{activation:?}");
                worst = worst.max(assert_quantised_agrees(&float, 9, (4.0, 0.01), 50, &label));
            }
        }
        eprintln!("worst excess over 1%: {worst} cp");
    }

    /// Dequantising and quantising again gives the same integers, and the float net scores as
    /// the quantised one does (within the rounding of the output).
    #[test]
    fn a_quantised_net_round_trips_through_floats() {
        for activation in Activation::ALL {
            let arch = small(activation, KingBuckets::Palace, true);
            let net = FloatNetwork::random(arch, 17).quantise().unwrap();
            let float = FloatNetwork::from_quantised(&net);
            assert_ne!(float, FloatNetwork::random(arch, 17), "the weights are the rounded ones");
            let again = float.quantise().unwrap();
            assert!(again == net, "{activation:?}: the integers change on the way back");
            for pos in random_positions(3, 100) {
                let (exact, quantised) = (float.evaluate_cp(&pos), net.evaluate(&pos) as f32);
                assert!((exact - quantised).abs() <= 2.0, "{activation:?} {pos:?}: {exact} vs {quantised}");
            }
        }
    }

    fn with_hidden(arch: Architecture, sizes: &[usize]) -> Architecture {
        Architecture { hidden: crate::eval::nnue::Hidden::new(sizes).unwrap(), ..arch }
    }

    /// With hidden layers, the quantised net agrees with the float net within 2% of the score's
    /// size plus 6 centipawns: the feature transformer's rounding (as above) goes through the
    /// hidden layers, whose values are rounded to 1/255 and weights to 1/1024 each.
    #[test]
    fn quantised_agrees_with_float_with_hidden_layers() {
        let mut worst = 0.0f32;
        for activation in Activation::ALL {
            for (sizes, first) in [
                (&[16][..], Activation::CRelu),
                (&[16, 32], Activation::CRelu),
                (&[32, 32], Activation::CRelu),
                (&[16], Activation::SCRelu),
                (&[16, 32], Activation::SCRelu),
            ] {
                let mut arch = with_hidden(small(activation, KingBuckets::Palace, true), sizes);
                arch.hidden = arch.hidden.with_first_activation(first);
                let float = FloatNetwork::random(arch, 6);
                let label = format!("{activation:?} {sizes:?} {first:?}");
                worst = worst.max(assert_quantised_agrees(&float, 10, (6.0, 0.02), 30, &label));
            }
        }
        eprintln!("hidden: worst excess over 2%: {worst} cp");
    }

    /// The hidden values' rounding, and the score's to whole centipawns (half a centipawn on
    /// average), are all that separate a net whose weights are exact at their scales (a quantised
    /// net brought back to floats) with CReLU accumulators from its float twin. At the finer
    /// scale QV = 16·QA they stay under 0.8 cp on average (0.54 and 0.68 cp); at the first scale
    /// (QA) the first net was 3.3 cp from its twin.
    #[test]
    fn hidden_values_lose_little_to_rounding() {
        for (sizes, first) in [(&[32, 32][..], Activation::CRelu), (&[32][..], Activation::SCRelu)] {
            let mut arch = with_hidden(small(Activation::CRelu, KingBuckets::Palace, true), sizes);
            arch.hidden = arch.hidden.with_first_activation(first);
            let mut float = FloatNetwork::random(arch, 7);
            // Output weights as large as trained nets' magnify the rounding.
            float.output_weights.iter_mut().for_each(|w| *w *= 16.0);
            let net = float.quantise().unwrap();
            let exact = FloatNetwork::from_quantised(&net);
            let positions = random_positions(12, 300);
            let total: f32 =
                positions.iter().map(|p| (exact.evaluate_cp(p) - net.evaluate(p) as f32).abs()).sum();
            let error = total / positions.len() as f32;
            assert!(error < 0.8, "{sizes:?} {first:?}: mean error {error} cp");
        }
    }

    /// A net with hidden layers dequantises and quantises back to the same integers.
    #[test]
    fn a_quantised_net_with_hidden_layers_round_trips_through_floats() {
        let arch = with_hidden(small(Activation::SCRelu, KingBuckets::Rank, false), &[16, 32]);
        let net = FloatNetwork::random(arch, 18).quantise().unwrap();
        let float = FloatNetwork::from_quantised(&net);
        assert!(float.quantise().unwrap() == net, "the integers change on the way back");
        for pos in random_positions(4, 100) {
            let (exact, quantised) = (float.evaluate_cp(&pos), net.evaluate(&pos) as f32);
            assert!((exact - quantised).abs() <= 6.0, "{pos:?}: {exact} vs {quantised}");
        }
    }

    /// Hidden weights and biases too large for their integers are refused by name.
    #[test]
    fn oversized_hidden_weights_are_refused_with_what_and_where() {
        let arch = with_hidden(small(Activation::CRelu, KingBuckets::Single, false), &[16]);
        let mut float = FloatNetwork::zeros(arch);
        float.hidden[0].weights[5] = 40.0;
        assert!(float.quantise().unwrap_err().to_string().contains("hidden weight 5"));
        float.hidden[0].weights[5] = 0.0;
        float.hidden[0].bias[3] = 1e5;
        assert!(float.quantise().unwrap_err().to_string().contains("hidden bias 3"));
        float.hidden[0].bias[3] = 0.0;
        // A bias of 8000 (2.09e9 at scale 255·1024, within i32) and 64 inputs of 30 at scale
        // 1024 times 255: together more than i32 holds.
        float.hidden[0].bias[1] = 8000.0;
        float.hidden[0].weights[64..128].iter_mut().for_each(|w| *w = 30.0);
        let err = float.quantise().unwrap_err().to_string();
        assert!(err.contains("hidden layer 1 of output bucket 0: neuron 1"), "{err}");
    }

    #[test]
    fn zero_net_scores_its_output_bias() {
        let arch = small(Activation::CRelu, KingBuckets::Single, false);
        let mut float = FloatNetwork::zeros(arch);
        float.output_bias = vec![0.25; 4];
        let net = float.quantise().unwrap();
        // 0.25 · 400 = 100 centipawns, exactly.
        assert_eq!(net.evaluate(&Position::startpos()), 100);
    }

    #[test]
    fn oversized_weights_are_refused_with_what_and_where() {
        let arch = small(Activation::SCRelu, KingBuckets::Single, false);
        let mut float = FloatNetwork::zeros(arch);
        float.feature_weights[70] = 200.0;
        assert!(float.quantise().unwrap_err().to_string().contains("feature weight 70"));
        float.feature_weights[70] = 0.0;
        float.feature_weights.iter_mut().step_by(arch.width).for_each(|w| *w = 20.0);
        let err = float.quantise().unwrap_err().to_string();
        assert!(err.contains("accumulator neuron 0"), "{err}");
        let mut float = FloatNetwork::zeros(arch);
        float.output_weights[2 * arch.width + 3] = 40.0;
        assert!(float.quantise().unwrap_err().to_string().contains("output weight 67"));
        // At QA 8192 a full activation times 64 weights of 30 · 1024 passes 2³¹.
        float.arch.quantisation.qa = 8192;
        float.arch.activation = Activation::CRelu;
        float.output_weights.iter_mut().for_each(|w| *w = 30.0);
        let err = float.quantise().unwrap_err().to_string();
        assert!(err.contains("output bucket 0"), "{err}");
    }
}
