//! The trainer's whole state (`TrainState`) and its checkpoint file, written after every epoch:
//! the float weights, Adam's moments and step count, the epochs done, the random generator, the
//! losses so far and the best epoch's weights, with the settings and the identity of the data
//! they belong to. A run resumed from it computes exactly what an uninterrupted run would.
//!
//! The file is written whole or not at all (a temporary file, synced, then renamed over the old
//! one), and read back with every field checked: a damaged file is refused with the byte offset
//! and what is wrong there, or, for damage only the checksum sees, with the checksum mismatch.
//!
//! Layout (version 2, little-endian): magic `CHARCKPT`, version u16, the settings (the
//! architecture's shape first, in the bytes a net file has it, `eval::nnue::architecture`'s codec; version 2
//! ends them with the `--init` net: a flag byte and its checksum, u64), the data's identity, the state's scalars, the loss history, then four networks' worth of tensors (the
//! weights, Adam's first and second moments, the best epoch's weights), each tensor a u64 length
//! and that many f32; last, an FNV-1a 64 checksum of every byte before it.
//!
//! Version 3 is a run of a net with hidden layers: version 2 with, after the `--init` net, the
//! architecture's hidden part (the number of hidden layers, u8, 1 or 2; the first one's
//! activation, u8, 0 CReLU, 1 SCReLU; their sizes, u16 each); each network then has, between
//! the feature biases and the output weights, each hidden layer's weights and biases. A run
//! without hidden layers is still written as version 2, byte for byte as before.

use std::path::Path;

use crate::adam::Decays;
use crate::binary::{self, fail, fnv1a64, FieldReader, FieldWriter, FileError, FileErrorKind, FormatError};
use crate::eval::nnue::architecture::{Architecture, FlagsByte};
use crate::files;

use super::adam::Adam;
use super::float::FloatNetwork;
use super::model::Gradients;
use super::settings::{Schedule, TrainSettings};

/// The first eight bytes of a checkpoint.
pub const MAGIC: [u8; 8] = *b"CHARCKPT";
/// The checkpoint format this build writes for nets with hidden layers. It reads this one,
/// version 2 (what it writes for nets without) and version 1 (whose settings have no `--init` net).
pub const VERSION: u16 = 3;
/// The version of a run without hidden layers.
pub const PLAIN_VERSION: u16 = 2;
/// What messages call a checkpoint file.
const NOUN: &str = "checkpoint";
/// The checkpoint's file name in the checkpoint directory.
pub const FILE_NAME: &str = "checkpoint.bin";

/// Which data a run trains on: a resumed run must be given the same.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DataIdentity {
    /// A hash of every record kept, in order.
    pub fingerprint: u64,
    /// Training positions.
    pub training: u64,
    /// Validation positions.
    pub validation: u64,
}

/// One finished epoch.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochLosses {
    /// The mean loss over the epoch's training positions, as the weights moved.
    pub train: f64,
    /// The mean loss over the validation positions after the epoch (NaN without validation).
    pub validation: f64,
    /// The epoch's learning rate.
    pub lr: f64,
}

/// Everything a training run is: what it was asked, where it stands, and the weights.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    /// What the run was asked to do.
    pub settings: TrainSettings,
    /// The data it trains on.
    pub data: DataIdentity,
    /// The sigmoid's scale in use (given or fitted), centipawns.
    pub k: f64,
    /// Epochs finished.
    pub epochs_done: u32,
    /// The random generator's state (it shuffles the positions each epoch).
    pub rng: u64,
    /// The losses of each finished epoch.
    pub history: Vec<EpochLosses>,
    /// The epoch (from 1) with the lowest validation loss so far; 0 before any.
    pub best_epoch: u32,
    /// The weights.
    pub net: FloatNetwork,
    /// The optimiser.
    pub adam: Adam,
    /// The weights after `best_epoch`.
    pub best_net: FloatNetwork,
}

/// Why a checkpoint was refused: what, and at which byte (`binary::FormatError`, as for nets).
pub type CheckpointError = FormatError;

const SCHEDULE_CONSTANT: u8 = 0;
const SCHEDULE_COSINE: u8 = 1;
const SCHEDULE_STEP: u8 = 2;

/// The names and sizes of a network's tensors, in `Gradients::tensors_mut`'s order, for reading
/// them and naming them in error messages.
fn tensor_shapes(arch: &Architecture) -> Vec<(String, usize)> {
    let mut out = vec![
        ("feature weights".to_string(), arch.feature_weight_count()),
        ("feature biases".to_string(), arch.width),
    ];
    let shapes = arch.dense_shapes();
    for (l, &(inputs, outputs)) in shapes[..shapes.len() - 1].iter().enumerate() {
        let b = arch.output_buckets;
        out.push((format!("hidden layer {} weights", l + 1), b * outputs * inputs));
        out.push((format!("hidden layer {} biases", l + 1), b * outputs));
    }
    out.push(("output weights".to_string(), arch.output_weight_count()));
    out.push(("output biases".to_string(), arch.output_buckets));
    out
}

impl TrainState {
    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = FieldWriter::with_capacity(1024 + 16 * self.net.feature_weights.len());
        out.bytes(&MAGIC);
        let s = &self.settings;
        out.u16(if s.arch.hidden.is_empty() { PLAIN_VERSION } else { VERSION });
        s.arch.write_shape(&mut out);
        out.u32(s.epochs);
        out.u32(s.batch_size);
        out.f64(s.lr);
        let (kind, x, y) = match s.schedule {
            Schedule::Constant => (SCHEDULE_CONSTANT, 0.0, 0.0),
            Schedule::Cosine { final_factor } => (SCHEDULE_COSINE, final_factor, 0.0),
            Schedule::Step { every, gamma } => (SCHEDULE_STEP, every as f64, gamma),
        };
        out.u8(kind);
        out.f64(x);
        out.f64(y);
        out.f64(s.lambda);
        out.u8(s.k.is_some() as u8);
        out.f64(s.k.unwrap_or(0.0));
        out.f64(s.validation);
        out.u64(s.seed);
        out.u32(s.threads);
        out.u8(s.init.is_some() as u8);
        out.u64(s.init.unwrap_or(0));
        s.arch.write_hidden(&mut out);
        out.u64(self.data.fingerprint);
        out.u64(self.data.training);
        out.u64(self.data.validation);
        out.f64(self.k);
        out.u32(self.epochs_done);
        out.u64(self.rng);
        out.u32(self.best_epoch);
        out.u64(self.adam.steps);
        out.f32(self.adam.decays.beta1);
        out.f32(self.adam.decays.beta2);
        out.f32(self.adam.decays.epsilon);
        out.u32(self.history.len() as u32);
        for e in &self.history {
            out.f64(e.train);
            out.f64(e.validation);
            out.f64(e.lr);
        }
        for t in self.net.tensors() {
            out.tensor(t);
        }
        for t in [&self.adam.m, &self.adam.v] {
            for values in t.tensors() {
                out.tensor(values);
            }
        }
        for t in self.best_net.tensors() {
            out.tensor(t);
        }
        let sum = fnv1a64(&out.0);
        out.u64(sum);
        out.0
    }

    /// Reads a checkpoint's bytes, checking every field.
    pub fn from_bytes(bytes: &[u8]) -> Result<TrainState, CheckpointError> {
        let mut r = FieldReader::new(bytes);
        let magic = r.array::<8>("magic")?;
        if magic != MAGIC {
            return fail(
                0,
                format!(
                    "not a Chariot training checkpoint: it starts with {:?}, a checkpoint with \"CHARCKPT\"",
                    String::from_utf8_lossy(&magic)
                ),
            );
        }
        let version = r.u16("version")?;
        if !(1..=VERSION).contains(&version) {
            return fail(
                8,
                format!("checkpoint format version {version}: this build reads versions 1 to {VERSION}"),
            );
        }
        let mut arch = Architecture::read_shape(&mut r, FlagsByte::InputFlags)?;
        let epochs = r.u32("epochs")?;
        let batch_size = r.u32("batch size")?;
        let lr = r.f64("learning rate")?;
        let at = r.at;
        let kind = r.u8("schedule")?;
        let (x, y) = (r.f64("schedule")?, r.f64("schedule")?);
        let schedule = match kind {
            SCHEDULE_CONSTANT => Schedule::Constant,
            SCHEDULE_COSINE => Schedule::Cosine { final_factor: x },
            SCHEDULE_STEP if x.fract() == 0.0 && x >= 1.0 && x <= u32::MAX as f64 => {
                Schedule::Step { every: x as u32, gamma: y }
            }
            _ => return fail(at, format!("unknown schedule {kind} ({x}, {y})")),
        };
        let lambda = r.f64("lambda")?;
        let at = r.at;
        let k = match (r.u8("K flag")?, r.f64("K")?) {
            (0, _) => None,
            (1, k) => Some(k),
            (flag, _) => return fail(at, format!("K flag {flag} (0 or 1)")),
        };
        let validation = r.f64("validation share")?;
        let seed = r.u64("seed")?;
        let threads = r.u32("threads")?;
        let init = if version == 1 {
            None
        } else {
            let at = r.at;
            match (r.u8("init flag")?, r.u64("init net checksum")?) {
                (0, _) => None,
                (1, sum) => Some(sum),
                (flag, _) => return fail(at, format!("init flag {flag} (0 or 1)")),
            }
        };
        if version >= VERSION {
            arch.hidden = Architecture::read_hidden(&mut r, arch.quantisation)?;
        }
        let settings = TrainSettings {
            arch,
            epochs,
            batch_size,
            lr,
            schedule,
            lambda,
            k,
            validation,
            seed,
            threads,
            init,
        };
        if let Err(e) = settings.validate() {
            return fail(10, format!("the settings are invalid: {e}"));
        }
        let data = DataIdentity {
            fingerprint: r.u64("data fingerprint")?,
            training: r.u64("data size")?,
            validation: r.u64("data size")?,
        };
        let at = r.at;
        let k_used = r.f64("K in use")?;
        if !(k_used.is_finite() && k_used > 0.0) {
            return fail(at, format!("K {k_used} is not a positive number"));
        }
        let at = r.at;
        let epochs_done = r.u32("epochs done")?;
        if epochs_done > epochs {
            return fail(at, format!("{epochs_done} epochs done of {epochs}"));
        }
        let rng = r.u64("random generator state")?;
        let at = r.at;
        let best_epoch = r.u32("best epoch")?;
        if best_epoch > epochs_done {
            return fail(at, format!("best epoch {best_epoch} after the {epochs_done} epochs done"));
        }
        let steps = r.u64("Adam steps")?;
        let (beta1, beta2, epsilon) = (r.f32("Adam β1")?, r.f32("Adam β2")?, r.f32("Adam ε")?);
        let at = r.at;
        let count = r.u32("loss history")?;
        if count != epochs_done {
            return fail(at, format!("{count} epochs in the loss history, {epochs_done} done"));
        }
        let mut history = Vec::with_capacity(count as usize);
        for _ in 0..count {
            history.push(EpochLosses {
                train: r.f64("loss history")?,
                validation: r.f64("loss history")?,
                lr: r.f64("loss history")?,
            });
        }
        let shapes = tensor_shapes(&arch);
        let mut groups = Vec::with_capacity(4);
        for group in ["weights", "Adam first moments", "Adam second moments", "best weights"] {
            let mut tensors = Vec::with_capacity(shapes.len());
            for (name, size) in &shapes {
                tensors.push((r.at, r.tensor(*size, &format!("{group}: {name}"))?));
            }
            groups.push(tensors);
        }
        let body_end = r.at;
        let stored = r.u64("checksum")?;
        if r.at != bytes.len() {
            return fail(r.at, format!("{} bytes after the checksum", bytes.len() - r.at));
        }
        let computed = fnv1a64(&bytes[..body_end]);
        if stored != computed {
            return fail(body_end, format!("checksum mismatch: the file says {stored:016x}, bytes 0..{body_end} give {computed:016x} (damaged)"));
        }
        for (group, tensors) in
            ["weights", "Adam first moments", "Adam second moments", "best weights"].iter().zip(&groups)
        {
            for ((name, _), (at, values)) in shapes.iter().zip(tensors) {
                if let Some(i) = values.iter().position(|v| !v.is_finite()) {
                    return fail(at + 8 + 4 * i, format!("{group}: {name} {i} is {}", values[i]));
                }
            }
        }
        let mut nets = groups.into_iter().map(|tensors| {
            let mut net = FloatNetwork::zeros(arch);
            for (slot, (_, values)) in net.tensors_mut().into_iter().zip(tensors) {
                *slot = values;
            }
            net
        });
        let net = nets.next().expect("four groups");
        let gradients = |n: FloatNetwork| Gradients {
            feature_weights: n.feature_weights,
            feature_bias: n.feature_bias,
            hidden: n.hidden,
            output_weights: n.output_weights,
            output_bias: n.output_bias,
        };
        let m = gradients(nets.next().expect("four groups"));
        let v = gradients(nets.next().expect("four groups"));
        let best_net = nets.next().expect("four groups");
        let adam = Adam { decays: Decays { beta1, beta2, epsilon }, steps, m, v };
        Ok(TrainState {
            settings,
            data,
            k: k_used,
            epochs_done,
            rng,
            history,
            best_epoch,
            net,
            adam,
            best_net,
        })
    }

    /// Writes the checkpoint to `path` whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        files::write_atomically(path, self.to_bytes())
            .map_err(|e| FileError::new(NOUN, path, FileErrorKind::Write(e)))
    }

    /// The largest checkpoint read (1 GiB): four float networks of the largest architecture
    /// (about 420 MB) and room for the settings and the loss history.
    pub const FILE_LIMIT: crate::input_file::Limit =
        crate::input_file::Limit { what: "checkpoint", max_len: 1 << 30 };

    /// Reads the checkpoint at `path`; the error names the file, the byte and the trouble.
    pub fn load(path: &Path) -> Result<TrainState, FileError> {
        binary::load(Self::FILE_LIMIT, path, TrainState::from_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::architecture::{Activation, Hidden};
    use crate::train::adam::Adam;
    use crate::train::settings::SettingsRequest;

    fn state() -> TrainState {
        let request = SettingsRequest {
            width: Some(16),
            output_buckets: Some(2),
            threads: Some(2),
            ..SettingsRequest::default()
        };
        let settings = TrainSettings {
            schedule: Schedule::Step { every: 3, gamma: 0.5 },
            k: Some(123.0),
            init: Some(0x0123_4567_89ab_cdef),
            ..request.fresh()
        };
        let arch: Architecture = settings.arch;
        let net = FloatNetwork::random(arch, 1);
        let mut adam = Adam::new(&arch);
        adam.steps = 17;
        adam.m.feature_weights.iter_mut().enumerate().for_each(|(i, m)| *m = i as f32 * 1e-6);
        adam.v.output_bias[1] = 0.5;
        TrainState {
            settings,
            data: DataIdentity { fingerprint: 0xfeed, training: 1000, validation: 50 },
            k: 123.0,
            epochs_done: 2,
            rng: 99,
            history: vec![
                EpochLosses { train: 0.1, validation: 0.2, lr: 0.001 },
                EpochLosses { train: 0.05, validation: f64::NAN, lr: 0.0005 },
            ],
            best_epoch: 1,
            best_net: FloatNetwork::random(arch, 2),
            adam,
            net,
        }
    }

    /// NaN never equals itself: compare states through their bytes.
    #[test]
    fn a_state_round_trips_bit_for_bit() {
        let original = state();
        let bytes = original.to_bytes();
        let back = TrainState::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(
            (back.settings, back.data, back.rng, back.best_epoch),
            (original.settings, original.data, 99, 1)
        );
        assert_eq!((back.net, back.best_net, back.adam), (original.net, original.best_net, original.adam));
        assert!(back.history[1].validation.is_nan());
    }

    /// Each kind of damage, where it is reported, and words the message must contain.
    #[test]
    fn each_damage_is_refused_with_what_and_where() {
        let good = state().to_bytes();
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            b
        };
        let resealed = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            let end = b.len() - 8;
            let sum = fnv1a64(&b[..end]);
            b[end..].copy_from_slice(&sum.to_le_bytes());
            b
        };
        // The first feature weight sits after the fixed fields, the history and the tensor's length.
        // Magic and version 10, architecture 14, settings 70 + init 9, data 24, state 44, history
        // 4 + 2·24.
        let init_flag = 10 + 14 + 70;
        let history_end = init_flag + 9 + 24 + 44 + 4 + 2 * 24;
        let first_weight = history_end + 8;
        let end = good.len() - 8;
        let cases: Vec<(Vec<u8>, u64, &str)> = vec![
            (with(&|b| b[0] = b'X'), 0, "not a Chariot training checkpoint"),
            (with(&|b| b[8] = 7), 8, "version 7"),
            (with(&|b| b[init_flag] = 2), init_flag as u64, "init flag 2"),
            (with(&|b| b[10] = 5), 10, "king-bucket layout 5"),
            (with(&|b| b[11] = 4), 11, "input flags 4"),
            (with(&|b| b[12] = 17), 12, "accumulator width 17"),
            (with(&|b| b.truncate(30)), 30, "truncated"),
            (with(&|b| b.truncate(end - 3)), (end - 3) as u64, "truncated"),
            (with(&|b| b.push(1)), good.len() as u64, "1 bytes after the checksum"),
            (with(&|b| b[first_weight + 5] ^= 0x10), end as u64, "checksum mismatch"),
            (with(&|b| b[history_end] ^= 1), history_end as u64, "weights: feature weights hold"),
            (
                resealed(&|b| b[first_weight + 4..first_weight + 8].copy_from_slice(&f32::NAN.to_le_bytes())),
                first_weight as u64 + 4,
                "feature weights 1 is NaN",
            ),
        ];
        for (bytes, offset, words) in cases {
            let err = TrainState::from_bytes(&bytes).unwrap_err();
            assert!(err.message.contains(words), "wanted '{words}', got: {err}");
            assert_eq!(err.offset, offset, "{err}");
        }
    }

    /// A version 1 checkpoint (settings without the init net) is still read, as a run from
    /// random weights.
    #[test]
    fn a_version_1_checkpoint_is_read_as_a_run_without_init() {
        let mut original = state();
        original.settings.init = None;
        let mut bytes = original.to_bytes();
        let init_flag = 10 + 14 + 70;
        bytes.drain(init_flag..init_flag + 9);
        bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
        let end = bytes.len() - 8;
        let sum = fnv1a64(&bytes[..end]);
        bytes[end..].copy_from_slice(&sum.to_le_bytes());
        let back = TrainState::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), original.to_bytes());
    }

    fn hidden_state() -> TrainState {
        let mut original = state();
        original.settings.arch.hidden = Hidden::new(&[16, 32]).unwrap();
        let arch = original.settings.arch;
        original.net = FloatNetwork::random(arch, 1);
        original.best_net = FloatNetwork::random(arch, 2);
        original.adam = Adam::new(&arch);
        original.adam.m.hidden[1].weights[7] = 0.25;
        original.adam.v.hidden[0].bias[3] = 0.5;
        original
    }

    /// A run with hidden layers is a version 3 checkpoint carrying the sizes and every layer's
    /// tensors, and reads back whole; a run without is still version 2.
    #[test]
    fn a_state_with_hidden_layers_round_trips_as_version_3() {
        let original = hidden_state();
        let bytes = original.to_bytes();
        assert_eq!(bytes[8..10], 3u16.to_le_bytes());
        assert_eq!(state().to_bytes()[8..10], 2u16.to_le_bytes());
        let back = TrainState::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.settings.arch.hidden.sizes(), [16, 32]);
        assert_eq!((back.net, back.best_net, back.adam), (original.net, original.best_net, original.adam));
        let mut clipped = hidden_state();
        clipped.settings.arch.hidden = clipped.settings.arch.hidden.with_first_activation(Activation::CRelu);
        let back_clipped = TrainState::from_bytes(&clipped.to_bytes()).unwrap();
        assert_eq!(back_clipped.settings.arch.hidden.first_activation(), Activation::CRelu);
        // The hidden sizes follow the init net: count at `init_flag + 9`, then the sizes.
        let count_at = 10 + 14 + 70 + 9;
        let resealed = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = bytes.clone();
            f(&mut b);
            let end = b.len() - 8;
            let sum = fnv1a64(&b[..end]);
            b[end..].copy_from_slice(&sum.to_le_bytes());
            b
        };
        for (damaged, offset, words) in [
            (resealed(&|b| b[count_at] = 0), count_at, "0 hidden layers"),
            (resealed(&|b| b[count_at + 1] = 9), count_at + 1, "unknown hidden activation 9"),
            (resealed(&|b| b[count_at + 2] = 24), count_at + 2, "hidden layer 1 of 24 neurons"),
            // Another valid size: the tensors no longer fit the bytes (a layer's weights are read
            // with the wrong length, and the rest runs out or is left over).
            (resealed(&|b| b[count_at + 4] = 16), 0, ""),
        ] {
            let err = TrainState::from_bytes(&damaged).unwrap_err();
            assert!(err.message.contains(words), "wanted '{words}', got: {err}");
            if !words.is_empty() {
                assert_eq!(err.offset, offset as u64, "{err}");
            }
        }
    }

    /// Checkpoints of both versions are, byte for byte, what the build before the shared
    /// architecture codec wrote for the same states (lengths and FNV-1a hashes recorded from that
    /// build), and read back whole.
    #[test]
    fn checkpoints_are_written_as_before_the_shared_codec() {
        for (state, len, hash) in
            [(state(), 1_089_159, 0x15e9_39f6_de11_126d), (hidden_state(), 1_123_597, 0x5933_44d3_44e0_0843)]
        {
            let bytes = state.to_bytes();
            assert_eq!((bytes.len(), fnv1a64(&bytes)), (len, hash));
            assert_eq!(TrainState::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        }
    }

    /// A checkpoint holds its architecture's shape in the bytes, and at the offset, a net file
    /// of that architecture does: one codec writes both.
    #[test]
    fn the_shape_has_the_bytes_of_a_net_file() {
        for state in [state(), hidden_state()] {
            let net = crate::eval::nnue::Network::random(state.settings.arch, 1).unwrap();
            let net_file = crate::eval::nnue::format::to_bytes(&net);
            let end = 10 + Architecture::SHAPE_LEN;
            assert_eq!(state.to_bytes()[10..end], net_file[10..end]);
        }
    }

    #[test]
    fn save_replaces_the_file_whole_and_load_names_it() {
        let dir = std::env::temp_dir().join(format!("chariot-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE_NAME);
        state().save(&path).unwrap();
        assert_eq!(TrainState::load(&path).unwrap().to_bytes(), state().to_bytes());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        std::fs::write(&path, b"CHARCKPT\x01").unwrap();
        let err = TrainState::load(&path).unwrap_err().to_string();
        assert!(err.contains(FILE_NAME) && err.contains("byte 9") && err.contains("truncated"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
