//! MTD(f) (Plaat, the book's 7.6): close in on the value with null-window tests, each test
//! placed at the last result, `g`, until the lower and upper bounds meet. Driven by iterative
//! deepening, each depth starting from the value of the depth before, over one table; the
//! counts are the sum over the depths, as Plaat ran it.

use super::counter::Ctx;
use super::mt::mt;
use super::table::Table;
use super::tree::{GameTree, INF};

/// The value of the current node, `depth` plies deep, starting from the guess `first`.
pub fn mtdf<T: GameTree>(ctx: &mut Ctx<T>, table: &mut Table, depth: u32, first: i32) -> i32 {
    let (mut g, mut lower, mut upper) = (first, -INF, INF);
    while lower < upper {
        let gamma = if g == lower { g + 1 } else { g };
        g = mt(ctx, table, depth, gamma);
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
    }
    g
}

/// The value of the current node, by MTD(f) at 1, 2, … `depth` plies over `table`.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, table: &mut Table) -> i32 {
    let mut g = 0;
    for d in 1..=depth {
        g = mtdf(ctx, table, d, g);
    }
    g
}
