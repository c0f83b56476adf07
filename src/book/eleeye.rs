//! ElephantEye / XQWizard `BOOK.DAT`: 8-byte records (lock u32, move u16, weight u16) sorted by
//! lock, where the lock is a 32-bit Zobrist value drawn from an RC4 keystream
//! (see `docs/book-formats.md`).

use std::fmt;
use std::sync::OnceLock;

use crate::board::{Color, Move, Position, Square};
use crate::input_file::Limit;

use super::{on_board, BookEntry};

/// Record size in bytes.
pub const RECORD_LEN: usize = 8;
/// The most records a `BOOK.DAT` is read with: the format has no limit of its own, and 16.7
/// million is over a hundred times the largest books published for ElephantEye and XQWizard.
pub const MAX_RECORDS: u64 = 1 << 24;
/// The largest `BOOK.DAT` read (128 MiB): `MAX_RECORDS` records.
pub const FILE_LIMIT: Limit = Limit { what: "BOOK.DAT", max_len: MAX_RECORDS * RECORD_LEN as u64 };

/// RC4 with a 4-byte all-zero key, as ElephantEye seeds its Zobrist tables.
struct Rc4 {
    s: [u8; 256],
    x: u8,
    y: u8,
}

impl Rc4 {
    fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let key = [0u8; 4];
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % 4]);
            s.swap(i, j as usize);
        }
        Rc4 { s, x: 0, y: 0 }
    }

    fn next_byte(&mut self) -> u8 {
        self.x = self.x.wrapping_add(1);
        self.y = self.y.wrapping_add(self.s[self.x as usize]);
        self.s.swap(self.x as usize, self.y as usize);
        self.s[self.s[self.x as usize].wrapping_add(self.s[self.y as usize]) as usize]
    }

    fn next_u32(&mut self) -> u32 {
        u32::from_le_bytes([self.next_byte(), self.next_byte(), self.next_byte(), self.next_byte()])
    }

    /// Draws (key, lock0, lock1) and keeps lock1, the only one the book uses.
    fn next_lock1(&mut self) -> u32 {
        let _key = self.next_u32();
        let _lock0 = self.next_u32();
        self.next_u32()
    }
}

/// The `lock1` values: the side key's, then one per piece index and square.
struct Locks {
    side: u32,
    piece_square: Vec<[u32; 256]>,
}

fn locks() -> &'static Locks {
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    LOCKS.get_or_init(|| {
        let mut rc4 = Rc4::zero_key();
        let side = rc4.next_lock1();
        let piece_square = (0..14)
            .map(|_| {
                let mut row = [0u32; 256];
                for v in row.iter_mut() {
                    *v = rc4.next_lock1();
                }
                row
            })
            .collect();
        Locks { side, piece_square }
    })
}

/// The BOOK.DAT lock of `pos`.
pub fn lock(pos: &Position) -> u32 {
    let locks = locks();
    let mut lock = 0;
    for sq in Square::all() {
        let p = pos.piece_at(sq);
        if p.is_piece() {
            lock ^= locks.piece_square[p.type_index()][sq.index()];
        }
    }
    if pos.side_to_move() == Color::Black {
        lock ^= locks.side;
    }
    lock
}

/// One BOOK.DAT record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's lock.
    pub lock: u32,
    /// `from | to << 8` on the 16×16 board (the same packing as `Move`).
    pub mv: u16,
    /// Weight.
    pub weight: u16,
}

/// Why bytes are not a `BOOK.DAT` (they were not a Chariot book either: a book file is read as
/// one or the other); `Display` says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookDatError {
    /// No bytes at all.
    Empty,
    /// The length is not a whole number of records.
    PartialRecord {
        /// The file's length.
        len: usize,
    },
    /// Records `index` and `index + 1` (1-based) are not sorted by lock.
    Unsorted {
        /// The first of the two, 1-based.
        index: usize,
    },
}

impl fmt::Display for BookDatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NEITHER: &str = "not a Chariot book (no CHARIOTBK header) and not a BOOK.DAT";
        match self {
            BookDatError::Empty => write!(f, "empty file (neither a Chariot book nor a BOOK.DAT)"),
            BookDatError::PartialRecord { len } => {
                write!(f, "{NEITHER} ({len} bytes is not a whole number of 8-byte records)")
            }
            BookDatError::Unsorted { index } => {
                write!(f, "{NEITHER} (records {index} and {} are not sorted by lock)", index + 1)
            }
        }
    }
}

impl std::error::Error for BookDatError {}

/// A loaded `BOOK.DAT`.
#[derive(Clone, Debug)]
pub struct EleeyeBook {
    name: String,
    records: Vec<Record>,
}

impl EleeyeBook {
    /// Reads a BOOK.DAT image, refusing one whose size or order shows it is not one.
    pub fn from_bytes(bytes: &[u8], name: impl Into<String>) -> Result<EleeyeBook, BookDatError> {
        if bytes.is_empty() {
            return Err(BookDatError::Empty);
        }
        if !bytes.len().is_multiple_of(RECORD_LEN) {
            return Err(BookDatError::PartialRecord { len: bytes.len() });
        }
        let records: Vec<Record> = bytes
            .chunks_exact(RECORD_LEN)
            .map(|c| Record {
                lock: u32::from_le_bytes(c[0..4].try_into().expect("4 bytes")),
                mv: u16::from_le_bytes(c[4..6].try_into().expect("2 bytes")),
                weight: u16::from_le_bytes(c[6..8].try_into().expect("2 bytes")),
            })
            .collect();
        if let Some(i) = records.windows(2).position(|w| w[0].lock > w[1].lock) {
            return Err(BookDatError::Unsorted { index: i + 1 });
        }
        Ok(EleeyeBook { name: name.into(), records })
    }

    /// The book's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// All records, in file order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    fn run(&self, lock: u32) -> &[Record] {
        let start = self.records.partition_point(|r| r.lock < lock);
        let end = start + self.records[start..].partition_point(|r| r.lock == lock);
        &self.records[start..end]
    }

    /// The records for `pos`, or if it has none, those of its mirror image turned back (legality not
    /// checked).
    pub fn probe_raw(&self, pos: &Position) -> Vec<BookEntry> {
        let own = self.run(lock(pos));
        if !own.is_empty() {
            return own
                .iter()
                .map(|r| BookEntry { mv: Move::from_bits(r.mv), weight: r.weight as u32 })
                .collect();
        }
        self.run(lock(&pos.files_mirrored()))
            .iter()
            .filter(|r| on_board(Move::from_bits(r.mv)))
            .map(|r| BookEntry { mv: Move::from_bits(r.mv).mirror_files(), weight: r.weight as u32 })
            .collect()
    }
}
