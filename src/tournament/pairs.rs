//! Game pairs: the two games a pairing plays from one opening, colours swapped, scored as one
//! sample (the pentanomial model fishtest uses). An opening that favours one colour moves the
//! two games' results against each other; scoring them together takes that swing out of the
//! variance, so the error bars narrow and an SPRT needs fewer games than with each game a sample.

use std::collections::HashMap;

use super::spec::SprtSpec;
use super::stats::{elo_error95, elo_from_score, normal_llr, sprt_verdict, SprtVerdict, Tally};

/// The fewest finished pairs an SPRT gives a verdict on. The LLR divides by the pairs' sample
/// variance, and a handful of pairs that happen to score alike make that variance tiny and the
/// LLR huge: five pairs, four of them ½ point and one 1 point, gave LLR −3.08 and "H0 accepted"
/// after ten games of a [0, 20] gate. Thirty pairs is the usual floor for a sample variance to
/// stand in for the true one.
pub const MIN_PAIRS_FOR_VERDICT: u32 = 30;

/// Finished pairs by the points the first engine took from them: 0, ½, 1, 1½ or 2.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]`: the pairs that scored k half-points.
    pub counts: [u32; 5],
    /// The games of those pairs, each on its own.
    pub games: Tally,
}

impl Pentanomial {
    /// Finished pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Adds one pair, its two games from the first engine's view.
    pub fn add_pair(&mut self, first: Tally, second: Tally) {
        let half_points = |t: Tally| 2 * t.wins + t.draws;
        self.counts[(half_points(first) + half_points(second)) as usize] += 1;
        self.games.add(first);
        self.games.add(second);
    }

    /// Mean score per game over the finished pairs, or `None` before the first.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| self.points_sum(|k| k) / n as f64)
    }

    /// Σ f(a pair's score per game) over the pairs; a pair of k half-points scores k/4 a game.
    fn points_sum(&self, f: impl Fn(f64) -> f64) -> f64 {
        self.counts.iter().enumerate().map(|(k, &c)| c as f64 * f(k as f64 / 4.0)).sum()
    }

    /// The variance of a pair's score per game.
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        Some(self.points_sum(|x| (x - s).powi(2)) / self.pairs() as f64)
    }

    /// Elo difference from the pairs' score.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_from_score)
    }

    /// Half the width of the 95% Elo interval, each pair one sample; `None` when unbounded.
    pub fn elo_error95(&self) -> Option<f64> {
        elo_error95(self.score()?, self.variance()?, self.pairs())
    }

    /// What the SPRT says of these pairs: its LLR against the bounds, but never a verdict before
    /// `MIN_PAIRS_FOR_VERDICT` pairs.
    pub fn verdict(&self, sprt: &SprtSpec) -> SprtVerdict {
        if self.pairs() < MIN_PAIRS_FOR_VERDICT {
            return SprtVerdict::Continue;
        }
        sprt_verdict(self.llr(sprt), sprt)
    }

    /// The SPRT log-likelihood ratio, each pair one sample. When every pair scored the same,
    /// the variance is zero and says nothing, so the ratio of the same games taken one by one
    /// (`Tally::llr`, exact for one outcome) stands in.
    pub fn llr(&self, sprt: &SprtSpec) -> f64 {
        match (self.score(), self.variance()) {
            (Some(s), Some(var)) if var > 0.0 => normal_llr(s, var, self.pairs(), sprt),
            _ => self.games.llr(sprt),
        }
    }
}

/// Puts finished games together into pairs, per pairing, in whatever order they finish.
#[derive(Clone, Debug, Default)]
pub struct PairCollector {
    finished: Vec<Pentanomial>,
    /// A game whose partner has not finished yet, by (pairing, pair).
    waiting: HashMap<(usize, u32), Tally>,
}

impl PairCollector {
    /// A collector for `pairings` pairings.
    pub fn new(pairings: usize) -> PairCollector {
        PairCollector { finished: vec![Pentanomial::default(); pairings], waiting: HashMap::new() }
    }

    /// Adds one finished game (each game once): game `pair` of `pairing`'s pairs, its result
    /// from the first engine's view. The second game of a pair completes it.
    pub fn add(&mut self, pairing: usize, pair: u32, game: Tally) {
        match self.waiting.remove(&(pairing, pair)) {
            Some(partner) => self.finished[pairing].add_pair(partner, game),
            None => {
                self.waiting.insert((pairing, pair), game);
            }
        }
    }

    /// Per pairing, the finished pairs.
    pub fn finished(&self) -> &[Pentanomial] {
        &self.finished
    }
}

#[cfg(test)]
mod tests {
    use super::super::stats::sprt_bounds;
    use super::*;

    const WIN: Tally = Tally { wins: 1, draws: 0, losses: 0 };
    const DRAW: Tally = Tally { wins: 0, draws: 1, losses: 0 };
    const LOSS: Tally = Tally { wins: 0, draws: 0, losses: 1 };
    /// The gates' SPRT [0, 10].
    const GATE: SprtSpec = SprtSpec { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn games_pair_up_by_pairing_and_pair_in_any_order() {
        let mut c = PairCollector::new(2);
        c.add(0, 0, WIN);
        c.add(1, 0, LOSS);
        c.add(0, 1, DRAW);
        assert_eq!(c.finished()[0].pairs(), 0, "no pair has both games yet");
        c.add(0, 1, WIN);
        c.add(0, 0, LOSS);
        c.add(1, 0, LOSS);
        assert_eq!(c.finished()[0].counts, [0, 0, 1, 1, 0]);
        assert_eq!(c.finished()[0].games, Tally { wins: 2, draws: 1, losses: 1 });
        assert_eq!(c.finished()[1].counts, [1, 0, 0, 0, 0]);
    }

    #[test]
    fn elo_error_and_llr_by_hand() {
        let sprt = GATE;
        // Pairs of 0, ½, 1, 1½, 2 points: 2, 10, 40, 30, 8 (90 pairs). Per-game scores 0, ¼, ½,
        // ¾, 1; their sum is 0 + 2.5 + 20 + 22.5 + 8 = 53, so s = 53/90 = 0.588889 and
        // Elo = −400·log10(1/s − 1) = 62.4297. σ² = Σ c·x²/n − s² = (0.625 + 10 + 16.875 + 8)/90
        // − s² = 0.394444 − 0.346790 = 0.0476543. The score interval s ± 1.96·√(σ²/90) =
        // 0.588889 ± 0.0451001 maps to Elo 95.4351 and 30.5057, half-width 32.4647.
        // s0 = 0.5, s1 = 0.5143872: LLR = 90·0.0143872·(1.177778 − 1.0143872)/(2·0.0476543)
        // = 2.219796.
        let p = Pentanomial { counts: [2, 10, 40, 30, 8], games: Tally::default() };
        assert_eq!(p.pairs(), 90);
        assert!(close(p.score().unwrap(), 0.588889, 1e-6));
        assert!(close(p.elo().unwrap(), 62.4297, 1e-3), "{:?}", p.elo());
        assert!(close(p.elo_error95().unwrap(), 32.4647, 1e-3), "{:?}", p.elo_error95());
        assert!(close(p.llr(&sprt), 2.219796, 1e-4), "{}", p.llr(&sprt));
    }

    #[test]
    fn pairs_that_swing_with_the_opening_count_for_more_than_their_games() {
        // Each opening won by whichever side plays Red: every pair is one win and one loss.
        // Mixed with a few pairs won outright, the pairs' variance is far below the games'.
        let sprt = GATE;
        let mut p = Pentanomial::default();
        for _ in 0..40 {
            p.add_pair(WIN, LOSS);
        }
        for _ in 0..5 {
            p.add_pair(WIN, DRAW);
        }
        assert_eq!(p.games, Tally { wins: 45, draws: 5, losses: 40 });
        assert!(p.llr(&sprt) > 2.0 * p.games.llr(&sprt), "{} {}", p.llr(&sprt), p.games.llr(&sprt));
        assert!(p.elo_error95().unwrap() < 0.5 * p.games.elo_error95().unwrap());
    }

    #[test]
    fn a_handful_of_alike_pairs_gives_no_verdict() {
        // The contbonus gate's first ten games (2026-11-30): four pairs of ½ point and one of 1.
        // Their variance is so small that the LLR passes the lower bound of an SPRT [0, 20].
        let sprt = SprtSpec { elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05 };
        let mut p = Pentanomial { counts: [0, 4, 1, 0, 0], games: Tally::default() };
        assert!(p.llr(&sprt) < sprt_bounds(&sprt).0, "{}", p.llr(&sprt));
        assert_eq!(p.verdict(&sprt), SprtVerdict::Continue);
        // The same pairs' shape six times over, thirty pairs: now the bound counts.
        p.counts = [0, 24, 6, 0, 0];
        assert_eq!(p.pairs(), MIN_PAIRS_FOR_VERDICT);
        assert_eq!(p.verdict(&sprt), SprtVerdict::AcceptH0);
        // And a sweep still ends a test once the floor is passed.
        let mut sweeps = Pentanomial::default();
        for _ in 0..MIN_PAIRS_FOR_VERDICT {
            sweeps.add_pair(WIN, WIN);
        }
        assert_eq!(sweeps.verdict(&GATE), SprtVerdict::Continue, "60 straight wins are not yet 2.94");
        for _ in 0..30 {
            sweeps.add_pair(WIN, WIN);
        }
        assert_eq!(sweeps.verdict(&GATE), SprtVerdict::AcceptH1);
    }

    #[test]
    fn one_kind_of_pair_falls_back_to_the_games() {
        let sprt = GATE;
        let mut sweeps = Pentanomial::default();
        for _ in 0..60 {
            sweeps.add_pair(WIN, WIN);
        }
        // 120 straight wins: 120·ln(s1/s0) = 120·0.0283682 (stats' exact single-outcome ratio).
        assert!(close(sweeps.llr(&sprt), 120.0 * 0.0283682, 1e-4), "{}", sweeps.llr(&sprt));
        assert_eq!(sweeps.elo_error95(), None);
        let mut even = Pentanomial::default();
        for _ in 0..10 {
            even.add_pair(WIN, LOSS);
        }
        assert_eq!(even.llr(&sprt), even.games.llr(&sprt));
        assert!(even.llr(&sprt) < 0.0);
        assert_eq!(Pentanomial::default().llr(&sprt), 0.0);
        assert_eq!(Pentanomial::default().elo_error95(), None);
    }
}
