//! Which evaluation the search uses, and the one narrow interface it calls: `Evaluator` plays
//! and takes back moves alongside the position and scores the current node.

use std::sync::Arc;

use super::classic::{evaluate_from, PsqStack, TermSet};
use super::nnue::{embedded, AccumulatorStack, Network};
use crate::board::{Move, Position};
use crate::winrate::WinRateModel;

/// The evaluation an engine searches with: by default the built-in net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The tuned piece-square evaluation with its extra terms.
    Classic,
    /// A neural network.
    Nnue(Arc<Network>),
}

impl Default for EvalChoice {
    fn default() -> EvalChoice {
        EvalChoice::Nnue(embedded::network())
    }
}

impl EvalChoice {
    /// What this evaluation's scores mean as chances to win, draw and lose: a net's own model,
    /// or the classic evaluation's.
    pub fn win_rate(&self) -> WinRateModel {
        match self {
            EvalChoice::Classic => super::classic::WIN_RATE,
            EvalChoice::Nnue(net) => *net.win_rate(),
        }
    }

    /// A one-line description for `info string` and the command line.
    pub fn describe(&self) -> String {
        match self {
            EvalChoice::Classic => "classic evaluation".to_string(),
            EvalChoice::Nnue(net) if embedded::is_built_in(net) => format!("NNUE {} (built in)", net.arch()),
            EvalChoice::Nnue(net) => format!("NNUE {}", net.arch()),
        }
    }
}

/// One search thread's evaluator: the table sums for the classic evaluation, an accumulator
/// stack for a net. Moves go through it so that it can follow the line.
pub enum Evaluator {
    /// The classic evaluation with these terms, and its table sums along the line.
    Classic(TermSet, PsqStack),
    /// A net's accumulators along the current line.
    Nnue(Box<AccumulatorStack>),
}

impl Evaluator {
    /// An evaluator for `choice` rooted at `root` (`terms` serve the classic evaluation).
    pub fn new(choice: &EvalChoice, terms: TermSet, root: &Position) -> Evaluator {
        match choice {
            EvalChoice::Classic => Evaluator::Classic(terms, PsqStack::new(root)),
            EvalChoice::Nnue(net) => Evaluator::Nnue(Box::new(AccumulatorStack::new(net.clone(), root))),
        }
    }

    /// `new`, reusing `old` (a search thread's evaluator from its last search) when it evaluates
    /// with the same net: rooted at `root` again, with its buffers kept.
    pub fn renewed(
        old: Option<Evaluator>,
        choice: &EvalChoice,
        terms: TermSet,
        root: &Position,
    ) -> Evaluator {
        match (old, choice) {
            (Some(Evaluator::Nnue(mut stack)), EvalChoice::Nnue(net))
                if Arc::ptr_eq(stack.network(), net) =>
            {
                stack.reset(root);
                Evaluator::Nnue(stack)
            }
            _ => Evaluator::new(choice, terms, root),
        }
    }

    /// Plays `mv` on `pos`.
    #[inline]
    pub fn make_move(&mut self, pos: &mut Position, mv: Move) {
        match self {
            Evaluator::Classic(_, stack) => stack.push_move(pos, mv),
            Evaluator::Nnue(stack) => stack.push_move(pos, mv),
        }
        pos.make_move(mv);
    }

    /// Takes back the last move on `pos`.
    #[inline]
    pub fn unmake_move(&mut self, pos: &mut Position) {
        match self {
            Evaluator::Classic(_, stack) => stack.pop(),
            Evaluator::Nnue(stack) => stack.pop(),
        }
        pos.unmake_move();
    }

    /// Passes the move on `pos`.
    #[inline]
    pub fn make_null_move(&mut self, pos: &mut Position) {
        // A null move changes no table entry: the classic stack neither pushes nor pops.
        if let Evaluator::Nnue(stack) = self {
            stack.push_null();
        }
        pos.make_null_move();
    }

    /// Takes back a null move on `pos`.
    #[inline]
    pub fn unmake_null_move(&mut self, pos: &mut Position) {
        if let Evaluator::Nnue(stack) = self {
            stack.pop();
        }
        pos.unmake_null_move();
    }

    /// The static evaluation of `pos` (the position after every move played through this
    /// evaluator) from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match self {
            Evaluator::Classic(terms, stack) => evaluate_from(pos, stack.top(), *terms),
            Evaluator::Nnue(stack) => stack.evaluate(pos),
        }
    }
}
