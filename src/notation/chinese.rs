//! Chinese notation: `炮二平五`, `马８进７`, tandem pieces `前车进一`, three pawns `中兵`, crowded
//! pawn files `二兵平四`, pawns on two files `前七平六`.
//!
//! Written in simplified characters, Red's numbers as Chinese numerals and Black's as full-width
//! digits. Read with traditional characters, 進, and any of ASCII, full-width or Chinese numerals
//! for either side, spaces allowed.

use crate::board::{Color, Move, PieceKind, Position};

use super::designation::{describe, resolve, Action, Origin, Pick, Query};
use super::{NotationError, UnreadableReason};

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The move in Chinese notation. A move whose origin holds no piece is written in ICCS instead,
/// so that nothing is lost.
pub fn format(pos: &Position, mv: Move) -> String {
    let Some(d) = describe(pos, mv) else {
        return mv.to_string();
    };
    let piece = piece_char(d.color, d.kind, Script::Simplified);
    let file = number_char(d.color, d.file);
    let mut out = String::with_capacity(12);
    match d.origin {
        Origin::File => {
            out.push(piece);
            out.push(file);
        }
        Origin::Ranked { index, count } if d.kind == PieceKind::Pawn && count >= 4 => {
            out.push(NUMERALS[index as usize]);
            out.push(piece);
        }
        Origin::Ranked { index, count } => {
            out.push(place_char(index, count));
            out.push(piece);
        }
        Origin::RankedOnFile { index, count } => {
            out.push(place_char(index, count));
            out.push(file);
        }
    }
    out.push(match d.action {
        Action::Forward => '进',
        Action::Backward => '退',
        Action::Sideways => '平',
    });
    out.push(number_char(d.color, d.number));
    out
}

/// 前 for the front piece of a file, 后 for the rear one, 中 between.
fn place_char(index: u8, count: u8) -> char {
    if index == 0 {
        '前'
    } else if index + 1 == count {
        '后'
    } else {
        '中'
    }
}

/// `number` (1..=9) as `color` writes it: Chinese numerals for Red, full-width digits for Black.
fn number_char(color: Color, number: u8) -> char {
    let i = (number.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => NUMERALS[i],
        Color::Black => FULL_WIDTH[i],
    }
}

/// The number `color` calls board file `file` (0 = a … 8 = i) by, as it writes it: each side
/// counts the files from its own right, so Red reads 九 … 一 and Black １ … ９ from a to i.
pub fn file_char(color: Color, file: u8) -> char {
    let number = match color {
        Color::Red => 9 - file.min(8),
        Color::Black => file.min(8) + 1,
    };
    number_char(color, number)
}

/// How piece characters are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Script {
    /// As moves are written: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black.
    Simplified,
    /// As boards are drawn, the two sides' pieces told apart: 帥仕相傌俥炮兵 for Red,
    /// 將士象馬車砲卒 for Black.
    Traditional,
}

/// A kind's characters: simplified Red, simplified Black, traditional Red, traditional Black.
const fn piece_chars(kind: PieceKind) -> [char; 4] {
    match kind {
        PieceKind::King => ['帅', '将', '帥', '將'],
        PieceKind::Advisor => ['仕', '士', '仕', '士'],
        PieceKind::Elephant => ['相', '象', '相', '象'],
        PieceKind::Horse => ['马', '马', '傌', '馬'],
        PieceKind::Rook => ['车', '车', '俥', '車'],
        PieceKind::Cannon => ['炮', '炮', '炮', '砲'],
        PieceKind::Pawn => ['兵', '卒', '兵', '卒'],
    }
}

/// The character of a piece of `color` and `kind`, in `script`.
pub fn piece_char(color: Color, kind: PieceKind, script: Script) -> char {
    let first = match script {
        Script::Simplified => 0,
        Script::Traditional => 2,
    };
    piece_chars(kind)[first + color.index()]
}

/// The kind a piece character names, simplified or traditional, of either side (包 is a cannon
/// too).
fn kind_of(c: char) -> Option<PieceKind> {
    if c == '包' {
        return Some(PieceKind::Cannon);
    }
    PieceKind::ALL.into_iter().find(|&kind| piece_chars(kind).contains(&c))
}

/// The value 1..=9 of a Chinese numeral, full-width digit or ASCII digit.
fn number_of(c: char) -> Option<u8> {
    let i = NUMERALS.iter().position(|&n| n == c).or_else(|| FULL_WIDTH.iter().position(|&n| n == c));
    match i {
        Some(i) => Some(i as u8 + 1),
        None => c.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8),
    }
}

/// The legal move `text` names in Chinese notation.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    let query = read(text).map_err(|reason| NotationError::Unreadable { text: text.to_string(), reason })?;
    resolve(pos, text, &query)
}

/// Reads the Chinese text into a query, or says what is wrong with it.
fn read(text: &str) -> Result<Query, UnreadableReason> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let [first, second, verb, last] = chars[..] else {
        return Err(UnreadableReason::ChineseLength);
    };
    let action = match verb {
        '进' | '進' => Action::Forward,
        '退' => Action::Backward,
        '平' => Action::Sideways,
        c => return Err(UnreadableReason::ChineseVerb(c)),
    };
    let number = number_of(last).ok_or(UnreadableReason::ChineseNumber(last))?;
    let place = |c: char, file: Option<u8>| match c {
        '前' => Some(Pick::Ranked { from_front: true, index: 0, file, min_count: 2 }),
        '后' | '後' => Some(Pick::Ranked { from_front: false, index: 0, file, min_count: 2 }),
        '中' => Some(Pick::Middle { file }),
        _ => None,
    };
    let named = if let (Some(kind), Some(file)) = (kind_of(first), number_of(second)) {
        Some((kind, Pick::File { file, wxf_middle: false }))
    } else if let Some(kind) = kind_of(second) {
        // A place mark, or an ordinal counting pawns from the front of a crowded file.
        place(first, None).or_else(|| ordinal(first)).map(|pick| (kind, pick))
    } else if let Some(file) = number_of(second) {
        place(first, Some(file)).map(|pick| (PieceKind::Pawn, pick))
    } else {
        None
    };
    let (kind, pick) = named.ok_or_else(|| UnreadableReason::ChinesePiece(format!("{first}{second}")))?;
    Ok(Query { kind, pick, action, number })
}

/// 一..五 (or a digit 1..5) before a piece: that many from the front of a file holding at least as
/// many.
fn ordinal(c: char) -> Option<Pick> {
    let n = number_of(c).filter(|&n| n <= 5)?;
    Some(Pick::Ranked { from_front: true, index: n - 1, file: None, min_count: n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_numbers_the_files_from_its_right() {
        let row = |color| -> String { (0..9).map(|file| file_char(color, file)).collect() };
        assert_eq!(row(Color::Red), "九八七六五四三二一");
        assert_eq!(row(Color::Black), "１２３４５６７８９");
    }

    #[test]
    fn piece_characters_in_both_scripts() {
        let row = |color, script| -> String {
            PieceKind::ALL.into_iter().map(|kind| piece_char(color, kind, script)).collect()
        };
        assert_eq!(row(Color::Red, Script::Simplified), "帅仕相马车炮兵");
        assert_eq!(row(Color::Black, Script::Simplified), "将士象马车炮卒");
        assert_eq!(row(Color::Red, Script::Traditional), "帥仕相傌俥炮兵");
        assert_eq!(row(Color::Black, Script::Traditional), "將士象馬車砲卒");
        // Every character written is read back as its kind, and so is the cannon's other one.
        for kind in PieceKind::ALL {
            for color in Color::BOTH {
                for script in [Script::Simplified, Script::Traditional] {
                    assert_eq!(kind_of(piece_char(color, kind, script)), Some(kind));
                }
            }
        }
        assert_eq!(kind_of('包'), Some(PieceKind::Cannon));
        assert_eq!(kind_of('进'), None);
    }

    #[test]
    fn numbers_in_every_script() {
        for (i, c) in ['一', '１', '1'].into_iter().enumerate() {
            assert_eq!(number_of(c), Some(1), "script {i}");
        }
        assert_eq!(number_of('九'), Some(9));
        assert_eq!(number_of('９'), Some(9));
        assert_eq!(number_of('0'), None);
        assert_eq!(number_of('十'), None);
    }

    #[test]
    fn reads_each_shape_of_piece_name() {
        let q = read("炮二平五").unwrap();
        assert_eq!((q.kind, q.action, q.number), (PieceKind::Cannon, Action::Sideways, 5));
        assert_eq!(q.pick, Pick::File { file: 2, wxf_middle: false });
        assert_eq!(read("馬 8 進 7").unwrap().kind, PieceKind::Horse);
        let q = read("後俥退一").unwrap();
        assert_eq!((q.kind, q.action), (PieceKind::Rook, Action::Backward));
        assert_eq!(q.pick, Pick::Ranked { from_front: false, index: 0, file: None, min_count: 2 });
        assert_eq!(read("中卒平４").unwrap().pick, Pick::Middle { file: None });
        let q = read("前七平六").unwrap();
        assert_eq!(q.kind, PieceKind::Pawn);
        assert_eq!(q.pick, Pick::Ranked { from_front: true, index: 0, file: Some(7), min_count: 2 });
        assert_eq!(
            read("三兵进一").unwrap().pick,
            Pick::Ranked { from_front: true, index: 2, file: None, min_count: 3 }
        );
    }

    #[test]
    fn refuses_malformed_text() {
        for bad in [
            "",
            "炮二平",
            "炮二平五五",
            "炮二走五",
            "炮二平十",
            "猫二平五",
            "六兵进一",
            "前後进一",
            "炮前进一",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_refusal_has_its_reason_and_message() {
        let cases = [
            (
                "炮二平",
                UnreadableReason::ChineseLength,
                "Chinese notation is four characters such as 炮二平五",
            ),
            ("炮二走五", UnreadableReason::ChineseVerb('走'), "'走' is not 进, 退 or 平"),
            ("炮二平十", UnreadableReason::ChineseNumber('十'), "'十' at the end is not a number 1-9"),
            ("猫二平五", UnreadableReason::ChinesePiece("猫二".into()), "'猫二' does not name a piece"),
        ];
        for (text, reason, message) in cases {
            let Err(e) = read(text) else { panic!("{text} was read") };
            assert_eq!((&e, e.to_string().as_str()), (&reason, message), "{text}");
        }
    }
}
