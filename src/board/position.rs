//! `Position`: the mailbox, piece lists, side to move, incremental Zobrist key, and the history
//! that `unmake_move` and repetition detection need. Evaluation state is the evaluator's own.

use super::attacks;
use super::mailbox::Mailbox;
use super::moves::Move;
use super::piece::{Color, Piece, PieceKind};
use super::square::Square;
use super::zobrist;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What `make_move` must remember to undo a move, and what repetition detection reads.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    /// The move played (`Move::NONE` for a null move).
    pub mv: Move,
    /// What stood on the destination square.
    pub captured: Piece,
    /// The Zobrist key of the position before the move.
    pub key: u64,
    /// The halfmove clock before the move.
    pub halfmove_clock: u32,
}

/// A xiangqi position with its history since it was set up.
#[derive(Clone)]
pub struct Position {
    board: Mailbox,
    /// Where each piece stands, by colour and slot; `Square::NONE` once captured.
    squares: [[Square; 16]; 2],
    side: Color,
    key: u64,
    halfmove_clock: u32,
    fullmove: u32,
    history: Vec<Undo>,
}

impl Position {
    /// An empty board, Red to move (for building positions piece by piece; see `fen`).
    pub(crate) fn empty() -> Position {
        Position {
            board: Mailbox::empty(),
            squares: [[Square::NONE; 16]; 2],
            side: Color::Red,
            key: 0,
            halfmove_clock: 0,
            fullmove: 1,
            history: Vec::with_capacity(256),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Puts a piece of `color` and `kind` on an empty square, taking the first free slot of its
    /// kind. Returns false when every slot of that kind is taken.
    pub(crate) fn put(&mut self, color: Color, kind: PieceKind, sq: Square) -> bool {
        debug_assert!(self.board[sq].is_empty());
        let (first, end) = kind.slots();
        let Some(slot) = (first..end).find(|&s| self.squares[color.index()][s as usize] == Square::NONE)
        else {
            return false;
        };
        let piece = Piece::from_slot(color, slot);
        self.board[sq] = piece;
        self.squares[color.index()][slot as usize] = sq;
        self.toggle_key(piece, sq);
        true
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.key ^= zobrist::BLACK_TO_MOVE;
        }
    }

    pub(crate) fn set_clocks(&mut self, halfmove_clock: u32, fullmove: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove = fullmove.max(1);
    }

    /// Puts `piece` on `sq` in the key, or takes it off (the same XOR).
    #[inline]
    fn toggle_key(&mut self, piece: Piece, sq: Square) {
        self.key ^= zobrist::PIECE_SQUARE[piece.type_index()][sq.index()];
    }

    // ----- queries -----

    /// What stands on `sq` (`Piece::OFFBOARD` in the guard band).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq]
    }

    /// The whole board, as the geometry in `attacks` reads it.
    #[inline]
    pub fn mailbox(&self) -> &Mailbox {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The 64-bit Zobrist key (placement and side to move).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (or since the position was set up, plus the FEN's count).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The FEN's full-move number, advanced after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.squares[color.index()][0]
    }

    /// The Zobrist key of the pawns alone, both sides' (worked out from the piece lists, not kept
    /// move by move: the search's correction history asks for it once a node).
    pub fn pawn_key(&self) -> u64 {
        let pawns = PieceKind::Pawn.slots();
        Color::BOTH.iter().fold(0, |key, &color| key ^ self.slots_key(color, pawns.0..pawns.1))
    }

    /// The Zobrist key of `color`'s pieces other than pawns, king included (worked out from the
    /// piece lists, like `pawn_key`, for the correction history).
    pub fn other_pieces_key(&self, color: Color) -> u64 {
        self.slots_key(color, 0..PieceKind::Pawn.slots().0)
    }

    /// The Zobrist key of the pieces of `color` in `slots` that are still on the board.
    fn slots_key(&self, color: Color, slots: std::ops::Range<u8>) -> u64 {
        self.squares[color.index()][slots.start as usize..slots.end as usize]
            .iter()
            .filter(|&&sq| sq != Square::NONE)
            .fold(0, |key, &sq| key ^ zobrist::PIECE_SQUARE[self.board[sq].type_index()][sq.index()])
    }

    /// The square of the piece in `slot` of `color`, or `Square::NONE` if it was captured.
    #[inline]
    pub fn slot_square(&self, color: Color, slot: u8) -> Square {
        self.squares[color.index()][slot as usize]
    }

    /// The squares of `color`'s pieces of `kind`.
    pub fn pieces(&self, color: Color, kind: PieceKind) -> impl Iterator<Item = Square> + '_ {
        let (first, end) = kind.slots();
        self.squares[color.index()][first as usize..end as usize]
            .iter()
            .copied()
            .filter(|&s| s != Square::NONE)
    }

    /// How many pieces of `kind` `color` has.
    pub fn count(&self, color: Color, kind: PieceKind) -> usize {
        self.pieces(color, kind).count()
    }

    /// Moves played since the position was set up, oldest first, with their undo records.
    #[inline]
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv).filter(|m| !m.is_none())
    }

    /// The number of moves in the history (the search's ply base).
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Forgets the history (the position becomes its own starting point).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Whether `color`'s king is attacked: by a rook, cannon, horse or pawn, or by the other king
    /// on an open file (the flying-general rule).
    #[inline]
    pub fn king_attacked(&self, color: Color) -> bool {
        let k = self.king_square(color);
        k != Square::NONE && attacks::king_attacked(&self.board, k, color.opponent())
    }

    /// Whether the side to move is in check.
    ///
    /// After a move, only that move can have given check: the position before it was legal, so
    /// the side now to move was not in check then. Most moves cannot (`attacks::may_give_check`),
    /// and are answered without looking at the attackers: this is asked once a search node.
    /// (Every position here is legal: a FEN with the side not to move in check is refused, and
    /// the moves made are legal ones.)
    #[inline]
    pub fn is_check(&self) -> bool {
        if let Some(last) = self.history.last().filter(|u| !u.mv.is_none()) {
            let (from, to) = (last.mv.from(), last.mv.to());
            let king = self.king_square(self.side);
            if king != Square::NONE && !attacks::may_give_check(self.board[to].kind(), from, to, king) {
                return false;
            }
        }
        self.king_attacked(self.side)
    }

    // ----- making moves -----

    /// Plays `mv`, which must be pseudo-legal (see `movegen`); legality is the caller's check
    /// (`leaves_king_safe` before, or `king_attacked(mover)` after).
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from];
        let captured = self.board[to];
        debug_assert!(piece.is_color(self.side), "{mv} moves no piece of the side to move");
        self.history.push(Undo { mv, captured, key: self.key, halfmove_clock: self.halfmove_clock });
        self.key = self.key_after(mv);
        if captured.is_piece() {
            self.squares[captured.color().index()][captured.slot() as usize] = Square::NONE;
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock += 1;
        }
        self.board[from] = Piece::EMPTY;
        self.board[to] = piece;
        self.squares[piece.color().index()][piece.slot() as usize] = to;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opponent();
    }

    /// The key of the position after the pseudo-legal `mv`, without playing it (`make_move`
    /// takes its key from here): the search prefetches that position's table entry while it
    /// still has work to do here.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from].type_index();
        let captured = self.board[to];
        let mut key = self.key
            ^ zobrist::BLACK_TO_MOVE
            ^ zobrist::PIECE_SQUARE[piece][from.index()]
            ^ zobrist::PIECE_SQUARE[piece][to.index()];
        if captured.is_piece() {
            key ^= zobrist::PIECE_SQUARE[captured.type_index()][to.index()];
        }
        key
    }

    /// Takes back the last `make_move`.
    #[inline]
    pub fn unmake_move(&mut self) {
        let undo = self.history.pop().expect("unmake_move with no move to take back");
        let (from, to) = (undo.mv.from(), undo.mv.to());
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let piece = self.board[to];
        self.board[from] = piece;
        self.squares[piece.color().index()][piece.slot() as usize] = from;
        self.board[to] = undo.captured;
        if undo.captured.is_piece() {
            self.squares[undo.captured.color().index()][undo.captured.slot() as usize] = to;
        }
        // The undo record holds the key: nothing to XOR back.
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
    }

    /// Passes the move to the other side (for null-move pruning).
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            mv: Move::NONE,
            captured: Piece::EMPTY,
            key: self.key,
            halfmove_clock: self.halfmove_clock,
        });
        self.halfmove_clock += 1;
        self.side = self.side.opponent();
        self.key ^= zobrist::BLACK_TO_MOVE;
    }

    /// Takes back a `make_null_move`.
    pub fn unmake_null_move(&mut self) {
        let undo = self.history.pop().expect("unmake_null_move with no move to take back");
        debug_assert!(undo.mv.is_none());
        self.side = self.side.opponent();
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
    }

    /// Moves the piece on the board only (no key or history), runs `f`, and restores.
    /// The cheap way to ask "what if" about attacks.
    #[inline]
    pub(crate) fn with_board_move<R>(&mut self, mv: Move, f: impl FnOnce(&Self) -> R) -> R {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from];
        let captured = self.board[to];
        self.board[from] = Piece::EMPTY;
        self.board[to] = piece;
        let (pc, ps) = (piece.color().index(), piece.slot() as usize);
        self.squares[pc][ps] = to;
        if captured.is_piece() {
            self.squares[captured.color().index()][captured.slot() as usize] = Square::NONE;
        }
        let result = f(self);
        self.squares[pc][ps] = from;
        if captured.is_piece() {
            self.squares[captured.color().index()][captured.slot() as usize] = to;
        }
        self.board[from] = piece;
        self.board[to] = captured;
        result
    }

    /// Whether the pseudo-legal `mv` leaves the mover's own king safe (the move is legal).
    #[inline]
    pub fn leaves_king_safe(&mut self, mv: Move) -> bool {
        let mover = self.board[mv.from()].color();
        self.with_board_move(mv, |p| !p.king_attacked(mover))
    }

    /// Whether the pseudo-legal `mv` attacks the opponent's king. Most moves cannot (they
    /// neither attack from where they land nor uncover an attack: `attacks::may_give_check`),
    /// and are answered without trying them.
    #[inline]
    pub fn gives_check(&mut self, mv: Move) -> bool {
        let piece = self.board[mv.from()];
        let king = self.king_square(piece.color().opponent());
        if king != Square::NONE && !attacks::may_give_check(piece.kind(), mv.from(), mv.to(), king) {
            return false;
        }
        // The other king was attacked by nothing before the move (the position is legal), so
        // only the lines through the move's two squares need walking.
        let changed = [mv.from(), mv.to()];
        self.with_board_move(mv, |p| attacks::king_attacked_after(&p.board, king, piece.color(), changed))
    }

    /// Recomputes the key from scratch (for tests of the incremental update).
    pub fn recomputed_key(&self) -> u64 {
        let mut fresh = Position::empty();
        for sq in Square::all() {
            let p = self.board[sq];
            if p.is_piece() {
                fresh.put(p.color(), p.kind(), sq);
            }
        }
        fresh.set_side(self.side);
        fresh.key
    }

    /// The position with colours swapped and the board flipped top to bottom: the same game seen
    /// from the other side (perft counts and evaluations must agree). History is dropped.
    pub fn color_flipped(&self) -> Position {
        self.transformed(|sq| sq.flip_ranks(), true)
    }

    /// The position mirrored left to right (file a ↔ i). History is dropped.
    pub fn files_mirrored(&self) -> Position {
        self.transformed(|sq| sq.mirror_files(), false)
    }

    fn transformed(&self, map: impl Fn(Square) -> Square, swap_colors: bool) -> Position {
        let mut out = Position::empty();
        for sq in Square::all() {
            let p = self.board[sq];
            if p.is_piece() {
                let color = if swap_colors { p.color().opponent() } else { p.color() };
                out.put(color, p.kind(), map(sq));
            }
        }
        let side = if swap_colors { self.side.opponent() } else { self.side };
        out.set_side(side);
        out.set_clocks(self.halfmove_clock, self.fullmove);
        out
    }
}

impl PartialEq for Position {
    /// Same placement and side to move (history and clocks are not compared).
    fn eq(&self, other: &Self) -> bool {
        self.side == other.side
            && Square::all().all(|sq| {
                let (a, b) = (self.piece_at(sq), other.piece_at(sq));
                a.is_piece() == b.is_piece() && (!a.is_piece() || a.letter() == b.letter())
            })
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
