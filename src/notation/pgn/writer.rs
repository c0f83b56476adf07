//! `write_pgn`: a game to PGN text in the notation asked for.

use crate::board::{movegen, Color, START_FEN};
use crate::notation::{format_move, MoveNotation, NotationError};

use super::{PgnGame, RESULTS};

/// Movetext lines stay within this many display columns (a CJK character counts two).
const MAX_COLUMNS: usize = 79;

/// The Seven Tag Roster as xiangqi writes it (Red and Black for White and Black), with defaults.
const ROSTER: [(&str, &str); 6] =
    [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"), ("Red", "?"), ("Black", "?")];

/// Tags this writer produces itself, whatever the game's tags say.
const GENERATED: [&str; 4] = ["Result", "Variant", "FEN", "Format"];

/// The game as PGN text: the roster tags (the game's values or `?`), `Result`, `Variant`, `FEN`
/// when the start is not the standard one, `Format`, then the game's other tags; a blank line; the
/// numbered moves in `notation` with their suffixes and `{comments}`, wrapped under 80 columns;
/// the result.
///
/// A result other than the four PGN tokens is written `*`; `}` in a comment becomes `)` (PGN
/// comments cannot contain it); tag names lose characters other than letters, digits and `_`.
/// Fails on the first move that is not legal where it is played.
pub fn write_pgn(game: &PgnGame, notation: MoveNotation) -> Result<String, NotationError> {
    let result = if RESULTS.contains(&game.result.as_str()) { game.result.as_str() } else { "*" };
    let mut out = String::new();
    for (name, value) in tags(game, notation, result) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    let mut words = movetext(game, notation)?;
    words.push(result.to_string());
    for line in wrap(&words) {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// The tag pairs in the order they are written.
fn tags(game: &PgnGame, notation: MoveNotation, result: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&(name, default)| (name.to_string(), game.tag(name).unwrap_or(default).to_string()))
        .collect();
    out.push(("Result".to_string(), result.to_string()));
    out.push(("Variant".to_string(), "xiangqi".to_string()));
    let fen = game.start.to_fen();
    if fen != START_FEN {
        out.push(("FEN".to_string(), fen));
    }
    let format = match notation {
        MoveNotation::Iccs => "ICCS",
        MoveNotation::Wxf => "WXF",
        MoveNotation::Chinese => "Chinese",
    };
    out.push(("Format".to_string(), format.to_string()));
    for (name, value) in &game.tags {
        let name: String = name.chars().filter(|c| c.is_alphanumeric() || *c == '_').collect();
        let known = ROSTER.iter().map(|r| r.0).chain(GENERATED).any(|k| k.eq_ignore_ascii_case(&name));
        if !name.is_empty() && !known {
            out.push((name, value.clone()));
        }
    }
    out
}

/// A tag value with quotes and backslashes escaped and line breaks made spaces.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

/// The movetext as units that wrapping keeps whole: numbered moves with suffixes, comment words.
fn movetext(game: &PgnGame, notation: MoveNotation) -> Result<Vec<String>, NotationError> {
    let mut pos = game.start.clone();
    let mut words = Vec::new();
    // Black's move carries its own number ("3...") at the start and after a comment.
    let mut black_needs_number = true;
    for (i, m) in game.moves.iter().enumerate() {
        if !movegen::is_legal(&mut pos, m.mv) {
            return Err(NotationError::IllegalMove { mv: m.mv, ply: i + 1 });
        }
        // The number travels with its move so that a line never ends in a bare "17.".
        let number = pos.fullmove_number();
        let mut text = match pos.side_to_move() {
            Color::Red => format!("{number}. "),
            Color::Black if black_needs_number => format!("{number}... "),
            Color::Black => String::new(),
        };
        text.push_str(&format_move(&pos, m.mv, notation));
        if let Some(suffix) =
            m.suffix.as_deref().filter(|s| !s.is_empty() && s.chars().all(|c| "!?".contains(c)))
        {
            text.push_str(suffix);
        }
        words.push(text);
        black_needs_number = false;
        if let Some(comment) = &m.comment {
            words.extend(comment_words(comment));
            black_needs_number = true;
        }
        pos.make_move(m.mv);
    }
    Ok(words)
}

/// A comment as words, the first carrying `{` and the last `}`.
fn comment_words(comment: &str) -> Vec<String> {
    let clean = comment.replace('}', ")");
    let mut words: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return vec!["{}".to_string()];
    }
    words[0].insert(0, '{');
    if let Some(last) = words.last_mut() {
        last.push('}');
    }
    words
}

/// Display columns of `text`: two for wide (CJK and full-width) characters, one otherwise.
fn columns(text: &str) -> usize {
    text.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F => 2,
            0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

/// Units filled into lines of at most `MAX_COLUMNS` columns (a longer word gets a line alone).
fn wrap(words: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut width = 0;
    for word in words {
        let w = columns(word);
        if !line.is_empty() && width + 1 + w > MAX_COLUMNS {
            lines.push(std::mem::take(&mut line));
            width = 0;
        }
        if !line.is_empty() {
            line.push(' ');
            width += 1;
        }
        line.push_str(word);
        width += w;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_double() {
        assert_eq!(columns("h2e2"), 4);
        assert_eq!(columns("炮二平五"), 8);
        assert_eq!(columns("马８进７"), 8);
    }

    #[test]
    fn wrapping_keeps_lines_short_and_words_whole() {
        let words: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
        let lines = wrap(&words);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| columns(l) <= MAX_COLUMNS));
        assert_eq!(lines.join(" ").split(' ').count(), 100);
    }

    #[test]
    fn comments_are_braced() {
        assert_eq!(comment_words("a  b}c"), ["{a", "b)c}"]);
        assert_eq!(comment_words(" "), ["{}"]);
        assert_eq!(comment_words("x"), ["{x}"]);
    }
}
