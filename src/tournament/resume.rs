//! `--resume`: reads the PGN of a match that stopped, checks that each of its games belongs to
//! this match (its round, engines and settings fingerprint), and counts their results, so that
//! the runner plays only the games still missing.

use std::collections::HashSet;
use std::path::Path;

use super::match_error::MatchError;
use super::pairs::PairCollector;
use super::pgn_out;
use super::schedule::Job;
use super::spec::EngineSpec;
use super::stats::Tally;
use crate::input_file;
use crate::notation::pgn;

/// What the PGN of an earlier run already holds.
#[derive(Debug)]
pub struct Resumed {
    /// The file's text, ending in a blank line when not empty, for the next games to follow.
    pub pgn_text: String,
    /// The rounds already played.
    pub done: HashSet<u32>,
    /// Per pairing, its results in those games.
    pub tallies: Vec<Tally>,
    /// Per pairing, its game pairs in those games.
    pub pairs: PairCollector,
}

impl Resumed {
    /// Nothing played yet: a new match of `pairings` pairings.
    pub fn nothing(pairings: usize) -> Resumed {
        Resumed {
            pgn_text: String::new(),
            done: HashSet::new(),
            tallies: vec![Tally::default(); pairings],
            pairs: PairCollector::new(pairings),
        }
    }
}

/// The games of `path` that this match already played: each must be one of `jobs` (by round and
/// the names of its `engines`) and carry this match's settings `fingerprint`, or carry none (an older file). A round
/// played twice counts once.
pub fn read_played(
    engines: &[EngineSpec],
    path: &Path,
    pairings: &[(usize, usize)],
    jobs: &[Job],
    fingerprint: &str,
) -> Result<Resumed, MatchError> {
    let mut resumed = Resumed::nothing(pairings.len());
    resumed.pgn_text = input_file::read_text(path, pgn::FILE_LIMIT)
        .map_err(|error| MatchError::ReadResume { path: path.to_path_buf(), error })?;
    for game in pgn_out::played_games(&resumed.pgn_text, path)? {
        let job = jobs.iter().find(|j| {
            j.round == game.round && engines[j.red].name == game.red && engines[j.black].name == game.black
        });
        let Some(job) = job else {
            return Err(MatchError::NotInSchedule {
                round: game.round,
                red: game.red,
                black: game.black,
                path: path.to_path_buf(),
            });
        };
        // A game of a smaller match that a larger `--games` extended has the same settings.
        if let Some(found) = game.settings.filter(|found| found != fingerprint) {
            return Err(MatchError::OtherSettings {
                round: game.round,
                found,
                expected: fingerprint.to_string(),
                path: path.to_path_buf(),
            });
        }
        // `played_games` took only finished games.
        let winner = pgn_out::result_winner(&game.result).unwrap_or(None);
        if resumed.done.insert(job.round) {
            let game = Tally::of_game(job.red == pairings[job.pairing].0, winner);
            resumed.tallies[job.pairing].add(game);
            resumed.pairs.add(job.pairing, job.pair, game);
        }
    }
    if !resumed.pgn_text.is_empty() && !resumed.pgn_text.ends_with("\n\n") {
        resumed.pgn_text.push('\n');
    }
    Ok(resumed)
}
