//! The scored training data format: 40-byte blocks, a header block then one record block per
//! position (docs/datagen.md gives it byte by byte). Shards written with different seeds can be
//! concatenated: a header block is never a valid record, so a reader recognises each shard's
//! header where it starts.
//!
//! A file of a whole run has a version 1 header, as every build wrote; a shard of a run
//! (`--shard K/N`) has a version 2 header, which also holds K and N. A merge of all the shards
//! of a run is a whole run again, with a version 1 header.
//!
//! A record holds the board (a 90-bit occupancy map and a 4-bit code per piece), the side to
//! move, the search score and the game result (both from the side to move's view), how the game
//! ended, the best move, and the game number and ply it came from. `Record::validate` checks
//! one record alone and cheaply enough to run on every record read; `Record::to_position`
//! checks everything the rules require (through the FEN parser) and that the best move is legal.

use std::fmt::{self, Write as _};

use crate::binary::{fnv1a32, u16_at, u32_at, u64_at, FieldWriter};
use crate::board::fen::reachable;
use crate::board::{movegen, Color, FenError, Move, PieceKind, Position, Square};

use super::games::GameEnd;
use super::shard::Shard;

/// Bytes in a header and in a record.
pub const BLOCK: usize = 40;
/// What every header starts with. Its last byte sets bits of the occupancy map past square 89,
/// so a header is never mistaken for a record.
pub const MAGIC: [u8; 12] = *b"chariot-data";
/// The newest format version this build writes and reads: 2 for a shard's header (which holds
/// the shard), 1 for a whole run's (`Header::version`).
pub const VERSION: u16 = 2;
/// The largest score a record may hold (larger ones are mates or rule wins, never kept).
pub const MAX_SCORE: i32 = 10_000;
/// Squares of the board; the format numbers them `rank * 9 + file` (a0 = 0, i9 = 89).
pub const SQUARES: usize = 90;

const OCCUPANCY: usize = 0; // 12 bytes
const PIECES: usize = 12; // 16 bytes, 32 nibbles
const SCORE: usize = 28; // i16
const RESULT: usize = 30; // u8
const FLAGS: usize = 31; // u8
const PLY: usize = 32; // u16
const BEST_FROM: usize = 34; // u8
const BEST_TO: usize = 35; // u8
const GAME: usize = 36; // u32

const FLAG_BLACK_TO_MOVE: u8 = 1;
const FLAG_LAST_OF_GAME: u8 = 2;
const END_SHIFT: u8 = 2;
const END_MASK: u8 = 0b0011_1100;
const FLAG_RESERVED: u8 = 0b1100_0000;

/// The format's number of `sq` (0..90).
pub fn square_index(sq: Square) -> usize {
    sq.rank() as usize * 9 + sq.file() as usize
}

/// The square the format numbers `index` (0..90).
pub fn square_at(index: usize) -> Square {
    debug_assert!(index < SQUARES);
    Square::new((index % 9) as u8, (index / 9) as u8)
}

/// The 4-bit code of a piece: 1..=7 for Red's king, advisor, elephant, horse, rook, cannon and
/// pawn, 9..=15 for Black's; 0 and 8 are no piece.
pub fn piece_code(color: Color, kind: PieceKind) -> u8 {
    kind.index() as u8 + 1 + if color == Color::Black { 8 } else { 0 }
}

/// The colour and kind a piece code names, if it names one.
pub fn piece_of_code(code: u8) -> Option<(Color, PieceKind)> {
    let kind = *PieceKind::ALL.get(((code & 7) as usize).checked_sub(1)?)?;
    let color = if code & 8 != 0 { Color::Black } else { Color::Red };
    (code < 16).then_some((color, kind))
}

/// A game result from one side's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// That side lost.
    Loss = 0,
    /// A draw.
    Draw = 1,
    /// That side won.
    Win = 2,
}

impl Wdl {
    /// The result for `side` of a game `winner` won (`None`: a draw).
    pub fn for_side(side: Color, winner: Option<Color>) -> Wdl {
        match winner {
            None => Wdl::Draw,
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }

    /// 0.0, 0.5 or 1.0: the target of a win-probability loss.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The same result from the other side's view.
    pub fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// A data file's header: the settings its games were made with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// The seed: game `n` of this file is a function of (seed, n) and the settings.
    pub seed: u64,
    /// Nodes searched per move.
    pub nodes: u32,
    /// A fingerprint of every other setting that changes the games (`scored::fingerprint`).
    pub settings: u64,
    /// Which of the run's games the file holds (`Shard::WHOLE`: all of them).
    pub shard: Shard,
}

/// The 16-bit checksum of a version 2 header: the 32-bit FNV-1a folded in half (the shard took
/// the other two bytes).
fn fnv1a16(bytes: &[u8]) -> u16 {
    let sum = fnv1a32(bytes);
    (sum >> 16) as u16 ^ sum as u16
}

impl Header {
    /// The header of a whole run (no shard).
    pub fn whole(seed: u64, nodes: u32, settings: u64) -> Header {
        Header { seed, nodes, settings, shard: Shard::WHOLE }
    }

    /// The format version the header is written in: 1 for a whole run, as every build wrote
    /// (old builds still read such files), 2 for a shard.
    pub fn version(&self) -> u16 {
        if self.shard.is_whole() {
            1
        } else {
            2
        }
    }

    /// The header block.
    pub fn to_bytes(&self) -> [u8; BLOCK] {
        let mut b = FieldWriter::with_capacity(BLOCK);
        b.bytes(&MAGIC);
        b.u16(self.version());
        if self.shard.is_whole() {
            b.u16(BLOCK as u16);
            b.u64(self.seed);
            b.u32(self.nodes);
            b.u64(self.settings);
            let sum = fnv1a32(&b.0);
            b.u32(sum);
        } else {
            b.u16(self.shard.count());
            b.u64(self.seed);
            b.u32(self.nodes);
            b.u64(self.settings);
            b.u16(self.shard.index());
            let sum = fnv1a16(&b.0);
            b.u16(sum);
        }
        b.0.try_into().expect("a header is one block")
    }

    /// Whether a block starts with the magic (it is then a header, good or damaged).
    pub fn is_header(block: &[u8; BLOCK]) -> bool {
        block[..12] == MAGIC
    }

    /// Reads a header block; an error says what is wrong with it.
    pub fn from_bytes(b: &[u8; BLOCK]) -> Result<Header, HeaderError> {
        if !Header::is_header(b) {
            return Err(HeaderError::Magic(b[..12].try_into().expect("12 bytes")));
        }
        let (seed, nodes, settings) = (u64_at(b, 16), u32_at(b, 24), u64_at(b, 28));
        match u16_at(b, 12) {
            1 => {
                let size = u16_at(b, 14);
                if size as usize != BLOCK {
                    return Err(HeaderError::RecordSize(size));
                }
                if u32_at(b, 36) != fnv1a32(&b[..36]) {
                    return Err(HeaderError::Checksum);
                }
                Ok(Header::whole(seed, nodes, settings))
            }
            2 => {
                if u16_at(b, 38) != fnv1a16(&b[..38]) {
                    return Err(HeaderError::Checksum);
                }
                let (index, count) = (u16_at(b, 36), u16_at(b, 14));
                // 1 of 1 is written as version 1: one header, one encoding.
                let shard = Shard::new(index as u64, count as u64)
                    .ok()
                    .filter(|s| !s.is_whole())
                    .ok_or(HeaderError::Shard { index, count })?;
                Ok(Header { seed, nodes, settings, shard })
            }
            version => Err(HeaderError::Version(version)),
        }
    }
}

/// Why a header block was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// The block does not start with the magic (these are its first bytes).
    Magic([u8; 12]),
    /// A format version this build does not read.
    Version(u16),
    /// A record size other than `BLOCK`.
    RecordSize(u16),
    /// The header's bytes do not give its checksum.
    Checksum,
    /// A version 2 header whose shard is no shard of a split run (K, N).
    Shard {
        /// K.
        index: u16,
        /// N.
        count: u16,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::Magic(start) => write!(
                f,
                "bad magic: expected \"chariot-data\", found {} (not a Chariot data file)",
                crate::quote::quoted(&String::from_utf8_lossy(start).escape_debug().to_string())
            ),
            HeaderError::Version(version) => {
                write!(f, "unknown format version {version} (this build reads versions 1 to {VERSION})")
            }
            HeaderError::RecordSize(size) => {
                write!(f, "record size {size} in the header (version 1 has {BLOCK})")
            }
            HeaderError::Checksum => write!(f, "header checksum mismatch (the header is damaged)"),
            HeaderError::Shard { index, count } => {
                write!(f, "shard {index}/{count} in a version 2 header (K from 1 to N, N at least 2)")
            }
        }
    }
}

impl std::error::Error for HeaderError {}

/// One labelled position: a 40-byte record, stored as it is on disk.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Record([u8; BLOCK]);

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Record({};score {};result {:?};game {};ply {})",
            self.to_fen(),
            self.score(),
            self.result(),
            self.game(),
            self.ply()
        )
    }
}

/// The pieces of a record, in square order: (square number, colour, kind).
pub struct Pieces<'a> {
    record: &'a Record,
    occupancy: u128,
    next: usize,
}

impl Iterator for Pieces<'_> {
    type Item = (usize, Color, PieceKind);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while self.occupancy != 0 {
            let sq = self.occupancy.trailing_zeros() as usize;
            self.occupancy &= self.occupancy - 1;
            let code = self.record.nibble(self.next);
            self.next += 1;
            if let Some((color, kind)) = piece_of_code(code) {
                return Some((sq, color, kind));
            }
        }
        None
    }
}

impl Record {
    /// The record of `pos` (with no history needed) searched to `score` (side to move's view,
    /// clamped to ±`MAX_SCORE`) with best move `best`; the game fields are set by `finish`.
    pub fn new(pos: &Position, score: i32, best: Move) -> Record {
        let mut b = [0u8; BLOCK];
        let mut occupancy: u128 = 0;
        let mut n = 0;
        for index in 0..SQUARES {
            let p = pos.piece_at(square_at(index));
            if p.is_piece() {
                occupancy |= 1 << index;
                let code = piece_code(p.color(), p.kind());
                b[PIECES + n / 2] |= if n.is_multiple_of(2) { code } else { code << 4 };
                n += 1;
            }
        }
        b[OCCUPANCY..OCCUPANCY + 12].copy_from_slice(&occupancy.to_le_bytes()[..12]);
        let score = score.clamp(-MAX_SCORE, MAX_SCORE) as i16;
        b[SCORE..SCORE + 2].copy_from_slice(&score.to_le_bytes());
        b[RESULT] = Wdl::Draw as u8;
        b[FLAGS] = if pos.side_to_move() == Color::Black { FLAG_BLACK_TO_MOVE } else { 0 };
        let ply = pos.game_ply().min(u16::MAX as usize) as u16;
        b[PLY..PLY + 2].copy_from_slice(&ply.to_le_bytes());
        b[BEST_FROM] = square_index(best.from()) as u8;
        b[BEST_TO] = square_index(best.to()) as u8;
        Record(b)
    }

    /// Sets what is known when the game is over: its number, how it ended, the winner (the
    /// result is stored from the side to move's view), and whether this is its last record.
    pub fn finish(&mut self, game: u32, end: GameEnd, winner: Option<Color>, last_of_game: bool) {
        self.0[GAME..GAME + 4].copy_from_slice(&game.to_le_bytes());
        self.0[RESULT] = Wdl::for_side(self.side_to_move(), winner) as u8;
        let side = self.0[FLAGS] & FLAG_BLACK_TO_MOVE;
        let last = if last_of_game { FLAG_LAST_OF_GAME } else { 0 };
        self.0[FLAGS] = side | last | (end.code() << END_SHIFT);
    }

    /// The same position, game and result with another search's score (side to move's view,
    /// clamped to ±`MAX_SCORE`) and best move: a rescored label.
    pub fn with_search(&self, score: i32, best: Move) -> Record {
        let mut b = self.0;
        let score = score.clamp(-MAX_SCORE, MAX_SCORE) as i16;
        b[SCORE..SCORE + 2].copy_from_slice(&score.to_le_bytes());
        b[BEST_FROM] = square_index(best.from()) as u8;
        b[BEST_TO] = square_index(best.to()) as u8;
        Record(b)
    }

    /// Whether `other` holds the same position from the same place in the same game (the labels
    /// aside).
    pub fn same_position(&self, other: &Record) -> bool {
        self.0[..SCORE] == other.0[..SCORE]
            && self.0[FLAGS] & FLAG_BLACK_TO_MOVE == other.0[FLAGS] & FLAG_BLACK_TO_MOVE
            && self.ply() == other.ply()
            && self.game() == other.game()
    }

    /// A record from its bytes, unchecked (see `validate`).
    pub fn from_bytes(bytes: [u8; BLOCK]) -> Record {
        Record(bytes)
    }

    /// The record's bytes.
    pub fn as_bytes(&self) -> &[u8; BLOCK] {
        &self.0
    }

    /// The 90-bit occupancy map: bit `i` set when square `i` holds a piece.
    #[inline]
    pub fn occupancy(&self) -> u128 {
        let mut b = [0u8; 16];
        b[..12].copy_from_slice(&self.0[OCCUPANCY..OCCUPANCY + 12]);
        u128::from_le_bytes(b)
    }

    #[inline]
    fn nibble(&self, n: usize) -> u8 {
        let byte = self.0[PIECES + n / 2];
        if n.is_multiple_of(2) {
            byte & 15
        } else {
            byte >> 4
        }
    }

    /// The pieces, in square order.
    #[inline]
    pub fn pieces(&self) -> Pieces<'_> {
        Pieces { record: self, occupancy: self.occupancy(), next: 0 }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.0[FLAGS] & FLAG_BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// The search score, centipawns, from the side to move's view.
    #[inline]
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[SCORE], self.0[SCORE + 1]])
    }

    /// The search score from Red's view.
    pub fn red_score(&self) -> i32 {
        match self.side_to_move() {
            Color::Red => self.score() as i32,
            Color::Black => -(self.score() as i32),
        }
    }

    /// The game result from the side to move's view (`Draw` if the stored code is invalid;
    /// `validate` refuses such a record).
    #[inline]
    pub fn result(&self) -> Wdl {
        match self.0[RESULT] {
            0 => Wdl::Loss,
            2 => Wdl::Win,
            _ => Wdl::Draw,
        }
    }

    /// The game result from Red's view.
    pub fn red_result(&self) -> Wdl {
        match self.side_to_move() {
            Color::Red => self.result(),
            Color::Black => self.result().flipped(),
        }
    }

    /// The game ply of the position (0 = where the game started, book and random plies counted).
    #[inline]
    pub fn ply(&self) -> u16 {
        u16::from_le_bytes([self.0[PLY], self.0[PLY + 1]])
    }

    /// The number of the game the position comes from (games of one file count from 0).
    #[inline]
    pub fn game(&self) -> u32 {
        u32::from_le_bytes(self.0[GAME..GAME + 4].try_into().expect("4 bytes"))
    }

    /// How the game ended (`None` for an unknown code, which `validate` refuses).
    pub fn game_end(&self) -> Option<GameEnd> {
        GameEnd::from_code((self.0[FLAGS] & END_MASK) >> END_SHIFT)
    }

    /// Whether this is the last record of its game.
    pub fn last_of_game(&self) -> bool {
        self.0[FLAGS] & FLAG_LAST_OF_GAME != 0
    }

    /// The best move found, as square numbers (from, to).
    pub fn best_squares(&self) -> (usize, usize) {
        (self.0[BEST_FROM] as usize, self.0[BEST_TO] as usize)
    }

    /// The best move found (garbage if the squares are out of range; `validate` refuses that).
    pub fn best_move(&self) -> Move {
        let (from, to) = self.best_squares();
        Move::new(square_at(from.min(SQUARES - 1)), square_at(to.min(SQUARES - 1)))
    }

    /// Checks everything one record can be checked for without move generation: the board
    /// (piece codes, at most 32 pieces, one king a side, no more of a kind than the set holds,
    /// each piece on a square it can reach, kings not facing on an open file), the score range,
    /// the result and flag codes, a result a drawn ending allows, and a best move from a piece of
    /// the side to move to a square not its own. The error says what is wrong.
    pub fn validate(&self) -> Result<(), RecordError> {
        let occupancy = self.occupancy();
        if occupancy >> SQUARES != 0 {
            return Err(RecordError::OccupancyPastBoard);
        }
        let n = occupancy.count_ones() as usize;
        if n > 32 {
            return Err(RecordError::TooManyPieces(n));
        }
        let mut board = [0u8; SQUARES];
        let mut counts = [[0usize; 7]; 2];
        let mut occ = occupancy;
        for k in 0..n {
            let index = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = self.nibble(k);
            let Some((color, kind)) = piece_of_code(code) else {
                return Err(RecordError::NoPiece { code, square: square_at(index) });
            };
            counts[color.index()][kind.index()] += 1;
            board[index] = code;
        }
        if (n..32).any(|k| self.nibble(k) != 0) {
            return Err(RecordError::CodesPastPieces(n));
        }
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let count = counts[color.index()][kind.index()];
                if kind == PieceKind::King && count != 1 {
                    return Err(RecordError::Kings { color, count });
                }
                if count > kind.max_count() {
                    return Err(RecordError::TooMany { color, kind, count });
                }
            }
        }
        for (index, &code) in board.iter().enumerate() {
            if let Some((color, kind)) = piece_of_code(code) {
                if !reachable(color, kind, square_at(index)) {
                    return Err(RecordError::OffSquares { color, kind, square: square_at(index) });
                }
            }
        }
        let king = |color| board.iter().position(|&c| c == piece_code(color, PieceKind::King)).unwrap_or(0);
        let (red, black) = (king(Color::Red), king(Color::Black));
        if red % 9 == black % 9 && ((red + 9)..black).step_by(9).all(|i| board[i] == 0) {
            return Err(RecordError::KingsFace);
        }
        let score = self.score() as i32;
        if score.abs() > MAX_SCORE {
            return Err(RecordError::Score(score));
        }
        let result = self.0[RESULT];
        if result > 2 {
            return Err(RecordError::ResultCode(result));
        }
        let flags = self.0[FLAGS];
        if flags & FLAG_RESERVED != 0 {
            return Err(RecordError::ReservedFlags(flags));
        }
        let Some(end) = self.game_end() else {
            return Err(RecordError::GameEndCode((flags & END_MASK) >> END_SHIFT));
        };
        if end.is_draw() != (result == Wdl::Draw as u8) {
            return Err(RecordError::ResultContradictsEnd { result, end });
        }
        let (from, to) = self.best_squares();
        if from >= SQUARES || to >= SQUARES || from == to {
            return Err(RecordError::BestSquares { from, to });
        }
        let own = |code: u8| code != 0 && piece_of_code(code).map(|(c, _)| c) == Some(self.side_to_move());
        if !own(board[from]) {
            return Err(RecordError::BestFromOther(self.best_move()));
        }
        if own(board[to]) {
            return Err(RecordError::BestOntoOwn(self.best_move()));
        }
        Ok(())
    }

    /// The position as FEN (clocks `0 1`: the format does not keep them).
    pub fn to_fen(&self) -> String {
        let mut board = [None; SQUARES];
        for (index, color, kind) in self.pieces() {
            board[index] = Some((color, kind));
        }
        let mut fen = String::with_capacity(96);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            let _ = write!(fen, "{empty}");
                            empty = 0;
                        }
                        let c = kind.letter();
                        fen.push(if color == Color::Red { c } else { c.to_ascii_lowercase() });
                    }
                }
            }
            if empty > 0 {
                let _ = write!(fen, "{empty}");
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side_to_move() == Color::Red { " w - - 0 1" } else { " b - - 0 1" });
        fen
    }

    /// The position, checked by every rule the FEN parser applies (for instance the side not
    /// to move may not be in check), and with the best move checked legal. Slower than
    /// `validate`: for inspection, not for every record a trainer reads.
    pub fn to_position(&self) -> Result<Position, PositionError> {
        self.validate().map_err(PositionError::Record)?;
        let mut pos = Position::from_fen(&self.to_fen()).map_err(PositionError::Rules)?;
        if !movegen::is_legal(&mut pos, self.best_move()) {
            return Err(PositionError::IllegalBestMove(self.best_move()));
        }
        Ok(pos)
    }
}

/// Why `Record::validate` refused a record: what is wrong with it alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Occupancy bits past square 89 are set.
    OccupancyPastBoard,
    /// More than 32 pieces (this many).
    TooManyPieces(usize),
    /// A piece code that is no piece, and the square it is on.
    NoPiece {
        /// The code.
        code: u8,
        /// Its square.
        square: Square,
    },
    /// Piece codes past the pieces (this many) are not zero.
    CodesPastPieces(usize),
    /// A side without exactly one king.
    Kings {
        /// The side.
        color: Color,
        /// Its kings.
        count: usize,
    },
    /// More pieces of a kind than the set holds.
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// How many it has.
        count: usize,
    },
    /// A piece on a square it can never reach.
    OffSquares {
        /// The piece's side.
        color: Color,
        /// The piece's kind.
        kind: PieceKind,
        /// Its square.
        square: Square,
    },
    /// The kings face each other on an open file.
    KingsFace,
    /// A score beyond `MAX_SCORE`.
    Score(i32),
    /// A result code other than 0, 1 or 2.
    ResultCode(u8),
    /// Reserved flag bits are set (these are the flags).
    ReservedFlags(u8),
    /// A game end code that is no `GameEnd`.
    GameEndCode(u8),
    /// A result (code) that the game's end does not allow.
    ResultContradictsEnd {
        /// The result code (0 loss, 1 draw, 2 win).
        result: u8,
        /// The game's end.
        end: GameEnd,
    },
    /// Best move squares that are no move.
    BestSquares {
        /// The from square's number.
        from: usize,
        /// The to square's number.
        to: usize,
    },
    /// A best move that does not start from a piece of the side to move.
    BestFromOther(Move),
    /// A best move that lands on a piece of the side to move.
    BestOntoOwn(Move),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::OccupancyPastBoard => write!(f, "occupancy bits past square 89 are set"),
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces on the board (at most 32)"),
            RecordError::NoPiece { code, square } => write!(f, "piece code {code} on {square} is no piece"),
            RecordError::CodesPastPieces(n) => write!(f, "piece codes past the {n} pieces are not zero"),
            RecordError::Kings { color, count } => match count {
                0 => write!(f, "no {} king", color.name()),
                2 => write!(f, "two {} kings", color.name()),
                _ => write!(f, "{count} {} kings", color.name()),
            },
            RecordError::TooMany { color, kind, count } => {
                write!(f, "{} has {count} {}s (at most {})", color.name(), kind.name(), kind.max_count())
            }
            RecordError::OffSquares { color, kind, square } => {
                write!(f, "{} {} on {square} is off its squares", color.name(), kind.name())
            }
            RecordError::KingsFace => write!(f, "the kings face each other"),
            RecordError::Score(score) => write!(f, "score {score} is beyond ±{MAX_SCORE}"),
            RecordError::ResultCode(result) => {
                write!(f, "result code {result} is not 0 (loss), 1 (draw) or 2 (win)")
            }
            RecordError::ReservedFlags(flags) => write!(f, "reserved flag bits are set (flags {flags:#04x})"),
            RecordError::GameEndCode(code) => write!(f, "game end code {code} is unknown"),
            RecordError::ResultContradictsEnd { result, end } => {
                let said =
                    ["a loss", "a draw", "a win"].get(*result as usize).unwrap_or(&"an unknown result");
                write!(f, "result {said} contradicts the game's end ({end})")
            }
            RecordError::BestSquares { from, to } => {
                write!(f, "best move squares {from} -> {to} are not a move")
            }
            RecordError::BestFromOther(mv) => {
                write!(f, "best move {mv} does not start from a piece of the side to move")
            }
            RecordError::BestOntoOwn(mv) => write!(f, "best move {mv} lands on a piece of the side to move"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Why `Record::to_position` refused a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The record alone is wrong (`Record::validate`).
    Record(RecordError),
    /// The position breaks a rule the FEN parser applies (its message, without the "bad FEN"
    /// prefix).
    Rules(FenError),
    /// The best move is illegal in the position.
    IllegalBestMove(Move),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Record(e) => e.fmt(f),
            PositionError::Rules(e) => f.write_str(&e.0),
            PositionError::IllegalBestMove(mv) => write!(f, "best move {mv} is illegal"),
        }
    }
}

impl std::error::Error for PositionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip_and_zero_and_eight_are_empty() {
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                assert_eq!(piece_of_code(piece_code(color, kind)), Some((color, kind)));
            }
        }
        assert_eq!(piece_of_code(0), None);
        assert_eq!(piece_of_code(8), None);
        assert_eq!(piece_of_code(16), None);
    }

    #[test]
    fn square_numbers_follow_ranks_from_reds_side() {
        assert_eq!(square_at(0).to_string(), "a0");
        assert_eq!(square_at(8).to_string(), "i0");
        assert_eq!(square_at(9).to_string(), "a1");
        assert_eq!(square_at(89).to_string(), "i9");
        for i in 0..SQUARES {
            assert_eq!(square_index(square_at(i)), i);
        }
    }

    #[test]
    fn a_header_is_never_a_valid_record() {
        for shard in [Shard::WHOLE, Shard::new(3, 4).unwrap()] {
            let header = Header { seed: 7, nodes: 5000, settings: 1, shard };
            let bytes = header.to_bytes();
            assert!(Record::from_bytes(bytes).validate().unwrap_err().to_string().contains("past square 89"));
            assert_eq!(Header::from_bytes(&bytes), Ok(header));
        }
    }

    #[test]
    fn a_whole_run_keeps_the_version_1_header_and_a_shard_has_version_2() {
        // Version 1, byte by byte as docs/datagen.md gives it (and as every earlier build wrote).
        let mut v1 = b"chariot-data".to_vec();
        v1.extend_from_slice(&[1, 0, 40, 0]);
        v1.extend_from_slice(&7u64.to_le_bytes());
        v1.extend_from_slice(&5000u32.to_le_bytes());
        v1.extend_from_slice(&0x1122_3344_5566_7788u64.to_le_bytes());
        let sum = fnv1a32(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        let whole = Header::whole(7, 5000, 0x1122_3344_5566_7788);
        assert_eq!(whole.to_bytes().to_vec(), v1);
        // Version 2: N in place of the block size, K and a 16-bit checksum in place of the
        // 32-bit one.
        let shard = Header { shard: Shard::new(3, 4).unwrap(), ..whole };
        let v2 = shard.to_bytes();
        assert_eq!(v2[..12], v1[..12]);
        assert_eq!(v2[12..16], [2, 0, 4, 0]);
        assert_eq!(v2[16..36], v1[16..36]);
        assert_eq!(v2[36..38], [3, 0]);
        let sum = fnv1a32(&v2[..38]);
        assert_eq!(u16::from_le_bytes([v2[38], v2[39]]), (sum >> 16) as u16 ^ sum as u16);
        // A damaged shard field is refused, whatever the checksum says.
        for (index, count) in [(0u16, 4u16), (5, 4), (1, 1), (1, 0)] {
            let mut b = v2;
            b[14..16].copy_from_slice(&count.to_le_bytes());
            b[36..38].copy_from_slice(&index.to_le_bytes());
            let sum = fnv1a32(&b[..38]);
            b[38..40].copy_from_slice(&((sum >> 16) as u16 ^ sum as u16).to_le_bytes());
            assert_eq!(Header::from_bytes(&b), Err(HeaderError::Shard { index, count }), "{index}/{count}");
        }
        let mut b = v2;
        b[36] = 2;
        assert_eq!(Header::from_bytes(&b), Err(HeaderError::Checksum));
        b = v2;
        b[12] = 3;
        assert_eq!(Header::from_bytes(&b), Err(HeaderError::Version(3)));
    }
}
