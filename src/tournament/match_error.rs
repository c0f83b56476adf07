//! Why a match did not run, or stopped before its end: one error for the checks before the first
//! game, the resuming and the playing.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::engine::EngineStartError;
use super::pgn_out::{PgnOutError, ResumeError};
use super::schedule::MAX_SCHEDULED_GAMES;
use super::shard::Shard;
use crate::input_file::InputError;

/// Why a match did not run, or stopped before its end.
#[derive(Debug)]
pub enum MatchError {
    /// Fewer than two engines.
    TooFewEngines,
    /// Two engines share a name.
    DuplicateNames,
    /// `--games` or `--concurrency` is 0.
    NoGames,
    /// More than `MAX_SCHEDULED_GAMES` scheduled games.
    TooManyGames {
        /// Games per pairing.
        games: u32,
        /// Pairings.
        pairings: u64,
        /// Their product.
        scheduled: u64,
    },
    /// `--sprt` with other than one pairing.
    SprtNeedsTwoEngines,
    /// More shards than games: some shard would have none.
    ShardsExceedGames {
        /// The `--shard` asked for.
        shard: Shard,
        /// The games of the whole match.
        games: u64,
    },
    /// `--resume` without `--pgn`.
    ResumeWithoutPgn,
    /// The `--pgn` file exists and `--resume` was not given.
    PgnExists {
        /// The file.
        path: PathBuf,
    },
    /// `--resume` of a `--pgn` file that does not exist.
    NothingToResume {
        /// The file.
        path: PathBuf,
    },
    /// The PGN cannot be written (checked before the first game, or after a game).
    Pgn(PgnOutError),
    /// An engine did not start and answer its handshake on its trial start.
    Engine(EngineStartError),
    /// The PGN to resume from could not be read.
    ReadResume {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InputError,
    },
    /// The PGN to resume from holds games that cannot be resumed.
    Resume(ResumeError),
    /// A game of the PGN to resume from is not in this match's schedule.
    NotInSchedule {
        /// Its round.
        round: u32,
        /// Its Red engine.
        red: String,
        /// Its Black engine.
        black: String,
        /// The file.
        path: PathBuf,
    },
    /// A game of the PGN to resume from was played with other settings than this match's.
    OtherSettings {
        /// Its round.
        round: u32,
        /// Its settings fingerprint.
        found: String,
        /// This match's.
        expected: String,
        /// The file.
        path: PathBuf,
    },
    /// The results table could not be written.
    Report(io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::TooFewEngines => write!(f, "a match needs at least two --engine"),
            MatchError::DuplicateNames => write!(f, "two engines have the same name: give each a distinct name="),
            MatchError::NoGames => write!(f, "--games and --concurrency must be at least 1"),
            MatchError::TooManyGames { games, pairings, scheduled } => write!(
                f,
                "{games} games per pairing over {pairings} pairings make {scheduled} games; at most {MAX_SCHEDULED_GAMES}"
            ),
            MatchError::SprtNeedsTwoEngines => write!(f, "--sprt needs exactly two engines"),
            MatchError::ShardsExceedGames { shard, games } => write!(
                f,
                "--shard {shard}: the match has {games} games, fewer than {} shards, so some shard would have none",
                shard.count()
            ),
            MatchError::ResumeWithoutPgn => write!(f, "--resume needs --pgn FILE"),
            MatchError::PgnExists { path } => {
                write!(f, "{} exists: add --resume to continue that match, or remove it", path.display())
            }
            MatchError::NothingToResume { path } => write!(f, "cannot resume: {} does not exist", path.display()),
            MatchError::Pgn(e) => write!(f, "{e}"),
            MatchError::Engine(e) => write!(f, "{e}"),
            MatchError::ReadResume { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            MatchError::Resume(e) => write!(f, "{e}"),
            MatchError::NotInSchedule { round, red, black, path } => write!(
                f,
                "cannot resume: game {round} ({red} - {black}) in {} is not in this match's schedule",
                path.display()
            ),
            MatchError::OtherSettings { round, found, expected, path } => write!(
                f,
                "cannot resume: game {round} in {} was played with other settings (fingerprint {found}, \
                 this match's is {expected}): the engines' names, programs (by their contents) or options, the \
                 openings, the limits or the adjudication differ; give the first run's options and programs \
                 again, or start a new --pgn",
                path.display()
            ),
            MatchError::Report(e) => write!(f, "cannot write the results: {e}"),
        }
    }
}

/// No `source`: the message already holds the cause's.
impl std::error::Error for MatchError {}

impl From<PgnOutError> for MatchError {
    fn from(e: PgnOutError) -> MatchError {
        MatchError::Pgn(e)
    }
}

impl From<EngineStartError> for MatchError {
    fn from(e: EngineStartError) -> MatchError {
        MatchError::Engine(e)
    }
}

impl From<ResumeError> for MatchError {
    fn from(e: ResumeError) -> MatchError {
        MatchError::Resume(e)
    }
}
