//! `--shard K/N`: one of N disjoint slices of a match's games, so that N processes (on N
//! machines) play the match between them. Games are numbered 1..=T as one process schedules
//! them; shard K plays the games g with (g − 1) mod N = K − 1. The slice depends on the game
//! numbers alone, so the same options always give the same slices, and every pairing and
//! opening is spread over the shards.

use std::fmt;

use super::shown::shown;

/// Shard `index` of `count` (both from 1, `index` ≤ `count`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K: which slice, from 1.
    index: u32,
    /// N: how many slices.
    count: u32,
}

/// Why a `--shard` value was refused: the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--shard {}: expected K/N, whole numbers with 1 <= K <= N (e.g. 3/8 for the third of eight)",
            shown(&self.text)
        )
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// The whole match: the one slice of one.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, if 1 ≤ `index` ≤ `count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (1..=count).contains(&index).then_some(Shard { index, count })
    }

    /// Parses `K/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError { text: text.to_string() };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        // Digits only: `parse` would take a sign.
        let number = |s: &str| {
            let s = s.trim();
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok()).flatten()
        };
        let (k, n) = (number(k).ok_or_else(bad)?, number(n).ok_or_else(bad)?);
        Shard::new(k, n).ok_or_else(bad)
    }

    /// K, from 1.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// N.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Whether game number `game` (from 1) is in this shard.
    pub fn contains(&self, game: u32) -> bool {
        game >= 1 && (game - 1) % self.count == self.index - 1
    }

    /// The shard that plays game `game` (from 1) when the match is split `count` ways.
    pub fn of_game(game: u32, count: u32) -> Option<Shard> {
        (game >= 1 && count >= 1).then(|| Shard { index: (game - 1) % count + 1, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_split_the_games_between_them() {
        for total in [1u32, 2, 7, 12, 100] {
            for count in 1..=total.min(9) {
                let mut seen = vec![0; total as usize];
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let games: Vec<u32> = (1..=total).filter(|&g| shard.contains(g)).collect();
                    assert!(!games.is_empty(), "{shard} of {total}");
                    // Every N-th game, from the K-th on.
                    assert_eq!(games[0], index);
                    assert!(games.windows(2).all(|w| w[1] - w[0] == count), "{shard}: {games:?}");
                    for g in games {
                        seen[g as usize - 1] += 1;
                        assert_eq!(Shard::of_game(g, count), Some(shard));
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{count} shards of {total}: {seen:?}");
            }
        }
        // By hand: 3 shards of 7 games.
        let split: Vec<Vec<u32>> =
            (1..=3).map(|k| (1..=7).filter(|&g| Shard::new(k, 3).unwrap().contains(g)).collect()).collect();
        assert_eq!(split, [vec![1, 4, 7], vec![2, 5], vec![3, 6]]);
        assert!(!Shard::WHOLE.contains(0));
        assert!((1..=50).all(|g| Shard::WHOLE.contains(g)));
    }

    #[test]
    fn shard_values() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
        assert_eq!(Shard::parse("8/8").unwrap().to_string(), "8/8");
        for bad in
            ["0/4", "5/4", "x/y", "4", "1/0", "", "/", "1/", "/4", "-1/4", "+1/4", "1/4/2", "1/99999999999"]
        {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--shard '{bad}': expected K/N")), "{e}");
        }
        assert_eq!(Shard::new(0, 3), None);
        assert_eq!(Shard::new(4, 3), None);
    }
}
