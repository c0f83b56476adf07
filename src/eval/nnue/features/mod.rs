//! The network's inputs: which features a position switches on, from each side's perspective.
//!
//! This module is the one place that turns pieces into input indices; the engine's accumulator
//! and the trainer both go through it, so a net trained here reads the board as the engine does.
//!
//! A *perspective* is one side's view of the board. In it the board is oriented so that the
//! perspective's own pieces start at the bottom (Black's view flips the ranks), and, when the
//! feature set mirrors, reflected left to right whenever the perspective's king stands right of
//! the centre file. One set of weights then serves both sides and both wings.
//!
//! Within the oriented board a piece is one of 14 *relative types* (own king … own pawn, their
//! king … their pawn) on one of the squares that type can ever reach (the rule the FEN reader
//! enforces: kings and advisors in their palace, elephants on their seven points, pawns from
//! their starting rank on): 354 squares per side, 708 features. The feature set repeats those 708
//! once per *king bucket*, chosen by the perspective's king square in its palace.
//!
//! One concern per file: `king_buckets` (which block the king picks), `piece_squares` (the 708
//! slots of a block and the board's orientation), `frame` (a perspective's view and the input
//! index of a piece or relation in it), `relations` (the optional relation inputs),
//! `output_buckets` (the output layer the material picks), `unknown_name` (the error for a bad
//! layout name); this file puts them together as a `FeatureSet`.

mod frame;
mod king_buckets;
mod output_buckets;
mod piece_squares;
pub mod relations;
mod unknown_name;

use std::fmt;

pub use frame::Frame;
pub use king_buckets::KingBuckets;
pub use output_buckets::{non_king_pieces, output_bucket, MAX_NON_KING_PIECES};
pub(in crate::eval::nnue) use piece_squares::square_90;
pub use piece_squares::{FEATURES_PER_BUCKET, MAX_ACTIVE};
pub use unknown_name::UnknownName;

use crate::board::{Color, PieceKind, Position, Square};
use piece_squares::orient;
use relations::{Relations, MAX_RELATIONS, RELATION_FEATURES};

/// The input side of an architecture: king buckets, mirroring, and relation inputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FeatureSet {
    /// How the king square picks a weight block.
    pub king_buckets: KingBuckets,
    /// Reflect the board left to right when the perspective's king is right of centre.
    pub mirror: bool,
    /// Inputs for which piece attacks or protects which (`relations`), after the piece-square
    /// blocks; shared by every king bucket.
    pub relations: bool,
}

impl FeatureSet {
    /// How many king buckets this set has.
    pub const fn bucket_count(self) -> usize {
        self.king_buckets.count(self.mirror)
    }

    /// How many distinct frames one perspective can be in (a bucket, mirrored or not): the
    /// bound of `Frame::slot`.
    pub const fn frames_per_perspective(self) -> usize {
        2 * self.bucket_count()
    }

    /// The number of piece-square inputs (every king bucket's block); relation inputs follow.
    pub const fn piece_inputs(self) -> usize {
        self.bucket_count() * FEATURES_PER_BUCKET
    }

    /// The number of network inputs.
    pub const fn inputs(self) -> usize {
        self.piece_inputs() + if self.relations { RELATION_FEATURES } else { 0 }
    }

    /// Most inputs one perspective can have on at once: a piece-square feature per piece, and
    /// one per relation.
    pub const fn max_active(self) -> usize {
        MAX_ACTIVE + if self.relations { MAX_RELATIONS } else { 0 }
    }

    /// How `perspective` sees the board while its king stands on `king`.
    #[inline]
    pub fn frame(self, perspective: Color, king: Square) -> Frame {
        let oriented = orient(perspective, king);
        let mirror = self.mirror && oriented.file() > 4;
        let king = if mirror { oriented.mirror_files() } else { oriented };
        // In the oriented frame the king is in the bottom palace: files 3..=5, ranks 0..=2.
        let (file, rank) = (king.file().saturating_sub(3).min(2) as usize, king.rank().min(2) as usize);
        let bucket = self.king_buckets.bucket(self.mirror, file, rank);
        Frame::new(perspective, mirror, bucket, self.piece_inputs())
    }

    /// The features `perspective` has on in `pos`, appended to `out`: its pieces', then its
    /// relations' if the set has them.
    pub fn active_features(self, pos: &Position, perspective: Color, out: &mut Vec<usize>) {
        let frame = self.frame(perspective, pos.king_square(perspective));
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                out.extend(pos.pieces(color, kind).map(|sq| frame.index(color, kind, sq)));
            }
        }
        if self.relations {
            out.extend(Relations::of_position(pos).iter().map(|r| frame.relation_index(r)));
        }
    }

    /// The features `perspective` has on for the pieces `pieces` (colour, kind, square), with its
    /// own king on `king`: the same as `active_features` for a position with those pieces.
    pub fn features_of(
        self,
        pieces: impl IntoIterator<Item = (Color, PieceKind, Square)>,
        perspective: Color,
        king: Square,
        out: &mut Vec<usize>,
    ) {
        let frame = self.frame(perspective, king);
        if self.relations {
            let pieces: Vec<_> = pieces.into_iter().collect();
            out.extend(pieces.iter().map(|&(color, kind, sq)| frame.index(color, kind, sq)));
            out.extend(Relations::of_pieces(pieces).iter().map(|r| frame.relation_index(r)));
        } else {
            out.extend(pieces.into_iter().map(|(color, kind, sq)| frame.index(color, kind, sq)));
        }
    }
}

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} king buckets ({}), {}mirrored, {}{} inputs",
            self.king_buckets.name(),
            self.bucket_count(),
            if self.mirror { "" } else { "not " },
            if self.relations { "relation inputs, " } else { "" },
            self.inputs()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::attacks::reachable;
    use crate::board::movegen;
    use rand::{Rng, SeedableRng};
    use relations::Relation;

    const ALL_SETS: [FeatureSet; 9] = [
        FeatureSet { king_buckets: KingBuckets::Single, mirror: false, relations: false },
        FeatureSet { king_buckets: KingBuckets::Single, mirror: true, relations: false },
        FeatureSet { king_buckets: KingBuckets::Rank, mirror: false, relations: false },
        FeatureSet { king_buckets: KingBuckets::Rank, mirror: true, relations: false },
        FeatureSet { king_buckets: KingBuckets::Palace, mirror: false, relations: false },
        FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: false },
        FeatureSet { king_buckets: KingBuckets::Single, mirror: true, relations: true },
        FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: true },
        FeatureSet { king_buckets: KingBuckets::Rank, mirror: false, relations: true },
    ];

    #[test]
    fn every_reachable_placement_has_its_own_index_in_every_bucket() {
        for set in ALL_SETS {
            for perspective in Color::BOTH {
                let palace = Square::all().filter(|s| reachable(perspective, PieceKind::King, *s));
                let mut buckets_seen = std::collections::HashSet::new();
                for king in palace {
                    let frame = set.frame(perspective, king);
                    buckets_seen.insert(frame.bucket_offset());
                    let mut seen = std::collections::HashSet::new();
                    for color in Color::BOTH {
                        for kind in PieceKind::ALL {
                            for sq in Square::all().filter(|&s| reachable(color, kind, s)) {
                                let i = frame.index(color, kind, sq);
                                assert!(i < set.inputs());
                                assert_eq!(
                                    i / FEATURES_PER_BUCKET,
                                    frame.bucket_offset() / FEATURES_PER_BUCKET
                                );
                                assert!(seen.insert(i), "{set:?} {kind:?} {sq} collides");
                            }
                        }
                    }
                    assert_eq!(seen.len(), FEATURES_PER_BUCKET);
                }
                assert_eq!(buckets_seen.len(), set.bucket_count(), "{set:?} uses every bucket");
            }
        }
    }

    #[test]
    fn the_colour_flip_swaps_the_perspectives() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for set in ALL_SETS {
            let mut pos = Position::startpos();
            for _ in 0..60 {
                let moves = movegen::legal_moves(&mut pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
                let flipped = pos.color_flipped();
                for color in Color::BOTH {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    set.active_features(&pos, color, &mut a);
                    set.active_features(&flipped, color.opponent(), &mut b);
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "{set:?} {pos:?}");
                }
            }
        }
    }

    #[test]
    fn mirroring_folds_the_right_wing_onto_the_left() {
        let set = FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: false };
        // Red king on f0 (right of centre) sees the mirror image of a king on d0.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/1R7/5K3 w - - 0 1").unwrap();
        let mirrored = pos.files_mirrored();
        for set in [set, FeatureSet { relations: true, ..set }] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            set.active_features(&pos, Color::Red, &mut a);
            set.active_features(&mirrored, Color::Red, &mut b);
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
        assert!(set.frame(Color::Red, Square::parse("f0").unwrap()).mirror);
        assert!(!set.frame(Color::Red, Square::parse("e0").unwrap()).mirror);
        // Black's view flips the ranks only (as the colour flip does): f9 is f0 there, and mirrors.
        assert!(set.frame(Color::Black, Square::parse("f9").unwrap()).mirror);
        assert!(!set.frame(Color::Black, Square::parse("d9").unwrap()).mirror);
    }

    #[test]
    fn frame_slots_tell_frames_apart_within_their_bound() {
        for set in ALL_SETS {
            for perspective in Color::BOTH {
                let palace: Vec<Square> = (0..90u8)
                    .map(|i| Square::new(i % 9, i / 9))
                    .filter(|sq| sq.in_palace(perspective))
                    .collect();
                assert_eq!(palace.len(), 9);
                for &a in &palace {
                    let fa = set.frame(perspective, a);
                    assert!(fa.slot() < set.frames_per_perspective(), "{set} {a:?}");
                    for &b in &palace {
                        let fb = set.frame(perspective, b);
                        assert_eq!(fa.slot() == fb.slot(), fa == fb, "{set}: {a:?} and {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn relation_inputs_follow_the_pieces_and_tell_relations_apart() {
        let set = FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: true };
        assert_eq!(set.inputs(), 6 * FEATURES_PER_BUCKET + RELATION_FEATURES);
        let pos = Position::from_fen("3k5/9/9/9/4c4/9/4R4/9/9/4K4 w - - 0 1").unwrap();
        let frame = set.frame(Color::Red, Square::parse("d0").unwrap());
        let mut seen = std::collections::HashSet::new();
        for attacker in [(Color::Red, PieceKind::Rook), (Color::Black, PieceKind::Cannon)] {
            for victim in [(Color::Red, PieceKind::King), (Color::Black, PieceKind::Horse)] {
                for sq in Square::all().filter(|&s| reachable(victim.0, victim.1, s)) {
                    let i = frame.relation_index(Relation::new(attacker, victim, sq));
                    assert!((set.piece_inputs()..set.inputs()).contains(&i));
                    assert!(seen.insert(i), "{attacker:?} {victim:?} {sq}");
                }
            }
        }
        // The rook on e3 attacks the cannon and protects its king; the cannon, screened by the
        // rook, attacks the king: three relations on top of four pieces.
        let mut active = Vec::new();
        set.active_features(&pos, Color::Black, &mut active);
        assert_eq!(active.len(), 4 + 3);
        let plain = FeatureSet { relations: false, ..set };
        let mut pieces_only = Vec::new();
        plain.active_features(&pos, Color::Black, &mut pieces_only);
        assert_eq!(active[..4], pieces_only[..]);
        assert_eq!(set.max_active(), MAX_ACTIVE + MAX_RELATIONS);
    }
}
