//! Judging the moves of a game: each position searched freely and restricted to the move played,
//! both scores turned into the mover's expected score (win + ½ draw) by the evaluation's win-rate
//! model, and the move marked by the expected score it loses. Moves the opening book holds are
//! never marked. In an ending the tablebases hold, their verdict replaces the model's chances.

use crate::board::{Color, Move, Position};
use crate::book::BookSet;
use crate::egtb::{Tablebases, Value as TableValue};
use crate::notation::PgnGame;
use crate::rules::game_result;
use crate::search::score_scale::ScoreScale;
use crate::search::{Engine, Limits, SearchControl};
use crate::winrate::{material, WdlPerMille, WinRateModel};

/// The smallest expected-score loss (a fraction: 0.05 is 5%) marked `?!`, an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// The smallest expected-score loss marked `?`, a mistake.
pub const MISTAKE: f64 = 0.10;
/// The smallest expected-score loss marked `??`, a blunder.
pub const BLUNDER: f64 = 0.20;
/// The marks, worst first, with the loss each starts at.
pub const THRESHOLDS: [(f64, &str); 3] = [(BLUNDER, "??"), (MISTAKE, "?"), (INACCURACY, "?!")];

/// The side to move's chances with `score` (its view) at `material`: a mate or a rule win is
/// certain, anything else is read through the model (as every reported score is).
pub fn chances(model: &WinRateModel, score: i32, material: u32) -> WdlPerMille {
    ScoreScale::at(*model, material).wdl(score)
}

/// The mark a move losing `expected_loss` (a fraction of a point) earns.
pub fn mark_for(expected_loss: f64) -> Option<&'static str> {
    // The chances are whole per mille: a loss of exactly 5% must not miss by a rounding error.
    THRESHOLDS.iter().find(|(min, _)| expected_loss + 1e-9 >= *min).map(|(_, mark)| *mark)
}

/// What the engine thinks of one move of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// 1-based ply of the move in the game.
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The move played.
    pub played: Move,
    /// Whether the opening book holds the move in this position (then it is never marked).
    pub book: bool,
    /// Whether the move was judged at all (not after the rules ended the game).
    pub judged: bool,
    /// The engine's choice in that position (`None` if it had no move to offer).
    pub best: Option<Move>,
    /// The score of the engine's choice, from the mover's view, in the search's units.
    pub best_score: i32,
    /// The score of the move played, from the mover's view, in the search's units.
    pub score: i32,
    /// The material of the position the move was played in: both scores are read at it.
    pub material: u32,
    /// The mover's chances with the engine's choice.
    pub best_chances: WdlPerMille,
    /// The mover's chances with the move played.
    pub chances: WdlPerMille,
    /// The expected score (win + ½ draw) the move played loses against the engine's choice,
    /// from the mover's view: 0 to 1, never negative.
    pub expected_loss: f64,
    /// `?!`, `?` or `??`, or `None` for a good enough move or a book move.
    pub mark: Option<&'static str>,
    /// The tables' verdict when the position is in an ending they hold (then the chances are
    /// the table's, certain, and not the search's).
    pub tablebase: Option<TableVerdict>,
}

/// What the tables say of a move: the mover's result before it and after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableVerdict {
    /// The position's value for the mover.
    pub before: TableValue,
    /// The mover's value after the move (the position it leads to, seen from the mover's side).
    pub after: TableValue,
}

impl TableVerdict {
    /// The verdicts of `pos` and of `mv` played in it, when the tables hold both.
    pub fn of(tables: &Tablebases, pos: &Position, mv: Move) -> Option<TableVerdict> {
        let before = tables.probe(pos)?;
        let mut next = pos.clone();
        next.make_move(mv);
        // A mated position is in the table too (`Loss(0)`): a mating move is `Win(1)`.
        let after = tables.probe(&next)?.before();
        Some(TableVerdict { before, after })
    }

    /// Certain chances of a table value, for the side it belongs to.
    pub fn chances(value: TableValue) -> WdlPerMille {
        match value.wdl() {
            1 => WdlPerMille { win: 1000, draw: 0, loss: 0 },
            0 => WdlPerMille { win: 0, draw: 1000, loss: 0 },
            _ => WdlPerMille { win: 0, draw: 0, loss: 1000 },
        }
    }
}

impl std::fmt::Display for TableVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.before.wdl() == self.after.wdl() {
            write!(f, "tablebase: {}, kept", self.after)
        } else {
            write!(f, "tablebase: {} → {}", self.before, self.after)
        }
    }
}

impl MoveReport {
    /// `chances` (the mover's view) from Red's view.
    pub fn red_view(&self, chances: WdlPerMille) -> WdlPerMille {
        if self.side == Color::Red {
            chances
        } else {
            chances.flipped()
        }
    }

    /// A mover's-view score from Red's view.
    pub fn red_score(&self, score: i32) -> i32 {
        if self.side == Color::Red {
            score
        } else {
            -score
        }
    }
}

/// Whether any book of `books` holds `mv` in `pos`.
pub fn in_book(books: &BookSet, pos: &Position, mv: Move) -> bool {
    books.books.iter().any(|b| b.probe(pos).iter().any(|e| e.mv == mv))
}

/// The engine's search of `pos`, restricted to `only` when given: the score from the side to
/// move's view and the move chosen.
fn search(engine: &mut Engine, pos: &Position, limits: &Limits, only: Option<Move>) -> (i32, Option<Move>) {
    let mut limits = limits.clone();
    limits.search_moves = only.into_iter().collect();
    let control = SearchControl::new();
    control.start(false);
    let result = engine.search(pos, &limits, &control, &mut |_| {});
    (result.score, result.best)
}

/// Searches every position of `game` and reports on every move, reading scores with `model`
/// and leaving unmarked the moves `books` holds; `tick` is called after each move is judged
/// (for a progress bar).
///
/// The move played is scored by a search of the same position restricted to it, at the same
/// limits as the free search that finds the best move: comparing with a search of the next
/// position instead would mix depths of different parity and mark noise as inaccuracies.
/// Book moves are searched too, so that the game's curve has a point at every ply.
///
/// With `tables`, a move played where they hold the position is judged by them: its chances
/// before and after are certain, and a move that turns a win into a draw loses half a point.
pub fn analyse_game(
    engine: &mut Engine,
    game: &PgnGame,
    limits: &Limits,
    model: &WinRateModel,
    books: Option<&BookSet>,
    tables: Option<&Tablebases>,
    tick: &mut dyn FnMut(),
) -> Vec<MoveReport> {
    let mut pos = game.start.clone();
    let mut reports = Vec::with_capacity(game.moves.len());
    for (i, m) in game.moves.iter().enumerate() {
        let side = pos.side_to_move();
        let judged = game_result(&pos).is_none();
        let (best_score, best, score) = if judged {
            let (best_score, best) = search(engine, &pos, limits, None);
            let score =
                if best == Some(m.mv) { best_score } else { search(engine, &pos, limits, Some(m.mv)).0 };
            (best_score, best, score)
        } else {
            // Moves after the rules ended the game are not judged.
            (0, None, 0)
        };
        let material = material(&pos);
        let tablebase = tables.filter(|_| judged).and_then(|t| TableVerdict::of(t, &pos, m.mv));
        let (best_chances, played_chances) = match tablebase {
            Some(v) => (TableVerdict::chances(v.before), TableVerdict::chances(v.after)),
            None => (chances(model, best_score, material), chances(model, score, material)),
        };
        let expected_loss = (best_chances.expected_score() - played_chances.expected_score()).max(0.0);
        let book = books.is_some_and(|b| in_book(b, &pos, m.mv));
        reports.push(MoveReport {
            ply: i + 1,
            side,
            played: m.mv,
            book,
            judged,
            best,
            best_score,
            score,
            material,
            best_chances,
            chances: played_chances,
            expected_loss,
            mark: if book || !judged { None } else { mark_for(expected_loss) },
            tablebase,
        });
        pos.make_move(m.mv);
        tick();
    }
    reports
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{MATE, MATE_BOUND, RULE_WIN};

    /// Chances that are certain: the side to move wins.
    const WON: WdlPerMille = WdlPerMille { win: 1000, draw: 0, loss: 0 };

    #[test]
    fn marks_by_expected_loss() {
        assert_eq!(mark_for(0.0), None);
        assert_eq!(mark_for(0.049), None);
        assert_eq!(mark_for(0.05), Some("?!"));
        // 62.5% − 57.5%, as the per-mille chances give it.
        assert_eq!(mark_for(0.625 - 0.575), Some("?!"));
        assert_eq!(mark_for(0.0999), Some("?!"));
        assert_eq!(mark_for(0.10), Some("?"));
        assert_eq!(mark_for(0.199), Some("?"));
        assert_eq!(mark_for(0.20), Some("??"));
        assert_eq!(mark_for(1.0), Some("??"));
    }

    #[test]
    fn mates_and_rule_wins_are_certain() {
        let model = WinRateModel::constant(300.0, 60.0);
        for score in [MATE - 3, MATE_BOUND, RULE_WIN, RULE_WIN - 40] {
            assert_eq!(chances(&model, score, 94), WON, "{score}");
            assert_eq!(chances(&model, -score, 94), WON.flipped(), "{score}");
        }
        let even = chances(&model, 0, 94);
        assert_eq!(even.win, even.loss);
        assert!(chances(&model, 600, 94).expected_score() > 0.9);
    }
}
