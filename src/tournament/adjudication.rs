//! The adjudication rules of a match, `--draw` and `--resign`: what each compares (a score or
//! the engines' win/draw/loss chances) and how many moves it waits, parsed from its
//! `key=value,…` text with a clear refusal. `game` applies them; `fingerprint` hashes them.

use std::fmt;

use super::shown::shown;
use super::spec::key_values;

/// What an adjudication rule compares with its threshold: `score=` or `wdl=`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// `score=CP`: the engines' reported scores in centipawns, as they print them. Engines that
    /// normalise their scores (Chariot, Pikafish) print +100 for a 50% chance to win; others
    /// print their own units.
    Score(i32),
    /// `wdl=P`: the engines' own win, draw and loss chances (`info … wdl W D L`), per mille.
    Wdl(u32),
}

/// `--draw movenumber=…,movecount=…,score=…|wdl=…`: a draw once, from move `movenumber` on, both
/// engines' last `movecount` reports each said the game is drawn: a score within `score`
/// centipawns of zero, or a draw chance of at least `wdl` per mille.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The full move from which adjudication may happen.
    pub move_number: u32,
    /// How many consecutive moves of each engine must qualify.
    pub move_count: u32,
    /// The largest absolute score, or the smallest draw chance, that counts as drawn.
    pub threshold: Threshold,
}

/// `--resign movecount=…,score=…|wdl=…`: a loss for the engine whose last `movecount` reports
/// all gave up the game (a score at or below `-score`, or a loss chance of at least `wdl` per
/// mille) while its opponent's all claimed it (at or above `score`, or a win chance of at least
/// `wdl`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// How many consecutive moves of each engine must qualify.
    pub move_count: u32,
    /// The margin in centipawns, or the win and loss chance in per mille.
    pub threshold: Threshold,
}

/// One whole-number setting of `--draw` or `--resign`: its key and range.
#[derive(Copy, Clone)]
struct Setting {
    key: &'static str,
    min: u64,
    max: u64,
}

/// The largest adjudication margin: a mate score.
pub const MAX_ADJUDICATION_SCORE: u64 = 30_000;
/// The most moves an adjudication rule may wait for.
pub const MAX_ADJUDICATION_MOVES: u64 = 1000;
/// The latest full move from which a draw may be adjudicated.
pub const MAX_ADJUDICATION_MOVE_NUMBER: u64 = 10_000;

const MOVE_NUMBER: Setting = Setting { key: "movenumber", min: 0, max: MAX_ADJUDICATION_MOVE_NUMBER };
const MOVE_COUNT: Setting = Setting { key: "movecount", min: 1, max: MAX_ADJUDICATION_MOVES };
const SCORE: Setting = Setting { key: "score", min: 0, max: MAX_ADJUDICATION_SCORE };
// A chance of 0 would hold for every report: the rule would fire on any position.
const WDL: Setting = Setting { key: "wdl", min: 1, max: 1000 };

/// Why a `--draw` or `--resign` setting was refused: the flag, the text as given and what is
/// wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjudicationError {
    /// `--draw` or `--resign`.
    pub flag: &'static str,
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: AdjudicationProblem,
}

/// What is wrong with a `--draw` or `--resign` setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdjudicationProblem {
    /// An item without `=`.
    NotKeyValue(String),
    /// A key the rule does not have.
    UnknownKey(String),
    /// A value that is not a whole number in its range.
    OutOfRange {
        /// The key.
        key: &'static str,
        /// Its value as given.
        value: String,
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
    /// A key the rule needs is missing.
    Missing(&'static str),
    /// Neither `score=` nor `wdl=` is given.
    NoThreshold,
    /// Both `score=` and `wdl=` are given.
    BothThresholds,
}

impl fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad {} {}: ", self.flag, shown(&self.text))?;
        match &self.problem {
            AdjudicationProblem::NotKeyValue(item) => write!(f, "{} is not key=value", shown(item)),
            AdjudicationProblem::UnknownKey(key) => write!(f, "unknown key {}", shown(key)),
            AdjudicationProblem::OutOfRange { key, value, min, max } => {
                write!(f, "{key}={} is not a whole number from {min} to {max}", shown(value))
            }
            AdjudicationProblem::Missing(key) => write!(f, "{key}= is missing"),
            AdjudicationProblem::NoThreshold => {
                write!(f, "give score=CP (centipawns) or wdl=P (per mille): neither is there")
            }
            AdjudicationProblem::BothThresholds => {
                write!(f, "give score=CP or wdl=P, not both")
            }
        }
    }
}

impl std::error::Error for AdjudicationError {}

/// Reads the whole-number settings of `flag` from `text`, the `required` ones and one of
/// `score=` and `wdl=`, each in its range.
fn read_rule(
    text: &str,
    flag: &'static str,
    required: &[Setting],
) -> Result<(Vec<u64>, Threshold), AdjudicationError> {
    let bad = |problem| AdjudicationError { flag, text: text.to_string(), problem };
    let settings: Vec<Setting> = required.iter().copied().chain([SCORE, WDL]).collect();
    let mut values = vec![None; settings.len()];
    for (key, value) in
        key_values(text).map_err(|item| bad(AdjudicationProblem::NotKeyValue(item.to_string())))?
    {
        let i = settings
            .iter()
            .position(|s| s.key == key)
            .ok_or_else(|| bad(AdjudicationProblem::UnknownKey(key.to_string())))?;
        let Setting { key, min, max } = settings[i];
        let v = value.parse::<u64>().ok().filter(|v| (min..=max).contains(v)).ok_or_else(|| {
            bad(AdjudicationProblem::OutOfRange { key, value: value.to_string(), min, max })
        })?;
        values[i] = Some(v);
    }
    let found = required
        .iter()
        .zip(&values)
        .map(|(s, v)| v.ok_or_else(|| bad(AdjudicationProblem::Missing(s.key))))
        .collect::<Result<Vec<u64>, _>>()?;
    // The ranges fit the fields.
    let threshold = match (values[required.len()], values[required.len() + 1]) {
        (Some(score), None) => Threshold::Score(score as i32),
        (None, Some(wdl)) => Threshold::Wdl(wdl as u32),
        (Some(_), Some(_)) => return Err(bad(AdjudicationProblem::BothThresholds)),
        (None, None) => return Err(bad(AdjudicationProblem::NoThreshold)),
    };
    Ok((found, threshold))
}

impl DrawRule {
    /// Parses `movenumber=40,movecount=8,score=10` or `movenumber=40,movecount=8,wdl=900`.
    pub fn parse(text: &str) -> Result<DrawRule, AdjudicationError> {
        let (v, threshold) = read_rule(text, "--draw", &[MOVE_NUMBER, MOVE_COUNT])?;
        Ok(DrawRule { move_number: v[0] as u32, move_count: v[1] as u32, threshold })
    }
}

impl ResignRule {
    /// Parses `movecount=3,score=600` or `movecount=3,wdl=950`.
    pub fn parse(text: &str) -> Result<ResignRule, AdjudicationError> {
        let (v, threshold) = read_rule(text, "--resign", &[MOVE_COUNT])?;
        Ok(ResignRule { move_count: v[0] as u32, threshold })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_by_score() {
        assert_eq!(
            DrawRule::parse("movenumber=40,movecount=8,score=10").unwrap(),
            DrawRule { move_number: 40, move_count: 8, threshold: Threshold::Score(10) }
        );
        assert_eq!(
            ResignRule::parse("movecount=3,score=600").unwrap(),
            ResignRule { move_count: 3, threshold: Threshold::Score(600) }
        );
        assert!(ResignRule::parse("score=600").unwrap_err().to_string().contains("movecount= is missing"));
        // Values are refused rather than wrapped into range.
        let e = DrawRule::parse("movenumber=40,movecount=8,score=4294967306").unwrap_err().to_string();
        assert!(e.contains("score='4294967306' is not a whole number from 0 to 30000"), "{e}");
        assert!(DrawRule::parse("movenumber=40,movecount=0,score=10")
            .unwrap_err()
            .to_string()
            .contains("from 1 to 1000"));
        assert!(ResignRule::parse("movecount=3,score=-5")
            .unwrap_err()
            .to_string()
            .contains("from 0 to 30000"));
    }

    #[test]
    fn adjudication_by_wdl() {
        assert_eq!(
            ResignRule::parse("movecount=2,wdl=950").unwrap(),
            ResignRule { move_count: 2, threshold: Threshold::Wdl(950) }
        );
        assert_eq!(
            DrawRule::parse(" wdl=1000 , movenumber=0,movecount=5").unwrap(),
            DrawRule { move_number: 0, move_count: 5, threshold: Threshold::Wdl(1000) }
        );
        assert_eq!(
            ResignRule::parse("movecount=1,wdl=1").unwrap(),
            ResignRule { move_count: 1, threshold: Threshold::Wdl(1) }
        );
        let refused = |rule: Result<ResignRule, AdjudicationError>| rule.unwrap_err().to_string();
        let both = refused(ResignRule::parse("movecount=3,score=600,wdl=950"));
        assert_eq!(both, "bad --resign 'movecount=3,score=600,wdl=950': give score=CP or wdl=P, not both");
        let neither = refused(ResignRule::parse("movecount=3"));
        assert_eq!(
            neither,
            "bad --resign 'movecount=3': give score=CP (centipawns) or wdl=P (per mille): neither is there"
        );
        let draw_neither = DrawRule::parse("movenumber=40,movecount=8").unwrap_err();
        assert_eq!((draw_neither.flag, draw_neither.problem), ("--draw", AdjudicationProblem::NoThreshold));
        // Per mille: 0 would hold for every report, and above 1000 for none.
        for bad in ["0", "1001", "-5", "95%", "0.95", ""] {
            let e = refused(ResignRule::parse(&format!("movecount=3,wdl={bad}")));
            assert!(e.contains(&format!("wdl='{bad}' is not a whole number from 1 to 1000")), "{bad}: {e}");
        }
        let e = DrawRule::parse("movenumber=40,movecount=8,wdl=2000").unwrap_err().to_string();
        assert!(e.contains("wdl='2000' is not a whole number from 1 to 1000"), "{e}");
        // The rule's own keys only.
        let e = refused(ResignRule::parse("movenumber=3,movecount=3,wdl=900"));
        assert!(e.contains("unknown key 'movenumber'"), "{e}");
    }
}
