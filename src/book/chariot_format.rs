//! Chariot's own book format (`.cbk`).
//!
//! Layout, all little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0–8 | magic `CHARIOTBK` |
//! | 9 | version (1) |
//! | 10–11 | zero |
//! | 12–15 | entry count `n` (u32) |
//! | 16–23 | FNV-1a 64 checksum of the body |
//! | 24… | `n` entries of 12 bytes: key (u64), move (u16), weight (u16) |
//!
//! The key is that of the *canonical* orientation of the position: the smaller of
//! `Position::key()` and the key of the position mirrored left to right; the move is stored in that
//! orientation. Entries are sorted by (key, move), so a probe is a binary search, and a position and
//! its mirror image share their entries.

use std::fmt;
use std::path::Path;

use crate::binary::{fnv1a64, u16_at, u32_at, u64_at, FieldWriter};
use crate::board::{Move, Position};
use crate::files;
use crate::input_file::Limit;

use super::{on_board, BookEntry, BookError};

/// The first bytes of every Chariot book.
pub const MAGIC: &[u8] = b"CHARIOTBK";
/// The format version this code reads and writes.
pub const VERSION: u8 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 24;
/// Entry size in bytes.
pub const ENTRY_LEN: usize = 12;
/// The most entries a book is read with. The header's count could say four billion; 16.7 million
/// is over three thousand times the embedded book, more than any opening theory fills.
pub const MAX_ENTRIES: u64 = 1 << 24;
/// The largest Chariot book read (about 200 MB): the header and `MAX_ENTRIES` entries.
pub const FILE_LIMIT: Limit =
    Limit { what: "Chariot book", max_len: HEADER_LEN as u64 + MAX_ENTRIES * ENTRY_LEN as u64 };

/// One record: a canonical position key, a move in the canonical orientation, and its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// Canonical key (see the module head).
    pub key: u64,
    /// The move's 16-bit packing, canonical orientation.
    pub mv: u16,
    /// Weight, 1..=65535.
    pub weight: u16,
}

/// The canonical key of `pos` and whether its canonical orientation is the mirrored one.
pub fn canonical(pos: &Position) -> (u64, bool) {
    let (key, mirrored) = (pos.key(), pos.files_mirrored().key());
    if mirrored < key {
        (mirrored, true)
    } else {
        (key, false)
    }
}

/// Why bytes are not a Chariot book; `Display` says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChariotBookError {
    /// The file does not start with `CHARIOTBK`.
    NotABook,
    /// The file has the magic but ends inside the header.
    TruncatedHeader {
        /// The file's length.
        len: usize,
    },
    /// The format version is not the one this build reads.
    Version(u8),
    /// The file ends before the entries the header announces.
    Truncated {
        /// The entries announced.
        count: usize,
        /// The length they make.
        expected_len: u64,
        /// The file's length.
        len: usize,
    },
    /// Bytes follow the entries the header announces.
    Garbage {
        /// How many.
        extra: u64,
        /// The entries announced.
        count: usize,
    },
    /// The body's checksum is not the header's.
    Checksum {
        /// The body's.
        actual: u64,
        /// The header's.
        stored: u64,
    },
    /// Entries `index` and `index + 1` (1-based) are not in (key, move) order.
    OutOfOrder {
        /// The first of the two, 1-based.
        index: usize,
    },
}

impl fmt::Display for ChariotBookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChariotBookError::NotABook => write!(f, "not a Chariot book (no CHARIOTBK header)"),
            ChariotBookError::TruncatedHeader { len } => {
                write!(f, "truncated: {len} bytes, shorter than the {HEADER_LEN}-byte header")
            }
            ChariotBookError::Version(v) => {
                write!(f, "format version {v} is not supported (this Chariot reads version {VERSION})")
            }
            ChariotBookError::Truncated { count, expected_len, len } => write!(
                f,
                "truncated: the header announces {count} entries ({expected_len} bytes) but the file has {len} bytes"
            ),
            ChariotBookError::Garbage { extra, count } => {
                write!(f, "{extra} bytes of garbage after the {count} entries the header announces")
            }
            ChariotBookError::Checksum { actual, stored } => {
                write!(f, "corrupted: checksum {actual:016x} does not match the header's {stored:016x}")
            }
            ChariotBookError::OutOfOrder { index } => {
                write!(f, "entries {index} and {} are out of order", index + 1)
            }
        }
    }
}

impl std::error::Error for ChariotBookError {}

/// A loaded Chariot book.
#[derive(Clone, Debug)]
pub struct ChariotBook {
    name: String,
    entries: Vec<Entry>,
}

impl ChariotBook {
    /// A book from entries in any order; equal (key, move) pairs have their weights summed, and if
    /// any weight then exceeds 65535 all are scaled down alike (never below 1).
    pub fn from_entries(
        name: impl Into<String>,
        raw: impl IntoIterator<Item = (u64, u16, u64)>,
    ) -> ChariotBook {
        let mut pairs: Vec<(u64, u16, u64)> = raw.into_iter().filter(|e| e.2 > 0).collect();
        pairs.sort_unstable_by_key(|e| (e.0, e.1));
        let mut merged: Vec<(u64, u16, u64)> = Vec::with_capacity(pairs.len());
        for (key, mv, w) in pairs {
            match merged.last_mut() {
                Some(last) if last.0 == key && last.1 == mv => last.2 = last.2.saturating_add(w),
                _ => merged.push((key, mv, w)),
            }
        }
        let max = merged.iter().map(|e| e.2).max().unwrap_or(0);
        let scale = |w: u64| -> u16 {
            if max <= u16::MAX as u64 {
                w as u16
            } else {
                ((w as u128 * u16::MAX as u128 / max as u128) as u16).max(1)
            }
        };
        let entries = merged.into_iter().map(|(key, mv, w)| Entry { key, mv, weight: scale(w) }).collect();
        ChariotBook { name: name.into(), entries }
    }

    /// Reads a book from its bytes, refusing a foreign, truncated or corrupted file.
    pub fn from_bytes(bytes: &[u8], name: impl Into<String>) -> Result<ChariotBook, ChariotBookError> {
        if bytes.len() < HEADER_LEN {
            return Err(if bytes.starts_with(MAGIC) {
                ChariotBookError::TruncatedHeader { len: bytes.len() }
            } else {
                ChariotBookError::NotABook
            });
        }
        if !bytes.starts_with(MAGIC) {
            return Err(ChariotBookError::NotABook);
        }
        if bytes[9] != VERSION {
            return Err(ChariotBookError::Version(bytes[9]));
        }
        let count = u32_at(bytes, 12) as usize;
        let checksum = u64_at(bytes, 16);
        let expected_len = HEADER_LEN as u64 + count as u64 * ENTRY_LEN as u64;
        if (bytes.len() as u64) < expected_len {
            return Err(ChariotBookError::Truncated { count, expected_len, len: bytes.len() });
        }
        if bytes.len() as u64 > expected_len {
            return Err(ChariotBookError::Garbage { extra: bytes.len() as u64 - expected_len, count });
        }
        let body = &bytes[HEADER_LEN..];
        let actual = fnv1a64(body);
        if actual != checksum {
            return Err(ChariotBookError::Checksum { actual, stored: checksum });
        }
        let entries: Vec<Entry> = body
            .chunks_exact(ENTRY_LEN)
            .map(|c| Entry { key: u64_at(c, 0), mv: u16_at(c, 8), weight: u16_at(c, 10) })
            .collect();
        if let Some(i) = entries.windows(2).position(|w| (w[0].key, w[0].mv) >= (w[1].key, w[1].mv)) {
            return Err(ChariotBookError::OutOfOrder { index: i + 1 });
        }
        Ok(ChariotBook { name: name.into(), entries })
    }

    /// The file image: header and sorted entries.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = FieldWriter::with_capacity(self.entries.len() * ENTRY_LEN);
        for e in &self.entries {
            body.u64(e.key);
            body.u16(e.mv);
            body.u16(e.weight);
        }
        let mut out = FieldWriter::with_capacity(HEADER_LEN + body.0.len());
        out.bytes(MAGIC);
        out.u8(VERSION);
        out.bytes(&[0, 0]);
        out.u32(self.entries.len() as u32);
        out.u64(fnv1a64(&body.0));
        out.bytes(&body.0);
        out.0
    }

    /// Writes the book to `path` through a temporary file in the same directory, so a failure never
    /// leaves a half-written book behind.
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        files::write_atomically(path, self.to_bytes())
            .map_err(|e| BookError::file(path, format!("cannot write it: {e}")))
    }

    /// The book's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// All entries, sorted by (key, move).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many distinct positions the book holds.
    pub fn position_count(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for e in &self.entries {
            if last != Some(e.key) {
                n += 1;
                last = Some(e.key);
            }
        }
        n
    }

    /// The entries stored for `pos`, turned back to its orientation (legality not checked).
    pub fn probe_raw(&self, pos: &Position) -> Vec<BookEntry> {
        let (key, mirrored) = canonical(pos);
        let start = self.entries.partition_point(|e| e.key < key);
        self.entries[start..]
            .iter()
            .take_while(|e| e.key == key)
            .filter(|e| on_board(Move::from_bits(e.mv)))
            .map(|e| {
                let mv = Move::from_bits(e.mv);
                BookEntry { mv: if mirrored { mv.mirror_files() } else { mv }, weight: e.weight as u32 }
            })
            .collect()
    }
}

/// The canonical (key, move) of playing `mv` in `pos`.
pub fn canonical_move(pos: &Position, mv: Move) -> (u64, u16) {
    let (key, mirrored) = canonical(pos);
    (key, if mirrored { mv.mirror_files().bits() } else { mv.bits() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_and_its_mirror_share_one_key() {
        let mut left = Position::startpos();
        left.make_move(Move::parse_iccs("b2e2").unwrap());
        let mut right = Position::startpos();
        right.make_move(Move::parse_iccs("h2e2").unwrap());
        assert_ne!(left.key(), right.key());
        assert_eq!(canonical(&left).0, canonical(&right).0);
        assert_ne!(canonical(&left).1, canonical(&right).1);
        // The same reply, mirrored, is stored as one canonical move.
        let a = canonical_move(&left, Move::parse_iccs("b9c7").unwrap());
        let b = canonical_move(&right, Move::parse_iccs("h9g7").unwrap());
        assert_eq!(a, b);
    }

    #[test]
    fn duplicates_add_up_and_big_weights_scale_down() {
        let book = ChariotBook::from_entries("t", [(5, 9, 10), (1, 2, 3), (5, 9, 20), (5, 8, 0)]);
        let got: Vec<(u64, u16, u16)> = book.entries().iter().map(|e| (e.key, e.mv, e.weight)).collect();
        assert_eq!(got, vec![(1, 2, 3), (5, 9, 30)]);
        let book = ChariotBook::from_entries("t", [(1, 1, 131_070), (1, 2, 65_535), (1, 3, 1)]);
        let weights: Vec<u16> = book.entries().iter().map(|e| e.weight).collect();
        assert_eq!(weights, vec![65_535, 32_767, 1]);
    }

    #[test]
    fn bytes_round_trip_and_out_of_order_entries_are_refused() {
        let book = ChariotBook::from_entries("t", [(7, 300, 4), (3, 500, 9)]);
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + 2 * ENTRY_LEN);
        let back = ChariotBook::from_bytes(&bytes, "back").unwrap();
        assert_eq!(back.entries(), book.entries());
        // Swap the two entries and fix the checksum: still refused, for the order.
        let mut swapped = bytes[..HEADER_LEN].to_vec();
        swapped.extend_from_slice(&bytes[HEADER_LEN + ENTRY_LEN..]);
        swapped.extend_from_slice(&bytes[HEADER_LEN..HEADER_LEN + ENTRY_LEN]);
        let sum = fnv1a64(&swapped[HEADER_LEN..]);
        swapped[16..24].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(
            ChariotBook::from_bytes(&swapped, "s").unwrap_err().to_string(),
            "entries 1 and 2 are out of order"
        );
    }
}
