//! The trainer's data: scored data files read whole and checked record by record, cut to
//! complete games, and split between training and validation **by game**.
//!
//! A file that a running `chariot datagen --scored` is still writing (or a copy of one) can end
//! in the middle of a game or of a record. That tail is left out, with a note saying what was
//! left out; any other fault, anywhere, refuses the file with its place (`DataReader`'s checks),
//! and so does a shard that ends in an unfinished game before another shard's header (damage in
//! the middle of a concatenation).
//!
//! The split hashes (shard seed, game number): a game's positions are strongly correlated, so a
//! split by position would leak. It does not depend on the training seed, so runs with other
//! settings on the same data validate on the same games and their losses compare.

use std::fmt;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use crate::binary::{fnv1a64_words, FNV64_OFFSET};
use crate::datagen::format::{Record, BLOCK};
use crate::datagen::reader::{DataError, DataReader};

use super::checkpoint::DataIdentity;
use super::rng::mix;

/// The data a run trains on.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// Positions to train on, in file order: all of them from `load`; from `load_streaming`,
    /// those its consumer has not taken yet (none once it returns).
    pub training: Vec<Record>,
    /// Training positions read, taken or not.
    pub training_positions: u64,
    /// Positions held out, in file order.
    pub validation: Vec<Record>,
    /// Games in the training part.
    pub training_games: u64,
    /// Games held out.
    pub validation_games: u64,
    /// What was left out of incomplete file ends, one note a file that had one.
    pub notes: Vec<String>,
    /// A hash of every record kept, in file order (with the split, it identifies the data).
    pub fingerprint: u64,
}

impl DataSet {
    /// What a checkpoint records of this data.
    pub fn identity(&self) -> DataIdentity {
        DataIdentity {
            fingerprint: self.fingerprint,
            training: self.training_positions,
            validation: self.validation.len() as u64,
        }
    }
}

/// Whether game `game` of the shard made with `seed` is held out, for a validation share `share`.
pub fn is_validation(seed: u64, game: u32, share: f64) -> bool {
    let h = mix(mix(seed ^ 0x7661_6c69_6461_7465) ^ game as u64);
    ((h >> 11) as f64 / (1u64 << 53) as f64) < share
}

/// Bytes read from a file at a time.
const BUFFER: usize = 1 << 20;
/// Records asked of the reader at a time.
const CHUNK: usize = 1 << 16;

/// Reads every file in `paths`, keeps their complete games, and splits them by game with
/// `validation_share` of the games held out.
pub fn load(paths: &[PathBuf], validation_share: f64) -> Result<DataSet, LoadError> {
    load_streaming(paths, validation_share, usize::MAX, |_| {})
}

/// As `load`, but hands the training positions to `take` as they are read, whole games in file
/// order, whenever `batch` or more have gathered and once more at the end: `take` may convert
/// and remove them, so that a large data set never sits in memory as records (40 bytes a
/// position) beside what is made of it. Whatever `take` leaves stays in `DataSet::training`.
pub fn load_streaming(
    paths: &[PathBuf],
    validation_share: f64,
    batch: usize,
    mut take: impl FnMut(&mut Vec<Record>),
) -> Result<DataSet, LoadError> {
    let mut data = DataSet { fingerprint: FNV64_OFFSET, ..DataSet::default() };
    let mut batches = Batches { size: batch, taken: 0, take: &mut take };
    for path in paths {
        load_file(path, validation_share, &mut data, &mut batches).map_err(LoadError::Data)?;
    }
    batches.flush(&mut data.training);
    if data.training_positions == 0 {
        return Err(LoadError::NoTraining { paths: paths.to_vec(), held_out_games: data.validation_games });
    }
    Ok(data)
}

/// Why the data cannot be trained on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A file could not be read, or holds a damaged record.
    Data(DataError),
    /// Every complete game went to validation, or there was none.
    NoTraining {
        /// The files read.
        paths: Vec<PathBuf>,
        /// The games held out for validation.
        held_out_games: u64,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Data(e) => e.fmt(f),
            LoadError::NoTraining { paths, held_out_games } => write!(
                f,
                "no training positions in {} (complete games: {held_out_games} held out for validation)",
                paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Hands training records to the consumer of `load_streaming` in batches.
struct Batches<'a> {
    size: usize,
    /// Records of `DataSet::training` already offered (the consumer may have kept them).
    taken: usize,
    take: &'a mut dyn FnMut(&mut Vec<Record>),
}

impl Batches<'_> {
    fn offer(&mut self, training: &mut Vec<Record>) {
        if training.len() - self.taken >= self.size {
            self.flush(training);
        }
    }

    fn flush(&mut self, training: &mut Vec<Record>) {
        if training.len() > self.taken {
            (self.take)(training);
            self.taken = training.len();
        }
    }
}

fn load_file(path: &Path, share: f64, data: &mut DataSet, batches: &mut Batches) -> Result<(), DataError> {
    let name = path.display().to_string();
    let error = |offset, record, message: String| DataError { file: name.clone(), offset, record, message };
    let file = crate::input_file::open(path).map_err(|e| error(0, None, format!("cannot open: {e}")))?;
    let len = file.metadata().map_err(|e| error(0, None, format!("cannot read: {e}")))?.len();
    // Only whole blocks are read: a partial record at the very end is an interrupted write.
    let partial = len % BLOCK as u64;
    let mut reader = DataReader::new(BufReader::with_capacity(BUFFER, file.take(len - partial)), &name)?;
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut game: Vec<Record> = Vec::new();
    let mut game_start = (0u64, 0u64);
    let mut shard = reader.shard();
    loop {
        chunk.clear();
        if reader.read_chunk(&mut chunk, CHUNK)? == 0 {
            break;
        }
        let (first_record, first_offset) = reader.chunk_start();
        if reader.shard() != shard {
            if let Some(last) = game.last() {
                return Err(error(
                    first_offset - BLOCK as u64,
                    Some(first_record),
                    format!(
                        "game {} of the shard before this header has no last record: only the end of \
                         a file may hold an unfinished game (cut the shards to complete games before \
                         concatenating them, or give them as separate --data files)",
                        last.game()
                    ),
                ));
            }
            shard = reader.shard();
        }
        let seed = reader.header().seed;
        for (i, rec) in chunk.iter().enumerate() {
            if game.is_empty() {
                game_start = (first_record + i as u64, first_offset + (i * BLOCK) as u64);
            }
            game.push(*rec);
            if rec.last_of_game() {
                let held_out = is_validation(seed, rec.game(), share);
                for r in &game {
                    data.fingerprint = fnv1a64_words(data.fingerprint, r.as_bytes());
                }
                if held_out {
                    data.validation.append(&mut game);
                    data.validation_games += 1;
                } else {
                    data.training_positions += game.len() as u64;
                    data.training.append(&mut game);
                    data.training_games += 1;
                    batches.offer(&mut data.training);
                }
            }
        }
    }
    let mut left_out = Vec::new();
    if let Some(last) = game.last() {
        left_out.push(format!(
            "the unfinished game {} at its end ({} records from record {}, byte offset {})",
            last.game(),
            game.len(),
            game_start.0,
            game_start.1
        ));
    }
    if partial > 0 {
        left_out.push(format!("a partial record of {partial} bytes at byte offset {}", len - partial));
    }
    if !left_out.is_empty() {
        data.notes.push(format!(
            "{name}: left out {} (an interrupted or still growing file)",
            left_out.join(" and ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_holds_out_about_the_share_and_depends_on_the_shard() {
        let held = (0..20_000).filter(|&g| is_validation(1, g, 0.1)).count();
        assert!((1_800..=2_200).contains(&held), "{held}");
        let differs = (0..1000).filter(|&g| is_validation(1, g, 0.5) != is_validation(2, g, 0.5)).count();
        assert!(differs > 400, "{differs}");
        assert_eq!((0..1000).filter(|&g| is_validation(1, g, 0.0)).count(), 0);
    }

    /// A data file of `games` games of random legal moves, `plies` records each at most, the last
    /// game left unfinished.
    fn data_file(name: &str, games: u32, plies: usize) -> PathBuf {
        use crate::board::{movegen, Move, Position};
        use crate::datagen::format::Header;
        use crate::datagen::games::GameEnd;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(games as u64);
        let mut bytes = Header::whole(9, 1, 0).to_bytes().to_vec();
        for game in 0..games {
            let mut pos = Position::startpos();
            let mut kept = Vec::new();
            for _ in 0..rng.gen_range(1..=plies) {
                let moves: Vec<Move> = movegen::legal_moves(&mut pos).iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                if !pos.is_check() {
                    kept.push(Record::new(&pos, rng.gen_range(-300..300), mv));
                }
                pos.make_move(mv);
            }
            let n = kept.len();
            for (i, mut rec) in kept.into_iter().enumerate() {
                rec.finish(game, GameEnd::DrawAdjudicated, None, i + 1 == n && game + 1 < games);
                bytes.extend_from_slice(rec.as_bytes());
            }
        }
        let path = std::env::temp_dir().join(format!("chariot-train-data-{name}-{}.bin", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn streamed_batches_are_whole_games_and_add_up_to_the_loaded_set() {
        let paths = vec![data_file("a", 40, 30), data_file("b", 25, 12)];
        let whole = load(&paths, 0.2).unwrap();
        assert!(whole.training.len() > 200 && !whole.validation.is_empty(), "{}", whole.training.len());
        assert_eq!(whole.training_positions, whole.training.len() as u64);

        let mut batches: Vec<Vec<Record>> = Vec::new();
        let streamed =
            load_streaming(&paths, 0.2, 50, |records| batches.push(std::mem::take(records))).unwrap();
        assert!(streamed.training.is_empty());
        assert!(batches.len() > 3, "{}", batches.len());
        for batch in &batches[..batches.len() - 1] {
            assert!(batch.len() >= 50, "{}", batch.len());
        }
        for batch in &batches {
            assert!(batch.last().unwrap().last_of_game());
        }
        let joined: Vec<Record> = batches.concat();
        assert!(joined.iter().map(Record::as_bytes).eq(whole.training.iter().map(Record::as_bytes)));
        assert_eq!(streamed.identity(), whole.identity());
        assert!(streamed
            .validation
            .iter()
            .map(Record::as_bytes)
            .eq(whole.validation.iter().map(Record::as_bytes)));
        assert_eq!(
            (streamed.training_games, streamed.validation_games, &streamed.notes),
            (whole.training_games, whole.validation_games, &whole.notes)
        );
        assert_eq!(streamed.notes.len(), 2, "{:?}", streamed.notes);

        // A consumer that keeps what it is offered leaves the whole set in place.
        let mut offers = 0;
        let kept = load_streaming(&paths, 0.2, 50, |_| offers += 1).unwrap();
        assert!(offers > 3);
        assert!(kept.training.iter().map(Record::as_bytes).eq(whole.training.iter().map(Record::as_bytes)));
        for path in paths {
            std::fs::remove_file(path).unwrap();
        }
    }
}
