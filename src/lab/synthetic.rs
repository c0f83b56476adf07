//! Synthetic game trees for the tests: every interior node has the same number of children, the
//! leaves have pseudo-random values, and the children can be put in the best order, so that the
//! searches' answers and costs can be checked against what theory says (the minimax value; the
//! Knuth–Moore minimal tree). No two nodes share a key, so a table holds no transpositions, and
//! the keys are the nodes' numbers, so no two nodes share a slot of a table as large as the tree.

use super::tree::GameTree;

/// How a node's children are ordered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// As generated: random with respect to their values.
    AsGenerated,
    /// The best child for the side to move first, then the rest from best to worst.
    BestFirst,
}

/// A uniform tree, built whole: node 0 is the root, node `i`'s children are `children[i]`.
pub struct SyntheticTree {
    children: Vec<Vec<u32>>,
    leaf_value: Vec<i32>,
    ordinal: Vec<u32>,
    path: Vec<u32>,
}

impl SyntheticTree {
    /// A tree `depth` plies deep with `branching` children a node, leaf values in
    /// `-range..=range` drawn from `seed`, children in `ordering`.
    pub fn new(branching: u32, depth: u32, range: i32, seed: u64, ordering: Ordering) -> SyntheticTree {
        let mut tree = SyntheticTree {
            children: Vec::new(),
            leaf_value: Vec::new(),
            ordinal: Vec::new(),
            path: vec![0],
        };
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        tree.build(branching, depth, range, &mut rng, ordering, 0);
        tree
    }

    /// Adds a node and its subtree; returns the node and its negamax value.
    fn build(
        &mut self,
        branching: u32,
        depth: u32,
        range: i32,
        rng: &mut u64,
        ordering: Ordering,
        ordinal: u32,
    ) -> (u32, i32) {
        let id = self.children.len() as u32;
        self.children.push(Vec::new());
        self.ordinal.push(ordinal);
        if depth == 0 {
            // xorshift64: enough for values nobody will read as random.
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            let value = (*rng % (2 * range as u64 + 1)) as i32 - range;
            self.leaf_value.push(value);
            return (id, value);
        }
        self.leaf_value.push(0);
        let mut kids: Vec<(u32, i32)> =
            (0..branching).map(|k| self.build(branching, depth - 1, range, rng, ordering, k)).collect();
        if ordering == Ordering::BestFirst {
            // A child's value is from its own side to move's view: the mover's best is the lowest.
            kids.sort_by_key(|&(_, v)| v);
        }
        let value = kids.iter().map(|&(_, v)| -v).max().unwrap_or(0);
        self.children[id as usize] = kids.into_iter().map(|(c, _)| c).collect();
        (id, value)
    }

    fn node(&self) -> usize {
        self.path[self.path.len() - 1] as usize
    }
}

impl GameTree for SyntheticTree {
    type Move = u32;

    /// One counter for each child's place among its siblings.
    const HISTORY_SIZE: usize = 256;

    fn moves(&mut self) -> Vec<u32> {
        self.children[self.node()].clone()
    }

    fn play(&mut self, mv: u32) {
        self.path.push(mv);
    }

    fn undo(&mut self) {
        self.path.pop();
    }

    fn evaluate(&mut self) -> i32 {
        self.leaf_value[self.node()]
    }

    fn key(&self) -> u64 {
        self.node() as u64
    }

    fn history_index(&self, mv: u32) -> usize {
        self.ordinal[mv as usize] as usize % Self::HISTORY_SIZE
    }
}
