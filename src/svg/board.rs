//! The board as SVG: the lines, river and palaces, the pieces as Chinese characters in red and
//! black, the last move marked and, optionally, an arrow for a suggested move.

use std::fmt::Write;

use super::{escape, open};
use crate::board::{Color, Move, Position, Square};
use crate::notation::chinese::{file_char, piece_char, Script};

/// Pixels between two lines of the board.
const CELL: i32 = 56;
/// Pixels around the board, room for the file numbers.
const MARGIN: i32 = 66;
const WIDTH: i32 = 2 * MARGIN + 8 * CELL;
const HEIGHT: i32 = 2 * MARGIN + 9 * CELL;
const PIECE_RADIUS: i32 = CELL * 45 / 100;

const WOOD: &str = "#efd39b";
const LINE: &str = "#5b3a1d";
const RED: &str = "#b3160f";
const BLACK: &str = "#1d1d1d";
const PIECE_FACE: &str = "#fbeed0";
const LAST_MOVE: &str = "#1f6fd1";
const ARROW: &str = "#1f9d3a";

/// What to draw besides the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardPicture {
    /// Draw from Black's side (rank 0 at the top).
    pub flipped: bool,
    /// An arrow for this move, for example the engine's best move.
    pub arrow: Option<Move>,
    /// A caption under the board.
    pub caption: Option<String>,
}

/// The pixel centre of `sq`.
fn centre(sq: Square, flipped: bool) -> (i32, i32) {
    let (file, rank) = (sq.file() as i32, sq.rank() as i32);
    let (column, row) = if flipped { (8 - file, rank) } else { (file, 9 - rank) };
    (MARGIN + column * CELL, MARGIN + row * CELL)
}

/// The position as an SVG document, with the last move played marked.
pub fn board_svg(pos: &Position, picture: &BoardPicture) -> String {
    let caption_room = if picture.caption.is_some() { 28 } else { 0 };
    let mut s = open(WIDTH as u32, (HEIGHT + caption_room) as u32);
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"{WOOD}\"/>");
    grid(&mut s, picture.flipped);
    file_numbers(&mut s, picture.flipped);
    for sq in Square::all() {
        let piece = pos.piece_at(sq);
        if piece.is_piece() {
            let (x, y) = centre(sq, picture.flipped);
            let ink = if piece.color() == Color::Red { RED } else { BLACK };
            let glyph = piece_char(piece.color(), piece.kind(), Script::Traditional);
            let _ = writeln!(
                s,
                "<g class=\"piece\"><circle cx=\"{x}\" cy=\"{y}\" r=\"{PIECE_RADIUS}\" fill=\"{PIECE_FACE}\" stroke=\"{ink}\" stroke-width=\"2.5\"/>\
                 <circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"1\"/>\
                 <text x=\"{x}\" y=\"{y}\" fill=\"{ink}\" font-size=\"{}\" text-anchor=\"middle\" dy=\"0.35em\">{glyph}</text></g>",
                PIECE_RADIUS - 4,
                CELL * 55 / 100
            );
        }
    }
    // Over the pieces, so the mark shows on the piece that moved.
    if let Some(mv) = pos.last_move() {
        last_move(&mut s, mv, picture.flipped);
    }
    if let Some(mv) = picture.arrow {
        arrow(&mut s, mv, picture.flipped);
    }
    if let Some(caption) = &picture.caption {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" fill=\"{LINE}\" font-size=\"18\" text-anchor=\"middle\">{}</text>",
            WIDTH / 2,
            HEIGHT + 8,
            escape(caption)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The nine files, ten ranks, the river and the two palaces' diagonals.
fn grid(s: &mut String, flipped: bool) {
    let point = |file: u8, rank: u8| centre(Square::new(file, rank), flipped);
    let line = |s: &mut String, (x1, y1): (i32, i32), (x2, y2): (i32, i32), width: f32| {
        let _ = writeln!(
            s,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{LINE}\" stroke-width=\"{width}\"/>"
        );
    };
    for rank in 0..10 {
        line(s, point(0, rank), point(8, rank), 1.5);
    }
    for file in 0..9 {
        if file == 0 || file == 8 {
            line(s, point(file, 0), point(file, 9), 1.5);
        } else {
            // Inner files stop at the river.
            line(s, point(file, 0), point(file, 4), 1.5);
            line(s, point(file, 5), point(file, 9), 1.5);
        }
    }
    for (low, high) in [(0, 2), (7, 9)] {
        line(s, point(3, low), point(5, high), 1.2);
        line(s, point(5, low), point(3, high), 1.2);
    }
    let (left, top) = (MARGIN - 6, MARGIN - 6);
    let _ = writeln!(
        s,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"3\"/>",
        8 * CELL + 12,
        9 * CELL + 12
    );
    let river_y = MARGIN + 4 * CELL + CELL / 2;
    for (x, text) in [(MARGIN + 2 * CELL, "楚 河"), (MARGIN + 6 * CELL, "漢 界")] {
        let _ = writeln!(
            s,
            "<text x=\"{x}\" y=\"{river_y}\" fill=\"{LINE}\" font-size=\"{}\" text-anchor=\"middle\" dy=\"0.35em\">{text}</text>",
            CELL / 2
        );
    }
}

/// Each side's file numbers along its own edge.
fn file_numbers(s: &mut String, flipped: bool) {
    let (top, bottom) = if flipped { (Color::Red, Color::Black) } else { (Color::Black, Color::Red) };
    for file in 0..9u8 {
        let (x, _) = centre(Square::new(file, 0), flipped);
        for (side, y) in [(top, 18), (bottom, HEIGHT - 18)] {
            let _ = writeln!(
                s,
                "<text x=\"{x}\" y=\"{y}\" fill=\"{LINE}\" font-size=\"16\" text-anchor=\"middle\" dy=\"0.35em\">{}</text>",
                file_char(side, file)
            );
        }
    }
}

/// The last move: a dashed ring where it started and a ring around the piece where it ended.
fn last_move(s: &mut String, mv: Move, flipped: bool) {
    let (fx, fy) = centre(mv.from(), flipped);
    let (tx, ty) = centre(mv.to(), flipped);
    let _ = writeln!(
        s,
        "<circle class=\"last-move\" cx=\"{fx}\" cy=\"{fy}\" r=\"{}\" fill=\"none\" stroke=\"{LAST_MOVE}\" stroke-width=\"2\" stroke-dasharray=\"5 4\"/>",
        PIECE_RADIUS - 6
    );
    let _ = writeln!(
        s,
        "<circle class=\"last-move\" cx=\"{tx}\" cy=\"{ty}\" r=\"{}\" fill=\"none\" stroke=\"{LAST_MOVE}\" stroke-width=\"4\"/>",
        PIECE_RADIUS + 3
    );
}

/// An arrow from the move's start to its end, stopping short of the target's centre.
fn arrow(s: &mut String, mv: Move, flipped: bool) {
    let (fx, fy) = centre(mv.from(), flipped);
    let (tx, ty) = centre(mv.to(), flipped);
    let (dx, dy) = ((tx - fx) as f64, (ty - fy) as f64);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let shorten = (PIECE_RADIUS as f64 * 0.6).min(length / 2.0);
    let (ex, ey) = (tx as f64 - dx / length * shorten, ty as f64 - dy / length * shorten);
    let _ = writeln!(
        s,
        "<defs><marker id=\"head\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\" orient=\"auto\">\
         <path d=\"M0,0 L4,2 L0,4 z\" fill=\"{ARROW}\"/></marker></defs>\n\
         <line class=\"arrow\" x1=\"{fx}\" y1=\"{fy}\" x2=\"{ex:.1}\" y2=\"{ey:.1}\" stroke=\"{ARROW}\" stroke-width=\"7\" \
         stroke-opacity=\"0.8\" stroke-linecap=\"round\" marker-end=\"url(#head)\"/>"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_draws_32_pieces_and_no_last_move() {
        let svg = board_svg(&Position::startpos(), &BoardPicture::default());
        assert_eq!(svg.matches("class=\"piece\"").count(), 32);
        assert!(!svg.contains("last-move"));
        assert!(!svg.contains("class=\"arrow\""));
        assert!(svg.contains('帥') && svg.contains('將'));
    }

    #[test]
    fn the_last_move_and_the_arrow_are_drawn_where_they_are() {
        let mut pos = Position::startpos();
        pos.make_move(Move::parse_iccs("h2e2").unwrap());
        let arrow = Move::parse_iccs("h9g7").unwrap();
        let svg = board_svg(&pos, &BoardPicture { arrow: Some(arrow), ..BoardPicture::default() });
        let (tx, ty) = centre(Square::new(4, 2), false);
        assert!(svg.contains(&format!("class=\"last-move\" cx=\"{tx}\" cy=\"{ty}\"")), "{svg}");
        let (ax, ay) = centre(Square::new(7, 9), false);
        assert!(svg.contains(&format!("class=\"arrow\" x1=\"{ax}\" y1=\"{ay}\"")), "{svg}");
    }

    #[test]
    fn flipping_puts_reds_back_rank_at_the_top() {
        assert!(centre(Square::new(0, 0), true).1 < centre(Square::new(0, 9), true).1);
        assert!(centre(Square::new(0, 0), false).1 > centre(Square::new(0, 9), false).1);
        assert_eq!(centre(Square::new(0, 0), true).0, centre(Square::new(8, 0), false).0);
    }
}
