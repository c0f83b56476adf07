//! Merging the shard files of one run (`datagen --scored --shard K/N`) into one file.
//!
//! The inputs must be shards of the same run (the same seed, nodes, settings fingerprint and
//! number of shards), every shard of it present, each file well formed and ending with a whole
//! game (a file an interrupted run left is refused: resume it first), and no game in two files.
//! The games are written in the order of their numbers, under one whole-run header: the merge
//! of shards that played the same games as one process is that process's file, byte for byte.
//! The output is written to a temporary file beside it and renamed into place once complete, so
//! a refused merge leaves no file; an output that is one of the inputs is refused before
//! anything is read.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::format::{Header, Record};
use super::reader::{DataError, DataReader};
use super::shard::Shard;
use crate::files;

/// Records asked of a reader at a time.
const CHUNK: usize = 1 << 14;

/// Why a merge was refused.
#[derive(Debug)]
pub enum MergeError {
    /// No input files.
    NoInputs,
    /// The output is one of the inputs.
    OutputIsInput {
        /// The output, as given.
        output: PathBuf,
        /// The input it is, as given.
        input: PathBuf,
    },
    /// An input cannot be read or is damaged (truncated, a bad record, out of order).
    Read(DataError),
    /// An input holds several shards (a concatenation of files).
    SeveralShards {
        /// The file.
        file: String,
    },
    /// An input ends in a game without its last record: an interrupted run.
    Unfinished {
        /// The file.
        file: String,
        /// The unfinished game.
        game: u32,
    },
    /// Two inputs are not shards of the same run.
    OtherRun {
        /// The first input.
        first: String,
        /// Its header.
        first_header: Header,
        /// The input that differs.
        file: String,
        /// Its header.
        header: Header,
    },
    /// Shards of the run are not among the inputs.
    MissingShards {
        /// The shards missing.
        missing: Vec<Shard>,
    },
    /// A game is in two inputs.
    DuplicateGame {
        /// The game's number.
        game: u32,
        /// One input holding it.
        first: String,
        /// The other.
        second: String,
    },
    /// The output cannot be written.
    Write {
        /// The output.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
}

/// A header as the messages give it.
fn describe(h: &Header) -> String {
    format!("seed {}, nodes {}, settings {:016x}, shard {}", h.seed, h.nodes, h.settings, h.shard)
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoInputs => write!(f, "no data files to merge"),
            MergeError::OutputIsInput { output, input } => write!(
                f,
                "the output {} is the input {}: write the merge to another file",
                output.display(),
                input.display()
            ),
            MergeError::Read(e) => e.fmt(f),
            MergeError::SeveralShards { file } => write!(
                f,
                "data file {file} holds several shards (concatenated files): merge the shard files themselves"
            ),
            MergeError::Unfinished { file, game } => write!(
                f,
                "data file {file} ends in unfinished game {game} (an interrupted run): resume it with the \
                 command that made it, then merge"
            ),
            MergeError::OtherRun { first, first_header, file, header } => write!(
                f,
                "{file} is not a shard of the run {first} is ({file}: {}; {first}: {}): the shards of a run \
                 share the seed, nodes, settings and number of shards",
                describe(header),
                describe(first_header)
            ),
            MergeError::MissingShards { missing } => {
                let names: Vec<String> = missing.iter().take(10).map(|s| s.to_string()).collect();
                let more = if missing.len() > names.len() {
                    format!(" and {} more", missing.len() - names.len())
                } else {
                    String::new()
                };
                write!(
                    f,
                    "shard{} {}{more} of the run {} missing: a merge takes every shard (the trainer reads \
                     shard files as they are)",
                    if missing.len() == 1 { "" } else { "s" },
                    names.join(", "),
                    if missing.len() == 1 { "is" } else { "are" }
                )
            }
            MergeError::DuplicateGame { game, first, second } => {
                write!(f, "game {game} is in both {first} and {second}: the same games twice")
            }
            MergeError::Write { path, source } => write!(f, "cannot write {}: {source}", path.display()),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<DataError> for MergeError {
    fn from(e: DataError) -> Self {
        MergeError::Read(e)
    }
}

/// What a merge wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSummary {
    /// The output's header (a whole run's).
    pub header: Header,
    /// The shards merged (the inputs' number of shards).
    pub shards: u16,
    /// Input files.
    pub files: usize,
    /// Games written (those that kept a position).
    pub games: u64,
    /// Records written.
    pub records: u64,
}

/// Whether two paths name the same file (the output only when it exists).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// One input, read a game at a time.
struct Input {
    name: String,
    reader: DataReader<BufReader<File>>,
    chunk: Vec<Record>,
    next: usize,
}

impl Input {
    /// Reads the next game's records into `game` (cleared first); `None` at the end.
    fn next_game(&mut self, game: &mut Vec<Record>) -> Result<Option<u32>, MergeError> {
        game.clear();
        loop {
            if self.next == self.chunk.len() {
                self.chunk.clear();
                self.next = 0;
                let read = self.reader.read_chunk(&mut self.chunk, CHUNK)?;
                if self.reader.headers().len() > 1 {
                    return Err(MergeError::SeveralShards { file: self.name.clone() });
                }
                if read == 0 {
                    return match game.first() {
                        None => Ok(None),
                        Some(rec) => {
                            Err(MergeError::Unfinished { file: self.name.clone(), game: rec.game() })
                        }
                    };
                }
            }
            let rec = self.chunk[self.next];
            self.next += 1;
            // The reader checked the order: a game's records come together, its last one flagged.
            game.push(rec);
            if rec.last_of_game() {
                return Ok(Some(rec.game()));
            }
        }
    }
}

/// Checks that `inputs` are the shards of one run and merges them into `output`, games in
/// the order of their numbers under a whole-run header. Refused with the first fault found;
/// then `output` is left as it was.
pub fn merge(inputs: &[PathBuf], output: &Path) -> Result<MergeSummary, MergeError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs);
    }
    if let Some(input) = inputs.iter().find(|i| same_file(i, output)) {
        return Err(MergeError::OutputIsInput { output: output.to_path_buf(), input: input.clone() });
    }
    let mut open = Vec::with_capacity(inputs.len());
    for path in inputs {
        let reader = DataReader::open(path)?;
        open.push(Input { name: path.display().to_string(), reader, chunk: Vec::new(), next: 0 });
    }
    let first = open[0].reader.header();
    for input in &open[1..] {
        let h = input.reader.header();
        let same_run = (h.seed, h.nodes, h.settings, h.shard.count())
            == (first.seed, first.nodes, first.settings, first.shard.count());
        if !same_run {
            return Err(MergeError::OtherRun {
                first: open[0].name.clone(),
                first_header: first,
                file: input.name.clone(),
                header: h,
            });
        }
    }
    let count = first.shard.count();
    let present: std::collections::HashSet<Shard> = open.iter().map(|i| i.reader.header().shard).collect();
    let missing: Vec<Shard> = (1..=count as u64)
        .map(|k| Shard::new(k, count as u64).expect("1 ≤ k ≤ count"))
        .filter(|s| !present.contains(s))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::MissingShards { missing });
    }
    let header = Header::whole(first.seed, first.nodes, first.settings);

    /// A failure while the temporary file is written: the system's, or the merge's own.
    enum Failed {
        Io(io::Error),
        Merge(MergeError),
    }
    impl From<io::Error> for Failed {
        fn from(e: io::Error) -> Self {
            Failed::Io(e)
        }
    }
    impl From<MergeError> for Failed {
        fn from(e: MergeError) -> Self {
            Failed::Merge(e)
        }
    }

    let mut summary = MergeSummary { header, shards: count, files: inputs.len(), games: 0, records: 0 };
    let written = files::replace_with(output, |file| -> Result<(), Failed> {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(&header.to_bytes())?;
        // Each input's next game, and the heap of (game number, input) to take the lowest from.
        let mut games: Vec<Vec<Record>> = vec![Vec::new(); open.len()];
        let mut heap = BinaryHeap::new();
        for (i, input) in open.iter_mut().enumerate() {
            if let Some(game) = input.next_game(&mut games[i])? {
                heap.push(Reverse((game, i)));
            }
        }
        while let Some(Reverse((game, i))) = heap.pop() {
            // Each input's games increase: a game in two inputs is at the head of both at once.
            if let Some(&Reverse((other, j))) = heap.peek() {
                if other == game {
                    let (a, b) = (i.min(j), i.max(j));
                    return Err(MergeError::DuplicateGame {
                        game,
                        first: open[a].name.clone(),
                        second: open[b].name.clone(),
                    }
                    .into());
                }
            }
            for rec in &games[i] {
                out.write_all(rec.as_bytes())?;
            }
            summary.games += 1;
            summary.records += games[i].len() as u64;
            if let Some(next) = open[i].next_game(&mut games[i])? {
                heap.push(Reverse((next, i)));
            }
        }
        out.flush()?;
        Ok(())
    });
    match written {
        Ok(()) => Ok(summary),
        Err(Failed::Merge(e)) => Err(e),
        Err(Failed::Io(source)) => Err(MergeError::Write { path: output.to_path_buf(), source }),
    }
}
