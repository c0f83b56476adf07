//! The reader thread: turns the input into lines on a bounded channel, so that the dispatcher
//! can wait on commands and on finished searches at once.

use std::io::BufRead;
use std::thread;

use crossbeam_channel::{bounded, Receiver};

use super::input::{self, InputLine, MAX_LINE_BYTES};

/// Lines waiting between the reader and the dispatcher: enough to read ahead, few enough that a
/// flood of input the engine cannot keep up with waits in the pipe rather than in memory.
const QUEUED_LINES: usize = 64;

/// The reader thread's two ends for the dispatcher.
pub(super) struct Reader {
    /// Each line of the input, as read; disconnected at the end of the input.
    pub lines: Receiver<InputLine>,
    /// Never sent on: it disconnects when the reader ends, which `batch` mode watches for (it
    /// reads no lines while thinking, yet must notice the end of the input).
    pub ended: Receiver<()>,
}

/// Starts the reader thread on `input`. It ends at the end of the input, on a read error, or
/// when the dispatcher stops listening.
pub(super) fn spawn(input: impl BufRead + Send + 'static) -> Reader {
    let (line_tx, lines) = bounded::<InputLine>(QUEUED_LINES);
    let (alive, ended) = bounded::<()>(0);
    thread::spawn(move || {
        let _alive = alive;
        let mut input = input;
        while let Ok(Some(line)) = input::read_line(&mut input, MAX_LINE_BYTES) {
            if line_tx.send(line).is_err() {
                return;
            }
        }
    });
    Reader { lines, ended }
}
