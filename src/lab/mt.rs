//! MT, the memory-enhanced test (Plaat et al., 1996): alpha-beta with a transposition table
//! called with a null window `(gamma - 1, gamma)`. It answers one question, "is the value at
//! least gamma?", with a bound: a result `>= gamma` is a lower bound, a result `< gamma` an upper
//! one. MTD(f), SSS* and DUAL* are each a different sequence of such tests over one table,
//! which keeps what every earlier test learnt.

use super::alpha_beta_tt::alpha_beta_tt;
use super::counter::Ctx;
use super::table::Table;
use super::tree::GameTree;

/// A bound on the current node's value: at least `gamma` if the result is, else at most the result.
pub fn mt<T: GameTree>(ctx: &mut Ctx<T>, table: &mut Table, depth: u32, gamma: i32) -> i32 {
    alpha_beta_tt(ctx, table, depth, gamma - 1, gamma)
}
