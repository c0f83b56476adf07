//! Scores as people and programs read them. The search works in its evaluation's internal
//! units; everything it reports goes through a [`ScoreScale`]: normalised centipawns (+100 is a
//! 50% chance to win, by the evaluation's win-rate model at the root's material), `mate N` for
//! mates, and win/draw/loss chances.

use std::fmt;

use crate::board::Position;
use crate::eval::EvalChoice;
use crate::winrate::{self, WdlPerMille, WinRateModel};

use super::score::{is_mate, mate_in_moves, RULE_WIN};

/// Rule wins (perpetual check or chase) lie within this many of `RULE_WIN`: the search counts the
/// plies to them as it does for mates.
const RULE_WIN_PLIES: i32 = 1_000;

/// The largest normalised score shown for a position that is not won by force: far beyond any
/// real evaluation, well short of the ranges GUIs read as mates.
pub const MAX_SHOWN_CP: i32 = 15_000;

/// A score as shown: normalised centipawns or a mate in moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownScore {
    /// Normalised centipawns from the side to move's view (+100: a 50% chance to win).
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl fmt::Display for ShownScore {
    /// As UCI writes it: `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShownScore::Cp(cp) => write!(f, "cp {cp}"),
            ShownScore::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// Whether `score` is a win or loss by the repetition rules rather than an evaluation.
pub fn is_rule_win(score: i32) -> bool {
    !is_mate(score) && score.abs() >= RULE_WIN - RULE_WIN_PLIES
}

/// Whether `score` is decided: a mate or a win by the rules, for either side.
pub fn is_decisive(score: i32) -> bool {
    is_mate(score) || is_rule_win(score)
}

/// How one position's scores are shown: the evaluation's win-rate model at the position's
/// material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreScale {
    model: WinRateModel,
    material: u32,
}

impl ScoreScale {
    /// The scale of `model` at `pos`.
    pub fn new(model: WinRateModel, pos: &Position) -> ScoreScale {
        ScoreScale::at(model, winrate::material(pos))
    }

    /// The scale of `model` at `material` (as `winrate::material` counts it).
    pub fn at(model: WinRateModel, material: u32) -> ScoreScale {
        ScoreScale { model, material }
    }

    /// The scale of the evaluation `eval` at `pos`.
    pub fn of(eval: &EvalChoice, pos: &Position) -> ScoreScale {
        ScoreScale::new(eval.win_rate(), pos)
    }

    /// `score` (internal units, side to move's view) as shown. A rule win is shown as the most
    /// decisive normalised score, since no mate is in sight.
    pub fn shown(&self, score: i32) -> ShownScore {
        if let Some(moves) = mate_in_moves(score) {
            return ShownScore::Mate(moves);
        }
        if is_rule_win(score) {
            return ShownScore::Cp(MAX_SHOWN_CP * score.signum());
        }
        ShownScore::Cp(self.model.normalise(score, self.material).clamp(-MAX_SHOWN_CP, MAX_SHOWN_CP))
    }

    /// `score` shown as normalised centipawns, mates as ±`MAX_SHOWN_CP` and beyond (UCCI has no
    /// mate notation: the larger, the nearer the mate).
    pub fn shown_cp(&self, score: i32) -> i32 {
        match self.shown(score) {
            ShownScore::Cp(cp) => cp,
            ShownScore::Mate(moves) => (MAX_SHOWN_CP + 1_000 - moves.abs()) * moves.signum(),
        }
    }

    /// Win, draw and loss chances for `score`: certain for a mate or a rule win.
    pub fn wdl(&self, score: i32) -> WdlPerMille {
        if is_decisive(score) {
            let won = WdlPerMille { win: 1000, draw: 0, loss: 0 };
            return if score > 0 { won } else { won.flipped() };
        }
        self.model.wdl(score, self.material)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    fn scale() -> ScoreScale {
        ScoreScale::new(WinRateModel::constant(40.0, 60.0), &Position::startpos())
    }

    #[test]
    fn ordinary_scores_are_normalised_and_mates_kept() {
        let s = scale();
        assert_eq!(s.shown(40), ShownScore::Cp(100));
        assert_eq!(s.shown(-20), ShownScore::Cp(-50));
        assert_eq!(s.shown(MATE - 3), ShownScore::Mate(2));
        assert_eq!(s.shown(-(MATE - 2)), ShownScore::Mate(-1));
        assert_eq!(s.shown(RULE_WIN - 5), ShownScore::Cp(MAX_SHOWN_CP));
        assert_eq!(s.shown(9_000), ShownScore::Cp(MAX_SHOWN_CP));
        assert_eq!(s.shown(-(MATE - 2)).to_string(), "mate -1");
    }

    #[test]
    fn mates_outrank_every_normalised_score_in_plain_centipawns() {
        let s = scale();
        assert!(s.shown_cp(MATE - 1) > s.shown_cp(MATE - 9));
        assert!(s.shown_cp(MATE - 9) > s.shown_cp(RULE_WIN - 1));
        assert!(s.shown_cp(-(MATE - 1)) < s.shown_cp(-(RULE_WIN - 1)));
    }

    #[test]
    fn decisive_scores_are_certain_results() {
        let s = scale();
        assert_eq!(s.wdl(MATE - 5), WdlPerMille { win: 1000, draw: 0, loss: 0 });
        assert_eq!(s.wdl(-(RULE_WIN - 3)), WdlPerMille { win: 0, draw: 0, loss: 1000 });
        let even = s.wdl(0);
        assert_eq!(even.win, even.loss);
    }
}
