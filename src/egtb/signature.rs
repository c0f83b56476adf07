//! Material signatures: which pieces each side has, written as Red's pieces then Black's, each
//! side's list starting with its king (`KRKAA`: king and rook against king and two advisors).
//!
//! A table is stored once for a signature and its colour mirror (`KRKAA` and `KAAKR` are the same
//! ending with the colours swapped); `canonical` picks the stored orientation.

use std::fmt;
use std::str::FromStr;

use crate::board::{Color, PieceKind};

/// The order pieces are written in after each king: attackers strongest first, then defenders.
pub const WRITTEN_ORDER: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// The kinds that can cross the river and give mate.
pub const ATTACKERS: [PieceKind; 4] = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn];

/// Each side's piece counts (kings included, always one), by colour index and kind index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    counts: [[u8; 7]; 2],
}

/// Why a signature was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignatureError {
    /// It does not start with Red's king.
    NoRedKing(String),
    /// It has no second `K` for Black's king, or more than two.
    KingCount(String),
    /// A letter that names no piece.
    UnknownLetter(char),
    /// More pieces of a kind than a side starts with.
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
    },
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::NoRedKing(s) => {
                write!(f, "signature {s} must start with Red's king 'K' (as in KRKAA)")
            }
            SignatureError::KingCount(s) => {
                write!(f, "signature {s} needs exactly two kings: Red's first, then Black's (as in KRKAA)")
            }
            SignatureError::UnknownLetter(c) => {
                write!(f, "'{}' is no piece letter (K A B N R C P)", c.escape_default())
            }
            SignatureError::TooMany { color, kind } => {
                write!(
                    f,
                    "{} has more {}s than a side starts with ({})",
                    color.name(),
                    kind.name(),
                    kind.max_count()
                )
            }
        }
    }
}

impl std::error::Error for SignatureError {}

impl Signature {
    /// Two bare kings.
    pub const BARE_KINGS: Signature = Signature { counts: [[1, 0, 0, 0, 0, 0, 0]; 2] };

    /// How many `kind` pieces `color` has.
    pub fn count(&self, color: Color, kind: PieceKind) -> usize {
        self.counts[color.index()][kind.index()] as usize
    }

    /// The signature with one more `kind` for `color`, if a side may have that many.
    pub fn with(mut self, color: Color, kind: PieceKind) -> Option<Signature> {
        let c = &mut self.counts[color.index()][kind.index()];
        if (*c as usize) >= kind.max_count() {
            return None;
        }
        *c += 1;
        Some(self)
    }

    /// The signature with one `kind` of `color` fewer (after it is captured).
    pub fn without(mut self, color: Color, kind: PieceKind) -> Option<Signature> {
        let c = &mut self.counts[color.index()][kind.index()];
        if kind == PieceKind::King || *c == 0 {
            return None;
        }
        *c -= 1;
        Some(self)
    }

    /// All pieces on the board, kings included.
    pub fn piece_count(&self) -> usize {
        self.counts.iter().flatten().map(|&c| c as usize).sum()
    }

    /// Rooks, horses, cannons and pawns of both sides.
    pub fn attackers(&self) -> usize {
        Color::BOTH.iter().map(|&c| ATTACKERS.iter().map(|&k| self.count(c, k)).sum::<usize>()).sum()
    }

    /// The same ending with the colours swapped.
    pub fn mirrored(&self) -> Signature {
        Signature { counts: [self.counts[1], self.counts[0]] }
    }

    /// What makes a side "stronger" for choosing the stored orientation: attackers first.
    fn side_key(&self, color: Color) -> [u8; 7] {
        let c = &self.counts[color.index()];
        let attackers = ATTACKERS.iter().map(|k| c[k.index()]).sum();
        let mut key = [attackers, 0, 0, 0, 0, 0, 0];
        for (i, kind) in WRITTEN_ORDER.iter().enumerate() {
            key[i + 1] = c[kind.index()];
        }
        key
    }

    /// The orientation a table is stored in (Red the stronger side), and whether that is this
    /// signature with the colours swapped.
    pub fn canonical(&self) -> (Signature, bool) {
        if self.side_key(Color::Black) > self.side_key(Color::Red) {
            (self.mirrored(), true)
        } else {
            (*self, false)
        }
    }

    /// Whether the signature is its own colour mirror (`KRKR`).
    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// The signatures one capture away (one piece of either side gone), each canonical, without
    /// repeats.
    pub fn capture_children(&self) -> Vec<Signature> {
        let mut out: Vec<Signature> = Vec::new();
        for color in Color::BOTH {
            for kind in WRITTEN_ORDER {
                if let Some(child) = self.without(color, kind) {
                    let child = child.canonical().0;
                    if !out.contains(&child) {
                        out.push(child);
                    }
                }
            }
        }
        out
    }

    /// Every canonical signature with at most `n` attackers in all and any advisors and
    /// elephants on either side.
    pub fn all_with_attackers(n: usize) -> Vec<Signature> {
        let mut out = Vec::new();
        let mut frontier = vec![Signature::BARE_KINGS];
        // Grow by one piece at a time; the set is small (a few thousand at n = 2).
        while let Some(sig) = frontier.pop() {
            let sig = sig.canonical().0;
            if out.contains(&sig) {
                continue;
            }
            out.push(sig);
            for color in Color::BOTH {
                for kind in WRITTEN_ORDER {
                    let is_attacker = ATTACKERS.contains(&kind);
                    if let Some(next) = sig.with(color, kind) {
                        if !is_attacker || next.attackers() <= n {
                            frontier.push(next);
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }
}

impl FromStr for Signature {
    type Err = SignatureError;
    fn from_str(s: &str) -> Result<Signature, SignatureError> {
        let shown = crate::quote::quoted(s);
        if !s.starts_with(['K', 'k']) {
            return Err(SignatureError::NoRedKing(shown));
        }
        let kings = s.chars().filter(|c| c.eq_ignore_ascii_case(&'K')).count();
        if kings != 2 {
            return Err(SignatureError::KingCount(shown));
        }
        let mut counts = [[0u8; 7]; 2];
        let mut side = 0;
        for (i, c) in s.chars().enumerate() {
            let kind = PieceKind::from_letter(c).ok_or(SignatureError::UnknownLetter(c))?;
            if kind == PieceKind::King && i > 0 {
                side = 1;
            }
            let color = Color::BOTH[side];
            let n = &mut counts[side][kind.index()];
            *n += 1;
            if *n as usize > kind.max_count() {
                return Err(SignatureError::TooMany { color, kind });
            }
        }
        Ok(Signature { counts })
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::BOTH {
            f.write_str("K")?;
            for kind in WRITTEN_ORDER {
                for _ in 0..self.count(color, kind) {
                    write!(f, "{}", kind.letter())?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(s: &str) -> Signature {
        s.parse().unwrap()
    }

    #[test]
    fn signatures_read_and_write_in_the_written_order() {
        assert_eq!(sig("KRKAA").to_string(), "KRKAA");
        assert_eq!(sig("kbarkba").to_string(), "KRABKAB");
        assert_eq!(sig("KRKAABB").count(Color::Black, PieceKind::Elephant), 2);
        assert_eq!(sig("KRKAABB").attackers(), 1);
    }

    #[test]
    fn bad_signatures_are_refused_with_the_reason() {
        assert!(matches!("RKK".parse::<Signature>(), Err(SignatureError::NoRedKing(_))));
        assert!(matches!("KRA".parse::<Signature>(), Err(SignatureError::KingCount(_))));
        assert!(matches!("KRKKA".parse::<Signature>(), Err(SignatureError::KingCount(_))));
        assert_eq!("KXK".parse::<Signature>(), Err(SignatureError::UnknownLetter('X')));
        assert_eq!(
            "KRRRK".parse::<Signature>(),
            Err(SignatureError::TooMany { color: Color::Red, kind: PieceKind::Rook })
        );
    }

    #[test]
    fn the_stronger_side_is_stored_as_red() {
        assert_eq!(sig("KAAKR").canonical(), (sig("KRKAA"), true));
        assert_eq!(sig("KRKAA").canonical(), (sig("KRKAA"), false));
        assert_eq!(sig("KRKR").canonical(), (sig("KRKR"), false));
        assert!(sig("KRKR").is_symmetric());
    }

    #[test]
    fn the_sets_by_attacker_count_hold_what_they_should() {
        let none = Signature::all_with_attackers(0);
        // Advisors 0..2 and elephants 0..2 on each side: 9 × 9 = 81, less the mirrored pairs.
        assert_eq!(none.len(), (81 + 9) / 2);
        let one = Signature::all_with_attackers(1);
        assert!(one.contains(&sig("KRKAABB")) && one.contains(&sig("KCK")) && one.contains(&sig("KPAKB")));
        assert!(!one.iter().any(|s| s.attackers() > 1));
        assert_eq!(one.len(), none.len() + 4 * 81);
        assert!(Signature::all_with_attackers(2).contains(&sig("KRKR")));
    }

    #[test]
    fn capture_children_are_canonical() {
        let children = sig("KRKAA").capture_children();
        assert_eq!(children, vec![sig("KKAA").canonical().0, sig("KRKA")]);
    }
}
