//! What every lab search shares: the tree it walks and the two numbers the book counts, the
//! leaves evaluated and the interior nodes expanded.

use super::tree::GameTree;

/// What one search cost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Calls of the evaluation at the horizon (the book's "leaves").
    pub leaves: u64,
    /// Interior nodes whose moves were generated (nodes answered by a table are not counted).
    pub nodes: u64,
}

/// A search's context: the tree and the counts. The algorithms step through the tree only by
/// `leaf`, `expand`, `play` and `undo`, so nothing they evaluate or expand goes uncounted.
pub struct Ctx<'t, T: GameTree> {
    /// The tree, standing on the node being searched.
    pub tree: &'t mut T,
    /// The counts so far.
    pub counts: Counts,
}

impl<'t, T: GameTree> Ctx<'t, T> {
    /// A context on `tree` with nothing counted yet.
    pub fn new(tree: &'t mut T) -> Ctx<'t, T> {
        Ctx { tree, counts: Counts::default() }
    }

    /// The static value of the current node (a leaf), counted.
    #[inline]
    pub fn leaf(&mut self) -> i32 {
        self.counts.leaves += 1;
        self.tree.evaluate()
    }

    /// The moves of the current node (an interior node), counted.
    #[inline]
    pub fn expand(&mut self) -> Vec<T::Move> {
        self.counts.nodes += 1;
        self.tree.moves()
    }

    /// Steps into the child `mv` leads to.
    #[inline]
    pub fn play(&mut self, mv: T::Move) {
        self.tree.play(mv);
    }

    /// Steps back to the parent.
    #[inline]
    pub fn undo(&mut self) {
        self.tree.undo();
    }

    /// The current node's key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.tree.key()
    }
}
