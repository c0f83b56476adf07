//! One engine process: started for one game, spoken to over pipes (`pipes`), never waited on
//! without a deadline. The engine runs in a process group of its own, and dropping it ends the
//! whole group (politely with `quit`, then by force), so that nothing it started outlives it.
//! `start_error` says why a start failed; `info` reads what its lines say.

mod info;
mod pipes;
mod start_error;

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use info::option_name;
pub use info::{is_wdl_option, parse_info, parse_wdl, WDL_OPTIONS};
use pipes::{decode, Input, Output};
pub use pipes::{Failure, FloodLimit, FLOOD_LIMIT, MAX_LINE};
pub use start_error::{EngineStartError, SpawnFailure};

use super::spec::{EngineSpec, Protocol};
use crate::winrate::WdlPerMille;

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move text after `bestmove`; `None` for `nobestmove` or `bestmove (none)`.
    pub best: Option<String>,
    /// The last score it reported, from its own side's view, in centipawns (mates as ±30000
    /// minus the distance).
    pub score: Option<i32>,
    /// The win/draw/loss chances (per mille, its own side's view) on the line of that score, if
    /// the line had them.
    pub wdl: Option<WdlPerMille>,
    /// The depth of the last `info` line with a depth.
    pub depth: Option<u32>,
    /// Time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// The most lines kept of what an engine prints while its options are set.
const MAX_OPTION_REPLIES: usize = 100;

/// How long `quit` may take to be written and obeyed before the engine is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// A running engine.
pub struct EngineProcess {
    spec: EngineSpec,
    child: Child,
    input: Input,
    output: Output,
    /// The name of its `UCI_ShowWDL` / `showwdl` option, if it offers one.
    wdl_option: Option<String>,
    /// The names of the options its handshake declared.
    declared_options: Vec<String>,
    /// What it printed after its options were set and before `readyok`: where an engine says
    /// that it refused one.
    option_replies: Vec<String>,
    /// Whether `kill` has ended the process group.
    killed: bool,
}

impl EngineProcess {
    /// Starts the program, does the handshake, sets the options and waits until it is ready,
    /// all within `handshake_timeout`. With `show_wdl`, an engine that offers `UCI_ShowWDL` or
    /// `showwdl` is told to print win/draw/loss chances, unless the spec sets that option itself.
    pub fn start(
        spec: &EngineSpec,
        handshake_timeout: Duration,
        show_wdl: bool,
    ) -> Result<EngineProcess, EngineStartError> {
        let name = || spec.name.clone();
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // A group of its own, so that `kill` reaches whatever the engine starts as well.
            .process_group(0)
            .spawn()
            .map_err(|e| EngineStartError::Spawn {
                name: name(),
                cmd: spec.cmd.clone(),
                cause: SpawnFailure::of(&spec.cmd, e),
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(EngineStartError::NoPipes { name: name() }),
        };
        let output = Output::spawn(stdout, FLOOD_LIMIT);
        let input = Input::new(stdin);
        let mut engine = EngineProcess {
            spec: spec.clone(),
            child,
            input,
            output,
            wdl_option: None,
            declared_options: Vec::new(),
            option_replies: Vec::new(),
            killed: false,
        };
        engine
            .handshake(handshake_timeout, show_wdl)
            .map_err(|failure| EngineStartError::Handshake { name: name(), failure })?;
        Ok(engine)
    }

    /// The engine's spec.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether its handshake offered an option that turns on `wdl` in info lines.
    pub fn offers_wdl(&self) -> bool {
        self.wdl_option.is_some()
    }

    /// The names of the options its handshake declared.
    pub fn declared_options(&self) -> &[String] {
        &self.declared_options
    }

    /// The lines it printed between the options being set and `readyok`.
    pub fn option_replies(&self) -> &[String] {
        &self.option_replies
    }

    fn handshake(&mut self, timeout: Duration, show_wdl: bool) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        self.output.new_step();
        let (hello, ok) = match self.spec.proto {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        };
        self.send(hello, deadline)?;
        let mut has_variant = false;
        loop {
            let line = self.next_line(deadline)?;
            has_variant |= line.starts_with("option") && line.contains("UCI_Variant");
            if let Some(name) = option_name(&line) {
                if is_wdl_option(&name) {
                    self.wdl_option = Some(name.clone());
                }
                self.declared_options.push(name);
            }
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
        // The user's own setting of the option wins, whatever it is.
        let user_sets_wdl = self.spec.options.iter().any(|(name, _)| is_wdl_option(name));
        if let (true, false, Some(name)) = (show_wdl, user_sets_wdl, &self.wdl_option) {
            commands.push(match self.spec.proto {
                Protocol::Ucci => format!("setoption {name} true"),
                Protocol::Uci => format!("setoption name {name} value true"),
            });
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
            self.send(&command, deadline)?;
        }
        self.send("isready", deadline)?;
        loop {
            let line = self.next_line(deadline)?;
            if line.trim() == "readyok" {
                return Ok(());
            }
            if self.option_replies.len() < MAX_OPTION_REPLIES {
                self.option_replies.push(line);
            }
        }
    }

    /// Sends one command line by `deadline`: an engine that does not take it in time (its input
    /// pipe is full because it stopped reading) fails as one that does not answer in time.
    pub fn send(&mut self, command: &str, deadline: Instant) -> Result<(), Failure> {
        self.input.send(command, deadline)
    }

    /// The next output line, or why there is none before `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        match self.output.next_line(deadline)? {
            Some(line) => decode(line),
            None => Err(Failure::Crash(self.exit_text())),
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

    /// Sends `position` and `go`, each within `limit`, then waits for `bestmove` at most `limit`
    /// from the moment `go` is sent, keeping the last score (with the win/draw/loss of its line)
    /// and depth of its `info` lines.
    pub fn think(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, Failure> {
        // Anything still queued from an earlier search is stale.
        self.output.discard_queued();
        self.output.new_step();
        let write_deadline = Instant::now() + limit;
        self.send(position, write_deadline)?;
        self.send(go, write_deadline)?;
        let started = Instant::now();
        let deadline = started + limit;
        let (mut score, mut wdl, mut depth) = (None, None, None);
        loop {
            let line = self.next_line(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let (s, d) = parse_info(&line);
                    if s.is_some() {
                        // A line's chances go with its score: a line that has none must not
                        // leave an earlier line's beside a newer score.
                        (score, wdl) = (s, parse_wdl(&line));
                    }
                    depth = d.or(depth);
                }
                Some("bestmove") => {
                    let best = words.next().filter(|m| *m != "(none)" && *m != "none").map(str::to_string);
                    return Ok(Answer { best, score, wdl, depth, elapsed: started.elapsed() });
                }
                Some("nobestmove") => {
                    return Ok(Answer { best: None, score, wdl, depth, elapsed: started.elapsed() })
                }
                _ => {}
            }
        }
    }

    /// Ends the process and everything in its process group at once (after a crash, an illegal
    /// move or a time loss, and whenever it is dropped).
    pub fn kill(&mut self) {
        // Once only: the group is gone after the first, and its id may pass to another group
        // once it is.
        if std::mem::replace(&mut self.killed, true) {
            return;
        }
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends SIGKILL to process group `pgid` (an engine started as the leader of its own group).
/// Whatever is no longer there is not an error: the group may have ended by itself.
fn kill_group(pgid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else { return };
    if pgid <= 1 {
        // -1 and -0 would name every process or our own group.
        return;
    }
    // SAFETY: `kill` takes two integers and touches no memory of ours, so it cannot break Rust's
    // guarantees. The negative pid names the process group the engine leads (it was started with
    // `process_group(0)`). The id cannot pass to another group while any process of the engine's
    // lives; once all are gone it could only be reached again by a new group whose leader drew
    // the same pid, which takes the kernel's pid counter a full cycle in the moment between the
    // leader's reaping and this call.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let deadline = Instant::now() + QUIT_GRACE;
            if self.send("quit", deadline).is_ok() {
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = self.child.try_wait() {
                        break;
                    }
                    thread::sleep(Duration::from_millis(5));
                }
            }
        }
        // Also after a polite exit: what the engine started may still run.
        self.kill();
    }
}
