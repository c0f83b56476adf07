//! The book's last engine (7.8): NegaScout with the transposition table and the history
//! heuristic. A node looks itself up (`alpha_beta_tt.rs`, leaves too), tries its moves in
//! history order (`alpha_beta_history.rs`), searches them as NegaScout does (`pvs.rs`), then
//! rewards its best move and stores what it learnt.

use super::counter::Ctx;
use super::history_table::HistoryTable;
use super::table::Table;
use super::tree::{GameTree, INF, LOSS};

/// What the search keeps from node to node.
pub struct Memory {
    /// The transposition table.
    pub table: Table,
    /// The history counters.
    pub history: HistoryTable,
}

/// The value of the current node if it lies inside `(alpha, beta)`; otherwise a bound on it.
pub fn negascout_tt_history<T: GameTree>(
    ctx: &mut Ctx<T>,
    memory: &mut Memory,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    let key = ctx.key();
    if depth == 0 {
        if let Some(entry) = memory.table.probe(key).filter(|e| e.depth == 0) {
            return entry.value;
        }
        let value = ctx.leaf();
        memory.table.store(key, 0, value, (-INF, INF));
        return value;
    }
    if let Some(value) = memory.table.probe(key).and_then(|e| e.cutoff(depth, alpha, beta)) {
        return value;
    }
    let mut moves = ctx.expand();
    if moves.is_empty() {
        return LOSS;
    }
    memory.history.sort(ctx.tree, &mut moves);
    let (mut best, mut best_move, mut a) = (-INF, None, alpha);
    for (i, mv) in moves.into_iter().enumerate() {
        ctx.play(mv);
        let mut value;
        if i == 0 {
            value = -negascout_tt_history(ctx, memory, depth - 1, -beta, -a);
        } else {
            value = -negascout_tt_history(ctx, memory, depth - 1, -a - 1, -a);
            if value > a && value < beta && depth > 1 {
                value = -negascout_tt_history(ctx, memory, depth - 1, -beta, -value);
            }
        }
        ctx.undo();
        if value > best {
            best = value;
            best_move = Some(mv);
            if value > a {
                a = value;
                if value >= beta {
                    break;
                }
            }
        }
    }
    if let Some(mv) = best_move {
        memory.history.reward(ctx.tree, mv, depth);
    }
    memory.table.store(key, depth, best, (alpha, beta));
    best
}

/// The value of the current node, `depth` plies deep, with the full window, over `memory`.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, memory: &mut Memory) -> i32 {
    negascout_tt_history(ctx, memory, depth, -INF, INF)
}
