//! `datagen rescore`: a data file's positions searched again, deeper or with another
//! evaluation. The output holds the same records (board, game, ply, result, how the game ended)
//! with the new search's score and best move, so that two nets trained on the two files differ
//! only in the labels' search.
//!
//! A game's positions are searched in order by one engine whose tables are cleared before the
//! game, so the output is a function of the input and the settings alone, however many games
//! run at once. The output is written a whole game at a time and resumed after an interruption:
//! what is there must be the rescore of the input's first games, with this run's settings.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::binary::{fnv1a64, fnv1a64_parts};
use crate::eval::nnue::format as net_file;
use crate::eval::EvalChoice;
use crate::search::{Engine, HashError, Limits, SearchControl};

use super::format::{Header, Record, BLOCK};
use super::reader::{scan_for_append, DataError, DataReader};
use super::scored::{AppendError, StopOnPanic};

/// How the positions are searched again.
#[derive(Clone, Debug)]
pub struct RescoreConfig {
    /// Search at most this many plies (`None`: no depth limit).
    pub depth: Option<i32>,
    /// Search at most this many nodes (`None`: no node limit).
    pub nodes: Option<u64>,
    /// Deepen no further once an iteration ends past this many nodes.
    pub soft_nodes: Option<u64>,
    /// Games searched at once (one engine each).
    pub concurrency: usize,
    /// Each engine's hash table, in megabytes (cleared before every game).
    pub hash_mb: usize,
    /// The evaluation the searches use.
    pub eval: EvalChoice,
    /// Stop once the output holds at least this many positions (after a whole game).
    pub positions: Option<u64>,
}

impl RescoreConfig {
    /// The limits of each search.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            soft_nodes: self.soft_nodes,
            multipv: 1,
            ..Limits::default()
        }
    }
}

/// Why a rescore stopped short or never started.
#[derive(Debug)]
pub enum RescoreError {
    /// Neither a depth nor a node limit: every search would run for ever.
    Unlimited,
    /// A node limit the header cannot hold, or no search thread.
    Settings(String),
    /// The input is unreadable or damaged.
    Input(DataError),
    /// The input holds several shards (concatenated files).
    SeveralShards(PathBuf),
    /// The input and the output are one file.
    SameFile(PathBuf),
    /// The output cannot be written, or is damaged.
    Output(AppendError),
    /// The output holds a rescore made with other settings or from another run.
    OtherSettings(PathBuf),
    /// The output's games are not the rescore of the input's first games.
    NotFromInput {
        /// The output.
        output: PathBuf,
        /// The input.
        input: PathBuf,
        /// The output's positions.
        positions: u64,
    },
    /// The hash tables cannot be had.
    Hash(HashError),
}

impl fmt::Display for RescoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RescoreError::Unlimited => write!(f, "give the searches a limit: --depth, --nodes or --soft-nodes"),
            RescoreError::Settings(message) => f.write_str(message),
            RescoreError::Input(e) => e.fmt(f),
            RescoreError::SeveralShards(path) => write!(
                f,
                "{} holds several shards (concatenated files): rescore one run or shard at a time",
                path.display()
            ),
            RescoreError::SameFile(path) => {
                write!(f, "{} is both the input and the output: write the rescore to another file", path.display())
            }
            RescoreError::Output(e) => e.fmt(f),
            RescoreError::OtherSettings(path) => write!(
                f,
                "{} holds a rescore with other settings or of another run: resume it with the input, limits, hash and \
                 evaluation it was begun with, or write to another file",
                path.display()
            ),
            RescoreError::NotFromInput { output, input, positions } => write!(
                f,
                "{} is not a rescore of {}: its first {positions} positions are not the input's (resume with the input it was made from, or write to another file)",
                output.display(),
                input.display()
            ),
            RescoreError::Hash(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RescoreError {}

/// The output's header: the input's seed and shard, the hard node limit, and a fingerprint of the
/// input's settings and of this rescore's (a rescore is never mistaken for its input's run).
pub fn header(input: &Header, cfg: &RescoreConfig) -> Result<Header, RescoreError> {
    let nodes = cfg.nodes.unwrap_or(0);
    let nodes = u32::try_from(nodes)
        .map_err(|_| RescoreError::Settings(format!("nodes {nodes} is beyond {}", u32::MAX)))?;
    let eval = match &cfg.eval {
        EvalChoice::Classic => "classic".to_string(),
        EvalChoice::Nnue(net) => format!("net={:016x}", fnv1a64(&net_file::to_bytes(net))),
    };
    let text = format!(
        "rescore;depth={:?};nodes={:?};soft_nodes={:?};hash_mb={};{eval}",
        cfg.depth, cfg.nodes, cfg.soft_nodes, cfg.hash_mb
    );
    let settings = fnv1a64_parts(&[&input.to_bytes(), text.as_bytes()]);
    Ok(Header { seed: input.seed, nodes, settings, shard: input.shard })
}

/// Where a rescore stands, after each game it writes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RescoreProgress {
    /// Positions in the output.
    pub file_positions: u64,
    /// Games this run searched.
    pub games: u64,
    /// Positions this run searched.
    pub positions: u64,
    /// The sum over this run's positions of |new score − old score|.
    pub score_change: u64,
    /// This run's positions whose best move changed.
    pub best_changed: u64,
}

/// What a rescore did.
#[derive(Clone, Debug)]
pub struct RescoreSummary {
    /// The output's positions before this run (0 for a new file).
    pub resumed_positions: u64,
    /// The counts at the end.
    pub progress: RescoreProgress,
    /// Whether the output now holds every complete game of the input.
    pub complete: bool,
    /// Time spent.
    pub elapsed: Duration,
}

/// Opens the output: a new file gets its header; an existing one must have `expected`, and is cut
/// back to its last whole game. Returns the file, its positions and its last record.
fn open_output(
    path: &Path,
    expected: &Header,
    note: &mut dyn FnMut(&str),
) -> Result<(File, u64, Option<Record>), RescoreError> {
    let write_error = |source| RescoreError::Output(AppendError::Write { path: path.to_path_buf(), source });
    let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if existing == 0 {
        let mut file =
            OpenOptions::new().write(true).create(true).truncate(true).open(path).map_err(write_error)?;
        file.write_all(&expected.to_bytes()).map_err(write_error)?;
        return Ok((file, 0, None));
    }
    let point = scan_for_append(path).map_err(|e| RescoreError::Output(AppendError::Damaged(e)))?;
    if point.header != *expected {
        return Err(RescoreError::OtherSettings(path.to_path_buf()));
    }
    let mut file = OpenOptions::new().read(true).append(true).open(path).map_err(write_error)?;
    if point.cut_bytes > 0 {
        file.set_len(point.keep_bytes).map_err(|source| {
            RescoreError::Output(AppendError::Truncate { path: path.to_path_buf(), source })
        })?;
        note(&format!(
            "note: {}: cut off {} bytes an interrupted run left; that game is searched again",
            path.display(),
            point.cut_bytes
        ));
    }
    let last = if point.positions > 0 {
        let mut bytes = [0u8; BLOCK];
        file.seek(SeekFrom::Start(point.keep_bytes - BLOCK as u64))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(write_error)?;
        Some(Record::from_bytes(bytes))
    } else {
        None
    };
    note(&format!("resuming {}: {} positions already there", path.display(), point.positions));
    Ok((file, point.positions, last))
}

/// Reads the input's games after its first `skip` positions (the last of which must be
/// `last_skipped`: the last record of `output`) in order and hands each to `send` with its place.
/// Returns the games handed over when it reached the input's end (`None`: it stopped because
/// `send` said so or `stop` was raised). Records after the last complete game are left.
fn read_games(
    input: &Path,
    output: &Path,
    skip: u64,
    last_skipped: Option<Record>,
    stop: &AtomicBool,
    send: &mut dyn FnMut(u64, Vec<Record>) -> bool,
) -> Result<Option<u64>, RescoreError> {
    let not_from_input = || RescoreError::NotFromInput {
        output: output.to_path_buf(),
        input: input.to_path_buf(),
        positions: skip,
    };
    let mut reader = DataReader::open(input).map_err(RescoreError::Input)?;
    let mut chunk = Vec::with_capacity(1 << 14);
    let mut game = Vec::new();
    let mut index = 0u64;
    let mut place = 0u64;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        chunk.clear();
        let read = reader.read_chunk(&mut chunk, 1 << 14).map_err(RescoreError::Input)?;
        if reader.headers().len() > 1 {
            return Err(RescoreError::SeveralShards(input.to_path_buf()));
        }
        if read == 0 {
            if index < skip {
                return Err(not_from_input());
            }
            return Ok(Some(place));
        }
        for rec in chunk.drain(..) {
            index += 1;
            if index <= skip {
                if index == skip
                    && last_skipped.is_some_and(|out| !(out.same_position(&rec) && rec.last_of_game()))
                {
                    return Err(not_from_input());
                }
                continue;
            }
            let last = rec.last_of_game();
            game.push(rec);
            if last {
                if !send(place, std::mem::take(&mut game)) {
                    return Ok(None);
                }
                place += 1;
            }
        }
    }
}

/// Searches one game's positions again with `engine`.
fn rescore_game(
    engine: &mut Engine,
    limits: &Limits,
    game: &[Record],
    stop: &AtomicBool,
) -> Option<Vec<Record>> {
    engine.clear_hash();
    let control = SearchControl::new();
    let mut out = Vec::with_capacity(game.len());
    for rec in game {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        // The reader checked each record alone; a position the rules refuse keeps its label.
        let Ok(pos) = rec.to_position() else {
            out.push(*rec);
            continue;
        };
        control.start(false);
        let found = engine.search(&pos, limits, &control, &mut |_| {});
        out.push(match found.best {
            Some(best) => rec.with_search(found.score, best),
            None => *rec,
        });
    }
    Some(out)
}

/// Searches the positions of `input` again and writes them to `output`, resuming it if it holds
/// an interrupted rescore with the same settings. `note` gets the resume notes; `on_progress`
/// the counts before the first game and after each game written.
pub fn rescore(
    input: &Path,
    output: &Path,
    cfg: &RescoreConfig,
    note: &mut dyn FnMut(&str),
    on_progress: &mut dyn FnMut(&RescoreProgress),
) -> Result<RescoreSummary, RescoreError> {
    if cfg.depth.is_none() && cfg.nodes.is_none() && cfg.soft_nodes.is_none() {
        return Err(RescoreError::Unlimited);
    }
    if cfg.concurrency == 0 {
        return Err(RescoreError::Settings("at least one game at a time".to_string()));
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(input, output) {
        return Err(RescoreError::SameFile(output.to_path_buf()));
    }
    let input_header = DataReader::open(input).map_err(RescoreError::Input)?.header();
    let expected = header(&input_header, cfg)?;
    let started = Instant::now();
    let mut engines = (0..cfg.concurrency)
        .map(|_| {
            let mut engine = Engine::try_new(cfg.hash_mb).map_err(RescoreError::Hash)?;
            engine.options.eval = cfg.eval.clone();
            Ok(engine)
        })
        .collect::<Result<Vec<_>, RescoreError>>()?;
    let created = std::fs::metadata(output).map_or(true, |m| m.len() == 0);
    let (mut file, positions, last) = open_output(output, &expected, note)?;
    let mut progress = RescoreProgress { file_positions: positions, ..RescoreProgress::default() };
    let reached = |p: &RescoreProgress| cfg.positions.is_some_and(|n| p.file_positions >= n);
    if reached(&progress) {
        note(&format!(
            "{} already holds {} positions: nothing to do",
            output.display(),
            progress.file_positions
        ));
        return Ok(RescoreSummary {
            resumed_positions: positions,
            progress,
            complete: false,
            elapsed: started.elapsed(),
        });
    }
    on_progress(&progress);

    let limits = cfg.limits();
    let stop = AtomicBool::new(false);
    let (jobs_tx, jobs_rx) = crossbeam_channel::bounded::<(u64, Vec<Record>)>(4 * cfg.concurrency);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<(u64, Vec<Record>, Vec<Record>)>();
    let write_error =
        |source| RescoreError::Output(AppendError::Write { path: output.to_path_buf(), source });
    let outcome = std::thread::scope(|scope| {
        let stop = &stop;
        let reader = scope.spawn(move || {
            let _guard = StopOnPanic(stop);
            let result = read_games(input, output, positions, last, stop, &mut |place, game| {
                jobs_tx.send((place, game)).is_ok()
            });
            if result.is_err() {
                stop.store(true, Ordering::SeqCst);
            }
            result
        });
        for mut engine in engines.drain(..) {
            let (jobs_rx, done_tx, limits) = (jobs_rx.clone(), done_tx.clone(), &limits);
            scope.spawn(move || {
                let _guard = StopOnPanic(stop);
                for (place, game) in jobs_rx.iter() {
                    let Some(new) = rescore_game(&mut engine, limits, &game, stop) else { break };
                    if done_tx.send((place, game, new)).is_err() {
                        break;
                    }
                }
            });
        }
        drop((jobs_rx, done_tx));
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        let written = (|| -> Result<(), RescoreError> {
            for (place, old, new) in done_rx.iter() {
                waiting.insert(place, (old, new));
                while let Some((old, new)) = waiting.remove(&next) {
                    let bytes: Vec<u8> = new.iter().flat_map(|r| *r.as_bytes()).collect();
                    // One write per game: an interruption leaves at most one partial game, which
                    // the next run cuts off.
                    file.write_all(&bytes).and_then(|()| file.flush()).map_err(write_error)?;
                    next += 1;
                    progress.games += 1;
                    progress.file_positions += new.len() as u64;
                    progress.positions += new.len() as u64;
                    for (o, n) in old.iter().zip(&new) {
                        progress.score_change += (o.score() as i32 - n.score() as i32).unsigned_abs() as u64;
                        progress.best_changed += u64::from(o.best_squares() != n.best_squares());
                    }
                    on_progress(&progress);
                    if reached(&progress) {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::SeqCst);
        // Unblocks a reader waiting to hand over a game.
        drop(done_rx);
        let read = reader.join().unwrap_or(Ok(None));
        written?;
        Ok::<bool, RescoreError>(read? == Some(progress.games))
    });
    let complete = match outcome {
        Ok(complete) => complete,
        Err(e) => {
            // A file this run began and wrote no game to would be an empty rescore of nothing.
            if created && progress.file_positions == 0 {
                drop(file);
                let _ = std::fs::remove_file(output);
            }
            return Err(e);
        }
    };
    Ok(RescoreSummary { resumed_positions: positions, progress, complete, elapsed: started.elapsed() })
}
