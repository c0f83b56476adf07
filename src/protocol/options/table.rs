//! The options, one row each: the names in both dialects, the type with its default and range
//! or choices, how the value in force is read back, and what setting it does. The order of the
//! rows is the order of the announcements. `Options` walks this table to announce, parse and
//! apply (`options/mod.rs`); nothing else lists the options.

use std::sync::Arc;

use crate::eval::nnue::{embedded, format};
use crate::eval::{EvalChoice, TermSet};
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::search::{Algorithm, SearchFeatures, SearchParams, DEFAULT_HASH_MB};

use super::bounds::SpinRange;
use super::error::TextRefusal;
use super::levels::{features_in_both, terms_for_knowledge, terms_in_both, Level, LEVELS};
use super::Options;

/// Upper bound of `hashsize` / `Hash`.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most MultiPV lines.
pub const MAX_MULTIPV: usize = 128;

pub(super) const HASH_RANGE: SpinRange = SpinRange { min: 1, max: MAX_HASH_MB as i64 };
pub(super) const THREADS_RANGE: SpinRange = SpinRange { min: 1, max: MAX_THREADS as i64 };
const MULTIPV_RANGE: SpinRange = SpinRange { min: 1, max: MAX_MULTIPV as i64 };
const OVERHEAD_RANGE: SpinRange = SpinRange { min: 0, max: 5_000 };
const SKILL_RANGE: SpinRange = SpinRange { min: 0, max: MAX_LEVEL as i64 };
/// The Elo scale's measured range: outside it nothing was measured to stand for the number.
const ELO_RANGE: SpinRange = SpinRange { min: MIN_ELO as i64, max: MAX_ELO as i64 };
const ALGORITHMS: &[&str] = &["pvs", "mtdf"];

/// An option's type, its default, and how its value is read and put in force. A setter gets
/// the value parsed and checked: a spin's within its range, a combo's as the index of one of
/// its choices.
pub(super) enum Kind {
    /// true or false.
    Check { default: bool, get: fn(&Options) -> bool, set: fn(&mut Options, bool) },
    /// A whole number within `range`.
    Spin { range: SpinRange, default: i64, get: fn(&Options) -> i64, set: fn(&mut Options, i64) },
    /// One of `choices`, by index.
    Combo {
        choices: &'static [&'static str],
        default: usize,
        get: fn(&Options) -> usize,
        set: fn(&mut Options, usize),
    },
    /// Free text, empty by default (announced `<empty>`); the setter may refuse it, and then
    /// nothing changes.
    Text { get: fn(&Options) -> String, set: fn(&mut Options, String) -> Result<(), TextRefusal> },
    /// No value: pressing it clears the hash and forgets the game (`SetOutcome::NewGame`).
    Button,
}

/// One option: what UCCI calls it, what UCI calls it (either may be absent), and its type.
pub(super) struct Row {
    pub ucci: Option<&'static str>,
    pub uci: Option<&'static str>,
    pub kind: Kind,
}

/// The options, in the order they are announced.
pub(super) const ROWS: &[Row] = &[
    Row {
        ucci: Some("usemillisec"),
        uci: None,
        kind: Kind::Check { default: false, get: |o| o.use_millisec, set: |o, v| o.use_millisec = v },
    },
    Row {
        ucci: Some("batch"),
        uci: None,
        kind: Kind::Check { default: false, get: |o| o.batch, set: |o, v| o.batch = v },
    },
    Row {
        ucci: Some("debug"),
        uci: None,
        kind: Kind::Check { default: false, get: |o| o.debug, set: |o, v| o.debug = v },
    },
    Row {
        ucci: Some("ponder"),
        uci: Some("Ponder"),
        kind: Kind::Check { default: false, get: |o| o.ponder, set: |o, v| o.ponder = v },
    },
    // UCI starts with it off (`Options::take_dialect_defaults`).
    Row {
        ucci: Some("usebook"),
        uci: Some("OwnBook"),
        kind: Kind::Check { default: true, get: |o| o.use_book, set: |o, v| o.use_book = v },
    },
    // The session reads the books again when this changes.
    Row {
        ucci: Some("bookfiles"),
        uci: Some("BookFile"),
        kind: Kind::Text {
            get: |o| o.book_files.clone(),
            set: |o, v| {
                o.book_files = v;
                Ok(())
            },
        },
    },
    // The session allocates the table when this changes.
    Row {
        ucci: Some("hashsize"),
        uci: Some("Hash"),
        kind: Kind::Spin {
            range: HASH_RANGE,
            default: DEFAULT_HASH_MB as i64,
            get: |o| o.hash_mb as i64,
            set: |o, v| o.hash_mb = v as usize,
        },
    },
    Row {
        ucci: Some("threads"),
        uci: Some("Threads"),
        kind: Kind::Spin {
            range: THREADS_RANGE,
            default: 1,
            get: |o| o.engine.threads as i64,
            set: |o, v| o.engine.threads = v as usize,
        },
    },
    Row {
        ucci: None,
        uci: Some("MultiPV"),
        kind: Kind::Spin {
            range: MULTIPV_RANGE,
            default: 1,
            get: |o| o.multipv as i64,
            set: |o, v| o.multipv = v as usize,
        },
    },
    Row {
        ucci: Some("moveoverhead"),
        uci: Some("Move Overhead"),
        kind: Kind::Spin {
            range: OVERHEAD_RANGE,
            default: 30,
            get: |o| o.engine.move_overhead_ms as i64,
            set: |o, v| o.engine.move_overhead_ms = v as u64,
        },
    },
    Row {
        ucci: Some("algorithm"),
        uci: Some("Algorithm"),
        kind: Kind::Combo {
            choices: ALGORITHMS,
            default: 0,
            get: |o| match o.engine.algorithm {
                Algorithm::Pvs => 0,
                Algorithm::Mtdf => 1,
            },
            set: |o, i| o.engine.algorithm = if i == 1 { Algorithm::Mtdf } else { Algorithm::Pvs },
        },
    },
    Row {
        ucci: Some("resign"),
        uci: None,
        kind: Kind::Check { default: true, get: |o| o.resign, set: |o, v| o.resign = v },
    },
    Row {
        ucci: Some("pruning"),
        uci: None,
        kind: Kind::Combo {
            choices: LEVELS,
            default: Level::Large as usize,
            get: |o| o.pruning as usize,
            set: |o, i| {
                o.pruning = Level::at(i);
                o.engine.features = features_in_both(SearchFeatures::for_level(o.pruning as u8), o.without);
            },
        },
    },
    Row {
        ucci: Some("knowledge"),
        uci: None,
        kind: Kind::Combo {
            choices: LEVELS,
            default: Level::Large as usize,
            get: |o| o.knowledge as usize,
            set: |o, i| {
                o.knowledge = Level::at(i);
                o.engine.terms = terms_in_both(terms_for_knowledge(o.knowledge), o.without_terms);
            },
        },
    },
    Row {
        ucci: Some("randomness"),
        uci: None,
        kind: Kind::Combo {
            choices: LEVELS,
            default: Level::None as usize,
            get: |o| o.randomness as usize,
            set: |o, i| o.randomness = Level::at(i),
        },
    },
    Row {
        ucci: Some("without"),
        uci: Some("Without"),
        kind: Kind::Text {
            get: |o| {
                let off = |&name: &&str| o.without.without(name) == Ok(o.without);
                SearchFeatures::NAMES.into_iter().filter(off).collect::<Vec<_>>().join(",")
            },
            set: |o, v| {
                o.without = SearchFeatures::ALL.without_list(&v).map_err(TextRefusal::Features)?;
                o.engine.features = features_in_both(SearchFeatures::for_level(o.pruning as u8), o.without);
                Ok(())
            },
        },
    },
    Row {
        ucci: Some("withoutterms"),
        uci: Some("Without Terms"),
        kind: Kind::Text {
            get: |o| {
                let off = |&name: &&str| o.without_terms.without_list(name) == Ok(o.without_terms);
                TermSet::NAMES.into_iter().filter(off).collect::<Vec<_>>().join(",")
            },
            set: |o, v| {
                o.without_terms =
                    TermSet::ALL.without_list(&v).map_err(|e| TextRefusal::Evaluation(e.to_string()))?;
                o.engine.terms = terms_in_both(terms_for_knowledge(o.knowledge), o.without_terms);
                Ok(())
            },
        },
    },
    Row {
        ucci: Some("tune"),
        uci: Some("Tune"),
        kind: Kind::Text {
            // The parameters that differ from the search's own, as `name=value` pairs.
            get: |o| {
                let landed = SearchParams::DEFAULT.pairs();
                let pairs = o.engine.params.pairs().into_iter().zip(landed);
                let changed = pairs.filter(|(now, landed)| now != landed);
                changed.map(|((name, value), _)| format!("{name}={value}")).collect::<Vec<_>>().join(",")
            },
            set: |o, v| {
                o.engine.params = SearchParams::with_list(&v).map_err(TextRefusal::Params)?;
                Ok(())
            },
        },
    },
    Row {
        ucci: Some("evalfile"),
        uci: Some("EvalFile"),
        kind: Kind::Text {
            get: |o| o.eval_file.clone(),
            set: |o, path| {
                // A file that does not load leaves the net in use as it was.
                let net = match path.is_empty() {
                    true => embedded::network(),
                    false => Arc::new(
                        format::load(std::path::Path::new(&path))
                            .map_err(|e| TextRefusal::Evaluation(e.to_string()))?,
                    ),
                };
                if matches!(o.engine.eval, EvalChoice::Nnue(_)) {
                    o.engine.eval = EvalChoice::Nnue(net.clone());
                }
                (o.eval_file, o.net) = (path, net);
                Ok(())
            },
        },
    },
    Row {
        ucci: Some("egtbpath"),
        uci: Some("EgtbPath"),
        kind: Kind::Text {
            get: |o| o.egtb_path.clone(),
            set: |o, path| {
                // A folder that does not load leaves the tables in use as they were.
                let tables = match path.is_empty() {
                    true => None,
                    false => Some(Arc::new(
                        crate::egtb::Tablebases::load_dir(std::path::Path::new(&path))
                            .map_err(|e| TextRefusal::Evaluation(e.to_string()))?,
                    )),
                };
                o.engine.tablebases = crate::search::TablebaseHandle(tables);
                o.egtb_path = path;
                Ok(())
            },
        },
    },
    Row {
        ucci: Some("usennue"),
        uci: Some("Use NNUE"),
        kind: Kind::Check {
            default: true,
            get: |o| matches!(o.engine.eval, EvalChoice::Nnue(_)),
            set: |o, v| {
                o.engine.eval = match v {
                    false => EvalChoice::Classic,
                    true => EvalChoice::Nnue(o.net.clone()),
                }
            },
        },
    },
    Row {
        ucci: Some("showwdl"),
        uci: Some("UCI_ShowWDL"),
        kind: Kind::Check { default: false, get: |o| o.show_wdl, set: |o, v| o.show_wdl = v },
    },
    Row {
        ucci: Some("skilllevel"),
        uci: Some("Skill Level"),
        kind: Kind::Spin {
            range: SKILL_RANGE,
            default: MAX_LEVEL as i64,
            get: |o| i64::from(o.skill_level),
            set: |o, v| {
                o.skill_level = v as u8;
                o.engine.skill = o.skill();
            },
        },
    },
    Row {
        ucci: Some("limitstrength"),
        uci: Some("UCI_LimitStrength"),
        kind: Kind::Check {
            default: false,
            get: |o| o.limit_strength,
            set: |o, v| {
                o.limit_strength = v;
                o.engine.skill = o.skill();
            },
        },
    },
    Row {
        ucci: Some("elo"),
        uci: Some("UCI_Elo"),
        kind: Kind::Spin {
            range: ELO_RANGE,
            default: MIN_ELO as i64,
            get: |o| i64::from(o.elo),
            set: |o, v| {
                o.elo = v as i32;
                o.engine.skill = o.skill();
            },
        },
    },
    Row { ucci: Some("newgame"), uci: Some("Clear Hash"), kind: Kind::Button },
];
