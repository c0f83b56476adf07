//! `Engine`: what lives from one search to the next (the transposition table, each thread's
//! move-ordering history, the options) and `Engine::search`, which starts the Lazy SMP threads
//! on one position and gathers their answer.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use crate::board::{movegen, Position};

use super::control::SearchControl;
use super::driver::Outcome;
use super::info::{Info, SearchResult};
use super::limits::Limits;
use super::options::EngineOptions;
use super::params::SearchParams;
use super::reductions::Reductions;
use super::root::root_moves;
use super::score::MATE;
use super::shared::{Reporter, Shared};
use super::tablebase_hook::keeping_root_moves;
use super::thread_state::ThreadState;
use super::timeman::TimeManager;
use super::tt::{HashError, TranspositionTable};
use super::worker::Worker;

/// Default hash size in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;

/// The searching engine: options, the transposition table and each thread's state (its
/// move-ordering history and buffers: `thread_state`), kept from one search to the next.
/// Cloning shares them.
#[derive(Clone)]
pub struct Engine {
    tt: Arc<TranspositionTable>,
    /// Per-thread history and buffers, taken out for a search and put back after it.
    threads: Arc<Mutex<Vec<ThreadState>>>,
    /// The late-move reductions of the last search's parameters.
    reductions: Reductions,
    /// Threads, algorithm, overhead.
    pub options: EngineOptions,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB)
    }
}

/// The search threads started for `requested`: at least one, at most one per core the process
/// may use. With more threads than cores, each waits its turn for a core, so the main thread looks
/// at the clock late and a stop reaches every helper only after all had their turn: 256 threads
/// on two cores overran a one-second clock by up to 1.25 s.
pub fn usable_threads(requested: usize) -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    requested.clamp(1, cores)
}

impl Engine {
    /// An engine with a `hash_mb` table and default options.
    ///
    /// # Panics
    /// If the table cannot be allocated; sizes that come from users go through `try_new`.
    pub fn new(hash_mb: usize) -> Engine {
        Engine::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// An engine with a `hash_mb` table and default options, or why the table cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Engine, HashError> {
        Ok(Engine {
            tt: Arc::new(TranspositionTable::try_new(hash_mb)?),
            threads: Default::default(),
            reductions: Reductions::new(&SearchParams::DEFAULT),
            options: EngineOptions::default(),
        })
    }

    /// Replaces the table with one of `mb` megabytes (its contents are lost). When that size
    /// cannot be had, the old table stays, contents and all.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), HashError> {
        self.tt = Arc::new(TranspositionTable::try_new(mb)?);
        Ok(())
    }

    /// Forgets everything learned: the table and the move-ordering history (new game).
    pub fn clear_hash(&self) {
        self.tt.clear();
        for state in self.saved_threads().iter_mut() {
            state.clear();
        }
    }

    fn saved_threads(&self) -> MutexGuard<'_, Vec<ThreadState>> {
        self.threads.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The transposition table (for `probe` and `hashfull`).
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Searches `pos` within `limits`. Blocks until done; `control` stops it from another
    /// thread. Reports go to `reporter` from the calling thread's search, the first of them the
    /// time budget (`Info::TimeBudget`).
    ///
    /// Below full strength (`EngineOptions::skill`) the move played is chosen among the best lines
    /// of a node-limited search (see `skill`); the result is then that line's.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        reporter: Reporter<'_>,
    ) -> SearchResult {
        let skill = self.options.skill;
        if !skill.weakens(limits) {
            let searched = self.search_lines(pos, limits, control, reporter);
            return searched.result(0, control);
        }
        // The GUI sees the lines it asked for; the others are there for the choice alone.
        let wanted = limits.multipv.max(1);
        let mut shown = |info: &Info| match info {
            Info::Iteration(line) if line.multipv > wanted => {}
            _ => reporter(info),
        };
        let searched = self.search_lines(pos, &skill.limits(limits), control, &mut shown);
        // A search stopped within an iteration keeps the last iteration's lines after the new
        // ones, so a move may come twice: its first (newest) line stands for it.
        let lines = searched.outcome.as_ref().map_or(&[][..], |o| &o.lines[..]);
        let mut firsts: Vec<usize> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if !firsts.iter().any(|&f| lines[f].pv.first() == line.pv.first()) {
                firsts.push(i);
            }
        }
        let scores: Vec<i32> = firsts.iter().map(|&i| lines[i].score).collect();
        let chosen = match scores.is_empty() {
            true => 0,
            false => firsts[skill.pick(&scores, pos.key())],
        };
        searched.result(chosen, control)
    }

    /// The search itself: its lines, best first, from the threads started on `pos`.
    fn search_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        reporter: Reporter<'_>,
    ) -> Searched {
        let time =
            TimeManager::new(limits, self.options.move_overhead_ms, &self.options.params, pos.game_ply());
        reporter(&Info::TimeBudget(time.budget()));
        let mut root = pos.clone();
        let mut moves = root_moves(&mut root, limits);
        // A table's verdict: search only the moves that keep it (when the GUI allows one).
        if let Some(keep) = self.options.tablebases.0.as_deref().and_then(|t| keeping_root_moves(t, &root)) {
            if moves.iter().any(|m| keep.contains(&m.mv)) {
                moves.retain(|m| keep.contains(&m.mv));
            }
        }
        if moves.is_empty() {
            let score = if movegen::has_legal_move(&mut root) { 0 } else { -MATE };
            return Searched { outcome: None, score, nodes: 0 };
        }
        self.tt.new_search();
        let threads = usable_threads(self.options.threads);
        let algorithm = self.options.algorithm;
        let options = EngineOptions { threads, ..self.options.clone() };
        self.reductions.update(&options.params);
        let shared = Shared::new(&self.tt, control, limits, &options, &self.reductions, reporter);
        // Last search's history, faded: the position is one move pair on, so most of it still holds.
        let mut states = std::mem::take(&mut *self.saved_threads());
        states.resize_with(threads, ThreadState::default);
        states.iter_mut().for_each(|s| s.tables.age());
        let mut states = states.into_iter();
        let main_state = states.next().unwrap_or_default();
        let (outcome, nodes, states) = std::thread::scope(|scope| {
            let mut helpers = Vec::new();
            for (i, state) in states.enumerate() {
                let (shared, moves, pos, eval) = (&shared, moves.clone(), root.clone(), &self.options.eval);
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let mut w = Worker::new(pos, shared, i + 1, state, eval, None);
                    w.iterate(moves, algorithm);
                    shared.publish_nodes(i + 1, w.nodes);
                    w.into_state()
                });
                // Out of threads or address space (a `ulimit`): search with the helpers there are.
                match spawned {
                    Ok(helper) => helpers.push(helper),
                    Err(_) => break,
                }
            }
            let mut main = Worker::new(root.clone(), &shared, 0, main_state, &self.options.eval, Some(time));
            let outcome = main.iterate(moves, algorithm);
            shared.publish_nodes(0, main.nodes);
            if let Some(time) = &main.time {
                time.wait_for_release(control);
            }
            shared.finished.store(true, Ordering::SeqCst);
            let mut states = vec![main.into_state()];
            // A helper that panicked loses only its history.
            states.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            (outcome, shared.total_nodes(), states)
        });
        *self.saved_threads() = states;
        Searched { score: outcome.lines[0].score, outcome: Some(outcome), nodes }
    }
}

/// What `Engine::search_lines` found: the lines (`None` when there was no move to search, with
/// the score of the position then) and the nodes spent.
struct Searched {
    outcome: Option<Outcome>,
    score: i32,
    nodes: u64,
}

impl Searched {
    /// The search's result with its `line`th line as the answer.
    fn result(self, line: usize, control: &SearchControl) -> SearchResult {
        let Some(outcome) = self.outcome else {
            let (best, ponder, pv) = (None, None, vec![]);
            return SearchResult { best, ponder, score: self.score, depth: 0, nodes: 0, time_ms: 0, pv };
        };
        let line = &outcome.lines[line];
        SearchResult {
            best: line.pv.first().copied(),
            ponder: line.pv.get(1).copied(),
            score: line.score,
            depth: outcome.depth,
            nodes: self.nodes,
            time_ms: control.elapsed_ms(),
            pv: line.pv.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::options::SearchFeatures;
    use crate::search::score;
    use crate::search::timeman::TimeBudget;

    /// Score and nodes of a one-thread search of `fen` to `depth` with `without` switched off.
    fn search_without(fen: &str, depth: i32, without: &str) -> (i32, u64) {
        let pos = Position::from_fen(fen).unwrap();
        let mut engine = Engine::new(16);
        engine.options.features = SearchFeatures::ALL.without_list(without).unwrap();
        let control = SearchControl::new();
        control.start(false);
        let r = engine.search(&pos, &Limits::depth(depth), &control, &mut |_| {});
        (r.score, r.nodes)
    }

    #[test]
    fn mate_distance_pruning_proves_a_mate_in_fewer_nodes() {
        // Won in one: the pawn's step to e8 leaves the king no move, and stalemate loses
        // (fairy-stockfish: mate 1). Once that is found, no longer line needs searching.
        let fen = "3k5/9/4P4/9/9/9/9/9/9/4K1R2 w - - 0 1";
        let (score, nodes) = search_without(fen, 10, "");
        let (score_without, nodes_without) = search_without(fen, 10, "mdp");
        assert_eq!(score, score::MATE - 1);
        assert_eq!(score_without, score);
        assert!(nodes * 4 < nodes_without, "{nodes} nodes with it, {nodes_without} without");
    }

    #[test]
    fn every_feature_setting_still_finds_the_mate() {
        // Mate in two (checked with fairy-stockfish): no switch may lose it.
        for name in SearchFeatures::NAMES {
            let (score, _) = search_without("3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1", 6, name);
            assert_eq!(score, score::MATE - 3, "without {name}");
        }
    }

    #[test]
    fn a_soft_node_limit_ends_on_a_whole_iteration() {
        let pos =
            Position::from_fen("r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 0 1")
                .unwrap();
        let search = |limits: &Limits| {
            let control = SearchControl::new();
            control.start(false);
            Engine::new(16).search(&pos, limits, &control, &mut |_| {})
        };
        let soft = search(&Limits { soft_nodes: Some(3_000), ..Limits::nodes(1_000_000) });
        assert!(soft.nodes >= 3_000, "stopped at {} nodes", soft.nodes);
        // Exactly the search to the depth it reached: the iteration that crossed the limit was
        // finished, and no other begun.
        let whole = search(&Limits::depth(soft.depth));
        assert_eq!((soft.best, soft.score, soft.nodes), (whole.best, whole.score, whole.nodes));
        let shallower = search(&Limits::depth(soft.depth - 1));
        assert!(shallower.nodes < 3_000, "depth {} already took {}", soft.depth - 1, shallower.nodes);
        // The hard limit still cuts an iteration off.
        let hard = search(&Limits { soft_nodes: Some(1_000_000), ..Limits::nodes(3_000) });
        assert_eq!(hard.nodes, 3_000);
    }

    #[test]
    fn the_time_budget_is_told_first_even_without_a_move() {
        // Red is mated: no move to search, and still the budget is told.
        let mated = Position::from_fen("3k5/9/9/9/9/9/9/9/3r5/3rK4 w - - 0 1").unwrap();
        for (pos, limits) in [
            (Position::startpos(), Limits { movetime: Some(300), ..Limits::depth(1) }),
            (mated, Limits { movetime: Some(300), ..Limits::default() }),
        ] {
            let control = SearchControl::new();
            control.start(false);
            let mut told = Vec::new();
            Engine::new(1).search(&pos, &limits, &control, &mut |info| told.push(info.clone()));
            let budget = TimeBudget { soft_ms: 270, hard_ms: 270 };
            assert_eq!(told.first(), Some(&Info::TimeBudget(Some(budget))), "{told:?}");
        }
    }
}
