//! FEN parsing and printing, with every validity rule of `docs/rules.md`.

use std::fmt;

use super::attacks::{self, delta};
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::square::Square;
use crate::counted::counted;
use crate::quote::quoted;

/// The largest halfmove clock or move number a FEN may give: far beyond any game, and far enough
/// below `u32::MAX` that playing on from it cannot overflow the counters.
pub const MAX_CLOCK: u32 = 999_999_999;

/// Why a FEN was refused; the message names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// Where a piece can ever stand: the rule this reader enforces, kept with the rest of the geometry.
pub use super::attacks::reachable;

impl Position {
    /// Parses a FEN, refusing anything that is not a legal xiangqi position.
    ///
    /// Accepts `E`/`H` for elephant/horse and `r` for Red to move. The castling and en-passant
    /// fields are ignored; missing clock fields default to `0 1`.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let Some(placement) = fields.next() else {
            return err("empty FEN");
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 10 {
            return err(format!("{} instead of 10", counted(rows.len(), "rank", "ranks")));
        }
        let mut pos = Position::empty();
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: u32 = 0;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    if n == 0 {
                        return err(format!("rank {rank} has a 0 in it"));
                    }
                    file += n;
                    continue;
                }
                let Some(kind) = PieceKind::from_letter(c) else {
                    return err(format!("unknown piece letter '{c}' on rank {rank}"));
                };
                if file >= 9 {
                    file += 1;
                    continue; // counted, reported below as too wide
                }
                let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
                let sq = Square::new(file as u8, rank);
                if !pos.put(color, kind, sq) {
                    let count = rows_count(&rows, c);
                    return err(if kind == PieceKind::King {
                        format!("more than one {} king", color.name())
                    } else {
                        format!(
                            "{} has {count} {}s (at most {})",
                            color.name(),
                            kind.name(),
                            kind.max_count()
                        )
                    });
                }
                file += 1;
            }
            if file != 9 {
                return err(format!("rank {rank} has {}", counted(file, "file", "files")));
            }
        }
        for color in Color::BOTH {
            if pos.king_square(color) == Square::NONE {
                return err(format!("no {} king", color.name()));
            }
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    if !reachable(color, kind, sq) {
                        return err(match kind {
                            PieceKind::King => {
                                format!("{} king on {sq} is outside its palace", color.name())
                            }
                            PieceKind::Pawn => {
                                format!("{} pawn on {sq} is behind its starting rank", color.name())
                            }
                            _ => format!("{} {} on {sq} is off its squares", color.name(), kind.name()),
                        });
                    }
                }
            }
        }
        let side = match fields.next() {
            Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return err(format!("side to move {} is not w or b", quoted(other))),
            None => return err("side to move is missing"),
        };
        pos.set_side(side);
        let _castling = fields.next();
        let _en_passant = fields.next();
        let halfmove = fields.next().map_or(Ok(0), |t| clock(t, "halfmove clock"))?;
        let fullmove = fields.next().map_or(Ok(1), |t| clock(t, "move number"))?;
        if let Some(extra) = fields.next() {
            return err(format!("unexpected {} after the move number", quoted(extra)));
        }
        pos.set_clocks(halfmove, fullmove);
        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if attacks::first_blocker(pos.mailbox(), rk, delta::UP) == bk {
            return err("the kings face each other");
        }
        if pos.king_attacked(side.opponent()) {
            return err("side not to move is in check");
        }
        Ok(pos)
    }

    /// The position as FEN (`- -` for the unused fields).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let p = self.piece_at(Square::new(file, rank));
                if p.is_piece() {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.letter());
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!("{out} {side} - - {} {}", self.halfmove_clock(), self.fullmove_number())
    }
}

/// The value of clock field `what`, a whole number from 0 to `MAX_CLOCK`.
fn clock(text: &str, what: &str) -> Result<u32, FenError> {
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_CLOCK => Ok(n),
        _ => err(format!("{what} {} is not a number from 0 to {MAX_CLOCK}", quoted(text))),
    }
}

/// How many times letter `c` occurs in the rows (for the "too many pieces" message).
fn rows_count(rows: &[&str], c: char) -> usize {
    let kind = PieceKind::from_letter(c);
    rows.iter()
        .flat_map(|r| r.chars())
        .filter(|&x| x.is_ascii_uppercase() == c.is_ascii_uppercase() && PieceKind::from_letter(x) == kind)
        .count()
}
