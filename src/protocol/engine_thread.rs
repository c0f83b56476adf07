//! The engine thread: searches and perfts run here, one job at a time, so that the dispatcher
//! stays free to answer `isready`, `stop`, `ponderhit`, `probe` and `quit` meanwhile. Search
//! output is written from here as it comes; the result goes back over a channel.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};

use crate::board::Position;
use crate::search::score_scale::ScoreScale;
use crate::search::{Engine, Info, Limits, SearchControl, SearchResult};

use super::dialect::Dialect;
use super::output::{send, Output};
use super::report::ScoreStyle;
use super::{perft, report};

/// A search for the engine thread: with these limits, reporting in `dialect`.
pub(super) struct SearchTask {
    /// The engine, sharing the session's table and histories.
    pub engine: Engine,
    /// What the `go` asked for.
    pub limits: Limits,
    /// How the output is written.
    pub dialect: Dialect,
    /// `debug` was on at the `go`: the time budget is told too.
    pub debug: bool,
    /// Whether scores come with win/draw/loss chances (the scale is the root's).
    pub show_wdl: bool,
}

/// What the engine thread is asked to do.
pub(super) enum Task {
    /// Search.
    Search(Box<SearchTask>),
    /// Count the leaves this many plies deep.
    Perft { depth: u32 },
}

/// A job for the engine thread: a task on a position, steered by a control.
pub(super) struct Job {
    /// What to do.
    pub task: Task,
    /// Where.
    pub pos: Position,
    /// Stops it (and tells a search about `ponderhit`).
    pub control: Arc<SearchControl>,
}

/// What the engine thread hands back.
pub(super) enum Finished {
    /// A search's result.
    Search(SearchResult),
    /// A perft's count, `None` when stopped first.
    Perft { depth: u32, leaves: Option<u64> },
    /// The job panicked (a defect): what the panic said.
    Failed(String),
}

/// What a panic said, as text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

/// Runs each job of `jobs` in turn and sends what it gave on `done`, until either channel
/// closes. A job that panics is caught and answered as `Finished::Failed`: the thread lives on.
pub(super) fn engine_thread(jobs: Receiver<Job>, done: Sender<Finished>, out: Output) {
    for Job { task, mut pos, control } in jobs {
        let run = panic::catch_unwind(AssertUnwindSafe(|| match task {
            Task::Perft { depth } => {
                let leaves = perft::perft(&mut pos, depth, &|| control.stop_requested());
                Finished::Perft { depth, leaves }
            }
            Task::Search(search) => {
                let SearchTask { mut engine, limits, dialect, debug, show_wdl } = *search;
                let style = ScoreStyle { scale: ScoreScale::of(&engine.options.eval, &pos), wdl: show_wdl };
                let sink = out.clone();
                let stopper = control.clone();
                let ponder = limits.ponder;
                let mut reporter = move |info: &Info| {
                    let lines = match info {
                        Info::TimeBudget(budget) if debug => vec![report::budget_line(*budget, ponder)],
                        _ => report::info_lines(dialect, info, &style),
                    };
                    for line in lines {
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
