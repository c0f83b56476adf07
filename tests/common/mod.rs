//! A running `chariot` process driven through its pipes, for protocol tests.

#![allow(dead_code)]

pub mod book_dat;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};

/// The binary under test: this build's `chariot`, or the one `CHARIOT_TEST_BIN` names (to run
/// the same tests against an older build and see which of them it fails).
pub fn chariot_bin() -> String {
    std::env::var("CHARIOT_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chariot").to_string())
}

/// An empty directory of its own for test `test` of suite `suite`, under the system's temporary
/// directory (named with the process id, so that runs side by side do not meet).
pub fn scratch_dir(suite: &str, test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-{suite}-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chariot ARGS` run by `sh` under an address-space limit of `kib` kilobytes (`ulimit -v`).
pub fn limited_command(kib: u64, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(chariot_bin()).args(args);
    command
}

/// The engine binary under test, speaking over pipes.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    pub transcript: Vec<String>,
}

impl EngineProcess {
    /// Starts `chariot` with no arguments (the protocol loop).
    pub fn start() -> EngineProcess {
        EngineProcess::spawn(Command::new(chariot_bin()))
    }

    /// Starts the protocol loop under an address-space limit of `kib` kilobytes.
    pub fn start_limited(kib: u64) -> EngineProcess {
        EngineProcess::spawn(limited_command(kib, &[]))
    }

    /// Starts `command`, which runs the protocol loop.
    pub fn spawn(mut command: Command) -> EngineProcess {
        let mut child = command
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
        EngineProcess { child, stdin: Some(stdin), lines, transcript: Vec::new() }
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("the input is still open");
        writeln!(stdin, "{command}").expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// Sends raw bytes (which need not be text).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("the input is still open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// Closes the engine's input, as a GUI that dies does.
    pub fn close_input(&mut self) {
        self.stdin = None;
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
        self.exit_status_within(timeout).is_some()
    }

    /// The process's exit status, if it exits within `timeout`.
    pub fn exit_status_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
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
    let mut command = Command::new(chariot_bin());
    command.args(args);
    run_to_end(command, stdin.as_bytes())
}

/// Runs `command` to completion with `stdin` as its input.
pub fn run_to_end(mut command: Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary runs");
    // Written from a thread, so that a child that answers as it reads never waits on us. A child
    // that refuses its arguments exits without reading: a broken pipe is fine.
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    output
}
