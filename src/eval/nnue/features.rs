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

use std::fmt;

use super::relations::{Relation, Relations, MAX_RELATIONS, RELATION_FEATURES};
use crate::board::attacks::reachable;
use crate::board::square::in_playing_area;
use crate::board::{Color, PieceKind, Position, Square};

/// Features per king bucket: every (relative type, reachable square) pair.
pub const FEATURES_PER_BUCKET: usize = 708;

/// Pieces of both sides other than the kings, at most (the output bucket's input).
pub const MAX_NON_KING_PIECES: usize = 30;

/// Most features one perspective can have on at once (32 pieces).
pub const MAX_ACTIVE: usize = 32;

/// How the perspective's king square selects a block of input weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KingBuckets {
    /// One block for every king square.
    Single = 0,
    /// One block per palace rank the king stands on (3).
    Rank = 1,
    /// One block per palace square (9; 6 when mirroring folds the right file onto the left).
    Palace = 2,
}

impl KingBuckets {
    /// Every layout, in file-code order.
    pub const ALL: [KingBuckets; 3] = [KingBuckets::Single, KingBuckets::Rank, KingBuckets::Palace];

    /// The byte that names this layout in a net file.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The layout a net file's byte names.
    pub fn from_code(code: u8) -> Option<KingBuckets> {
        KingBuckets::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Lower-case name, as the command line takes it.
    pub const fn name(self) -> &'static str {
        match self {
            KingBuckets::Single => "single",
            KingBuckets::Rank => "rank",
            KingBuckets::Palace => "palace",
        }
    }

    /// The layout called `name` (`single`, `rank` or `palace`).
    pub fn from_name(name: &str) -> Result<KingBuckets, UnknownName> {
        KingBuckets::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(name)).ok_or_else(|| {
            UnknownName { what: "king buckets", name: name.to_string(), choices: "single, rank or palace" }
        })
    }
}

/// A name the command line gave that names nothing of its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was named (`activation`, `king-bucket layout`).
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names there are, as a reader should see them.
    pub choices: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} '{}' ({})", self.what, self.name, self.choices)
    }
}

impl std::error::Error for UnknownName {}

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
        match (self.king_buckets, self.mirror) {
            (KingBuckets::Single, _) => 1,
            (KingBuckets::Rank, _) => 3,
            (KingBuckets::Palace, false) => 9,
            (KingBuckets::Palace, true) => 6,
        }
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
        let bucket = match self.king_buckets {
            KingBuckets::Single => 0,
            KingBuckets::Rank => rank,
            KingBuckets::Palace if self.mirror => rank * 2 + file.min(1),
            KingBuckets::Palace => rank * 3 + file,
        };
        Frame {
            perspective,
            mirror,
            offset: bucket * FEATURES_PER_BUCKET,
            relation_base: self.piece_inputs(),
        }
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

/// One perspective's view for one king square: which way the board is turned and which weight
/// block the king selects. Two king squares with the same frame share every feature index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    perspective: Color,
    mirror: bool,
    offset: usize,
    relation_base: usize,
}

impl Frame {
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
        let relative = self.relative(color, kind);
        let slot = SLOTS[relative][square_90(sq)];
        debug_assert!(slot != UNREACHABLE, "{} {} on {sq:?}", color.name(), kind.name());
        let slot = if slot == UNREACHABLE { FIRST_SLOT[relative] } else { slot };
        slot as usize
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

/// `sq`'s number among the 90 playing squares, `file + 9 * rank`: the order feature slots and
/// the refresh cache's boards use.
#[inline]
pub(super) fn square_90(sq: Square) -> usize {
    SQUARE_90[sq.index()] as usize
}

/// The output bucket of a position with `non_king_pieces` pieces besides the kings, for a net
/// with `buckets` output buckets: `non_king_pieces * buckets / 31`.
#[inline]
pub fn output_bucket(non_king_pieces: usize, buckets: usize) -> usize {
    (non_king_pieces.min(MAX_NON_KING_PIECES) * buckets) / (MAX_NON_KING_PIECES + 1)
}

/// Pieces on the board other than the two kings.
pub fn non_king_pieces(pos: &Position) -> usize {
    Color::BOTH.iter().flat_map(|&c| PieceKind::ALL[1..].iter().map(move |&k| pos.count(c, k))).sum()
}

/// `sq` as `perspective` sees it: Black's view turns the board so that its pieces start at the bottom.
#[inline]
fn orient(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_ranks(),
    }
}

const UNREACHABLE: u16 = u16::MAX;

/// For each relative type (own king … own pawn, their king … their pawn) and oriented square
/// `file + 9 * rank`, the feature's place in a bucket: types in that order, squares in that order.
const fn build_slots() -> [[u16; 90]; 14] {
    let mut slots = [[UNREACHABLE; 90]; 14];
    let mut next = 0u16;
    let mut relative = 0;
    while relative < 14 {
        let (kind, theirs) = (relative % 7, relative >= 7);
        let mut sq = 0;
        while sq < 90 {
            let (file, rank) = (sq % 9, sq / 9);
            // Their pieces start at the top of the oriented board: mirror the rank to test them.
            let red_rank = if theirs { 9 - rank } else { rank };
            if reachable(Color::Red, PieceKind::ALL[kind], Square::new(file as u8, red_rank as u8)) {
                slots[relative][sq] = next;
                next += 1;
            }
            sq += 1;
        }
        relative += 1;
    }
    assert!(next as usize == FEATURES_PER_BUCKET);
    slots
}

const fn build_first_slots() -> [u16; 14] {
    let mut first = [0u16; 14];
    let mut relative = 0;
    while relative < 14 {
        let mut sq = 0;
        while sq < 90 && SLOTS[relative][sq] == UNREACHABLE {
            sq += 1;
        }
        first[relative] = SLOTS[relative][sq];
        relative += 1;
    }
    first
}

/// Mailbox index to `file + 9 * rank` (0 off the board).
const fn build_square_90() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        if in_playing_area(i) {
            let (row, col) = (i / 16, i % 16);
            t[i] = ((col - 3) + 9 * (12 - row)) as u8;
        }
        i += 1;
    }
    t
}

static SLOTS: [[u16; 90]; 14] = build_slots();
static FIRST_SLOT: [u16; 14] = build_first_slots();
static SQUARE_90: [u8; 256] = build_square_90();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;
    use rand::{Rng, SeedableRng};

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

    #[test]
    fn output_buckets_span_the_material_range() {
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(30, 8), 7);
        assert_eq!(output_bucket(30, 1), 0);
        assert_eq!(output_bucket(99, 4), 3);
        assert_eq!(non_king_pieces(&Position::startpos()), 30);
        let buckets: std::collections::HashSet<_> = (0..=30).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(buckets.len(), 8);
    }

    #[test]
    fn bucket_names() {
        assert_eq!(KingBuckets::from_name("Palace"), Ok(KingBuckets::Palace));
        assert!(KingBuckets::from_name("file").unwrap_err().to_string().contains("'file'"));
        for k in KingBuckets::ALL {
            assert_eq!(KingBuckets::from_code(k.code()), Some(k));
        }
        assert_eq!(KingBuckets::from_code(3), None);
    }
}
