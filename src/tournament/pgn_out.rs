//! The match PGN: a finished game as PGN text, the file rewritten whole through a temporary file
//! after each game (so it is never half-written), and the results of an earlier run read back
//! for `--resume`.

use std::fmt;
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

use super::game::GameRecord;
use super::match_tags::{self, MatchTags};
use super::spec::EngineSpec;
use crate::board::Color;
use crate::files;
use crate::notation::pgn::today_tag;
use crate::notation::{read_pgn, write_pgn, MoveNotation, NotationError, PgnError, PgnGame, PgnMove};
use crate::rules::GameResult;

/// Why the match PGN cannot be written; the message names the file (or the game).
#[derive(Debug)]
pub enum PgnOutError {
    /// The `--pgn` path is a directory.
    IsDirectory {
        /// The `--pgn` path.
        path: PathBuf,
    },
    /// What should be the file's directory is not a directory.
    NotADirectory {
        /// The `--pgn` path.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
    },
    /// The file's directory did not exist and could not be created.
    CannotCreateDirectory {
        /// The `--pgn` path.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file's directory could not be looked at.
    CannotUseDirectory {
        /// The `--pgn` path.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// No new file can be made in the file's directory.
    CannotWriteIn {
        /// The `--pgn` path.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A finished game could not be written as PGN.
    Game {
        /// The game's round.
        round: u32,
        /// Why.
        error: NotationError,
    },
    /// The file could not be (re)written.
    Write {
        /// The `--pgn` path.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for PgnOutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnOutError::IsDirectory { path } => write!(f, "--pgn {} is a directory", path.display()),
            PgnOutError::NotADirectory { path, dir } => {
                write!(f, "--pgn {}: {} is not a directory", path.display(), dir.display())
            }
            PgnOutError::CannotCreateDirectory { path, dir, error } => {
                write!(f, "--pgn {}: cannot create directory {}: {error}", path.display(), dir.display())
            }
            PgnOutError::CannotUseDirectory { path, dir, error } => {
                write!(f, "--pgn {}: cannot use directory {}: {error}", path.display(), dir.display())
            }
            PgnOutError::CannotWriteIn { path, dir, error } => {
                write!(f, "--pgn {}: cannot write in {} ({error})", path.display(), dir.display())
            }
            PgnOutError::Game { round, error } => write!(f, "cannot write game {round} as PGN: {error}"),
            PgnOutError::Write { path, error } => {
                write!(f, "cannot write the PGN file {}: {error}", path.display())
            }
        }
    }
}

/// No `source`: the message already holds the cause's.
impl std::error::Error for PgnOutError {}

/// Why an earlier run's PGN cannot be resumed from; the message names the file.
#[derive(Debug)]
pub enum ResumeError {
    /// The file is not PGN.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: PgnError,
    },
    /// A game in it lacks what resuming needs.
    Game {
        /// The file.
        path: PathBuf,
        /// The game's place in the file, from 1.
        number: usize,
        /// What it lacks.
        lack: GameLack,
    },
}

/// What a game in a PGN to resume from lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameLack {
    /// A `Round` tag holding a number.
    Round,
    /// A result (`1-0`, `0-1` or `1/2-1/2`).
    Result,
    /// The tag named (`Red` or `Black`).
    Tag(&'static str),
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Unreadable { path, error } => {
                write!(f, "cannot resume from {}: {error}", path.display())
            }
            ResumeError::Game { path, number, lack } => {
                write!(f, "cannot resume from {}: game {number} ", path.display())?;
                match lack {
                    GameLack::Round => write!(f, "has no numeric Round tag"),
                    GameLack::Result => write!(f, "has no result"),
                    GameLack::Tag(name) => write!(f, "has no {name} tag"),
                }
            }
        }
    }
}

/// No `source`: the message already holds the cause's.
impl std::error::Error for ResumeError {}

/// `RedEngine`: the Red side's program and options (`EngineSpec::program_text`).
pub const RED_ENGINE: &str = "RedEngine";
/// `BlackEngine`: the Black side's, likewise.
pub const BLACK_ENGINE: &str = "BlackEngine";

/// The names and settings a game's tags record.
pub struct GameTags<'a> {
    /// The Red engine.
    pub red: &'a EngineSpec,
    /// The Black engine.
    pub black: &'a EngineSpec,
    /// The game's number in the match.
    pub round: u32,
    /// The time control as text.
    pub time_control: String,
    /// Which match the game belongs to, for merging shards.
    pub match_tags: &'a MatchTags,
}

/// The winner a PGN result token names (`None` inside for a draw), or `None` for a token that
/// is not a finished game's.
pub fn result_winner(token: &str) -> Option<Option<Color>> {
    match token {
        "1-0" => Some(Some(Color::Red)),
        "0-1" => Some(Some(Color::Black)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// The PGN result token of a record.
pub fn result_token(record: &GameRecord) -> &'static str {
    // Any termination will do: only the winner decides the token.
    GameResult { winner: record.winner, termination: crate::rules::Termination::Checkmate }.pgn_result()
}

/// A finished game as PGN text; book moves carry the comment `book`, engine moves their score
/// (pawns, mover's view), depth and time.
pub fn game_text(
    record: &GameRecord,
    tags: &GameTags,
    notation: MoveNotation,
) -> Result<String, PgnOutError> {
    let mut game = PgnGame::new(record.opening.start.clone());
    let mut set = |name: &str, value: String| game.tags.push((name.to_string(), value));
    set("Event", "chariot match".to_string());
    set("Site", "?".to_string());
    set("Date", today_tag());
    set("Round", tags.round.to_string());
    set("Red", tags.red.name.clone());
    set("Black", tags.black.name.clone());
    set("Termination", record.termination.clone());
    set("TimeControl", tags.time_control.clone());
    set("PlyCount", (record.opening.moves.len() + record.moves.len()).to_string());
    for (name, value) in tags.match_tags.pairs() {
        set(name, value);
    }
    // Which program played each side, and with which options: names alone (`new`, `old`) once
    // let a record be read the wrong way round.
    set(RED_ENGINE, tags.red.program_text());
    set(BLACK_ENGINE, tags.black.program_text());
    for &mv in &record.opening.moves {
        game.moves.push(PgnMove { mv, comment: Some("book".to_string()), suffix: None });
    }
    for played in &record.moves {
        let mut comment = match (played.score, played.depth) {
            (Some(s), Some(d)) => format!("{:+.2}/{d} ", s as f64 / 100.0),
            (Some(s), None) => format!("{:+.2} ", s as f64 / 100.0),
            _ => String::new(),
        };
        comment.push_str(&format!("{:.3}s", played.time_ms as f64 / 1000.0));
        game.moves.push(PgnMove { mv: played.mv, comment: Some(comment), suffix: None });
    }
    game.result = result_token(record).to_string();
    write_pgn(&game, notation).map_err(|error| PgnOutError::Game { round: tags.round, error })
}

/// Checks before the first game that the PGN can be written where `--pgn` says: not a
/// directory itself, in a directory (created if missing) that takes new files (tried by creating
/// and removing a temporary file there).
pub fn check_writable(path: &Path) -> Result<(), PgnOutError> {
    let file = || path.to_path_buf();
    if path.is_dir() {
        return Err(PgnOutError::IsDirectory { path: file() });
    }
    let dir = files::directory_of(path);
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(PgnOutError::NotADirectory { path: file(), dir: dir.to_path_buf() }),
        Err(e) if e.kind() == ErrorKind::NotFound => files::create_directory_of(path).map_err(|error| {
            PgnOutError::CannotCreateDirectory { path: file(), dir: dir.to_path_buf(), error }
        })?,
        Err(error) => {
            return Err(PgnOutError::CannotUseDirectory { path: file(), dir: dir.to_path_buf(), error })
        }
    }
    files::check_writable(path).map_err(|error| PgnOutError::CannotWriteIn {
        path: file(),
        dir: dir.to_path_buf(),
        error,
    })
}

/// Replaces the match PGN at `path` with `text`, whole or not at all.
pub fn write_file(path: &Path, text: &str) -> Result<(), PgnOutError> {
    files::write_atomically(path, text)
        .map_err(|error| PgnOutError::Write { path: path.to_path_buf(), error })
}

/// A game found in an earlier run's PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Its `Round` tag.
    pub round: u32,
    /// Its `Red` tag.
    pub red: String,
    /// Its `Black` tag.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Its settings fingerprint (`MatchSettings`); `None` in files written before the tag.
    pub settings: Option<String>,
}

/// Reads the finished games of an earlier run from its PGN text.
pub fn played_games(text: &str, path: &Path) -> Result<Vec<PlayedGame>, ResumeError> {
    let games =
        read_pgn(text).map_err(|error| ResumeError::Unreadable { path: path.to_path_buf(), error })?;
    let mut out = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let bad = |lack| ResumeError::Game { path: path.to_path_buf(), number: i + 1, lack };
        let round = game.tag("Round").and_then(|r| r.parse().ok()).ok_or_else(|| bad(GameLack::Round))?;
        if result_winner(&game.result).is_none() {
            return Err(bad(GameLack::Result));
        }
        let tag =
            |name: &'static str| game.tag(name).map(str::to_string).ok_or_else(|| bad(GameLack::Tag(name)));
        out.push(PlayedGame {
            round,
            red: tag("Red")?,
            black: tag("Black")?,
            result: game.result.clone(),
            settings: game.tag(match_tags::SETTINGS).map(str::to_string),
        });
    }
    Ok(out)
}
