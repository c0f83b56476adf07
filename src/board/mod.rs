//! The board: squares, pieces, the mailbox and the pieces' geometry on it (`attacks`), moves,
//! `Position` with its incremental state, FEN, move generation, the static exchange on a square.

pub mod attacks;
pub mod exchange;
pub mod fen;
pub mod mailbox;
pub mod movegen;
pub mod moves;
pub mod piece;
pub mod position;
pub mod square;
pub mod zobrist;

pub use fen::FenError;
pub use mailbox::Mailbox;
pub use moves::{Move, MoveList};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, START_FEN};
pub use square::Square;
