//! The lab's own transposition table (the book's 6.4), kept apart from the engine's: one entry
//! a slot, the slot picked by the key's low bits, the whole key kept to tell positions apart. A
//! new entry replaces one of the same position, or a shallower one (depth-preferred: a leaf never
//! pushes out an interior node's entry). An entry holds what a fail-soft search learnt: a value
//! with the kind of bound it is, and the depth it was searched to (0 for a leaf's evaluation).
//! No best move, as in the book's table: the move order stays the tree's, which is what MT-SSS*
//! needs to be SSS* (`sss.rs`).

/// What an entry's value says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (the search failed low).
    Upper,
}

/// One position's entry.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    key: u64,
    /// How deep the value was searched.
    pub depth: u32,
    /// The value or bound.
    pub value: i32,
    /// Which.
    pub bound: Bound,
}

impl Entry {
    /// The value, if it settles a search of `depth` plies within `(alpha, beta)`: searched at
    /// least as deep, and exact or a bound that already falls outside the window. (Deeper than
    /// asked is allowed, as the book allows it: the answer may then differ from a search of
    /// exactly `depth` plies; see docs/lab.md.)
    pub fn cutoff(&self, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(self.value),
            Bound::Lower if self.value >= beta => Some(self.value),
            Bound::Upper if self.value <= alpha => Some(self.value),
            _ => None,
        }
    }
}

/// The table: `2^bits` slots.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: u64,
}

impl Table {
    /// An empty table of `2^bits` slots.
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table { slots: vec![None; len], mask: len as u64 - 1 }
    }

    /// The entry for `key`, if its slot holds that position.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        self.slots[(key & self.mask) as usize].as_ref().filter(|e| e.key == key)
    }

    /// Stores what a search of `depth` plies with the window `(alpha, beta)` found: `value`.
    #[inline]
    pub fn store(&mut self, key: u64, depth: u32, value: i32, window: (i32, i32)) {
        let (alpha, beta) = window;
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let slot = &mut self.slots[(key & self.mask) as usize];
        if slot.is_none_or(|old| old.key == key || depth >= old.depth) {
            *slot = Some(Entry { key, depth, value, bound });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_window_and_settle_only_what_they_prove() {
        let mut t = Table::new(4);
        t.store(3, 2, 10, (0, 20));
        t.store(4, 2, 10, (10, 20));
        t.store(5, 2, 30, (10, 20));
        assert_eq!(t.probe(3).unwrap().bound, Bound::Exact);
        assert_eq!(t.probe(4).unwrap().bound, Bound::Upper);
        assert_eq!(t.probe(5).unwrap().bound, Bound::Lower);
        // An upper bound of 10 settles a window above it, not one around it.
        assert_eq!(t.probe(4).unwrap().cutoff(2, 10, 20), Some(10));
        assert_eq!(t.probe(4).unwrap().cutoff(2, 5, 20), None);
        assert_eq!(t.probe(5).unwrap().cutoff(1, 0, 25), Some(30));
        // Shallower than asked settles nothing.
        assert_eq!(t.probe(3).unwrap().cutoff(3, 0, 20), None);
        // A shallower entry of another position in the same slot does not replace it; one as
        // deep does, and the old key no longer matches.
        t.store(3 + 16, 1, 0, (0, 1));
        assert!(t.probe(19).is_none());
        assert_eq!(t.probe(3).unwrap().depth, 2);
        t.store(3 + 16, 2, 0, (0, 1));
        assert!(t.probe(3).is_none());
        assert_eq!(t.probe(19).unwrap().depth, 2);
    }
}
