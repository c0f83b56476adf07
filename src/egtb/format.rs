//! The table file: one signature's values, one byte a position, behind a header.
//!
//! ```text
//! magic      8 bytes   "CHARIOTT"
//! version    u32       1
//! signature  u8 n, n ASCII bytes (canonical: the stronger side as Red)
//! positions  u64       the layout's size, which the signature fixes
//! checksum   u64       FNV-1a over the signature text, then the values, a word at a time
//! values     positions bytes, `Value::code` each
//! ```
//!
//! Files are written whole or not at all (`files::write_atomically`); reading refuses a file whose
//! magic, version, signature, length or checksum is wrong, naming what was wrong.

use std::path::{Path, PathBuf};

use crate::binary::{self, fail, FieldReader, FieldWriter, FileError, FileErrorKind, FormatError};
use crate::input_file::{InputError, Limit};

use super::index::Layout;
use super::mapped::Mapping;
use super::signature::Signature;
use super::value::{Value, NO_POSITION};

/// The first eight bytes of a table file.
pub const MAGIC: &[u8; 8] = b"CHARIOTT";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The file name ending of a table.
pub const EXTENSION: &str = "egtb";
/// What messages call a table file.
pub const NOUN: &str = "tablebase file";

/// One signature's values: in a buffer of their own, or in the mapped file (`mapped.rs`).
pub struct Table {
    layout: Layout,
    values: Storage,
}

/// Where a table's value codes are.
enum Storage {
    /// In memory of its own (a table generated, or decoded from bytes).
    Owned(Vec<u8>),
    /// In a read-only mapping of its file, from byte `offset` on.
    Mapped {
        /// The whole file.
        mapping: Mapping,
        /// Where the values start (the header's length).
        offset: usize,
    },
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Owned(values) => values,
            Storage::Mapped { mapping, offset } => &mapping.bytes()[*offset..],
        }
    }
}

/// The checksum of a table's contents.
fn checksum(signature: &Signature, values: &[u8]) -> u64 {
    binary::fnv1a64_words(binary::fnv1a64(signature.to_string().as_bytes()), values)
}

/// The header's length for `signature`.
fn header_len(signature: &Signature) -> usize {
    8 + 4 + 1 + signature.to_string().len() + 8 + 8
}

impl Table {
    /// A table of `values` (one code per index of `signature`'s layout).
    pub fn new(signature: Signature, values: Vec<u8>) -> Table {
        let layout = Layout::new(signature);
        debug_assert_eq!(values.len() as u64, layout.size());
        Table { layout, values: Storage::Owned(values) }
    }

    /// The layout (signature and numbering).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The signature.
    pub fn signature(&self) -> Signature {
        self.layout.signature()
    }

    /// The value codes by index.
    pub fn codes(&self) -> &[u8] {
        self.values.bytes()
    }

    /// Whether the codes are read from a mapping of the file (`load`), not a buffer.
    pub fn is_mapped(&self) -> bool {
        matches!(self.values, Storage::Mapped { .. })
    }

    /// The value of the position numbered `index`, `None` when that number is no position.
    pub fn value(&self, index: u64) -> Option<Value> {
        self.codes().get(index as usize).and_then(|&c| Value::from_code(c))
    }

    /// The file name of `signature`'s table in `dir`.
    pub fn path_in(dir: &Path, signature: &Signature) -> PathBuf {
        dir.join(format!("{signature}.{EXTENSION}"))
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let sig = self.signature();
        let text = sig.to_string();
        let values = self.codes();
        let mut w = FieldWriter::with_capacity(header_len(&sig) + values.len());
        w.bytes(MAGIC);
        w.u32(VERSION);
        w.u8(text.len() as u8);
        w.bytes(text.as_bytes());
        w.u64(values.len() as u64);
        w.u64(checksum(&sig, values));
        w.bytes(values);
        w.0
    }

    /// Reads a table file's bytes; `expected`, when given, is the signature its name promised.
    pub fn decode(bytes: &[u8], expected: Option<Signature>) -> Result<Table, FormatError> {
        let (layout, offset) = Table::check(bytes, expected)?;
        Ok(Table { layout, values: Storage::Owned(bytes[offset..].to_vec()) })
    }

    /// Checks a table file's bytes (`decode`'s refusals): its layout, and where its values start.
    fn check(bytes: &[u8], expected: Option<Signature>) -> Result<(Layout, usize), FormatError> {
        let mut r = FieldReader::new(bytes);
        if r.take(8, "magic")? != MAGIC {
            return fail(0, "not a Chariot tablebase file (no CHARIOTT magic)");
        }
        let version = r.u32("version")?;
        if version != VERSION {
            return fail(8, format!("format version {version}, but this build reads version {VERSION}"));
        }
        let n = r.u8("signature length")? as usize;
        let at = r.at;
        let text = r.take(n, "signature")?;
        let text = std::str::from_utf8(text)
            .map_err(|_| FormatError { offset: at as u64, message: "the signature is not text".into() })?;
        let signature: Signature =
            text.parse().map_err(|e| FormatError { offset: at as u64, message: format!("{e}") })?;
        if signature.canonical().0 != signature {
            return fail(
                at,
                format!("signature {signature} is not stored as its mirror {}", signature.canonical().0),
            );
        }
        if let Some(expected) = expected {
            if expected != signature {
                return fail(at, format!("the file holds {signature}, but its name says {expected}"));
            }
        }
        let layout = Layout::new(signature);
        let at = r.at;
        let positions = r.u64("position count")?;
        if positions != layout.size() {
            return fail(at, format!("{positions} positions, but {signature} has {}", layout.size()));
        }
        let stored = r.u64("checksum")?;
        let values = r.take(positions as usize, "values")?;
        if r.at != bytes.len() {
            return fail(r.at, format!("{} bytes after the values", bytes.len() - r.at));
        }
        let computed = checksum(&signature, values);
        if computed != stored {
            return fail(
                at + 8,
                format!("checksum {computed:016x} of the contents, but the header says {stored:016x}: the file is damaged"),
            );
        }
        if let Some(bad) = values.iter().position(|&c| c != NO_POSITION && Value::from_code(c).is_none()) {
            return fail(r.at - values.len() + bad, "a value code that means nothing");
        }
        Ok((layout, r.at - values.len()))
    }

    /// Loads `signature`'s table from `path`, mapped (`mapped.rs`): checked whole as `decode`
    /// checks bytes (checksum and every code), but never copied.
    pub fn load(path: &Path, signature: Signature) -> Result<Table, FileError> {
        let max_len = (header_len(&signature) as u64).saturating_add(Layout::new(signature).size());
        let read_error = |e: InputError| FileError::new(NOUN, path, FileErrorKind::Read(e));
        let meta = std::fs::metadata(path).map_err(|e| read_error(InputError::Io(e)))?;
        if !meta.is_file() {
            return Err(read_error(InputError::NotRegular { kind: "not a regular file" }));
        }
        if meta.len() > max_len {
            return Err(read_error(InputError::TooLarge {
                len: meta.len(),
                limit: Limit { what: NOUN, max_len },
            }));
        }
        if meta.len() == 0 {
            // Nothing to map: refused as the bytes of an empty file are.
            return binary::load(Limit { what: NOUN, max_len }, path, |bytes| {
                Table::decode(bytes, Some(signature))
            });
        }
        let mapping = Mapping::open(path).map_err(|e| read_error(InputError::Io(e)))?;
        let (layout, offset) = Table::check(mapping.bytes(), Some(signature))
            .map_err(|e| FileError::new(NOUN, path, FileErrorKind::Refused(e)))?;
        Ok(Table { layout, values: Storage::Mapped { mapping, offset } })
    }

    /// Writes the table to `path`, whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        crate::files::write_atomically(path, self.encode())
            .map_err(|e| FileError::new(NOUN, path, FileErrorKind::Write(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Table {
        let sig: Signature = "KCK".parse().unwrap();
        let n = Layout::new(sig).size() as usize;
        Table::new(sig, (0..n).map(|i| (i % 7) as u8).collect())
    }

    #[test]
    fn a_table_reads_back_as_written() {
        let t = small();
        let back = Table::decode(&t.encode(), Some(t.signature())).unwrap();
        assert_eq!(back.codes(), t.codes());
    }

    #[test]
    fn damaged_truncated_and_foreign_files_are_refused_with_the_reason() {
        let t = small();
        let bytes = t.encode();
        let refuse =
            |b: &[u8]| Table::decode(b, Some(t.signature())).err().map(|e| e.message).unwrap_or_default();
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert!(refuse(&damaged).contains("damaged"), "{}", refuse(&damaged));
        assert!(refuse(&bytes[..bytes.len() - 10]).contains("truncated"));
        assert!(refuse(b"PK\x03\x04 some zip file").contains("not a Chariot tablebase"));
        let mut future = bytes.clone();
        future[8] = 2;
        assert!(refuse(&future).contains("version 2"));
        let other =
            Table::decode(&bytes, Some("KRK".parse().unwrap())).err().map(|e| e.message).unwrap_or_default();
        assert!(other.contains("its name says KRK"), "{other}");
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(refuse(&longer).contains("after the values"));
    }
}
