//! The network: its architecture, the float form a trainer works on, and the quantised integer
//! form the engine evaluates with.
//!
//! Shape: `inputs → width` (the feature transformer, one accumulator per perspective), an
//! activation on both accumulators, then `2·width → 1` (the side to move's half first), with one
//! output layer per output bucket chosen by the material on the board.
//!
//! Float semantics (what a trainer computes): `a = bias + Σ W[feature]` per perspective,
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

use std::fmt;

use rand::{Rng, SeedableRng};

use super::features::{self, FeatureSet, KingBuckets, MAX_ACTIVE};
use super::simd;
use crate::board::{Color, PieceKind, Position, Square};

/// The hidden layer's activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CRelu = 0,
    /// Squared clipped ReLU: `clamp(x, 0, 1)²`.
    SCRelu = 1,
}

impl Activation {
    /// Both activations, in file-code order.
    pub const ALL: [Activation; 2] = [Activation::CRelu, Activation::SCRelu];

    /// The byte that names this activation in a net file.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The activation a net file's byte names.
    pub fn from_code(code: u8) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.code() == code)
    }

    /// Lower-case name, as the command line takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Activation::CRelu => "crelu",
            Activation::SCRelu => "screlu",
        }
    }

    /// The activation called `name` (`crelu` or `screlu`).
    pub fn from_name(name: &str) -> Result<Activation, String> {
        Activation::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown activation '{name}' (crelu or screlu)"))
    }

    #[inline]
    fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::CRelu => c,
            Activation::SCRelu => c * c,
        }
    }
}

/// The integer scales: the quantised values are the float ones times these.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Quantisation {
    /// Scale of the feature weights, biases and accumulators; the activation clips at `qa`.
    pub qa: i16,
    /// Scale of the output weights.
    pub qb: i16,
    /// Centipawns per unit of the float output.
    pub scale: i32,
}

impl Quantisation {
    /// QA 255, QB 1024, 400 centipawns per unit. QA 255 keeps 32 feature weights of up to ±4
    /// within i16; QB 1024 rounds output weights finely (1/2048) while allowing up to ±32.
    pub const DEFAULT: Quantisation = Quantisation { qa: 255, qb: 1024, scale: 400 };

    /// `M = min((2¹⁶ + QA/2) / QA, 65535)`: SCReLU's multiplier from scale QA² back to QA.
    pub fn screlu_multiplier(self) -> u16 {
        let qa = self.qa.max(1) as u32;
        ((65536 + qa / 2) / qa).min(u16::MAX as u32) as u16
    }
}

/// Everything about a net but its weights: what a net file's header says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// Inputs: king buckets and mirroring.
    pub features: FeatureSet,
    /// Accumulator width N per perspective.
    pub width: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Output layers, chosen by the material on the board (`features::output_bucket`).
    pub output_buckets: usize,
    /// Integer scales.
    pub quantisation: Quantisation,
}

/// Accumulator widths a net may have: multiples of this (the AVX2 lane count of i16)...
pub const WIDTH_STEP: usize = 16;
/// ... up to this.
pub const MAX_WIDTH: usize = 4096;
/// Most output buckets.
pub const MAX_OUTPUT_BUCKETS: usize = 31;

impl Architecture {
    /// The architecture `chariot nnue random` makes unless told otherwise: 256 wide, one weight
    /// block per palace square with mirroring, squared clipped ReLU, 8 output buckets.
    pub const DEFAULT: Architecture = Architecture {
        features: FeatureSet { king_buckets: KingBuckets::Palace, mirror: true },
        width: 256,
        activation: Activation::SCRelu,
        output_buckets: 8,
        quantisation: Quantisation::DEFAULT,
    };

    /// Checks the numbers fit what the engine evaluates; the error says which does not.
    pub fn validate(&self) -> Result<(), String> {
        check_width(self.width)?;
        check_output_buckets(self.output_buckets)?;
        check_quantisation(self.quantisation)?;
        check_activation_scale(self.activation, self.quantisation)
    }

    /// Inputs to the feature transformer.
    pub fn inputs(&self) -> usize {
        self.features.inputs()
    }

    /// Number of feature weights (`inputs × width`).
    pub fn feature_weight_count(&self) -> usize {
        self.inputs() * self.width
    }

    /// Number of output weights (`output_buckets × 2·width`).
    pub fn output_weight_count(&self) -> usize {
        self.output_buckets * 2 * self.width
    }
}

/// The accumulator width must be a multiple of `WIDTH_STEP` up to `MAX_WIDTH`.
pub fn check_width(width: usize) -> Result<(), String> {
    if width == 0 || width > MAX_WIDTH || !width.is_multiple_of(WIDTH_STEP) {
        return Err(format!(
            "accumulator width {width} is not a multiple of {WIDTH_STEP} between {WIDTH_STEP} and {MAX_WIDTH}"
        ));
    }
    Ok(())
}

/// There must be 1 to `MAX_OUTPUT_BUCKETS` output buckets.
pub fn check_output_buckets(buckets: usize) -> Result<(), String> {
    if buckets == 0 || buckets > MAX_OUTPUT_BUCKETS {
        return Err(format!("{buckets} output buckets (1 to {MAX_OUTPUT_BUCKETS})"));
    }
    Ok(())
}

/// The scales must be positive.
pub fn check_quantisation(q: Quantisation) -> Result<(), String> {
    if q.qa <= 0 || q.qb <= 0 || q.scale <= 0 {
        return Err(format!("quantisation QA {}, QB {}, scale {} must all be positive", q.qa, q.qb, q.scale));
    }
    Ok(())
}

/// SCReLU squares the clipped accumulator in 16 bits: its QA must be at most 255.
pub fn check_activation_scale(activation: Activation, q: Quantisation) -> Result<(), String> {
    if activation == Activation::SCRelu && q.qa > 255 {
        return Err(format!("QA {} with screlu: at most 255 (the square must fit in 16 bits)", q.qa));
    }
    Ok(())
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = self.quantisation;
        write!(
            f,
            "({}) -> {}x2 {} -> 1 with {} output bucket{}; QA {} QB {} scale {}",
            self.features,
            self.width,
            self.activation.name(),
            self.output_buckets,
            if self.output_buckets == 1 { "" } else { "s" },
            q.qa,
            q.qb,
            q.scale
        )
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
    /// Output weights per bucket, the side to move's half first: `[bucket * 2 * width + i]`.
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
            output_weights: vec![0.0; arch.output_weight_count()],
            output_bias: vec![0.0; arch.output_buckets],
        }
    }

    /// A network of `arch` with random weights from `seed` (the same seed gives the same net):
    /// feature weights uniform in ±0.1, biases near the middle of the clipping range, output
    /// weights uniform in ±1/√(2·width), so that scores stay within a few hundred centipawns.
    pub fn random(arch: Architecture, seed: u64) -> FloatNetwork {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut net = FloatNetwork::zeros(arch);
        net.feature_weights.iter_mut().for_each(|w| *w = rng.gen_range(-0.1..=0.1));
        net.feature_bias.iter_mut().for_each(|b| *b = rng.gen_range(0.2..=0.6));
        let out = 1.0 / ((2 * arch.width) as f32).sqrt();
        net.output_weights.iter_mut().for_each(|w| *w = rng.gen_range(-out..=out));
        net.output_bias.iter_mut().for_each(|b| *b = rng.gen_range(-0.05..=0.05));
        net
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
        let w = &self.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let act = self.arch.activation;
        let half = |acc: Vec<f32>, w: &[f32]| acc.iter().zip(w).map(|(&a, &w)| act.apply(a) * w).sum::<f32>();
        self.output_bias[bucket] + half(self.accumulate(us), &w[..n]) + half(self.accumulate(them), &w[n..])
    }

    /// The score of `pos` in centipawns, from the side to move's view, unrounded.
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
    pub fn quantise(&self) -> Result<Network, String> {
        self.arch.validate()?;
        let q = self.arch.quantisation;
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        let to_i16 = |what: &str, values: &[f32], scale: f32| -> Result<Vec<i16>, String> {
            values
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    let v = (x * scale).round();
                    if v.is_finite() && (i16::MIN as f32..=i16::MAX as f32).contains(&v) {
                        Ok(v as i16)
                    } else {
                        Err(format!("{what} {i} is {x}: {v} does not fit in 16 bits"))
                    }
                })
                .collect()
        };
        let output_bias = self
            .output_bias
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let v = (x as f64 * qa as f64 * qb as f64).round();
                if v.is_finite() && (i32::MIN as f64..=i32::MAX as f64).contains(&v) {
                    Ok(v as i32)
                } else {
                    Err(format!("output bias {i} is {x}: {v} does not fit in 32 bits"))
                }
            })
            .collect::<Result<Vec<i32>, String>>()?;
        let net = Network {
            arch: self.arch,
            feature_weights: to_i16("feature weight", &self.feature_weights, qa)?,
            feature_bias: to_i16("feature bias", &self.feature_bias, qa)?,
            output_weights: to_i16("output weight", &self.output_weights, qb)?,
            output_bias,
            description: String::new(),
        };
        net.check_ranges()?;
        Ok(net)
    }
}

/// A quantised network, as the engine evaluates it and a net file stores it.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The shape.
    pub(crate) arch: Architecture,
    /// `round(w · QA)`, laid out as `FloatNetwork::feature_weights`.
    pub(crate) feature_weights: Vec<i16>,
    /// `round(b · QA)`.
    pub(crate) feature_bias: Vec<i16>,
    /// `round(w · QB)`, laid out as `FloatNetwork::output_weights`.
    pub(crate) output_weights: Vec<i16>,
    /// `round(b · QA · QB)`.
    pub(crate) output_bias: Vec<i32>,
    /// Free text saved with the net: how it was made.
    pub(crate) description: String,
}

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

    /// The same net with another description (at most `format::MAX_DESCRIPTION` bytes are kept).
    pub fn with_description(mut self, text: &str) -> Network {
        let mut end = text.len().min(super::format::MAX_DESCRIPTION);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.description = text[..end].to_string();
        self
    }

    /// The feature weights of input `feature`: one column of the accumulator update.
    #[inline]
    pub(crate) fn column(&self, feature: usize) -> &[i16] {
        let n = self.arch.width;
        &self.feature_weights[feature * n..(feature + 1) * n]
    }

    /// Refuses a net whose sums could leave their integer types on some position: an
    /// accumulator must stay within i16 whichever 32 features are on, and the output sum within
    /// i32 whatever the activations are.
    pub(crate) fn check_ranges(&self) -> Result<(), String> {
        let n = self.arch.width;
        let inputs = self.arch.inputs();
        let mut column = Vec::with_capacity(inputs);
        for neuron in 0..n {
            column.clear();
            column.extend((0..inputs).map(|f| self.feature_weights[f * n + neuron].unsigned_abs() as i64));
            let k = MAX_ACTIVE.min(column.len());
            column.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
            let worst = self.feature_bias[neuron].unsigned_abs() as i64 + column[..k].iter().sum::<i64>();
            if worst > i16::MAX as i64 {
                return Err(format!(
                    "accumulator neuron {neuron} could reach {worst} with {MAX_ACTIVE} pieces on: \
                     more than 16 bits hold (feature weights too large for QA {})",
                    self.arch.quantisation.qa
                ));
            }
        }
        // The largest activation: QA for CReLU, (QA² · M) >> 16 (about QA) for SCReLU.
        let q = self.arch.quantisation;
        let qa = q.qa as i64;
        let per_unit = match self.arch.activation {
            Activation::CRelu => qa,
            Activation::SCRelu => (qa * qa * q.screlu_multiplier() as i64) >> 16,
        };
        for (bucket, w) in self.output_weights.chunks_exact(2 * n).enumerate() {
            let worst = w.iter().map(|&w| w.unsigned_abs() as i64).sum::<i64>() * per_unit;
            if worst > i32::MAX as i64 {
                return Err(format!(
                    "output bucket {bucket}'s sum could reach {worst}: more than 32 bits hold \
                     (output weights too large for QA {} and {})",
                    self.arch.quantisation.qa,
                    self.arch.activation.name()
                ));
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
        let mut active = Vec::with_capacity(MAX_ACTIVE);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;

    fn small(activation: Activation, buckets: KingBuckets, mirror: bool) -> Architecture {
        Architecture {
            features: FeatureSet { king_buckets: buckets, mirror },
            width: 32,
            activation,
            output_buckets: 4,
            quantisation: Quantisation::DEFAULT,
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

    /// Quantised and float nets agree within 1% of the score's size plus 4 centipawns (the
    /// rounding of ~33 feature weights at 1/510 each and of the output weights at 1/128 each).
    #[test]
    fn quantised_agrees_with_float() {
        let mut worst = 0.0f32;
        for activation in Activation::ALL {
            for (buckets, mirror) in [(KingBuckets::Palace, true), (KingBuckets::Rank, false)] {
                let float = FloatNetwork::random(small(activation, buckets, mirror), 5);
                let net = float.quantise().unwrap();
                let mut distinct = std::collections::HashSet::new();
                for pos in random_positions(9, 300) {
                    let (exact, quantised) = (float.evaluate_cp(&pos), net.evaluate(&pos) as f32);
                    distinct.insert(net.evaluate(&pos));
                    let error = (exact - quantised).abs();
                    worst = worst.max(error - 0.01 * exact.abs());
                    assert!(
                        error <= 4.0 + 0.01 * exact.abs(),
                        "{activation:?} {pos:?}: {exact} vs {quantised}"
                    );
                }
                assert!(distinct.len() > 50, "the random net must tell positions apart");
            }
        }
        eprintln!("worst excess over 1%: {worst} cp");
    }

    #[test]
    fn colour_flipped_twins_score_the_same() {
        let net =
            FloatNetwork::random(Architecture { width: 32, ..Architecture::DEFAULT }, 2).quantise().unwrap();
        for pos in random_positions(4, 200) {
            assert_eq!(net.evaluate(&pos), net.evaluate(&pos.color_flipped()), "{pos:?}");
        }
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
        assert!(float.quantise().unwrap_err().contains("feature weight 70"));
        float.feature_weights[70] = 0.0;
        float.feature_weights.iter_mut().step_by(arch.width).for_each(|w| *w = 20.0);
        let err = float.quantise().unwrap_err();
        assert!(err.contains("accumulator neuron 0"), "{err}");
        let mut float = FloatNetwork::zeros(arch);
        float.output_weights[2 * arch.width + 3] = 40.0;
        assert!(float.quantise().unwrap_err().contains("output weight 67"));
        // At QA 8192 a full activation times 64 weights of 30 · 1024 passes 2³¹.
        float.arch.quantisation.qa = 8192;
        float.arch.activation = Activation::CRelu;
        float.output_weights.iter_mut().for_each(|w| *w = 30.0);
        let err = float.quantise().unwrap_err();
        assert!(err.contains("output bucket 0"), "{err}");
    }

    #[test]
    fn validate_names_the_bad_number() {
        let bad_width = Architecture { width: 100, ..Architecture::DEFAULT };
        assert!(bad_width.validate().unwrap_err().contains("width 100"));
        let bad_buckets = Architecture { output_buckets: 0, ..Architecture::DEFAULT };
        assert!(bad_buckets.validate().unwrap_err().contains("0 output buckets"));
        let bad_scale = Architecture {
            quantisation: Quantisation { qa: 255, qb: 0, scale: 400 },
            ..Architecture::DEFAULT
        };
        assert!(bad_scale.validate().unwrap_err().contains("QB 0"));
        let bad_qa = Architecture {
            quantisation: Quantisation { qa: 256, qb: 64, scale: 400 },
            ..Architecture::DEFAULT
        };
        assert!(bad_qa.validate().unwrap_err().contains("QA 256 with screlu"));
        assert_eq!(Architecture { activation: Activation::CRelu, ..bad_qa }.validate(), Ok(()));
        assert_eq!(Architecture::DEFAULT.validate(), Ok(()));
        assert_eq!(Activation::from_name("SCReLU"), Ok(Activation::SCRelu));
        assert!(Activation::from_name("relu").is_err());
    }
}
