//! Which games of a run one process plays: `--shard K/N` splits a run's game numbers among N
//! processes, process K taking the games numbered g with g mod N = K − 1.
//!
//! Game numbers stay global: game g of a shard is game g of the whole run, a function of (seed,
//! g) and the settings only, so the shards of one seed never repeat a game and their union is
//! what one process would have made. The shard is recorded in the file's header
//! (`format::Header`), so a shard file is resumed only as the same shard and a merge can tell
//! the shards apart.

use std::fmt;
use std::str::FromStr;

/// Shard K of N (1 ≤ K ≤ N ≤ 65535); 1 of 1 is the whole run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: u16,
    count: u16,
}

/// Why a shard was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// Not of the form `K/N` with two whole numbers (the text given).
    Syntax(String),
    /// N is 0.
    NoShards,
    /// N is beyond what a header holds.
    TooManyShards(u64),
    /// K is outside 1..=N.
    Index {
        /// K.
        index: u64,
        /// N.
        count: u64,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Syntax(text) => write!(
                f,
                "{} is not a shard: expected K/N, two whole numbers with 1 ≤ K ≤ N (for instance 3/8)",
                crate::quote::quoted(text)
            ),
            ShardError::NoShards => write!(f, "a run has at least 1 shard (N is 0)"),
            ShardError::TooManyShards(n) => write!(f, "{n} shards: at most {}", u16::MAX),
            ShardError::Index { index, count } => {
                write!(f, "shard {index}/{count}: K must be between 1 and N (shards are numbered from 1)")
            }
        }
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// The whole run: one process plays every game.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count` (both counted from 1).
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        let Ok(count16) = u16::try_from(count) else { return Err(ShardError::TooManyShards(count)) };
        if index == 0 || index > count {
            return Err(ShardError::Index { index, count });
        }
        Ok(Shard { index: index as u16, count: count16 })
    }

    /// K, from 1.
    pub fn index(self) -> u16 {
        self.index
    }

    /// N.
    pub fn count(self) -> u16 {
        self.count
    }

    /// Whether this is the whole run (1 of 1).
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// The number of this shard's `i`-th game (from 0) in the whole run.
    pub fn game(self, i: u64) -> u64 {
        (self.index as u64 - 1) + i * self.count as u64
    }

    /// Whether game number `game` of the run is this shard's.
    pub fn owns(self, game: u64) -> bool {
        game % self.count as u64 == self.index as u64 - 1
    }

    /// How many of this shard's games are numbered below `game`.
    pub fn games_before(self, game: u64) -> u64 {
        game.saturating_sub(self.index as u64 - 1).div_ceil(self.count as u64)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// Reads `K/N`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // All digits: only a number past u64 fails, and it is past any count allowed.
            Ok(s.parse::<u64>().unwrap_or(u64::MAX))
        };
        Shard::new(number(k)?, number(n)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_and_bad_ones_refused() {
        let s: Shard = "3/8".parse().unwrap();
        assert_eq!((s.index(), s.count(), s.to_string()), (3, 8, "3/8".to_string()));
        assert_eq!("1/1".parse::<Shard>(), Ok(Shard::WHOLE));
        assert_eq!("0/4".parse::<Shard>(), Err(ShardError::Index { index: 0, count: 4 }));
        assert_eq!("5/4".parse::<Shard>(), Err(ShardError::Index { index: 5, count: 4 }));
        assert_eq!("1/0".parse::<Shard>(), Err(ShardError::NoShards));
        assert_eq!("1/65536".parse::<Shard>(), Err(ShardError::TooManyShards(65536)));
        for bad in ["x/y", "3", "3/", "/4", "-1/4", "1/4/2", "1.5/4", ""] {
            assert_eq!(bad.parse::<Shard>(), Err(ShardError::Syntax(bad.to_string())), "{bad}");
        }
        assert!("x/y".parse::<Shard>().unwrap_err().to_string().contains("expected K/N"));
        assert!("5/4".parse::<Shard>().unwrap_err().to_string().contains("between 1 and N"));
    }

    #[test]
    fn the_shards_of_a_run_split_its_games_between_them() {
        // Every game of 0..60 belongs to exactly one of 4 shards, and each shard numbers its
        // games in order.
        let shards: Vec<Shard> = (1..=4).map(|k| Shard::new(k, 4).unwrap()).collect();
        for game in 0..60u64 {
            let owners: Vec<&Shard> = shards.iter().filter(|s| s.owns(game)).collect();
            assert_eq!(owners.len(), 1, "game {game}");
            let owner = *owners[0];
            assert_eq!(owner.game(owner.games_before(game)), game, "game {game}");
        }
        let third = shards[2];
        assert_eq!((0..4).map(|i| third.game(i)).collect::<Vec<_>>(), vec![2, 6, 10, 14]);
        assert_eq!([0, 2, 3, 6, 7].map(|g| third.games_before(g)), [0, 0, 1, 1, 2]);
        assert!((0..10).all(|g| Shard::WHOLE.owns(g) && Shard::WHOLE.games_before(g) == g));
    }
}
