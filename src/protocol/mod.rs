//! UCCI and UCI front ends over one engine core.
//!
//! A reader thread turns stdin into lines on a crossbeam channel; the dispatcher waits on those
//! lines and on finished jobs at once, so `isready`, `stop`, `ponderhit`, `probe` and `quit` are
//! answered while the engine thinks. Searches and `go perft` run on their own engine thread; the
//! hash table is shared, so `probe` reads it even mid-search. The first meaningful command picks
//! the dialect (`ucci` → UCCI, any other known command → UCI). The end of the input, or an output
//! nobody reads any more, stops whatever runs and ends the loop: an engine whose GUI died must not
//! search on for no one.
//!
//! The rooms, in the order a line passes them:
//! - `input` reads one bounded line, `reader` runs that on its own thread;
//! - `command` names the command words; `session` holds the conversation's state and hands each
//!   command to its handler there;
//! - the words of a command are parsed by `position_cmd`, `go_cmd` and `options` (`setoption`);
//! - `engine_thread` runs searches and perfts (`perft`);
//! - replies go through `output`, in the `dialect` picked: `handshake` for the identity,
//!   `report` for search output.

mod command;
pub mod dialect;
mod engine_thread;
pub mod go_cmd;
pub mod handshake;
pub mod input;
pub mod options;
mod output;
pub mod perft;
pub mod position_cmd;
mod reader;
pub mod report;
mod session;

use std::io::{self, BufRead};

use crossbeam_channel::select;

pub use command::AfterCommand;
pub use dialect::Dialect;
pub use output::{output, Output};
pub use session::Session;

/// Runs the command loop until `quit` or the end of the input. At the end of the input every
/// search stops (its answer is still printed) and the loop ends; so does it when the output
/// cannot be written. Lines that are not UTF-8 text, or longer than `MAX_LINE_BYTES`, are one
/// error each: bad input must never stop the engine.
pub fn run(input: impl BufRead + Send + 'static, out: Output) -> io::Result<()> {
    let reader = reader::spawn(input);
    let mut session = Session::new(out);
    let done = session.finished_jobs();
    loop {
        if session.is_thinking() && session.options().batch {
            // `batch`: no commands are read while thinking; the end of the input still stops it.
            select! {
                recv(done) -> d => session.receive(d)?,
                recv(reader.ended) -> _ => session.stop_and_answer()?,
            }
            continue;
        }
        select! {
            recv(reader.lines) -> line => match line {
                Ok(line) => {
                    if session.handle_input(line)? == AfterCommand::Quit {
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
