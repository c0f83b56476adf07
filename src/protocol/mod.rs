//! UCCI and UCI front ends over one engine core.
//!
//! A reader thread turns stdin into lines on a crossbeam channel; the dispatcher waits on those
//! lines and on finished jobs at once, so `isready`, `stop`, `ponderhit`, `probe` and `quit` are
//! answered while the engine thinks. Searches and `go perft` run on their own engine thread; the
//! hash table is shared, so `probe` reads it even mid-search. The first meaningful command picks
//! the dialect (`ucci` → UCCI, any other known command → UCI). The end of the input, or an output
//! nobody reads any more, stops whatever runs and ends the loop: an engine whose GUI died must not
//! search on for no one.

pub mod go_cmd;
pub mod handshake;
pub mod input;
pub mod options;
pub mod perft;
pub mod position_cmd;
pub mod report;

use std::borrow::Cow;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread;

use crossbeam_channel::{bounded, select, unbounded, Receiver, RecvError, Sender};

use crate::board::{movegen, Move, Position};
use crate::book::{self, BookSet};
use crate::quote::quoted;
use crate::search::tt::Bound;
use crate::search::{usable_threads, Engine, Limits, SearchControl, SearchResult, TimeBudget};
use go_cmd::{parse_go, GoCommand, TimeUnit};
use input::{InputLine, MAX_LINE_BYTES};
use options::{Options, SetOutcome};
use position_cmd::parse_position;

/// The protocol a GUI speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCCI 3.0 (XQWizard, BHGUI).
    Ucci,
    /// UCI in the Pikafish dialect (Sharkchess).
    Uci,
}

impl Dialect {
    /// The handshake command that selects this dialect.
    pub fn handshake(self) -> &'static str {
        match self {
            Dialect::Ucci => "ucci",
            Dialect::Uci => "uci",
        }
    }
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The commands of both dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Ucci,
    Uci,
    IsReady,
    Position,
    BanMoves,
    SetOption,
    Go,
    Stop,
    PonderHit,
    Probe,
    UciNewGame,
    Debug,
    Quit,
}

impl Command {
    /// The command a word names, if any. Only commands pick the dialect: junk first (a
    /// byte-order mark, a stray word) must not lock a UCCI GUI out with UCI.
    fn parse(word: &str) -> Option<Command> {
        Some(match word {
            "ucci" => Command::Ucci,
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "position" => Command::Position,
            "banmoves" => Command::BanMoves,
            "setoption" => Command::SetOption,
            "go" => Command::Go,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "probe" => Command::Probe,
            "ucinewgame" => Command::UciNewGame,
            "debug" => Command::Debug,
            "quit" => Command::Quit,
            _ => return None,
        })
    }
}

/// Where replies go: shared by the dispatcher and the engine thread, one whole line at a time.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Wraps a writer as an `Output`.
pub fn output(w: impl Write + Send + 'static) -> Output {
    Arc::new(Mutex::new(Box::new(w)))
}

/// Writes one line and flushes it at once.
fn send(out: &Output, line: &str) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(w, "{line}")?;
    w.flush()
}

/// The longest error message sent whole. Messages written here quote input with `quoted`; this
/// catches a reader's message that repeats a long token whole (a FEN field, say).
const MAX_ERROR_CHARS: usize = 1000;

/// One `info string error: …` line: the protocols' way to refuse a command. Control characters
/// the input carried (NUL, escape sequences, a lone carriage return) are written escaped, so the
/// line stays one harmless line for a GUI or a terminal.
fn report_error(out: &Output, message: &str) -> io::Result<()> {
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

/// A search for the engine thread: with these limits, reporting in `dialect`.
struct SearchTask {
    engine: Engine,
    limits: Limits,
    dialect: Dialect,
}

/// What the engine thread is asked to do.
enum Task {
    /// Search.
    Search(Box<SearchTask>),
    /// Count the leaves this many plies deep.
    Perft { depth: u32 },
}

/// A job for the engine thread: a task on a position, steered by a control.
struct Job {
    task: Task,
    pos: Position,
    control: Arc<SearchControl>,
}

/// What the engine thread hands back.
enum Finished {
    /// A search's result.
    Search(SearchResult),
    /// A perft's count, `None` when stopped first.
    Perft { depth: u32, leaves: Option<u64> },
    /// The job panicked (a defect): what the panic said.
    Failed(String),
}

/// A job in progress, and what its answer must carry.
struct Thinking {
    draw_offered: bool,
    ponder: bool,
    position: Position,
}

/// The score below which a result counts as lost for resigning (about a rook and a cannon).
const RESIGN_SCORE: i32 = -700;
/// Consecutive lost results before resigning.
const RESIGN_AFTER: u32 = 3;

/// The engine state one protocol conversation holds.
pub struct Session {
    dialect: Option<Dialect>,
    position: Position,
    options: Options,
    engine: Engine,
    ban_moves: Vec<Move>,
    control: Arc<SearchControl>,
    out: Output,
    jobs: Sender<Job>,
    done: Receiver<Finished>,
    thinking: Option<Thinking>,
    losing_streak: u32,
    /// The books `bookfiles` names, loaded on first use (`None` until then or after a change).
    books: Option<BookSet>,
    rng: rand::rngs::StdRng,
}

/// What a panic said, as text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

fn engine_thread(jobs: Receiver<Job>, done: Sender<Finished>, out: Output) {
    for Job { task, mut pos, control } in jobs {
        let run = panic::catch_unwind(AssertUnwindSafe(|| match task {
            Task::Perft { depth } => {
                let leaves = perft::perft(&mut pos, depth, &|| control.stop_requested());
                Finished::Perft { depth, leaves }
            }
            Task::Search(search) => {
                let SearchTask { mut engine, limits, dialect } = *search;
                let sink = out.clone();
                let stopper = control.clone();
                let mut reporter = move |info: &crate::search::Info| {
                    for line in report::info_lines(dialect, info) {
                        if send(&sink, &line).is_err() {
                            // Nobody reads the answer any more: stop rather than search for no one.
                            stopper.request_stop();
                        }
                    }
                };
                Finished::Search(engine.search(&pos, &limits, &control, &mut reporter))
            }
        }));
        let finished = run.unwrap_or_else(|payload| Finished::Failed(panic_text(payload.as_ref())));
        if done.send(finished).is_err() {
            return;
        }
    }
}

impl Session {
    /// A fresh session writing to `out`: no dialect yet, the start position, default options.
    pub fn new(out: Output) -> Session {
        let (jobs, job_rx) = unbounded();
        let (done_tx, done) = unbounded();
        let engine_out = out.clone();
        thread::spawn(move || engine_thread(job_rx, done_tx, engine_out));
        let mut options = Options::default();
        // Under a tight memory limit the default table may not fit: start with the smallest one
        // (the announcement then says 1) rather than not at all.
        let engine = Engine::try_new(options.hash_mb).unwrap_or_else(|_| {
            options.hash_mb = 1;
            Engine::try_new(1).unwrap_or_else(|e| panic!("not even the smallest table fits: {e}"))
        });
        Session {
            dialect: None,
            position: Position::startpos(),
            engine,
            options,
            ban_moves: Vec::new(),
            control: Arc::new(SearchControl::new()),
            out,
            jobs,
            done,
            thinking: None,
            losing_streak: 0,
            books: None,
            rng: rand::SeedableRng::from_entropy(),
        }
    }

    /// The dialect picked by the first command, if any command came yet.
    pub fn dialect(&self) -> Option<Dialect> {
        self.dialect
    }

    /// The current position (set by `position`).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether a search (or a perft) is running.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Handles one line as the reader delivered it: a line that is not text is one error.
    pub fn handle_input(&mut self, line: InputLine) -> io::Result<Flow> {
        match line.into_text() {
            Ok(text) => self.handle_line(&text),
            Err(why) => {
                report_error(&self.out, &format!("{why}: ignored"))?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let args: Vec<&str> = words.collect();
        let Some(parsed) = Command::parse(command) else {
            report_error(&self.out, &format!("unknown command {}", quoted(command)))?;
            return Ok(Flow::Continue);
        };
        let dialect =
            *self.dialect.get_or_insert(if parsed == Command::Ucci { Dialect::Ucci } else { Dialect::Uci });
        match parsed {
            Command::Ucci | Command::Uci => {
                self.no_arguments(command, &args)?;
                self.handshake(command, dialect)?
            }
            Command::IsReady => {
                self.no_arguments(command, &args)?;
                send(&self.out, "readyok")?
            }
            Command::Position => match parse_position(&args.join(" ")) {
                Ok(position) => {
                    self.position = position;
                    self.ban_moves.clear();
                }
                Err(e) => report_error(&self.out, &e.to_string())?,
            },
            Command::BanMoves => self.banmoves(&args)?,
            Command::SetOption => self.setoption(dialect, &args)?,
            Command::Go => self.go(dialect, &args)?,
            Command::Stop => {
                self.no_arguments(command, &args)?;
                if self.thinking.is_some() {
                    self.control.request_stop();
                } else if dialect == Dialect::Ucci {
                    send(&self.out, "nobestmove")?;
                }
            }
            Command::PonderHit => self.ponderhit(&args)?,
            Command::Probe => self.probe(&args)?,
            Command::UciNewGame => {
                self.no_arguments(command, &args)?;
                self.new_game()
            }
            Command::Debug => self.debug(&args)?,
            Command::Quit => {
                self.no_arguments(command, &args)?;
                self.stop_and_answer()?;
                if dialect == Dialect::Ucci {
                    send(&self.out, "bye")?;
                }
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Continue)
    }

    /// Reports words after a command that takes none; the command is still carried out.
    fn no_arguments(&self, command: &str, args: &[&str]) -> io::Result<()> {
        if args.is_empty() {
            return Ok(());
        }
        report_error(&self.out, &format!("{command} takes no arguments: {} ignored", quoted(&args.join(" "))))
    }

    fn handshake(&mut self, command: &str, dialect: Dialect) -> io::Result<()> {
        if command != dialect.handshake() {
            // Switching dialects mid-conversation would change what earlier replies meant.
            let msg =
                format!("'{command}' after the {} handshake: this session speaks {0}", dialect.handshake());
            return report_error(&self.out, &msg);
        }
        let lines = match dialect {
            Dialect::Ucci => handshake::ucci_reply(&self.options),
            Dialect::Uci => handshake::uci_reply(&self.options),
        };
        for line in lines {
            send(&self.out, &line)?;
        }
        Ok(())
    }

    /// UCI `debug [on | off]`.
    fn debug(&mut self, args: &[&str]) -> io::Result<()> {
        match args {
            [] | ["on"] => self.options.debug = true,
            ["off"] => self.options.debug = false,
            _ => {
                let msg = format!("debug wants on or off, not {}", quoted(&args.join(" ")));
                return report_error(&self.out, &msg);
            }
        }
        Ok(())
    }

    fn setoption(&mut self, dialect: Dialect, args: &[&str]) -> io::Result<()> {
        let hash_before = self.options.hash_mb;
        let threads_before = self.options.engine().threads;
        let books_before = self.options.book_files.clone();
        let outcome = match dialect {
            Dialect::Ucci => self.options.set_ucci(args),
            Dialect::Uci => self.options.set_uci(args),
        };
        match outcome {
            Ok(SetOutcome::Set) => {
                if self.options.book_files != books_before {
                    self.books = None;
                    if self.options.use_book {
                        // Say now, not at the first move, if a named book cannot be read.
                        self.load_books()?;
                    }
                }
                if self.options.hash_mb != hash_before {
                    // A running search keeps its own handle on the old table.
                    if let Err(e) = self.engine.resize_hash(self.options.hash_mb) {
                        self.options.hash_mb = hash_before;
                        return report_error(&self.out, &format!("{e}; the {hash_before} MB table stays"));
                    }
                }
                let threads = self.options.engine().threads;
                if threads != threads_before && usable_threads(threads) < threads {
                    let used = usable_threads(threads);
                    let note = format!("info string {threads} threads asked, {used} used: one per core");
                    send(&self.out, &note)?;
                }
                Ok(())
            }
            Ok(SetOutcome::NewGame { stray_value }) => {
                self.new_game();
                match stray_value {
                    Some(v) => {
                        report_error(&self.out, &format!("a button takes no value: {} ignored", quoted(&v)))
                    }
                    None => Ok(()),
                }
            }
            Ok(SetOutcome::Unknown(name)) => {
                report_error(&self.out, &format!("unknown option {} ignored", quoted(&name)))
            }
            Err(e) => report_error(&self.out, &e.to_string()),
        }
    }

    fn new_game(&mut self) {
        self.engine.clear_hash();
        self.losing_streak = 0;
    }

    fn banmoves(&mut self, args: &[&str]) -> io::Result<()> {
        let mut pos = self.position.clone();
        let mut banned = Vec::new();
        for &text in args {
            match Move::parse_iccs(text).filter(|&m| movegen::is_legal(&mut pos, m)) {
                Some(mv) => banned.push(mv),
                None => {
                    let msg = format!("banmoves: {} is not a legal move here", quoted(text));
                    return report_error(&self.out, &msg);
                }
            }
        }
        self.ban_moves = banned;
        Ok(())
    }

    /// Hands `task` to the engine thread, on the current position.
    fn start(&mut self, task: Task, draw_offered: bool, ponder: bool) -> io::Result<()> {
        self.control.start(ponder);
        let job = Job { task, pos: self.position.clone(), control: self.control.clone() };
        if self.jobs.send(job).is_err() {
            return report_error(&self.out, "the engine thread is gone: nothing can be searched");
        }
        self.thinking = Some(Thinking { draw_offered, ponder, position: self.position.clone() });
        Ok(())
    }

    fn go(&mut self, dialect: Dialect, args: &[&str]) -> io::Result<()> {
        if self.thinking.is_some() {
            return report_error(&self.out, "already thinking: send stop first");
        }
        let unit = if dialect == Dialect::Uci || self.options.use_millisec {
            TimeUnit::Milliseconds
        } else {
            TimeUnit::Seconds
        };
        let request = match parse_go(args, unit, &self.position, self.options.multipv) {
            Ok(r) => r,
            Err(e) => return report_error(&self.out, &e.to_string()),
        };
        let search = match request {
            // Counted on the engine thread like a search: the reader stays free for stop and quit.
            GoCommand::Perft(depth) => return self.start(Task::Perft { depth }, false, false),
            GoCommand::Search(s) => s,
        };
        for warning in &search.warnings {
            report_error(&self.out, warning)?;
        }
        let mut limits = search.limits;
        if search.depth_zero {
            match dialect {
                Dialect::Ucci => return send(&self.out, "nobestmove"),
                Dialect::Uci => limits.depth = Some(1),
            }
        }
        limits.ban_moves = self.ban_moves.clone();
        if let Some(mv) = self.book_answer(&limits)? {
            return send(&self.out, &format!("bestmove {mv}"));
        }
        // Every option was parsed and checked when it was set: the search takes them as they are.
        self.engine.options = self.options.engine().clone();
        if self.options.debug {
            self.debug_line(&format!("evaluation: {}", self.engine.options.eval.describe()))?;
            self.report_time_budget(&limits)?;
        }
        let ponder = limits.ponder;
        let task = Task::Search(Box::new(SearchTask { engine: self.engine.clone(), limits, dialect }));
        self.start(task, search.draw_offered, ponder)
    }

    /// With `debug` on, one `info string` line.
    fn debug_line(&self, text: &str) -> io::Result<()> {
        if self.options.debug {
            send(&self.out, &format!("info string {text}"))?;
        }
        Ok(())
    }

    /// The thinking time the search starts with (computed here as the search will; see
    /// `TimeBudget`), for `debug`.
    fn report_time_budget(&self, limits: &Limits) -> io::Result<()> {
        let options = &self.engine.options;
        let Some(budget) = TimeBudget::with_params(limits, options.move_overhead_ms, &options.params) else {
            return self.debug_line("time budget: none, no clock limits this search");
        };
        let from = if limits.ponder { ", counted from ponderhit" } else { "" };
        let line = format!("time budget: soft {} ms, hard {} ms{from}", budget.soft_ms, budget.hard_ms);
        self.debug_line(&line)
    }

    /// The book's answer to this `go`, if it has one; with `debug` on, why it has none.
    fn book_answer(&mut self, limits: &Limits) -> io::Result<Option<Move>> {
        if !self.options.use_book {
            self.debug_line("no book move: the book is switched off")?;
            return Ok(None);
        }
        // Book moves answer ordinary game moves, not analysis.
        let analysis = [
            (limits.infinite, "infinite"),
            (limits.ponder, "ponder"),
            (limits.mate.is_some(), "mate"),
            (limits.depth.is_some(), "depth"),
            (limits.nodes.is_some(), "nodes"),
            (!limits.search_moves.is_empty(), "searchmoves"),
        ];
        if let Some((_, word)) = analysis.iter().find(|(asked, _)| *asked) {
            self.debug_line(&format!("no book move: the book is not asked for a 'go {word}'"))?;
            return Ok(None);
        }
        self.book_move()
    }

    fn load_books(&mut self) -> io::Result<()> {
        match BookSet::from_option(&self.options.book_files) {
            Ok(set) => self.books = Some(set),
            Err(e) => {
                // The engine plays on without a book; the GUI hears why once.
                self.books = Some(BookSet::default());
                report_error(&self.out, &e.to_string())?;
            }
        }
        Ok(())
    }

    /// A book move for the current position (announced with an info line), if the books have one
    /// that is neither banned nor repeating.
    fn book_move(&mut self) -> io::Result<Option<Move>> {
        if self.books.is_none() {
            self.load_books()?;
        }
        let Some(set) = &self.books else { return Ok(None) };
        let randomness = self.options.randomness.book_randomness();
        let Some(choice) = book::choose(set, &self.position, randomness, &mut self.rng) else {
            let why = if set.books.is_empty() {
                "no book could be read"
            } else if set.probe(&self.position).is_none() {
                "no book has this position"
            } else {
                "every book move here would bring back a position of the game"
            };
            self.debug_line(&format!("no book move: {why}"))?;
            return Ok(None);
        };
        if self.ban_moves.contains(&choice.mv) {
            self.debug_line(&format!("no book move: {} drawn from {} is banned", choice.mv, choice.source))?;
            return Ok(None);
        }
        if self.options.debug {
            let pos = &self.position;
            let book = set.books.iter().find(|b| b.name() == choice.source);
            let drawn_from: Vec<_> = book.map(|b| b.probe(pos)).unwrap_or_default();
            let drawn_from: Vec<_> = drawn_from.into_iter().filter(|e| !book::repeats(pos, e.mv)).collect();
            let total: u64 = drawn_from.iter().map(|e| u64::from(e.weight)).sum();
            let line = format!(
                "book: {} drawn from {} moves of {} (weight {} of {total}, randomness {})",
                choice.mv,
                drawn_from.len(),
                choice.source,
                choice.weight,
                self.options.randomness.name()
            );
            self.debug_line(&line)?;
        }
        let word = match self.dialect {
            Some(Dialect::Ucci) => "info message",
            _ => "info string",
        };
        send(
            &self.out,
            &format!("{word} book move {} weight {} from {}", choice.mv, choice.weight, choice.source),
        )?;
        Ok(Some(choice.mv))
    }

    /// `ponderhit [draw]`: anything after that is reported, and the ponderhit still counts.
    fn ponderhit(&mut self, args: &[&str]) -> io::Result<()> {
        let (draw, rest) = match args {
            ["draw", rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        if !rest.is_empty() {
            let msg = format!("ponderhit takes only 'draw': {} ignored", quoted(&rest.join(" ")));
            report_error(&self.out, &msg)?;
        }
        match &mut self.thinking {
            Some(t) if t.ponder => {
                t.draw_offered |= draw;
                t.ponder = false;
                self.control.ponderhit();
                Ok(())
            }
            _ => report_error(&self.out, "ponderhit while not pondering"),
        }
    }

    fn probe(&mut self, args: &[&str]) -> io::Result<()> {
        let mut pos = match parse_position(&args.join(" ")) {
            Ok(p) => p,
            Err(e) => return report_error(&self.out, &e.to_string()),
        };
        let mut line = String::from("pophash");
        if let Some(hit) = self.engine.tt().probe(pos.key(), 0) {
            if !hit.mv.is_none() && movegen::is_legal(&mut pos, hit.mv) {
                line.push_str(&format!(" bestmove {}", hit.mv));
            }
            if matches!(hit.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {} depth {}", hit.score, hit.depth));
            }
            if matches!(hit.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {} depth {}", hit.score, hit.depth));
            }
        }
        send(&self.out, &line)
    }

    /// Takes what the engine thread sent back; its channel closing means the thread is gone.
    fn receive(&mut self, finished: Result<Finished, RecvError>) -> io::Result<()> {
        match finished {
            Ok(f) => self.finish(f),
            Err(_) => Err(io::Error::other("the engine thread stopped")),
        }
    }

    /// Prints the answer of a finished job.
    fn finish(&mut self, finished: Finished) -> io::Result<()> {
        let Some(thinking) = self.thinking.take() else {
            return Ok(());
        };
        let dialect = self.dialect.unwrap_or(Dialect::Uci);
        let result = match finished {
            Finished::Search(result) => result,
            Finished::Perft { leaves: Some(n), .. } => {
                return send(&self.out, &format!("Nodes searched: {n}"))
            }
            Finished::Perft { depth, leaves: None } => {
                return send(&self.out, &format!("info string perft {depth} stopped before it was done"))
            }
            Finished::Failed(why) => {
                // A defect; the GUI still gets a legal move rather than waiting for ever.
                report_error(&self.out, &format!("the search failed: {why}"))?;
                let mut pos = thinking.position.clone();
                let best =
                    movegen::legal_moves(&mut pos).iter().copied().find(|m| !self.ban_moves.contains(m));
                SearchResult { best, ponder: None, score: 0, depth: 0, nodes: 0, time_ms: 0, pv: vec![] }
            }
        };
        let Some(best) = result.best else {
            return send(
                &self.out,
                match dialect {
                    Dialect::Ucci => "nobestmove",
                    Dialect::Uci => "bestmove (none)",
                },
            );
        };
        let mut line = format!("bestmove {best}");
        let mut after = thinking.position.clone();
        after.make_move(best);
        if let Some(p) = result.ponder.filter(|&p| movegen::is_legal(&mut after, p)) {
            line.push_str(&format!(" ponder {p}"));
        }
        if dialect == Dialect::Ucci {
            self.losing_streak = if result.score <= RESIGN_SCORE { self.losing_streak + 1 } else { 0 };
            if thinking.draw_offered && result.score <= 0 {
                line.push_str(" draw");
            } else if self.options.resign && self.losing_streak >= RESIGN_AFTER {
                line.push_str(" resign");
            }
        }
        send(&self.out, &line)
    }

    /// Stops whatever runs (a search of any kind, a perft) and prints its answer.
    fn stop_and_answer(&mut self) -> io::Result<()> {
        if self.thinking.is_none() {
            return Ok(());
        }
        self.control.request_stop();
        let finished = self.done.recv();
        self.receive(finished)
    }
}

impl Drop for Session {
    /// However the loop ends (an error writing the output, say), the search ends with it.
    fn drop(&mut self) {
        self.control.request_stop();
    }
}

/// Lines waiting between the reader and the dispatcher: enough to read ahead, few enough that a
/// flood of input the engine cannot keep up with waits in the pipe rather than in memory.
const QUEUED_LINES: usize = 64;

/// Runs the command loop until `quit` or the end of the input. At the end of the input every
/// search stops (its answer is still printed) and the loop ends; so does it when the output
/// cannot be written. Lines that are not UTF-8 text, or longer than `MAX_LINE_BYTES`, are one
/// error each: bad input must never stop the engine.
pub fn run(input: impl BufRead + Send + 'static, out: Output) -> io::Result<()> {
    let (line_tx, lines) = bounded::<InputLine>(QUEUED_LINES);
    // Never sent on: it disconnects when the reader ends, which `batch` mode watches for.
    let (reader_alive, input_ended) = bounded::<()>(0);
    thread::spawn(move || {
        let _alive = reader_alive;
        let mut input = input;
        while let Ok(Some(line)) = input::read_line(&mut input, MAX_LINE_BYTES) {
            if line_tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut session = Session::new(out);
    let done = session.done.clone();
    loop {
        if session.is_thinking() && session.options.batch {
            // `batch`: no commands are read while thinking; the end of the input still stops it.
            select! {
                recv(done) -> d => session.receive(d)?,
                recv(input_ended) -> _ => session.stop_and_answer()?,
            }
            continue;
        }
        select! {
            recv(lines) -> line => match line {
                Ok(line) => {
                    if session.handle_input(line)? == Flow::Quit {
                        return Ok(());
                    }
                }
                Err(_) => {
                    // End of input: the GUI is gone. Stop, answer, leave.
                    session.stop_and_answer()?;
                    return Ok(());
                }
            },
            recv(done) -> d => session.receive(d)?,
        }
    }
}

/// Runs the command loop on standard input and output.
pub fn run_stdio() -> io::Result<()> {
    run(io::BufReader::new(io::stdin()), output(io::stdout()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A writer whose bytes the test can read back; it fails every write after `lines_ok` lines
    /// when that is set, as a closed pipe does.
    #[derive(Clone, Default)]
    struct Capture {
        bytes: Arc<Mutex<Vec<u8>>>,
        lines_ok: Option<usize>,
    }

    impl Write for Capture {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut bytes = self.bytes.lock().unwrap();
            if self.lines_ok.is_some_and(|n| bytes.iter().filter(|&&b| b == b'\n').count() >= n) {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Capture {
        fn lines(&self) -> Vec<String> {
            String::from_utf8(self.bytes.lock().unwrap().clone())
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    /// Input that gives `script` and then neither ends nor gives more: a GUI that is alive but
    /// silent (or one whose output side alone has gone).
    struct SilentAfter {
        script: io::Cursor<Vec<u8>>,
        _never: Receiver<u8>,
    }

    impl io::Read for SilentAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.script.read(buf)? {
                0 => {
                    let _ = self._never.recv();
                    Ok(0)
                }
                n => Ok(n),
            }
        }
    }

    /// Runs `script` through a fresh loop and returns the output lines.
    fn replies(script: &'static str) -> Vec<String> {
        let capture = Capture::default();
        run(script.as_bytes(), output(capture.clone())).unwrap();
        capture.lines()
    }

    /// Runs the loop on `input` in a thread; its result and output if it ended within `limit`.
    fn run_within(
        input: impl BufRead + Send + 'static,
        capture: Capture,
        limit: Duration,
    ) -> Result<(io::Result<()>, Vec<String>), Vec<String>> {
        let (tx, rx) = bounded(1);
        let out = output(capture.clone());
        thread::spawn(move || {
            let _ = tx.send(run(input, out));
        });
        match rx.recv_timeout(limit) {
            Ok(result) => Ok((result, capture.lines())),
            Err(_) => Err(capture.lines()),
        }
    }

    fn new_session() -> (Session, Capture) {
        let capture = Capture::default();
        (Session::new(output(capture.clone())), capture)
    }

    /// Feeds `script` to a session line by line, letting each search end by itself before the
    /// next line (as a GUI waits for `bestmove`), and returns the output lines.
    fn replies_in_turn(script: &str) -> Vec<String> {
        let (mut session, capture) = new_session();
        in_turn(&mut session, script);
        capture.lines()
    }

    /// Feeds `script` to `session` as `replies_in_turn` does.
    fn in_turn(session: &mut Session, script: &str) {
        for line in script.lines() {
            session.handle_line(line).unwrap();
            if session.is_thinking() {
                let finished = session.done.recv();
                session.receive(finished).unwrap();
            }
        }
    }

    fn legal_answer(position: &str, line: &str) -> bool {
        let Some(mv) = line.strip_prefix("bestmove ").and_then(|rest| rest.split(' ').next()) else {
            return false;
        };
        let mut pos = parse_position(position).unwrap();
        Move::parse_iccs(mv).is_some_and(|m| movegen::is_legal(&mut pos, m))
    }

    #[test]
    fn ucci_handshake_and_quit() {
        let lines = replies("ucci\nisready\nquit\nisready\n");
        assert!(lines[0].starts_with("id name Chariot"), "{lines:?}");
        assert!(lines.contains(&"option usemillisec type check default false".to_string()));
        let ok = lines.iter().position(|l| l == "ucciok").expect("ucciok");
        // Nothing is read after quit, so only one readyok.
        assert_eq!(lines[ok + 1..], ["readyok", "bye"]);
    }

    #[test]
    fn uci_dialect_has_no_bye_and_refuses_a_switch() {
        let lines = replies("uci\nucci\nquit\n");
        assert_eq!(
            lines.last().map(String::as_str),
            Some("info string error: 'ucci' after the uci handshake: this session speaks uci")
        );
        assert!(lines.contains(&"uciok".to_string()));
        assert!(!lines.contains(&"bye".to_string()));
    }

    #[test]
    fn the_first_known_command_picks_the_dialect() {
        let (mut session, _) = new_session();
        session.handle_line("isready").unwrap();
        assert_eq!(session.dialect(), Some(Dialect::Uci));
        let (mut session, capture) = new_session();
        session.handle_line("   ").unwrap();
        assert_eq!(session.dialect(), None, "blank lines are not commands");
        // A byte-order mark glued to the handshake, or any junk, picks nothing: UCCI still can.
        session.handle_line("\u{feff}ucci").unwrap();
        session.handle_line("hello").unwrap();
        assert_eq!(session.dialect(), None);
        session.handle_line("ucci").unwrap();
        assert_eq!(session.dialect(), Some(Dialect::Ucci));
        assert_eq!(capture.lines()[0], "info string error: unknown command '\u{feff}ucci'");
    }

    #[test]
    fn position_and_perft() {
        // Start position: 44 legal moves (`docs/rules.md`, reference counts).
        // The bad position is refused and the start position stays for the perft.
        let lines = replies("position startpos\nposition startpos moves h2e2 x\ngo perft 1\n");
        assert!(lines[0].starts_with("info string error: move 2 'x'"), "{lines:?}");
        assert_eq!(lines[1], "Nodes searched: 44");
    }

    #[test]
    fn perft_runs_on_the_engine_thread_and_stops() {
        let (mut session, capture) = new_session();
        // About 10^15 leaves: only a stop ends this.
        session.handle_line("go perft 12").unwrap();
        assert!(session.is_thinking());
        session.handle_line("isready").unwrap();
        session.handle_line("go depth 1").unwrap();
        session.handle_line("stop").unwrap();
        let finished = session.done.recv_timeout(Duration::from_secs(2)).expect("perft stops");
        session.receive(Ok(finished)).unwrap();
        assert_eq!(
            capture.lines(),
            [
                "readyok",
                "info string error: already thinking: send stop first",
                "info string perft 12 stopped before it was done"
            ]
        );
        // Quit in the middle of one, through the whole loop.
        let script = &b"uci\ngo perft 12\nisready\nquit\n"[..];
        let (result, lines) = run_within(script, Capture::default(), Duration::from_secs(5)).expect("ends");
        assert!(result.is_ok());
        let ok = lines.iter().position(|l| l == "uciok").unwrap();
        assert_eq!(lines[ok + 1..], ["readyok", "info string perft 12 stopped before it was done"]);
        // The example: refused with the range, and the loop goes on.
        let script = &b"uci\ngo perft 2971\nisready\nstop\nquit\n"[..];
        let (_, lines) = run_within(script, Capture::default(), Duration::from_secs(5)).expect("ends");
        assert_eq!(
            lines[lines.len() - 2..],
            ["info string error: perft depth '2971' is too large: at most 64", "readyok"]
        );
    }

    #[test]
    fn setoption_in_ucci() {
        let (mut session, capture) = new_session();
        for line in ["ucci", "setoption usemillisec true", "setoption nosuch 16"] {
            session.handle_line(line).unwrap();
        }
        assert!(session.options().use_millisec);
        let lines = capture.lines();
        assert_eq!(lines.last().unwrap(), "info string error: unknown option 'nosuch' ignored");
    }

    #[test]
    fn a_hash_size_that_cannot_be_had_keeps_the_old_table() {
        let Some(free) = crate::search::memory::available_bytes() else { return };
        let mb = (free >> 20) as usize + 1;
        if mb > options::MAX_HASH_MB {
            eprintln!("skipped: {mb} MB free, more than the largest Hash");
            return;
        }
        let (mut session, capture) = new_session();
        session.handle_line("uci").unwrap();
        session.handle_line("position fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1").unwrap();
        session.handle_line("go depth 5").unwrap();
        let finished = session.done.recv();
        session.receive(finished).unwrap();
        session.handle_line(&format!("setoption name Hash value {mb}")).unwrap();
        let error = capture.lines().pop().unwrap();
        assert!(
            error.starts_with(&format!("info string error: a hash table of {mb} MB cannot be allocated"))
                && error.ends_with("the 64 MB table stays"),
            "{error}"
        );
        assert_eq!(session.options().hash_mb, 64);
        // The old table, contents and all: the root's result is still there.
        session.handle_line("probe fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1").unwrap();
        let pophash = capture.lines().pop().unwrap();
        assert!(pophash.starts_with("pophash bestmove "), "{pophash}");
    }

    #[test]
    fn lines_that_are_not_text_or_too_long_are_one_error_each() {
        let capture = Capture::default();
        run(&b"\xff\xfe\nisready\n"[..], output(capture.clone())).unwrap();
        assert_eq!(
            capture.lines(),
            ["info string error: the line is not UTF-8 text (byte 0xff at offset 0): ignored", "readyok"]
        );
        let mut input = vec![b'x'; MAX_LINE_BYTES + 7];
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat_n(b'y', 1 << 19));
        input.extend_from_slice(b"\nisready\n");
        let capture = Capture::default();
        run(io::Cursor::new(input), output(capture.clone())).unwrap();
        let lines = capture.lines();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(
            lines[0],
            format!(
                "info string error: the line is {} bytes long; at most {MAX_LINE_BYTES} are read: ignored",
                MAX_LINE_BYTES + 7
            )
        );
        assert_eq!(
            lines[1],
            format!("info string error: unknown command '{}…' (524288 bytes)", "y".repeat(40))
        );
        assert_eq!(lines[2], "readyok");
    }

    #[test]
    fn errors_quote_a_few_dozen_characters_of_junk() {
        let (mut session, capture) = new_session();
        let junk = "w".repeat(1 << 20);
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        for line in [
            format!("position startpos moves {junk}"),
            format!("go depth {junk}"),
            format!("setoption name Hash value {junk}"),
            format!("setoption name {junk} value 1"),
            format!("banmoves {junk}"),
            format!("isready {junk}"),
            // The FEN reader's own message repeats its field whole: the loop cuts it.
            format!("position fen {start} {junk}"),
        ] {
            session.handle_line(&line).unwrap();
        }
        let lines = capture.lines();
        assert_eq!(lines.len(), 8, "{lines:?}");
        for line in &lines {
            assert!(line.len() < 1200, "{} bytes: {}…", line.len(), &line[..200]);
        }
        assert!(lines.iter().filter(|l| l.contains("(1048576 bytes)")).count() >= 6, "{lines:?}");
        assert_eq!(lines[6], "readyok");
    }

    #[test]
    fn control_characters_in_an_error_are_escaped() {
        let (mut session, capture) = new_session();
        session.handle_line("\u{1b}[2J\0go").unwrap();
        // The FEN reader's own message repeats the field, bell and all.
        session.handle_line("position fen 4k4/9/9/9/9/9/9/9/9/4K4 \u{7}").unwrap();
        let lines = capture.lines();
        assert_eq!(lines[0], "info string error: unknown command '\\u{1b}[2J\\0go'");
        assert!(lines[1].contains("'\\u{7}'") && !lines[1].contains('\u{7}'), "{}", lines[1]);
    }

    #[test]
    fn malformed_lines_get_one_error_and_are_still_done() {
        let lines = replies_in_turn(
            "ucci extra\nisready now\nucinewgame 1\ndebug maybe\nsetoption newgame please\nstop it\n\
             go searchmoves depth 1\nquit now\n",
        );
        let ok = lines.iter().position(|l| l == "ucciok").unwrap();
        assert_eq!(lines[0], "info string error: ucci takes no arguments: 'extra' ignored");
        let rest: Vec<&str> = lines[ok + 1..]
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
            .collect();
        assert_eq!(
            rest[..8],
            [
                "info string error: isready takes no arguments: 'now' ignored",
                "readyok",
                "info string error: ucinewgame takes no arguments: '1' ignored",
                "info string error: debug wants on or off, not 'maybe'",
                "info string error: a button takes no value: 'please' ignored",
                "info string error: stop takes no arguments: 'it' ignored",
                "nobestmove",
                "info string error: searchmoves names no move: all moves are searched",
            ]
        );
        assert!(legal_answer("startpos", rest[8]), "{rest:?}");
        assert_eq!(rest[9..], ["info string error: quit takes no arguments: 'now' ignored", "bye"]);
    }

    #[test]
    fn ponderhit_draw_draw_is_reported_and_the_draw_offer_kept() {
        // Bare kings and advisors: a dead draw, so an offer is accepted.
        let (mut session, capture) = new_session();
        session.handle_line("ucci").unwrap();
        session.handle_line("position fen 3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
        session.handle_line("go ponder depth 3").unwrap();
        session.handle_line("ponderhit draw draw").unwrap();
        let finished = session.done.recv();
        session.receive(finished).unwrap();
        let lines = capture.lines();
        assert!(lines.contains(&"info string error: ponderhit takes only 'draw': 'draw' ignored".to_string()));
        assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    }

    #[test]
    fn end_of_input_stops_every_search_and_answers() {
        for go in [
            "go depth 60",
            "go movetime 600000",
            "go nodes 100000000000",
            "go wtime 600000 btime 600000",
            "go ponder wtime 600000 btime 600000",
            "go infinite",
            "go mate 40",
        ] {
            let script = format!("uci\nsetoption name OwnBook value false\nposition startpos\n{go}\n");
            let started = Instant::now();
            let (result, lines) =
                run_within(io::Cursor::new(script.into_bytes()), Capture::default(), Duration::from_secs(5))
                    .unwrap_or_else(|lines| {
                        panic!("{go}: still searching after the end of input: {lines:?}")
                    });
            assert!(result.is_ok());
            assert!(legal_answer("startpos", lines.last().unwrap()), "{go}: {lines:?}");
            assert!(started.elapsed() < Duration::from_secs(2), "{go}: {:?}", started.elapsed());
        }
    }

    #[test]
    fn an_output_nobody_reads_stops_the_search_and_the_loop() {
        for go in ["go infinite", "go depth 60", "go ponder wtime 600000 btime 600000"] {
            let (_keep_open, never) = bounded(0);
            let script = io::Cursor::new(format!("uci\nposition startpos\n{go}\n").into_bytes());
            let input = io::BufReader::new(SilentAfter { script, _never: never });
            // The handshake is read; everything after it fails, as a closed pipe does.
            let capture = Capture { lines_ok: Some(30), ..Capture::default() };
            let (result, _) = run_within(input, capture, Duration::from_secs(5))
                .unwrap_or_else(|lines| panic!("{go}: still running with a broken output: {lines:?}"));
            assert_eq!(result.unwrap_err().kind(), io::ErrorKind::BrokenPipe, "{go}");
        }
    }

    #[test]
    fn depth_zero_and_idle_stop_in_ucci() {
        let lines = replies("ucci\nstop\ngo depth 0\nquit\n");
        let ok = lines.iter().position(|l| l == "ucciok").unwrap();
        assert_eq!(lines[ok + 1..], ["nobestmove", "nobestmove", "bye"]);
    }

    #[test]
    fn a_search_ends_with_a_legal_bestmove() {
        let lines = replies_in_turn("uci\nposition startpos moves h2e2\ngo depth 4\n");
        assert!(legal_answer("startpos moves h2e2", lines.last().unwrap()), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")), "{lines:?}");
    }

    #[test]
    fn a_draw_offer_is_accepted_only_when_not_better() {
        // Bare kings and advisors: a dead draw (score about 0): accepted.
        let lines =
            replies_in_turn("ucci\nposition fen 3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\ngo draw depth 3\n");
        assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
        // An extra rook: declined.
        let lines =
            replies_in_turn("ucci\nposition fen 3ak4/4a4/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1\ngo draw depth 3\n");
        assert!(!lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    }

    #[test]
    fn options_are_parsed_when_set_and_handed_to_the_search_whole() {
        let (mut session, capture) = new_session();
        in_turn(
            &mut session,
            "ucci\nsetoption tune rfp_margin=70\nsetoption without lmr\nsetoption knowledge small\n\
             setoption threads 2\nsetoption moveoverhead 50\nsetoption algorithm mtdf\n",
        );
        let typed = session.options().engine().clone();
        assert_eq!(typed.params.rfp_margin, 70);
        assert!(!typed.features.late_move_reductions && typed.features.null_move);
        assert!(typed.terms.cannons && !typed.terms.pawns && !typed.terms.king_safety);
        assert_eq!((typed.threads, typed.move_overhead_ms), (2, 50));
        assert_eq!(typed.algorithm, crate::search::Algorithm::Mtdf);
        // Bad values mid-game are refused when they arrive; the values in force stay.
        let before = capture.lines().len();
        in_turn(
            &mut session,
            "setoption tune rfp_margin=7000\nsetoption without lmr,nullmove\nsetoption knowledge all\n\
             setoption threads 0\nsetoption algorithm alphabeta\n",
        );
        let errors = &capture.lines()[before..];
        assert_eq!(errors.len(), 5, "{errors:?}");
        assert!(errors.iter().all(|l| l.starts_with("info string error: ")), "{errors:?}");
        assert_eq!(session.options().engine(), &typed);
        // The search gets them at the next `go`, in one piece.
        assert_eq!(session.engine.options, crate::search::EngineOptions::default());
        in_turn(&mut session, "position startpos\ngo depth 2\n");
        assert_eq!(session.engine.options, typed);
        assert!(capture.lines().last().unwrap().starts_with("bestmove "));
    }

    /// A session with a seeded book choice, in `dialect`, after `script`.
    fn seeded_session(script: &str) -> (Session, Capture) {
        let (mut session, capture) = new_session();
        session.rng = rand::SeedableRng::seed_from_u64(17);
        in_turn(&mut session, script);
        (session, capture)
    }

    /// The `info string` lines that are not errors.
    fn notes(lines: &[String]) -> Vec<&str> {
        lines
            .iter()
            .map(String::as_str)
            .filter(|l| l.starts_with("info string ") && !l.contains("error"))
            .collect()
    }

    #[test]
    fn debug_tells_the_book_decision_the_evaluation_and_the_time_budget() {
        let script = "ucci\nsetoption usemillisec true\nposition startpos\ngo time 60000 increment 0\n\
                      go depth 1\nposition fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1\n\
                      go time 2000 increment 0\nsetoption usebook false\ngo time 2000 increment 0\n";
        let (_, quiet) = seeded_session(script);
        let quiet = quiet.lines();
        assert_eq!(notes(&quiet), Vec::<&str>::new(), "{quiet:?}");
        let (_, told) = seeded_session(&format!("ucci\nsetoption debug true\n{}", &script[5..]));
        let told = told.lines();
        let book_line = told.iter().find(|l| l.starts_with("info message book move ")).unwrap();
        let mv = book_line.split(' ').nth(4).unwrap();
        // The same move as without debug: debug only tells.
        assert!(quiet.contains(book_line), "{book_line} {quiet:?}");
        let notes = notes(&told);
        assert_eq!(notes.len(), 10, "{told:?}");
        assert!(notes[0].starts_with(&format!("info string book: {mv} drawn from ")), "{notes:?}");
        assert!(notes[0].contains(" moves of embedded (weight ") && notes[0].ends_with(", randomness none)"));
        assert_eq!(notes[1], "info string no book move: the book is not asked for a 'go depth'");
        // Each search says which evaluation it runs with: the built-in net by default.
        assert!(notes[2].starts_with("info string evaluation: NNUE ") && notes[2].ends_with(" (built in)"));
        assert_eq!(notes[3], "info string time budget: none, no clock limits this search");
        assert_eq!(notes[4], "info string no book move: no book has this position");
        assert_eq!(notes[5], notes[2]);
        assert!(notes[6].starts_with("info string time budget: soft "), "{notes:?}");
        assert_eq!(notes[7], "info string no book move: the book is switched off");
        assert_eq!(notes[5..7], notes[8..10], "the same clock, the same budget");
        // The budget line comes before the search it is for.
        let at = told.iter().position(|l| l == notes[6]).unwrap();
        assert!(told[at + 1..].iter().any(|l| l.starts_with("info depth")), "{told:?}");
    }

    #[test]
    fn debug_names_a_banned_book_move_and_an_unreadable_book() {
        let (_, first) = seeded_session("ucci\nposition startpos\ngo time 600 increment 0\n");
        let first = first.lines();
        let mv = first.iter().find_map(|l| l.strip_prefix("info message book move ")).unwrap();
        let mv = mv.split(' ').next().unwrap();
        let (_, banned) = seeded_session(&format!(
            "ucci\nsetoption debug\nsetoption usemillisec\nposition startpos\nbanmoves {mv}\n\
             go time 1000 increment 0\n"
        ));
        let banned = banned.lines();
        assert_eq!(
            notes(&banned)[0],
            format!("info string no book move: {mv} drawn from embedded is banned")
        );
        let answer = banned.last().unwrap();
        assert!(legal_answer("startpos", answer) && answer.split(' ').nth(1) != Some(mv), "{answer}");
        let (_, unread) = seeded_session(
            "uci\ndebug on\nsetoption name BookFile value /no/such/book.cbk\ngo wtime 1000 btime 1000\n\
             debug off\ngo wtime 1000 btime 1000\n",
        );
        let unread = unread.lines();
        let notes = notes(&unread);
        assert_eq!(notes[0], "info string no book move: no book could be read", "{unread:?}");
        assert!(notes[1].starts_with("info string evaluation: NNUE "), "{unread:?}");
        assert_eq!(notes[2], "info string time budget: soft 18 ms, hard 90 ms", "{unread:?}");
        assert_eq!(notes.len(), 3, "nothing after debug off: {unread:?}");
    }

    #[test]
    fn debug_gives_the_movetime_budget_less_the_overhead() {
        let (mut session, lines) = seeded_session(
            "uci\ndebug on\nsetoption name OwnBook value false\nsetoption name Move Overhead value 50\n\
             go movetime 300\n",
        );
        // Pondering ends only with a stop (or a ponderhit).
        session.handle_line("go ponder movetime 300").unwrap();
        session.handle_line("stop").unwrap();
        let finished = session.done.recv();
        session.receive(finished).unwrap();
        let lines = lines.lines();
        // The evaluation lines between are `debug_tells_the_book_decision_the_evaluation_…`'s.
        let notes: Vec<&str> =
            notes(&lines).into_iter().filter(|l| !l.starts_with("info string evaluation: ")).collect();
        assert_eq!(
            notes,
            [
                "info string no book move: the book is switched off",
                "info string time budget: soft 250 ms, hard 250 ms",
                "info string no book move: the book is switched off",
                "info string time budget: soft 250 ms, hard 250 ms, counted from ponderhit",
            ]
        );
    }
}
