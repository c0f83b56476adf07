//! Input read one line at a time, with a bound on what is kept: a line without end
//! (`cat /dev/zero | chariot`) must not grow the process without limit, and a line that is not
//! UTF-8 text is one error for that line, not the end of the run. Shared by the protocol loop and
//! the subcommands that read stdin (`analyze --fen -`, `play`).

use std::io::{self, BufRead, ErrorKind};

/// The most bytes of one line that are kept; the rest of a longer line is read and dropped. A
/// `position … moves …` of a 10,000-move game is 50 kB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input, without its line ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line of UTF-8 text.
    Text(String),
    /// A line that is not UTF-8 text: its first bad byte and where it is.
    NotUtf8 {
        /// Offset of the first bad byte in the line.
        at: usize,
        /// That byte.
        byte: u8,
    },
    /// A line longer than the limit, and how long it was.
    TooLong {
        /// Its length in bytes, without the line ending.
        bytes: usize,
    },
}

impl InputLine {
    /// The text of the line, or what is wrong with it (for an error message).
    pub fn into_text(self) -> Result<String, String> {
        match self {
            InputLine::Text(text) => Ok(text),
            InputLine::NotUtf8 { at, byte } => {
                Err(format!("the line is not UTF-8 text (byte 0x{byte:02x} at offset {at})"))
            }
            InputLine::TooLong { bytes } => {
                Err(format!("the line is {bytes} bytes long; at most {MAX_LINE_BYTES} are read"))
            }
        }
    }
}

/// Reads the next line of `input`, keeping at most `limit` bytes of it; `None` at the end.
/// A final line without a newline counts; a carriage return before the newline is dropped.
pub fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<InputLine>> {
    let mut kept = Vec::new();
    let mut length = 0usize;
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        let room = limit.saturating_sub(kept.len());
        kept.extend_from_slice(&part[..part.len().min(room)]);
        length = length.saturating_add(part.len());
        let used = newline.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if length > limit {
        return Ok(Some(InputLine::TooLong { bytes: length }));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => InputLine::Text(text),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            InputLine::NotUtf8 { at, byte: e.as_bytes()[at] }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(bytes: &[u8], limit: usize) -> Vec<InputLine> {
        // A tiny buffer makes lines cross buffer boundaries.
        let mut input = io::BufReader::with_capacity(3, bytes);
        std::iter::from_fn(|| read_line(&mut input, limit).unwrap()).collect()
    }

    fn text(s: &str) -> InputLine {
        InputLine::Text(s.to_string())
    }

    #[test]
    fn lines_with_and_without_endings() {
        assert_eq!(
            all_lines(b"uci\r\nisready\n\nquit", 100),
            [text("uci"), text("isready"), text(""), text("quit")]
        );
        assert_eq!(all_lines(b"", 100), []);
        assert_eq!(all_lines("炮二平五\n".as_bytes(), 100), [text("炮二平五")]);
    }

    #[test]
    fn a_bad_line_is_one_line_and_the_next_is_read() {
        let lines = all_lines(b"ok\n\xff\xfe junk\nisready\n", 100);
        assert_eq!(lines, [text("ok"), InputLine::NotUtf8 { at: 0, byte: 0xff }, text("isready")]);
        let err = lines[1].clone().into_text().unwrap_err();
        assert_eq!(err, "the line is not UTF-8 text (byte 0xff at offset 0)");
        // A Chinese character cut after its first byte.
        assert_eq!(all_lines(b"h2e2 \xe7\x82\n", 100), [InputLine::NotUtf8 { at: 5, byte: 0xe7 }]);
    }

    #[test]
    fn long_lines_keep_no_more_than_the_limit() {
        let mut bytes = vec![b'x'; 25];
        bytes.extend_from_slice(b"\nshort\n");
        bytes.extend(std::iter::repeat_n(b'y', 11));
        assert_eq!(
            all_lines(&bytes, 10),
            [InputLine::TooLong { bytes: 25 }, text("short"), InputLine::TooLong { bytes: 11 }]
        );
        // Exactly the limit is still a line.
        assert_eq!(all_lines(b"0123456789\n", 10), [text("0123456789")]);
        let err = InputLine::TooLong { bytes: 5 << 20 }.into_text().unwrap_err();
        assert!(err.contains("5242880 bytes long"), "{err}");
    }
}
