//! What WXF and Chinese notation both say about a move: which piece moves (by its file, or by its
//! place among like pieces on one file), which way it goes, and how far or to which file.
//!
//! `describe` turns a move into that description for the formatters; `resolve` turns a parsed
//! `Query` back into the one legal move it names. Files are numbered 1..=9 from the mover's right,
//! and "front" means nearer the opponent.

use crate::board::{movegen, Color, Move, PieceKind, Position, Square};

use super::{MissingPiece, NotationError};

/// The direction of a move as the mover sees it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Action {
    /// Towards the opponent (WXF `+`, 进).
    Forward,
    /// Towards the mover's own back rank (WXF `-`, 退).
    Backward,
    /// Along the rank (WXF `=`, 平).
    Sideways,
}

/// How the moving piece is named.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Origin {
    /// By its file: the only piece of its kind there, or an advisor or elephant (whose direction
    /// alone tells two on one file apart).
    File,
    /// By its place `index` (0 = front) among `count` like pieces on its file; the file is not named.
    Ranked { index: u8, count: u8 },
    /// By its place among like pieces and the file, for pawns when two files hold several.
    RankedOnFile { index: u8, count: u8 },
}

/// A move as the human notations see it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Described {
    pub color: Color,
    pub kind: PieceKind,
    /// The origin file, numbered from the mover's right.
    pub file: u8,
    pub origin: Origin,
    pub action: Action,
    /// Ranks moved for a straight forward or backward move, else the destination file number.
    pub number: u8,
}

/// The file number (1..=9, from `color`'s right) of ICCS file `file` (0 = `a`).
pub(crate) fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The ICCS file (0 = `a`) that `color` calls `number` (1..=9).
fn file_index(color: Color, number: u8) -> u8 {
    match color {
        Color::Red => 9 - number,
        Color::Black => number - 1,
    }
}

/// Which way a piece of `color` goes from `from` to `to`.
fn action(color: Color, from: Square, to: Square) -> Action {
    let gained = match color {
        Color::Red => to.rank() as i8 - from.rank() as i8,
        Color::Black => from.rank() as i8 - to.rank() as i8,
    };
    match gained {
        0 => Action::Sideways,
        g if g > 0 => Action::Forward,
        _ => Action::Backward,
    }
}

/// The number a notation writes last: ranks travelled by a king, rook, cannon or pawn going
/// forward or backward; otherwise the destination file.
fn number(kind: PieceKind, color: Color, from: Square, to: Square) -> u8 {
    let straight = matches!(kind, PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn);
    if straight && from.rank() != to.rank() {
        from.rank().abs_diff(to.rank())
    } else {
        file_number(color, to.file())
    }
}

/// The squares of `color`'s pieces of `kind` on ICCS file `file`, front first.
fn column(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = pos.pieces(color, kind).filter(|s| s.file() == file).collect();
    match color {
        Color::Red => squares.sort_by_key(|s| std::cmp::Reverse(s.rank())),
        Color::Black => squares.sort_by_key(|s| s.rank()),
    }
    squares
}

/// Every column of `color`'s pieces of `kind` holding at least two, front first within each.
fn tandem_columns(pos: &Position, color: Color, kind: PieceKind) -> Vec<Vec<Square>> {
    (0..9).map(|file| column(pos, color, kind, file)).filter(|c| c.len() >= 2).collect()
}

/// Describes `mv` for the human notations; `None` when its origin holds no piece or it leaves the
/// board.
pub(crate) fn describe(pos: &Position, mv: Move) -> Option<Described> {
    let (from, to) = (mv.from(), mv.to());
    if !from.on_board() || !to.on_board() || from == to {
        return None;
    }
    let piece = pos.piece_at(from);
    if !piece.is_piece() {
        return None;
    }
    let (color, kind) = (piece.color(), piece.kind());
    let column = column(pos, color, kind, from.file());
    let index = column.iter().position(|&s| s == from)? as u8;
    let count = column.len() as u8;
    let origin = if count < 2 || matches!(kind, PieceKind::King | PieceKind::Advisor | PieceKind::Elephant) {
        Origin::File
    } else if kind == PieceKind::Pawn && tandem_columns(pos, color, kind).len() >= 2 {
        Origin::RankedOnFile { index, count }
    } else {
        Origin::Ranked { index, count }
    };
    Some(Described {
        color,
        kind,
        file: file_number(color, from.file()),
        origin,
        action: action(color, from, to),
        number: number(kind, color, from, to),
    })
}

/// Which of the mover's pieces of a kind a move text means.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Pick {
    /// Those on file `file` (mover's numbering). With `wxf_middle`, a file of three or five pawns
    /// means its middle pawn, as WXF writes the middle one with its plain file.
    File { file: u8, wxf_middle: bool },
    /// The `index`-th piece from the front (or from the rear) of a file holding at least
    /// `min_count` of the kind (and at least two); on `file` only, when given.
    Ranked { from_front: bool, index: u8, file: Option<u8>, min_count: u8 },
    /// The middle piece of a file holding three or five (on `file` only, when given).
    Middle { file: Option<u8> },
}

/// A parsed move text: which piece, which way, what number.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Query {
    pub kind: PieceKind,
    pub pick: Pick,
    pub action: Action,
    pub number: u8,
}

/// The squares `pick` selects among `color`'s pieces of `kind`, or why there are none.
fn candidates(
    pos: &Position,
    color: Color,
    kind: PieceKind,
    pick: Pick,
) -> Result<Vec<Square>, MissingPiece> {
    match pick {
        Pick::File { file, wxf_middle } => {
            let column = column(pos, color, kind, file_index(color, file));
            if column.is_empty() {
                return Err(MissingPiece::NoneOnFile { color, kind, file });
            }
            if wxf_middle && kind == PieceKind::Pawn && column.len() % 2 == 1 {
                return Ok(vec![column[column.len() / 2]]);
            }
            Ok(column)
        }
        Pick::Ranked { from_front, index, file, min_count } => {
            let min_count = min_count.max(2);
            let found: Vec<Square> = columns_on(pos, color, kind, file)
                .into_iter()
                .filter(|c| c.len() >= min_count as usize && c.len() > index as usize)
                .map(|c| if from_front { c[index as usize] } else { c[c.len() - 1 - index as usize] })
                .collect();
            if !found.is_empty() {
                return Ok(found);
            }
            Err(match min_count {
                2 => MissingPiece::NoTandem { kind, file },
                count => MissingPiece::TooFew { kind, file, count },
            })
        }
        Pick::Middle { file } => {
            let found: Vec<Square> = columns_on(pos, color, kind, file)
                .into_iter()
                .filter(|c| c.len() % 2 == 1 && c.len() >= 3)
                .map(|c| c[c.len() / 2])
                .collect();
            if !found.is_empty() {
                return Ok(found);
            }
            Err(MissingPiece::NoMiddle { kind, file })
        }
    }
}

/// The columns of `kind` on the file numbered `file`, or on every file.
fn columns_on(pos: &Position, color: Color, kind: PieceKind, file: Option<u8>) -> Vec<Vec<Square>> {
    match file {
        Some(f) => vec![column(pos, color, kind, file_index(color, f))],
        None => tandem_columns(pos, color, kind),
    }
}

/// The one legal move of the side to move that `query` (read from `text`) describes.
pub(crate) fn resolve(pos: &Position, text: &str, query: &Query) -> Result<Move, NotationError> {
    let color = pos.side_to_move();
    let from_squares = candidates(pos, color, query.kind, query.pick)
        .map_err(|reason| NotationError::NoSuchPiece { text: text.to_string(), reason })?;
    let mut scratch = pos.clone();
    let matches: Vec<Move> = movegen::legal_moves(&mut scratch)
        .iter()
        .copied()
        .filter(|mv| {
            from_squares.contains(&mv.from())
                && action(color, mv.from(), mv.to()) == query.action
                && number(query.kind, color, mv.from(), mv.to()) == query.number
        })
        .collect();
    match matches.as_slice() {
        [] => Err(NotationError::NoLegalMatch { text: text.to_string() }),
        [mv] => Ok(*mv),
        _ => Err(NotationError::Ambiguous { text: text.to_string(), matches }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_count_from_each_side_s_right() {
        // Red's right is file i; Black's right (from its seat) is file a.
        assert_eq!(file_number(Color::Red, 8), 1);
        assert_eq!(file_number(Color::Red, 0), 9);
        assert_eq!(file_number(Color::Black, 0), 1);
        assert_eq!(file_number(Color::Black, 8), 9);
        for n in 1..=9 {
            for c in Color::BOTH {
                assert_eq!(file_number(c, file_index(c, n)), n);
            }
        }
    }

    #[test]
    fn forward_is_towards_the_opponent() {
        let (e3, e4) = (Square::parse("e3").unwrap(), Square::parse("e4").unwrap());
        assert_eq!(action(Color::Red, e3, e4), Action::Forward);
        assert_eq!(action(Color::Black, e3, e4), Action::Backward);
        assert_eq!(action(Color::Black, e4, Square::parse("d4").unwrap()), Action::Sideways);
    }
}
