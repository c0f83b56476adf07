//! Input read one line at a time, with a bound on what is kept: a line without end
//! (`cat /dev/zero | chariot`) must not grow the process without limit, and a line that is not
//! UTF-8 text is one error for that line, not the end of the run. Shared by the protocol loop and
//! the subcommands that read stdin (`analyze --fen -`, `play`).

use std::fmt;
use std::io::{self, BufRead, ErrorKind};

/// The most bytes of one line that are kept; the rest of a longer line is read and dropped. A
/// `position … moves …` of a 10,000-move game is 50 kB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input, without its line ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line of UTF-8 text.
    Text(String),
    /// A line that cannot be taken as a command: one error, and the next line is read.
    Unreadable(UnreadableLine),
}

/// What is wrong with a line that is not text to act on; `Display` says it for an error message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnreadableLine {
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

impl fmt::Display for UnreadableLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnreadableLine::NotUtf8 { at, byte } => {
                write!(f, "the line is not UTF-8 text (byte 0x{byte:02x} at offset {at})")
            }
            UnreadableLine::TooLong { bytes } => {
                write!(f, "the line is {bytes} bytes long; at most {MAX_LINE_BYTES} are read")
            }
        }
    }
}

impl std::error::Error for UnreadableLine {}

impl InputLine {
    /// The text of the line, or what is wrong with it.
    pub fn into_text(self) -> Result<String, UnreadableLine> {
        match self {
            InputLine::Text(text) => Ok(text),
            InputLine::Unreadable(why) => Err(why),
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
        return Ok(Some(InputLine::Unreadable(UnreadableLine::TooLong { bytes: length })));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => InputLine::Text(text),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            InputLine::Unreadable(UnreadableLine::NotUtf8 { at, byte: e.as_bytes()[at] })
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

    fn not_utf8(at: usize, byte: u8) -> InputLine {
        InputLine::Unreadable(UnreadableLine::NotUtf8 { at, byte })
    }

    fn too_long(bytes: usize) -> InputLine {
        InputLine::Unreadable(UnreadableLine::TooLong { bytes })
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
        assert_eq!(lines, [text("ok"), not_utf8(0, 0xff), text("isready")]);
        let err = lines[1].clone().into_text().unwrap_err();
        assert_eq!(err.to_string(), "the line is not UTF-8 text (byte 0xff at offset 0)");
        // A Chinese character cut after its first byte.
        assert_eq!(all_lines(b"h2e2 \xe7\x82\n", 100), [not_utf8(5, 0xe7)]);
    }

    #[test]
    fn long_lines_keep_no_more_than_the_limit() {
        let mut bytes = vec![b'x'; 25];
        bytes.extend_from_slice(b"\nshort\n");
        bytes.extend(std::iter::repeat_n(b'y', 11));
        assert_eq!(all_lines(&bytes, 10), [too_long(25), text("short"), too_long(11)]);
        // Exactly the limit is still a line.
        assert_eq!(all_lines(b"0123456789\n", 10), [text("0123456789")]);
        let err = too_long(5 << 20).into_text().unwrap_err().to_string();
        assert!(err.contains("5242880 bytes long"), "{err}");
    }
}
