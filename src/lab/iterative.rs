//! Iterative deepening over alpha-beta (the book's 7.4): search one ply deep, then two, and so
//! on to the depth asked, each iteration trying first the root move the previous one found best.
//! Without a table or history that is all the earlier iterations give the later ones, so the
//! shallow searches are mostly extra cost: the book measures this engine as basic alpha-beta's
//! cost plus a little.

use super::alphabeta::alpha_beta;
use super::counter::Ctx;
use super::tree::{GameTree, INF, LOSS};

/// The value of the current node, searched to 1, 2, … `depth` plies; the counts are the sum.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32) -> i32 {
    let mut moves = ctx.expand();
    if moves.is_empty() {
        return LOSS;
    }
    let mut value = -INF;
    for d in 1..=depth {
        let mut alpha = -INF;
        let mut best_at = 0;
        for (i, &mv) in moves.iter().enumerate() {
            ctx.play(mv);
            let v = -alpha_beta(ctx, d - 1, -INF, -alpha);
            ctx.undo();
            if v > alpha {
                alpha = v;
                best_at = i;
            }
        }
        // The best move goes first for the next iteration; the others keep their order.
        moves[..=best_at].rotate_right(1);
        value = alpha;
    }
    value
}
