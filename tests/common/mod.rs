//! A running `chariot` process driven through its pipes, for protocol tests.

#![allow(dead_code)]

pub mod book_dat;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};

/// The engine binary under test, speaking over pipes.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far.
    pub transcript: Vec<String>,
}

impl EngineProcess {
    /// Starts `chariot` with no arguments (the protocol loop).
    pub fn start() -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        EngineProcess { child, stdin, lines, transcript: Vec::new() }
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `wanted`, within `timeout`; panics with the transcript
    /// otherwise. Returns the line and how long it took.
    pub fn wait_for(&mut self, wanted: impl Fn(&str) -> bool, timeout: Duration) -> (String, Duration) {
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if wanted(&line) {
                        return (line, start.elapsed());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no wanted line within {timeout:?}; transcript: {:#?}", self.transcript)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output; transcript: {:#?}", self.transcript)
                }
            }
        }
    }

    /// Waits for the line that starts with `prefix`.
    pub fn expect(&mut self, prefix: &str) -> String {
        let p = prefix.to_string();
        self.wait_for(move |l| l.starts_with(&p), Duration::from_secs(20)).0
    }

    /// Reads whatever arrives within `quiet` of silence.
    pub fn drain(&mut self, quiet: Duration) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(quiet) {
            self.transcript.push(line.clone());
            got.push(line);
        }
        got
    }

    /// Waits for the process to exit, within `timeout`; returns whether it did.
    pub fn exits_within(&mut self, timeout: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        false
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line (`None` for `nobestmove` / `bestmove (none)`).
pub fn best_of(line: &str) -> Option<String> {
    let mv = line.strip_prefix("bestmove ")?.split_whitespace().next()?;
    (mv != "(none)").then(|| mv.to_string())
}

/// Runs `chariot ARGS` to completion with `stdin` as its input.
pub fn run_chariot(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary runs");
    // A child that refuses its arguments exits without reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}
