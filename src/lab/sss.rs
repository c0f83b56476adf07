//! SSS* (Stockman, 1979; the book's 7.7), in its MT form (Plaat et al., 1996: MT-SSS*). Stockman
//! kept an OPEN list of partial solution trees, best first; Plaat showed that the same nodes are
//! expanded, in the same order, by a sequence of null-window tests starting from the top: test
//! "at least +inf?", which fails low with an upper bound `g`, then "at least g?", and so on
//! downwards until a test succeeds. The table holds what OPEN held. This is that form.

use super::counter::Ctx;
use super::mt::mt;
use super::table::Table;
use super::tree::{GameTree, INF};

/// The value of the current node, `depth` plies deep, by upper bounds falling from +inf.
pub fn search<T: GameTree>(ctx: &mut Ctx<T>, depth: u32, table: &mut Table) -> i32 {
    let mut g = INF;
    loop {
        let gamma = g;
        g = mt(ctx, table, depth, gamma);
        if g >= gamma {
            return g;
        }
    }
}
