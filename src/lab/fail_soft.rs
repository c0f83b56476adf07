//! Alpha-beta, fail-soft (the book's 6.3): the same cutoffs as fail-hard, but a node returns the
//! best value it saw even when that lies outside the window. A fail-low value `v <= alpha` then
//! says "at most v", tighter than "at most alpha"; aspiration windows, NegaScout and the
//! memory-enhanced tests live on those tighter bounds.

use super::counter::Ctx;
use super::tree::{GameTree, INF, LOSS};

/// The value of the current node if it lies inside `(alpha, beta)`; otherwise a bound on it.
pub fn fail_soft<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
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
        let value = -fail_soft(ctx, depth - 1, -beta, -alpha);
        ctx.undo();
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if value >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The value of the current node, `depth` plies deep, with the full window.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32) -> i32 {
    fail_soft(ctx, depth, -INF, INF)
}
