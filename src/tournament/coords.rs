//! Move text as engines write it: ICCS (ranks 0–9) or, for Fairy-Stockfish's UCI mode, ranks
//! numbered 1–10 (`h3e3` for ICCS `h2e2`, `h10g8` for `h9g7`).

use crate::board::Move;

/// A move as the engine expects it.
pub fn to_engine(mv: Move, ranks_from_one: bool) -> String {
    let text = mv.to_string();
    if !ranks_from_one {
        return text;
    }
    let b = text.as_bytes();
    let square = |file: u8, rank: u8| format!("{}{}", file as char, (rank - b'0') + 1);
    format!("{}{}", square(b[0], b[1]), square(b[2], b[3]))
}

/// Reads an engine's move text, `None` if it is not two squares on the board.
pub fn from_engine(text: &str, ranks_from_one: bool) -> Option<Move> {
    if !ranks_from_one {
        return Move::parse_iccs(text);
    }
    let mut squares = Vec::with_capacity(2);
    let mut rest = text;
    while !rest.is_empty() {
        let file = rest.chars().next().filter(|c| ('a'..='i').contains(c))?;
        let digits: String = rest[1..].chars().take_while(|c| c.is_ascii_digit()).collect();
        let rank: u32 = digits.parse().ok().filter(|r| (1..=10).contains(r))?;
        squares.push(format!("{file}{}", rank - 1));
        rest = &rest[1 + digits.len()..];
    }
    (squares.len() == 2).then(|| Move::parse_iccs(&squares.concat())).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_from_one_both_ways() {
        let mv = Move::parse_iccs("h9g7").unwrap();
        assert_eq!(to_engine(mv, true), "h10g8");
        assert_eq!(to_engine(mv, false), "h9g7");
        assert_eq!(from_engine("h10g8", true), Some(mv));
        assert_eq!(from_engine("a1a2", true), Move::parse_iccs("a0a1"));
        assert_eq!(from_engine("a0a1", true), None);
        assert_eq!(from_engine("a11a1", true), None);
        assert_eq!(from_engine("h3e3x", true), None);
        assert_eq!(from_engine("(none)", true), None);
    }
}
