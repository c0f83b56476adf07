//! `BOOK.DAT` files for the book tests. ElephantEye's own book is third-party data kept outside the
//! repository: CI has it beside the checkout (`../shared/data/BOOK.DAT`), and `CHARIOT_BOOK_DAT`
//! may name a copy elsewhere. Without it, the tests write their own `BOOK.DAT`-format file from the
//! format's definition in `docs/book-formats.md`, with their own RC4, locks and move packing and
//! nothing from the reader under test, holding the same moves and weights for the same positions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// ElephantEye's book at the start position (docs/book-formats.md).
pub const START: [(&str, u16); 16] = [
    ("b2e2", 1473),
    ("h2e2", 1473),
    ("c3c4", 546),
    ("g3g4", 546),
    ("c0e2", 311),
    ("g0e2", 311),
    ("b0c2", 89),
    ("h0g2", 89),
    ("h2d2", 42),
    ("b2f2", 42),
    ("b2d2", 37),
    ("h2f2", 37),
    ("b0a2", 18),
    ("h0i2", 18),
    ("h2c2", 2),
    ("b2g2", 2),
];

/// ElephantEye's book after `h2e2`, best first. The file holds this position only as its mirror
/// image (after `b2e2`), so reading it needs the mirrored probe.
pub const AFTER_H2E2: [(&str, u16); 4] = [("h9g7", 761), ("b9c7", 172), ("h7e7", 97), ("b7e7", 1)];

/// ElephantEye's book after `h2e2 h9g7`, best first.
pub const AFTER_H2E2_H9G7: [(&str, u16); 3] = [("h0g2", 955), ("g3g4", 61), ("c3c4", 3)];

/// Where a test's `BOOK.DAT` came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// ElephantEye's file.
    ElephantEye,
    /// Written by `write_book_dat` from the format's definition.
    Built,
}

/// A `BOOK.DAT` for one test; a built one is removed with its directory when dropped.
pub struct BookDat {
    /// The file.
    pub path: PathBuf,
    /// Which kind it is.
    pub origin: Origin,
    scratch: Option<PathBuf>,
}

impl BookDat {
    /// The path as text, for options and command lines.
    pub fn path_text(&self) -> String {
        self.path.to_str().expect("a UTF-8 temp path").to_string()
    }
}

impl Drop for BookDat {
    fn drop(&mut self) {
        if let Some(dir) = &self.scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// ElephantEye's book if it can be found, else a file written here; says which on standard error.
pub fn book_dat(test: &str) -> BookDat {
    let found = match std::env::var_os("CHARIOT_BOOK_DAT") {
        Some(path) => Some(PathBuf::from(path)),
        None => Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/BOOK.DAT")),
    }
    .filter(|p| p.is_file());
    let book = match found {
        Some(path) => BookDat { path, origin: Origin::ElephantEye, scratch: None },
        None => built_book_dat(test),
    };
    let what = match book.origin {
        Origin::ElephantEye => format!("ElephantEye's BOOK.DAT at {}", book.path.display()),
        Origin::Built => format!(
            "no ElephantEye BOOK.DAT (neither $CHARIOT_BOOK_DAT nor ../shared/data/BOOK.DAT), so a \
             BOOK.DAT-format file written by the test from docs/book-formats.md ({} records)",
            records().len()
        ),
    };
    eprintln!("{test}: {what}");
    // libtest captures `eprintln!` unless a test fails; this line goes past it, once per test
    // binary, so that a plain `cargo test` shows which book the BOOK.DAT tests used.
    static ANNOUNCE: Once = Once::new();
    ANNOUNCE.call_once(|| {
        let _ = writeln!(std::io::stderr(), "BOOK.DAT tests use {what}");
    });
    book
}

/// A freshly written `BOOK.DAT` in a directory of its own.
pub fn built_book_dat(test: &str) -> BookDat {
    let dir = std::env::temp_dir().join(format!("chariot-bookdat-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("BOOK.DAT");
    std::fs::write(&path, book_dat_bytes()).expect("write the test's BOOK.DAT");
    BookDat { path, origin: Origin::Built, scratch: Some(dir) }
}

/// One record: lock, packed move, weight.
pub type Record = (u32, u16, u16);

/// The file image: the records, sorted by lock, 8 little-endian bytes each.
pub fn book_dat_bytes() -> Vec<u8> {
    records().iter().flat_map(|&r| record_bytes(r)).collect()
}

/// A record's eight bytes: lock u32, move u16, weight u16, little-endian.
pub fn record_bytes((lock, mv, weight): Record) -> [u8; 8] {
    let mut out = [0u8; 8];
    out[0..4].copy_from_slice(&lock.to_le_bytes());
    out[4..6].copy_from_slice(&mv.to_le_bytes());
    out[6..8].copy_from_slice(&weight.to_le_bytes());
    out
}

/// A move that would be legal elsewhere but not after `h2e2 h9g7` (the rook cannot pass its pawn
/// on a3), stored under that position's lock as a colliding position's record would be, and
/// heavier than any real move so that a reader that kept it would show it first.
pub const COLLIDING: (&str, u16) = ("a0a5", 5000);

/// The test book's records, sorted by lock.
pub fn records() -> Vec<Record> {
    let mut records = Vec::new();
    let mut add = |line: &[&str], store_mirrored: bool, moves: &[(&str, u16)]| {
        let mut board = Board::start();
        for mv in line {
            board.play(mv);
        }
        let black_to_move = line.len() % 2 == 1;
        let board = if store_mirrored { board.mirrored() } else { board };
        let lock = board.lock(black_to_move);
        for &(mv, weight) in moves {
            let mv = if store_mirrored { mirror_move(mv) } else { mv.to_string() };
            records.push((lock, pack(&mv), weight));
        }
        lock
    };
    let start = add(&[], false, &START);
    add(&["h2e2"], true, &AFTER_H2E2);
    add(&["h2e2", "h9g7"], false, &[AFTER_H2E2_H9G7[0], AFTER_H2E2_H9G7[1], COLLIDING, AFTER_H2E2_H9G7[2]]);
    // Garbage a reader must skip at the start position: squares off the playing area (0 and 1)
    // and a legal move with weight 0.
    records.push((start, 1 << 8, 700));
    records.push((start, pack("a3a4"), 0));
    // Other positions' records around them, so that finding a run takes a real search.
    let mut seed: u32 = 12_345;
    for _ in 0..200 {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        records.push((seed, pack("a0a1"), 1 + (seed >> 20) as u16));
    }
    records.sort_by_key(|r| r.0);
    records
}

/// `from | to << 8`, squares `16 * (12 - rank) + 3 + file` (docs/book-formats.md).
pub fn pack(iccs: &str) -> u16 {
    let b = iccs.as_bytes();
    assert!(b.len() == 4, "not an ICCS move: {iccs}");
    let square = |file: u8, rank: u8| 16 * (12 - (rank - b'0') as u16) + 3 + (file - b'a') as u16;
    square(b[0], b[1]) | square(b[2], b[3]) << 8
}

/// The same move on the board mirrored left to right.
pub fn mirror_move(iccs: &str) -> String {
    iccs.chars().map(|c| if c.is_ascii_lowercase() { (b'a' + b'i' - c as u8) as char } else { c }).collect()
}

/// A board of FEN letters, `[rank][file]`, enough to place pieces and move them (no rules).
#[derive(Clone)]
pub struct Board([[Option<char>; 9]; 10]);

impl Board {
    /// The start position.
    pub fn start() -> Board {
        let mut cells = [[None; 9]; 10];
        let placement = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        for (row, text) in placement.split('/').enumerate() {
            let mut file = 0;
            for c in text.chars() {
                match c.to_digit(10) {
                    Some(n) => file += n as usize,
                    None => {
                        cells[9 - row][file] = Some(c);
                        file += 1;
                    }
                }
            }
        }
        Board(cells)
    }

    /// Moves whatever stands on the origin square to the destination.
    pub fn play(&mut self, iccs: &str) {
        let b = iccs.as_bytes();
        let at = |i: usize| ((b[i + 1] - b'0') as usize, (b[i] - b'a') as usize);
        let ((r0, f0), (r1, f1)) = (at(0), at(2));
        let piece = self.0[r0][f0].take().unwrap_or_else(|| panic!("{iccs}: no piece to move"));
        self.0[r1][f1] = Some(piece);
    }

    /// The board mirrored left to right.
    pub fn mirrored(&self) -> Board {
        let mut out = self.clone();
        for rank in out.0.iter_mut() {
            rank.reverse();
        }
        out
    }

    /// The `BOOK.DAT` lock: `lock1` of every piece on its square, and of the side when Black moves.
    pub fn lock(&self, black_to_move: bool) -> u32 {
        let table = LockTable::new();
        let mut lock = if black_to_move { table.side } else { 0 };
        for (rank, row) in self.0.iter().enumerate() {
            for (file, cell) in row.iter().enumerate() {
                if let Some(c) = cell {
                    let kind = "KABNRCP".find(c.to_ascii_uppercase()).expect("a piece letter");
                    let index = kind + if c.is_ascii_uppercase() { 0 } else { 7 };
                    lock ^= table.pieces[index][16 * (12 - rank) + 3 + file];
                }
            }
        }
        lock
    }
}

/// The `lock1` numbers, drawn from RC4 with a 4-byte zero key as the format defines them.
pub struct LockTable {
    /// The side-to-move triple's `lock1`.
    pub side: u32,
    /// `lock1` by piece index 0..14 and square 0..256.
    pub pieces: Vec<Vec<u32>>,
}

impl LockTable {
    /// Draws the table.
    pub fn new() -> LockTable {
        let mut s: Vec<usize> = (0..256).collect();
        let mut j = 0;
        for i in 0..256 {
            j = (j + s[i]) % 256; // + key[i % 4], which is 0
            s.swap(i, j);
        }
        let (mut x, mut y) = (0, 0);
        let mut byte = move || {
            x = (x + 1) % 256;
            y = (y + s[x]) % 256;
            s.swap(x, y);
            s[(s[x] + s[y]) % 256] as u32
        };
        let mut u32_le = move || {
            let bytes = [byte(), byte(), byte(), byte()];
            bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
        };
        let mut lock1 = move || {
            let _key = u32_le();
            let _lock0 = u32_le();
            u32_le()
        };
        let side = lock1();
        let pieces = (0..14).map(|_| (0..256).map(|_| lock1()).collect()).collect();
        LockTable { side, pieces }
    }
}
