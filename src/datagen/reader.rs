//! Reading scored data files (`datagen::format`): a streaming reader that hands out records in
//! chunks, checking every block as it goes, and the scan `scored` runs before it appends.
//!
//! Besides each record alone, the reader checks the order within a shard: games in increasing
//! number (each of them the shard's, for a shard of a split run), plies increasing within a
//! game, and a game's last record (flagged) before the next game starts. A trailing game without its last record (an interrupted write) is accepted:
//! its records are complete and correctly labelled; `scored` cuts it off before appending.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::format::{Header, Record, BLOCK};
use super::shard::Shard;

/// What is wrong with a data file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// The file's name, as given.
    pub file: String,
    /// The byte offset of the block at fault.
    pub offset: u64,
    /// The position record at fault, counted from 0 in file order (headers are not counted);
    /// `None` when a header is at fault.
    pub record: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.record {
            Some(r) => write!(
                f,
                "data file {}: record {r} at byte offset {}: {}",
                self.file, self.offset, self.message
            ),
            None => write!(f, "data file {}: byte offset {}: {}", self.file, self.offset, self.message),
        }
    }
}

impl std::error::Error for DataError {}

/// A record out of the order of games within a shard (the reader gives it as a `DataError`'s
/// message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SequenceError {
    /// A record of a game after the record flagged as that game's last.
    AfterLast {
        /// The game.
        game: u32,
    },
    /// A ply not after the ply before it in the same game.
    Ply {
        /// The game.
        game: u32,
        /// The record's ply.
        ply: u16,
        /// The ply of the record before.
        last: u16,
    },
    /// A game numbered below the game before it.
    Game {
        /// The record's game.
        game: u32,
        /// The game before.
        last: u32,
    },
    /// A game starting before the game before it had its last record.
    Unfinished {
        /// The game starting.
        game: u32,
        /// The unfinished game.
        last: u32,
    },
    /// A game that is not one of the shard's (whose header says which games it holds).
    OtherShard {
        /// The game.
        game: u32,
        /// The shard.
        shard: Shard,
    },
}

impl fmt::Display for SequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SequenceError::AfterLast { game } => write!(f, "game {game} goes on after its last record"),
            SequenceError::Ply { game, ply, last } => {
                write!(f, "ply {ply} of game {game} follows ply {last}")
            }
            SequenceError::Game { game, last } => write!(f, "game {game} follows game {last}"),
            SequenceError::Unfinished { game, last } => {
                write!(f, "game {game} starts before game {last} has its last record")
            }
            SequenceError::OtherShard { game, shard } => write!(
                f,
                "game {game} is not one of shard {shard}'s (its games are numbered {} mod {})",
                shard.index() - 1,
                shard.count()
            ),
        }
    }
}

impl std::error::Error for SequenceError {}

/// Bytes the reader asks the file for at a time.
const READ_BUFFER: usize = 1 << 20;

/// Where the reader stands in the game sequence of the current shard.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Sequence {
    game: u32,
    ply: u16,
    ended: bool,
}

/// Reads a data file (one shard or several concatenated) record by record, in chunks.
pub struct DataReader<R: Read> {
    src: R,
    name: String,
    /// Byte offset of the next block.
    offset: u64,
    /// Records read so far.
    records: u64,
    /// The header of the shard the last records came from.
    header: Header,
    /// A header met while filling a chunk: it starts the next chunk's shard.
    pending: Option<Header>,
    /// Every shard header met so far.
    headers: Vec<Header>,
    /// The shard (index into `headers`) the last chunk came from.
    shard: usize,
    last: Option<Sequence>,
    /// The number and byte offset of the last chunk's first record.
    chunk_start: (u64, u64),
}

/// Opens `path` (called `name` in errors) for reading.
fn open_file(path: &Path, name: &str) -> Result<File, DataError> {
    crate::input_file::open(path).map_err(|e| DataError {
        file: name.to_string(),
        offset: 0,
        record: None,
        message: format!("cannot open: {e}"),
    })
}

impl DataReader<BufReader<File>> {
    /// Opens a data file and checks its header.
    pub fn open(path: &Path) -> Result<Self, DataError> {
        let name = path.display().to_string();
        let file = open_file(path, &name)?;
        DataReader::new(BufReader::with_capacity(READ_BUFFER, file), &name)
    }
}

/// Reads into `buf` until it is full or the source ends; returns the bytes read.
fn read_full(src: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match src.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// One block as read: a header, a record, or the end of the data.
enum Block {
    Header(Header),
    Record(Record),
    End,
}

impl<R: Read> DataReader<R> {
    /// A reader of `src` (named `name` in errors); reads and checks the first header. Give it
    /// a buffered source: it reads 40 bytes at a time.
    pub fn new(src: R, name: &str) -> Result<Self, DataError> {
        let mut reader = DataReader {
            src,
            name: name.to_string(),
            offset: 0,
            records: 0,
            header: Header::whole(0, 0, 0),
            pending: None,
            headers: Vec::new(),
            shard: 0,
            last: None,
            chunk_start: (0, 0),
        };
        match reader.block()? {
            Block::Header(h) => reader.header = h,
            Block::End => return Err(reader.error(0, None, "empty file (no header)".to_string())),
            Block::Record(_) => unreachable!("the first block is read as a header"),
        }
        Ok(reader)
    }

    fn error(&self, offset: u64, record: Option<u64>, message: String) -> DataError {
        DataError { file: self.name.clone(), offset, record, message }
    }

    /// Reads and checks the next block.
    fn block(&mut self) -> Result<Block, DataError> {
        let mut bytes = [0u8; BLOCK];
        let offset = self.offset;
        let read = read_full(&mut self.src, &mut bytes)
            .map_err(|e| self.error(offset, None, format!("cannot read: {e}")))?;
        if read == 0 {
            return Ok(Block::End);
        }
        let first = offset == 0;
        let record = (!first).then_some(self.records);
        if read < BLOCK {
            let what = if first { "truncated header" } else { "truncated last record" };
            return Err(self.error(offset, record, format!("{what}: {read} of {BLOCK} bytes")));
        }
        self.offset += BLOCK as u64;
        if first || Header::is_header(&bytes) {
            let header = Header::from_bytes(&bytes).map_err(|e| self.error(offset, None, e.to_string()))?;
            self.headers.push(header);
            self.last = None;
            return Ok(Block::Header(header));
        }
        let rec = Record::from_bytes(bytes);
        rec.validate().map_err(|e| self.error(offset, record, e.to_string()))?;
        self.check_sequence(&rec).map_err(|e| self.error(offset, record, e.to_string()))?;
        self.records += 1;
        Ok(Block::Record(rec))
    }

    fn check_sequence(&mut self, rec: &Record) -> Result<(), SequenceError> {
        let now = Sequence { game: rec.game(), ply: rec.ply(), ended: rec.last_of_game() };
        let shard = self.headers.last().map_or(Shard::WHOLE, |h| h.shard);
        if !shard.owns(now.game as u64) {
            return Err(SequenceError::OtherShard { game: now.game, shard });
        }
        if let Some(last) = self.last {
            if now.game == last.game && (last.ended || now.ply <= last.ply) {
                return Err(if last.ended {
                    SequenceError::AfterLast { game: now.game }
                } else {
                    SequenceError::Ply { game: now.game, ply: now.ply, last: last.ply }
                });
            }
            if now.game < last.game {
                return Err(SequenceError::Game { game: now.game, last: last.game });
            }
            if now.game > last.game && !last.ended {
                return Err(SequenceError::Unfinished { game: now.game, last: last.game });
            }
        }
        self.last = Some(now);
        Ok(())
    }

    /// Appends up to `max` records to `out` and returns how many (0 at the end of the data).
    /// A chunk never spans two shards, so `header` describes all of it.
    pub fn read_chunk(&mut self, out: &mut Vec<Record>, max: usize) -> Result<usize, DataError> {
        if let Some(h) = self.pending.take() {
            self.header = h;
            self.shard += 1;
        }
        let mut n = 0;
        while n < max {
            match self.block()? {
                Block::End => break,
                Block::Header(h) if n == 0 => {
                    self.header = h;
                    self.shard += 1;
                }
                Block::Header(h) => {
                    self.pending = Some(h);
                    break;
                }
                Block::Record(r) => {
                    if n == 0 {
                        self.chunk_start = (self.records - 1, self.offset - BLOCK as u64);
                    }
                    out.push(r);
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// The header of the shard the last chunk came from (the first header before any chunk).
    pub fn header(&self) -> Header {
        self.header
    }

    /// The record number and byte offset of the last chunk's first record (its records follow
    /// each other, 40 bytes apart).
    pub fn chunk_start(&self) -> (u64, u64) {
        self.chunk_start
    }

    /// Records read so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Every shard header met so far, in file order (one for a file as `datagen` writes it).
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// The shard the last chunk came from: an index into `headers`.
    pub fn shard(&self) -> usize {
        self.shard
    }

    /// Whether the last record read ended its game (false for an interrupted trailing game).
    pub fn last_game_complete(&self) -> bool {
        self.last.is_none_or(|s| s.ended)
    }
}

/// Every record of a data file, checked. 40 bytes of memory a position.
pub fn read_all(path: &Path) -> Result<Vec<Record>, DataError> {
    let mut reader = DataReader::open(path)?;
    let mut records = Vec::new();
    while reader.read_chunk(&mut records, 1 << 16)? > 0 {}
    Ok(records)
}

/// What `scan_for_append` found in a file a run is about to append to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppendPoint {
    /// The file's header.
    pub header: Header,
    /// Bytes up to the end of the last complete game: the file is cut here before appending.
    pub keep_bytes: u64,
    /// The bytes after that (a partial game, a partial record, or both).
    pub cut_bytes: u64,
    /// Records of the partial game cut off.
    pub cut_records: u64,
    /// The number of the game to play next (the shard's next game, for a shard).
    pub next_game: u64,
    /// Records in the complete games.
    pub positions: u64,
}

/// Reads a whole single-shard file and finds where appending resumes: after the last record
/// flagged as its game's last. A partial record or a partial game after it is an interrupted
/// write, not damage; anything else wrong, or a second shard, is refused.
pub fn scan_for_append(path: &Path) -> Result<AppendPoint, DataError> {
    let name = path.display().to_string();
    let file = open_file(path, &name)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len < BLOCK as u64 {
        let message = format!("truncated header: {len} of {BLOCK} bytes");
        return Err(DataError { file: name, offset: 0, record: None, message });
    }
    let whole = len - len % BLOCK as u64;
    // Read only whole blocks: a trailing partial record is cut, not refused.
    let mut reader = DataReader::new(BufReader::with_capacity(READ_BUFFER, file.take(whole)), &name)?;
    let header = reader.header();
    let mut point = AppendPoint {
        header,
        keep_bytes: BLOCK as u64,
        cut_bytes: 0,
        cut_records: 0,
        next_game: header.shard.game(0),
        positions: 0,
    };
    let mut chunk = Vec::with_capacity(1 << 16);
    loop {
        chunk.clear();
        let start = reader.records_read();
        let read = reader.read_chunk(&mut chunk, 1 << 16)?;
        if reader.headers().len() > 1 {
            return Err(DataError {
                file: name,
                offset: 0,
                record: None,
                message: "holds several shards (concatenated files): append to a single shard".to_string(),
            });
        }
        if read == 0 {
            break;
        }
        for (i, rec) in chunk.iter().enumerate() {
            if rec.last_of_game() {
                point.positions = start + i as u64 + 1;
                point.keep_bytes = BLOCK as u64 * (point.positions + 1);
                point.next_game = rec.game() as u64 + header.shard.count() as u64;
            }
        }
    }
    point.cut_bytes = len - point.keep_bytes;
    point.cut_records = reader.records_read() - point.positions;
    Ok(point)
}
