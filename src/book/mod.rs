//! Opening books: Chariot's own format and ElephantEye's `BOOK.DAT`, probing, weighted choice,
//! and building books from game records or from Chariot's own analysis.
//!
//! A `BookSet` is a list of books probed in order; the first that knows the position answers.
//! `choose` picks one of its moves with probability proportional to weight, skipping moves that
//! would repeat a position of the game.

pub mod builder;
pub mod chariot_format;
pub mod eleeye;
pub mod embedded;

use std::fmt;
use std::path::Path;

use rand::Rng;

use crate::board::{movegen, Move, Position};
use crate::input_file::{self, Limit};

pub use chariot_format::ChariotBook;
pub use eleeye::EleeyeBook;

/// Why a book could not be read, written or built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookError {}

impl BookError {
    /// An error about the file at `path`.
    pub fn file(path: &Path, what: impl fmt::Display) -> BookError {
        BookError(format!("book '{}': {what}", path.display()))
    }
}

/// A move a book offers, with its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The move, legal in the probed position.
    pub mv: Move,
    /// How strongly the book recommends it (choose proportionally).
    pub weight: u32,
}

/// A move chosen from a book, and which book it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move to play.
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u32,
    /// The name of the book (its file name, or `embedded`).
    pub source: String,
}

/// The largest book file read, of either format: a file is read before its first bytes tell
/// which format it is in.
pub const FILE_LIMIT: Limit = Limit {
    what: "book file",
    max_len: if chariot_format::FILE_LIMIT.max_len > eleeye::FILE_LIMIT.max_len {
        chariot_format::FILE_LIMIT.max_len
    } else {
        eleeye::FILE_LIMIT.max_len
    },
};

/// One opening book of either format.
#[derive(Clone, Debug)]
pub enum Book {
    /// Chariot's own format (`.cbk`).
    Chariot(ChariotBook),
    /// ElephantEye / XQWizard `BOOK.DAT`.
    Eleeye(EleeyeBook),
}

impl Book {
    /// Opens a book file, telling the format by its first bytes: Chariot's magic, else `BOOK.DAT`.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = input_file::read(path, FILE_LIMIT)
            .map_err(|e| BookError::file(path, format!("cannot read it: {e}")))?;
        let name =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        if bytes.starts_with(chariot_format::MAGIC) {
            ChariotBook::from_bytes(&bytes, name).map(Book::Chariot).map_err(|e| BookError::file(path, e))
        } else {
            EleeyeBook::from_bytes(&bytes, name).map(Book::Eleeye).map_err(|e| BookError::file(path, e))
        }
    }

    /// The book's name (file name, or `embedded`).
    pub fn name(&self) -> &str {
        match self {
            Book::Chariot(b) => b.name(),
            Book::Eleeye(b) => b.name(),
        }
    }

    /// The legal moves the book has for `pos`, highest weight first (ties in ICCS order).
    pub fn probe(&self, pos: &Position) -> Vec<BookEntry> {
        let raw = match self {
            Book::Chariot(b) => b.probe_raw(pos),
            Book::Eleeye(b) => b.probe_raw(pos),
        };
        legal_sorted(pos, raw)
    }
}

/// Whether both squares of `mv` are on the playing area (a book may hold garbage).
fn on_board(mv: Move) -> bool {
    mv.from().on_board() && mv.to().on_board()
}

/// Keeps the legal moves (keys and locks can collide), merges duplicates, sorts best first.
pub(crate) fn legal_sorted(pos: &Position, raw: Vec<BookEntry>) -> Vec<BookEntry> {
    let mut probe = pos.clone();
    let mut out: Vec<BookEntry> = Vec::with_capacity(raw.len());
    for e in raw {
        if e.weight == 0 || !on_board(e.mv) || !movegen::is_legal(&mut probe, e.mv) {
            continue;
        }
        match out.iter_mut().find(|o| o.mv == e.mv) {
            Some(o) => o.weight = o.weight.saturating_add(e.weight),
            None => out.push(e),
        }
    }
    out.sort_by(|a, b| b.weight.cmp(&a.weight).then_with(|| a.mv.to_string().cmp(&b.mv.to_string())));
    out
}

/// Several books probed in order: the first with a move for the position answers.
#[derive(Clone, Debug, Default)]
pub struct BookSet {
    /// The books, in probing order.
    pub books: Vec<Book>,
}

/// The name that stands for the embedded default book in a `bookfiles` list.
pub const EMBEDDED_NAME: &str = "embedded";

impl BookSet {
    /// A set of the given books.
    pub fn new(books: Vec<Book>) -> BookSet {
        BookSet { books }
    }

    /// The set a `bookfiles` / `BookFile` option names: paths separated by `;` (the word
    /// `embedded` stands for the built-in book). Empty means the embedded book alone.
    pub fn from_option(bookfiles: &str) -> Result<BookSet, BookError> {
        let names: Vec<&str> = bookfiles.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
        if names.is_empty() {
            return Ok(BookSet::new(vec![embedded::book()?]));
        }
        let books = names
            .into_iter()
            .map(|n| if n == EMBEDDED_NAME { embedded::book() } else { Book::open(Path::new(n)) })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BookSet::new(books))
    }

    /// The moves of the first book that has any for `pos`, with that book's name.
    pub fn probe(&self, pos: &Position) -> Option<(&str, Vec<BookEntry>)> {
        self.books.iter().find_map(|b| {
            let moves = b.probe(pos);
            (!moves.is_empty()).then(|| (b.name(), moves))
        })
    }
}

/// Whether playing `mv` in `pos` reaches a position already seen in its history (or itself).
pub fn repeats(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make_move(mv);
    let key = after.key();
    key == pos.key() || pos.history().iter().any(|u| u.key == key)
}

/// The exponent applied to weights: 1 at `randomness` 0 (proportional), towards 0 (uniform) as it
/// grows; negative values down to -0.9 sharpen (the exponent grows to 10).
fn weight_exponent(randomness: f64) -> f64 {
    let r = if randomness.is_finite() { randomness.max(-0.9) } else { 0.0 };
    1.0 / (1.0 + r)
}

/// Picks a book move for `pos` from the first book in `set` that knows it, with probability
/// proportional to `weight ^ (1 / (1 + randomness))`. Moves that would repeat an earlier position
/// of the game are skipped; if every move of that book does, the next book is asked.
pub fn choose(
    set: &BookSet,
    pos: &Position,
    randomness: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Option<BookMove> {
    let exponent = weight_exponent(randomness);
    for book in &set.books {
        let moves: Vec<BookEntry> = book.probe(pos).into_iter().filter(|e| !repeats(pos, e.mv)).collect();
        if moves.is_empty() {
            continue;
        }
        let shares: Vec<f64> = moves.iter().map(|e| (e.weight as f64).powf(exponent)).collect();
        let total: f64 = shares.iter().sum();
        let mut point = rng.gen::<f64>() * total;
        let mut pick = moves.len() - 1;
        for (i, share) in shares.iter().enumerate() {
            if point < *share {
                pick = i;
                break;
            }
            point -= share;
        }
        let e = moves[pick];
        return Some(BookMove { mv: e.mv, weight: e.weight, source: book.name().to_string() });
    }
    None
}
