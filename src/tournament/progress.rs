//! What a match tells whoever watches it while it plays: how many games there are, and each game
//! as it ends. The library draws nothing; `cli/` turns these reports into a progress bar.

use super::stats::Tally;

/// A game that has just ended, as the progress display shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame<'a> {
    /// Its number in the match (the PGN `Round` tag).
    pub round: u32,
    /// The engine that played Red.
    pub red: &'a str,
    /// The engine that played Black.
    pub black: &'a str,
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    /// How it ended, in words.
    pub termination: &'a str,
    /// The first pairing's results so far, this game included.
    pub first_pairing: Tally,
}

/// Receives a match's progress. Every method has a default that ignores the report, so a
/// watcher implements only what it shows.
pub trait MatchProgress {
    /// Before the first game: the games this run schedules (a shard's share, for a shard), how
    /// many of them a resumed PGN already holds, and the first pairing's results in those.
    fn started(&mut self, _games: u64, _already_played: u64, _first_pairing: Tally) {}

    /// After each game that counts (in the order the games end, not by round).
    fn game_finished(&mut self, _game: &FinishedGame<'_>) {}

    /// After the last game, before the results table is written.
    fn finished(&mut self) {}
}

/// A watcher that shows nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoProgress;

impl MatchProgress for NoProgress {}
