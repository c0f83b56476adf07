//! Playing strength below full: the skill levels 0–19, and the Elo scale they were measured on.
//!
//! A person is weak in two ways: they see less far ahead, and among the moves they think of they
//! do not always take the best one. An engine made weak should be weak the same way, not play at
//! full strength and now and then drop a piece at random (which reads as a program pretending,
//! and teaches nothing). So below full strength, after the idea of Stockfish's `Skill` (with
//! numbers of our own):
//!
//! - the search runs under a node limit that grows with the level (`LEVELS`): the lowest levels
//!   see a ply or two ahead, the highest most of what the full search sees in a second;
//! - it keeps the best `SKILL_LINES` lines at the root (MultiPV), whatever the GUI asked for;
//! - the move played is chosen among those lines: each line's score gets a random push, drawn
//!   evenly from 0 to the level's weakness, and the line whose pushed score is highest is played.
//!   A line more than the weakness below the best can never win, so the weakness bounds what one
//!   move can give away: at level 0 more than a rook, at levels 1 to 5 a horse or half of one
//!   (beginners drop pieces), in the middle levels (6 to 14) at most half a horse and never a
//!   rook, at the top levels a fraction of a pawn.
//!
//! Only the move played is weakened: the `info` lines show the search as it went (the lines the
//! GUI asked for), and analysis (`go infinite`) and mate searches (`go mate`) run at full
//! strength, as Stockfish weakens only the move it plays. Level 20 is full strength: it takes
//! none of this path, so its moves and node counts are those of an engine without the option.
//!
//! Each level's strength was measured in matches against fixed anchors (ElephantEye at fixed
//! depths, Chariot at full strength under fixed node counts) and level against level:
//! docs/levels.md. `ELO_SCALE` holds the result, and `Skill::from_elo` maps an Elo onto a
//! fractional level by interpolating between the measured ones.

use std::time::{SystemTime, UNIX_EPOCH};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::limits::Limits;

/// The full-strength level: no node limit, no choice among lines.
pub const MAX_LEVEL: u8 = 20;

/// Lines searched at the root below full strength, for the move to be chosen among them.
pub const SKILL_LINES: usize = 4;

/// Hundredths of a level: `Skill` keeps fractional levels (from an Elo) in these.
const CENTI: u32 = 100;

/// One level's handicap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Nodes per move, at most (summed over the threads).
    pub nodes: u64,
    /// The largest random push added to a line's score, in search units (a horse ≈ 100, a rook
    /// ≈ 250): also the most a chosen line can be below the best one.
    pub weakness: i32,
}

/// Levels 0 to 19; level 20 is full strength. The node limit grows by about a third a level
/// (400 to 125,000: a thousandth of a second to a third of one on the project's machines). The
/// weakness is set so that each level gains about as much from it as from the nodes: the pilot
/// matches (docs/levels.md) showed that a weakness costs about 450·ln((w + 6) / 6)
/// Elo, all it can once it is above about 130 (the four lines are then chosen among almost at
/// random), so it falls fast from level 0 and ever more slowly towards level 19.
pub const LEVELS: [LevelSpec; MAX_LEVEL as usize] = [
    LevelSpec { nodes: 400, weakness: 320 },
    LevelSpec { nodes: 540, weakness: 130 },
    LevelSpec { nodes: 730, weakness: 94 },
    LevelSpec { nodes: 1_000, weakness: 80 },
    LevelSpec { nodes: 1_350, weakness: 68 },
    LevelSpec { nodes: 1_800, weakness: 58 },
    LevelSpec { nodes: 2_450, weakness: 49 },
    LevelSpec { nodes: 3_300, weakness: 42 },
    LevelSpec { nodes: 4_500, weakness: 35 },
    LevelSpec { nodes: 6_100, weakness: 29 },
    LevelSpec { nodes: 8_300, weakness: 24 },
    LevelSpec { nodes: 11_000, weakness: 20 },
    LevelSpec { nodes: 15_000, weakness: 17 },
    LevelSpec { nodes: 20_000, weakness: 13 },
    LevelSpec { nodes: 27_500, weakness: 11 },
    LevelSpec { nodes: 37_000, weakness: 9 },
    LevelSpec { nodes: 50_000, weakness: 7 },
    LevelSpec { nodes: 68_000, weakness: 5 },
    LevelSpec { nodes: 92_000, weakness: 3 },
    LevelSpec { nodes: 125_000, weakness: 2 },
];

/// The measured Elo of the levels, level and Elo both rising: `scripts/levels.sh` on 2026-11-26,
/// 3,840 games fitted together (docs/levels.md has the matches and the error bars). The scale's
/// anchor is ElephantEye 3.3 searching to depth 1, set at 1000. Level 20 (full strength, 3242 at
/// 5 s + 0.05 s) depends on the clock, so an Elo above level 19's is level 19's; between two
/// levels the level is interpolated.
pub const ELO_SCALE: [(u8, i32); 20] = [
    (0, 899),
    (1, 1028),
    (2, 1114),
    (3, 1169),
    (4, 1226),
    (5, 1282),
    (6, 1421),
    (7, 1484),
    (8, 1651),
    (9, 1800),
    (10, 1918),
    (11, 2025),
    (12, 2148),
    (13, 2264),
    (14, 2426),
    (15, 2568),
    (16, 2668),
    (17, 2775),
    (18, 2914),
    (19, 3050),
];

/// The least Elo `Skill::from_elo` maps: the lowest measured level's.
pub const MIN_ELO: i32 = ELO_SCALE[0].1;
/// The greatest Elo `Skill::from_elo` maps: the highest measured level's.
pub const MAX_ELO: i32 = ELO_SCALE[ELO_SCALE.len() - 1].1;

/// A playing strength: full, or a level below it (perhaps fractional), with the seed of its
/// random choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The level in hundredths, `0..=2000`; 2000 is full strength.
    centi: u32,
    /// The seed of the choice among lines; `None`: from the clock at each search.
    seed: Option<u64>,
}

impl Default for Skill {
    fn default() -> Self {
        Skill::FULL
    }
}

impl Skill {
    /// Full strength: the search is not touched.
    pub const FULL: Skill = Skill { centi: MAX_LEVEL as u32 * CENTI, seed: None };

    /// Level `level`, 0 (weakest) to 20 (full strength); a larger number is full strength too.
    pub fn level(level: u8) -> Skill {
        Skill { centi: u32::from(level.min(MAX_LEVEL)) * CENTI, seed: None }
    }

    /// The level whose measured Elo is `elo`, interpolated between the measured levels of
    /// `ELO_SCALE`; an Elo outside `MIN_ELO..=MAX_ELO` is taken as the nearer end.
    pub fn from_elo(elo: i32) -> Skill {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let above = ELO_SCALE.iter().position(|&(_, e)| e >= elo).unwrap_or(ELO_SCALE.len() - 1);
        let (high_level, high_elo) = ELO_SCALE[above];
        let centi = match above.checked_sub(1).map(|i| ELO_SCALE[i]) {
            Some((low_level, low_elo)) if high_elo > low_elo => {
                let (low, high) = (u32::from(low_level) * CENTI, u32::from(high_level) * CENTI);
                let share = f64::from(elo - low_elo) / f64::from(high_elo - low_elo);
                low + (share * f64::from(high - low)).round() as u32
            }
            _ => u32::from(high_level) * CENTI,
        };
        Skill { centi, seed: None }
    }

    /// The same strength with a fixed seed for its choices (for tests and reproducible games):
    /// the same position searched the same way then gets the same move.
    pub fn with_seed(self, seed: u64) -> Skill {
        Skill { seed: Some(seed), ..self }
    }

    /// Whether this is full strength.
    pub fn is_full(&self) -> bool {
        self.centi >= MAX_LEVEL as u32 * CENTI
    }

    /// The level, rounded down (20 at full strength).
    pub fn whole_level(&self) -> u8 {
        (self.centi / CENTI) as u8
    }

    /// The level in hundredths (2000 at full strength).
    pub fn centi_level(&self) -> u32 {
        self.centi
    }

    /// The node limit of this strength, `None` at full strength. Between two levels the limit is
    /// their geometric mean weighted by the fraction.
    pub fn node_limit(&self) -> Option<u64> {
        let (low, high, share) = self.bracket()?;
        let nodes = low.nodes as f64 * (high.nodes as f64 / low.nodes as f64).powf(share);
        Some(nodes.round() as u64)
    }

    /// The weakness of this strength (0 at full strength): the largest push a line's score gets,
    /// and so the most the line played can be below the best one. Interpolated between levels.
    pub fn weakness(&self) -> i32 {
        match self.bracket() {
            None => 0,
            Some((low, high, share)) => {
                (f64::from(low.weakness) + share * f64::from(high.weakness - low.weakness)).round() as i32
            }
        }
    }

    /// The level below this strength and the one above (the same at a whole level), and how far
    /// between; `None` at full strength. Level 19's neighbour above is itself: nothing between
    /// 19 and full strength is ever made.
    fn bracket(&self) -> Option<(LevelSpec, LevelSpec, f64)> {
        if self.is_full() {
            return None;
        }
        let low = (self.centi / CENTI) as usize;
        let high = (low + 1).min(LEVELS.len() - 1);
        let share = f64::from(self.centi % CENTI) / f64::from(CENTI);
        Some((LEVELS[low], LEVELS[high], share))
    }

    /// The Elo of this strength on the measured scale, interpolated between measured levels;
    /// `None` at full strength (it depends on the time given).
    pub fn elo(&self) -> Option<i32> {
        if self.is_full() {
            return None;
        }
        let at = |(level, elo): (u8, i32)| (u32::from(level) * CENTI, elo);
        let points: Vec<(u32, i32)> = ELO_SCALE.iter().copied().map(at).collect();
        let above = points.iter().position(|&(c, _)| c >= self.centi).unwrap_or(points.len() - 1);
        let (high_centi, high_elo) = points[above];
        Some(match above.checked_sub(1).map(|i| points[i]) {
            Some((low_centi, low_elo)) if self.centi < high_centi => {
                let share = f64::from(self.centi - low_centi) / f64::from(high_centi - low_centi);
                low_elo + (share * f64::from(high_elo - low_elo)).round() as i32
            }
            _ => high_elo,
        })
    }

    /// Whether a search with `limits` is weakened: below full strength, unless it is analysis
    /// (`go infinite`) or a mate search, which ask what the position holds, not a move to play.
    pub fn weakens(&self, limits: &Limits) -> bool {
        !self.is_full() && !limits.infinite && limits.mate.is_none()
    }

    /// `limits` as the weakened search runs them: at least `SKILL_LINES` lines, and at most the
    /// level's nodes (or the `go`'s own node limit, if smaller). Clocks and depths still hold.
    pub fn limits(&self, limits: &Limits) -> Limits {
        let nodes = match (limits.nodes, self.node_limit()) {
            (Some(asked), Some(level)) => Some(asked.min(level)),
            (asked, level) => asked.or(level),
        };
        Limits { nodes, multipv: limits.multipv.max(SKILL_LINES), ..limits.clone() }
    }

    /// Picks the line to play among `scores` (the root lines' scores, any order, at least one),
    /// at the position with Zobrist key `key`: each score gets a random push from 0 to the
    /// weakness, and the highest pushed score wins (the earlier line on a tie). The result is
    /// an index into `scores`; its score is at most the weakness below the best.
    pub fn pick(&self, scores: &[i32], key: u64) -> usize {
        let weakness = self.weakness().max(0);
        let seed = match self.seed {
            Some(seed) => seed,
            None => SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64),
        };
        // The key spreads a fixed seed over positions: one seed does not mean one push everywhere.
        let mut rng = StdRng::seed_from_u64(seed ^ key);
        let mut best = (0, i64::MIN);
        for (i, &score) in scores.iter().enumerate() {
            let pushed = i64::from(score) + i64::from(rng.gen_range(0..=weakness));
            if pushed > best.1 {
                best = (i, pushed);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_levels_rise_in_nodes_and_fall_in_weakness() {
        for pair in LEVELS.windows(2) {
            assert!(pair[0].nodes < pair[1].nodes, "{pair:?}");
            assert!(pair[0].weakness > pair[1].weakness, "{pair:?}");
        }
        // The lowest level still completes a one-ply search of its lines (275 nodes from an
        // opening position, measured), and the highest stays below a second's search.
        assert!(LEVELS[0].nodes >= 300 && LEVELS[19].nodes <= 1_000_000);
        // A middle level can never give away a rook (about 250) for the best line.
        assert!(Skill::level(10).weakness() < 150, "{}", Skill::level(10).weakness());
        assert!(Skill::level(19).weakness() > 0);
    }

    #[test]
    fn level_twenty_and_above_are_full_strength() {
        for level in [20, 21, 255] {
            let skill = Skill::level(level);
            assert!(skill.is_full() && skill == Skill::FULL);
            assert_eq!((skill.node_limit(), skill.weakness(), skill.elo()), (None, 0, None));
        }
        assert_eq!(Skill::default(), Skill::FULL);
        assert!(!Skill::level(19).is_full());
        assert_eq!(Skill::level(7).node_limit(), Some(LEVELS[7].nodes));
        assert_eq!(Skill::level(7).whole_level(), 7);
    }

    #[test]
    fn full_strength_and_analysis_are_not_weakened() {
        let level = Skill::level(5);
        assert!(level.weakens(&Limits::movetime(1000)));
        assert!(level.weakens(&Limits { ponder: true, ..Limits::movetime(1000) }));
        assert!(!level.weakens(&Limits { infinite: true, ..Limits::default() }));
        assert!(!level.weakens(&Limits { mate: Some(3), ..Limits::default() }));
        assert!(!Skill::FULL.weakens(&Limits::movetime(1000)));
    }

    #[test]
    fn the_weakened_limits_keep_the_smaller_node_limit_and_four_lines() {
        let level = Skill::level(3);
        let own = LEVELS[3].nodes;
        let limits = level.limits(&Limits::movetime(500));
        assert_eq!((limits.nodes, limits.multipv, limits.movetime), (Some(own), 4, Some(500)));
        assert_eq!(level.limits(&Limits::nodes(own / 2)).nodes, Some(own / 2));
        assert_eq!(level.limits(&Limits::nodes(own * 2)).nodes, Some(own));
        let many = Limits { multipv: 6, ..Limits::depth(3) };
        assert_eq!(level.limits(&many).multipv, 6);
    }

    #[test]
    fn a_pick_is_never_more_than_the_weakness_below_the_best() {
        for level in [0, 5, 10, 15, 19] {
            let skill = Skill::level(level).with_seed(level as u64);
            let weakness = skill.weakness();
            for key in 0..300u64 {
                // Lines 0, 40, 80, … 560 below the best, in a shuffled order.
                let scores: Vec<i32> = (0..15).map(|i| 100 - ((i * 7 + key as i32) % 15) * 40).collect();
                let chosen = scores[skill.pick(&scores, key)];
                assert!(chosen >= 100 - weakness, "level {level}: {chosen} chosen, weakness {weakness}");
            }
        }
    }

    #[test]
    fn a_weak_level_varies_its_pick_and_a_fixed_seed_repeats_it() {
        let scores = [30, 10, -5, -20];
        let skill = Skill::level(2).with_seed(7);
        let picks: Vec<usize> = (0..200).map(|key| skill.pick(&scores, key)).collect();
        for line in 0..4 {
            assert!(picks.contains(&line), "line {line} never picked: {picks:?}");
        }
        // The best line is still picked more often than any other.
        let count = |line| picks.iter().filter(|&&p| p == line).count();
        assert!((1..4).all(|line| count(0) > count(line)), "{picks:?}");
        let again: Vec<usize> = (0..200).map(|key| skill.pick(&scores, key)).collect();
        assert_eq!(picks, again);
        let other: Vec<usize> = (0..200).map(|key| Skill::level(2).with_seed(8).pick(&scores, key)).collect();
        assert_ne!(picks, other);
        // No weakness, no choice: the best line, wherever it stands.
        assert_eq!(Skill::FULL.pick(&[-3, 50, 49], 1), 1);
    }

    #[test]
    fn the_elo_scale_rises_and_maps_both_ways() {
        for pair in ELO_SCALE.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1, "{pair:?}");
        }
        assert!(ELO_SCALE.iter().all(|&(level, _)| level < MAX_LEVEL));
        assert_eq!(Skill::from_elo(MIN_ELO), Skill::level(ELO_SCALE[0].0));
        assert_eq!(Skill::from_elo(MIN_ELO - 500), Skill::from_elo(MIN_ELO));
        let top = Skill::from_elo(MAX_ELO);
        assert_eq!(top, Skill::level(ELO_SCALE[ELO_SCALE.len() - 1].0));
        assert_eq!(Skill::from_elo(MAX_ELO + 500), top);
        // Rising Elo: never a weaker level, never fewer nodes, never more weakness.
        let mut last = Skill::from_elo(MIN_ELO);
        for elo in MIN_ELO..=MAX_ELO {
            let skill = Skill::from_elo(elo);
            assert!(skill.centi_level() >= last.centi_level(), "{elo}");
            assert!(skill.node_limit() >= last.node_limit() && skill.weakness() <= last.weakness(), "{elo}");
            // Back to (about) the same Elo: rounding to hundredths of a level costs little.
            let back = skill.elo().unwrap();
            assert!((back - elo).abs() <= 5, "{elo} → {skill:?} → {back}");
            last = skill;
        }
        for &(level, elo) in &ELO_SCALE {
            assert_eq!(Skill::level(level).elo(), Some(elo));
        }
    }
}
