//! The shape of a net, everything but its weights: the feature set (king buckets, mirroring,
//! relation inputs), the accumulator width and its activation, the hidden layers, the output
//! buckets and the quantisation. `Architecture` is that one type, with its checks and the one
//! codec for its bytes, which the net file (`format`) and the trainer's checkpoint
//! (`train::checkpoint`) both write at the same place of their headers.
//!
//! The header's architecture comes in two parts, because each file puts other fields between
//! them (a net file the input count and payload length, a checkpoint the training settings):
//!
//! | size | shape (`write_shape`, 14 bytes) |
//! |---|---|
//! | 1 | king buckets: 0 single, 1 rank, 2 palace |
//! | 1 | input flags: bit 0 mirroring, bit 1 relation inputs (net files before version 3: mirroring, 0 or 1) |
//! | 2 | accumulator width N (u16) |
//! | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 1 | output buckets B |
//! | 2 | QA (i16) |
//! | 2 | QB (i16) |
//! | 4 | scale, centipawns per unit (i32) |
//!
//! | size | hidden layers (`write_hidden`, only when there are some) |
//! |---|---|
//! | 1 | the number of hidden layers H, 1 or 2 |
//! | 1 | the first one's activation: 0 CReLU, 1 SCReLU |
//! | 2·H | each one's size (u16), first layer first |
//!
//! Reading checks every field where it lies, so an error names the byte that is wrong.

use std::fmt;

use super::features::{FeatureSet, KingBuckets, UnknownName};
use crate::binary::{fail, FieldReader, FieldWriter, FormatError};

/// Hidden weights are `round(w · QH)`, `QH = 2^HIDDEN_SHIFT`: a power of two, so that the sum is
/// brought back to the activation's scale by a shift.
pub const HIDDEN_SHIFT: u32 = 10;
/// The hidden weights' scale, 1024: weights up to ±32 fit i16, in steps of 1/1024.
pub const QH: i32 = 1 << HIDDEN_SHIFT;
/// Bits by which a hidden value's scale is finer than the accumulators' QA (net format version
/// 5): rounding the hidden values to steps of 1/QA cost a hidden-layer net most of what it
/// gained over the one-layer net (docs/nnue-log.md), steps of 1/(16·QA) almost nothing.
pub const HIDDEN_VALUE_BITS: u32 = 4;

/// The scale of the hidden values, `QV = QA · 2^HIDDEN_VALUE_BITS`, and their largest value.
#[inline]
pub const fn hidden_value_scale(qa: i16) -> i32 {
    (qa as i32) << HIDDEN_VALUE_BITS
}

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
            hidden_value_scale(self.quantisation.qa) as i64
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
            hidden_value_scale(qa) as i64
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

/// What the shape's second byte may hold: net files before version 3 have a plain mirroring
/// flag there, later ones and every checkpoint the input flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FlagsByte {
    /// 0 or 1, mirroring: a net file of this version (1 or 2), from before relation inputs.
    Mirroring {
        /// The file's version, for the message.
        version: u16,
    },
    /// Bit 0 mirroring, bit 1 relation inputs.
    InputFlags,
}

impl Architecture {
    /// Bytes of the shape (`write_shape`).
    pub const SHAPE_LEN: usize = 14;

    /// Bytes of the hidden layers' part (`write_hidden`): none without hidden layers.
    pub fn hidden_len(&self) -> usize {
        if self.hidden.is_empty() {
            0
        } else {
            2 + 2 * self.hidden.sizes().len()
        }
    }

    /// Writes the shape: everything but the hidden layers (the module doc gives the layout).
    pub fn write_shape(&self, out: &mut FieldWriter) {
        let features = self.features;
        out.u8(features.king_buckets.code());
        // A net without relation inputs has the bytes it had before they existed.
        out.u8(features.mirror as u8 | (features.relations as u8) << 1);
        out.u16(self.width as u16);
        out.u8(self.activation.code());
        out.u8(self.output_buckets as u8);
        out.i16(self.quantisation.qa);
        out.i16(self.quantisation.qb);
        out.i32(self.quantisation.scale);
    }

    /// Writes the hidden layers' count, first activation and sizes; nothing for a net without.
    pub fn write_hidden(&self, out: &mut FieldWriter) {
        if self.hidden.is_empty() {
            return;
        }
        out.u8(self.hidden.sizes().len() as u8);
        out.u8(self.hidden.first_activation().code());
        self.hidden.sizes().iter().for_each(|&size| out.u16(size as u16));
    }

    /// Reads and checks the shape `write_shape` wrote; the architecture has no hidden layers
    /// until `read_hidden` gives them.
    pub fn read_shape(r: &mut FieldReader, flags_byte: FlagsByte) -> Result<Architecture, FormatError> {
        let unsupported =
            |at: usize, e: ArchitectureError| fail(at, format!("unsupported architecture: {e}"));
        let at = r.at;
        let code = r.u8("king buckets")?;
        let Some(king_buckets) = KingBuckets::from_code(code) else {
            return fail(at, format!("unknown king-bucket layout {code} (0, 1 or 2)"));
        };
        let at = r.at;
        let (mirror, relations) = match (r.u8("input flags")?, flags_byte) {
            (flags @ 0..=1, _) | (flags @ 0..=3, FlagsByte::InputFlags) => (flags & 1 == 1, flags & 2 == 2),
            (other, FlagsByte::Mirroring { version }) => {
                return fail(at, format!("mirroring flag {other} (0 or 1 in version {version})"))
            }
            (other, FlagsByte::InputFlags) => {
                return fail(
                    at,
                    format!("input flags {other} (bit 0 mirroring, bit 1 relation inputs; 0 to 3)"),
                )
            }
        };
        let at = r.at;
        let width = r.u16("width")? as usize;
        if let Err(e) = check_width(width) {
            return unsupported(at, e);
        }
        let at = r.at;
        let code = r.u8("activation")?;
        let Some(activation) = Activation::from_code(code) else {
            return fail(at, format!("unknown activation {code} (0 CReLU, 1 SCReLU)"));
        };
        let at = r.at;
        let output_buckets = r.u8("output buckets")? as usize;
        if let Err(e) = check_output_buckets(output_buckets) {
            return unsupported(at, e);
        }
        let at = r.at;
        let quantisation = Quantisation { qa: r.i16("QA")?, qb: r.i16("QB")?, scale: r.i32("scale")? };
        if let Err(e) =
            check_quantisation(quantisation).and_then(|()| check_activation_scale(activation, quantisation))
        {
            return unsupported(at, e);
        }
        Ok(Architecture {
            features: FeatureSet { king_buckets, mirror, relations },
            width,
            activation,
            output_buckets,
            quantisation,
            hidden: Hidden::NONE,
        })
    }

    /// Reads and checks the hidden layers `write_hidden` wrote for a net of `quantisation` (its
    /// QA bounds the first layer's activation).
    pub fn read_hidden(r: &mut FieldReader, quantisation: Quantisation) -> Result<Hidden, FormatError> {
        let unsupported =
            |at: usize, e: ArchitectureError| fail(at, format!("unsupported architecture: {e}"));
        let at = r.at;
        let count = r.u8("hidden layer count")? as usize;
        if !(1..=MAX_HIDDEN_LAYERS).contains(&count) {
            return fail(at, format!("{count} hidden layers (1 to {MAX_HIDDEN_LAYERS})"));
        }
        let at = r.at;
        let code = r.u8("hidden activation")?;
        let Some(first) = Activation::from_code(code) else {
            return fail(at, format!("unknown hidden activation {code} (0 CReLU, 1 SCReLU)"));
        };
        if let Err(e) = check_activation_scale(first, quantisation) {
            return unsupported(at, e);
        }
        let mut sizes = [0; MAX_HIDDEN_LAYERS];
        for (layer, size) in sizes[..count].iter_mut().enumerate() {
            let at = r.at;
            *size = r.u16("hidden layer size")? as usize;
            if let Err(e) = check_hidden_size(layer, *size) {
                return unsupported(at, e);
            }
        }
        match Hidden::new(&sizes[..count]) {
            Ok(hidden) => Ok(hidden.with_first_activation(first)),
            Err(e) => unsupported(at, e),
        }
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

    /// Each architecture's two parts read back as they were written, and take the bytes the
    /// module doc gives.
    #[test]
    fn the_codec_round_trips_every_kind_of_architecture() {
        let plain = Architecture { width: 48, output_buckets: 5, ..Architecture::DEFAULT };
        let relations = Architecture {
            features: FeatureSet { king_buckets: KingBuckets::Rank, mirror: false, relations: true },
            activation: Activation::CRelu,
            quantisation: Quantisation { qa: 300, qb: 64, scale: 600 },
            ..plain
        };
        let hidden = Architecture { hidden: Hidden::new(&[16, 128]).unwrap(), ..plain };
        for arch in [plain, relations, hidden] {
            let mut out = FieldWriter::with_capacity(32);
            arch.write_shape(&mut out);
            assert_eq!(out.0.len(), Architecture::SHAPE_LEN);
            arch.write_hidden(&mut out);
            assert_eq!(out.0.len(), Architecture::SHAPE_LEN + arch.hidden_len());
            let mut r = FieldReader::new(&out.0);
            let mut back = Architecture::read_shape(&mut r, FlagsByte::InputFlags).unwrap();
            assert_eq!(back.hidden, Hidden::NONE);
            if !arch.hidden.is_empty() {
                back.hidden = Architecture::read_hidden(&mut r, back.quantisation).unwrap();
            }
            assert_eq!((back, r.at), (arch, out.0.len()));
        }
        let mut out = FieldWriter::with_capacity(32);
        relations.write_shape(&mut out);
        assert_eq!(out.0[..6], [1, 2, 48, 0, 0, 5]);
        assert_eq!(out.0[6..], [44, 1, 64, 0, 88, 2, 0, 0]);
        hidden.write_hidden(&mut out);
        assert_eq!(out.0[14..], [2, 1, 16, 0, 128, 0]);
    }

    /// Each field that is wrong is refused at its own byte, with what is wrong.
    #[test]
    fn each_bad_field_is_refused_where_it_lies() {
        let arch =
            Architecture { width: 32, hidden: Hidden::new(&[16, 32]).unwrap(), ..Architecture::DEFAULT };
        let mut out = FieldWriter::with_capacity(32);
        arch.write_shape(&mut out);
        arch.write_hidden(&mut out);
        let good = out.0;
        let read = |bytes: &[u8], flags_byte: FlagsByte| {
            let mut r = FieldReader::new(bytes);
            let shape = Architecture::read_shape(&mut r, flags_byte)?;
            Architecture::read_hidden(&mut r, shape.quantisation)
        };
        assert_eq!(read(&good, FlagsByte::InputFlags), Ok(arch.hidden));
        let with = |at: usize, value: u8| {
            let mut b = good.clone();
            b[at] = value;
            b
        };
        let v2 = FlagsByte::Mirroring { version: 2 };
        for (bytes, flags_byte, offset, words) in [
            (with(0, 3), FlagsByte::InputFlags, 0, "unknown king-bucket layout 3 (0, 1 or 2)"),
            (with(1, 2), v2, 1, "mirroring flag 2 (0 or 1 in version 2)"),
            (with(1, 4), FlagsByte::InputFlags, 1, "input flags 4"),
            (with(2, 33), FlagsByte::InputFlags, 2, "accumulator width 33"),
            (with(4, 2), FlagsByte::InputFlags, 4, "unknown activation 2"),
            (with(5, 32), FlagsByte::InputFlags, 5, "32 output buckets"),
            (with(9, 0x80), FlagsByte::InputFlags, 6, "QB"),
            (with(7, 1), FlagsByte::InputFlags, 6, "QA 511 with screlu"),
            (with(14, 3), FlagsByte::InputFlags, 14, "3 hidden layers"),
            (with(15, 9), FlagsByte::InputFlags, 15, "unknown hidden activation 9"),
            (with(18, 33), FlagsByte::InputFlags, 18, "hidden layer 2 of 33 neurons"),
            (good[..17].to_vec(), FlagsByte::InputFlags, 17, "truncated"),
        ] {
            let err = read(&bytes, flags_byte).unwrap_err();
            assert!(err.message.contains(words), "wanted '{words}', got: {err}");
            assert_eq!(err.offset, offset, "{err}");
        }
        // A first hidden layer that squares needs QA ≤ 255, even under clipped accumulators.
        let wide = Architecture {
            activation: Activation::CRelu,
            quantisation: Quantisation { qa: 300, ..Quantisation::DEFAULT },
            hidden: Hidden::new(&[16]).unwrap(),
            ..arch
        };
        let mut out = FieldWriter::with_capacity(32);
        wide.write_shape(&mut out);
        wide.write_hidden(&mut out);
        let err = read(&out.0, FlagsByte::InputFlags).unwrap_err();
        assert_eq!(err.offset, 15, "{err}");
        assert!(err.message.contains("QA 300 with screlu"), "{err}");
    }
}
