//! `go perft`: the leaf count of the legal move tree, counted on the engine thread like a search,
//! so that the command reader stays free and `stop` or `quit` ends it.

use crate::board::{movegen, Position};

/// The deepest `go perft`: far beyond anything that finishes (depth 9 from the start is over
/// 10^11 leaves), and shallow enough for the counting recursion's stack.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Subtrees this shallow are counted in one go by the move generator's own perft: about a
/// millisecond each, the longest a stop waits.
const UNINTERRUPTED_DEPTH: u32 = 3;

/// The leaves `depth` plies below `pos`, or `None` if `stopped()` said so before the count was
/// done. `pos` is as it was either way.
pub fn perft(pos: &mut Position, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    if depth <= UNINTERRUPTED_DEPTH {
        return Some(movegen::perft(pos, depth));
    }
    let mut leaves = 0;
    for &mv in movegen::legal_moves(pos).iter() {
        if stopped() {
            return None;
        }
        pos.make_move(mv);
        let below = perft(pos, depth - 1, stopped);
        pos.unmake_move();
        leaves += below?;
    }
    Some(leaves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn counts_like_the_reference() {
        // tests/data/perft.txt: the start position, depths 3 and 4 (checked against other engines).
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 3, &|| false), Some(79_666));
        assert_eq!(perft(&mut pos, 4, &|| false), Some(3_290_240));
        assert_eq!(perft(&mut pos, 0, &|| false), Some(1));
        assert_eq!(pos, Position::startpos());
    }

    #[test]
    fn a_stop_ends_the_count_and_leaves_the_position() {
        let mut pos = Position::startpos();
        let asked = Cell::new(0);
        // Stop at the fifth look: long before depth 12 (about 10^15 leaves) could be counted.
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() >= 5
        };
        assert_eq!(perft(&mut pos, 12, &stop), None);
        assert_eq!(asked.get(), 5);
        assert_eq!(pos, Position::startpos());
        assert!(pos.history().is_empty());
    }
}
