//! The settings a search runs with beyond its limits: the root algorithm, which selective
//! techniques are on, and `EngineOptions`, which gathers them with the thread count, the move
//! overhead, the evaluation, the numeric parameters and the playing strength.

use std::fmt;
use std::str::FromStr;

use crate::eval::{EvalChoice, TermSet};

use super::params::SearchParams;
use super::skill::Skill;
use super::tablebase_hook::TablebaseHandle;

/// A name that is neither a search algorithm nor a search feature; `Display` lists the names
/// that are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownName {
    /// Not `pvs` (or `negascout`) nor `mtdf` (or `mtd(f)`).
    Algorithm(String),
    /// Not one of `SearchFeatures::NAMES`.
    Feature(String),
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownName::Algorithm(name) => write!(f, "unknown search algorithm '{name}' (pvs or mtdf)"),
            UnknownName::Feature(name) => {
                write!(f, "unknown search feature '{name}' ({})", SearchFeatures::NAMES.join(", "))
            }
        }
    }
}

impl std::error::Error for UnknownName {}

/// The root search algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Principal variation search (NegaScout) with aspiration windows.
    Pvs,
    /// MTD(f): null-window searches driven by the transposition table.
    Mtdf,
}

impl FromStr for Algorithm {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "pvs" | "negascout" => Ok(Algorithm::Pvs),
            "mtdf" | "mtd(f)" => Ok(Algorithm::Mtdf),
            other => Err(UnknownName::Algorithm(other.to_string())),
        }
    }
}

/// Which selective-search techniques are on: each can be switched off to measure what it gains.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    /// Null-move pruning (adaptive R, verified in endgames).
    pub null_move: bool,
    /// Reverse futility (static null move) pruning.
    pub reverse_futility: bool,
    /// Futility pruning of quiet moves near the leaves.
    pub futility: bool,
    /// Late move pruning: skip late quiet moves near the leaves.
    pub late_move_pruning: bool,
    /// Late move reductions.
    pub late_move_reductions: bool,
    /// Extend the search of positions in check by one ply.
    pub check_extension: bool,
    /// Quiescence delta pruning and SEE pruning of losing captures.
    pub quiescence_pruning: bool,
    /// Mate distance pruning: no line can beat a mate already found nearer the root.
    pub mate_distance_pruning: bool,
}

impl SearchFeatures {
    /// Everything on: the default.
    pub const ALL: SearchFeatures = SearchFeatures {
        null_move: true,
        reverse_futility: true,
        futility: true,
        late_move_pruning: true,
        late_move_reductions: true,
        check_extension: true,
        quiescence_pruning: true,
        mate_distance_pruning: true,
    };

    /// Names of the features, as `chariot bench --without` takes them.
    pub const NAMES: [&'static str; 8] =
        ["null", "rfp", "futility", "lmp", "lmr", "checkext", "qsprune", "mdp"];

    /// The features with the one called `name` switched off.
    pub fn without(mut self, name: &str) -> Result<SearchFeatures, UnknownName> {
        let flag = match name {
            "null" => &mut self.null_move,
            "rfp" => &mut self.reverse_futility,
            "futility" => &mut self.futility,
            "lmp" => &mut self.late_move_pruning,
            "lmr" => &mut self.late_move_reductions,
            "checkext" => &mut self.check_extension,
            "qsprune" => &mut self.quiescence_pruning,
            "mdp" => &mut self.mate_distance_pruning,
            other => return Err(UnknownName::Feature(other.to_string())),
        };
        *flag = false;
        Ok(self)
    }

    /// The features with each one named in `list` (comma- or space-separated, may be empty)
    /// switched off.
    pub fn without_list(self, list: &str) -> Result<SearchFeatures, UnknownName> {
        list.split([',', ' ']).filter(|n| !n.is_empty()).try_fold(self, |f, name| f.without(name))
    }

    /// UCCI's `pruning` scale: none (a full-width alpha-beta with quiescence), small (null move and
    /// check extension), medium (also reductions and reverse futility), large (everything).
    pub fn for_level(level: u8) -> SearchFeatures {
        let mut f = SearchFeatures::ALL;
        if level < 3 {
            f.futility = false;
            f.late_move_pruning = false;
            f.quiescence_pruning = false;
        }
        if level < 2 {
            f.late_move_reductions = false;
            f.reverse_futility = false;
        }
        if level < 1 {
            f.null_move = false;
        }
        f
    }
}

impl Default for SearchFeatures {
    fn default() -> Self {
        SearchFeatures::ALL
    }
}

/// Settings that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP). At most one per core is started (`usable_threads`): threads
    /// beyond the cores add nothing but delay every thread's next look at the clock and the stop
    /// flag.
    pub threads: usize,
    /// Root algorithm.
    pub algorithm: Algorithm,
    /// Milliseconds the GUI and pipes cost per move.
    pub move_overhead_ms: u64,
    /// Selective-search techniques in use.
    pub features: SearchFeatures,
    /// Evaluation terms in use (by the classic evaluation).
    pub terms: TermSet,
    /// The evaluation: the built-in net (the default), another net, or the classic one.
    pub eval: EvalChoice,
    /// Margins, depth limits and the reduction formula.
    pub params: SearchParams,
    /// Playing strength: full (the default), or a level whose moves are chosen weaker.
    pub skill: Skill,
    /// Endgame tables consulted at the root and in the tree (none by default).
    pub tablebases: TablebaseHandle,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            algorithm: Algorithm::Pvs,
            move_overhead_ms: 30,
            features: SearchFeatures::ALL,
            terms: TermSet::ALL,
            eval: EvalChoice::default(),
            params: SearchParams::DEFAULT,
            skill: Skill::FULL,
            tablebases: TablebaseHandle::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_switch_off_by_name_and_level() {
        let f = SearchFeatures::ALL.without("null").unwrap().without("lmr").unwrap();
        assert!(!f.null_move && !f.late_move_reductions && f.futility && f.check_extension);
        let err = SearchFeatures::ALL.without("alphabeta").unwrap_err().to_string();
        assert!(err.contains("unknown search feature"), "{err}");
        assert_eq!(SearchFeatures::ALL.without_list("null, lmr").unwrap(), f);
        assert_eq!(SearchFeatures::ALL.without_list("").unwrap(), SearchFeatures::ALL);
        let err = SearchFeatures::ALL.without_list("null,nmp").unwrap_err();
        assert_eq!(err, UnknownName::Feature("nmp".into()));
        assert!(err.to_string().contains("'nmp'"), "{err}");
        for name in SearchFeatures::NAMES {
            assert_ne!(SearchFeatures::ALL.without(name).unwrap(), SearchFeatures::ALL, "{name}");
        }
        let none = SearchFeatures::for_level(0);
        assert!(!none.null_move && !none.late_move_reductions && !none.futility && none.check_extension);
        let small = SearchFeatures::for_level(1);
        assert!(small.null_move && !small.late_move_reductions);
        assert!(SearchFeatures::for_level(2).late_move_reductions && !SearchFeatures::for_level(2).futility);
        assert_eq!(SearchFeatures::for_level(3), SearchFeatures::ALL);
    }

    #[test]
    fn algorithms_parse_by_either_name() {
        assert_eq!("NegaScout".parse(), Ok(Algorithm::Pvs));
        assert_eq!("mtd(f)".parse(), Ok(Algorithm::Mtdf));
        let err = "alphabeta".parse::<Algorithm>().unwrap_err();
        assert_eq!(err.to_string(), "unknown search algorithm 'alphabeta' (pvs or mtdf)");
    }
}
