//! Time management: how long to think, as a soft budget (do not start another iteration) and a
//! hard one (abort the search), both measured from when the clock starts.

use super::limits::Limits;
use super::params::SearchParams;

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
        TimeBudget::with_params(limits, overhead_ms, &SearchParams::DEFAULT)
    }

    /// `new` with the time-use parameters of `params` (`time_moves`, `time_soft`, `time_hard`).
    pub fn with_params(limits: &Limits, overhead_ms: u64, params: &SearchParams) -> Option<TimeBudget> {
        if limits.infinite {
            return None;
        }
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead_ms).max(1);
            return Some(TimeBudget { soft_ms: t, hard_ms: t });
        }
        let left = limits.time_left?;
        // Never plan to use the last overhead's worth, nor the whole clock on one move.
        let usable = left.saturating_sub(overhead_ms).max(1);
        // Moves assumed left in the game when the control says nothing, and at most.
        let horizon = params.time_moves as u64;
        let moves_to_go = limits.moves_to_go.map(|m| m.max(1) as u64).unwrap_or(horizon).min(horizon);
        let share = usable / moves_to_go + limits.increment * 3 / 4;
        let cap = if moves_to_go == 1 { usable * 9 / 10 } else { usable / 2 };
        let soft = (share * params.time_soft as u64 / 100).min(cap).max(1);
        let hard = (share * params.time_hard as u64 / 100).min(cap).max(soft);
        Some(TimeBudget { soft_ms: soft, hard_ms: hard })
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
        let more = TimeBudget::with_params(&limits, 30, &generous).unwrap();
        assert_eq!(more.soft_ms, landed.soft_ms * 2);
        assert!(more.hard_ms > landed.hard_ms);
        let reckless = SearchParams::with_list("time_moves=1,time_soft=1000,time_hard=1000").unwrap();
        for left in [100, 5_000, 60_000] {
            let b = TimeBudget::with_params(&clock(left, 0, None), 30, &reckless).unwrap();
            assert!(b.hard_ms + 30 <= left, "{left}: {b:?}");
        }
    }
}
