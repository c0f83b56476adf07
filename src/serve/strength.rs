//! How strong Chariot plays in a game: a skill level (0 to 20, 20 = full strength) or an Elo on
//! the scale the levels were measured on (`search::skill`'s `ELO_SCALE`, the one `UCI_Elo`
//! reads), as the lobby asked; the engine's `Skill` for it, and how it is shown and saved.

use serde_json::{json, Value};

use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::search::Skill;

/// The level a new engine game gets when the lobby names none: a beginner's opponent that sees
/// a little and now and then drops a piece.
pub const DEFAULT_LEVEL: u8 = 5;

/// The engine's strength in one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    /// A skill level, 0 (weakest) to `MAX_LEVEL` (full strength).
    Level(u8),
    /// An Elo, within `MIN_ELO..=MAX_ELO`: the (perhaps fractional) level measured at it.
    Elo(i32),
}

impl Default for Strength {
    fn default() -> Self {
        Strength::Level(DEFAULT_LEVEL)
    }
}

impl Strength {
    /// The engine's skill at this strength.
    pub fn skill(&self) -> Skill {
        match *self {
            Strength::Level(level) => Skill::level(level),
            Strength::Elo(elo) => Skill::from_elo(elo),
        }
    }

    /// The level as people are shown it: whole for a level, to two decimals for an Elo.
    pub fn level_shown(&self) -> f64 {
        f64::from(self.skill().centi_level()) / 100.0
    }

    /// The Elo it plays at: the one asked for, or the level's on the measured scale; `None` at
    /// full strength (which depends on the time given).
    pub fn elo(&self) -> Option<i32> {
        match *self {
            Strength::Elo(elo) => Some(elo),
            Strength::Level(_) => self.skill().elo(),
        }
    }

    /// The seat's fields in a game's view and its saved state: `level` (a number) and `elo`
    /// (null at full strength); a strength asked as an Elo also has `asked: "elo"`.
    pub fn fields(&self) -> Value {
        let level = self.level_shown();
        let level = if level.fract() == 0.0 { json!(level as u64) } else { json!(level) };
        match self {
            Strength::Level(_) => json!({"level": level, "elo": self.elo()}),
            Strength::Elo(elo) => json!({"level": level, "elo": elo, "asked": "elo"}),
        }
    }

    /// For a PGN tag: `Chariot level 5 (about 1067 Elo)`, `Chariot at 1400 Elo (level 9.50)`.
    pub fn player_name(&self) -> String {
        match (self, self.elo()) {
            (Strength::Elo(elo), _) => format!("Chariot at {elo} Elo (level {:.2})", self.level_shown()),
            (Strength::Level(level), Some(elo)) => format!("Chariot level {level} (about {elo} Elo)"),
            (Strength::Level(_), None) => "Chariot full strength".to_string(),
        }
    }
}

/// What the lobby offers, for the page (`GET /levels.json`): every level with its Elo and node
/// limit, the default, and the Elo range.
pub fn levels_json() -> Value {
    let levels: Vec<Value> = (0..=MAX_LEVEL)
        .map(|level| {
            let skill = Skill::level(level);
            json!({"level": level, "elo": skill.elo(), "nodes": skill.node_limit()})
        })
        .collect();
    json!({
        "default": DEFAULT_LEVEL,
        "max_level": MAX_LEVEL,
        "min_elo": MIN_ELO,
        "max_elo": MAX_ELO,
        "levels": levels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::skill::{ELO_SCALE, LEVELS};

    #[test]
    fn a_level_and_an_elo_give_the_engines_skill() {
        assert_eq!(Strength::Level(7).skill(), Skill::level(7));
        assert_eq!(Strength::Level(MAX_LEVEL).skill(), Skill::FULL);
        assert_eq!(Strength::Elo(MIN_ELO).skill(), Skill::from_elo(MIN_ELO));
        assert_eq!(Strength::default(), Strength::Level(DEFAULT_LEVEL));
        assert!(Strength::Level(DEFAULT_LEVEL).skill().node_limit().is_some(), "the default is weakened");
    }

    #[test]
    fn the_view_shows_the_level_and_its_elo() {
        let (level, elo) = ELO_SCALE[1];
        let fields = Strength::Level(level).fields();
        assert_eq!(fields, json!({"level": level, "elo": elo}));
        assert_eq!(Strength::Level(MAX_LEVEL).fields(), json!({"level": MAX_LEVEL, "elo": null}));
        // An Elo halfway between two measured levels is a fractional level.
        let ((low, low_elo), (high, high_elo)) = (ELO_SCALE[0], ELO_SCALE[1]);
        let middle = Strength::Elo((low_elo + high_elo) / 2);
        let shown = middle.fields();
        assert_eq!(shown["elo"], (low_elo + high_elo) / 2);
        assert_eq!(shown["asked"], "elo");
        let level = shown["level"].as_f64().unwrap();
        assert!(level > f64::from(low) && level < f64::from(high), "{shown}");
        assert!(middle
            .player_name()
            .starts_with(&format!("Chariot at {} Elo (level ", (low_elo + high_elo) / 2)));
        assert_eq!(Strength::Level(MAX_LEVEL).player_name(), "Chariot full strength");
    }

    #[test]
    fn the_offer_lists_every_level() {
        let offer = levels_json();
        let levels = offer["levels"].as_array().unwrap();
        assert_eq!(levels.len(), usize::from(MAX_LEVEL) + 1);
        assert_eq!(levels[0]["nodes"], LEVELS[0].nodes);
        assert!(levels[usize::from(MAX_LEVEL)]["elo"].is_null());
        assert_eq!((offer["min_elo"].as_i64(), offer["default"].as_u64()), (Some(MIN_ELO.into()), Some(5)));
    }
}
