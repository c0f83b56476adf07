//! The pipes to an engine process: a reader thread turns its stdout into lines on a bounded
//! channel, so that every wait can time out and a flooding engine is held up by its own pipe
//! instead of filling memory; a writer thread writes its commands, so that an engine that stops
//! reading (and lets its input pipe fill) costs a deadline, not the match.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{ChildStdin, ChildStdout};
use std::thread;
use std::time::Instant;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::tournament::shown::shown_bytes;

/// The longest output line kept, in bytes; the rest of a longer line is counted, not kept.
/// Real engines' longest lines (an `option` combo, a long `pv`) are a few kilobytes.
pub const MAX_LINE: usize = 16 * 1024;

/// How many lines (or pieces of an overlong line) wait between the reader thread and the game;
/// with `MAX_LINE` this bounds what an engine's output can hold at a megabyte.
const QUEUE: usize = 64;

/// Output of one step (the handshake, or one move from `go` to `bestmove`) beyond which the
/// engine is flooding: far more than any engine prints, reached in a fraction of a second by
/// one that prints without end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FloodLimit {
    /// Lines.
    pub lines: u64,
    /// Bytes.
    pub bytes: u64,
}

/// The flood limit of a match: a million lines or 64 MiB in one step.
pub const FLOOD_LIMIT: FloodLimit = FloodLimit { lines: 1_000_000, bytes: 64 << 20 };

/// How a wait on an engine went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or closed its output; the text says what was seen.
    Crash(String),
    /// No answer before the deadline.
    Timeout,
    /// It broke the protocol (flooded its output, sent a line that is not UTF-8); the text says
    /// how, and is the game's termination.
    Misbehaved(String),
}

/// What the reader thread passes on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// A line without its line break, at most `MAX_LINE` bytes; a longer line is passed on as
    /// soon as it reaches `MAX_LINE`, and the rest follows as `More`.
    Line(Vec<u8>),
    /// This many more bytes of an overlong line, not kept.
    More(usize),
    /// The end of the output.
    End,
}

/// The reader thread: splits `output` into pieces until it ends or the receiver is gone. A
/// full channel blocks it, and so, through the pipe, the engine.
fn read_pieces(output: impl Read, tx: Sender<Piece>) {
    let mut reader = BufReader::with_capacity(64 * 1024, output);
    let mut line = Vec::new();
    // Whether the current line has passed `MAX_LINE` (and was passed on).
    let mut cut = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => buf,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (piece, ends_line) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        let take = if cut { 0 } else { piece.len().min(MAX_LINE - line.len()) };
        line.extend_from_slice(&piece[..take]);
        let excess = piece.len() - take;
        let consumed = piece.len() + usize::from(ends_line);
        reader.consume(consumed);
        let mut out = Vec::new();
        if excess > 0 {
            let mut excess = excess;
            if !cut {
                cut = true;
                // Cut at a character, not inside one: the kept part of a UTF-8 line stays UTF-8.
                if let Err(e) = std::str::from_utf8(&line) {
                    if e.error_len().is_none() {
                        excess += line.len() - e.valid_up_to();
                        line.truncate(e.valid_up_to());
                    }
                }
                out.push(Piece::Line(std::mem::take(&mut line)));
            }
            out.push(Piece::More(excess));
        }
        if ends_line {
            if !cut {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                out.push(Piece::Line(std::mem::take(&mut line)));
            }
            cut = false;
        }
        for piece in out {
            if tx.send(piece).is_err() {
                return;
            }
        }
    }
    if !line.is_empty() && !cut && tx.send(Piece::Line(line)).is_err() {
        return;
    }
    let _ = tx.send(Piece::End);
}

/// The writer thread: writes each line it is given to the engine's input and reports how that
/// went, until the sender is gone or a write fails. A write blocks while the engine's input pipe
/// is full; the caller waits for the report with a deadline, so that only this thread waits
/// without one, and it ends when the engine is killed (the pipe then breaks).
fn write_lines(mut input: ChildStdin, lines: Receiver<Vec<u8>>, done: Sender<std::io::Result<()>>) {
    for line in lines {
        let written = input.write_all(&line).and_then(|_| input.flush());
        let failed = written.is_err();
        if done.send(written).is_err() || failed {
            return;
        }
    }
}

/// The engine's output as the game reads it: whole lines, within a deadline and a flood limit.
pub(super) struct Output {
    pieces: Receiver<Piece>,
    limit: FloodLimit,
    /// Lines and bytes read in the current step.
    lines: u64,
    bytes: u64,
}

impl Output {
    /// Starts the reader thread on the engine's output.
    pub(super) fn spawn(stdout: ChildStdout, limit: FloodLimit) -> Output {
        let (tx, pieces) = crossbeam_channel::bounded(QUEUE);
        thread::spawn(move || read_pieces(stdout, tx));
        Output::new(pieces, limit)
    }

    fn new(pieces: Receiver<Piece>, limit: FloodLimit) -> Output {
        Output { pieces, limit, lines: 0, bytes: 0 }
    }

    /// Starts a step: the flood limit counts from here.
    pub(super) fn new_step(&mut self) {
        (self.lines, self.bytes) = (0, 0);
    }

    /// Throws away what is queued now (at most the queue's length: a flooding engine refills it
    /// as fast as it empties).
    pub(super) fn discard_queued(&mut self) {
        for _ in 0..self.pieces.len() {
            match self.pieces.try_recv() {
                Ok(Piece::Line(_) | Piece::More(_)) => {}
                Ok(Piece::End) | Err(_) => break,
            }
        }
    }

    /// The next line, `None` at the end of the output, or why there is none: the deadline
    /// passed (checked before every line, so output without end cannot hold it off) or the step
    /// passed the flood limit.
    pub(super) fn next_line(&mut self, deadline: Instant) -> Result<Option<Vec<u8>>, Failure> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout);
            }
            let piece = match self.pieces.recv_timeout(deadline - now) {
                Ok(piece) => piece,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => Piece::End,
            };
            let line = match piece {
                Piece::Line(line) => {
                    self.lines += 1;
                    self.bytes += line.len() as u64 + 1;
                    Some(line)
                }
                Piece::More(n) => {
                    self.bytes += n as u64;
                    None
                }
                Piece::End => return Ok(None),
            };
            if self.lines > self.limit.lines {
                let why = format!("output flood: more than {} lines without an answer", self.limit.lines);
                return Err(Failure::Misbehaved(why));
            }
            if self.bytes > self.limit.bytes {
                let why = format!("output flood: more than {} MiB without an answer", self.limit.bytes >> 20);
                return Err(Failure::Misbehaved(why));
            }
            if let Some(line) = line {
                return Ok(Some(line));
            }
        }
    }
}

/// A line as text. Lines that are not UTF-8 break the protocol, except `info`, `id` and `option`
/// lines, whose free text (an author's name, an `info string`) some xiangqi engines print in a
/// legacy encoding such as GBK, and which are never read for that text: they are decoded with
/// replacement characters.
pub(super) fn decode(raw: Vec<u8>) -> Result<String, Failure> {
    match String::from_utf8(raw) {
        Ok(text) => Ok(text),
        Err(e) => {
            let raw = e.into_bytes();
            let first = raw.split(|b| b.is_ascii_whitespace()).next().unwrap_or_default();
            if [&b"info"[..], b"id", b"option"].contains(&first) {
                Ok(String::from_utf8_lossy(&raw).into_owned())
            } else {
                Err(Failure::Misbehaved(format!(
                    "protocol violation: a line that is not UTF-8: {}",
                    shown_bytes(&raw)
                )))
            }
        }
    }
}

/// The engine's input as the game writes it: whole lines, each within a deadline.
pub(super) struct Input {
    lines: Sender<Vec<u8>>,
    written: Receiver<std::io::Result<()>>,
    /// Set once a write missed its deadline: the writer may still be blocked on that line, so
    /// nothing more is sent (a later report could be that line's).
    stuck: bool,
}

impl Input {
    pub(super) fn new(stdin: ChildStdin) -> Input {
        let (lines, rx) = crossbeam_channel::unbounded();
        let (done, written) = crossbeam_channel::unbounded();
        thread::spawn(move || write_lines(stdin, rx, done));
        Input { lines, written, stuck: false }
    }

    /// Writes `command` and a line break by `deadline`.
    pub(super) fn send(&mut self, command: &str, deadline: Instant) -> Result<(), Failure> {
        if self.stuck {
            return Err(Failure::Timeout);
        }
        let cannot_write = |why: String| Failure::Crash(format!("cannot write to it ({why})"));
        if self.lines.send(format!("{command}\n").into_bytes()).is_err() {
            return Err(cannot_write("its input is closed".to_string()));
        }
        match self.written.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(cannot_write(e.to_string())),
            Err(RecvTimeoutError::Timeout) => {
                self.stuck = true;
                Err(Failure::Timeout)
            }
            Err(RecvTimeoutError::Disconnected) => Err(cannot_write("its input is closed".to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::engine::info::parse_info;
    use std::time::Duration;

    /// The pieces the reader thread makes of `bytes`.
    fn pieces(bytes: &[u8]) -> Vec<Piece> {
        let (tx, rx) = crossbeam_channel::unbounded();
        read_pieces(bytes, tx);
        rx.try_iter().collect()
    }

    #[test]
    fn output_is_cut_into_lines() {
        let line = |s: &str| Piece::Line(s.as_bytes().to_vec());
        assert_eq!(
            pieces(b"ucciok\r\n\nbestmove a0a1"),
            [line("ucciok"), line(""), line("bestmove a0a1"), Piece::End]
        );
        assert_eq!(pieces(b""), [Piece::End]);
    }

    #[test]
    fn an_overlong_line_is_cut_and_the_rest_counted() {
        let mut bytes = vec![b'x'; MAX_LINE + 100_000];
        bytes.extend_from_slice(b"\nreadyok\n");
        let got = pieces(&bytes);
        assert_eq!(got[0], Piece::Line(vec![b'x'; MAX_LINE]));
        let more: usize = got.iter().map(|p| if let Piece::More(n) = p { *n } else { 0 }).sum();
        assert_eq!(more, 100_000);
        assert_eq!(got[got.len() - 2..], [Piece::Line(b"readyok".to_vec()), Piece::End]);
        // A character across the cut goes to the rest.
        let mut chinese = vec![b'x'; MAX_LINE - 1];
        chinese.extend_from_slice("炮\n".as_bytes());
        let got = pieces(&chinese);
        assert_eq!(got[0], Piece::Line(vec![b'x'; MAX_LINE - 1]));
        assert_eq!(got[1..], [Piece::More(3), Piece::End]);
        // A line of exactly MAX_LINE bytes is whole.
        let mut exact = vec![b'y'; MAX_LINE];
        exact.push(b'\n');
        assert_eq!(pieces(&exact), [Piece::Line(vec![b'y'; MAX_LINE]), Piece::End]);
    }

    /// An `Output` fed by a thread that sends `piece` until the receiver is gone.
    fn flooded(piece: Piece, limit: FloodLimit) -> Output {
        let (tx, rx) = crossbeam_channel::bounded(QUEUE);
        thread::spawn(move || while tx.send(piece.clone()).is_ok() {});
        Output::new(rx, limit)
    }

    #[test]
    fn the_deadline_fires_while_lines_keep_coming() {
        let unlimited = FloodLimit { lines: u64::MAX, bytes: u64::MAX };
        let mut output = flooded(Piece::Line(b"info depth 1".to_vec()), unlimited);
        let started = Instant::now();
        let deadline = started + Duration::from_millis(200);
        let result = loop {
            match output.next_line(deadline) {
                Ok(Some(_)) => {
                    assert!(started.elapsed() < Duration::from_secs(5), "the deadline did not fire");
                    // Slower than the producer, like a game parsing `info` lines: the queue is
                    // never empty when asked.
                    thread::sleep(Duration::from_micros(100));
                }
                other => break other,
            }
        };
        assert_eq!(result, Err(Failure::Timeout));
        assert!(output.lines > 0);
    }

    #[test]
    fn a_flood_ends_the_step() {
        let limit = FloodLimit { lines: 1000, bytes: 1 << 20 };
        let far = Instant::now() + Duration::from_secs(60);
        let mut output = flooded(Piece::Line(b"y".to_vec()), limit);
        let result = loop {
            match output.next_line(far) {
                Ok(Some(_)) => {}
                other => break other,
            }
        };
        let why = "output flood: more than 1000 lines without an answer".to_string();
        assert_eq!(result, Err(Failure::Misbehaved(why)));
        // A new step counts afresh.
        output.new_step();
        assert_eq!(output.next_line(far), Ok(Some(b"y".to_vec())));
        // One endless line counts by its bytes.
        let mut output = flooded(Piece::More(64 * 1024), limit);
        let why = "output flood: more than 1 MiB without an answer".to_string();
        assert_eq!(output.next_line(far), Err(Failure::Misbehaved(why)));
    }

    #[test]
    fn lines_that_are_not_utf8() {
        assert_eq!(decode(b"bestmove h2e2".to_vec()), Ok("bestmove h2e2".to_string()));
        let why = "protocol violation: a line that is not UTF-8: 'bestmove \\xff\\xfe'".to_string();
        assert_eq!(decode(b"bestmove \xff\xfe".to_vec()), Err(Failure::Misbehaved(why)));
        // Free text in a legacy encoding where it is never read.
        assert_eq!(decode(b"id author \xc0\xee".to_vec()), Ok("id author \u{fffd}\u{fffd}".to_string()));
        let info = decode(b"info depth 3 score 12 string \xc4\xe3".to_vec()).unwrap();
        assert_eq!(parse_info(&info), (Some(12), Some(3)));
        assert!(decode(b"\xc4\xe3 info".to_vec()).is_err());
        assert!(decode(b"informed \xc4".to_vec()).is_err());
    }
}
