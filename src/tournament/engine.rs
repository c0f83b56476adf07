//! One engine process: started for one game, spoken to over pipes, never waited on without a
//! deadline. A reader thread turns its stdout into lines on a channel so that every wait can time
//! out; dropping the process ends it (politely with `quit`, then by force).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::spec::{EngineSpec, Protocol};

/// How long an engine may take to answer the handshake and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How a wait on an engine went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or closed its output; the text says what was seen.
    Crash(String),
    /// No answer before the deadline.
    Timeout,
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move text after `bestmove`; `None` for `nobestmove` or `bestmove (none)`.
    pub best: Option<String>,
    /// The last score it reported, from its own side's view, in centipawns (mates as ±30000
    /// minus the distance).
    pub score: Option<i32>,
    /// The depth of the last `info` line with a depth.
    pub depth: Option<u32>,
    /// Time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// A running engine.
pub struct EngineProcess {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
}

impl EngineProcess {
    /// Starts the program, does the handshake, sets the options and waits until it is ready.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine '{}' ({}): {e}", spec.name, spec.cmd.display()))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(format!("engine '{}': no pipes to the process", spec.name)),
        };
        let (tx, lines) = crossbeam_channel::unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        let mut engine = EngineProcess { spec: spec.clone(), child, stdin, lines };
        engine.handshake().map_err(|f| engine.describe(&f, "the handshake"))?;
        Ok(engine)
    }

    /// The engine's spec.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// A failure as a sentence naming the engine and the step.
    pub fn describe(&self, failure: &Failure, step: &str) -> String {
        match failure {
            Failure::Crash(why) => format!("engine '{}' failed during {step}: {why}", self.spec.name),
            Failure::Timeout => format!("engine '{}' did not answer {step} in time", self.spec.name),
        }
    }

    fn handshake(&mut self) -> Result<(), Failure> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let (hello, ok) = match self.spec.proto {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        };
        self.send(hello)?;
        let mut has_variant = false;
        loop {
            let line = self.next_line(deadline)?;
            has_variant |= line.starts_with("option") && line.contains("UCI_Variant");
            if line.trim() == ok {
                break;
            }
        }
        let mut commands = Vec::new();
        match self.spec.proto {
            // Times in milliseconds: finer clocks than UCCI's whole seconds.
            Protocol::Ucci => commands.push("setoption usemillisec true".to_string()),
            Protocol::Uci if has_variant => {
                commands.push("setoption name UCI_Variant value xiangqi".to_string())
            }
            Protocol::Uci => {}
        }
        for (name, value) in &self.spec.options {
            commands.push(match self.spec.proto {
                Protocol::Ucci => format!("setoption {name} {value}"),
                Protocol::Uci => format!("setoption name {name} value {value}"),
            });
        }
        if self.spec.proto == Protocol::Uci {
            commands.push("ucinewgame".to_string());
        }
        for command in commands {
            self.send(&command)?;
        }
        self.send("isready")?;
        while self.next_line(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("cannot write to it ({e})")))
    }

    /// The next output line, or why there is none before `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => Ok(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(Failure::Crash(self.exit_text())),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
        }
    }

    /// How the process ended, as far as can be told.
    fn exit_text(&mut self) -> String {
        // The pipe closes a moment before the exit status is ready.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("it exited ({status})");
            }
            thread::sleep(Duration::from_millis(5));
        }
        "it closed its output".to_string()
    }

    /// Sends `position` and `go`, then waits for `bestmove` at most `limit` from the moment `go`
    /// is sent, keeping the last score and depth of its `info` lines.
    pub fn think(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, Failure> {
        // Anything still queued from an earlier search is stale.
        while let Ok(Some(_)) = self.lines.try_recv() {}
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let deadline = started + limit;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.next_line(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let (s, d) = parse_info(&line);
                    score = s.or(score);
                    depth = d.or(depth);
                }
                Some("bestmove") => {
                    let best = words.next().filter(|m| *m != "(none)" && *m != "none").map(str::to_string);
                    return Ok(Answer { best, score, depth, elapsed: started.elapsed() });
                }
                Some("nobestmove") => {
                    return Ok(Answer { best: None, score, depth, elapsed: started.elapsed() })
                }
                _ => {}
            }
        }
    }

    /// Ends the process at once (after a crash, an illegal move or a time loss).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.send("quit");
            for _ in 0..40 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

/// The score and depth of an `info` line: UCI `score cp X` / `score mate N`, UCCI `score X`.
pub fn parse_info(line: &str) -> (Option<i32>, Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1..));
    let depth = after("depth").and_then(|rest| rest.first()?.parse().ok());
    let score = after("score").and_then(|rest| match rest {
        ["cp", v, ..] => v.parse().ok(),
        ["mate", n, ..] => {
            let n: i32 = n.parse().ok()?;
            Some(if n > 0 { 30_000 - n } else { -30_000 - n })
        }
        [v, ..] => v.parse().ok(),
        [] => None,
    });
    (score, depth)
}

#[cfg(test)]
mod tests {
    use super::parse_info;

    #[test]
    fn info_lines() {
        assert_eq!(
            parse_info("info depth 6 seldepth 6 multipv 1 score cp -134 upperbound nodes 2000"),
            (Some(-134), Some(6))
        );
        assert_eq!(parse_info("info depth 9 score 35 pv h2e2"), (Some(35), Some(9)));
        assert_eq!(parse_info("info depth 3 score mate 2 pv a0a1"), (Some(29_998), Some(3)));
        assert_eq!(parse_info("info depth 3 score mate -1"), (Some(-29_999), Some(3)));
        assert_eq!(parse_info("info string hello"), (None, None));
        assert_eq!(parse_info("info depth x score cp y"), (None, None));
    }
}
