//! The network: its architecture and the quantised integer form the engine evaluates with (the
//! float form a trainer works on is `train::FloatNetwork`).
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

use super::features::{self, FeatureSet, KingBuckets, UnknownName, MAX_ACTIVE};
use super::layers::{self, Dense};
use super::relations::MAX_RELATIONS;
use super::simd;
use crate::board::{Color, PieceKind, Position, Square};
use crate::winrate::WinRateModel;

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
    pub fn from_name(name: &str) -> Result<Activation, UnknownName> {
        Activation::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(name)).ok_or_else(|| UnknownName {
            what: "activation",
            name: name.to_string(),
            choices: "crelu or screlu",
        })
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

    /// Whether every activated accumulator value (0..=QA under either activation) fits a byte,
    /// so that the first hidden layer can read its inputs as bytes (`layers`' byte path) and the
    /// trainer keeps that layer's weights within an i8.
    pub fn activations_fit_bytes(self) -> bool {
        self.qa <= u8::MAX as i16
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
    /// Hidden layers between the accumulators and the output, one stack per output bucket:
    /// `Hidden::NONE` is the one-layer net (`2·width → 1`).
    pub hidden: Hidden,
}

/// Most hidden layers a net may have.
pub const MAX_HIDDEN_LAYERS: usize = 2;
/// Hidden layer sizes are multiples of this (the AVX2 lane count of i16: the next layer reads
/// whole vectors)...
pub const HIDDEN_STEP: usize = 16;
/// ... up to this (a first hidden layer of `MAX_HIDDEN` over the widest accumulator is already
/// 2 MB of weights per output bucket).
pub const MAX_HIDDEN: usize = 128;

/// The sizes of the hidden layers: none, one (`2·width → L1 → 1`) or two (`→ L1 → L2 → 1`), and
/// the first one's activation (the others clip: clipped ReLU).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hidden {
    sizes: [usize; MAX_HIDDEN_LAYERS],
    count: u8,
    first: Activation,
}

impl Default for Hidden {
    fn default() -> Hidden {
        Hidden::NONE
    }
}

impl Hidden {
    /// No hidden layer: the accumulators feed the output directly.
    pub const NONE: Hidden = Hidden { sizes: [0; MAX_HIDDEN_LAYERS], count: 0, first: Activation::CRelu };

    /// The first hidden layer's activation unless told otherwise (`--hidden-activation`):
    /// squared, which learned much faster than clipped from random weights (docs/nnue-log.md,
    /// "Hidden layers: the code").
    pub const DEFAULT_FIRST: Activation = Activation::SCRelu;

    /// The layers of `sizes`, first to last, the first with `DEFAULT_FIRST`; the error names the
    /// size or count that is wrong.
    pub fn new(sizes: &[usize]) -> Result<Hidden, ArchitectureError> {
        if sizes.len() > MAX_HIDDEN_LAYERS {
            return Err(ArchitectureError::HiddenLayers(sizes.len()));
        }
        let mut hidden = Hidden::NONE;
        for (layer, &size) in sizes.iter().enumerate() {
            check_hidden_size(layer, size)?;
            hidden.sizes[layer] = size;
        }
        hidden.count = sizes.len() as u8;
        Ok(hidden.with_first_activation(Hidden::DEFAULT_FIRST))
    }

    /// The same layers with the first one's activation `first` (`NONE` stays `NONE`: with no
    /// layer there is no activation to choose).
    pub fn with_first_activation(mut self, first: Activation) -> Hidden {
        if !self.is_empty() {
            self.first = first;
        }
        self
    }

    /// The first hidden layer's activation (the later ones are clipped ReLU).
    pub fn first_activation(&self) -> Activation {
        self.first
    }

    /// Reads `16,32` (sizes separated by commas), `16`, or `none`.
    pub fn parse(text: &str) -> Result<Hidden, ArchitectureError> {
        if text.trim().eq_ignore_ascii_case("none") {
            return Ok(Hidden::NONE);
        }
        let sizes = text
            .split(',')
            .map(|part| {
                part.trim().parse::<usize>().map_err(|_| ArchitectureError::HiddenText(text.to_string()))
            })
            .collect::<Result<Vec<usize>, _>>()?;
        Hidden::new(&sizes)
    }

    /// The sizes, first layer first (empty for `NONE`).
    pub fn sizes(&self) -> &[usize] {
        &self.sizes[..(self.count as usize).min(MAX_HIDDEN_LAYERS)]
    }

    /// Whether there is no hidden layer.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl fmt::Display for Hidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "none");
        }
        let sizes: Vec<String> = self.sizes().iter().map(|s| s.to_string()).collect();
        write!(f, "{}", sizes.join(","))
    }
}

/// A hidden layer has a multiple of `HIDDEN_STEP` neurons up to `MAX_HIDDEN`.
pub fn check_hidden_size(layer: usize, size: usize) -> Result<(), ArchitectureError> {
    if size == 0 || size > MAX_HIDDEN || !size.is_multiple_of(HIDDEN_STEP) {
        return Err(ArchitectureError::HiddenSize { layer, size });
    }
    Ok(())
}

/// Accumulator widths a net may have: multiples of this (the AVX2 lane count of i16)...
pub const WIDTH_STEP: usize = 16;
/// ... up to this.
pub const MAX_WIDTH: usize = 4096;
/// Most output buckets.
pub const MAX_OUTPUT_BUCKETS: usize = 31;
/// Longest description a net keeps (and a net file holds).
pub const MAX_DESCRIPTION: usize = 4096;

impl Architecture {
    /// The architecture `chariot nnue random` makes unless told otherwise: 256 wide, one weight
    /// block per palace square with mirroring, squared clipped ReLU, 8 output buckets.
    pub const DEFAULT: Architecture = Architecture {
        features: FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: false },
        width: 256,
        activation: Activation::SCRelu,
        output_buckets: 8,
        quantisation: Quantisation::DEFAULT,
        hidden: Hidden::NONE,
    };

    /// Checks the numbers fit what the engine evaluates; the error says which does not.
    pub fn validate(&self) -> Result<(), ArchitectureError> {
        check_width(self.width)?;
        check_output_buckets(self.output_buckets)?;
        check_quantisation(self.quantisation)?;
        check_activation_scale(self.activation, self.quantisation)?;
        // `Hidden::new` checks its sizes, but its fields can be set by hand in a test.
        Hidden::new(self.hidden.sizes())?;
        if !self.hidden.is_empty() {
            check_activation_scale(self.hidden.first_activation(), self.quantisation)?;
        }
        Ok(())
    }

    /// Inputs to the feature transformer.
    pub fn inputs(&self) -> usize {
        self.features.inputs()
    }

    /// Number of feature weights (`inputs × width`).
    pub fn feature_weight_count(&self) -> usize {
        self.inputs() * self.width
    }

    /// Number of output weights (`output_buckets × ` the output layer's inputs).
    pub fn output_weight_count(&self) -> usize {
        self.output_buckets * self.output_inputs()
    }

    /// The output layer's inputs per bucket: the last hidden layer's size, or `2·width`.
    pub fn output_inputs(&self) -> usize {
        self.hidden.sizes().last().copied().unwrap_or(2 * self.width)
    }

    /// Each dense layer's inputs and outputs, hidden layers first, the output layer last.
    pub fn dense_shapes(&self) -> Vec<(usize, usize)> {
        let mut inputs = 2 * self.width;
        let mut shapes = Vec::with_capacity(self.hidden.sizes().len() + 1);
        for &size in self.hidden.sizes() {
            shapes.push((inputs, size));
            inputs = size;
        }
        shapes.push((inputs, 1));
        shapes
    }

    /// The largest value the feature transformer's activation gives, in integers: QA for CReLU,
    /// `(QA² · M) >> 16` (about QA) for SCReLU.
    pub fn activation_max(&self) -> i64 {
        let q = self.quantisation;
        let qa = q.qa as i64;
        match self.activation {
            Activation::CRelu => qa,
            Activation::SCRelu => (qa * qa * q.screlu_multiplier() as i64) >> 16,
        }
    }

    /// The largest value the output layer reads: the feature transformer's activation, or a
    /// hidden layer's clipped ReLU (QV).
    pub fn output_input_max(&self) -> i64 {
        if self.hidden.is_empty() {
            self.activation_max()
        } else {
            layers::hidden_value_scale(self.quantisation.qa) as i64
        }
    }

    /// The scale of the values the output layer reads, so of its bias (times QB) and of the
    /// divisor of its sum: QA, or the hidden values' QV for a net with hidden layers.
    pub fn output_input_scale(&self) -> i64 {
        self.dense_input_scale(self.hidden.sizes().len())
    }

    /// The scale of dense layer `layer`'s inputs (the hidden layers, then the output layer), so
    /// of its bias (times QH, or QB for the output layer): QA for the first (the activated
    /// accumulators), the hidden values' QV for the later ones.
    pub fn dense_input_scale(&self, layer: usize) -> i64 {
        let qa = self.quantisation.qa;
        if layer == 0 {
            qa as i64
        } else {
            layers::hidden_value_scale(qa) as i64
        }
    }
}

/// The accumulator width must be a multiple of `WIDTH_STEP` up to `MAX_WIDTH`.
pub fn check_width(width: usize) -> Result<(), ArchitectureError> {
    if width == 0 || width > MAX_WIDTH || !width.is_multiple_of(WIDTH_STEP) {
        return Err(ArchitectureError::Width(width));
    }
    Ok(())
}

/// There must be 1 to `MAX_OUTPUT_BUCKETS` output buckets.
pub fn check_output_buckets(buckets: usize) -> Result<(), ArchitectureError> {
    if buckets == 0 || buckets > MAX_OUTPUT_BUCKETS {
        return Err(ArchitectureError::OutputBuckets(buckets));
    }
    Ok(())
}

/// The scales must be positive.
pub fn check_quantisation(q: Quantisation) -> Result<(), ArchitectureError> {
    if q.qa <= 0 || q.qb <= 0 || q.scale <= 0 {
        return Err(ArchitectureError::Quantisation(q));
    }
    Ok(())
}

/// SCReLU squares the clipped accumulator in 16 bits: its QA must be at most 255.
pub fn check_activation_scale(activation: Activation, q: Quantisation) -> Result<(), ArchitectureError> {
    if activation == Activation::SCRelu && q.qa > 255 {
        return Err(ArchitectureError::ScreluQa(q.qa));
    }
    Ok(())
}

/// An architecture the engine cannot evaluate: which number is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArchitectureError {
    /// The accumulator width is not a multiple of `WIDTH_STEP` up to `MAX_WIDTH`.
    Width(usize),
    /// Not 1 to `MAX_OUTPUT_BUCKETS` output buckets.
    OutputBuckets(usize),
    /// A scale that is not positive.
    Quantisation(Quantisation),
    /// QA above 255 with SCReLU.
    ScreluQa(i16),
    /// Hidden layer `layer` (from 0) of `size` neurons: not a multiple of `HIDDEN_STEP` up to
    /// `MAX_HIDDEN`.
    HiddenSize {
        /// Which layer, from 0.
        layer: usize,
        /// Its size.
        size: usize,
    },
    /// More than `MAX_HIDDEN_LAYERS` hidden layers.
    HiddenLayers(usize),
    /// Hidden sizes that are not numbers separated by commas.
    HiddenText(String),
}

impl fmt::Display for ArchitectureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchitectureError::Width(width) => write!(
                f,
                "accumulator width {width} is not a multiple of {WIDTH_STEP} between {WIDTH_STEP} and {MAX_WIDTH}"
            ),
            ArchitectureError::OutputBuckets(buckets) => {
                write!(f, "{buckets} output buckets (1 to {MAX_OUTPUT_BUCKETS})")
            }
            ArchitectureError::Quantisation(q) => {
                write!(f, "quantisation QA {}, QB {}, scale {} must all be positive", q.qa, q.qb, q.scale)
            }
            ArchitectureError::ScreluQa(qa) => {
                write!(f, "QA {qa} with screlu: at most 255 (the square must fit in 16 bits)")
            }
            ArchitectureError::HiddenSize { layer, size } => write!(
                f,
                "hidden layer {} of {size} neurons: a multiple of {HIDDEN_STEP} between {HIDDEN_STEP} and {MAX_HIDDEN}",
                layer + 1
            ),
            ArchitectureError::HiddenLayers(count) => {
                write!(f, "{count} hidden layers (at most {MAX_HIDDEN_LAYERS})")
            }
            ArchitectureError::HiddenText(text) => {
                write!(f, "hidden layers '{text}': sizes separated by commas (e.g. 16,32), or none")
            }
        }
    }
}

impl std::error::Error for ArchitectureError {}

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

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = self.quantisation;
        let hidden: String = self
            .hidden
            .sizes()
            .iter()
            .enumerate()
            .map(|(l, s)| {
                let activation = if l == 0 { self.hidden.first_activation() } else { Activation::CRelu };
                format!(" -> {s} {}", activation.name())
            })
            .collect();
        write!(
            f,
            "({}) -> {}x2 {}{hidden} -> 1 with {} output bucket{}; QA {} QB {} scale {}",
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
            input_max = layers::hidden_value_scale(q.qa) as i64;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_names_the_bad_number() {
        let bad_width = Architecture { width: 100, ..Architecture::DEFAULT };
        assert!(bad_width.validate().unwrap_err().to_string().contains("width 100"));
        let bad_buckets = Architecture { output_buckets: 0, ..Architecture::DEFAULT };
        assert!(bad_buckets.validate().unwrap_err().to_string().contains("0 output buckets"));
        let bad_scale = Architecture {
            quantisation: Quantisation { qa: 255, qb: 0, scale: 400 },
            ..Architecture::DEFAULT
        };
        assert!(bad_scale.validate().unwrap_err().to_string().contains("QB 0"));
        let bad_qa = Architecture {
            quantisation: Quantisation { qa: 256, qb: 64, scale: 400 },
            ..Architecture::DEFAULT
        };
        assert!(bad_qa.validate().unwrap_err().to_string().contains("QA 256 with screlu"));
        assert_eq!(Architecture { activation: Activation::CRelu, ..bad_qa }.validate(), Ok(()));
        assert_eq!(Architecture::DEFAULT.validate(), Ok(()));
        assert_eq!(Activation::from_name("SCReLU"), Ok(Activation::SCRelu));
        assert!(Activation::from_name("relu").is_err());
    }

    #[test]
    fn hidden_sizes_parse_and_bad_ones_are_named() {
        let two = Hidden::parse("16, 32").unwrap();
        assert_eq!(two.sizes(), [16, 32]);
        assert_eq!(two.to_string(), "16,32");
        assert_eq!(Hidden::parse("none"), Ok(Hidden::NONE));
        assert_eq!(Hidden::parse("128").unwrap().sizes(), [128]);
        assert!(Hidden::NONE.is_empty() && Hidden::NONE.sizes().is_empty());
        for (text, words) in [
            ("16,20", "hidden layer 2 of 20 neurons"),
            ("0", "hidden layer 1 of 0 neurons"),
            ("144", "hidden layer 1 of 144 neurons"),
            ("16,16,16", "3 hidden layers"),
            ("16;32", "'16;32'"),
            ("", "''"),
        ] {
            let err = Hidden::parse(text).unwrap_err().to_string();
            assert!(err.contains(words), "{text}: {err}");
        }
        let arch = Architecture { hidden: two, ..Architecture::DEFAULT };
        assert_eq!(arch.validate(), Ok(()));
        assert_eq!(arch.output_inputs(), 32);
        assert_eq!(arch.dense_shapes(), [(512, 16), (16, 32), (32, 1)]);
        assert_eq!(Architecture::DEFAULT.dense_shapes(), [(512, 1)]);
        assert!(arch.to_string().contains("256x2 screlu -> 16 screlu -> 32 crelu -> 1"), "{arch}");
        assert_eq!(two.first_activation(), Hidden::DEFAULT_FIRST);
        let clipped = Architecture { hidden: two.with_first_activation(Activation::CRelu), ..arch };
        assert!(clipped.to_string().contains("-> 16 crelu -> 32 crelu -> 1"), "{clipped}");
        assert_eq!(Hidden::NONE.with_first_activation(Activation::SCRelu), Hidden::NONE);
        // A squared first hidden layer needs QA ≤ 255 even under a clipped accumulator.
        let wide_qa = Architecture {
            activation: Activation::CRelu,
            quantisation: Quantisation { qa: 300, qb: 1024, scale: 400 },
            ..arch
        };
        assert_eq!(wide_qa.validate(), Err(ArchitectureError::ScreluQa(300)));
        assert_eq!(Architecture { hidden: clipped.hidden, ..wide_qa }.validate(), Ok(()));
        assert!(Architecture::DEFAULT.to_string().contains("256x2 screlu -> 1 with"));
        // Sizes set by hand past `Hidden::new` are still caught by `validate`.
        let mut hand = Hidden::NONE;
        hand.sizes = [24, 0];
        hand.count = 1;
        let err = Architecture { hidden: hand, ..Architecture::DEFAULT }.validate().unwrap_err();
        assert_eq!(err, ArchitectureError::HiddenSize { layer: 0, size: 24 });
    }
}
