//! The one codec under every binary file Chariot reads and writes (opening books, nets, scored
//! training data, the trainer's checkpoints): little-endian fields and FNV-1a checksums.
//!
//! Reading never panics on bad input: `FieldReader` takes fields in order and names the field a
//! file ends in, and `FormatError` says at which byte what is wrong. The `*_at` readers are for
//! blocks whose length the caller has already checked.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::input_file::{self, InputError, Limit};

/// FNV-1a's 64-bit offset basis: the hash of nothing.
pub const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;
/// FNV-1a's 32-bit offset basis.
const FNV32_OFFSET: u32 = 0x811C_9DC5;
/// FNV-1a's 32-bit prime.
const FNV32_PRIME: u32 = 0x0100_0193;

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_parts(&[bytes])
}

/// FNV-1a, 64 bits, over `parts` in order (as if they were one slice).
pub fn fnv1a64_parts(parts: &[&[u8]]) -> u64 {
    let mut hash = FNV64_OFFSET;
    for part in parts {
        for &b in *part {
            hash = (hash ^ b as u64).wrapping_mul(FNV64_PRIME);
        }
    }
    hash
}

/// FNV-1a's step taken a 64-bit little-endian word at a time instead of a byte (the last word
/// zero-padded), continuing from `hash`: eight times fewer multiplications for fingerprints of
/// whole data sets, where no published value needs to be met.
pub fn fnv1a64_words(hash: u64, bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(hash, |h, word| {
        let mut w = [0u8; 8];
        w[..word.len()].copy_from_slice(word);
        (h ^ u64::from_le_bytes(w)).wrapping_mul(FNV64_PRIME)
    })
}

/// FNV-1a, 32 bits.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(FNV32_OFFSET, |h, &b| (h ^ b as u32).wrapping_mul(FNV32_PRIME))
}

/// Why a file was refused: what is wrong, and the byte offset where it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset in the file.
    pub offset: u64,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for FormatError {}

/// A binary file that could not be read, was refused, or could not be written: which file, and
/// why (the message names the kind of file, as `noun`).
#[derive(Debug)]
pub struct FileError {
    /// The kind of file, as messages name it (`net file`, `checkpoint`).
    pub noun: &'static str,
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: FileErrorKind,
}

/// What went wrong with a binary file.
#[derive(Debug)]
pub enum FileErrorKind {
    /// It could not be read, or is no regular file, or is larger than any valid one of its kind.
    Read(InputError),
    /// Its bytes were refused.
    Refused(FormatError),
    /// The system would not write it.
    Write(io::Error),
}

impl FileError {
    /// `kind` of the `noun` at `path`.
    pub fn new(noun: &'static str, path: &Path, kind: FileErrorKind) -> FileError {
        FileError { noun, path: path.to_path_buf(), kind }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (noun, path) = (self.noun, self.path.display());
        match &self.kind {
            FileErrorKind::Read(e) => write!(f, "cannot read {noun} '{path}': {e}"),
            FileErrorKind::Refused(e) => write!(f, "{noun} '{path}' refused at {e}"),
            FileErrorKind::Write(e) => write!(f, "cannot write {noun} '{path}': {e}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            FileErrorKind::Read(e) => Some(e),
            FileErrorKind::Write(e) => Some(e),
            FileErrorKind::Refused(e) => Some(e),
        }
    }
}

/// Reads the file at `path`, no larger than `limit` allows (see `input_file`), and parses it with
/// `parse`; the error names the file as `limit.what`.
pub fn load<T>(
    limit: Limit,
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<T, FormatError>,
) -> Result<T, FileError> {
    let noun = limit.what;
    let bytes =
        input_file::read(path, limit).map_err(|e| FileError::new(noun, path, FileErrorKind::Read(e)))?;
    parse(&bytes).map_err(|e| FileError::new(noun, path, FileErrorKind::Refused(e)))
}

/// A refusal at byte `offset`.
pub fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, FormatError> {
    Err(FormatError { offset: offset as u64, message: message.into() })
}

/// Reads little-endian fields in order from a byte slice, naming the field when the slice ends
/// too soon.
pub struct FieldReader<'a> {
    /// What is read.
    pub bytes: &'a [u8],
    /// Where the next field starts.
    pub at: usize,
}

impl<'a> FieldReader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> FieldReader<'a> {
        FieldReader { bytes, at: 0 }
    }

    /// The next `n` bytes, which hold `field`.
    pub fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], FormatError> {
        match self.at.checked_add(n).and_then(|end| self.bytes.get(self.at..end)) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => fail(
                self.bytes.len(),
                format!(
                    "the file is truncated: it ends at byte {} in the {field} (bytes {}..{})",
                    self.bytes.len(),
                    self.at,
                    self.at.saturating_add(n)
                ),
            ),
        }
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N], FormatError> {
        Ok(self.take(N, field)?.try_into().expect("N bytes"))
    }

    /// One byte.
    pub fn u8(&mut self, field: &str) -> Result<u8, FormatError> {
        Ok(self.take(1, field)?[0])
    }

    /// `count` little-endian numbers of `N` bytes each, as `decode` reads one.
    pub fn values<T, const N: usize>(
        &mut self,
        count: usize,
        field: &str,
        decode: fn([u8; N]) -> T,
    ) -> Result<Vec<T>, FormatError> {
        let raw = self.take(count.saturating_mul(N), field)?;
        Ok(raw.chunks_exact(N).map(|c| decode(c.try_into().expect("N bytes"))).collect())
    }

    /// A tensor (a u64 length, then that many f32) that must hold `expected` values.
    pub fn tensor(&mut self, expected: usize, field: &str) -> Result<Vec<f32>, FormatError> {
        let at = self.at;
        let len = self.u64(field)?;
        if len != expected as u64 {
            return fail(at, format!("the {field} hold {len} values, the architecture has {expected}"));
        }
        self.values(expected, field, f32::from_le_bytes)
    }
}

/// Appends little-endian fields in order.
#[derive(Default)]
pub struct FieldWriter(pub Vec<u8>);

impl FieldWriter {
    /// An empty writer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> FieldWriter {
        FieldWriter(Vec::with_capacity(capacity))
    }

    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }

    /// One byte.
    pub fn u8(&mut self, x: u8) {
        self.0.push(x);
    }

    /// A tensor: its length as a u64, then its values.
    pub fn tensor(&mut self, values: &[f32]) {
        self.u64(values.len() as u64);
        self.0.reserve(values.len() * 4);
        values.iter().for_each(|v| self.bytes(&v.to_le_bytes()));
    }
}

/// For each numeric type: a `FieldReader` method and a `FieldWriter` method named after it, and
/// a reader at a fixed offset (`u16_at`, ...).
macro_rules! number_fields {
    ($($t:ident $at:ident),*) => {
        impl FieldReader<'_> {
            $(
                #[doc = concat!("One little-endian `", stringify!($t), "`.")]
                pub fn $t(&mut self, field: &str) -> Result<$t, FormatError> {
                    Ok($t::from_le_bytes(self.array(field)?))
                }
            )*
        }
        impl FieldWriter {
            $(
                #[doc = concat!("One little-endian `", stringify!($t), "`.")]
                pub fn $t(&mut self, x: $t) {
                    self.bytes(&x.to_le_bytes());
                }
            )*
        }
        $(
            #[doc = concat!("The little-endian `", stringify!($t), "` at byte `at` of `bytes`, which the caller has checked is long enough.")]
            pub fn $at(bytes: &[u8], at: usize) -> $t {
                $t::from_le_bytes(bytes[at..at + size_of::<$t>()].try_into().expect("checked length"))
            }
        )*
    };
}
number_fields!(u16 u16_at, i16 i16_at, u32 u32_at, i32 i32_at, u64 u64_at, f32 f32_at, f64 f64_at);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_known_values() {
        // The published FNV-1a test vectors: "" and "a".
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a64_parts(&[b"ab", b"", b"c"]), fnv1a64(b"abc"));
    }

    #[test]
    fn fields_round_trip_and_truncation_names_the_field() {
        let mut w = FieldWriter::default();
        w.u8(7);
        w.u16(0x1234);
        w.i32(-5);
        w.f64(0.25);
        w.tensor(&[1.0, -2.0]);
        let bytes = w.0;
        assert_eq!(u16_at(&bytes, 1), 0x1234);
        let mut r = FieldReader::new(&bytes);
        assert_eq!(r.u8("a"), Ok(7));
        assert_eq!(r.u16("b"), Ok(0x1234));
        assert_eq!(r.i32("c"), Ok(-5));
        assert_eq!(r.f64("d"), Ok(0.25));
        assert_eq!(r.tensor(2, "e"), Ok(vec![1.0, -2.0]));
        let err = r.u32("tail").unwrap_err();
        assert_eq!(err.offset, bytes.len() as u64);
        assert!(err.message.contains("in the tail"), "{err}");
    }
}
