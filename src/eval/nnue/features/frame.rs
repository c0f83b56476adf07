//! A perspective's frame: which way the board is turned and which weight block the king selects,
//! and the input index of each piece and relation seen in it.

use super::piece_squares::{first_slot, orient, slot, FEATURES_PER_BUCKET};
use super::relations::Relation;
use crate::board::{Color, PieceKind, Square};

/// One perspective's view for one king square: which way the board is turned and which weight
/// block the king selects. Two king squares with the same frame share every feature index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    perspective: Color,
    /// Whether the board is reflected left to right.
    pub(super) mirror: bool,
    offset: usize,
    relation_base: usize,
}

impl Frame {
    /// `perspective`'s frame in king bucket `bucket`, the board mirrored or not, for a feature
    /// set whose relation inputs start at `relation_base`.
    #[inline]
    pub(super) fn new(perspective: Color, mirror: bool, bucket: usize, relation_base: usize) -> Frame {
        Frame { perspective, mirror, offset: bucket * FEATURES_PER_BUCKET, relation_base }
    }

    /// The input index of a `color` `kind` standing on `sq`, as this frame sees it.
    ///
    /// `sq` must be a square a piece of that colour and kind can reach (every position the FEN
    /// reader or the move generator makes); an unreachable one maps to its type's first feature.
    #[inline]
    pub fn index(self, color: Color, kind: PieceKind, sq: Square) -> usize {
        self.offset + self.slot_of(color, kind, sq)
    }

    /// The input index of relation `r` (a net with relation inputs): the attacker's relative
    /// type picks a block of 708, the victim's type and square its slot there.
    #[inline]
    pub fn relation_index(self, r: Relation) -> usize {
        let (color, kind) = r.attacker();
        let attacker = self.relative(color, kind);
        let (color, kind) = r.victim();
        self.relation_base + attacker * FEATURES_PER_BUCKET + self.slot_of(color, kind, r.square())
    }

    #[inline]
    fn relative(self, color: Color, kind: PieceKind) -> usize {
        (if color == self.perspective { 0 } else { 7 }) + kind.index()
    }

    /// A piece's place within a block of 708.
    #[inline]
    fn slot_of(self, color: Color, kind: PieceKind, sq: Square) -> usize {
        let mut sq = orient(self.perspective, sq);
        if self.mirror {
            sq = sq.mirror_files();
        }
        let slot = slot(self.relative(color, kind), sq);
        debug_assert!(slot.is_some(), "{} {} on {sq:?}", color.name(), kind.name());
        slot.unwrap_or_else(|| first_slot(self.relative(color, kind)))
    }

    /// The first input index of this frame's king bucket.
    pub fn bucket_offset(self) -> usize {
        self.offset
    }

    /// This frame's number among its perspective's, below `FeatureSet::frames_per_perspective`:
    /// two frames of one perspective share every feature index exactly when their slots are equal.
    #[inline]
    pub fn slot(self) -> usize {
        2 * (self.offset / FEATURES_PER_BUCKET) + self.mirror as usize
    }
}
