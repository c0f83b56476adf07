//! The network: the quantised integer form the engine evaluates with (its shape is
//! `architecture::Architecture`; the float form a trainer works on is `train::FloatNetwork`).
//!
//! Shape: `inputs → width` (the feature transformer, one accumulator per perspective), an
//! activation on both accumulators, then `2·width → 1` (the side to move's half first), with one
//! output layer per output bucket chosen by the material on the board.
//!
//! Float semantics (what the trainer computes): `a = bias + Σ W[feature]` per perspective,
//! `h = clamp(a, 0, 1)` (CReLU) or `clamp(a, 0, 1)²` (SCReLU), `y = b_out + Σ h·w_out`, and the
//! score is `y · scale` centipawns from the side to move's view.
//!
//! Quantised semantics (what the engine computes, in integers): feature weights and biases are
//! `round(x · QA)` as i16, output weights `round(x · QB)` as i16, the output bias `round(x · QA · QB)`
//! as i32. With `v = clamp(acc, 0, QA)` for each of the `2·width` accumulator values:
//! * CReLU: `sum = Σ v·w`,
//! * SCReLU: `sum = Σ ((v² · M) >> 16) · w`, where `M = min((2¹⁶ + QA/2) / QA, 65535)` (integer
//!   division) brings `v²` (scale QA²) back to scale QA before the multiplication; SCReLU nets
//!   need QA ≤ 255 so that `v²` fits in 16 bits,
//!
//! and the score is `(sum + b_out) · scale / (QA · QB)` in i64, rounded toward zero, as centipawns.
//!
//! **Hidden layers** (optional, `Architecture::hidden`, e.g. `16, 32`): one stack per output
//! bucket, `2·width → L1 [→ L2] → 1`. Float: `a` is the `2·width` activated accumulator values
//! above (side to move first), each hidden layer computes `z = b + W·x` and `h = clamp(z, 0, 1)`
//! (clipped ReLU; the first hidden layer's may be squared, `clamp(z, 0, 1)²`,
//! `Hidden::first_activation`) from the previous layer's `x` (`a` for the first), and the output is
//! `y = b_out + Σ h·w_out` over the last hidden layer. Quantised: `a` is the `2·width` values `v`
//! (CReLU) or `(v² · M) >> 16` (SCReLU) as above, integers in `0..=QA`. The hidden values are
//! kept at the finer scale `QV = QA · 16` (`layers::HIDDEN_VALUE_BITS`, net format version 5). A
//! hidden layer's weights are `round(w · QH)` as i16, with `QH = 2^HIDDEN_SHIFT = 1024`
//! (`layers::QH`), and its biases `round(b · S · QH)` as i32, where `S` is its inputs' scale (QA
//! for the first layer, QV after); it computes `s = b + Σ x·w` in i32 and
//! `h = clamp(round(s · QV / (S · QH)), 0, QV)`, an arithmetic shift rounding half up
//! (`layers::hidden_shift`), so that `h` is at scale QV; where the first layer's activation is
//! SCReLU, its values are squared, `(h² · M) >> (16 + 4)`, staying at QV. The output layer is
//! today's over the last `h`: `sum = Σ h·w` (weights `round(w · QB)` as i16, bias
//! `round(b · QV · QB)`), and the score `(sum + b_out) · scale / (QV · QB)`.
//! The loader refuses a net whose sums could leave i32 (`check_ranges`), so the arithmetic never
//! wraps on a net that loads.

use std::fmt;

use super::architecture::{self, Activation, Architecture};
use super::features::relations::MAX_RELATIONS;
use super::features::{self, MAX_ACTIVE};
use super::layers::{self, Dense};
use super::simd;
use crate::board::{Color, PieceKind, Position, Square};
use crate::winrate::WinRateModel;

/// Longest description a net keeps (and a net file holds).
pub const MAX_DESCRIPTION: usize = 4096;

/// A quantised net whose integer sums could overflow on some position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeError {
    /// An accumulator could leave i16 with `MAX_ACTIVE` piece features (and `MAX_RELATIONS` relation features) on.
    Accumulator {
        /// Which neuron.
        neuron: usize,
        /// The largest magnitude it could reach.
        worst: i64,
        /// The net's QA.
        qa: i16,
    },
    /// An output bucket's sum could leave i32.
    Output {
        /// Which bucket.
        bucket: usize,
        /// The largest magnitude it could reach.
        worst: i64,
        /// The net's QA.
        qa: i16,
        /// The net's activation.
        activation: Activation,
    },
    /// A hidden layer's sum could leave i32.
    Hidden {
        /// Which layer, from 0.
        layer: usize,
        /// Which bucket.
        bucket: usize,
        /// Which neuron.
        neuron: usize,
        /// The largest magnitude it could reach (with the rounding's `QH/2`).
        worst: i64,
    },
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::Accumulator { neuron, worst, qa } => write!(
                f,
                "accumulator neuron {neuron} could reach {worst} with {MAX_ACTIVE} pieces (and {MAX_RELATIONS} relations) on: \
                 more than 16 bits hold (feature weights too large for QA {qa})"
            ),
            RangeError::Output { bucket, worst, qa, activation } => write!(
                f,
                "output bucket {bucket}'s sum could reach {worst}: more than 32 bits hold \
                 (output weights too large for QA {qa} and {})",
                activation.name()
            ),
            RangeError::Hidden { layer, bucket, neuron, worst } => write!(
                f,
                "hidden layer {} of output bucket {bucket}: neuron {neuron}'s sum could reach {worst}: \
                 more than 32 bits hold (hidden weights or biases too large)",
                layer + 1
            ),
        }
    }
}

impl std::error::Error for RangeError {}

/// A quantised network, as the engine evaluates it and a net file stores it.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The shape.
    pub(crate) arch: Architecture,
    /// `round(w · QA)`, one row of `width` per input: `[input * width + neuron]`.
    pub(crate) feature_weights: Vec<i16>,
    /// `round(b · QA)`.
    pub(crate) feature_bias: Vec<i16>,
    /// The hidden layers, first to last (none for a one-layer net).
    pub(crate) hidden: Vec<Dense>,
    /// `round(w · QB)`, per bucket: `[bucket * inputs + i]`, where the inputs are the last
    /// hidden layer's or, without one, the `2·width` activated accumulators (the side to move's
    /// half first).
    pub(crate) output_weights: Vec<i16>,
    /// `round(b · QA · QB)`.
    pub(crate) output_bias: Vec<i32>,
    /// Free text saved with the net: how it was made.
    pub(crate) description: String,
    /// What the net's scores mean as chances to win, draw and lose (fitted to its own games).
    pub(crate) win_rate: WinRateModel,
}

/// The win-rate model of a net that carries none (a version 1 file, or a net not yet fitted):
/// the built-in net's, the best guess for nets trained the same way.
pub const DEFAULT_WIN_RATE: WinRateModel =
    WinRateModel { a: [-61.478, 340.912, -440.016, 193.711], b: [36.329, -58.654, 77.386, 12.724] };

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({}; {:?})", self.arch, self.description)
    }
}

impl Network {
    /// The architecture.
    pub fn arch(&self) -> &Architecture {
        &self.arch
    }

    /// The description saved with the net.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The win-rate model saved with the net.
    pub fn win_rate(&self) -> &WinRateModel {
        &self.win_rate
    }

    /// The same net with another win-rate model (for instance one fitted to its games).
    pub fn with_win_rate(mut self, model: WinRateModel) -> Network {
        self.win_rate = model;
        self
    }

    /// The same net with another description (at most `MAX_DESCRIPTION` bytes are kept).
    pub fn with_description(mut self, text: &str) -> Network {
        let mut end = text.len().min(MAX_DESCRIPTION);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.description = text[..end].to_string();
        self
    }

    /// Every input's weights, input by input (`width` each).
    #[inline]
    pub(crate) fn feature_weights(&self) -> &[i16] {
        &self.feature_weights
    }

    /// The feature weights of input `feature`: one column of the accumulator update.
    #[inline]
    pub(crate) fn column(&self, feature: usize) -> &[i16] {
        let n = self.arch.width;
        &self.feature_weights[feature * n..(feature + 1) * n]
    }

    /// Refuses a net whose sums could leave their integer types on some position: an
    /// accumulator must stay within i16 whichever 32 piece features and `MAX_RELATIONS` relation
    /// features are on, and the output sum within i32 whatever the activations are.
    pub(crate) fn check_ranges(&self) -> Result<(), RangeError> {
        let n = self.arch.width;
        let features = self.arch.features;
        let blocks = [
            (0, features.piece_inputs(), MAX_ACTIVE),
            (features.piece_inputs(), features.inputs(), MAX_RELATIONS),
        ];
        let mut column = Vec::with_capacity(features.inputs());
        for neuron in 0..n {
            let mut worst = self.feature_bias[neuron].unsigned_abs() as i64;
            for (first, end, most_on) in blocks {
                if first == end {
                    continue;
                }
                column.clear();
                column
                    .extend((first..end).map(|f| self.feature_weights[f * n + neuron].unsigned_abs() as i64));
                let k = most_on.min(column.len());
                column.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
                worst += column[..k].iter().sum::<i64>();
            }
            if worst > i16::MAX as i64 {
                return Err(RangeError::Accumulator { neuron, worst, qa: self.arch.quantisation.qa });
            }
        }
        let q = self.arch.quantisation;
        // Each hidden layer's sum, with the half that the shift's rounding adds, must stay in i32.
        let mut input_max = self.arch.activation_max();
        for (layer, dense) in self.hidden.iter().enumerate() {
            let rounding = 1i64 << (layers::hidden_shift(layer) - 1);
            for bucket in 0..self.arch.output_buckets {
                for neuron in 0..dense.outputs {
                    let row = dense.row(bucket, neuron);
                    let worst = dense.bias(bucket)[neuron].unsigned_abs() as i64
                        + row.iter().map(|&w| w.unsigned_abs() as i64).sum::<i64>() * input_max
                        + rounding;
                    if worst > i32::MAX as i64 {
                        return Err(RangeError::Hidden { layer, bucket, neuron, worst });
                    }
                }
            }
            input_max = architecture::hidden_value_scale(q.qa) as i64;
        }
        let per_unit = self.arch.output_input_max();
        for (bucket, w) in self.output_weights.chunks_exact(self.arch.output_inputs()).enumerate() {
            let worst = w.iter().map(|&w| w.unsigned_abs() as i64).sum::<i64>() * per_unit;
            if worst > i32::MAX as i64 {
                return Err(RangeError::Output {
                    bucket,
                    worst,
                    qa: self.arch.quantisation.qa,
                    activation: self.arch.activation,
                });
            }
        }
        Ok(())
    }

    /// The accumulator of the features `active`: the bias plus their columns.
    pub(crate) fn refresh(&self, active: &[usize], acc: &mut [i16]) {
        acc.copy_from_slice(&self.feature_bias);
        for &f in active {
            simd::add_assign(acc, self.column(f));
        }
    }

    /// The score in centipawns from the side to move's accumulator `us`, the other side's
    /// `them`, and the output bucket (see the module's doc for the exact arithmetic).
    #[inline]
    pub(crate) fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let n = self.arch.width;
        let q = self.arch.quantisation;
        if !self.hidden.is_empty() {
            let inputs = self.arch.output_inputs();
            let w = &self.output_weights[bucket * inputs..(bucket + 1) * inputs];
            let sum = layers::stack_sum(&self.arch, &self.hidden, w, us, them, bucket);
            let raw = sum as i64 + self.output_bias[bucket] as i64;
            return (raw * q.scale as i64 / (self.arch.output_input_scale() * q.qb as i64)) as i32;
        }
        let w = &self.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let sum = match self.arch.activation {
            Activation::CRelu => simd::crelu_dot(us, &w[..n], q.qa) + simd::crelu_dot(them, &w[n..], q.qa),
            Activation::SCRelu => {
                let m = q.screlu_multiplier();
                simd::screlu_dot(us, &w[..n], q.qa, m) + simd::screlu_dot(them, &w[n..], q.qa, m)
            }
        };
        let raw = sum as i64 + self.output_bias[bucket] as i64;
        (raw * q.scale as i64 / (q.qa as i64 * q.qb as i64)) as i32
    }

    /// The score of `pos` in centipawns from the side to move's view, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let pieces = Color::BOTH.into_iter().flat_map(|c| {
            PieceKind::ALL.into_iter().flat_map(move |k| pos.pieces(c, k).map(move |s| (c, k, s)))
        });
        let pieces: Vec<_> = pieces.collect();
        self.evaluate_pieces(&pieces, pos.side_to_move())
    }

    /// The score in centipawns, from `side_to_move`'s view, of a board holding `pieces` (which must
    /// include both kings): for traces that take pieces off (`chariot eval`).
    pub fn evaluate_pieces(&self, pieces: &[(Color, PieceKind, Square)], side_to_move: Color) -> i32 {
        let king = |color: Color| {
            pieces.iter().find(|p| p.0 == color && p.1 == PieceKind::King).map_or(Square::NONE, |p| p.2)
        };
        let n = self.arch.width;
        let (mut us, mut them) = (vec![0i16; n], vec![0i16; n]);
        let mut active = Vec::with_capacity(self.arch.features.max_active());
        for (perspective, acc) in [(side_to_move, &mut us), (side_to_move.opponent(), &mut them)] {
            active.clear();
            self.arch.features.features_of(
                pieces.iter().copied(),
                perspective,
                king(perspective),
                &mut active,
            );
            self.refresh(&active, acc);
        }
        let non_kings = pieces.iter().filter(|p| p.1 != PieceKind::King).count();
        self.output(&us, &them, features::output_bucket(non_kings, self.arch.output_buckets))
    }
}
