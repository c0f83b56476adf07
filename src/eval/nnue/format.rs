//! The net file: a versioned header that states the architecture, a checksum, and the quantised
//! weights. Loading checks everything and never panics: a wrong or damaged file is refused with
//! the byte where the trouble is and what is wrong there. `docs/nnue.md` gives the layout.
//!
//! All numbers are little-endian. Bytes 10 to 23 are the architecture's shape and version 5's
//! hidden-layer bytes are its hidden part, both written and read by `architecture`'s one codec,
//! which the trainer's checkpoint shares. Layout of version 3 (version 2 has a plain mirroring flag where
//! version 3 has input flags, and is what a net without relation inputs is still written as;
//! version 1 is version 2 without the win-rate model, its nets get `network::DEFAULT_WIN_RATE`):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHARNNUE` |
//! | 8 | 2 | version, 3 (2 for a net without relation inputs) |
//! | 10 | 1 | king buckets: 0 single, 1 rank, 2 palace |
//! | 11 | 1 | version 3: input flags, bit 0 mirroring, bit 1 relation inputs; before: mirroring 0 or 1 |
//! | 12 | 2 | accumulator width N |
//! | 14 | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 15 | 1 | output buckets B |
//! | 16 | 2 | QA (i16) |
//! | 18 | 2 | QB (i16) |
//! | 20 | 4 | scale, centipawns per unit (i32) |
//! | 24 | 4 | inputs I (must equal what the feature set gives) |
//! | 28 | 8 | payload length in bytes |
//! | 36 | 2 | description length D |
//! | 38 | D | description, UTF-8 |
//! | 38+D | 64 | win-rate model: a₃ a₂ a₁ a₀ b₃ b₂ b₁ b₀ (f64; see `winrate::model`) |
//! | 102+D | 8 | checksum: FNV-1a (64-bit) of every other byte of the file |
//! | 110+D | … | payload: I·N feature weights (i16), N feature biases (i16), B·2N output weights (i16), B output biases (i32) |
//!
//! Version 4 is a net with hidden layers (`Architecture::hidden`): version 3's layout with, at
//! byte 36 (before the description length, which moves on by `2 + 2H`), the number of hidden
//! layers H (u8, 1 or 2), the first one's activation (u8, 0 CReLU, 1 SCReLU), and each one's
//! size (u16, first layer first). Its payload has, between
//! the feature biases and the output weights, each hidden layer's `B·out·in` weights (i16, bucket
//! by bucket, neuron by neuron) and `B·out` biases (i32); its output layer has `B·L` weights,
//! `L` the last hidden layer's size.
//!
//! Version 5 is version 4 with the hidden values at the finer scale `QV = 16·QA` (the network
//! module's doc has the arithmetic): the same bytes mean another net, so this build refuses
//! version 4, whose nets kept them at QA; such a net is made again from its training checkpoint.

use std::path::Path;

use crate::binary::{
    self, fail, fnv1a64_parts, FieldReader, FieldWriter, FileError, FileErrorKind, FormatError,
};
use crate::files;
use crate::input_file::Limit;
use crate::winrate::WinRateModel;

use super::architecture::{
    Architecture, FlagsByte, MAX_HIDDEN, MAX_HIDDEN_LAYERS, MAX_OUTPUT_BUCKETS, MAX_WIDTH,
};
use super::features::{FeatureSet, KingBuckets};
use super::layers::Dense;
use super::network::{self, Network, MAX_DESCRIPTION};

/// The first eight bytes of every net file.
pub const MAGIC: [u8; 8] = *b"CHARNNUE";
/// The newest format version, which this build writes for nets with hidden layers; a net
/// without them is written as the oldest version that holds it (3 with relation inputs, else
/// 2), so that its bytes (and checksum) stay what they were.
pub const VERSION: u16 = 5;
/// The version of the first nets with hidden layers, whose hidden values were at scale QA: no
/// longer read.
pub const HIDDEN_AT_QA_VERSION: u16 = 4;
/// The version of a net with relation inputs and no hidden layers.
pub const RELATIONS_VERSION: u16 = 3;
/// The version of a net without relation inputs.
pub const PLAIN_VERSION: u16 = 2;
/// The oldest version this build reads: version 1 has no win-rate model.
pub const OLDEST_VERSION: u16 = 1;
/// Bytes of the win-rate model in a version 2 header.
pub const WIN_RATE_LEN: usize = 64;
/// Bytes of the fixed part of the header (before the description).
pub const FIXED_HEADER: usize = 38;

/// Bytes of the payload of a net of `arch`.
pub fn payload_len(arch: &Architecture) -> u64 {
    let n = arch.width as u64;
    let b = arch.output_buckets as u64;
    let dense: u64 = arch.dense_shapes().iter().map(|&(i, o)| b * o as u64 * (2 * i as u64 + 4)).sum();
    2 * (arch.inputs() as u64 * n + n) + dense
}

/// The net as the bytes of a file.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let (header, payload) = header_and_payload(net);
    let sum = fnv1a64_parts(&[&header, &payload]);
    let mut file = header;
    file.extend_from_slice(&sum.to_le_bytes());
    file.extend_from_slice(&payload);
    file
}

/// The checksum the net's file carries: what names a net (`nnue check` prints it; a net trained
/// with `--init` records its starting net's).
pub fn checksum(net: &Network) -> u64 {
    let (header, payload) = header_and_payload(net);
    fnv1a64_parts(&[&header, &payload])
}

/// The version a net's file is written as: the oldest that can hold it.
pub fn version_of(net: &Network) -> u16 {
    if !net.arch().hidden.is_empty() {
        VERSION
    } else if net.arch().features.relations {
        RELATIONS_VERSION
    } else {
        PLAIN_VERSION
    }
}

/// The bytes before the checksum, and those after it.
fn header_and_payload(net: &Network) -> (Vec<u8>, Vec<u8>) {
    let arch = net.arch();
    let description = net.description().as_bytes();
    let mut header = FieldWriter::with_capacity(FIXED_HEADER + description.len());
    header.bytes(&MAGIC);
    header.u16(version_of(net));
    arch.write_shape(&mut header);
    header.u32(arch.inputs() as u32);
    header.u64(payload_len(arch));
    arch.write_hidden(&mut header);
    header.u16(description.len() as u16);
    header.bytes(description);
    net.win_rate().to_array().iter().for_each(|&c| header.f64(c));
    let mut payload = FieldWriter::with_capacity(payload_len(arch) as usize);
    for values in [&net.feature_weights, &net.feature_bias] {
        values.iter().for_each(|&v| payload.i16(v));
    }
    for layer in &net.hidden {
        layer.weights.iter().for_each(|&v| payload.i16(v));
        layer.bias.iter().for_each(|&v| payload.i32(v));
    }
    net.output_weights.iter().for_each(|&v| payload.i16(v));
    net.output_bias.iter().for_each(|&v| payload.i32(v));
    (header.0, payload.0)
}

/// Parses a net file's bytes, checking the header, the length, the checksum and the weights.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
    let mut r = FieldReader::new(bytes);
    let magic = r.array::<8>("magic")?;
    if magic != MAGIC {
        return fail(
            0,
            format!(
                "not a Chariot net file: it starts with {:?}, a net starts with \"CHARNNUE\"",
                String::from_utf8_lossy(&magic)
            ),
        );
    }
    let version = r.u16("version")?;
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return fail(
            8,
            format!("format version {version}: this build reads versions {OLDEST_VERSION} to {VERSION}"),
        );
    }
    if version == HIDDEN_AT_QA_VERSION {
        return fail(
            8,
            format!(
                "format version {version}: a net with hidden layers at their first scale, which this \
                 build no longer evaluates (version {VERSION} keeps 16 times finer hidden values); \
                 export it again from its training checkpoint (`nnue train --resume` with the run's \
                 data and checkpoint directory)"
            ),
        );
    }
    // Versions 1 and 2 have a mirroring flag where version 3 has the input flags.
    let flags_byte =
        if version < RELATIONS_VERSION { FlagsByte::Mirroring { version } } else { FlagsByte::InputFlags };
    let mut arch = Architecture::read_shape(&mut r, flags_byte)?;
    let inputs = r.u32("input count")? as usize;
    if inputs != arch.inputs() {
        return fail(24, format!("{inputs} inputs, but {} has {}", arch.features, arch.inputs()));
    }
    let stated_payload = r.u64("payload length")?;
    if version >= HIDDEN_AT_QA_VERSION {
        arch.hidden = Architecture::read_hidden(&mut r, arch.quantisation)?;
    }
    let expected_payload = payload_len(&arch);
    if stated_payload != expected_payload {
        return fail(
            28,
            format!(
                "payload length {stated_payload} does not match the architecture ({arch}), \
                 which needs {expected_payload} bytes"
            ),
        );
    }
    let description_at = r.at;
    let description_len = r.u16("description length")? as usize;
    if description_len > MAX_DESCRIPTION {
        return fail(
            description_at,
            format!("description length {description_len} (at most {MAX_DESCRIPTION})"),
        );
    }
    let description = match std::str::from_utf8(r.take(description_len, "description")?) {
        Ok(text) => text.to_string(),
        Err(e) => return fail(description_at + 2 + e.valid_up_to(), "the description is not UTF-8"),
    };
    let win_rate = match version {
        1 => network::DEFAULT_WIN_RATE,
        _ => {
            let at = r.at;
            let mut values = [0.0; 8];
            for v in values.iter_mut() {
                *v = r.f64("win-rate model")?;
            }
            match WinRateModel::from_array(values) {
                Ok(model) => model,
                Err(e) => return fail(at, format!("bad win-rate model: {e}")),
            }
        }
    };
    let header_end = r.at;
    let stored_sum = r.u64("checksum")?;
    let payload_start = r.at;
    let expected_end = payload_start as u64 + expected_payload;
    if (bytes.len() as u64) < expected_end {
        return fail(
            bytes.len(),
            format!(
                "the file is truncated: it ends at byte {} but the payload runs to byte {expected_end}",
                bytes.len()
            ),
        );
    }
    if (bytes.len() as u64) > expected_end {
        return fail(
            expected_end as usize,
            format!("{} bytes after the end of the payload", bytes.len() as u64 - expected_end),
        );
    }
    let payload = &bytes[payload_start..];
    let computed = fnv1a64_parts(&[&bytes[..header_end], payload]);
    if computed != stored_sum {
        return fail(
            header_end,
            format!("checksum mismatch: the file says {stored_sum:016x}, its bytes give {computed:016x} (damaged)"),
        );
    }
    // The length is checked, so the payload's fields read from `r` where the header left it.
    let feature_weights = r.values(arch.feature_weight_count(), "feature weights", i16::from_le_bytes)?;
    let feature_bias = r.values(arch.width, "feature biases", i16::from_le_bytes)?;
    let shapes = arch.dense_shapes();
    let mut hidden = Vec::with_capacity(shapes.len() - 1);
    for &(inputs, outputs) in &shapes[..shapes.len() - 1] {
        let weights =
            r.values(arch.output_buckets * outputs * inputs, "hidden weights", i16::from_le_bytes)?;
        let bias = r.values(arch.output_buckets * outputs, "hidden biases", i32::from_le_bytes)?;
        hidden.push(Dense::new(inputs, outputs, weights, bias));
    }
    let output_weights = r.values(arch.output_weight_count(), "output weights", i16::from_le_bytes)?;
    let output_bias = r.values(arch.output_buckets, "output biases", i32::from_le_bytes)?;
    let net = Network {
        arch,
        feature_weights,
        feature_bias,
        hidden,
        output_weights,
        output_bias,
        description,
        win_rate,
    };
    if let Err(e) = net.check_ranges() {
        return fail(payload_start, format!("the weights are out of range: {e}"));
    }
    Ok(net)
}

/// The most feature inputs any feature set has (one weight block per palace square, unmirrored,
/// and relation inputs).
const MAX_INPUTS: usize = {
    let mut most = 0;
    let mut i = 0;
    while i < 2 * KingBuckets::ALL.len() {
        let set = FeatureSet { king_buckets: KingBuckets::ALL[i / 2], mirror: i % 2 == 1, relations: true };
        if set.inputs() > most {
            most = set.inputs();
        }
        i += 1;
    }
    most
};

/// The largest net file this format accepts: the widest accumulator with the most inputs and
/// output buckets, two of the largest hidden layers, and the longest description (about 120 MB).
/// Anything larger is refused unread.
pub const FILE_LIMIT: Limit = Limit {
    what: "net file",
    max_len: (FIXED_HEADER + 2 + 2 * MAX_HIDDEN_LAYERS + MAX_DESCRIPTION + WIN_RATE_LEN + 8) as u64
        + 2 * (MAX_INPUTS * MAX_WIDTH + MAX_WIDTH) as u64
        + MAX_OUTPUT_BUCKETS as u64
            * (MAX_HIDDEN as u64 * (2 * 2 * MAX_WIDTH as u64 + 4)
                + MAX_HIDDEN as u64 * (2 * MAX_HIDDEN as u64 + 4)
                + (2 * MAX_HIDDEN as u64 + 4)),
};

/// Loads a net file; the error names the file, the byte and the trouble.
pub fn load(path: &Path) -> Result<Network, FileError> {
    binary::load(FILE_LIMIT, path, from_bytes)
}

/// Writes a net file whole or not at all: into a temporary file beside `path`, then renamed over it.
pub fn save(net: &Network, path: &Path) -> Result<(), FileError> {
    files::write_atomically(path, to_bytes(net))
        .map_err(|e| FileError::new(FILE_LIMIT.what, path, FileErrorKind::Write(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::architecture::{Activation, Hidden, Quantisation};
    use proptest::prelude::*;

    fn small_net(seed: u64) -> Network {
        let arch = Architecture { width: 16, output_buckets: 2, ..Architecture::DEFAULT };
        Network::random(arch, seed).unwrap().with_description("test net")
    }

    #[test]
    fn relation_inputs_need_version_3_and_other_nets_stay_version_2() {
        let plain = small_net(3);
        assert_eq!(to_bytes(&plain)[8..12], [2, 0, 2, 1]);
        let arch = Architecture {
            features: FeatureSet { relations: true, ..Architecture::DEFAULT.features },
            width: 16,
            output_buckets: 2,
            ..Architecture::DEFAULT
        };
        let net = Network::random(arch, 4).unwrap();
        let bytes = to_bytes(&net);
        assert_eq!(bytes[8..12], [3, 0, 2, 3]);
        assert_eq!(from_bytes(&bytes), Ok(net));
        // The relation bit in a version 2 file, and an unknown flag in version 3, are refused
        // at byte 11, before the checksum could be the reason.
        let mut v2 = to_bytes(&plain);
        v2[11] = 3;
        let e = from_bytes(&v2).unwrap_err();
        assert_eq!(e.offset, 11);
        assert!(e.message.contains("mirroring flag 3 (0 or 1 in version 2)"), "{e}");
        let mut v3 = bytes.clone();
        v3[11] = 4;
        let e = from_bytes(&v3).unwrap_err();
        assert_eq!(e.offset, 11);
        assert!(e.message.contains("input flags 4"), "{e}");
    }

    #[test]
    fn the_file_limit_is_the_largest_valid_net() {
        let largest = Architecture {
            features: FeatureSet { king_buckets: KingBuckets::Palace, mirror: false, relations: true },
            width: MAX_WIDTH,
            output_buckets: MAX_OUTPUT_BUCKETS,
            hidden: Hidden::new(&[MAX_HIDDEN; MAX_HIDDEN_LAYERS]).unwrap(),
            ..Architecture::DEFAULT
        };
        assert!(largest.validate().is_ok());
        let hidden_header = 2 + 2 * MAX_HIDDEN_LAYERS;
        let longest = (FIXED_HEADER + hidden_header + MAX_DESCRIPTION + WIN_RATE_LEN + 8) as u64
            + payload_len(&largest);
        assert_eq!(FILE_LIMIT.max_len, longest);
    }

    fn hidden_net(seed: u64, sizes: &[usize]) -> Network {
        let arch = Architecture {
            width: 16,
            output_buckets: 2,
            hidden: Hidden::new(sizes).unwrap(),
            ..Architecture::DEFAULT
        };
        Network::random(arch, seed).unwrap().with_description("hidden")
    }

    /// A net with hidden layers is version 5 with their count at byte 36, the first one's
    /// activation at 37 and the sizes from 38, and reads back whole; the payload holds each
    /// layer's weights and biases for every bucket. The same bytes as version 4 are refused.
    #[test]
    fn hidden_layers_need_version_5_and_round_trip() {
        for (sizes, first) in
            [(&[16][..], Activation::SCRelu), (&[16, 32], Activation::CRelu), (&[32, 16], Activation::SCRelu)]
        {
            let arch = Architecture {
                width: 16,
                output_buckets: 2,
                hidden: Hidden::new(sizes).unwrap().with_first_activation(first),
                ..Architecture::DEFAULT
            };
            let net = Network::random(arch, 5).unwrap().with_description("hidden");
            let bytes = to_bytes(&net);
            assert_eq!(bytes[8..10], [5, 0]);
            let mut old = bytes.clone();
            old[8] = 4;
            let err = from_bytes(&old).unwrap_err();
            assert!(err.message.contains("format version 4: a net with hidden layers"), "{err}");
            assert_eq!(err.offset, 8);
            assert_eq!(bytes[36] as usize, sizes.len());
            assert_eq!(bytes[37], first.code());
            for (i, &size) in sizes.iter().enumerate() {
                assert_eq!(u16::from_le_bytes([bytes[38 + 2 * i], bytes[39 + 2 * i]]) as usize, size);
            }
            // 2 buckets: 32 → L1 (→ L2) → 1, each weight 2 bytes, each bias 4.
            let arch = net.arch();
            let mut inputs = 32;
            let mut dense = 0;
            for &size in sizes.iter().chain([1].iter()) {
                dense += 2 * (size * (2 * inputs + 4)) as u64;
                inputs = size;
            }
            assert_eq!(payload_len(arch), 2 * (arch.inputs() as u64 * 16 + 16) + dense);
            let header = FIXED_HEADER + 2 + 2 * sizes.len() + "hidden".len() + WIN_RATE_LEN + 8;
            assert_eq!(bytes.len() as u64, header as u64 + payload_len(arch));
            assert_eq!(from_bytes(&bytes), Ok(net));
        }
    }

    /// Each kind of damage to a version 5 file, where it is reported, and what is said.
    #[test]
    fn damaged_hidden_layers_are_refused_with_what_and_where() {
        let good = to_bytes(&hidden_net(6, &[16, 32]));
        let resealed = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            // Recompute the checksum over the header (before it) and the payload (after it).
            let description = u16::from_le_bytes([b[42], b[43]]) as usize;
            let sum_at = 44 + description + WIN_RATE_LEN;
            let sum = fnv1a64_parts(&[&b[..sum_at], &b[sum_at + 8..]]);
            b[sum_at..sum_at + 8].copy_from_slice(&sum.to_le_bytes());
            b
        };
        let payload_at = 44 + "hidden".len() + WIN_RATE_LEN + 8;
        let first_hidden_weight = payload_at + 2 * (Architecture::DEFAULT.inputs() * 16 + 16);
        let cases: Vec<(Vec<u8>, u64, &str)> = vec![
            (resealed(&|b| b[36] = 0), 36, "0 hidden layers"),
            (resealed(&|b| b[36] = 3), 36, "3 hidden layers"),
            (resealed(&|b| b[37] = 7), 37, "unknown hidden activation 7"),
            (resealed(&|b| b[38] = 20), 38, "hidden layer 1 of 20 neurons"),
            (resealed(&|b| b[40..42].copy_from_slice(&144u16.to_le_bytes())), 40, "hidden layer 2 of 144"),
            // A valid size that is not the file's: the stated payload length no longer matches.
            (resealed(&|b| b[38] = 32), 28, "does not match the architecture"),
            (good[..38].to_vec(), 38, "truncated"),
            // The other activation is a valid net but not this file's: the checksum says so.
            (
                {
                    let mut b = good.clone();
                    b[37] ^= 1;
                    b
                },
                (payload_at - 8) as u64,
                "checksum mismatch",
            ),
            (good[..good.len() - 1].to_vec(), good.len() as u64 - 1, "truncated"),
            // The first hidden bias near the top of i32: with the weights, the sum could leave it.
            (
                resealed(&|b| {
                    let at = first_hidden_weight + 2 * (2 * 16 * 32);
                    b[at..at + 4].copy_from_slice(&(i32::MAX - 10).to_le_bytes());
                }),
                payload_at as u64,
                "hidden layer 1 of output bucket 0: neuron 0's sum could reach",
            ),
            // Without resealing, a changed weight is a damaged file.
            (
                {
                    let mut b = good.clone();
                    b[first_hidden_weight] ^= 1;
                    b
                },
                (payload_at - 8) as u64,
                "checksum mismatch",
            ),
        ];
        for (bytes, offset, words) in cases {
            let err = from_bytes(&bytes).unwrap_err();
            assert!(err.message.contains(words), "wanted '{words}', got: {err}");
            assert_eq!(err.offset, offset, "{err}");
        }
        // A version 2 file stays what it was: the byte at 36 is the description length.
        let plain = to_bytes(&small_net(2));
        assert_eq!(plain[8..10], [2, 0]);
        assert_eq!(u16::from_le_bytes([plain[36], plain[37]]) as usize, "test net".len());
    }

    /// Nets of every version are, byte for byte, what the build before the shared architecture
    /// codec wrote for the same nets: their lengths and FNV-1a hashes, recorded from that build.
    #[test]
    fn every_version_is_written_as_before_the_shared_codec() {
        let plain = Architecture { width: 16, output_buckets: 2, ..Architecture::DEFAULT };
        let relations = Architecture {
            features: FeatureSet { king_buckets: KingBuckets::Rank, mirror: false, relations: true },
            activation: Activation::CRelu,
            ..plain
        };
        let hidden = Architecture {
            hidden: Hidden::new(&[16, 32]).unwrap().with_first_activation(Activation::CRelu),
            ..plain
        };
        let both = Architecture { hidden: Hidden::new(&[32]).unwrap(), output_buckets: 3, ..relations };
        for (arch, version, len, hash) in [
            (plain, 2, 136_220, 0x1d75_1205_89aa_ebe1),
            (relations, 3, 385_436, 0x4dd1_8563_47f7_e739),
            (hidden, 5, 140_706, 0xdf89_cfb1_f4ec_82f8),
            (both, 5, 392_036, 0x32c1_a089_b317_76ca),
        ] {
            let net = Network::random(arch, 11).unwrap().with_description("golden");
            let bytes = to_bytes(&net);
            assert_eq!((bytes[8], bytes.len(), binary::fnv1a64(&bytes)), (version, len, hash), "{arch}");
            assert_eq!(from_bytes(&bytes), Ok(net));
        }
    }

    /// Every committed net (all version 2 today) reads, and writes back to the same bytes.
    #[test]
    fn the_committed_nets_load_and_write_back_byte_for_byte() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "nnue") {
                let bytes = std::fs::read(&path).unwrap();
                let net = from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert!(to_bytes(&net) == bytes, "{} is written back differently", path.display());
                seen += 1;
            }
        }
        assert!(seen > 0, "no net in {}", dir.display());
    }

    #[test]
    fn round_trip_keeps_every_weight() {
        let net = small_net(1);
        let bytes = to_bytes(&net);
        assert_eq!(
            bytes.len() as u64,
            FIXED_HEADER as u64 + 8 + WIN_RATE_LEN as u64 + 8 + payload_len(net.arch())
        );
        assert_eq!(from_bytes(&bytes), Ok(net));
    }

    /// Each kind of damage, the byte it is reported at, and words the message must contain.
    #[test]
    fn each_damage_is_refused_with_what_and_where() {
        let good = to_bytes(&small_net(2));
        let model_at = FIXED_HEADER + "test net".len();
        let d = model_at + WIN_RATE_LEN;
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            b
        };
        let cases: Vec<(Vec<u8>, u64, &str)> = vec![
            (b"PK\x03\x04".to_vec(), 4, "truncated"),
            (with(&|b| b[0] = b'X'), 0, "not a Chariot net"),
            (with(&|b| b[8] = 6), 8, "version 6"),
            // The midpoint's constant term made negative: no model.
            (with(&|b| b[model_at + 31] = 0xc0), model_at as u64, "bad win-rate model"),
            (
                with(&|b| b[model_at..model_at + 8].copy_from_slice(&f64::NAN.to_bits().to_le_bytes())),
                model_at as u64,
                "not a finite number",
            ),
            (with(&|b| b[10] = 9), 10, "king-bucket layout 9"),
            (with(&|b| b[11] = 2), 11, "mirroring flag 2"),
            (with(&|b| b[12] = 17), 12, "width"),
            (with(&|b| b[14] = 5), 14, "activation 5"),
            (with(&|b| b[15] = 0), 15, "0 output buckets"),
            (with(&|b| b[16..18].copy_from_slice(&0i16.to_le_bytes())), 16, "QA 0"),
            (with(&|b| b[24] ^= 1), 24, "inputs"),
            // Width 32 instead of 16: the stated payload length no longer matches.
            (with(&|b| b[12] = 32), 28, "does not match the architecture"),
            (with(&|b| b.truncate(b.len() - 3)), good.len() as u64 - 3, "truncated"),
            (with(&|b| b.truncate(30)), 30, "truncated"),
            (with(&|b| b.push(0)), good.len() as u64, "1 bytes after"),
            (with(&|b| *b.last_mut().unwrap() ^= 0x40), d as u64, "checksum mismatch"),
            (with(&|b| b[FIXED_HEADER] = 0xff), FIXED_HEADER as u64, "not UTF-8"),
            // Activation flipped to CReLU: a valid architecture, but the checksum covers the header.
            (with(&|b| b[14] = 0), d as u64, "checksum mismatch"),
            (vec![], 0, "truncated"),
        ];
        for (bytes, offset, words) in cases {
            let err = from_bytes(&bytes).unwrap_err();
            assert!(err.message.contains(words), "wanted '{words}', got: {err}");
            assert_eq!(err.offset, offset, "{err}");
        }
    }

    #[test]
    fn out_of_range_weights_in_a_file_are_refused() {
        let mut net = small_net(3);
        net.feature_weights.iter_mut().for_each(|w| *w = 2000);
        let err = from_bytes(&to_bytes(&net)).unwrap_err();
        assert!(err.message.contains("out of range"), "{err}");
        assert_eq!(err.offset, (FIXED_HEADER + 8 + WIN_RATE_LEN + 8) as u64);
    }

    #[test]
    fn save_replaces_whole_files_and_load_names_the_file() {
        let dir = std::env::temp_dir().join(format!("chariot-nnue-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.nnue");
        let net = small_net(4);
        save(&net, &path).unwrap();
        assert_eq!(load(&path).unwrap(), net);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        std::fs::write(&path, b"CHARNNUE").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("net.nnue") && err.contains("byte 8") && err.contains("truncated"), "{err}");
        assert!(load(&dir.join("missing.nnue")).unwrap_err().to_string().contains("cannot read"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = from_bytes(&bytes);
            let mut with_magic = MAGIC.to_vec();
            with_magic.extend_from_slice(&bytes);
            prop_assert!(from_bytes(&with_magic).is_err());
        }

        #[test]
        fn mutated_files_load_or_fail_cleanly(
            seed in 0u64..1000,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
            cut in proptest::option::of(any::<prop::sample::Index>()),
        ) {
            let net = small_net(seed);
            let mut bytes = to_bytes(&net);
            for (at, value) in edits {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Some(cut) = cut {
                bytes.truncate(cut.index(bytes.len()));
            }
            match from_bytes(&bytes) {
                // Only edits that changed nothing can load, and then they load the same net.
                Ok(loaded) => prop_assert_eq!(loaded, net),
                Err(e) => prop_assert!(e.offset <= bytes.len() as u64 && !e.message.is_empty()),
            }
        }

        #[test]
        fn save_load_round_trips(seed in any::<u64>(), buckets in 0u8..3, mirror: bool, relations: bool,
                                 activation in 0u8..2, outputs in 1usize..5) {
            let arch = Architecture {
                features: FeatureSet { king_buckets: KingBuckets::from_code(buckets).unwrap(), mirror, relations },
                width: 16,
                activation: Activation::from_code(activation).unwrap(),
                output_buckets: outputs,
                quantisation: Quantisation::DEFAULT,
                hidden: Hidden::NONE,
            };
            let net = Network::random(arch, seed).unwrap().with_description("round trip");
            prop_assert_eq!(from_bytes(&to_bytes(&net)), Ok(net));
        }
    }
}
