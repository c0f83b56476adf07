//! Everything a match needs, as `chariot match` gathers it from the command line: the engines,
//! the schedule's settings, where the games go, and the rules each game is played under.

use std::path::PathBuf;

use super::game::GameSettings;
use super::random_plies::RandomPlies;
use super::shard::Shard;
use super::spec::{EngineSpec, SprtSpec};
use crate::notation::{MoveNotation, Opening};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines.
    pub engines: Vec<EngineSpec>,
    /// The first engine against each other one, instead of a round robin.
    pub gauntlet: bool,
    /// Games per pairing.
    pub games: u32,
    /// The openings, each played twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Random plies after each opening, drawn anew for each game pair (`None`: the lines as
    /// they are).
    pub random_plies: Option<RandomPlies>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where the PGN goes.
    pub pgn: Option<PathBuf>,
    /// The PGN's move notation.
    pub notation: MoveNotation,
    /// Stop when this test reaches a verdict (two engines only).
    pub sprt: Option<SprtSpec>,
    /// Continue the match recorded in `pgn`.
    pub resume: bool,
    /// Play only this shard's games; `None` plays the whole match (and lets `sprt` stop it).
    pub shard: Option<Shard>,
    /// Limits, tolerance and adjudication.
    pub settings: GameSettings,
}

impl MatchConfig {
    /// The limits as the report and the PGN's `TimeControl` tag give them: the match's, then
    /// each engine's own (`10+0.1; ee: depth=3`).
    pub fn limits_text(&self) -> String {
        let mut text = self.settings.limit.describe();
        for engine in &self.engines {
            if let Some(own) = engine.limit {
                text.push_str(&format!("; {}: {}", engine.name, own.describe()));
            }
        }
        text
    }
}
