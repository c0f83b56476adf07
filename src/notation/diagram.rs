//! The board drawn as text, as `chariot show`, `chariot play` and the protocol's `d` print it:
//! Chinese piece characters, both sides' file numbers and the last move marked; and the lines
//! under it (the side to move, the last move, the FEN).

use crate::board::{Color, Position, Square};
use crate::notation::chinese::{file_char, piece_char, Script};
use crate::notation::{format_move, MoveNotation};

/// An empty point, as wide as a Chinese character so the columns line up.
const EMPTY_POINT: char = '＋';

// Only the terminal's own foreground and background, red, and bold, dim and reverse: they read
// on a light background as on a dark one (a fixed white or yellow vanishes on a light one).
const RESET: &str = "\x1b[0m";
const RED_PIECE: &str = "\x1b[1;31m";
const BLACK_PIECE: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const MARK: &str = "\x1b[7m";

/// The board as text, rank 9 at the top (rank 0 when `flipped`). Each point is drawn as a
/// four-column cell; the last move's two squares are bracketed, `(…)` where it started and
/// `[…]` where it ended, so the mark survives without colours. With `color`, Red's pieces are
/// bold red, Black's bold in the terminal's own colour, and the marked squares reversed.
pub fn draw_board(pos: &Position, flipped: bool, color: bool) -> String {
    let last = pos.last_move();
    let files: Vec<u8> = if flipped { (0..9).rev().collect() } else { (0..9).collect() };
    let ranks: Vec<u8> = if flipped { (0..10).collect() } else { (0..10).rev().collect() };
    let mut out = String::new();
    // The side drawn at the top reads its file numbers along the top edge.
    let (top, bottom) = if flipped { (Color::Red, Color::Black) } else { (Color::Black, Color::Red) };
    let numbers = |side: Color| -> String {
        let mut s = String::from("   ");
        for &f in &files {
            s.push(' ');
            s.push(file_char(side, f));
            s.push(' ');
        }
        s.trim_end().to_string()
    };
    out.push_str(&numbers(top));
    out.push('\n');
    for &rank in &ranks {
        out.push_str(&format!("{rank}  "));
        for &file in &files {
            let sq = Square::new(file, rank);
            let piece = pos.piece_at(sq);
            let (open, close) = match last {
                Some(m) if m.from() == sq => ('(', ')'),
                Some(m) if m.to() == sq => ('[', ']'),
                _ => (' ', ' '),
            };
            let marked = open != ' ';
            let glyph = if piece.is_piece() {
                piece_char(piece.color(), piece.kind(), Script::Traditional)
            } else {
                EMPTY_POINT
            };
            if color {
                let style = if !piece.is_piece() {
                    DIM
                } else if piece.color() == Color::Red {
                    RED_PIECE
                } else {
                    BLACK_PIECE
                };
                let bg = if marked { MARK } else { "" };
                out.push_str(&format!("{bg}{open}{style}{glyph}{RESET}{bg}{close}{RESET}"));
            } else {
                out.push(open);
                out.push(glyph);
                out.push(close);
            }
        }
        let line_end = out.trim_end_matches(' ').len();
        out.truncate(line_end);
        out.push('\n');
        if rank == 5 && !flipped || rank == 4 && flipped {
            out.push_str("     楚 河          漢 界\n");
        }
    }
    out.push_str(&numbers(bottom));
    out.push('\n');
    let mut letters = String::from("   ");
    for &f in &files {
        letters.push_str(&format!(" {}  ", (b'a' + f) as char));
    }
    out.push_str(letters.trim_end());
    out.push('\n');
    out
}

/// The lines under the board: the side to move, the last move in ICCS and Chinese, the FEN.
pub fn describe_position(pos: &Position) -> String {
    let mut out = side_and_last_move(pos);
    out.push_str(&format!("FEN: {}\n", pos.to_fen()));
    out
}

/// The side to move (and whether it is in check), then the last move in ICCS and Chinese if
/// the position knows it: `describe_position` without the FEN.
pub fn side_and_last_move(pos: &Position) -> String {
    let mut out = String::new();
    let side = match pos.side_to_move() {
        Color::Red => "Red (红)",
        Color::Black => "Black (黑)",
    };
    out.push_str(&format!("{side} to move{}\n", if pos.is_check() { ", in check" } else { "" }));
    if let Some(mv) = pos.last_move() {
        let mut before = pos.clone();
        before.unmake_move();
        out.push_str(&format!("Last move: {mv} {}\n", format_move(&before, mv, MoveNotation::Chinese)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_drawing() {
        let text = draw_board(&Position::startpos(), false, false);
        let lines: Vec<&str> = text.lines().collect();
        // Numbers, ten ranks, the river, numbers, letters.
        assert_eq!(lines.len(), 14);
        assert_eq!(lines[0], "    １  ２  ３  ４  ５  ６  ７  ８  ９");
        assert_eq!(lines[1], "9   車  馬  象  士  將  士  象  馬  車");
        assert_eq!(lines[11], "0   俥  傌  相  仕  帥  仕  相  傌  俥");
        assert_eq!(lines[12], "    九  八  七  六  五  四  三  二  一");
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn colours_read_on_light_and_dark_terminals() {
        let text = draw_board(&Position::startpos(), false, true);
        // Black's king in bold with the terminal's own foreground, Red's in bold red.
        assert!(text.contains("\x1b[1m將\x1b[0m"), "{text:?}");
        assert!(text.contains("\x1b[1;31m帥\x1b[0m"), "{text:?}");
        // No fixed foreground but red (30-37 and 90-97 but 31) and no fixed background.
        for code in (30..=37).chain(90..=97).filter(|&c| c != 31).chain(40..=47).chain(100..=107) {
            assert!(!text.contains(&format!("[{code}m")) && !text.contains(&format!(";{code}m")), "{code}");
        }
    }

    #[test]
    fn last_move_is_bracketed_and_flip_reverses() {
        let pos = crate::notation::play_iccs(Position::startpos(), &["h2e2"]).unwrap();
        let text = draw_board(&pos, false, false);
        // Red's cannon went from h2 to e2: e2 holds [炮], h2 is an empty point in parentheses.
        let rank2 = text.lines().find(|l| l.starts_with("2 ")).unwrap();
        assert_eq!(rank2, "2   ＋  炮  ＋  ＋ [炮] ＋  ＋ (＋) ＋");
        let flipped = draw_board(&pos, true, false);
        assert!(flipped.lines().nth(1).unwrap().starts_with("0   俥  傌  相  仕  帥"));
        assert!(draw_board(&pos, false, true).contains(MARK));
    }

    #[test]
    fn the_lines_under_the_board() {
        let pos = crate::notation::play_iccs(Position::startpos(), &["h2e2"]).unwrap();
        assert_eq!(
            describe_position(&pos),
            "Black (黑) to move\nLast move: h2e2 炮二平五\n\
             FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n"
        );
        assert_eq!(side_and_last_move(&Position::startpos()), "Red (红) to move\n");
    }
}
