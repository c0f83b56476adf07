//! `Session`: the engine state one protocol conversation holds, and the dispatcher that hands
//! each line to its command.
//!
//! The commands are spread by what they do: `commands` answers the quick ones at once,
//! `setoption` applies option changes, `go` starts a search (asking `book_answer` first),
//! `answer` writes what a finished job found, and `inspect` answers the console conveniences
//! `d`, `eval` and `flip`.

mod answer;
mod book_answer;
mod commands;
mod go;
mod inspect;
mod setoption;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io;
use std::sync::Arc;
use std::thread;

use crossbeam_channel::{unbounded, Receiver, Sender};

use crate::board::{Move, Position};
use crate::book::BookSet;
use crate::quote::quoted;
use crate::search::{Engine, SearchControl};

use super::command::{AfterCommand, Command};
use super::dialect::Dialect;
use super::engine_thread::{engine_thread, Finished, Job};
use super::input::InputLine;
use super::options::Options;
use super::output::{report_error, send, Output};
use super::position_cmd::{parse_position_words, PositionError};

/// A job in progress, and what its answer must carry.
struct Thinking {
    draw_offered: bool,
    ponder: bool,
    position: Position,
}

/// Why a command that needs a position has none: the last `position` was refused, for this
/// reason. `Display` is the error line's text.
#[derive(Debug)]
struct NoPosition<'a>(&'a PositionError);

impl fmt::Display for NoPosition<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no position: the last position command was refused ({}); send a valid one", self.0)
    }
}

impl std::error::Error for NoPosition<'_> {}

/// The engine state one protocol conversation holds.
pub struct Session {
    dialect: Option<Dialect>,
    /// The position the next `go` searches, or why the last `position` was refused: after a
    /// refusal there is no position until a valid one arrives, so that a `go` can never answer
    /// with a move of an earlier one (a GUI would play it on a board where it means something
    /// else).
    position: Result<Position, PositionError>,
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
            position: Ok(Position::startpos()),
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

    /// The current position (set by `position`); `None` after a refused `position`, until a
    /// valid one arrives.
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref().ok()
    }

    /// The current position, or why there is none.
    fn position_or_error(&self) -> Result<&Position, NoPosition<'_>> {
        self.position.as_ref().map_err(NoPosition)
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether a search (or a perft) is running.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Where finished jobs arrive, for the loop to wait on with the input; hand what comes to
    /// `receive`.
    pub(in crate::protocol) fn finished_jobs(&self) -> Receiver<Finished> {
        self.done.clone()
    }

    /// Handles one line as the reader delivered it: a line that is not text is one error.
    pub fn handle_input(&mut self, line: InputLine) -> io::Result<AfterCommand> {
        match line.into_text() {
            Ok(text) => self.handle_line(&text),
            Err(why) => {
                report_error(&self.out, &format!("{why}: ignored"))?;
                Ok(AfterCommand::Continue)
            }
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> io::Result<AfterCommand> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(AfterCommand::Continue);
        };
        let args: Vec<&str> = words.collect();
        let Some(parsed) = Command::parse(command) else {
            report_error(&self.out, &format!("unknown command {}", quoted(command)))?;
            return Ok(AfterCommand::Continue);
        };
        if parsed.is_console() {
            // Answered at once, searching or not, and in no particular dialect.
            self.no_arguments(command, &args)?;
            self.console(parsed)?;
            return Ok(AfterCommand::Continue);
        }
        let dialect = match self.dialect {
            Some(dialect) => dialect,
            None => {
                let dialect = if parsed == Command::Ucci { Dialect::Ucci } else { Dialect::Uci };
                self.dialect = Some(dialect);
                self.options.take_dialect_defaults(dialect);
                dialect
            }
        };
        match parsed {
            Command::Ucci | Command::Uci => {
                self.no_arguments(command, &args)?;
                self.handshake(command, dialect)?
            }
            Command::IsReady => {
                self.no_arguments(command, &args)?;
                send(&self.out, "readyok")?
            }
            Command::Position => {
                self.position = parse_position_words(&args);
                // Bans name moves of the position they were sent for; a refused one lifts them too.
                self.ban_moves.clear();
                if let Err(e) = &self.position {
                    report_error(&self.out, &e.to_string())?;
                }
            }
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
            // Answered above.
            Command::Display | Command::Eval | Command::Flip => {}
            Command::Quit => {
                self.no_arguments(command, &args)?;
                self.stop_and_answer()?;
                if dialect == Dialect::Ucci {
                    send(&self.out, "bye")?;
                }
                return Ok(AfterCommand::Quit);
            }
        }
        Ok(AfterCommand::Continue)
    }

    /// Reports words after a command that takes none; the command is still carried out.
    fn no_arguments(&self, command: &str, args: &[&str]) -> io::Result<()> {
        if args.is_empty() {
            return Ok(());
        }
        report_error(&self.out, &format!("{command} takes no arguments: {} ignored", quoted(&args.join(" "))))
    }

    /// With `debug` on, one `info string` line.
    fn debug_line(&self, text: &str) -> io::Result<()> {
        if self.options.debug {
            send(&self.out, &format!("info string {text}"))?;
        }
        Ok(())
    }
}

impl Drop for Session {
    /// However the loop ends (an error writing the output, say), the search ends with it.
    fn drop(&mut self) {
        self.control.request_stop();
    }
}
