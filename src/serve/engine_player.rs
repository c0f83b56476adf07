//! The engine's seats: a few worker threads, each with its own `Engine`, take jobs from every
//! game in turn (a move for an engine game to play, an analysis, a piece of a game's curve) and
//! send their answers back on a channel, so the server keeps answering while they think. Moves
//! to play are taken before the rest.

use std::sync::Arc;
use std::thread;

use crossbeam_channel::{unbounded, Receiver, Sender};

use super::curve::{curve_point, CurvePoint};
use crate::board::{Move, Position};
use crate::egtb::{Tablebases, Value as TableValue};
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::search::{
    Engine, HashError, Info, IterationInfo, Limits, ScoreBound, SearchControl, Skill, TablebaseHandle,
};
use crate::winrate::WdlPerMille;

/// Nodes an analysis request may spend (a few tenths of a second).
pub const ANALYSIS_NODES: u64 = 300_000;

/// The most nodes a move may take: full strength's budget (level 20 has no node limit of its
/// own), about a second on one thread. Below full strength the level's own limit is smaller.
pub const MOVE_NODES: u64 = 1_000_000;

/// What the engine may spend on one move, with `clock` = (time left, increment) in milliseconds
/// when the game is timed, so that it never flags: `MOVE_NODES` at most, the clock's share
/// of the time left, and (below full strength, in the worker) the skill's own node limit.
pub fn move_limits(clock: Option<(u64, u64)>) -> Limits {
    let mut limits = Limits::nodes(MOVE_NODES);
    if let Some((left, increment)) = clock {
        limits.time_left = Some(left);
        limits.increment = increment;
    }
    limits
}

/// What an engine thread is asked to do.
#[derive(Clone, Debug)]
pub enum Task {
    /// A move for the game to play.
    Move {
        /// The game's take-back count when asked, so a stale answer can be dropped.
        generation: u64,
        /// The position, with the game's moves in its history (repetitions count).
        position: Position,
        /// What the search may spend.
        limits: Limits,
        /// How strong the move is played: the game's level.
        skill: Skill,
    },
    /// The best lines of a position, at full strength, for the one who asked.
    Analysis {
        /// The request's number.
        request: u64,
        /// The position, with the moves before it in its history.
        position: Position,
        /// How many lines (MultiPV).
        lines: usize,
    },
    /// Red's expected score at each of a run of positions of a game (a piece of its curve).
    Curve {
        /// The request's number.
        request: u64,
        /// The ply of the first position.
        first_ply: usize,
        /// The positions, each with the moves before it in its history.
        positions: Vec<Position>,
    },
}

/// One job for the engine threads.
#[derive(Clone, Debug)]
pub struct EngineJob {
    /// The game's id.
    pub game: String,
    /// Stops the job when nobody wants its answer any more.
    pub control: Arc<SearchControl>,
    /// What to do.
    pub task: Task,
}

/// One line of an analysis, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLine {
    /// The line, legal from the analysed position.
    pub pv: Vec<Move>,
    /// Its score as people are shown it (normalised centipawns, or mate in N).
    pub score: ShownScore,
    /// Win, draw and loss chances per mille.
    pub wdl: WdlPerMille,
}

/// What a job found, or (for a move) that its search has begun.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The search for a move has left the queue and begun: the engine's clock runs from now.
    Started {
        /// The generation the move was asked at.
        generation: u64,
    },
    /// The move to play, `None` when there was none (or the search was stopped at once).
    Move {
        /// The generation the move was asked at.
        generation: u64,
        /// The move found.
        best: Option<Move>,
    },
    /// An analysis's lines, best first.
    Analysis {
        /// The request's number.
        request: u64,
        /// The lines.
        lines: Vec<AnalysisLine>,
        /// The tablebases' verdict of the position, for the side to move, when they hold it.
        tablebase: Option<TableValue>,
    },
    /// A piece of a curve, in ply order.
    Curve {
        /// The request's number.
        request: u64,
        /// One point per position asked for (fewer when the job was stopped).
        points: Vec<CurvePoint>,
    },
}

/// A finished job.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineAnswer {
    /// The game's id.
    pub game: String,
    /// What it found.
    pub outcome: Outcome,
}

/// The workers: jobs in, answers out. Moves to play go first, before analyses and curves, so a
/// game's clock does not wait behind the requests of people looking on. Dropping the pool ends
/// the workers after their job.
pub struct EnginePool {
    moves: Sender<EngineJob>,
    requests: Sender<EngineJob>,
}

impl EnginePool {
    /// Starts `workers` threads (at least one), each with a `hash_mb` table, answering on
    /// `answers`.
    pub fn new(
        workers: usize,
        hash_mb: usize,
        answers: Sender<EngineAnswer>,
    ) -> Result<EnginePool, HashError> {
        EnginePool::with_tablebases(workers, hash_mb, None, answers)
    }

    /// As `new`, the analyses and curves using `tables` (`--egtb`). The engine's own moves do
    /// not: its levels were measured without them.
    pub fn with_tablebases(
        workers: usize,
        hash_mb: usize,
        tables: Option<Arc<Tablebases>>,
        answers: Sender<EngineAnswer>,
    ) -> Result<EnginePool, HashError> {
        let (moves, move_queue) = unbounded::<EngineJob>();
        let (requests, request_queue) = unbounded::<EngineJob>();
        let mut engines = Vec::new();
        for _ in 0..workers.max(1) {
            let mut engine = Engine::try_new(hash_mb)?;
            engine.options.threads = 1;
            engine.options.move_overhead_ms = 50;
            engines.push(engine);
        }
        for (i, engine) in engines.into_iter().enumerate() {
            let queues = (move_queue.clone(), request_queue.clone());
            let answers = answers.clone();
            let tables = tables.clone();
            // Without a worker the engine games wait; the server itself goes on.
            let _ = thread::Builder::new()
                .name(format!("serve-engine-{i}"))
                .spawn(move || work(engine, tables, queues, answers));
        }
        Ok(EnginePool { moves, requests })
    }

    /// Queues a job: a move ahead of every analysis and curve.
    pub fn submit(&self, job: EngineJob) {
        let queue = if matches!(job.task, Task::Move { .. }) { &self.moves } else { &self.requests };
        let _ = queue.send(job);
    }
}

/// The next job: a move when one waits, else whichever comes first; `None` when the pool is gone.
fn next_job(moves: &Receiver<EngineJob>, requests: &Receiver<EngineJob>) -> Option<EngineJob> {
    if let Ok(job) = moves.try_recv() {
        return Some(job);
    }
    crossbeam_channel::select_biased! {
        recv(moves) -> job => job.ok(),
        recv(requests) -> job => job.ok(),
    }
}

fn work(
    mut engine: Engine,
    tables: Option<Arc<Tablebases>>,
    (moves, requests): (Receiver<EngineJob>, Receiver<EngineJob>),
    answers: Sender<EngineAnswer>,
) {
    while let Some(job) = next_job(&moves, &requests) {
        // Cancelled while waiting its turn: nobody wants the answer.
        if job.control.stop_requested() {
            continue;
        }
        let outcome = match job.task {
            Task::Move { generation, position, limits, skill } => {
                let started =
                    EngineAnswer { game: job.game.clone(), outcome: Outcome::Started { generation } };
                if answers.send(started).is_err() {
                    return;
                }
                // One worker serves games at every level: each job brings its own.
                engine.options.skill = skill;
                engine.options.tablebases = TablebaseHandle(None);
                job.control.start(false);
                let result = engine.search(&position, &limits, &job.control, &mut |_| {});
                Outcome::Move { generation, best: result.best }
            }
            Task::Analysis { request, position, lines } => {
                engine.options.skill = Skill::FULL;
                engine.options.tablebases = TablebaseHandle(tables.clone());
                job.control.start(false);
                let tablebase = tables.as_deref().and_then(|t| t.probe(&position));
                Outcome::Analysis {
                    request,
                    lines: analyse(&mut engine, &position, lines, &job.control),
                    tablebase,
                }
            }
            Task::Curve { request, first_ply, positions } => {
                engine.options.skill = Skill::FULL;
                engine.options.tablebases = TablebaseHandle(tables.clone());
                let mut points = Vec::with_capacity(positions.len());
                for (i, position) in positions.iter().enumerate() {
                    if job.control.stop_requested() {
                        break;
                    }
                    points.push(curve_point(&mut engine, position, first_ply + i, &job.control));
                }
                Outcome::Curve { request, points }
            }
        };
        if answers.send(EngineAnswer { game: job.game, outcome }).is_err() {
            return;
        }
    }
}

/// The best `lines` lines of `position` within `ANALYSIS_NODES`: the exact lines of the deepest
/// iteration, and when the node limit cut that iteration short, the previous one's lines for
/// the moves it did not reach.
fn analyse(
    engine: &mut Engine,
    position: &Position,
    lines: usize,
    control: &SearchControl,
) -> Vec<AnalysisLine> {
    let limits = Limits { multipv: lines.max(1), ..Limits::nodes(ANALYSIS_NODES) };
    let mut collector = LineCollector::new(limits.multipv);
    let mut report = |info: &Info| {
        if let Info::Iteration(it) = info {
            collector.note(it);
        }
    };
    engine.search(position, &limits, control, &mut report);
    let scale = ScoreScale::of(&engine.options.eval, position);
    collector
        .lines()
        .into_iter()
        .map(|(score, pv)| AnalysisLine { pv, score: scale.shown(score), wdl: scale.wdl(score) })
        .collect()
}

/// A line's score and its moves.
type ScoredLine = (i32, Vec<Move>);

/// Collects the MultiPV lines of a search's iterations. Lines of different depths are kept apart:
/// a slot's last line may come from an earlier iteration whose ranking differed, and mixing them
/// could list one first move twice.
struct LineCollector {
    /// The depth of the iteration in progress.
    depth: i32,
    /// The exact line of each slot that iteration has reported so far.
    current: Vec<Option<ScoredLine>>,
    /// The exact lines, best first, of the last earlier iteration that reported any.
    previous: Vec<ScoredLine>,
}

impl LineCollector {
    fn new(slots: usize) -> LineCollector {
        LineCollector { depth: 0, current: vec![None; slots], previous: Vec::new() }
    }

    /// Takes one iteration report; bounds (fail-high or fail-low lines) are not lines.
    fn note(&mut self, it: &IterationInfo) {
        if it.depth != self.depth {
            if self.current.iter().any(Option::is_some) {
                let slots = self.current.len();
                self.previous =
                    std::mem::replace(&mut self.current, vec![None; slots]).into_iter().flatten().collect();
            }
            self.depth = it.depth;
        }
        if it.bound == ScoreBound::Exact
            && !it.pv.is_empty()
            && (1..=self.current.len()).contains(&it.multipv)
        {
            self.current[it.multipv - 1] = Some((it.score, it.pv.clone()));
        }
    }

    /// The deepest iteration's lines, best first, then the earlier iteration's lines for other
    /// first moves, up to the number of slots.
    fn lines(self) -> Vec<ScoredLine> {
        let slots = self.current.len();
        let mut lines: Vec<ScoredLine> = self.current.into_iter().flatten().collect();
        for line in self.previous {
            if lines.len() < slots && lines.iter().all(|(_, pv)| pv[0] != line.1[0]) {
                lines.push(line);
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;

    #[test]
    fn a_move_is_bounded_and_keeps_the_clock() {
        assert_eq!(move_limits(None), Limits::nodes(MOVE_NODES));
        let timed = move_limits(Some((60_000, 2_000)));
        assert_eq!((timed.time_left, timed.increment, timed.nodes), (Some(60_000), 2_000, Some(MOVE_NODES)));
        // Below full strength the skill's own, smaller, node limit wins.
        let weak = Skill::level(5).limits(&move_limits(None));
        assert_eq!(weak.nodes, Skill::level(5).node_limit());
        assert!(weak.nodes < Some(MOVE_NODES));
    }

    #[test]
    fn a_weak_level_on_a_short_clock_answers_in_time() {
        let (answers, answered) = unbounded();
        let pool = EnginePool::new(1, 1, answers).unwrap();
        for (skill, left) in [(Skill::level(3), 300), (Skill::FULL, 300), (Skill::from_elo(1500), 2_000)] {
            let started = std::time::Instant::now();
            pool.submit(EngineJob {
                game: "g".into(),
                control: Arc::new(SearchControl::new()),
                task: Task::Move {
                    generation: 0,
                    position: Position::startpos(),
                    limits: move_limits(Some((left, 0))),
                    skill,
                },
            });
            let notice = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
            assert_eq!(notice.outcome, Outcome::Started { generation: 0 });
            let answer = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
            assert!(matches!(answer.outcome, Outcome::Move { best: Some(_), .. }), "{answer:?}");
            // The time manager keeps well inside the clock (and its 50 ms overhead).
            assert!(started.elapsed().as_millis() < u128::from(left), "{skill:?}: {:?}", started.elapsed());
        }
    }

    #[test]
    fn a_worker_answers_with_a_legal_move() {
        let (answers, answered) = unbounded();
        let pool = EnginePool::new(1, 1, answers).unwrap();
        let position = Position::startpos();
        let control = Arc::new(SearchControl::new());
        pool.submit(EngineJob {
            game: "g".into(),
            control,
            task: Task::Move {
                generation: 3,
                position: position.clone(),
                limits: move_limits(None),
                skill: Skill::level(1),
            },
        });
        let started = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
        assert_eq!(started.outcome, Outcome::Started { generation: 3 });
        let answer = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
        let Outcome::Move { generation: 3, best: Some(best) } = answer.outcome else { panic!("{answer:?}") };
        assert_eq!(answer.game, "g");
        assert!(movegen::is_legal(&mut position.clone(), best));
    }

    #[test]
    fn a_move_to_play_goes_before_the_analyses_queued_earlier() {
        let (answers, answered) = unbounded();
        let pool = EnginePool::new(1, 1, answers).unwrap();
        let position = Position::startpos();
        let analysis = |request| EngineJob {
            game: "a".into(),
            control: Arc::new(SearchControl::new()),
            task: Task::Analysis { request, position: position.clone(), lines: 1 },
        };
        for request in 0..3 {
            pool.submit(analysis(request));
        }
        pool.submit(EngineJob {
            game: "m".into(),
            control: Arc::new(SearchControl::new()),
            task: Task::Move {
                generation: 0,
                position: position.clone(),
                limits: Limits::nodes(1_000),
                skill: Skill::FULL,
            },
        });
        let order: Vec<String> = (0..5)
            .map(|_| answered.recv_timeout(std::time::Duration::from_secs(60)).unwrap())
            .filter(|a| !matches!(a.outcome, Outcome::Started { .. }))
            .map(|a| a.game)
            .collect();
        // The first analysis was running (or about to) when the move came; the move is next.
        assert!(order[..2].contains(&"m".to_string()), "{order:?}");
    }

    #[test]
    fn a_curve_piece_scores_its_positions_in_order_and_stops_when_told() {
        let (answers, answered) = unbounded();
        let pool = EnginePool::new(1, 1, answers).unwrap();
        let mut positions = vec![Position::startpos()];
        let mut next = Position::startpos();
        next.make_move(Move::parse_iccs("h2e2").unwrap());
        positions.push(next);
        let curve = |control: Arc<SearchControl>| EngineJob {
            game: "g".into(),
            control,
            task: Task::Curve { request: 4, first_ply: 10, positions: positions.clone() },
        };
        pool.submit(curve(Arc::new(SearchControl::new())));
        let answer = answered.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        let Outcome::Curve { request: 4, points } = answer.outcome else { panic!("{answer:?}") };
        assert_eq!(points.iter().map(|p| p.ply).collect::<Vec<_>>(), [10, 11]);
        // Stopped before its turn: no answer at all.
        let stopped = Arc::new(SearchControl::new());
        stopped.request_stop();
        pool.submit(curve(stopped));
        assert!(answered.recv_timeout(std::time::Duration::from_millis(500)).is_err());
    }

    #[test]
    fn analysis_lines_come_from_one_iteration_and_never_repeat_a_first_move() {
        let mv = |text: &str| Move::parse_iccs(text).unwrap();
        let info = |depth, multipv, score, bound, first: &str| IterationInfo {
            depth,
            seldepth: depth,
            multipv,
            score,
            bound,
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: vec![mv(first)],
        };
        let mut collector = LineCollector::new(2);
        // Depth 5 ranks h2e2 over b2e2; depth 6 finds b2e2 best, then runs out of nodes while
        // its second line only fails high. Slot by slot, both slots would say b2e2.
        collector.note(&info(5, 1, 30, ScoreBound::Exact, "h2e2"));
        collector.note(&info(5, 2, 20, ScoreBound::Exact, "b2e2"));
        collector.note(&info(6, 1, 40, ScoreBound::Exact, "b2e2"));
        collector.note(&info(6, 2, 35, ScoreBound::Lower, "h2e2"));
        let firsts: Vec<(i32, String)> =
            collector.lines().into_iter().map(|(score, pv)| (score, pv[0].to_string())).collect();
        assert_eq!(firsts, [(40, "b2e2".to_string()), (30, "h2e2".to_string())]);

        // A deeper iteration with no exact line at all leaves the last complete one in place.
        let mut collector = LineCollector::new(2);
        collector.note(&info(3, 1, 10, ScoreBound::Exact, "h2e2"));
        collector.note(&info(3, 2, 5, ScoreBound::Exact, "b2e2"));
        collector.note(&info(4, 1, 60, ScoreBound::Lower, "c3c4"));
        let firsts: Vec<String> = collector.lines().into_iter().map(|(_, pv)| pv[0].to_string()).collect();
        assert_eq!(firsts, ["h2e2", "b2e2"]);
    }

    #[test]
    fn an_analysis_reports_its_lines_best_first_with_chances() {
        let (answers, answered) = unbounded();
        let pool = EnginePool::new(1, 1, answers).unwrap();
        // Red wins at once: after the pawn's step e7e8 or e7d7 Black has no move, and that loses
        // (`chariot judge --fen … --moves e7e8`, and e7d7: result 1-0 ply 1 reason stalemate).
        let position = Position::from_fen("3k5/9/4P4/9/9/9/9/9/9/4K1R2 w - - 0 1").unwrap();
        let control = Arc::new(SearchControl::new());
        pool.submit(EngineJob {
            game: "g".into(),
            control,
            task: Task::Analysis { request: 9, position, lines: 2 },
        });
        let answer = answered.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        let Outcome::Analysis { request: 9, lines, tablebase: None } = answer.outcome else {
            panic!("{answer:?}")
        };
        assert_eq!(lines.len(), 2);
        assert!(["e7e8", "e7d7"].contains(&lines[0].pv[0].to_string().as_str()), "{lines:?}");
        assert_eq!(lines[0].score, ShownScore::Mate(1));
        assert_eq!(lines[0].wdl, WdlPerMille { win: 1000, draw: 0, loss: 0 });
        assert_ne!(lines[1].pv[0], lines[0].pv[0]);
    }
}
