//! The engine's seats: a few worker threads, each with its own `Engine`, take search jobs from
//! every engine game in turn and send their answers back on a channel, so the server keeps
//! answering while they think.

use std::sync::Arc;
use std::thread;

use crossbeam_channel::{unbounded, Receiver, Sender};

use crate::board::{Move, Position};
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::search::{Engine, HashError, Info, Limits, ScoreBound, SearchControl, Skill};
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

/// One search to run for a game.
#[derive(Clone, Debug)]
pub struct EngineJob {
    /// The game's id.
    pub game: String,
    /// The game's take-back count when asked, so a stale answer can be dropped.
    pub generation: u64,
    /// The position, with the game's moves in its history (repetitions count).
    pub position: Position,
    /// What the search may spend.
    pub limits: Limits,
    /// How strong the move is played: a game's level, or full strength for an analysis.
    pub skill: Skill,
    /// Stops the search when the game no longer wants its answer.
    pub control: Arc<SearchControl>,
    /// For an analysis (not a move to play): the request's number, and the lines are reported.
    pub analysis: Option<u64>,
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

/// A finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnswer {
    /// The game's id.
    pub game: String,
    /// The generation the job was asked at.
    pub generation: u64,
    /// The move found, `None` when there was none (or the search was stopped at once).
    pub best: Option<Move>,
    /// For an analysis: its request number and the best lines, best first.
    pub analysis: Option<(u64, Vec<AnalysisLine>)>,
}

/// The workers: jobs in, answers out. Dropping the pool ends the workers after their job.
pub struct EnginePool {
    jobs: Sender<EngineJob>,
}

impl EnginePool {
    /// Starts `workers` threads (at least one), each with a `hash_mb` table, answering on
    /// `answers`.
    pub fn new(
        workers: usize,
        hash_mb: usize,
        answers: Sender<EngineAnswer>,
    ) -> Result<EnginePool, HashError> {
        let (jobs, queue) = unbounded::<EngineJob>();
        let mut engines = Vec::new();
        for _ in 0..workers.max(1) {
            let mut engine = Engine::try_new(hash_mb)?;
            engine.options.threads = 1;
            engine.options.move_overhead_ms = 50;
            engines.push(engine);
        }
        for (i, engine) in engines.into_iter().enumerate() {
            let (queue, answers) = (queue.clone(), answers.clone());
            // Without a worker the engine games wait; the server itself goes on.
            let _ = thread::Builder::new()
                .name(format!("serve-engine-{i}"))
                .spawn(move || work(engine, queue, answers));
        }
        Ok(EnginePool { jobs })
    }

    /// Queues a search.
    pub fn submit(&self, job: EngineJob) {
        let _ = self.jobs.send(job);
    }
}

fn work(mut engine: Engine, queue: Receiver<EngineJob>, answers: Sender<EngineAnswer>) {
    for job in queue {
        // Cancelled while waiting its turn: nobody wants the answer.
        if job.control.stop_requested() {
            continue;
        }
        job.control.start(false);
        // One worker serves games at every level: each job brings its own.
        engine.options.skill = job.skill;
        // The last exact score of each MultiPV line, as the iterations report them.
        let mut lines: Vec<Option<(i32, Vec<Move>)>> = vec![None; job.limits.multipv.max(1)];
        let mut report = |info: &Info| {
            if let Info::Iteration(it) = info {
                if it.bound == ScoreBound::Exact && (1..=lines.len()).contains(&it.multipv) {
                    lines[it.multipv - 1] = Some((it.score, it.pv.clone()));
                }
            }
        };
        let result = engine.search(&job.position, &job.limits, &job.control, &mut report);
        let analysis = job.analysis.map(|request| {
            let scale = ScoreScale::of(&engine.options.eval, &job.position);
            let lines = lines
                .into_iter()
                .flatten()
                .map(|(score, pv)| AnalysisLine { pv, score: scale.shown(score), wdl: scale.wdl(score) })
                .collect();
            (request, lines)
        });
        let answer = EngineAnswer { game: job.game, generation: job.generation, best: result.best, analysis };
        if answers.send(answer).is_err() {
            return;
        }
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
                generation: 0,
                position: Position::startpos(),
                limits: move_limits(Some((left, 0))),
                skill,
                control: Arc::new(SearchControl::new()),
                analysis: None,
            });
            let answer = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
            assert!(answer.best.is_some());
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
            generation: 3,
            position: position.clone(),
            limits: move_limits(None),
            skill: Skill::level(1),
            control,
            analysis: None,
        });
        let answer = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
        assert_eq!((answer.game.as_str(), answer.generation), ("g", 3));
        assert!(movegen::is_legal(&mut position.clone(), answer.best.unwrap()));
        assert_eq!(answer.analysis, None);
    }

    #[test]
    fn an_analysis_reports_its_lines_best_first_with_chances() {
        let (answers, answered) = unbounded();
        let pool = EnginePool::new(1, 1, answers).unwrap();
        // Red wins at once: after the pawn's step e7e8 or e7d7 Black has no move, and that loses
        // (`chariot judge --fen … --moves e7e8`, and e7d7: result 1-0 ply 1 reason stalemate).
        let position = Position::from_fen("3k5/9/4P4/9/9/9/9/9/9/4K1R2 w - - 0 1").unwrap();
        let limits = Limits { multipv: 2, ..Limits::nodes(20_000) };
        let control = Arc::new(SearchControl::new());
        pool.submit(EngineJob {
            game: "g".into(),
            generation: 0,
            position,
            limits,
            skill: Skill::FULL,
            control,
            analysis: Some(9),
        });
        let answer = answered.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        let (request, lines) = answer.analysis.unwrap();
        assert_eq!(request, 9);
        assert_eq!(lines.len(), 2);
        assert!(["e7e8", "e7d7"].contains(&lines[0].pv[0].to_string().as_str()), "{lines:?}");
        assert_eq!(lines[0].score, ShownScore::Mate(1));
        assert_eq!(lines[0].wdl, WdlPerMille { win: 1000, draw: 0, loss: 0 });
        assert_ne!(lines[1].pv[0], lines[0].pv[0]);
    }
}
