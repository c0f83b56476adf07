//! Aspiration search (the book's 7.1): guess the value, search with a narrow window around the
//! guess, and only when the value falls outside it search again with the window opened on that
//! side. The guess is a search one ply shallower (its cost is counted); at depth 1 it is 0, the
//! value of a level position.

use super::counter::Ctx;
use super::fail_soft::fail_soft;
use super::tree::{GameTree, INF};

/// The value of the current node, `depth` plies deep, searched first within `window` either side
/// of the guess.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, window: i32) -> i32 {
    let guess = if depth > 1 { fail_soft(ctx, depth - 1, -INF, INF) } else { 0 };
    let (alpha, beta) = (guess - window, guess + window);
    let value = fail_soft(ctx, depth, alpha, beta);
    if value <= alpha {
        // Failed low: the value is at most `value` (fail-soft), so this window holds it.
        fail_soft(ctx, depth, -INF, value + 1)
    } else if value >= beta {
        // Failed high: the value is at least `value`.
        fail_soft(ctx, depth, value - 1, INF)
    } else {
        value
    }
}
