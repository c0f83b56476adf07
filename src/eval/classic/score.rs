//! `Score`: a middlegame/endgame pair, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of values, one for the middlegame and one for the endgame.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Score {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl Score {
    /// Zero in both phases.
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    /// A pair from its two values.
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }

    /// Blends the pair: `phase` of `max_phase` is the middlegame share.
    #[inline]
    pub fn taper(self, phase: i32, max_phase: i32) -> i32 {
        let phase = phase.clamp(0, max_phase);
        (self.mg * phase + self.eg * (max_phase - phase)) / max_phase
    }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, o: Score) -> Score {
        Score::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, o: Score) -> Score {
        Score::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, k: i32) -> Score {
        Score::new(self.mg * k, self.eg * k)
    }
}

impl AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, o: Score) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taper_blends_linearly() {
        let s = Score::new(100, 300);
        assert_eq!(s.taper(32, 32), 100);
        assert_eq!(s.taper(0, 32), 300);
        assert_eq!(s.taper(16, 32), 200);
        assert_eq!(s.taper(99, 32), 100, "phase is clamped");
        assert_eq!((s + s - s).mg, 100);
        assert_eq!((-s).eg, -300);
    }
}
