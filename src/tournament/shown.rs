//! How the match quotes what a user typed or an engine sent in its messages: cut short by
//! `crate::quote`, with characters that would garble a terminal line (control characters, bidi
//! overrides, zero-width marks) and bytes that are not UTF-8 written as escapes.

use crate::quote::{quoted, QUOTE_LIMIT};

/// Whether `c` is invisible or rearranges the text around it: a control character, a zero-width
/// mark or a bidirectional override. Such characters may not appear in names, and are escaped
/// when quoted.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `c` as an escape: `\x09` for a control character below U+0100, `\u{202e}` otherwise.
fn escape(c: char, out: &mut String) {
    if (c as u32) < 0x100 {
        out.push_str(&format!("\\x{:02x}", c as u32));
    } else {
        out.push_str(&format!("\\u{{{:x}}}", c as u32));
    }
}

/// `text` quoted and cut like `crate::quote::quoted`, invisible characters escaped.
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    for c in quoted(text).chars() {
        if is_invisible(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// Raw bytes quoted like `shown`: valid UTF-8 as text, other bytes as `\xff`, each escape
/// counting as one character toward the cut: `'bestmove \xff\xfe'`.
pub fn shown_bytes(raw: &[u8]) -> String {
    let mut out = String::new();
    let mut count = 0;
    for chunk in raw.utf8_chunks() {
        let invalid = chunk.invalid().iter().map(|&b| Err(b));
        for item in chunk.valid().chars().map(Ok).chain(invalid) {
            if count == QUOTE_LIMIT {
                return format!("'{out}…' ({} bytes)", raw.len());
            }
            count += 1;
            match item {
                Ok(c) if is_invisible(c) => escape(c, &mut out),
                Ok(c) => out.push(c),
                Err(b) => out.push_str(&format!("\\x{b:02x}")),
            }
        }
    }
    format!("'{out}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_escaped() {
        assert_eq!(shown("tab\there"), "'tab\\x09here'");
        assert_eq!(shown("a\u{202e}b"), "'a\\u{202e}b'");
        assert_eq!(shown("炮 \"x\" \\"), "'炮 \"x\" \\'");
        let long = "n".repeat(65_531);
        assert_eq!(shown(&long), format!("'{}…' (65531 bytes)", "n".repeat(QUOTE_LIMIT)));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_escaped() {
        assert_eq!(shown_bytes(b"bestmove \xff\xfe"), "'bestmove \\xff\\xfe'");
        assert_eq!(shown_bytes("炮\0".as_bytes()), "'炮\\x00'");
        let mut junk = vec![0xC0u8; 100];
        junk.extend_from_slice(b"tail");
        assert_eq!(shown_bytes(&junk), format!("'{}…' (104 bytes)", "\\xc0".repeat(QUOTE_LIMIT)));
        // Exactly the limit: no cut.
        assert_eq!(shown_bytes(&[b'y'; QUOTE_LIMIT]), format!("'{}'", "y".repeat(QUOTE_LIMIT)));
    }
}
