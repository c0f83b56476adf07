//! A game's curve for the page: Red's expected score (win + ½ draw, from the evaluation's
//! win-rate model, as `chariot annotate` and `svg::curve` have it) at every position of the game,
//! each from a small search at full strength. A position the rules have ended scores its result.
//! The engine threads score the positions a few at a time (`Task::Curve`); the lobby sends each
//! piece to the one who asked as it comes (`messages::ServerMessage::Curve`).

use crate::board::{Color, Position};
use crate::rules::game_result;
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::search::{Engine, Limits, SearchControl};

/// Nodes spent on each position: a few hundredths of a second, enough to see what hangs.
pub const CURVE_NODES: u64 = 20_000;

/// Positions scored in one engine job: a job then costs about half an analysis, so that a move
/// to play or an analysis never waits long behind a curve.
pub const CURVE_CHUNK: usize = 8;

/// One position of the curve.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    /// The position after this many moves.
    pub ply: usize,
    /// Red's expected score there, 0 (Black wins) to 1 (Red wins).
    pub red_expected: f64,
    /// The search's score from Red's view, `None` where the rules ended the game.
    pub red_score: Option<ShownScore>,
}

/// Scores `position` (the one after `ply` moves, with them in its history) for the curve.
pub fn curve_point(
    engine: &mut Engine,
    position: &Position,
    ply: usize,
    control: &SearchControl,
) -> CurvePoint {
    if let Some(result) = game_result(position) {
        let red_expected = match result.winner {
            Some(Color::Red) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        return CurvePoint { ply, red_expected, red_score: None };
    }
    control.start(false);
    let result = engine.search(position, &Limits::nodes(CURVE_NODES), control, &mut |_| {});
    let scale = ScoreScale::of(&engine.options.eval, position);
    let red = position.side_to_move() == Color::Red;
    let wdl = scale.wdl(result.score);
    let red_expected = if red { wdl } else { wdl.flipped() }.expected_score();
    let red_score = match scale.shown(result.score) {
        ShownScore::Cp(cp) if !red => ShownScore::Cp(-cp),
        ShownScore::Mate(moves) if !red => ShownScore::Mate(-moves),
        shown => shown,
    };
    CurvePoint { ply, red_expected, red_score: Some(red_score) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn won_positions_lean_to_the_winner_and_ended_ones_score_their_result() {
        let mut engine = Engine::try_new(1).unwrap();
        let control = SearchControl::new();
        // Red to move with a rook against a bare king: far above even for Red.
        let red_up = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 0 1").unwrap();
        let point = curve_point(&mut engine, &red_up, 4, &control);
        assert_eq!(point.ply, 4);
        assert!(point.red_expected > 0.9, "{point:?}");
        // The same with Black to move: still Red's view.
        let black_to_move = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 1").unwrap();
        let point = curve_point(&mut engine, &black_to_move, 5, &control);
        assert!(point.red_expected > 0.9, "{point:?}");
        assert!(
            matches!(point.red_score, Some(ShownScore::Cp(cp)) if cp > 0)
                || matches!(point.red_score, Some(ShownScore::Mate(m)) if m > 0),
            "{point:?}"
        );
        // Black is mated (`chariot judge --moves b2b4 d9e8 b4g4 c9a7 g4g9`: 1-0 checkmate).
        let mut mated = Position::startpos();
        for m in ["b2b4", "d9e8", "b4g4", "c9a7", "g4g9"] {
            mated.make_move(crate::board::Move::parse_iccs(m).unwrap());
        }
        assert_eq!(
            curve_point(&mut engine, &mated, 5, &control),
            CurvePoint { ply: 5, red_expected: 1.0, red_score: None }
        );
    }
}
