//! Alpha-beta, fail-hard (the book's basic alpha-beta). `alpha` is what the side to move is
//! already sure of, `beta` what the opponent will allow; a move that reaches `beta` refutes the
//! opponent's previous move and ends the node (a cutoff). Fail-hard: the value returned always
//! lies within `[alpha, beta]`, so a bound says only "at most alpha" or "at least beta".

use super::counter::Ctx;
use super::tree::{GameTree, INF, LOSS};

/// The value of the current node within the window `[alpha, beta]`.
pub fn alpha_beta<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return ctx.leaf();
    }
    let moves = ctx.expand();
    if moves.is_empty() {
        return LOSS.clamp(alpha, beta);
    }
    for mv in moves {
        ctx.play(mv);
        let value = -alpha_beta(ctx, depth - 1, -beta, -alpha);
        ctx.undo();
        if value >= beta {
            return beta;
        }
        if value > alpha {
            alpha = value;
        }
    }
    alpha
}

/// The value of the current node, `depth` plies deep, with the full window.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32) -> i32 {
    alpha_beta(ctx, depth, -INF, INF)
}
