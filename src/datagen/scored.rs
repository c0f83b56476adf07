//! The scored mode of datagen: self-play games whose kept positions become `format::Record`s
//! (search score and result), appended to a data file one whole game at a time.
//!
//! Games are numbered from 0 in a run; game `n` depends only on the seed, `n` and the settings
//! (recorded in the header), never on how many games run at once: finished games wait for the
//! ones numbered before them and are written in order. A shard of a run (`--shard K/N`,
//! `datagen::shard`) plays and writes only its own games, numbered as in the whole run. A run
//! appends to the file it is given: it first cuts off what an interrupted run left half written
//! (a partial game or record) and carries on with the shard's next game. The target (`--games`,
//! `--positions`) counts everything in the file: for a shard, its own games.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::binary::{fnv1a64, fnv1a64_parts};
use crate::board::Color;
use crate::eval::nnue::format as net_file;
use crate::eval::EvalChoice;
use crate::search::{Engine, HashError};

use super::format::{Header, Record, BLOCK, MAX_SCORE};
use super::games::{play, ConfigError, DatagenConfig, GameEnd};
use super::reader::{scan_for_append, AppendPoint, DataError};

/// When a run stops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Once the file holds the shard's first N games (a whole run's: games 0..N).
    Games(u64),
    /// Once the file holds at least N positions (after the game that reaches it).
    Positions(u64),
}

/// Where a run stands, after each game it writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The shard's games in the file, counting those that kept no position (for a whole run,
    /// the next game's number).
    pub file_games: u64,
    /// Positions in the file.
    pub file_positions: u64,
    /// Games this run wrote.
    pub games: u64,
    /// Positions this run wrote.
    pub positions: u64,
    /// This run's games won by Red, drawn, won by Black.
    pub red_wins: u64,
    /// See `red_wins`.
    pub draws: u64,
    /// See `red_wins`.
    pub black_wins: u64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// What was in the file before (`None`: a new file).
    pub resumed: Option<AppendPoint>,
    /// The counts at the end.
    pub progress: Progress,
    /// Time spent playing and writing.
    pub elapsed: Duration,
}

/// Settings or a target a scored run refuses before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// Settings that cannot make games at all.
    Config(ConfigError),
    /// A `keep_below` whose scores the format cannot store.
    KeepBelow(i32),
    /// A target of 0 games or positions.
    ZeroTarget,
    /// More games than a file can number.
    TooManyGames,
    /// A node count the header cannot hold.
    Nodes(u64),
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Config(e) => e.fmt(f),
            SettingsError::KeepBelow(keep_below) => {
                write!(f, "positions scored up to ±{keep_below} cannot be stored (at most ±{MAX_SCORE})")
            }
            SettingsError::ZeroTarget => write!(f, "the target must be at least 1"),
            SettingsError::TooManyGames => {
                write!(f, "game numbers of a run go up to {}: too many games", u32::MAX)
            }
            SettingsError::Nodes(nodes) => write!(f, "nodes {nodes} is beyond {}", u32::MAX),
        }
    }
}

impl std::error::Error for SettingsError {}

/// Why the data file cannot be appended to or written.
#[derive(Debug)]
pub enum AppendError {
    /// The file cannot be created, opened or written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// An interrupted run's leftovers cannot be cut off.
    Truncate {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The existing file is unreadable or damaged.
    Damaged(DataError),
    /// The existing file was made with other settings.
    OtherSettings {
        /// The file.
        path: PathBuf,
        /// Its header.
        found: Header,
        /// The header this run would write.
        expected: Header,
    },
}

impl fmt::Display for AppendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppendError::Write { path, source } => write!(f, "cannot write {}: {source}", path.display()),
            AppendError::Truncate { path, source } => {
                write!(f, "cannot truncate {}: {source}", path.display())
            }
            AppendError::Damaged(e) => write!(f, "{e}; refusing to append to it"),
            AppendError::OtherSettings { path, found, expected } => {
                // The shard is named only where one of the two is a shard.
                let shard = |h: &Header| {
                    if found.shard == expected.shard {
                        String::new()
                    } else {
                        format!(", shard {}", h.shard)
                    }
                };
                write!(
                    f,
                    "{} was made with other settings (seed {}, nodes {}, settings {:016x}{}; this run: seed {}, nodes {}, \
                     settings {:016x}{}): resume it with the options it was made with (the evaluation among them: \
                     --classic, --evalfile; the shard: --shard) by a build that adjudicates games as the one that made it did (no file \
                     made before adjudication went by the win-rate model can be resumed), or write to another file",
                    path.display(),
                    found.seed,
                    found.nodes,
                    found.settings,
                    shard(found),
                    expected.seed,
                    expected.nodes,
                    expected.settings,
                    shard(expected)
                )
            }
        }
    }
}

impl std::error::Error for AppendError {}

/// Why a scored run stopped short.
#[derive(Debug)]
pub enum RunError {
    /// Settings or a target refused before anything ran.
    Settings(SettingsError),
    /// The hash tables cannot be had.
    Hash(HashError),
    /// The data file cannot be appended to or written.
    File(AppendError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Settings(e) => e.fmt(f),
            RunError::Hash(e) => e.fmt(f),
            RunError::File(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

impl From<SettingsError> for RunError {
    fn from(e: SettingsError) -> Self {
        RunError::Settings(e)
    }
}

impl From<AppendError> for RunError {
    fn from(e: AppendError) -> Self {
        RunError::File(e)
    }
}

/// A fingerprint of every setting besides the seed and the nodes that changes the games or the
/// records kept: appending with other settings would mix two different sequences in one file.
pub fn fingerprint(cfg: &DatagenConfig) -> u64 {
    let openings: Vec<String> = cfg
        .openings
        .iter()
        .map(|o| {
            let moves: Vec<String> = o.moves.iter().map(|m| m.to_string()).collect();
            format!("{} moves {}", o.start.to_fen(), moves.join(" "))
        })
        .collect();
    // Adjudication reads the evaluation's win-rate model, so the model is a setting too (a net's
    // bytes below hold its model as well; the classic evaluation's is built into the program).
    let model = cfg.eval.win_rate();
    let text = format!(
        "random_plies={};openings=[{}];hash_mb={};skip_plies={};max_plies={};\
         resign=win_per_mille:{}/plies:{};draw=after_ply:{}/normalised_cp:{}/plies:{};keep_below={};\
         win_rate=a:{:?}/b:{:?}",
        cfg.random_plies,
        openings.join(","),
        cfg.hash_mb,
        cfg.skip_plies,
        cfg.max_plies,
        cfg.adjudicate_win_per_mille,
        cfg.adjudicate_plies,
        cfg.draw_after_ply,
        cfg.draw_cp,
        cfg.draw_plies,
        cfg.keep_below,
        model.a,
        model.b
    );
    let eval = match &cfg.eval {
        EvalChoice::Classic => String::new(),
        EvalChoice::Nnue(net) => format!(";net={:016x}", fnv1a64(&net_file::to_bytes(net))),
    };
    // Named only when set, so that files made without a soft limit keep their fingerprints.
    let soft = cfg.soft_nodes.map(|n| format!(";soft_nodes={n}")).unwrap_or_default();
    fnv1a64_parts(&[text.as_bytes(), eval.as_bytes(), soft.as_bytes()])
}

/// The header of a file `cfg` makes.
pub fn header(cfg: &DatagenConfig) -> Result<Header, SettingsError> {
    let nodes = u32::try_from(cfg.nodes).map_err(|_| SettingsError::Nodes(cfg.nodes))?;
    Ok(Header { seed: cfg.seed, nodes, settings: fingerprint(cfg), shard: cfg.shard })
}

/// The records of a finished game, labelled: its number, end and result, the last one flagged.
fn finish_game(mut records: Vec<Record>, game: u32, end: GameEnd, winner: Option<Color>) -> Vec<u8> {
    let last = records.len().saturating_sub(1);
    let mut bytes = Vec::with_capacity(records.len() * BLOCK);
    for (i, rec) in records.iter_mut().enumerate() {
        rec.finish(game, end, winner, i == last);
        bytes.extend_from_slice(rec.as_bytes());
    }
    bytes
}

/// Opens `path` for appending: a new file gets its header; an existing one is checked against
/// `expected`, and what an interrupted run left half written is cut off (a note says so).
fn open_for_append(
    path: &Path,
    expected: &Header,
    note: &mut dyn FnMut(&str),
) -> Result<(File, Option<AppendPoint>), AppendError> {
    let write_error = |source| AppendError::Write { path: path.to_path_buf(), source };
    let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if existing == 0 {
        let mut file =
            OpenOptions::new().write(true).create(true).truncate(true).open(path).map_err(write_error)?;
        file.write_all(&expected.to_bytes()).map_err(write_error)?;
        return Ok((file, None));
    }
    let point = scan_for_append(path).map_err(AppendError::Damaged)?;
    let found = point.header;
    if found != *expected {
        return Err(AppendError::OtherSettings { path: path.to_path_buf(), found, expected: *expected });
    }
    let file = OpenOptions::new().append(true).open(path).map_err(write_error)?;
    if point.cut_bytes > 0 {
        file.set_len(point.keep_bytes)
            .map_err(|source| AppendError::Truncate { path: path.to_path_buf(), source })?;
        note(&format!(
            "note: {}: cut off {} bytes an interrupted run left ({} records of unfinished game {}{}); it is played again",
            path.display(),
            point.cut_bytes,
            point.cut_records,
            point.next_game,
            if point.cut_bytes % BLOCK as u64 != 0 { " and a partial record" } else { "" }
        ));
    }
    let shard = if found.shard.is_whole() { String::new() } else { format!(" (shard {})", found.shard) };
    note(&format!(
        "resuming {}{shard}: {} games played, {} positions already there",
        path.display(),
        found.shard.games_before(point.next_game),
        point.positions
    ));
    Ok((file, Some(point)))
}

/// Raises the stop flag if the thread holding it panics, so that the other workers stop rather
/// than play on while the game the panicking one held never comes.
pub(super) struct StopOnPanic<'a>(pub(super) &'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

fn reached(target: Target, p: &Progress) -> bool {
    match target {
        Target::Games(n) => p.file_games >= n,
        Target::Positions(n) => p.file_positions >= n,
    }
}

/// Plays games and appends their records to `path` until `target` holds, `cfg.concurrency`
/// games at a time. `note` gets the resume notes; `on_progress` the counts before the first
/// game and after each game written.
pub fn run(
    path: &Path,
    cfg: &DatagenConfig,
    target: Target,
    note: &mut dyn FnMut(&str),
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, RunError> {
    cfg.validate().map_err(SettingsError::Config)?;
    if cfg.keep_below > MAX_SCORE + 1 {
        return Err(SettingsError::KeepBelow(cfg.keep_below).into());
    }
    let shard = cfg.shard;
    // The shard's games that a record can number (u32).
    let numbered = shard.games_before(u32::MAX as u64 + 1);
    match target {
        Target::Games(0) | Target::Positions(0) => return Err(SettingsError::ZeroTarget.into()),
        Target::Games(n) if n > numbered => return Err(SettingsError::TooManyGames.into()),
        _ => {}
    }
    let expected = header(cfg)?;
    let started = Instant::now();
    // Games are counted within the shard: the `i`-th is game `shard.game(i)` of the run.
    let last = match target {
        Target::Games(n) => n,
        Target::Positions(_) => numbered,
    };
    // Every table is allocated before the file is touched and before the first game, so a size
    // that cannot be had is refused at once: no worker panics and no header-only file is left.
    let mut engines = (0..(cfg.concurrency as u64).clamp(1, last))
        .map(|_| Engine::try_new(cfg.hash_mb).map_err(RunError::Hash))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut file, resumed) = open_for_append(path, &expected, note)?;
    let mut progress = Progress::default();
    if let Some(point) = &resumed {
        progress.file_games = shard.games_before(point.next_game);
        progress.file_positions = point.positions;
    }
    if reached(target, &progress) {
        note(&format!("{} already meets the target: nothing to do", path.display()));
        return Ok(Summary { resumed, progress, elapsed: started.elapsed() });
    }
    on_progress(&progress);

    let first = progress.file_games;
    let next = AtomicU64::new(first);
    let stop = AtomicBool::new(false);
    // A resumed file may need fewer games than there are engines (at least one: `reached` said no).
    engines.truncate((last - first) as usize);
    // (the game's place in the shard, its records, the winner)
    let (tx, rx) = crossbeam_channel::unbounded::<(u64, Vec<u8>, Option<Color>)>();
    let result = std::thread::scope(|scope| {
        for mut engine in engines {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let _guard = StopOnPanic(stop);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= last || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = shard.game(i);
                    let Some(played) = play(&mut engine, cfg, game, stop, Record::new) else { break };
                    let bytes = finish_game(played.kept, game as u32, played.end, played.winner);
                    if tx.send((i, bytes, played.winner)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let outcome = (|| -> Result<(), AppendError> {
            for (i, bytes, winner) in rx.iter() {
                waiting.insert(i, (bytes, winner));
                while let Some((bytes, winner)) = waiting.remove(&progress.file_games) {
                    // One write per game: an interruption leaves whole games and at most one
                    // partial game, which the next run cuts off.
                    file.write_all(&bytes)
                        .and_then(|()| file.flush())
                        .map_err(|source| AppendError::Write { path: path.to_path_buf(), source })?;
                    let positions = (bytes.len() / BLOCK) as u64;
                    progress.file_games += 1;
                    progress.file_positions += positions;
                    progress.games += 1;
                    progress.positions += positions;
                    match winner {
                        Some(Color::Red) => progress.red_wins += 1,
                        Some(Color::Black) => progress.black_wins += 1,
                        None => progress.draws += 1,
                    }
                    on_progress(&progress);
                    if reached(target, &progress) {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::SeqCst);
        outcome
    });
    result?;
    Ok(Summary { resumed, progress, elapsed: started.elapsed() })
}
