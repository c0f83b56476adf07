//! Training positions as the network sees them: for each position, the input indices of the
//! side to move's perspective and of the other side's, its output bucket, and its two labels.
//!
//! Records are converted once, as they are read (batch by batch, so that the records of a large
//! set never sit in memory beside their features), through `FeatureSet::frame` and
//! `Frame::index`, the functions the engine's accumulator uses, so a trained net reads the board
//! as the engine does.
//! Indices are stored as `u16` (the largest feature set has 16,284 inputs), both perspectives of
//! a position side by side: about 100 bytes a position, a gigabyte for ten million (with
//! relation inputs about 2.5 times that).

use crate::board::{Color, PieceKind, Square};
use crate::datagen::format::{square_at, Record};
use crate::eval::nnue::features::relations::Relations;
use crate::eval::nnue::features::{self, FeatureSet, MAX_ACTIVE};

/// One position, borrowed from a `Samples` table.
#[derive(Copy, Clone, Debug)]
pub struct Sample<'a> {
    /// The side to move's active features.
    pub us: &'a [u16],
    /// The other side's active features.
    pub them: &'a [u16],
    /// The output bucket (by the material on the board).
    pub bucket: usize,
    /// The search score, centipawns, side to move's view.
    pub score: i16,
    /// The game result, side to move's view: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

/// Positions converted to feature indices.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Where each position's indices start in `indices` (one more entry than positions). A
    /// position with n pieces has 2n indices: the side to move's n, then the other side's n.
    starts: Vec<u64>,
    indices: Vec<u16>,
    buckets: Vec<u8>,
    scores: Vec<i16>,
    results: Vec<u8>,
}

/// The features of one record from both perspectives, appended to `out` (side to move's
/// first: its pieces', then its relations' if the set has them); returns the number of pieces
/// other than the kings. The record must be valid
/// (`Record::validate`): one king a side, every piece on a square it can reach.
pub fn record_features(rec: &Record, set: FeatureSet, out: &mut Vec<u16>) -> usize {
    let mut pieces = [(Color::Red, PieceKind::King, Square::NONE); MAX_ACTIVE];
    let mut n = 0;
    let mut kings = [Square::NONE; 2];
    for (index, color, kind) in rec.pieces().take(MAX_ACTIVE) {
        let sq = square_at(index);
        if kind == PieceKind::King {
            kings[color.index()] = sq;
        }
        pieces[n] = (color, kind, sq);
        n += 1;
    }
    // A plain net's records skip the relation table: 512 bytes to build and scan per record.
    let relations = set.relations.then(|| Relations::of_pieces(pieces[..n].iter().copied()));
    let stm = rec.side_to_move();
    for perspective in [stm, stm.opponent()] {
        let frame = set.frame(perspective, kings[perspective.index()]);
        out.extend(pieces[..n].iter().map(|&(color, kind, sq)| frame.index(color, kind, sq) as u16));
        if let Some(relations) = &relations {
            out.extend(relations.iter().map(|r| frame.relation_index(r) as u16));
        }
    }
    n - 2
}

impl Samples {
    /// Converts `records` for a net with feature set `set` and `output_buckets` output buckets,
    /// on `threads` threads (the result does not depend on how many).
    pub fn from_records(
        records: &[Record],
        set: FeatureSet,
        output_buckets: usize,
        threads: usize,
    ) -> Samples {
        let mut all = Samples::default();
        all.extend_from_records(records, set, output_buckets, threads);
        all
    }

    /// Converts `records` as `from_records` does and appends them: a table built batch by batch
    /// is the table of all the batches at once. The only memory beyond the table's own is the
    /// batch's conversion.
    pub fn extend_from_records(
        &mut self,
        records: &[Record],
        set: FeatureSet,
        output_buckets: usize,
        threads: usize,
    ) {
        let parts = threads.clamp(1, records.len().max(1));
        let part_len = records.len().div_ceil(parts).max(1);
        let convert = |chunk: &[Record]| {
            let mut part = Samples::default();
            part.indices.reserve(chunk.len() * 52);
            for rec in chunk {
                part.starts.push(part.indices.len() as u64);
                let non_kings = record_features(rec, set, &mut part.indices);
                part.buckets.push(features::output_bucket(non_kings, output_buckets) as u8);
                part.scores.push(rec.score());
                part.results.push(rec.result() as u8);
            }
            part
        };
        let pieces: Vec<Samples> = std::thread::scope(|s| {
            let handles: Vec<_> =
                records.chunks(part_len).map(|chunk| s.spawn(move || convert(chunk))).collect();
            handles.into_iter().map(|h| h.join().expect("feature conversion does not panic")).collect()
        });
        // `starts` ends with one entry past the last position: this batch's first start.
        self.starts.pop();
        for part in pieces {
            let base = self.indices.len() as u64;
            self.starts.extend(part.starts.iter().map(|s| s + base));
            self.indices.extend_from_slice(&part.indices);
            self.buckets.extend_from_slice(&part.buckets);
            self.scores.extend_from_slice(&part.scores);
            self.results.extend_from_slice(&part.results);
        }
        self.starts.push(self.indices.len() as u64);
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Position `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Sample<'_> {
        let (start, end) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let (us, them) = self.indices[start..end].split_at((end - start) / 2);
        Sample { us, them, bucket: self.buckets[i] as usize, score: self.scores[i], result: self.results[i] }
    }

    /// Bytes of memory the table holds.
    pub fn memory(&self) -> usize {
        self.starts.len() * 8 + self.indices.len() * 2 + self.buckets.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{movegen, Move, Position};
    use crate::datagen::games::GameEnd;
    use crate::eval::nnue::KingBuckets;
    use rand::{Rng, SeedableRng};

    /// Records of the positions along random games, labelled with made-up scores.
    fn random_records(count: usize, seed: u64) -> Vec<(Position, Record)> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < count {
            let moves: Vec<Move> = movegen::legal_moves(&mut pos).iter().copied().collect();
            if moves.is_empty() || pos.game_ply() > 160 {
                pos = Position::startpos();
                continue;
            }
            let best = moves[rng.gen_range(0..moves.len())];
            let mut rec = Record::new(&pos, rng.gen_range(-500..500), best);
            rec.finish(0, GameEnd::Resigned, Some(Color::Red), false);
            out.push((pos.clone(), rec));
            pos.make_move(best);
        }
        out
    }

    #[test]
    fn a_records_features_are_the_engines_features_of_its_position() {
        let records = random_records(600, 11);
        for set in [
            FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: false },
            FeatureSet { king_buckets: KingBuckets::Palace, mirror: false, relations: false },
            FeatureSet { king_buckets: KingBuckets::Rank, mirror: false, relations: false },
            FeatureSet { king_buckets: KingBuckets::Single, mirror: true, relations: false },
            FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: true },
        ] {
            let recs: Vec<Record> = records.iter().map(|r| r.1).collect();
            let samples = Samples::from_records(&recs, set, 8, 3);
            assert_eq!(samples.len(), records.len());
            for (i, (pos, rec)) in records.iter().enumerate() {
                let sample = samples.get(i);
                for (perspective, ours) in
                    [(pos.side_to_move(), sample.us), (pos.side_to_move().opponent(), sample.them)]
                {
                    let mut expected = Vec::new();
                    set.active_features(pos, perspective, &mut expected);
                    let mut got: Vec<usize> = ours.iter().map(|&f| f as usize).collect();
                    expected.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, expected, "{set:?} {pos:?}");
                }
                let bucket = features::output_bucket(features::non_king_pieces(pos), 8);
                assert_eq!(
                    (sample.bucket, sample.score, sample.result),
                    (bucket, rec.score(), 2 * (pos.side_to_move() == Color::Red) as u8)
                );
            }
        }
    }

    #[test]
    fn the_table_does_not_depend_on_the_thread_count() {
        let recs: Vec<Record> = random_records(301, 12).into_iter().map(|r| r.1).collect();
        let set = FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: false };
        let one = Samples::from_records(&recs, set, 8, 1);
        let four = Samples::from_records(&recs, set, 8, 4);
        assert_eq!((one.starts, one.indices, one.buckets), (four.starts, four.indices, four.buckets));
        assert!(Samples::from_records(&[], set, 8, 2).is_empty());
    }

    #[test]
    fn a_table_built_batch_by_batch_is_the_table_built_at_once() {
        let recs: Vec<Record> = random_records(500, 13).into_iter().map(|r| r.1).collect();
        let set = FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: true };
        let at_once = Samples::from_records(&recs, set, 8, 2);
        let mut batched = Samples::default();
        for batch in recs.chunks(37) {
            batched.extend_from_records(batch, set, 8, 3);
        }
        batched.extend_from_records(&[], set, 8, 2);
        assert_eq!(batched.len(), recs.len());
        assert_eq!(
            (&batched.starts, &batched.indices, &batched.buckets, &batched.scores, &batched.results),
            (&at_once.starts, &at_once.indices, &at_once.buckets, &at_once.scores, &at_once.results)
        );
    }
}
