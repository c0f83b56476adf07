//! What a search thread keeps from one search to the next, held by `Engine` in between: its
//! move-ordering history, which the next search starts from (faded: `OrderingTables::age`), and
//! the buffers a search would otherwise allocate and clear anew (the principal-variation table,
//! the evaluator's accumulators). The data generator runs thousands of small searches a minute,
//! and making those buffers took 2.4% of its instructions.

use crate::eval::Evaluator;

use super::history::OrderingTables;
use super::stack::PvTable;

/// One search thread's state between searches.
#[derive(Default)]
pub(crate) struct ThreadState {
    /// The move-ordering history.
    pub tables: OrderingTables,
    /// The principal-variation table (its lines are forgotten between searches).
    pub pv: PvTable,
    /// The last search's evaluator, if there was one (`Evaluator::renewed` reuses it).
    pub eval: Option<Evaluator>,
}

impl ThreadState {
    /// Forgets what was learnt (a new game) but keeps the memory: the move-ordering tables are
    /// cleared in place; the evaluator is kept, since every search renews it from its position.
    pub fn clear(&mut self) {
        self.tables.clear();
    }
}
