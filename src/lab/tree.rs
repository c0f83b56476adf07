//! What every lab search walks: a game tree it can step into and out of, score at the horizon,
//! and name by a key. The algorithms are written once over this trait, so the same listing runs
//! on xiangqi positions (`xiangqi.rs`) and on the small synthetic trees the tests build
//! (`synthetic.rs`), where the right answer is known.

/// Greater than every value a search returns: the open ends of a full window.
pub const INF: i32 = 32_000;

/// The value of a node whose side to move has no legal move: a loss. It carries no distance, so
/// a table entry means the same at every ply and every algorithm returns the very same number.
pub const LOSS: i32 = -30_000;

/// A game tree seen from the node a search stands on.
pub trait GameTree {
    /// A move: what leads from a node to one of its children.
    type Move: Copy + PartialEq;

    /// How many history counters `history_index` may ask for.
    const HISTORY_SIZE: usize;

    /// The moves of the current node, in the tree's own order; none means the side to move lost.
    fn moves(&mut self) -> Vec<Self::Move>;

    /// Steps into the child that `mv` leads to.
    fn play(&mut self, mv: Self::Move);

    /// Steps back to the parent.
    fn undo(&mut self);

    /// The static value of the current node, from its side to move's view.
    fn evaluate(&mut self) -> i32;

    /// A key that names the current node (equal keys: the same node, reached by any path).
    fn key(&self) -> u64;

    /// The history counter of `mv` (below `HISTORY_SIZE`).
    fn history_index(&self, mv: Self::Move) -> usize;
}
