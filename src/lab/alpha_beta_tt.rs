//! Alpha-beta with a transposition table (the book's 6.4), fail-soft. Before searching a node,
//! look it up: an entry searched at least as deep whose value settles the window ends the node
//! at once. After searching, store what was learnt. (The table keeps no best move, as the
//! book's did not: the moves keep the tree's order.)
//! Leaves are stored too, and a leaf takes only a leaf's entry: the memory-enhanced tests
//! (`mt.rs`) search the same tree again and again, and SSS* evaluates no leaf twice only so.

use super::counter::Ctx;
use super::table::Table;
use super::tree::{GameTree, INF, LOSS};

/// The value of the current node if it lies inside `(alpha, beta)`; otherwise a bound on it.
pub fn alpha_beta_tt<T: GameTree>(
    ctx: &mut Ctx<T>,
    table: &mut Table,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    let key = ctx.key();
    if depth == 0 {
        if let Some(entry) = table.probe(key).filter(|e| e.depth == 0) {
            return entry.value;
        }
        let value = ctx.leaf();
        table.store(key, 0, value, (-INF, INF));
        return value;
    }
    if let Some(value) = table.probe(key).and_then(|e| e.cutoff(depth, alpha, beta)) {
        return value;
    }
    let moves = ctx.expand();
    if moves.is_empty() {
        return LOSS;
    }
    let (mut best, mut a) = (-INF, alpha);
    for mv in moves {
        ctx.play(mv);
        let value = -alpha_beta_tt(ctx, table, depth - 1, -beta, -a);
        ctx.undo();
        if value > best {
            best = value;
            if value > a {
                a = value;
                if value >= beta {
                    break;
                }
            }
        }
    }
    table.store(key, depth, best, (alpha, beta));
    best
}

/// The value of the current node, `depth` plies deep, with the full window, over `table`.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, table: &mut Table) -> i32 {
    alpha_beta_tt(ctx, table, depth, -INF, INF)
}
