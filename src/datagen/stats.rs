//! What a scored data file holds: counts of records, games, results and game ends, a score
//! histogram, and the check of every record (the reader's checks and, with `full`, the rules'
//! own: each position legal, each best move legal).

use std::path::Path;

use super::format::{Header, Record, Wdl};
use super::games::GameEnd;
use super::reader::{DataError, DataReader};

/// Upper bounds (inclusive) of the score histogram's buckets; the last bucket is open.
pub const SCORE_EDGES: [i32; 16] =
    [-1000, -500, -300, -200, -100, -50, -20, -6, 5, 19, 49, 99, 199, 299, 499, 999];

/// The statistics of one data file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataStats {
    /// Each shard's header, in file order.
    pub shards: Vec<Header>,
    /// Position records.
    pub records: u64,
    /// Games with at least one record.
    pub games: u64,
    /// Games whose last record is missing (an interrupted write not yet resumed).
    pub unfinished_games: u64,
    /// Games by result from Red's view: Black won, drawn, Red won.
    pub game_results: [u64; 3],
    /// Games by how they ended, indexed by `GameEnd::code`.
    pub game_ends: [u64; GameEnd::ALL.len()],
    /// Records by result from the side to move's view: loss, draw, win.
    pub position_results: [u64; 3],
    /// Sum of the score (side to move's view) by that result, for the mean.
    pub score_sum_by_result: [i64; 3],
    /// Records with Red to move.
    pub red_to_move: u64,
    /// Records by score bucket (`SCORE_EDGES`, side to move's view).
    pub score_histogram: [u64; SCORE_EDGES.len() + 1],
    /// Smallest and largest ply, and the sum of plies.
    pub plies: (u16, u16, u64),
    /// Records whose best move captures.
    pub capture_best_moves: u64,
    /// Whether every record passed the full check.
    pub fully_checked: bool,
}

/// The histogram bucket of `score`.
pub fn score_bucket(score: i32) -> usize {
    SCORE_EDGES.iter().position(|&edge| score <= edge).unwrap_or(SCORE_EDGES.len())
}

impl DataStats {
    fn add(&mut self, rec: &Record, new_game: bool) {
        self.records += 1;
        if new_game {
            self.games += 1;
            self.game_results[rec.red_result() as usize] += 1;
            if let Some(end) = rec.game_end() {
                self.game_ends[end.code() as usize] += 1;
            }
        }
        let result = rec.result() as usize;
        self.position_results[result] += 1;
        self.score_sum_by_result[result] += rec.score() as i64;
        if rec.side_to_move() == crate::board::Color::Red {
            self.red_to_move += 1;
        }
        self.score_histogram[score_bucket(rec.score() as i32)] += 1;
        let ply = rec.ply();
        self.plies = if self.records == 1 {
            (ply, ply, ply as u64)
        } else {
            (self.plies.0.min(ply), self.plies.1.max(ply), self.plies.2 + ply as u64)
        };
        let (_, to) = rec.best_squares();
        if rec.pieces().any(|(sq, _, _)| sq == to) {
            self.capture_best_moves += 1;
        }
    }

    /// The mean score (side to move's view) of the records with result `wdl`.
    pub fn mean_score(&self, wdl: Wdl) -> Option<f64> {
        let n = self.position_results[wdl as usize];
        (n > 0).then(|| self.score_sum_by_result[wdl as usize] as f64 / n as f64)
    }
}

/// Reads and checks all of `path`; `full` adds the rules' checks of every position and best
/// move (`Record::to_position`). The first fault found is the error.
pub fn collect(path: &Path, full: bool) -> Result<DataStats, DataError> {
    let mut reader = DataReader::open(path)?;
    let mut stats = DataStats { fully_checked: full, ..DataStats::default() };
    let mut chunk = Vec::with_capacity(1 << 16);
    let mut previous: Option<(usize, Record)> = None; // (shard, record)
    loop {
        chunk.clear();
        if reader.read_chunk(&mut chunk, 1 << 16)? == 0 {
            break;
        }
        let shard = reader.shard();
        let (first, offset) = reader.chunk_start();
        for (i, rec) in chunk.iter().enumerate() {
            if full {
                rec.to_position().map_err(|e| DataError {
                    file: path.display().to_string(),
                    offset: offset + (i * super::format::BLOCK) as u64,
                    record: Some(first + i as u64),
                    message: e.to_string(),
                })?;
            }
            let new_game = match &previous {
                Some((s, p)) => *s != shard || p.game() != rec.game(),
                None => true,
            };
            if new_game && previous.as_ref().is_some_and(|(_, p)| !p.last_of_game()) {
                stats.unfinished_games += 1;
            }
            stats.add(rec, new_game);
            previous = Some((shard, *rec));
        }
    }
    if previous.is_some_and(|(_, p)| !p.last_of_game()) {
        stats.unfinished_games += 1;
    }
    stats.shards = reader.headers().to_vec();
    Ok(stats)
}
