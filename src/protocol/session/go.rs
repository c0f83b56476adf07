//! `go`: the words are parsed (`go_cmd`), the book is asked, and a search or a perft is handed
//! to the engine thread with the options in force.

use std::io;

use crate::board::Position;
use crate::protocol::dialect::Dialect;
use crate::protocol::engine_thread::{Job, SearchTask, Task};
use crate::protocol::go_cmd::{parse_go, GoCommand, TimeUnit};
use crate::protocol::output::{report_error, send};

use super::{Session, Thinking};

impl Session {
    /// `go …` in either dialect: a book move, a search or a perft.
    pub(super) fn go(&mut self, dialect: Dialect, args: &[&str]) -> io::Result<()> {
        if self.thinking.is_some() {
            return report_error(&self.out, "already thinking: send stop first");
        }
        let position = match self.position_or_error() {
            Ok(pos) => pos.clone(),
            Err(why) => {
                report_error(&self.out, &why.to_string())?;
                // A GUI waits for an answer to its `go`: it gets one that plays nothing.
                return match args.first() {
                    Some(&"perft") => Ok(()),
                    _ => send(&self.out, no_move(dialect)),
                };
            }
        };
        let unit = if dialect == Dialect::Uci || self.options.use_millisec {
            TimeUnit::Milliseconds
        } else {
            TimeUnit::Seconds
        };
        let request = match parse_go(args, unit, &position, self.options.multipv) {
            Ok(r) => r,
            Err(e) => return report_error(&self.out, &e.to_string()),
        };
        let search = match request {
            // Counted on the engine thread like a search: the reader stays free for stop and quit.
            GoCommand::Perft(depth) => return self.start(Task::Perft { depth }, position, false, false),
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
        if let Some(mv) = self.book_answer(&position, &limits)? {
            return send(&self.out, &format!("bestmove {mv}"));
        }
        // Every option was parsed and checked when it was set: the search takes them as they are.
        self.engine.options = self.options.engine().clone();
        let debug = self.options.debug;
        if debug {
            // The time budget line follows from the engine thread: the search tells the budget it
            // computed, rather than this working it out a second time.
            self.debug_line(&format!("evaluation: {}", self.engine.options.eval.describe()))?;
            let skill = self.engine.options.skill;
            if let Some(nodes) = skill.node_limit() {
                let level = f64::from(skill.centi_level()) / 100.0;
                let weakened = if skill.weakens(&limits) { "" } else { " (not applied to this search)" };
                let line = format!(
                    "strength: level {level:.2}, at most {nodes} nodes, weakness {}{weakened}",
                    skill.weakness()
                );
                self.debug_line(&line)?;
            }
        }
        let ponder = limits.ponder;
        let show_wdl = self.options.show_wdl;
        let task = SearchTask { engine: self.engine.clone(), limits, dialect, debug, show_wdl };
        self.start(Task::Search(Box::new(task)), position, search.draw_offered, ponder)
    }

    /// Hands `task` on `position` to the engine thread.
    fn start(&mut self, task: Task, position: Position, draw_offered: bool, ponder: bool) -> io::Result<()> {
        self.control.start(ponder);
        let job = Job { task, pos: position.clone(), control: self.control.clone() };
        if self.jobs.send(job).is_err() {
            return report_error(&self.out, "the engine thread is gone: nothing can be searched");
        }
        self.thinking = Some(Thinking { draw_offered, ponder, position });
        Ok(())
    }
}

/// The answer to a `go` that plays no move: UCCI's `nobestmove`, UCI's `bestmove (none)`.
pub(super) fn no_move(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Ucci => "nobestmove",
        Dialect::Uci => "bestmove (none)",
    }
}
