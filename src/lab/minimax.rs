//! Minimax in its negamax form (the book's chapter 4): every move to the horizon, no pruning.
//! Each node's value is the best of its children's values negated, so one function serves
//! both sides. It is the reference the other algorithms must agree with.

use super::counter::Ctx;
use super::tree::{GameTree, INF, LOSS};

/// The negamax value of the current node searched `depth` plies deep.
pub fn negamax<T: GameTree>(ctx: &mut Ctx<T>, depth: u32) -> i32 {
    if depth == 0 {
        return ctx.leaf();
    }
    let moves = ctx.expand();
    if moves.is_empty() {
        return LOSS;
    }
    let mut best = -INF;
    for mv in moves {
        ctx.play(mv);
        let value = -negamax(ctx, depth - 1);
        ctx.undo();
        best = best.max(value);
    }
    best
}
