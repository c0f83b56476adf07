//! The PGN tags that make a match's games mergeable: every game a match writes (sharded or not)
//! says which match it belongs to and what that match was, so that `chariot match report` can
//! put the shards' games together and score them as one process would have.
//!
//! ```text
//! [Round "7"]                       the game's number in the whole match, 1..=T
//! [MatchGames "12"]                 T, the games of the whole match
//! [MatchSettings "89ab…"]           the settings fingerprint (16 hex digits)
//! [MatchEngines "a,b,c"]            the engines' names, in order
//! [MatchPairings "round robin"]     or "gauntlet"
//! [MatchShard "1/3"]                the shard that played it ("1/1" for a whole match)
//! [MatchSprt "elo0=0,elo1=5,alpha=0.05,beta=0.05"]   only with --sprt
//! ```

use std::fmt;

use super::shard::Shard;
use super::spec::SprtSpec;
use crate::notation::PgnGame;

/// `MatchGames`: how many games the whole match has.
pub const GAMES: &str = "MatchGames";
/// `MatchSettings`: the settings fingerprint.
pub const SETTINGS: &str = "MatchSettings";
/// `MatchEngines`: the engines' names, comma-separated, in order.
pub const ENGINES: &str = "MatchEngines";
/// `MatchPairings`: `round robin` or `gauntlet`.
pub const PAIRINGS: &str = "MatchPairings";
/// `MatchShard`: `K/N`.
pub const SHARD: &str = "MatchShard";
/// `MatchSprt`: the `--sprt` setting of the process that played the game.
pub const SPRT: &str = "MatchSprt";

/// What every game of one match (or one shard of it) carries besides its own tags.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchTags {
    /// T: the games of the whole match.
    pub games: u32,
    /// The settings fingerprint.
    pub settings: String,
    /// The engines' names in order. Names read from `--engine` never hold a comma (it separates
    /// a spec's items), so the names are joined with commas.
    pub engines: Vec<String>,
    /// The first engine against each other one, instead of a round robin.
    pub gauntlet: bool,
    /// The shard that played the game.
    pub shard: Shard,
    /// The SPRT the game's process was asked for.
    pub sprt: Option<SprtSpec>,
}

/// What is wrong with a game's match tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagProblem {
    /// The tag is missing.
    Missing(&'static str),
    /// The tag's value cannot be read: the tag and its value.
    Bad(&'static str, String),
}

impl fmt::Display for TagProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagProblem::Missing(tag) => write!(f, "has no {tag} tag"),
            TagProblem::Bad(tag, value) => {
                write!(f, "has a {tag} tag that cannot be read: {}", super::shown::shown(value))
            }
        }
    }
}

const ROUND_ROBIN: &str = "round robin";
const GAUNTLET: &str = "gauntlet";

impl MatchTags {
    /// The tags as (name, value) pairs, in the order written.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            (GAMES, self.games.to_string()),
            (SETTINGS, self.settings.clone()),
            (ENGINES, self.engines.join(",")),
            (PAIRINGS, (if self.gauntlet { GAUNTLET } else { ROUND_ROBIN }).to_string()),
            (SHARD, self.shard.to_string()),
        ];
        if let Some(sprt) = &self.sprt {
            out.push((SPRT, sprt.to_string()));
        }
        out
    }

    /// Reads the tags back from a game.
    pub fn read(game: &PgnGame) -> Result<MatchTags, TagProblem> {
        let tag = |name: &'static str| game.tag(name).ok_or(TagProblem::Missing(name));
        let bad = |name: &'static str, value: &str| TagProblem::Bad(name, value.to_string());
        let games = tag(GAMES)?;
        let games = games.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| bad(GAMES, games))?;
        let settings = tag(SETTINGS)?;
        if settings.len() != 16 || !settings.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad(SETTINGS, settings));
        }
        let engines_text = tag(ENGINES)?;
        let engines: Vec<String> = engines_text.split(',').map(str::to_string).collect();
        let distinct: std::collections::HashSet<&String> = engines.iter().collect();
        if engines.len() < 2 || engines.iter().any(String::is_empty) || distinct.len() != engines.len() {
            return Err(bad(ENGINES, engines_text));
        }
        let gauntlet = match tag(PAIRINGS)? {
            ROUND_ROBIN => false,
            GAUNTLET => true,
            other => return Err(bad(PAIRINGS, other)),
        };
        let shard = tag(SHARD)?;
        let shard = Shard::parse(shard).map_err(|_| bad(SHARD, shard))?;
        let sprt = match game.tag(SPRT) {
            Some(text) => Some(SprtSpec::parse(text).map_err(|_| bad(SPRT, text))?),
            None => None,
        };
        Ok(MatchTags { games, settings: settings.to_ascii_lowercase(), engines, gauntlet, shard, sprt })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn tags() -> MatchTags {
        MatchTags {
            games: 12,
            settings: "0123456789abcdef".to_string(),
            engines: vec!["chariot a".to_string(), "fsf".to_string(), "炮".to_string()],
            gauntlet: true,
            shard: Shard::new(2, 3).unwrap(),
            sprt: Some(SprtSpec { elo0: -1.5, elo1: 4.0, alpha: 0.05, beta: 0.1 }),
        }
    }

    fn game(pairs: &[(&str, String)]) -> PgnGame {
        let mut game = PgnGame::new(Position::startpos());
        game.tags = pairs.iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
        game
    }

    #[test]
    fn the_tags_read_back() {
        let written = tags().pairs();
        assert_eq!(
            written.iter().map(|(n, v)| format!("[{n} \"{v}\"]")).collect::<Vec<_>>(),
            [
                "[MatchGames \"12\"]",
                "[MatchSettings \"0123456789abcdef\"]",
                "[MatchEngines \"chariot a,fsf,炮\"]",
                "[MatchPairings \"gauntlet\"]",
                "[MatchShard \"2/3\"]",
                "[MatchSprt \"elo0=-1.5,elo1=4,alpha=0.05,beta=0.1\"]",
            ]
        );
        assert_eq!(MatchTags::read(&game(&written)), Ok(tags()));
        let mut plain = tags();
        plain.sprt = None;
        plain.gauntlet = false;
        assert_eq!(MatchTags::read(&game(&plain.pairs())), Ok(plain));
    }

    #[test]
    fn missing_or_bad_tags_are_named() {
        let written = tags().pairs();
        for (i, (name, _)) in written.iter().enumerate().filter(|(_, (n, _))| *n != SPRT) {
            let mut fewer = written.clone();
            fewer.remove(i);
            assert_eq!(MatchTags::read(&game(&fewer)), Err(TagProblem::Missing(name)));
        }
        let bad_values = [
            (GAMES, "0"),
            (GAMES, "twelve"),
            (SETTINGS, "0123"),
            (SETTINGS, "0123456789abcdeg"),
            (ENGINES, "solo"),
            (ENGINES, "a,,b"),
            (ENGINES, "a,b,a"),
            (PAIRINGS, "swiss"),
            (SHARD, "4/3"),
            (SPRT, "elo0=5,elo1=0,alpha=0.05,beta=0.05"),
        ];
        for (name, value) in bad_values {
            let changed: Vec<(&str, String)> = written
                .iter()
                .map(|(n, v)| (*n, if *n == name { value.to_string() } else { v.clone() }))
                .collect();
            let e = MatchTags::read(&game(&changed)).unwrap_err();
            assert_eq!(e, TagProblem::Bad(name, value.to_string()));
            assert!(e.to_string().contains(&format!("{name} tag that cannot be read")), "{e}");
        }
    }
}
