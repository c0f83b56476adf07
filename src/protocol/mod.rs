//! UCCI and UCI front ends over one engine core.
//!
//! A reader thread turns stdin into lines on a crossbeam channel; the dispatcher waits on those
//! lines and on finished searches at once, so `isready`, `stop`, `ponderhit`, `probe` and `quit`
//! are answered while the engine thinks. Searches run on their own engine thread (perft, a
//! diagnostic, runs in order on the dispatcher); the hash table is shared, so `probe` reads it even
//! mid-search. The first meaningful command picks the dialect (`ucci` → UCCI, anything else → UCI).

pub mod go_cmd;
pub mod handshake;
pub mod options;
pub mod position_cmd;
pub mod report;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread;

use crossbeam_channel::{select, unbounded, Receiver, Sender};

use crate::board::{movegen, Move, Position};
use crate::book::{self, BookSet};
use crate::search::tt::Bound;
use crate::search::{Engine, Limits, SearchControl, SearchResult};
use go_cmd::{parse_go, GoCommand, TimeUnit};
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

/// One `info string error: …` line: the protocols' way to refuse a command.
fn report_error(out: &Output, message: &str) -> io::Result<()> {
    send(out, &format!("info string error: {message}"))
}

/// A search for the engine thread.
struct Job {
    engine: Engine,
    pos: Position,
    limits: Limits,
    control: Arc<SearchControl>,
    dialect: Dialect,
}

/// A search in progress, and what its answer must carry.
struct Thinking {
    draw_offered: bool,
    ponder: bool,
    /// Searches until `stop`: nothing else ends it.
    infinite: bool,
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
    done: Receiver<SearchResult>,
    thinking: Option<Thinking>,
    losing_streak: u32,
    /// The books `bookfiles` names, loaded on first use (`None` until then or after a change).
    books: Option<BookSet>,
    rng: rand::rngs::StdRng,
}

fn engine_thread(jobs: Receiver<Job>, done: Sender<SearchResult>, out: Output) {
    for Job { mut engine, pos, limits, control, dialect } in jobs {
        let sink = out.clone();
        let mut reporter = move |info: &crate::search::Info| {
            for line in report::info_lines(dialect, info) {
                let _ = send(&sink, &line);
            }
        };
        let result = engine.search(&pos, &limits, &control, &mut reporter);
        if done.send(result).is_err() {
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
        let options = Options::default();
        Session {
            dialect: None,
            position: Position::startpos(),
            engine: Engine::new(options.hash_mb),
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

    /// Whether a search is running.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let args: Vec<&str> = words.collect();
        let dialect =
            *self.dialect.get_or_insert(if command == "ucci" { Dialect::Ucci } else { Dialect::Uci });
        match command {
            "ucci" | "uci" => self.handshake(command, dialect)?,
            "isready" => send(&self.out, "readyok")?,
            "position" => match parse_position(&args.join(" ")) {
                Ok(position) => {
                    self.position = position;
                    self.ban_moves.clear();
                }
                Err(e) => report_error(&self.out, &e.to_string())?,
            },
            "banmoves" => self.banmoves(&args)?,
            "setoption" => self.setoption(dialect, &args)?,
            "go" => self.go(dialect, &args)?,
            "stop" => {
                if self.thinking.is_some() {
                    self.control.request_stop();
                } else if dialect == Dialect::Ucci {
                    send(&self.out, "nobestmove")?;
                }
            }
            "ponderhit" => self.ponderhit(&args)?,
            "probe" => self.probe(&args)?,
            "ucinewgame" => self.new_game(),
            "debug" => {}
            "quit" => {
                self.shutdown(true)?;
                if dialect == Dialect::Ucci {
                    send(&self.out, "bye")?;
                }
                return Ok(Flow::Quit);
            }
            other => report_error(&self.out, &format!("unknown command '{other}'"))?,
        }
        Ok(Flow::Continue)
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

    fn setoption(&mut self, dialect: Dialect, args: &[&str]) -> io::Result<()> {
        let before = self.options.hash_mb;
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
                if self.options.hash_mb != before {
                    // A running search keeps its own handle on the old table.
                    if let Err(e) = self.engine.resize_hash(self.options.hash_mb) {
                        self.options.hash_mb = before;
                        return report_error(&self.out, &format!("{e}; the {before} MB table stays"));
                    }
                }
                Ok(())
            }
            Ok(SetOutcome::NewGame) => {
                self.new_game();
                Ok(())
            }
            Ok(SetOutcome::Unknown(name)) => {
                send(&self.out, &format!("info string unknown option '{name}' ignored"))
            }
            Err(e) => report_error(&self.out, &e),
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
                    return report_error(&self.out, &format!("banmoves: '{text}' is not a legal move here"))
                }
            }
        }
        self.ban_moves = banned;
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
            Err(e) => return report_error(&self.out, &e),
        };
        let search = match request {
            GoCommand::Perft(depth) => {
                // A diagnostic, answered in order like the commands around it.
                let nodes = movegen::perft(&mut self.position.clone(), depth);
                return send(&self.out, &format!("Nodes searched: {nodes}"));
            }
            GoCommand::Search(s) => s,
        };
        let mut limits = search.limits;
        if search.depth_zero {
            match dialect {
                Dialect::Ucci => return send(&self.out, "nobestmove"),
                Dialect::Uci => limits.depth = Some(1),
            }
        }
        limits.ban_moves = self.ban_moves.clone();
        if self.book_allowed(&limits) {
            if let Some(mv) = self.book_move()? {
                return send(&self.out, &format!("bestmove {mv}"));
            }
        }
        self.engine.options.threads = self.options.threads;
        self.engine.options.algorithm = self.options.algorithm;
        self.engine.options.move_overhead_ms = self.options.move_overhead_ms;
        // `without`, `withoutterms` and `tune` were checked when set, so they always parse here.
        let level = crate::search::SearchFeatures::for_level(self.options.pruning as u8);
        self.engine.options.features = level.without_list(&self.options.without).unwrap_or(level);
        let all = crate::eval::TermSet::ALL;
        self.engine.options.terms = all.without_list(&self.options.without_terms).unwrap_or(all);
        self.engine.options.params =
            crate::search::SearchParams::with_list(&self.options.tune).unwrap_or_default();
        self.control.start(limits.ponder);
        self.thinking = Some(Thinking {
            draw_offered: search.draw_offered,
            ponder: limits.ponder,
            infinite: limits.infinite,
            position: self.position.clone(),
        });
        let job = Job {
            engine: self.engine.clone(),
            pos: self.position.clone(),
            limits,
            control: self.control.clone(),
            dialect,
        };
        let _ = self.jobs.send(job);
        Ok(())
    }

    /// Book moves answer ordinary game moves, not analysis (infinite, pondering, mate, depth or
    /// node limits, restricted root moves).
    fn book_allowed(&self, limits: &Limits) -> bool {
        self.options.use_book
            && !limits.infinite
            && !limits.ponder
            && limits.mate.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.search_moves.is_empty()
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
        let randomness = match self.options.randomness {
            options::Level::None => 0.0,
            options::Level::Small => 0.5,
            options::Level::Medium => 1.5,
            options::Level::Large => 4.0,
        };
        let Some(set) = &self.books else { return Ok(None) };
        let Some(choice) = book::choose(set, &self.position, randomness, &mut self.rng) else {
            return Ok(None);
        };
        if self.ban_moves.contains(&choice.mv) {
            return Ok(None);
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

    fn ponderhit(&mut self, args: &[&str]) -> io::Result<()> {
        match &mut self.thinking {
            Some(t) if t.ponder => {
                if args.first() == Some(&"draw") {
                    t.draw_offered = true;
                }
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

    /// Prints the answer of a finished search.
    fn finish(&mut self, result: SearchResult) -> io::Result<()> {
        let Some(thinking) = self.thinking.take() else {
            return Ok(());
        };
        let dialect = self.dialect.unwrap_or(Dialect::Uci);
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

    /// Ends any search: at once when `now` (quit) or when nothing would end it by itself
    /// (infinite, pondering), else by letting it finish. Prints its answer.
    fn shutdown(&mut self, now: bool) -> io::Result<()> {
        let Some(thinking) = &self.thinking else {
            return Ok(());
        };
        if now || thinking.infinite || self.control.is_pondering() {
            self.control.request_stop();
        }
        match self.done.recv() {
            Ok(done) => self.finish(done),
            Err(_) => Ok(()),
        }
    }
}

/// Runs the command loop until `quit` or the end of the input. Lines that are not UTF-8 are read
/// lossily rather than ending the loop: bad input must never stop the engine.
pub fn run(input: impl BufRead + Send + 'static, out: Output) -> io::Result<()> {
    let (line_tx, lines) = unbounded::<String>();
    thread::spawn(move || {
        let mut input = input;
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    if line_tx.send(String::from_utf8_lossy(&buffer).into_owned()).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let mut session = Session::new(out);
    let done = session.done.clone();
    loop {
        if session.is_thinking() && session.options.batch {
            // `batch`: no commands are read while thinking.
            if let Ok(d) = done.recv() {
                session.finish(d)?;
            }
            continue;
        }
        select! {
            recv(lines) -> line => match line {
                Ok(line) => {
                    if session.handle_line(&line)? == Flow::Quit {
                        return Ok(());
                    }
                }
                Err(_) => {
                    // End of input: let a bounded search answer, then leave.
                    session.shutdown(false)?;
                    return Ok(());
                }
            },
            recv(done) -> d => {
                if let Ok(d) = d {
                    session.finish(d)?;
                }
            }
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

    /// A writer whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<Vec<u8>>>);

    impl Write for Capture {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Capture {
        fn lines(&self) -> Vec<String> {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap().lines().map(str::to_string).collect()
        }
    }

    /// Runs `script` through a fresh loop and returns the output lines.
    fn replies(script: &'static str) -> Vec<String> {
        let capture = Capture::default();
        run(script.as_bytes(), output(capture.clone())).unwrap();
        capture.lines()
    }

    fn new_session() -> (Session, Capture) {
        let capture = Capture::default();
        (Session::new(output(capture.clone())), capture)
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
    fn first_command_other_than_ucci_means_uci() {
        let (mut session, _) = new_session();
        session.handle_line("isready").unwrap();
        assert_eq!(session.dialect(), Some(Dialect::Uci));
        let (mut session, _) = new_session();
        session.handle_line("   ").unwrap();
        assert_eq!(session.dialect(), None, "blank lines are not commands");
        session.handle_line("ucci").unwrap();
        assert_eq!(session.dialect(), Some(Dialect::Ucci));
    }

    #[test]
    fn position_and_perft() {
        // Start position: 44 legal moves (rules.md reference numbers).
        // The bad position is refused and the start position stays for the perft.
        let lines = replies("position startpos\nposition startpos moves h2e2 x\ngo perft 1\n");
        assert!(lines[0].starts_with("info string error: move 2 'x'"), "{lines:?}");
        assert_eq!(lines[1], "Nodes searched: 44");
    }

    #[test]
    fn setoption_in_ucci() {
        let (mut session, capture) = new_session();
        for line in ["ucci", "setoption usemillisec true", "setoption nosuch 16"] {
            session.handle_line(line).unwrap();
        }
        assert!(session.options().use_millisec);
        let lines = capture.lines();
        assert_eq!(lines.last().unwrap(), "info string unknown option 'nosuch' ignored");
    }

    #[test]
    fn invalid_utf8_is_an_unknown_command_not_an_exit() {
        let capture = Capture::default();
        run(&b"\xff\xfe\nisready\n"[..], output(capture.clone())).unwrap();
        let lines = capture.lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("info string error: unknown command"));
        assert_eq!(lines[1], "readyok");
    }

    #[test]
    fn end_of_input_stops_an_infinite_search_and_answers() {
        // Nothing would ever stop this search but the end of the input.
        let lines = replies("uci\nposition startpos\ngo infinite\n");
        let last = lines.last().unwrap();
        let mv = last.strip_prefix("bestmove ").expect("an answer").split(' ').next().unwrap();
        assert!(movegen::is_legal(&mut Position::startpos(), Move::parse_iccs(mv).unwrap()), "{last}");
        // A bounded search is let finish: its last iteration is reported.
        let lines = replies("uci\nsetoption name OwnBook value false\nposition startpos\ngo depth 5\n");
        assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")), "{lines:?}");
        assert!(lines.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn depth_zero_and_idle_stop_in_ucci() {
        let lines = replies("ucci\nstop\ngo depth 0\nquit\n");
        let ok = lines.iter().position(|l| l == "ucciok").unwrap();
        assert_eq!(lines[ok + 1..], ["nobestmove", "nobestmove", "bye"]);
    }

    #[test]
    fn a_search_ends_with_a_legal_bestmove() {
        let lines = replies("uci\nposition startpos moves h2e2\ngo depth 4\n");
        let last = lines.last().unwrap();
        let mv = last.strip_prefix("bestmove ").unwrap().split(' ').next().unwrap();
        let mut pos = parse_position("startpos moves h2e2").unwrap();
        assert!(movegen::is_legal(&mut pos, Move::parse_iccs(mv).unwrap()), "{last}");
        assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")), "{lines:?}");
    }

    #[test]
    fn a_draw_offer_is_accepted_only_when_not_better() {
        // Bare kings and advisors: a dead draw (score about 0): accepted.
        let lines = replies("ucci\nposition fen 3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\ngo draw depth 3\n");
        assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
        // An extra rook: declined.
        let lines = replies("ucci\nposition fen 3ak4/4a4/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1\ngo draw depth 3\n");
        assert!(!lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    }
}
