//! The default book, embedded in the binary so the engine has book moves with no file beside it.
//! It is built by `chariot book build --search` (see `book/README.md`).

use std::sync::OnceLock;

use super::chariot_format::ChariotBookError;
use super::{Book, BookError, ChariotBook, EMBEDDED_NAME};

/// The bytes of `book/default.cbk`.
pub static DEFAULT_BOOK: &[u8] = include_bytes!("../../book/default.cbk");

/// The embedded book, parsed on first use.
pub fn book() -> Result<Book, BookError> {
    static PARSED: OnceLock<Result<ChariotBook, ChariotBookError>> = OnceLock::new();
    PARSED
        .get_or_init(|| ChariotBook::from_bytes(DEFAULT_BOOK, EMBEDDED_NAME))
        .clone()
        .map(Book::Chariot)
        .map_err(|e| BookError(format!("the embedded book: {e}")))
}
