//! Persistence in `--data DIR`: every unfinished game's states in `games/ID.jsonl`, one line per
//! change appended to the end, and each finished game as `pgn/ID.pgn` (written whole and synced).
//! On start the last whole state of each unfinished game is read back, so a restart loses
//! nothing.
//!
//! Appending a line is a write into the system's cache of an open file: no new file, no rename,
//! no journal entry, so the move answer (which waits for it) does not wait on the disk. The
//! first version replaced a whole state file per move (a temporary file renamed over it) and the
//! answer's 95th percentile was 107 ms with 50 games at once on a busy disk (16 ms without
//! `--data`), most likely because on ext4 a rename over an existing file makes the system write
//! the new file's data out at once. With the log it is about as fast as in memory (docs/serve.md
//! has the figures).
//!
//! A line is written with one `write` at the end of the file, so a killed server leaves every
//! line it wrote whole, and at worst a torn last line when the machine itself fails; the reader
//! takes the last line that reads as a game. Nothing is synced: only a crash of the whole machine
//! can lose the last moves before the system writes them out. When a log grows past
//! `COMPACT_BYTES` it is rewritten as its last state alone (through a temporary file renamed over
//! it), which a long game does a few times. State files of the first version (`ID.json`, one
//! state) are read too and become logs.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use super::game::{Clock, Game, Seat};
use super::strength::Strength;
use crate::board::{Color, Move, Position};
use crate::files::{replace_with, write_atomically};
use crate::input_file::{read, Limit};
use crate::notation::pgn::date_tag;
use crate::notation::{write_pgn, MoveNotation, PgnGame, PgnMove};
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};

/// The largest state log read back: `COMPACT_BYTES` and one more state (a game of a thousand
/// moves is about 10 KiB), with room to spare.
const STATE_LIMIT: Limit = Limit { what: "saved game", max_len: 1 << 20 };

/// A log longer than this is rewritten as its last state alone.
pub const COMPACT_BYTES: u64 = 256 * 1024;

/// Finished games' PGN files kept in `pgn/`: past it the oldest are removed as new ones come
/// (about 4 MB of 4 KiB blocks; one client can finish at most `max_games_per_client` games per
/// 10 minutes, so a flood cannot push out more than a few of a day's games).
pub const MAX_PGN_FILES: usize = 1000;

/// Why the store could not write or read a game.
#[derive(Debug)]
pub enum StoreError {
    /// The file system refused.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        error: io::Error,
    },
    /// A file in `games/` not named as the server names its logs: reported, left alone.
    Foreign {
        /// The file.
        path: PathBuf,
    },
    /// A saved game that does not read back as a game.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        why: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, error } => write!(f, "cannot write or read {}: {error}", path.display()),
            StoreError::Corrupt { path, why } => write!(f, "{} is not a saved game: {why}", path.display()),
            StoreError::Foreign { path } => write!(
                f,
                "{} is not named as this server names its games (ID.jsonl): not loaded, left alone",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// How a state line is appended to a log: `write_all` but where a test puts a failing disk.
pub type Append = fn(&mut std::fs::File, &[u8]) -> io::Result<()>;

/// The directory games are kept in.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    max_pgn_files: usize,
    append: Append,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |error| StoreError::Io { path: path.to_path_buf(), error }
}

impl Store {
    /// The store in `dir`, with its `games` and `pgn` folders made when missing.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        for sub in ["games", "pgn"] {
            let path = dir.join(sub);
            std::fs::create_dir_all(&path).map_err(io_error(&path))?;
            // The logs hold the players' tokens: this user's alone.
            private(&path, 0o700).map_err(io_error(&path))?;
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            max_pgn_files: MAX_PGN_FILES,
            append: |file, bytes| file.write_all(bytes),
        })
    }

    /// The same store appending through `append` (the seam for a full disk in tests).
    pub fn with_append(self, append: Append) -> Store {
        Store { append, ..self }
    }

    /// The same store keeping at most `max` PGN files.
    pub fn with_pgn_limit(self, max: usize) -> Store {
        Store { max_pgn_files: max.max(1), ..self }
    }

    /// Removes the oldest PGN files past the bound (by modification time, then name).
    fn prune_pgns(&self) -> Result<(), StoreError> {
        let dir = self.dir.join("pgn");
        let mut files: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(&dir)
            .map_err(io_error(&dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn") && !hidden(p))
            .map(|p| (std::fs::metadata(&p).and_then(|m| m.modified()).unwrap_or(UNIX_EPOCH), p))
            .collect();
        if files.len() <= self.max_pgn_files {
            return Ok(());
        }
        files.sort();
        let excess = files.len() - self.max_pgn_files;
        for (_, path) in files.into_iter().take(excess) {
            std::fs::remove_file(&path).map_err(io_error(&path))?;
        }
        Ok(())
    }

    /// Where a game's states are kept (its log).
    pub fn state_path(&self, id: &str) -> PathBuf {
        self.dir.join("games").join(format!("{id}.jsonl"))
    }

    /// Where the first version kept a game's state (one state, replaced on every change).
    fn old_state_path(&self, id: &str) -> PathBuf {
        self.dir.join("games").join(format!("{id}.json"))
    }

    /// Where a finished game's PGN goes.
    pub fn pgn_path(&self, id: &str) -> PathBuf {
        self.dir.join("pgn").join(format!("{id}.pgn"))
    }

    /// Saves a game's state now: the unfinished game's state appended to its log, or the
    /// finished one as PGN (and its log removed, so it is not loaded again). An analysis board
    /// of a recorded game is not saved: it came from a PGN its viewer has.
    pub fn save(&self, game: &Game, now: Instant) -> Result<(), StoreError> {
        let log = self.state_path(&game.id);
        if game.is_recorded() {
            Ok(())
        } else if game.ending.is_some() {
            let path = self.pgn_path(&game.id);
            replace_with(&path, |file: &mut std::fs::File| {
                private_file(file)?;
                file.write_all(pgn_text(game).as_bytes())
            })
            .map_err(io_error(&path))?;
            match std::fs::remove_file(&log) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_error(&log)(e)),
                _ => {}
            }
            self.prune_pgns()
        } else {
            let mut line = to_json(game, now).to_string();
            line.push('\n');
            // One writer per game at a time (the game's lock is held), so the log is its own.
            let mut file =
                private_options().create(true).read(true).append(true).open(&log).map_err(io_error(&log))?;
            let before = file.metadata().map_err(io_error(&log))?.len();
            // A torn line left by a failed write that could not be cut off (below) ends here, so
            // this state starts a line of its own and reads back.
            if before > 0 && !ends_in_newline(&mut file, before) {
                line.insert(0, '\n');
            }
            if let Err(error) = (self.append)(&mut file, line.as_bytes()) {
                // A full disk takes part of a line: cut it off, so the log ends whole.
                let _ = file.set_len(before);
                return Err(io_error(&log)(error));
            }
            let length = file.metadata().map_err(io_error(&log))?.len();
            drop(file);
            if length > COMPACT_BYTES {
                let temporary = self.dir.join("games").join(format!(".{}.jsonl.tmp", game.id));
                private_options()
                    .create(true)
                    .write(true)
                    .truncate(true)
                    .open(&temporary)
                    .and_then(|mut file| file.write_all(line.as_bytes()))
                    .and_then(|()| std::fs::rename(&temporary, &log))
                    .map_err(io_error(&log))?;
            }
            Ok(())
        }
    }

    /// Reads back every unfinished game; the files that do not read are reported, not fatal.
    /// A first version's `ID.json` that reads becomes the log `ID.jsonl`.
    pub fn load(&self) -> (Vec<Game>, Vec<StoreError>) {
        let dir = self.dir.join("games");
        let mut games: Vec<Game> = Vec::new();
        let mut errors = Vec::new();
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => return (games, vec![io_error(&dir)(e)]),
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if hidden(&path) || !path.is_file() {
                continue;
            }
            // Only the names the server gives (`ID.jsonl`, and the first version's `ID.json`):
            // a copy such as `ID (copy).jsonl` is an operator's, not a game to load or delete.
            if own_stem(&path).is_some() {
                paths.push(path);
            } else {
                errors.push(StoreError::Foreign { path });
            }
        }
        // Logs first, so that a log and an old state file of the same game load the log.
        paths.sort_by_key(|p| (p.extension().is_some_and(|x| x == "json"), p.clone()));
        for path in paths {
            let stem = own_stem(&path).unwrap_or_default();
            match read_state(&path) {
                Ok(game) if game.id != stem => errors.push(StoreError::Corrupt {
                    path: path.clone(),
                    why: format!("it holds the game {}, not {stem}", game.id),
                }),
                Ok(game) if games.iter().any(|g| g.id == game.id) => errors.push(StoreError::Corrupt {
                    path: path.clone(),
                    why: format!("the game {stem} was read from its log; this older file is left alone"),
                }),
                Ok(game) => {
                    if path == self.old_state_path(&game.id) {
                        // A whole line, so that the next state appended starts a line of its own.
                        let log = self.state_path(&game.id);
                        let line = format!("{}\n", to_json(&game, Instant::now()));
                        match write_atomically(&log, line) {
                            Ok(()) => {
                                let _ = std::fs::remove_file(&path);
                            }
                            Err(e) => errors.push(io_error(&log)(e)),
                        }
                    }
                    games.push(game);
                }
                Err(e) => errors.push(e),
            }
        }
        (games, errors)
    }
}

/// The game a state log holds: its last line that reads as one (a torn last line is skipped).
fn read_state(path: &Path) -> Result<Game, StoreError> {
    let corrupt = |why: String| StoreError::Corrupt { path: path.to_path_buf(), why };
    let bytes = read(path, STATE_LIMIT).map_err(|e| corrupt(e.to_string()))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut first_error = None;
    for line in text.lines().rev().filter(|l| !l.trim().is_empty()) {
        let read = serde_json::from_str::<Value>(line).map_err(|e| e.to_string()).and_then(|v| from_json(&v));
        match read {
            Ok(game) => return Ok(game),
            Err(why) => {
                first_error.get_or_insert(why);
            }
        }
    }
    Err(corrupt(first_error.unwrap_or_else(|| "no state in it".to_string())))
}

/// Options that create a file readable and writable by this user alone (0600 on Unix).
fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Makes an open file this user's alone (0600 on Unix).
fn private_file(file: &std::fs::File) -> io::Result<()> {
    #[cfg(unix)]
    file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Gives `path` the Unix permissions `mode` (nothing elsewhere).
fn private(path: &Path, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode))?;
    #[cfg(not(unix))]
    let _ = (path, mode);
    Ok(())
}

/// The game id a state file's name gives, when it is exactly a name the server writes:
/// `ID.jsonl` or `ID.json` with ID letters and digits.
fn own_stem(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix(".jsonl").or_else(|| name.strip_suffix(".json"))?;
    let own = !stem.is_empty() && stem.len() <= 64 && stem.chars().all(|c| c.is_ascii_alphanumeric());
    own.then(|| stem.to_string())
}

/// Whether the file of `length` bytes ends in a newline.
fn ends_in_newline(file: &mut std::fs::File, length: u64) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let mut last = [0u8; 1];
    file.seek(SeekFrom::Start(length - 1)).is_ok() && file.read_exact(&mut last).is_ok() && last[0] == b'\n'
}

/// Temporary files of `write_atomically` start with a dot.
fn hidden(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// A game's state as saved: what `from_json` needs to rebuild it.
pub fn to_json(game: &Game, now: Instant) -> Value {
    let to_move = game.position().side_to_move();
    let seats: Vec<Value> = game
        .seats
        .iter()
        .map(|seat| match seat {
            Seat::Open => json!({"kind": "open"}),
            Seat::Human { token } => json!({"kind": "human", "token": token}),
            Seat::Engine { strength: Strength::Level(level) } => json!({"kind": "engine", "level": level}),
            Seat::Engine { strength: Strength::Elo(elo) } => json!({"kind": "engine", "elo": elo}),
            Seat::Recorded { name } => json!({"kind": "recorded", "name": name}),
        })
        .collect();
    json!({
        "version": 1,
        "id": game.id,
        "start_fen": game.start.to_fen(),
        "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "seats": seats,
        "clock": game.clock.as_ref().map(|c| json!({
            "increment_ms": c.increment_ms,
            "left_ms": [c.left_at(Color::Red, to_move, now), c.left_at(Color::Black, to_move, now)],
        })),
        "draw_offer": game.draw_offer.map(Color::name),
        "undo_request": game.undo_request.map(Color::name),
        "created_unix": game.created_unix,
        "invite": game.invite,
    })
}

/// A game rebuilt from its saved state, its moves replayed and checked.
pub fn from_json(value: &Value) -> Result<Game, String> {
    let text = |field: &str| value[field].as_str().ok_or(format!("no '{field}'"));
    let id = text("id")?;
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("a bad id".into());
    }
    let start = Position::from_fen(text("start_fen")?).map_err(|e| e.to_string())?;
    let seat = |v: &Value| -> Result<Seat, String> {
        match v["kind"].as_str() {
            Some("open") => Ok(Seat::Open),
            Some("human") => match v["token"].as_str() {
                Some(t) if !t.is_empty() => Ok(Seat::Human { token: t.to_string() }),
                _ => Err("a human seat without a token".into()),
            },
            // The first version's levels 1 to 10 are read as skill levels.
            Some("engine") => match (v["level"].as_u64(), v["elo"].as_i64()) {
                (Some(l), None) if l <= u64::from(MAX_LEVEL) => {
                    Ok(Seat::Engine { strength: Strength::Level(l as u8) })
                }
                (None, Some(e)) if (i64::from(MIN_ELO)..=i64::from(MAX_ELO)).contains(&e) => {
                    Ok(Seat::Engine { strength: Strength::Elo(e as i32) })
                }
                _ => Err("an engine seat without a level or an Elo".into()),
            },
            _ => Err("a seat of no known kind".into()),
        }
    };
    let seats = match value["seats"].as_array().map(Vec::as_slice) {
        Some([red, black]) => [seat(red)?, seat(black)?],
        _ => return Err("not two seats".into()),
    };
    let clock = match &value["clock"] {
        Value::Null => None,
        c => {
            let left = |i: usize| c["left_ms"][i].as_u64().ok_or("a clock without its times");
            Some(Clock {
                increment_ms: c["increment_ms"].as_u64().ok_or("a clock without its increment")?,
                left_ms: [left(0)?, left(1)?],
                running_since: None,
            })
        }
    };
    let mut moves = Vec::new();
    for m in value["moves"].as_array().ok_or("no 'moves'")? {
        let text = m.as_str().ok_or("a move that is not text")?;
        moves.push(Move::parse_iccs(text).ok_or(format!("{} is not a move", crate::quote::quoted(text)))?);
    }
    let created = value["created_unix"].as_u64().unwrap_or(0);
    let mut game = Game::new(id.to_string(), start, seats, clock, created);
    game.replay(&moves).map_err(|e| e.to_string())?;
    let color = |field: &str| match value[field].as_str() {
        Some("red") => Some(Color::Red),
        Some("black") => Some(Color::Black),
        _ => None,
    };
    game.draw_offer = color("draw_offer");
    game.undo_request = color("undo_request");
    // A game saved before invitations has none; the lobby gives its open seat a new one.
    game.invite = value["invite"]
        .as_str()
        .filter(|i| !i.is_empty() && i.len() <= 64 && i.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(str::to_string);
    Ok(game)
}

/// The game as PGN in Chinese notation, with who played, the date and why it ended; a recorded
/// game as it was loaded (its tags, comments and result).
pub fn pgn_text(game: &Game) -> String {
    if let Some(record) = &game.record {
        if let Ok(text) = write_pgn(record, MoveNotation::Chinese) {
            return text;
        }
    }
    let mut pgn = PgnGame::new(game.start.clone());
    pgn.moves = game.moves().iter().map(|&mv| PgnMove::new(mv)).collect();
    pgn.result = game.ending.map_or("*", |e| e.pgn_result()).to_string();
    pgn.tags.push(("Event".into(), "Chariot web game".into()));
    pgn.tags.push(("Site".into(), "chariot serve".into()));
    pgn.tags.push(("Date".into(), date_tag(game.created_unix)));
    for (color, name) in [(Color::Red, "Red"), (Color::Black, "Black")] {
        let who = match &game.seats[color.index()] {
            Seat::Open => "?".to_string(),
            Seat::Human { .. } => "Human".to_string(),
            Seat::Engine { strength } => strength.player_name(),
            Seat::Recorded { name } => name.clone().unwrap_or_else(|| "?".to_string()),
        };
        pgn.tags.push((name.into(), who));
    }
    if let Some(ending) = game.ending {
        pgn.tags.push(("Termination".into(), ending.reason.to_string()));
    }
    pgn.tags.push(("GameId".into(), game.id.clone()));
    // The moves were checked as they were played, so writing cannot fail; were it to, the ICCS
    // line still records the game.
    write_pgn(&pgn, MoveNotation::Chinese).unwrap_or_else(|e| {
        let line: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        format!("; {e}\n; {}\n", line.join(" "))
    })
}

/// Seconds since 1970 now.
pub fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::messages::Action;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chariot-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_saved_game_reads_back_the_same() {
        let dir = scratch("roundtrip");
        let store = Store::open(&dir).unwrap();
        let seats = [Seat::Human { token: "tr".into() }, Seat::Human { token: "tb".into() }];
        let mut game = Game::new("abc".into(), Position::startpos(), seats, Some(Clock::new(5, 3)), 86_400);
        let now = Instant::now();
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        game.act(Color::Black, &Action::OfferDraw, now).unwrap();
        store.save(&game, now).unwrap();
        let (games, errors) = store.load();
        assert!(errors.is_empty(), "{errors:?}");
        let back = &games[0];
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.seats, game.seats);
        assert_eq!(back.draw_offer, Some(Color::Black));
        assert_eq!(back.clock.as_ref().unwrap().left_ms, [300_000, 300_000]);
        assert_eq!(back.position().to_fen(), game.position().to_fen());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn finished_games_files_are_kept_within_their_bound() {
        let dir = scratch("pgn-bound");
        let store = Store::open(&dir).unwrap().with_pgn_limit(3);
        let now = Instant::now();
        for i in 0..8 {
            let seats = [Seat::Human { token: "tr".into() }, Seat::Human { token: "tb".into() }];
            let mut game = Game::new(format!("game{i}"), Position::startpos(), seats, None, 0);
            game.act(Color::Red, &Action::Resign, now).unwrap();
            store.save(&game, now).unwrap();
            // Distinct modification times, so that "oldest" is well defined on coarse clocks.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let mut names: Vec<String> = std::fs::read_dir(dir.join("pgn"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["game5.pgn", "game6.pgn", "game7.pgn"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn engine_seats_keep_their_level_or_elo() {
        let now = Instant::now();
        for strength in [Strength::Level(0), Strength::Level(MAX_LEVEL), Strength::Elo(MIN_ELO + 123)] {
            let seats = [Seat::Engine { strength }, Seat::Human { token: "tb".into() }];
            let game = Game::new("e".into(), Position::startpos(), seats, None, 0);
            assert_eq!(from_json(&to_json(&game, now)).unwrap().seats, game.seats, "{strength:?}");
        }
        // The first version's level 3 is skill level 3; out of range, or both, is refused.
        let state = |seat: &str| {
            let text = format!(
                r#"{{"id":"e","start_fen":"{}","moves":[],"seats":[{seat},{{"kind":"open"}}],"clock":null}}"#,
                Position::startpos().to_fen()
            );
            from_json(&serde_json::from_str(&text).unwrap()).map(|g| g.seats[0].clone())
        };
        assert_eq!(
            state(r#"{"kind":"engine","level":3}"#),
            Ok(Seat::Engine { strength: Strength::Level(3) })
        );
        for bad in [r#"{"kind":"engine","level":21}"#, r#"{"kind":"engine"}"#, r#"{"kind":"engine","elo":5}"#]
        {
            assert_eq!(state(bad), Err("an engine seat without a level or an Elo".to_string()), "{bad}");
        }
    }

    #[test]
    fn a_finished_game_becomes_pgn_and_is_not_loaded() {
        let dir = scratch("finished");
        let store = Store::open(&dir).unwrap();
        let seats = [Seat::Human { token: "tr".into() }, Seat::Engine { strength: Strength::Level(2) }];
        let mut game = Game::new("fin".into(), Position::startpos(), seats, None, 0);
        let now = Instant::now();
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        store.save(&game, now).unwrap();
        assert!(store.state_path("fin").exists());
        game.act(Color::Red, &Action::Resign, now).unwrap();
        store.save(&game, now).unwrap();
        assert!(!store.state_path("fin").exists());
        let pgn = std::fs::read_to_string(store.pgn_path("fin")).unwrap();
        let read = crate::notation::read_pgn(&pgn).unwrap();
        assert_eq!(read[0].moves.iter().map(|m| m.mv).collect::<Vec<_>>(), game.moves());
        assert_eq!(read[0].result, "0-1");
        assert_eq!(read[0].tag("Termination"), Some("resignation"));
        assert_eq!(read[0].tag("Black"), Some(Strength::Level(2).player_name().as_str()));
        assert!(read[0].tag("Black").unwrap().starts_with("Chariot level 2 (about "));
        assert!(store.load().0.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn friends(id: &str) -> Game {
        let seats = [Seat::Human { token: "tr".into() }, Seat::Human { token: "tb".into() }];
        Game::new(id.into(), Position::startpos(), seats, None, 0)
    }

    #[test]
    fn each_change_is_one_line_and_a_torn_last_line_is_skipped() {
        let dir = scratch("log");
        let store = Store::open(&dir).unwrap();
        let mut game = friends("log");
        let now = Instant::now();
        store.save(&game, now).unwrap();
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        store.save(&game, now).unwrap();
        let text = std::fs::read_to_string(store.state_path("log")).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.ends_with('\n'));
        // A machine that failed mid-write: half a line at the end. The line before it holds.
        let torn = &to_json(
            &{
                let mut g = game.clone();
                g.act(Color::Black, &Action::Move("h9g7".into()), now).unwrap();
                g
            },
            now,
        )
        .to_string()[..40];
        std::fs::write(store.state_path("log"), format!("{text}{torn}")).unwrap();
        let (games, errors) = store.load();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games[0].moves(), game.moves());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_long_log_is_compacted_to_its_last_state() {
        let dir = scratch("compact");
        let store = Store::open(&dir).unwrap();
        let mut game = friends("long");
        let now = Instant::now();
        let line = to_json(&game, now).to_string().len() as u64 + 1;
        let saves = COMPACT_BYTES / line + 2;
        for _ in 0..saves {
            store.save(&game, now).unwrap();
        }
        let length = std::fs::metadata(store.state_path("long")).unwrap().len();
        assert!(length < saves * line / 2, "{length} bytes after {saves} saves of {line}");
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        store.save(&game, now).unwrap();
        let (games, errors) = store.load();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games[0].moves(), game.moves());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_first_version_state_file_is_read_and_becomes_a_log() {
        let dir = scratch("old");
        let store = Store::open(&dir).unwrap();
        let mut game = friends("old");
        let now = Instant::now();
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        std::fs::write(store.old_state_path("old"), to_json(&game, now).to_string()).unwrap();
        let (games, errors) = store.load();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games[0].moves(), game.moves());
        assert!(!store.old_state_path("old").exists() && store.state_path("old").exists());
        game.act(Color::Black, &Action::Move("h9g7".into()), now).unwrap();
        store.save(&game, now).unwrap();
        let (games, _) = store.load();
        assert_eq!((games.len(), games[0].moves().len()), (1, 2));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_files_named_as_the_server_names_them_are_loaded_and_none_is_deleted() {
        let dir = scratch("names");
        let store = Store::open(&dir).unwrap();
        let mut game = friends("live1");
        let now = Instant::now();
        store.save(&game, now).unwrap();
        // An operator's copy, taken after the first state; the live log goes on.
        let copy = dir.join("games").join("live1 (copy).jsonl");
        std::fs::copy(store.state_path("live1"), &copy).unwrap();
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        store.save(&game, now).unwrap();
        // A log renamed by hand: it holds another game than its name says.
        std::fs::copy(store.state_path("live1"), store.state_path("other2")).unwrap();
        for _ in 0..3 {
            let (games, errors) = store.load();
            assert_eq!(games.len(), 1, "{errors:?}");
            assert_eq!(games[0].moves().len(), 1, "the live log is the one read");
            assert_eq!(errors.len(), 2, "{errors:?}");
            assert!(errors.iter().any(|e| matches!(e, StoreError::Foreign { path } if *path == copy)));
            assert!(errors.iter().any(|e| e.to_string().contains("it holds the game live1, not other2")));
            assert!(
                copy.exists() && store.state_path("live1").exists() && store.state_path("other2").exists()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A disk that takes the first 20 bytes of a write and then is full.
    fn full_disk(file: &mut std::fs::File, bytes: &[u8]) -> io::Result<()> {
        file.write_all(&bytes[..20.min(bytes.len())])?;
        Err(io::Error::new(io::ErrorKind::StorageFull, "No space left on device"))
    }

    #[test]
    fn a_failed_write_leaves_no_torn_line_and_the_log_recovers() {
        let dir = scratch("full");
        let store = Store::open(&dir).unwrap();
        let full = store.clone().with_append(full_disk);
        let mut game = friends("full1");
        let now = Instant::now();
        store.save(&game, now).unwrap();
        game.act(Color::Red, &Action::Move("h2e2".into()), now).unwrap();
        let error = full.save(&game, now).unwrap_err();
        assert!(error.to_string().contains("No space left on device"), "{error}");
        let text = std::fs::read_to_string(store.state_path("full1")).unwrap();
        assert!(text.ends_with('\n') && text.lines().count() == 1, "{text:?}");
        // Space is back: the next state is saved whole and read back.
        game.act(Color::Black, &Action::Move("h9g7".into()), now).unwrap();
        store.save(&game, now).unwrap();
        let (games, errors) = store.load();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games[0].moves().len(), 2);
        // A torn tail left by an older server (or a failed cut) is ended before the next line.
        std::fs::OpenOptions::new()
            .append(true)
            .open(store.state_path("full1"))
            .unwrap()
            .write_all(b"{\"id\":\"fu")
            .unwrap();
        game.act(Color::Red, &Action::Move("b2b4".into()), now).unwrap();
        store.save(&game, now).unwrap();
        assert_eq!(store.load().0[0].moves().len(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_files_are_reported_and_skipped() {
        let dir = scratch("bad");
        let store = Store::open(&dir).unwrap();
        std::fs::write(store.state_path("junk"), "not json").unwrap();
        let illegal = r#"{"id":"ill","start_fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1","moves":["h2h8"],"seats":[{"kind":"open"},{"kind":"open"}],"clock":null}"#;
        std::fs::write(store.state_path("ill"), illegal).unwrap();
        let (games, errors) = store.load();
        assert!(games.is_empty());
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().all(|e| matches!(e, StoreError::Corrupt { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
