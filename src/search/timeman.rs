//! Time management: how long to think, and when to stop.
//!
//! `TimeBudget` turns the clock into a soft budget (do not start another iteration) and a hard
//! one (abort the search), both measured from when the clock starts. `TimeManager` owns that
//! budget for one search and answers the main search thread's three questions:
//! after each iteration, whether to start another (`start_next_iteration`, which also scales
//! the soft budget by how unstable the search looks); at each poll, whether to abort
//! (`must_abort`); and once the search is done, whether the answer must wait for `stop` or
//! `ponderhit` (`holds_answer`). Every number it uses is a `SearchParams` field (`time_*`).

use std::time::Duration;

use crate::board::Move;

use super::control::SearchControl;
use super::limits::Limits;
use super::params::SearchParams;
use super::score::{is_mate, MATE};

/// The thinking time for one move, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Past this, no new iteration starts (scaled during the search by instability).
    pub soft_ms: u64,
    /// Past this, the search stops at once.
    pub hard_ms: u64,
}

impl TimeBudget {
    /// The budget for `limits`, or `None` when the clock does not limit the search.
    /// `overhead_ms` is what the GUI and the pipe cost per move (the `Move Overhead` option).
    pub fn new(limits: &Limits, overhead_ms: u64) -> Option<TimeBudget> {
        TimeBudget::with_params(limits, overhead_ms, &SearchParams::DEFAULT, 0)
    }

    /// `new` with the time-use parameters of `params` (`time_moves`, `time_soft`, `time_hard`,
    /// `time_increment`, `time_cap`, `time_cap_last`, `time_ply_growth`, `time_ply_max`), for a
    /// move after `game_ply` plies of the game.
    pub fn with_params(
        limits: &Limits,
        overhead_ms: u64,
        params: &SearchParams,
        game_ply: usize,
    ) -> Option<TimeBudget> {
        if limits.infinite {
            return None;
        }
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead_ms).max(1);
            return Some(TimeBudget { soft_ms: t, hard_ms: t });
        }
        let left = limits.time_left?;
        let percent = |ms: u64, p: i32| ms * p as u64 / 100;
        // Never plan to use the last overhead's worth, nor the whole clock on one move.
        let usable = left.saturating_sub(overhead_ms).max(1);
        // Moves assumed left in the game when the control says nothing, and at most.
        let horizon = params.time_moves as u64;
        let moves_to_go = limits.moves_to_go.map(|m| m.max(1) as u64).unwrap_or(horizon).min(horizon);
        let growth =
            (100 + params.time_ply_growth as u64 * game_ply as u64 / 10).min(params.time_ply_max as u64);
        let share =
            percent(usable / moves_to_go + percent(limits.increment, params.time_increment), growth as i32);
        let cap = percent(usable, if moves_to_go == 1 { params.time_cap_last } else { params.time_cap });
        let soft = percent(share, params.time_soft).min(cap).max(1);
        let hard = percent(share, params.time_hard).min(cap).max(soft);
        Some(TimeBudget { soft_ms: soft, hard_ms: hard })
    }
}

/// What the time manager learns from an iteration the main thread completed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Its depth.
    pub depth: i32,
    /// Its best move.
    pub best: Move,
    /// The best move's score.
    pub score: i32,
    /// The percent of the root's nodes, over the whole search so far, spent on the best move.
    pub best_effort: u32,
}

/// The clock as the search sees it when it asks the time manager.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Milliseconds since the clock started (the search's start, or `ponderhit`).
    pub elapsed_ms: u64,
    /// Whether the search is still pondering: its clock has not started.
    pub pondering: bool,
}

impl ClockReading {
    /// The clock of the search that `control` steers, now.
    pub fn of(control: &SearchControl) -> ClockReading {
        ClockReading { pondering: control.is_pondering(), elapsed_ms: control.elapsed_ms() }
    }
}

/// How much the soft budget stretches when the search looks unstable: `SearchParams`'
/// percentages as factors.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Scaling {
    best_changed: f64,
    best_stable: f64,
    score_dropped: f64,
    drop_margin: i32,
    min: f64,
    max: f64,
    next_iteration: f64,
    mate_plies: i32,
    effort: u32,
    effort_soft: f64,
}

impl Scaling {
    fn new(params: &SearchParams) -> Scaling {
        let factor = |percent: i32| percent as f64 / 100.0;
        Scaling {
            best_changed: factor(params.time_best_changed),
            best_stable: factor(params.time_best_stable),
            score_dropped: factor(params.time_score_dropped),
            drop_margin: params.time_drop_margin,
            min: factor(params.time_scale_min),
            max: factor(params.time_scale_max),
            next_iteration: factor(params.time_next_iteration),
            mate_plies: params.time_mate_plies,
            effort: params.time_effort as u32,
            effort_soft: factor(params.time_effort_soft),
        }
    }
}

/// One search's time manager, kept by the main search thread.
#[derive(Clone, Debug)]
pub struct TimeManager {
    /// `None`: the clock does not limit this search.
    budget: Option<TimeBudget>,
    /// `go movetime`: the whole budget is used, no iteration is skipped to save time.
    fixed_time: bool,
    /// `go infinite`: never stop on time, never answer before `stop`.
    infinite: bool,
    /// On a clock and not pondering: a lone legal move is played without searching.
    single_reply_at_once: bool,
    scaling: Scaling,
    /// The soft budget's multiplier, from `scaling.min` up to `scaling.max`.
    instability: f64,
    /// The best move and score of the last iteration seen.
    last: Option<(Move, i32)>,
}

impl TimeManager {
    /// The time manager of a search within `limits`, `overhead_ms` per move going to the GUI
    /// and the pipes, with the time-use parameters of `params`, after `game_ply` plies.
    pub fn new(limits: &Limits, overhead_ms: u64, params: &SearchParams, game_ply: usize) -> TimeManager {
        TimeManager {
            budget: TimeBudget::with_params(limits, overhead_ms, params, game_ply),
            fixed_time: limits.movetime.is_some(),
            infinite: limits.infinite,
            single_reply_at_once: limits.is_timed() && !limits.ponder,
            scaling: Scaling::new(params),
            instability: 1.0,
            last: None,
        }
    }

    /// The budget before any scaling, or `None` when the clock does not limit the search.
    pub fn budget(&self) -> Option<TimeBudget> {
        self.budget
    }

    /// Whether a root with `root_moves` legal moves is answered without a search.
    pub fn answers_at_once(&self, root_moves: usize) -> bool {
        self.single_reply_at_once && root_moves == 1
    }

    /// After each iteration the main thread completes: whether to start another. A best move
    /// that changes or a score that drops stretches the soft budget; one that holds shrinks
    /// it back. Never on time while pondering or on a fixed move time (the hard limit ends
    /// those), nor without a clock.
    pub fn start_next_iteration(&mut self, iteration: Iteration, clock: ClockReading) -> bool {
        let last = self.last.replace((iteration.best, iteration.score));
        let Some(budget) = self.budget else { return true };
        if clock.pondering || self.fixed_time {
            return true;
        }
        let s = self.scaling;
        let best_changed = last.is_some_and(|(best, _)| best != iteration.best);
        let score_dropped = last.is_some_and(|(_, score)| iteration.score < score - s.drop_margin);
        self.instability = if best_changed {
            (self.instability * s.best_changed).min(s.max)
        } else {
            (self.instability * s.best_stable).max(s.min)
        };
        if score_dropped {
            self.instability = (self.instability * s.score_dropped).min(s.max);
        }
        let soft = (budget.soft_ms as f64 * self.instability).min(budget.hard_ms as f64);
        let elapsed = clock.elapsed_ms as f64;
        // Past the soft budget, or so near the hard one that the next iteration would be cut off.
        if elapsed >= soft || elapsed * s.next_iteration >= budget.hard_ms as f64 {
            return false;
        }
        // A best move that took nearly all the effort has no rival worth the rest of the budget.
        if s.effort > 0 && iteration.best_effort >= s.effort && elapsed >= soft * s.effort_soft {
            return false;
        }
        // A mate seen well past its distance will not change.
        let score = iteration.score;
        !(is_mate(score) && iteration.depth as i64 > (MATE - score.abs()) as i64 + s.mate_plies as i64)
    }

    /// At each poll of the main thread: whether the search must stop now (the hard budget is
    /// spent; the clock of a pondering search has not started).
    #[inline]
    pub fn must_abort(&self, clock: ClockReading) -> bool {
        self.budget.is_some_and(|b| !clock.pondering && clock.elapsed_ms >= b.hard_ms)
    }

    /// Once the main thread is done: whether its answer must wait (`go infinite` until `stop`,
    /// pondering until `stop` or `ponderhit`).
    pub fn holds_answer(&self, pondering: bool) -> bool {
        self.infinite || pondering
    }

    /// Blocks while `holds_answer` says so and `control` has no stop request.
    pub fn wait_for_release(&self, control: &SearchControl) {
        while self.holds_answer(control.is_pondering()) && !control.stop_requested() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits { time_left: Some(left), increment: inc, moves_to_go: mtg, multipv: 1, ..Limits::default() }
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(TimeBudget::new(&Limits::depth(5), 30), None);
        let mut l = clock(10_000, 0, None);
        l.infinite = true;
        assert_eq!(TimeBudget::new(&l, 30), None);
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        assert_eq!(
            TimeBudget::new(&Limits::movetime(1000), 30),
            Some(TimeBudget { soft_ms: 970, hard_ms: 970 })
        );
        assert_eq!(TimeBudget::new(&Limits::movetime(10), 30).unwrap().hard_ms, 1);
    }

    #[test]
    fn never_plans_to_flag() {
        for (left, inc, mtg) in
            [(100, 0, None), (100, 0, Some(1)), (5_000, 50, None), (60_000, 0, Some(40)), (20, 0, None)]
        {
            let b = TimeBudget::new(&clock(left, inc, mtg), 30).unwrap();
            assert!(b.soft_ms <= b.hard_ms);
            assert!(b.hard_ms + 30 <= left.max(31), "{left}+{inc}: {b:?}");
        }
        // 5 s + 0.05 s: a few hundred milliseconds at most, and more than a few.
        let b = TimeBudget::new(&clock(5_000, 50, None), 30).unwrap();
        assert!(b.soft_ms > 50 && b.hard_ms < 1_000, "{b:?}");
    }

    #[test]
    fn time_use_follows_the_parameters_and_still_never_flags() {
        let limits = clock(60_000, 0, None);
        let landed = TimeBudget::new(&limits, 30).unwrap();
        let generous = SearchParams::with_list("time_soft=120,time_hard=600").unwrap();
        let more = TimeBudget::with_params(&limits, 30, &generous, 0).unwrap();
        assert_eq!(more.soft_ms, landed.soft_ms * 2);
        assert!(more.hard_ms > landed.hard_ms);
        let reckless = SearchParams::with_list(
            "time_moves=1,time_soft=1000,time_hard=1000,time_cap=100,time_cap_last=100,time_increment=200",
        )
        .unwrap();
        for (left, inc) in [(100, 0), (5_000, 0), (60_000, 0), (5_000, 1_000)] {
            let b = TimeBudget::with_params(&clock(left, inc, None), 30, &reckless, 0).unwrap();
            assert!(b.hard_ms + 30 <= left, "{left}: {b:?}");
        }
    }

    #[test]
    fn a_share_that_grows_with_the_game_doubles_by_ply_100_and_stops_at_its_maximum() {
        let limits = clock(60_000, 600, None);
        let growing = SearchParams::with_list("time_ply_growth=10,time_ply_max=250").unwrap();
        let at = |ply| TimeBudget::with_params(&limits, 30, &growing, ply).unwrap();
        // The landed values at the first ply; 2,324 ms a move as in the test below.
        assert_eq!(at(0), TimeBudget::new(&limits, 30).unwrap());
        assert_eq!(at(100).soft_ms, 2_324 * 2 * 60 / 100);
        assert_eq!(at(150).soft_ms, 2_324 * 5 / 2 * 60 / 100);
        assert_eq!(at(400), at(150), "the growth stops at time_ply_max");
        // However far the game has gone, no budget passes the cap of what is left.
        let late = TimeBudget::with_params(&clock(1_000, 0, None), 30, &growing, 500).unwrap();
        assert!(late.hard_ms <= (1_000 - 30) / 2, "{late:?}");
    }

    #[test]
    fn the_landed_shares_give_the_landed_budget() {
        // 60 s, 0.6 s a move, 32 moves assumed: a share of 59,970 / 32 + 450 = 2,324 ms.
        let b = TimeBudget::new(&clock(60_000, 600, None), 30).unwrap();
        assert_eq!(b, TimeBudget { soft_ms: 2_324 * 60 / 100, hard_ms: 2_324 * 3 });
        // Sudden death on the last move before the control: at most 90% of what is left.
        let b = TimeBudget::new(&clock(1_030, 0, Some(1)), 30).unwrap();
        assert_eq!(b, TimeBudget { soft_ms: 600, hard_ms: 900 });
        // Otherwise at most half.
        let b = TimeBudget::new(&clock(1_030, 0, Some(2)), 30).unwrap();
        assert_eq!(b, TimeBudget { soft_ms: 300, hard_ms: 500 });
        // The share grows by 5% every ten plies: half as much again at ply 100.
        let at_100 = TimeBudget::with_params(&clock(60_000, 600, None), 30, &SearchParams::DEFAULT, 100);
        assert_eq!(
            at_100.unwrap(),
            TimeBudget { soft_ms: 2_324 * 3 / 2 * 60 / 100, hard_ms: 2_324 * 3 / 2 * 3 }
        );
    }

    const A: Move = Move::from_bits(0x1234);
    const B: Move = Move::from_bits(0x4321);

    fn at(elapsed_ms: u64) -> ClockReading {
        ClockReading { elapsed_ms, pondering: false }
    }

    fn pondering_at(elapsed_ms: u64) -> ClockReading {
        ClockReading { elapsed_ms, pondering: true }
    }

    /// An iteration that spent no effort worth the name on its best move.
    fn iteration(depth: i32, best: Move, score: i32) -> Iteration {
        Iteration { depth, best, score, best_effort: 0 }
    }

    fn manager(limits: &Limits) -> TimeManager {
        TimeManager::new(limits, 30, &SearchParams::DEFAULT, 0)
    }

    /// The first elapsed time at which `manager` would not start another iteration after
    /// `depth` with `best` and `score`.
    fn first_stop(manager: &TimeManager, depth: i32, best: Move, score: i32) -> u64 {
        (0..1_000_000)
            .step_by(10)
            .find(|&ms| !manager.clone().start_next_iteration(iteration(depth, best, score), at(ms)))
            .unwrap()
    }

    #[test]
    fn a_stable_best_move_stops_earlier_than_an_unstable_one() {
        let limits = clock(60_000, 0, None);
        let (mut stable, mut unstable) = (manager(&limits), manager(&limits));
        for depth in 1..=6 {
            let changing = if depth % 2 == 0 { A } else { B };
            assert!(stable.start_next_iteration(iteration(depth, A, 10), at(0)));
            assert!(unstable.start_next_iteration(iteration(depth, changing, 10), at(0)));
        }
        let budget = stable.budget().unwrap();
        // Stable: the soft budget itself.
        assert_eq!(first_stop(&stable, 7, A, 10), budget.soft_ms.div_ceil(10) * 10);
        // Changing at every iteration: stretched, up to three times, yet bounded by the hard budget
        // (no iteration starts past 40% of it: it would be cut off).
        let stable_stop = first_stop(&stable, 7, A, 10);
        let unstable_stop = first_stop(&unstable, 7, B, 10);
        assert!(unstable_stop > stable_stop * 3 / 2, "{unstable_stop} {budget:?}");
        assert!(unstable_stop <= budget.hard_ms * 2 / 5 + 10, "{unstable_stop} {budget:?}");
        // A score that drops stretches the budget too.
        let dropped = first_stop(&stable, 7, A, 10 - 31);
        assert!(dropped > budget.soft_ms, "{dropped} {budget:?}");
        assert_eq!(first_stop(&stable, 7, A, 10 - 30), first_stop(&stable, 7, A, 10));
        // A best move that holds again brings the budget back down, never below the soft budget.
        for depth in 7..=30 {
            unstable.start_next_iteration(iteration(depth, A, 10), at(0));
        }
        assert_eq!(first_stop(&unstable, 31, A, 10), first_stop(&stable, 7, A, 10));
    }

    #[test]
    fn a_best_move_that_took_nearly_all_the_effort_stops_early_when_switched_on() {
        let limits = clock(60_000, 0, None);
        let effort = SearchParams::with_list("time_effort=90,time_effort_soft=50").unwrap();
        let with_effort = TimeManager::new(&limits, 30, &effort, 0);
        let soft = with_effort.budget().unwrap().soft_ms;
        let stop = |manager: &TimeManager, best_effort| {
            (0..1_000_000)
                .step_by(10)
                .find(|&ms| {
                    let it = Iteration { depth: 8, best: A, score: 10, best_effort };
                    !manager.clone().start_next_iteration(it, at(ms))
                })
                .unwrap()
        };
        // At or past the threshold: at half the soft budget.
        assert_eq!(stop(&with_effort, 90), (soft / 2).div_ceil(10) * 10);
        assert_eq!(stop(&with_effort, 100), stop(&with_effort, 90));
        // Below it, or with the candidate off: the soft budget itself.
        assert_eq!(stop(&with_effort, 89), soft.div_ceil(10) * 10);
        assert_eq!(stop(&manager(&limits), 100), soft.div_ceil(10) * 10);
    }

    #[test]
    fn a_best_move_that_holds_may_shrink_the_budget_when_switched_on() {
        let limits = clock(60_000, 0, None);
        let saving = SearchParams::with_list("time_scale_min=70").unwrap();
        let (mut landed, mut shrinking) = (manager(&limits), TimeManager::new(&limits, 30, &saving, 0));
        let soft = landed.budget().unwrap().soft_ms;
        for depth in 1..=20 {
            assert!(landed.start_next_iteration(iteration(depth, A, 10), at(0)));
            assert!(shrinking.start_next_iteration(iteration(depth, A, 10), at(0)));
        }
        // By default a stable best move keeps the soft budget; with 70 it shrinks to 70% of it.
        assert_eq!(first_stop(&landed, 21, A, 10), soft.div_ceil(10) * 10);
        assert_eq!(first_stop(&shrinking, 21, A, 10), (soft * 7 / 10).div_ceil(10) * 10);
        // A change of mind stretches it again from there.
        assert!(first_stop(&shrinking, 21, B, 10) > soft);
    }

    #[test]
    fn never_past_the_hard_limit() {
        for limits in [clock(60_000, 0, None), clock(2_000, 100, Some(1)), clock(300_000, 3_000, None)] {
            let mut time = manager(&limits);
            let hard = time.budget().unwrap().hard_ms;
            assert!(!time.must_abort(at(hard - 1)));
            assert!(time.must_abort(at(hard)) && time.must_abort(at(hard * 10)));
            for depth in 1..=40 {
                let best = if depth % 2 == 0 { A } else { B };
                let score = 100 - 50 * depth;
                assert!(!time.clone().start_next_iteration(iteration(depth, best, score), at(hard)));
                time.start_next_iteration(iteration(depth, best, score), at(0));
            }
        }
    }

    #[test]
    fn movetime_is_used_in_full_less_overhead() {
        let time = manager(&Limits::movetime(1_000));
        assert_eq!(time.budget(), Some(TimeBudget { soft_ms: 970, hard_ms: 970 }));
        // No iteration is skipped to save time: the hard limit alone ends the search.
        for ms in [0, 500, 969, 2_000] {
            let mut t = time.clone();
            assert!(t.start_next_iteration(iteration(5, A, 0), at(ms)));
        }
        assert!(!time.must_abort(at(969)));
        assert!(time.must_abort(at(970)));
        assert!(!time.holds_answer(false));
    }

    #[test]
    fn infinite_and_ponder_never_stop_on_time_until_ponderhit() {
        let mut infinite = manager(&Limits { infinite: true, ..clock(1_000, 0, None) });
        assert_eq!(infinite.budget(), None);
        for ms in [0, 10_000, 10_000_000] {
            assert!(!infinite.must_abort(at(ms)));
            assert!(infinite.start_next_iteration(iteration(3, A, 0), at(ms)));
            assert!(infinite.holds_answer(false));
        }
        let plain_infinite = Limits { infinite: true, ..Limits::depth(100) };
        assert!(!manager(&plain_infinite).answers_at_once(1));
        assert!(manager(&plain_infinite).holds_answer(false));

        let limits = Limits { ponder: true, ..clock(10_000, 0, None) };
        let mut ponder = manager(&limits);
        let hard = ponder.budget().unwrap().hard_ms;
        assert!(!ponder.answers_at_once(1), "a lone reply is still pondered on");
        for depth in 1..=20 {
            let best = if depth % 2 == 0 { A } else { B };
            assert!(!ponder.must_abort(pondering_at(hard * 100)));
            assert!(ponder.start_next_iteration(iteration(depth, best, 0), pondering_at(hard * 100)));
            assert!(ponder.holds_answer(true));
        }
        // After ponderhit the clock runs: the budget counts from then, unstretched by the
        // iterations searched while pondering.
        assert!(!ponder.holds_answer(false));
        assert!(!ponder.must_abort(at(hard - 1)));
        assert!(ponder.must_abort(at(hard)));
        let soft = ponder.budget().unwrap().soft_ms;
        let mut held = ponder.clone();
        assert!(!held.start_next_iteration(iteration(21, A, 0), at(soft)));
        // A best move that changes after ponderhit stretches it as usual.
        assert!(ponder.start_next_iteration(iteration(21, B, 0), at(soft)));
    }

    #[test]
    fn without_a_clock_only_stop_ends_the_search() {
        let mut time = manager(&Limits::depth(8));
        assert!(!time.must_abort(at(u64::MAX)));
        assert!(time.start_next_iteration(iteration(1, A, 0), at(u64::MAX)));
        assert!(!time.answers_at_once(1) && !time.holds_answer(false));
    }

    #[test]
    fn a_lone_legal_move_on_a_clock_is_played_at_once() {
        assert!(manager(&clock(60_000, 0, None)).answers_at_once(1));
        assert!(!manager(&clock(60_000, 0, None)).answers_at_once(2));
        assert!(manager(&Limits::movetime(500)).answers_at_once(1));
    }

    #[test]
    fn a_mate_searched_past_its_distance_ends_the_search() {
        let limits = clock(600_000, 0, None);
        let mate_in_3 = MATE - 5;
        let mut time = manager(&limits);
        for depth in 1..=9 {
            assert!(time.start_next_iteration(iteration(depth, A, mate_in_3), at(0)), "{depth}");
        }
        assert!(!time.start_next_iteration(iteration(10, A, mate_in_3), at(0)));
        let mut time = manager(&limits);
        let mated_in_3 = -(MATE - 5);
        assert!(!time.start_next_iteration(iteration(10, A, mated_in_3), at(0)));
    }
}
