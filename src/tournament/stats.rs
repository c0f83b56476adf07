//! Match statistics: Elo from the score under the logistic model, its 95% error from the
//! trinomial (win/draw/loss) variance, the likelihood of superiority, and the SPRT log-likelihood
//! ratio in the normal approximation that cutechess-cli and fishtest use. `pairs` scores the same
//! games two by two.

use super::spec::SprtSpec;
use crate::board::Color;

/// Wins, draws and losses from one side's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for an expected score `s` (0 < s < 1) under the logistic model.
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference under the logistic model.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Half the width of the 95% Elo interval of a mean score `s` over `samples` samples of
/// per-sample variance `variance`: the score interval s ± 1.96·σ/√n mapped to Elo (as
/// cutechess-cli does); `None` when it reaches 0 or 1.
pub(super) fn elo_error95(s: f64, variance: f64, samples: u32) -> Option<f64> {
    let margin = Z95 * (variance / samples as f64).sqrt();
    let (lo, hi) = (s - margin, s + margin);
    (lo > 0.0 && hi < 1.0).then(|| (elo_from_score(hi) - elo_from_score(lo)) / 2.0)
}

/// The SPRT log-likelihood ratio in the normal approximation, for `samples` samples of mean
/// score `s` and per-sample variance `variance` (> 0): n·(s1 − s0)·(2s − s0 − s1) / (2σ²), with
/// s0, s1 the scores the hypotheses expect.
pub(super) fn normal_llr(s: f64, variance: f64, samples: u32, sprt: &SprtSpec) -> f64 {
    let (s0, s1) = (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1));
    samples as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
}

/// The error function, by the Abramowitz–Stegun 7.1.26 rational approximation (|error| < 1.5e-7,
/// ample for a LOS printed to a tenth of a percent).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same games from the other side.
    pub fn flipped(&self) -> Tally {
        Tally { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// One game's result from the view of the first engine of its pairing, which played Red
    /// or not; `winner` is `None` for a draw.
    pub fn of_game(first_is_red: bool, winner: Option<Color>) -> Tally {
        match winner {
            None => Tally { wins: 0, draws: 1, losses: 0 },
            Some(color) if (color == Color::Red) == first_is_red => Tally { wins: 1, draws: 0, losses: 0 },
            Some(_) => Tally { wins: 0, draws: 0, losses: 1 },
        }
    }

    /// Adds another tally.
    pub fn add(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// The mean score per game (win 1, draw ½), or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The share of drawn games, or `None` before any game.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// The per-game variance of the score (trinomial: each game is one sample of 1, ½ or 0).
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s * s)
                / n,
        )
    }

    /// Elo difference from the score; infinite when every game was won or lost.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_from_score)
    }

    /// Half the width of the 95% confidence interval of the Elo, each game one sample;
    /// `None` when it is unbounded.
    pub fn elo_error95(&self) -> Option<f64> {
        elo_error95(self.score()?, self.variance()?, self.games())
    }

    /// Likelihood of superiority: the probability that this side is the stronger, from wins and
    /// losses alone (draws carry no information about it); `None` with neither.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (self.wins as f64, self.losses as f64);
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }

    /// The SPRT log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), each game one
    /// sample (`normal_llr`). When
    /// every game had the same result the variance is zero and that formula says nothing, so
    /// the ratio is the exact generalised one (`single_outcome_llr`): a sweep still ends a test.
    pub fn llr(&self, sprt: &SprtSpec) -> f64 {
        let (Some(s), Some(var)) = (self.score(), self.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            let (s0, s1) = (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1));
            return self.games() as f64 * single_outcome_llr(s, s0, s1);
        }
        normal_llr(s, var, self.games(), sprt)
    }
}

/// The log-likelihood ratio, per game, of a record whose every game ended `outcome` (1 a win,
/// ½ a draw, 0 a loss): the most likely win/draw/loss chances whose expected score is `s1`
/// against those whose expected score is `s0`. The likeliest chance of the outcome at expected
/// score s is s for a win, 1 − s for a loss and 2·min(s, 1 − s) for a draw, so a sweep needs
/// ln(s1/s0) per game (about 104 straight wins for elo1 = 10) and straight draws lean to H0.
fn single_outcome_llr(outcome: f64, s0: f64, s1: f64) -> f64 {
    let likeliest = |s: f64| {
        if outcome >= 1.0 {
            s
        } else if outcome <= 0.0 {
            1.0 - s
        } else {
            2.0 * s.min(1.0 - s)
        }
    };
    (likeliest(s1) / likeliest(s0)).ln()
}

/// The SPRT stopping bounds (lower, upper): ln(β/(1−α)) and ln((1−β)/α).
pub fn sprt_bounds(sprt: &SprtSpec) -> (f64, f64) {
    ((sprt.beta / (1.0 - sprt.alpha)).ln(), ((1.0 - sprt.beta) / sprt.alpha).ln())
}

/// What the SPRT says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR reached the upper bound: accept H1 (the change gains elo1 or more).
    AcceptH1,
    /// The LLR reached the lower bound: accept H0 (it does not gain elo1).
    AcceptH0,
    /// Neither bound reached yet.
    Continue,
}

/// Compares the LLR with the bounds.
pub fn sprt_verdict(llr: f64, sprt: &SprtSpec) -> SprtVerdict {
    let (lower, upper) = sprt_bounds(sprt);
    if llr >= upper {
        SprtVerdict::AcceptH1
    } else if llr <= lower {
        SprtVerdict::AcceptH0
    } else {
        SprtVerdict::Continue
    }
}
