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
    /// Positions to train on, in file order.
    pub training: Vec<Record>,
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
            training: self.training.len() as u64,
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
    let mut data = DataSet { fingerprint: FNV64_OFFSET, ..DataSet::default() };
    for path in paths {
        load_file(path, validation_share, &mut data).map_err(LoadError::Data)?;
    }
    if data.training.is_empty() {
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

fn load_file(path: &Path, share: f64, data: &mut DataSet) -> Result<(), DataError> {
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
                let (part, games) = if held_out {
                    (&mut data.validation, &mut data.validation_games)
                } else {
                    (&mut data.training, &mut data.training_games)
                };
                for r in &game {
                    data.fingerprint = fnv1a64_words(data.fingerprint, r.as_bytes());
                }
                part.append(&mut game);
                *games += 1;
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
}
