//! The console conveniences Stockfish and Pikafish users type: `d` (the board, the FEN and the
//! key), `eval` (the static evaluation explained) and `flip` (the position seen from the other
//! side). They belong to no dialect and are answered at once, a search running or not: `d` and
//! `eval` read the session's position, which a running search does not own, and `flip` changes
//! it for the next `go` alone. Each answer is one block of plain lines, written whole, so a
//! search's `info` lines never fall inside it.

use std::io;

use crate::board::{Color, Position};
use crate::eval::{classic, explain, EvalChoice, TermSet};
use crate::notation::diagram::{draw_board, side_and_last_move};
use crate::protocol::command::Command;
use crate::protocol::output::{report_error, send_block};
use crate::search::score_scale::ScoreScale;

use super::Session;

impl Session {
    /// Answers `d`, `eval` or `flip`.
    pub(super) fn console(&mut self, command: Command) -> io::Result<()> {
        let pos = match self.position_or_error() {
            Ok(pos) => pos,
            // Nothing to show or turn round: a board of an earlier position would mislead.
            Err(why) => return report_error(&self.out, &why.to_string()),
        };
        match command {
            Command::Display => send_block(&self.out, &display_lines(pos)),
            Command::Eval => {
                let engine = self.options.engine();
                send_block(&self.out, &eval_lines(pos, &engine.eval, engine.terms))
            }
            Command::Flip => {
                self.position = Ok(pos.color_flipped());
                // Moves banned in the old position name other moves in the flipped one.
                self.ban_moves.clear();
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// `d`: the board as `chariot show` draws it (without colours), the side to move and the last
/// move, then `Fen:` and `Key:` as Stockfish writes them.
pub(super) fn display_lines(pos: &Position) -> Vec<String> {
    let mut lines: Vec<String> = draw_board(pos, false, false).lines().map(str::to_string).collect();
    lines.extend(side_and_last_move(pos).lines().map(str::to_string));
    lines.push(format!("Fen: {}", pos.to_fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    lines
}

/// `eval`: the classic breakdown, the net's score with each piece's share when a net evaluates
/// (as `chariot eval` prints them), then the evaluation the search would use, from the side to
/// move's view: normalised (+100 is a 50% chance to win), internal, and the chances of a win, a
/// draw and a loss its win-rate model gives, as the search's reports scale them.
pub(super) fn eval_lines(pos: &Position, choice: &EvalChoice, terms: TermSet) -> Vec<String> {
    let mut text = explain::classic_breakdown(pos);
    let score = match choice {
        EvalChoice::Classic => classic::evaluate_with(pos, terms),
        EvalChoice::Nnue(net) => {
            text.push_str(&explain::net_breakdown(net, pos));
            net.evaluate(pos)
        }
    };
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let scale = ScoreScale::of(choice, pos);
    let wdl = scale.wdl(score);
    let per_cent = |per_mille: u32| format!("{:.0}%", per_mille as f64 / 10.0);
    let side = match pos.side_to_move() {
        Color::Red => "Red",
        Color::Black => "Black",
    };
    lines.push(format!(
        "Final evaluation: {:+} normalised, {score:+} internal ({side}'s view, the side to move): \
         win {} draw {} loss {}",
        scale.shown_cp(score),
        per_cent(wdl.win),
        per_cent(wdl.draw),
        per_cent(wdl.loss),
    ));
    lines
}
