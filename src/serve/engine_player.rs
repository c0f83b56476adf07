//! The engine's seats: a few worker threads, each with its own `Engine`, take search jobs from
//! every engine game in turn and send their answers back on a channel, so the server keeps
//! answering while they think.

use std::sync::Arc;
use std::thread;

use crossbeam_channel::{unbounded, Receiver, Sender};

use crate::board::{Move, Position};
use crate::search::{Engine, HashError, Limits, SearchControl};

/// Nodes per move at each level, 1 to 10. The levels helper's `Skill Level` will replace this
/// table; `level_limits` is the one place that reads it.
const LEVEL_NODES: [u64; 10] =
    [300, 1_000, 3_000, 10_000, 30_000, 60_000, 120_000, 250_000, 500_000, 1_000_000];

/// What the engine may spend on one move at `level` (1 to 10; others are clamped), with
/// `clock` = (time left, increment) in milliseconds when the game is timed, so it never flags.
///
/// For now a level is a node limit per move; this is the one function to point at the
/// strength levels (`Skill Level`, `UCI_Elo`) once they exist.
pub fn level_limits(level: u8, clock: Option<(u64, u64)>) -> Limits {
    let index = usize::from(level.clamp(1, 10)) - 1;
    let mut limits = Limits::nodes(LEVEL_NODES[index]);
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
    /// Stops the search when the game no longer wants its answer.
    pub control: Arc<SearchControl>,
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
        let result = engine.search(&job.position, &job.limits, &job.control, &mut |_| {});
        let answer = EngineAnswer { game: job.game, generation: job.generation, best: result.best };
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
    fn levels_grow_and_keep_the_clock() {
        let nodes: Vec<u64> = (1..=10).map(|l| level_limits(l, None).nodes.unwrap()).collect();
        assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
        assert_eq!(level_limits(0, None), level_limits(1, None));
        assert_eq!(level_limits(99, None), level_limits(10, None));
        let timed = level_limits(5, Some((60_000, 2_000)));
        assert_eq!((timed.time_left, timed.increment), (Some(60_000), 2_000));
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
            limits: level_limits(1, None),
            control,
        });
        let answer = answered.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
        assert_eq!((answer.game.as_str(), answer.generation), ("g", 3));
        assert!(movegen::is_legal(&mut position.clone(), answer.best.unwrap()));
    }
}
