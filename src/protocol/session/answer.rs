//! The answer to a finished job: `bestmove` with its ponder move, UCCI's `draw` and `resign`,
//! a perft's count, and a legal move even when the search failed.

use std::io;

use crossbeam_channel::RecvError;

use crate::board::movegen;
use crate::protocol::dialect::Dialect;
use crate::protocol::engine_thread::Finished;
use crate::protocol::output::{report_error, send};
use crate::search::score_scale::ScoreScale;
use crate::search::SearchResult;

use super::go::no_move;
use super::Session;

/// The expected score (win + ½ draw, per mille, by the evaluation's win-rate model) at or below
/// which a result counts as lost for resigning.
const RESIGN_EXPECTED: u32 = 20;
/// The expected score (per mille) at or below which an offered draw is accepted: the engine
/// takes half a point whenever it does not expect more.
const ACCEPT_DRAW_EXPECTED: u32 = 500;
/// Consecutive lost results before resigning.
const RESIGN_AFTER: u32 = 3;

impl Session {
    /// Takes what the engine thread sent back; its channel closing means the thread is gone.
    pub(in crate::protocol) fn receive(&mut self, finished: Result<Finished, RecvError>) -> io::Result<()> {
        match finished {
            Ok(f) => self.finish(f),
            Err(_) => Err(io::Error::other("the engine thread stopped")),
        }
    }

    /// Stops whatever runs (a search of any kind, a perft) and prints its answer.
    pub(in crate::protocol) fn stop_and_answer(&mut self) -> io::Result<()> {
        if self.thinking.is_none() {
            return Ok(());
        }
        self.control.request_stop();
        let finished = self.done.recv();
        self.receive(finished)
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
            return send(&self.out, no_move(dialect));
        };
        let mut line = format!("bestmove {best}");
        let mut after = thinking.position.clone();
        after.make_move(best);
        if let Some(p) = result.ponder.filter(|&p| movegen::is_legal(&mut after, p)) {
            line.push_str(&format!(" ponder {p}"));
        }
        if dialect == Dialect::Ucci {
            let wdl = ScoreScale::of(&self.engine.options.eval, &thinking.position).wdl(result.score);
            let expected = wdl.win + wdl.draw / 2;
            self.losing_streak = if expected <= RESIGN_EXPECTED { self.losing_streak + 1 } else { 0 };
            if thinking.draw_offered && expected <= ACCEPT_DRAW_EXPECTED {
                line.push_str(" draw");
            } else if self.options.resign && self.losing_streak >= RESIGN_AFTER {
                line.push_str(" resign");
            }
        }
        send(&self.out, &line)
    }
}
