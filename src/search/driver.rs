//! Iterative deepening for one thread: aspiration windows around the last score (PVS) or
//! MTD(f) passes, MultiPV, and on the main thread reports and asking the time manager
//! whether to go on.

use super::info::{Info, IterationInfo, ScoreBound};
use super::options::Algorithm;
use super::ordering::MAX_PLY;
use super::root::{effort_percent, RootMove};
use super::score::{is_mate, INFINITE, MATE};
use super::shared::CHATTY_AFTER_MS;
use super::timeman::{ClockReading, Iteration};
use super::tt::Bound;
use super::worker::Worker;

/// The deepest iteration: some plies short of the worker's `PLY_LIMIT` (`MAX_PLY - 4`), where
/// nodes are flattened to their static evaluation, so that even the last iteration's nominal
/// depth is searched before the per-ply stacks run out.
const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// Lazy SMP: past depth 2, each helper skips one depth in this many (which one shifts with its
/// id), so that the threads spread over different trees instead of searching the same one.
const HELPER_SKIP_CYCLE: usize = 3;

/// One reported line of the last completed iteration.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub score: i32,
    pub pv: Vec<crate::board::Move>,
}

/// What a thread's iterative deepening produced.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub lines: Vec<Line>,
    pub depth: i32,
}

/// Moves the last of `lines` up past every earlier line that scores less (stably: past none that
/// scores the same), and its root move, the last of `moves`, with it; the lines before it are
/// in score order already. `moves[i]` is the root move `lines[i]` starts with.
fn keep_in_score_order(lines: &mut [Line], moves: &mut [RootMove]) {
    let Some(new) = lines.last().map(|l| l.score) else { return };
    let last = lines.len() - 1;
    let at = lines[..last].iter().position(|l| l.score < new).unwrap_or(last);
    lines[at..].rotate_right(1);
    moves[at..=last].rotate_right(1);
}

impl Worker<'_> {
    /// Deepens until a limit, the clock or a stop ends it.
    pub fn iterate(&mut self, mut moves: Vec<RootMove>, algorithm: Algorithm) -> Outcome {
        let limits = self.shared.limits;
        let main = self.id == 0;
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(m) = limits.mate {
            max_depth = max_depth.min(2 * m.max(1));
        }
        let multipv = limits.multipv.clamp(1, moves.len());
        let mut outcome = Outcome {
            lines: vec![Line { score: self.eval.evaluate(&self.pos), pv: vec![moves[0].mv] }],
            depth: 0,
        };
        // With one legal move on a clock there is nothing to think about.
        if self.time.as_ref().is_some_and(|time| time.answers_at_once(moves.len())) {
            return outcome;
        }
        let mut prev_score = outcome.lines[0].score;
        for depth in 1..=max_depth {
            // Lazy SMP: helpers skip some depths so that threads spread over different trees.
            if !main && depth > 2 && (depth as usize + self.id).is_multiple_of(HELPER_SKIP_CYCLE) {
                continue;
            }
            self.seldepth = 0;
            let mut lines = Vec::with_capacity(multipv);
            let mut reported = 0;
            for pv_index in 0..multipv {
                let first_guess = if pv_index == 0 {
                    prev_score
                } else {
                    lines.last().map_or(prev_score, |l: &Line| l.score)
                };
                let score = match algorithm {
                    Algorithm::Pvs => self.aspiration(&mut moves[pv_index..], first_guess, depth, pv_index),
                    Algorithm::Mtdf if multipv == 1 => self.mtdf(&mut moves[pv_index..], first_guess, depth),
                    Algorithm::Mtdf => self.aspiration(&mut moves[pv_index..], first_guess, depth, pv_index),
                };
                if self.stopped {
                    break;
                }
                let mut pv = self.root_pv();
                if pv.first() != Some(&moves[pv_index].mv) {
                    pv = vec![moves[pv_index].mv];
                }
                if algorithm == Algorithm::Mtdf {
                    self.extend_pv_from_tt(&mut pv, depth);
                }
                lines.push(Line { score, pv });
                // A later line can score above an earlier one (each is searched with the earlier
                // moves left out, inside its own window): keep the lines, and their root moves,
                // in score order, as they are shown and played.
                keep_in_score_order(&mut lines, &mut moves[..=pv_index]);
                // One line is shown at once; several are shown together, in order, once all are
                // searched (or as each comes, on a long search).
                let last = pv_index + 1 == multipv;
                if main && (last || self.shared.elapsed_ms() >= CHATTY_AFTER_MS) {
                    self.report_lines(depth, &lines);
                    reported = lines.len();
                }
            }
            if self.stopped && main && reported < lines.len() {
                // The lines this iteration finished before the stop are still shown.
                self.report_lines(depth, &lines);
            }
            if self.stopped {
                // A partial iteration still counts if its best move was fully searched.
                if !lines.is_empty() {
                    for (i, line) in lines.into_iter().enumerate() {
                        match outcome.lines.get_mut(i) {
                            Some(slot) => *slot = line,
                            None => outcome.lines.push(line),
                        }
                    }
                } else if moves[0].score > -INFINITE && moves[0].mv != outcome.lines[0].pv[0] {
                    outcome.lines[0] = Line { score: moves[0].score, pv: vec![moves[0].mv] };
                }
                break;
            }
            prev_score = lines[0].score;
            // The root's result goes into the table too, so that `probe` and the next search see it.
            let eval = self.eval.evaluate(&self.pos);
            self.shared.tt.store(
                self.pos.key(),
                0,
                lines[0].pv[0],
                prev_score,
                eval,
                depth,
                Bound::Exact,
                true,
            );
            outcome.lines = lines;
            outcome.depth = depth;

            if !main {
                continue;
            }
            if let Some(m) = limits.mate {
                if prev_score >= MATE - 2 * m {
                    break;
                }
            }
            if let Some(soft) = limits.soft_nodes {
                self.shared.publish_nodes(self.id, self.nodes);
                if self.shared.total_nodes() >= soft {
                    break;
                }
            }
            if let Some(time) = &mut self.time {
                let best = outcome.lines[0].pv[0];
                let best_effort = effort_percent(&moves, best);
                let iteration = Iteration { depth, best, score: prev_score, best_effort };
                if !time.start_next_iteration(iteration, ClockReading::of(self.shared.control)) {
                    break;
                }
            }
        }
        outcome
    }

    /// A PVS iteration inside a window around `guess` that widens until the score fits.
    fn aspiration(&mut self, moves: &mut [RootMove], guess: i32, depth: i32, pv_index: usize) -> i32 {
        let mut delta = self.shared.params.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= self.shared.params.aspiration_depth && !is_mate(guess) {
            ((guess - delta).max(-INFINITE), (guess + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(moves, alpha, beta, depth);
            moves.sort_by_key(|m| std::cmp::Reverse(m.score));
            if self.stopped {
                return score;
            }
            if score <= alpha {
                if self.id == 0 {
                    self.report_bound(depth, pv_index, score, ScoreBound::Upper);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                if self.id == 0 {
                    self.report_bound(depth, pv_index, score, ScoreBound::Lower);
                }
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta;
        }
    }

    /// MTD(f): null-window root searches converging on the true score from `guess`.
    fn mtdf(&mut self, moves: &mut [RootMove], guess: i32, depth: i32) -> i32 {
        let (mut lower, mut upper) = (-INFINITE, INFINITE);
        let mut g = guess;
        let mut best_first = moves[0];
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search_root(moves, beta - 1, beta, depth);
            if self.stopped {
                break;
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.score));
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best_first = moves[0];
            }
        }
        // The last fail-high pass names the best move; a final fail-low pass says nothing about order.
        if let Some(i) = moves.iter().position(|m| m.mv == best_first.mv) {
            moves[..=i].rotate_right(1);
        }
        g
    }

    /// Null-window searches leave no triangular PV: follow the table's moves instead, each
    /// checked for legality, stopping at a repeated position.
    fn extend_pv_from_tt(&self, pv: &mut Vec<crate::board::Move>, depth: i32) {
        let mut pos = self.pos.clone();
        let mut seen = vec![pos.key()];
        for &m in pv.iter() {
            pos.make_move(m);
            seen.push(pos.key());
        }
        while pv.len() < depth.max(1) as usize + 8 {
            let Some(hit) = self.shared.tt.probe(pos.key(), 0) else { break };
            if hit.mv.is_none() || !crate::board::movegen::is_legal(&mut pos, hit.mv) {
                break;
            }
            pos.make_move(hit.mv);
            if seen.contains(&pos.key()) {
                break;
            }
            seen.push(pos.key());
            pv.push(hit.mv);
        }
    }

    /// Reports `lines`, best first, as the lines of `depth`.
    fn report_lines(&self, depth: i32, lines: &[Line]) {
        for (pv_index, line) in lines.iter().enumerate() {
            self.report_line(depth, pv_index, line.score, ScoreBound::Exact, &line.pv);
        }
    }

    fn report_bound(&self, depth: i32, pv_index: usize, score: i32, bound: ScoreBound) {
        if self.shared.elapsed_ms() >= CHATTY_AFTER_MS {
            let pv = self.root_pv();
            self.report_line(depth, pv_index, score, bound, &pv);
        }
    }

    fn report_line(
        &self,
        depth: i32,
        pv_index: usize,
        score: i32,
        bound: ScoreBound,
        pv: &[crate::board::Move],
    ) {
        self.shared.publish_nodes(self.id, self.nodes);
        let nodes = self.shared.total_nodes();
        let time_ms = self.shared.elapsed_ms();
        self.shared.report(&Info::Iteration(IterationInfo {
            depth,
            seldepth: self.seldepth.max(depth),
            multipv: pv_index + 1,
            score,
            bound,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            hashfull: self.shared.tt.hashfull(),
            pv: pv.to_vec(),
        }));
    }
}
