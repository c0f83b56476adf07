//! Principal variation search, in Reinefeld's NegaScout form (the book's 7.3). The first move of
//! a node is searched with the full window; every later one only with the null window
//! `(alpha, alpha + 1)`, which asks just "is this move better than the best so far?" and costs far
//! less. Only a move that answers yes, inside the window, is searched again to learn its value.
//! Fail-soft throughout, so the re-search can start from the null-window search's bound; and
//! one ply above the horizon there is no re-search at all, since a leaf's value is exact in any
//! window.

use super::counter::Ctx;
use super::tree::{GameTree, INF, LOSS};

/// The value of the current node if it lies inside `(alpha, beta)`; otherwise a bound on it.
pub fn negascout<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return ctx.leaf();
    }
    let moves = ctx.expand();
    if moves.is_empty() {
        return LOSS;
    }
    let mut best = -INF;
    for (i, mv) in moves.into_iter().enumerate() {
        ctx.play(mv);
        let mut value;
        if i == 0 {
            value = -negascout(ctx, depth - 1, -beta, -alpha);
        } else {
            value = -negascout(ctx, depth - 1, -alpha - 1, -alpha);
            if value > alpha && value < beta && depth > 1 {
                value = -negascout(ctx, depth - 1, -beta, -value);
            }
        }
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
    negascout(ctx, depth, -INF, INF)
}
