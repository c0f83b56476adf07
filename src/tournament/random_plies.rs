//! Openings made distinct for each game pair (`chariot match --random-plies N`): a few random
//! legal plies after the pair's line, kept when a shallow search finds the position balanced.
//!
//! Under a node or depth limit an engine plays the same game from the same position every time,
//! so a match that plays more pairs than its openings file has lines replays finished games and
//! counts them again: sixty lines give sixty pairs' worth of evidence however long the match.
//! With random plies every pair starts from its own position.

use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::notation::Opening;
use crate::rules;
use crate::search::score_scale::ScoreScale;
use crate::search::{Engine, Limits, SearchControl};

/// The most random plies a match may ask for: enough to leave any book far behind.
pub const MAX_RANDOM_PLIES: u32 = 20;

/// A varied opening is kept when a search of this depth scores it within `BALANCE_CP`.
const BALANCE_DEPTH: i32 = 5;

/// The most a varied opening may favour either side, in normalised centipawns (+100 is a 50%
/// chance to win): a pair from a lost position tells nothing about the engines.
pub const BALANCE_CP: i32 = 60;

/// Random plies drawn per pair before the most balanced draw so far stands.
const ATTEMPTS: u32 = 64;

/// The judging search's table, in megabytes: a depth-5 search fills little more.
const JUDGE_HASH_MB: usize = 1;

/// Random plies after each opening line, and the seed they are drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlies {
    /// Plies after the line (1 to `MAX_RANDOM_PLIES`).
    pub plies: u32,
    /// The seed: the same seed gives every pair the same opening again.
    pub seed: u64,
}

/// The search that judges whether a varied opening is balanced; one per match thread.
pub struct BalanceJudge {
    engine: Engine,
}

impl Default for BalanceJudge {
    fn default() -> Self {
        BalanceJudge::new()
    }
}

impl BalanceJudge {
    /// A judge with the built-in evaluation and a small table.
    pub fn new() -> BalanceJudge {
        BalanceJudge { engine: Engine::new(JUDGE_HASH_MB) }
    }

    /// How far the position after `opening` favours either side: the absolute normalised score
    /// of a fixed-depth search from a cleared table, so the same opening is always judged alike.
    fn imbalance(&mut self, opening: &Opening) -> i32 {
        let pos = opening.end();
        self.engine.clear_hash();
        let control = SearchControl::new();
        control.start(false);
        let found = self.engine.search(&pos, &Limits::depth(BALANCE_DEPTH), &control, &mut |_| {});
        ScoreScale::of(&self.engine.options.eval, &pos).shown_cp(found.score).abs()
    }
}

impl RandomPlies {
    /// The opening of game pair `pair` (numbered from 0): `line` and then `plies` random legal
    /// plies, drawn from the seed and the pair's number alone, so that both games of a pair, a
    /// resumed match and every shard play the same. A draw during which the game ends is drawn
    /// again, and so is one the judge finds more than `BALANCE_CP` from level; after `ATTEMPTS`
    /// draws the most balanced one stands (the line itself if every draw ended the game).
    pub fn opening(&self, line: &Opening, pair: u32, judge: &mut BalanceJudge) -> Opening {
        let mut rng =
            StdRng::seed_from_u64(self.seed ^ (u64::from(pair) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut best: Option<(i32, Opening)> = None;
        for _ in 0..ATTEMPTS {
            let Some(varied) = self.draw(line, &mut rng) else { continue };
            let imbalance = judge.imbalance(&varied);
            if imbalance <= BALANCE_CP {
                return varied;
            }
            if best.as_ref().is_none_or(|(least, _)| imbalance < *least) {
                best = Some((imbalance, varied));
            }
        }
        best.map_or_else(|| line.clone(), |(_, varied)| varied)
    }

    /// `line` with `plies` random legal plies added, or `None` when the game ends on the way.
    fn draw(&self, line: &Opening, rng: &mut StdRng) -> Option<Opening> {
        let mut pos = line.end();
        if !rules::play_random_plies(&mut pos, self.plies as usize, rng) {
            return None;
        }
        // `line.end()` starts from `line.start`, whose history is empty: the history is the line
        // and the plies.
        let moves = pos.history().iter().map(|u| u.mv).collect();
        Some(Opening { start: line.start.clone(), moves })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn line(text: &str) -> Opening {
        Opening::parse(text).unwrap()
    }

    #[test]
    fn a_pair_always_gets_the_same_opening_and_pairs_get_different_ones() {
        let varied = RandomPlies { plies: 2, seed: 7 };
        let base = line("h2e2 h9g7");
        let mut judge = BalanceJudge::new();
        let first: Vec<Opening> = (0..12).map(|pair| varied.opening(&base, pair, &mut judge)).collect();
        // Another judge, the pairs in another order: the same openings.
        let mut other_judge = BalanceJudge::new();
        for pair in (0..12).rev() {
            assert_eq!(varied.opening(&base, pair, &mut other_judge).moves, first[pair as usize].moves);
        }
        let distinct: HashSet<_> = first.iter().map(|o| o.moves.clone()).collect();
        assert!(distinct.len() >= 10, "12 pairs gave only {} openings", distinct.len());
        let reseeded = RandomPlies { seed: 8, ..varied };
        assert!(
            (0..12).any(|pair| reseeded.opening(&base, pair, &mut judge).moves != first[pair as usize].moves)
        );
    }

    #[test]
    fn the_line_is_kept_and_the_plies_are_legal() {
        let varied = RandomPlies { plies: 3, seed: 1 };
        let base = line("b2e2 b9c7 b0c2");
        let mut judge = BalanceJudge::new();
        for pair in 0..8 {
            let opening = varied.opening(&base, pair, &mut judge);
            assert_eq!(opening.moves.len(), base.moves.len() + 3);
            assert_eq!(opening.moves[..base.moves.len()], base.moves[..]);
            // Replaying checks each move against the legal moves of its position.
            let text: Vec<String> = opening.moves.iter().map(|m| m.to_string()).collect();
            assert_eq!(line(&text.join(" ")).moves, opening.moves);
            assert!(rules::game_result(&opening.end()).is_none());
        }
    }

    #[test]
    fn openings_a_side_is_far_ahead_in_are_drawn_again() {
        // Some draws of two random plies from the start leave a piece hanging; every kept
        // opening is level by the judge's own search.
        let varied = RandomPlies { plies: 2, seed: 3 };
        let mut judge = BalanceJudge::new();
        let mut rng = StdRng::seed_from_u64(3);
        let unjudged = (0..200)
            .filter_map(|_| varied.draw(&Opening::startpos(), &mut rng))
            .filter(|o| judge.imbalance(o) > BALANCE_CP)
            .count();
        assert!(unjudged > 0, "random plies never unbalanced the start: the test shows nothing");
        for pair in 0..40 {
            let opening = varied.opening(&Opening::startpos(), pair, &mut judge);
            assert!(judge.imbalance(&opening) <= BALANCE_CP, "pair {pair}: {:?}", opening.moves);
        }
    }

    #[test]
    fn a_line_whose_game_has_ended_is_played_as_it_is() {
        // Black has no legal move, which loses: no ply can follow, so every draw fails and the
        // line stands.
        let mated = line("4k4/3R1R3/9/9/9/9/9/9/9/3K5 b - - 0 1");
        assert!(rules::game_result(&mated.end()).is_some());
        let varied = RandomPlies { plies: 2, seed: 1 };
        assert_eq!(varied.opening(&mated, 0, &mut BalanceJudge::new()).moves, mated.moves);
    }
}
