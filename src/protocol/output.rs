//! Where replies go: one output shared by the dispatcher and the engine thread, written one
//! whole line at a time, and the one form an error takes in both dialects.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// Where replies go: shared by the dispatcher and the engine thread, one whole line at a time.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Wraps a writer as an `Output`.
pub fn output(w: impl Write + Send + 'static) -> Output {
    Arc::new(Mutex::new(Box::new(w)))
}

/// Writes one line and flushes it at once.
pub(super) fn send(out: &Output, line: &str) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(w, "{line}")?;
    w.flush()
}

/// Writes several lines as one block and flushes them at once: a search's `info` lines, written
/// from the engine thread meanwhile, come before or after the block, never inside it.
pub(super) fn send_block(out: &Output, lines: &[String]) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    for line in lines {
        writeln!(w, "{line}")?;
    }
    w.flush()
}

/// The longest error message sent whole. Messages written here quote input with `quoted`; this
/// catches a reader's message that repeats a long token whole (a FEN field, say).
const MAX_ERROR_CHARS: usize = 1000;

/// One `info string error: …` line: the protocols' way to refuse a command. Control characters
/// the input carried (NUL, escape sequences, a lone carriage return) are written escaped, so the
/// line stays one harmless line for a GUI or a terminal.
pub(super) fn report_error(out: &Output, message: &str) -> io::Result<()> {
    let message = match message.char_indices().nth(MAX_ERROR_CHARS) {
        None => Cow::Borrowed(message),
        Some((cut, _)) => Cow::Owned(format!("{}… ({} bytes)", &message[..cut], message.len())),
    };
    let mut line = String::from("info string error: ");
    for c in message.chars() {
        if c.is_control() {
            line.extend(c.escape_debug());
        } else {
            line.push(c);
        }
    }
    send(out, &line)
}
