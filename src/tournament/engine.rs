//! One engine process: started for one game, spoken to over pipes, never waited on without a
//! deadline. A reader thread turns its stdout into lines on a bounded channel so that every wait
//! can time out and a flooding engine is held up by its own pipe instead of filling memory; a
//! writer thread writes its commands, so that an engine that stops reading (and lets its input
//! pipe fill) costs a deadline, not the match. The engine runs in a process group of its own, and
//! dropping it ends the whole group (politely with `quit`, then by force), so that nothing it
//! started outlives it.

use std::fmt;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::shown::shown_bytes;
use super::spec::{EngineSpec, Protocol};
use crate::winrate::WdlPerMille;

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
struct Output {
    pieces: Receiver<Piece>,
    limit: FloodLimit,
    /// Lines and bytes read in the current step.
    lines: u64,
    bytes: u64,
}

impl Output {
    fn new(pieces: Receiver<Piece>, limit: FloodLimit) -> Output {
        Output { pieces, limit, lines: 0, bytes: 0 }
    }

    /// Starts a step: the flood limit counts from here.
    fn new_step(&mut self) {
        (self.lines, self.bytes) = (0, 0);
    }

    /// Throws away what is queued now (at most the queue's length: a flooding engine refills it
    /// as fast as it empties).
    fn discard_queued(&mut self) {
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
    fn next_line(&mut self, deadline: Instant) -> Result<Option<Vec<u8>>, Failure> {
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
fn decode(raw: Vec<u8>) -> Result<String, Failure> {
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

/// Why an engine could not be started and readied; the message names the engine.
#[derive(Debug)]
pub enum EngineStartError {
    /// The program could not be run.
    Spawn {
        /// The engine's name.
        name: String,
        /// The program.
        cmd: PathBuf,
        /// Why, in the words a user needs to fix it.
        cause: SpawnFailure,
    },
    /// The process has no pipes to talk over.
    NoPipes {
        /// The engine's name.
        name: String,
    },
    /// The engine did not complete the handshake (options and `isready` included).
    Handshake {
        /// The engine's name.
        name: String,
        /// How it failed.
        failure: Failure,
    },
}

/// Why a program could not be run.
#[derive(Debug)]
pub enum SpawnFailure {
    /// The path is a directory.
    IsDirectory,
    /// A bare name that is not on `PATH`.
    NotOnPath,
    /// The file exists but could not be run as found: most likely its `#!` interpreter is missing.
    NoInterpreter(std::io::Error),
    /// No file at the path.
    NoSuchFile,
    /// The file may not be executed.
    NotExecutable,
    /// Anything else the system said.
    Other(std::io::Error),
}

impl SpawnFailure {
    /// Why `cmd` could not be started, given the error the system gave. Looks at the file system
    /// (is it a directory, does it exist), so this is decided when the start fails.
    fn of(cmd: &Path, e: std::io::Error) -> SpawnFailure {
        // A bare name is looked up on PATH.
        let bare = cmd.components().count() == 1;
        if !bare && cmd.is_dir() {
            return SpawnFailure::IsDirectory;
        }
        match e.kind() {
            ErrorKind::NotFound if bare => SpawnFailure::NotOnPath,
            ErrorKind::NotFound if cmd.exists() => SpawnFailure::NoInterpreter(e),
            ErrorKind::NotFound => SpawnFailure::NoSuchFile,
            ErrorKind::PermissionDenied => SpawnFailure::NotExecutable,
            _ => SpawnFailure::Other(e),
        }
    }
}

impl fmt::Display for EngineStartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineStartError::Spawn { name, cmd, cause } => {
                let path = cmd.display();
                write!(f, "engine '{name}': ")?;
                match cause {
                    SpawnFailure::IsDirectory => write!(f, "{path} is a directory"),
                    SpawnFailure::NotOnPath => write!(f, "no program {} on PATH", shown_path(cmd)),
                    SpawnFailure::NoInterpreter(e) => {
                        write!(f, "{path} cannot be run ({e}): is the interpreter on its #! line missing?")
                    }
                    SpawnFailure::NoSuchFile => write!(f, "no such file {path}"),
                    SpawnFailure::NotExecutable => write!(f, "{path} is not executable"),
                    SpawnFailure::Other(e) => write!(f, "cannot start {path}: {e}"),
                }
            }
            EngineStartError::NoPipes { name } => write!(f, "engine '{name}': no pipes to the process"),
            EngineStartError::Handshake { name, failure } => match failure {
                Failure::Crash(why) | Failure::Misbehaved(why) => {
                    write!(f, "engine '{name}' failed during the handshake: {why}")
                }
                Failure::Timeout => write!(f, "engine '{name}' did not answer the handshake in time"),
            },
        }
    }
}

/// No `source`: the message already holds the system's reason.
impl std::error::Error for EngineStartError {}

/// A program name quoted for a message.
fn shown_path(path: &Path) -> String {
    super::shown::shown(&path.to_string_lossy())
}

/// The names of the option that makes an engine print `wdl W D L`: UCI's `UCI_ShowWDL`, and
/// Chariot's UCCI `showwdl`. Either is recognised in either protocol, regardless of case (UCI
/// option names are not case-sensitive).
pub const WDL_OPTIONS: [&str; 2] = ["UCI_ShowWDL", "showwdl"];

/// Whether `name` names the option that turns on `wdl` in info lines.
pub fn is_wdl_option(name: &str) -> bool {
    WDL_OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(name))
}

/// The name an `option` line declares: UCI `option name N… type …`, UCCI `option N type …`.
fn option_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("option") {
        return None;
    }
    match words.next()? {
        "name" => {
            let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
            (!name.is_empty()).then(|| name.join(" "))
        }
        name => Some(name.to_string()),
    }
}

/// The engine's input as the game writes it: whole lines, each within a deadline.
struct Input {
    lines: Sender<Vec<u8>>,
    written: Receiver<std::io::Result<()>>,
    /// Set once a write missed its deadline: the writer may still be blocked on that line, so
    /// nothing more is sent (a later report could be that line's).
    stuck: bool,
}

impl Input {
    fn new(stdin: ChildStdin) -> Input {
        let (lines, rx) = crossbeam_channel::unbounded();
        let (done, written) = crossbeam_channel::unbounded();
        thread::spawn(move || write_lines(stdin, rx, done));
        Input { lines, written, stuck: false }
    }

    /// Writes `command` and a line break by `deadline`.
    fn send(&mut self, command: &str, deadline: Instant) -> Result<(), Failure> {
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
        let (tx, pieces) = crossbeam_channel::bounded(QUEUE);
        thread::spawn(move || read_pieces(stdout, tx));
        let output = Output::new(pieces, FLOOD_LIMIT);
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

/// The words of an `info` line up to `string`, whose free text runs to the end of the line and
/// may hold any word.
fn info_words(line: &str) -> Vec<&str> {
    line.split_whitespace().take_while(|w| *w != "string").collect()
}

/// The score and depth of an `info` line: UCI `score cp X` / `score mate N`, UCCI `score X`.
pub fn parse_info(line: &str) -> (Option<i32>, Option<u32>) {
    let words = info_words(line);
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

/// The `wdl W D L` of an `info` line (per mille, the engine's own side's view), the same in UCI
/// and UCCI. Anything but three whole numbers that add up to 1000 is not a win/draw/loss: `None`.
pub fn parse_wdl(line: &str) -> Option<WdlPerMille> {
    let words = info_words(line);
    let at = words.iter().position(|w| *w == "wdl")?;
    let numbers: [&str; 3] = words.get(at + 1..at + 4)?.try_into().ok()?;
    let [win, draw, loss] = numbers.map(|n| n.parse::<u32>().ok());
    let (win, draw, loss) = (win?, draw?, loss?);
    (u64::from(win) + u64::from(draw) + u64::from(loss) == 1000).then_some(WdlPerMille { win, draw, loss })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn wdl_on_info_lines() {
        let wdl = |win, draw, loss| Some(WdlPerMille { win, draw, loss });
        // UCI (Chariot, Pikafish, Stockfish): after the score and its bound.
        let uci =
            "info depth 12 seldepth 18 multipv 1 score cp 250 lowerbound wdl 900 80 20 nodes 5000 pv h2e2";
        assert_eq!(parse_wdl(uci), wdl(900, 80, 20));
        assert_eq!(parse_info(uci), (Some(250), Some(12)));
        // UCCI (Chariot with `showwdl`): after the bare score.
        let ucci = "info depth 9 score -35 wdl 120 500 380 pv h2e2 h9g7";
        assert_eq!(parse_wdl(ucci), wdl(120, 500, 380));
        assert_eq!(parse_info(ucci), (Some(-35), Some(9)));
        assert_eq!(parse_wdl("info depth 3 score mate 2 wdl 1000 0 0 pv a0a1"), wdl(1000, 0, 0));
        // Malformed: ignored, not a guess.
        for bad in [
            "info depth 9 score 35 pv h2e2",
            "info depth 9 score 35 wdl 900 80 pv h2e2",
            "info depth 9 score 35 wdl 900 80",
            "info depth 9 score 35 wdl 900 80 21 pv h2e2",
            "info depth 9 score 35 wdl 90.0 8.0 2.0",
            "info depth 9 score 35 wdl -100 1000 100",
            "info depth 9 score 35 wdl 4294967295 1 1000",
            "info depth 9 score 35 wdl 4294967296 0 0",
            "info depth 9 score 35 wdl win draw loss",
            "info depth 9 score 35 wdl",
        ] {
            assert_eq!(parse_wdl(bad), None, "{bad}");
        }
        // Free text after `string` is no report.
        assert_eq!(parse_wdl("info string wdl 900 80 20"), None);
        assert_eq!(parse_info("info string depth 5 score 300"), (None, None));
        assert_eq!(
            parse_wdl("info depth 2 score 10 wdl 400 300 300 string wdl 1000 0 0"),
            wdl(400, 300, 300)
        );
    }

    #[test]
    fn options_offered_in_the_handshake() {
        assert_eq!(
            option_name("option name UCI_ShowWDL type check default false").as_deref(),
            Some("UCI_ShowWDL")
        );
        assert_eq!(option_name("option showwdl type check default false").as_deref(), Some("showwdl"));
        assert_eq!(option_name("option name Clear Hash type button").as_deref(), Some("Clear Hash"));
        assert_eq!(option_name("id name option"), None);
        assert_eq!(option_name("option name type check"), None);
        assert!(is_wdl_option("uci_showwdl") && is_wdl_option("ShowWDL") && is_wdl_option("showwdl"));
        assert!(!is_wdl_option("UCI_ShowWDL2") && !is_wdl_option("Clear Hash"));
    }
}
