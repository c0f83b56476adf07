//! WXF notation: `C2=5`, `h8+7`, tandem pieces `R+=3`, pawn files `3+=4`, crowded pawn files
//! `++=4`.
//!
//! A move is the piece (letter and origin file, or a front/rear mark in place of one of them), an
//! operator (`+` forward, `-` backward, `=` sideways) and a number: ranks travelled for a king,
//! rook, cannon or pawn going straight, otherwise the destination file.

use crate::board::{Color, Move, PieceKind, Position};

use super::designation::{describe, resolve, Action, Origin, Pick, Query};
use super::{NotationError, UnreadableReason};

/// The move in WXF, Red's pieces in upper case and Black's in lower case. A move whose origin holds
/// no piece is written in ICCS instead, so that nothing is lost.
pub fn format(pos: &Position, mv: Move) -> String {
    let Some(d) = describe(pos, mv) else {
        return mv.to_string();
    };
    let letter = letter(d.kind, d.color);
    let file = d.file.to_string();
    let head = match d.origin {
        Origin::File => format!("{letter}{file}"),
        Origin::Ranked { index, count } if d.kind != PieceKind::Pawn || count == 2 => {
            format!("{letter}{}", if index == 0 { '+' } else { '-' })
        }
        Origin::Ranked { index, count: 3 } => match index {
            0 => format!("{letter}+"),
            1 => format!("{letter}{file}"),
            _ => format!("{letter}-"),
        },
        Origin::Ranked { index, count } => crowded_mark(index, count, &file),
        Origin::RankedOnFile { index, count } => {
            if index == 0 {
                format!("{file}+")
            } else if index + 1 == count {
                format!("{file}-")
            } else {
                format!("{letter}{file}")
            }
        }
    };
    let operator = match d.action {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Sideways => '=',
    };
    format!("{head}{operator}{}", d.number)
}

/// The mark naming pawn `index` (0 = front) of four or five on one file: `++`, `+`, the file
/// (the middle of five), `-`, `--`.
fn crowded_mark(index: u8, count: u8, file: &str) -> String {
    let from_rear = count - 1 - index;
    match (index, from_rear) {
        (0, _) => "++".to_string(),
        (_, 0) => "--".to_string(),
        (1, _) => "+".to_string(),
        (_, 1) => "-".to_string(),
        _ => file.to_string(),
    }
}

/// WXF's letter for a piece: K A E H R C P, lower case for Black.
fn letter(kind: PieceKind, color: Color) -> char {
    let upper = match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    };
    match color {
        Color::Red => upper,
        Color::Black => upper.to_ascii_lowercase(),
    }
}

/// The legal move `text` names in WXF. Letters may be of either case; `B` and `N` are accepted
/// for elephant and horse, `.` for sideways, and a front/rear mark before the letter (`+R=3`).
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    let query = read(text).map_err(|reason| NotationError::Unreadable { text: text.to_string(), reason })?;
    resolve(pos, text, &query)
}

/// Reads the WXF text into a query, or says what is wrong with it.
fn read(text: &str) -> Result<Query, UnreadableReason> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    if !(3..=4).contains(&n) {
        return Err(UnreadableReason::WxfLength);
    }
    let number = digit(chars[n - 1]).ok_or(UnreadableReason::WxfNumber(chars[n - 1]))?;
    let action = match chars[n - 2] {
        '+' => Action::Forward,
        '-' => Action::Backward,
        '=' | '.' => Action::Sideways,
        c => return Err(UnreadableReason::WxfOperator(c)),
    };
    let (kind, pick) = piece_name(&chars[..n - 2])
        .ok_or_else(|| UnreadableReason::WxfPiece(chars[..n - 2].iter().collect()))?;
    Ok(Query { kind, pick, action, number })
}

/// The piece named by the characters before the operator: a letter and a file, a letter and a
/// front/rear mark (either order), a pawn file and a mark, a bare pawn file, or crowded-pawn marks.
fn piece_name(prefix: &[char]) -> Option<(PieceKind, Pick)> {
    let kind_of = |c: char| PieceKind::from_letter(c).filter(|_| c.is_ascii_alphabetic());
    let ranked = |sign: char, index: u8, file: Option<u8>, min_count: u8| Pick::Ranked {
        from_front: sign == '+',
        index,
        file,
        min_count,
    };
    let pawn = PieceKind::Pawn;
    Some(match *prefix {
        [l, d] if kind_of(l).is_some() && digit(d).is_some() => {
            (kind_of(l)?, Pick::File { file: digit(d)?, wxf_middle: true })
        }
        [l, s @ ('+' | '-')] | [s @ ('+' | '-'), l] if kind_of(l).is_some() => {
            (kind_of(l)?, ranked(s, 0, None, 2))
        }
        [d, s @ ('+' | '-')] if digit(d).is_some() => (pawn, ranked(s, 0, digit(d), 2)),
        [s @ ('+' | '-'), t] if s == t => (pawn, ranked(s, 0, None, 4)),
        [s @ ('+' | '-')] => (pawn, ranked(s, 1, None, 4)),
        [d] => (pawn, Pick::File { file: digit(d)?, wxf_middle: true }),
        _ => return None,
    })
}

/// The value of an ASCII digit 1..=9.
fn digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_shape_of_piece_name() {
        let q = read("C2=5").unwrap();
        assert_eq!((q.kind, q.action, q.number), (PieceKind::Cannon, Action::Sideways, 5));
        assert_eq!(q.pick, Pick::File { file: 2, wxf_middle: true });
        let front = Pick::Ranked { from_front: true, index: 0, file: None, min_count: 2 };
        assert_eq!(read("R+=3").unwrap().pick, front);
        assert_eq!(read("+r.3").unwrap().pick, front);
        assert_eq!(read("n-+7").unwrap().kind, PieceKind::Horse);
        let q = read("7-=6").unwrap();
        assert_eq!(q.kind, PieceKind::Pawn);
        assert_eq!(q.pick, Pick::Ranked { from_front: false, index: 0, file: Some(7), min_count: 2 });
        assert_eq!(
            read("++=4").unwrap().pick,
            Pick::Ranked { from_front: true, index: 0, file: None, min_count: 4 }
        );
        assert_eq!(
            read("-+1").unwrap().pick,
            Pick::Ranked { from_front: false, index: 1, file: None, min_count: 4 }
        );
        assert_eq!(read("3=4").unwrap().pick, Pick::File { file: 3, wxf_middle: true });
    }

    #[test]
    fn refuses_malformed_text() {
        for bad in ["", "C2", "C2=", "C2=0", "C2*5", "X2=5", "C2=55", "C22=5", "+-=4", "=2=5", "C0=5"] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_refusal_has_its_reason_and_message() {
        let cases = [
            ("C2", UnreadableReason::WxfLength, "WXF is three or four characters such as C2=5"),
            ("C2=0", UnreadableReason::WxfNumber('0'), "'0' at the end is not a digit 1-9"),
            ("C2*5", UnreadableReason::WxfOperator('*'), "'*' is not an operator (+, - or =)"),
            ("X2=5", UnreadableReason::WxfPiece("X2".into()), "'X2' does not name a piece"),
        ];
        for (text, reason, message) in cases {
            let Err(e) = read(text) else { panic!("{text} was read") };
            assert_eq!((&e, e.to_string().as_str()), (&reason, message), "{text}");
        }
        let e = crate::notation::parse_move(&Position::startpos(), "X2=5").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'X2=5' is not a move: neither ICCS (like h2e2) nor WXF: 'X2' does not name a piece"
        );
    }

    #[test]
    fn crowded_marks_run_front_to_rear() {
        let four: Vec<String> = (0..4).map(|i| crowded_mark(i, 4, "3")).collect();
        assert_eq!(four, ["++", "+", "-", "--"]);
        let five: Vec<String> = (0..5).map(|i| crowded_mark(i, 5, "3")).collect();
        assert_eq!(five, ["++", "+", "3", "-", "--"]);
    }
}
