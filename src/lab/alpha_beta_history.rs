//! Alpha-beta (fail-hard) with the history heuristic (the book's 7.5): the same search as
//! `alphabeta.rs`, but each node tries its moves in the order of the history counters, and the
//! move that cut the node off, or else its best, earns `2^depth`.

use super::counter::Ctx;
use super::history_table::HistoryTable;
use super::tree::{GameTree, INF, LOSS};

/// The value of the current node within the window `[alpha, beta]`.
pub fn alpha_beta_history<T: GameTree>(
    ctx: &mut Ctx<T>,
    history: &mut HistoryTable,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if depth == 0 {
        return ctx.leaf();
    }
    let mut moves = ctx.expand();
    if moves.is_empty() {
        return LOSS.clamp(alpha, beta);
    }
    history.sort(ctx.tree, &mut moves);
    let mut best_move = None;
    for mv in moves {
        ctx.play(mv);
        let value = -alpha_beta_history(ctx, history, depth - 1, -beta, -alpha);
        ctx.undo();
        if value >= beta {
            history.reward(ctx.tree, mv, depth);
            return beta;
        }
        if value > alpha {
            alpha = value;
            best_move = Some(mv);
        }
    }
    if let Some(mv) = best_move {
        history.reward(ctx.tree, mv, depth);
    }
    alpha
}

/// The value of the current node, `depth` plies deep, with the full window and fresh counters.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32) -> i32 {
    alpha_beta_history(ctx, &mut HistoryTable::new::<T>(), depth, -INF, INF)
}
