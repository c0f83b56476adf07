//! DUAL* (Marsland et al., 1987; the book's 7.7), in its MT form (Plaat et al., 1996: MT-DUAL*):
//! SSS* seen from the other side. Null-window tests start from the bottom, "more than -inf?",
//! each succeeding with a lower bound `g`, then "more than g?", and so on upwards until a test
//! fails.

use super::counter::Ctx;
use super::mt::mt;
use super::table::Table;
use super::tree::{GameTree, INF};

/// The value of the current node, `depth` plies deep, by lower bounds rising from -inf.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, table: &mut Table) -> i32 {
    let mut g = -INF;
    loop {
        let gamma = g;
        g = mt(ctx, table, depth, gamma + 1);
        if g <= gamma {
            return g;
        }
    }
}
