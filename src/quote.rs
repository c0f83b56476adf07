//! Quoting what a user or an engine sent back in an error message, without echoing it whole:
//! a megabyte of junk on one line must not come back as a megabyte of `info string`.

/// The most characters of an offending text an error message repeats.
pub const QUOTE_LIMIT: usize = 40;

/// `text` in single quotes; when longer than `QUOTE_LIMIT` characters, its start, an ellipsis
/// and how long it was: `'aaaa…' (1048576 bytes)`.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        None => format!("'{text}'"),
        Some((cut, _)) => format!("'{}…' ({} bytes)", &text[..cut], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(quoted("h2h9"), "'h2h9'");
        assert_eq!(quoted(""), "''");
        let exactly = "x".repeat(QUOTE_LIMIT);
        assert_eq!(quoted(&exactly), format!("'{exactly}'"));
    }

    #[test]
    fn long_text_is_cut_at_a_character_and_its_length_given() {
        let junk = "y".repeat(1 << 20);
        let q = quoted(&junk);
        assert_eq!(q, format!("'{}…' (1048576 bytes)", "y".repeat(QUOTE_LIMIT)));
        // Multi-byte characters are never split.
        let chinese = "炮".repeat(100);
        assert_eq!(quoted(&chinese), format!("'{}…' (300 bytes)", "炮".repeat(QUOTE_LIMIT)));
    }
}
