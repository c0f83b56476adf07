//! Engine options, declared once and announced in either dialect, and `setoption`.

use std::num::IntErrorKind;
use std::sync::Arc;

use crate::eval::nnue::{format, Network};
use crate::eval::{EvalChoice, TermSet};
use crate::quote::quoted;
use crate::search::{Algorithm, SearchFeatures, SearchParams, DEFAULT_HASH_MB};

/// The option values a session holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// UCCI `usemillisec`: `go` times are in milliseconds instead of seconds.
    pub use_millisec: bool,
    /// UCCI `batch`: read no commands while thinking.
    pub batch: bool,
    /// `debug`: extra `info string` lines.
    pub debug: bool,
    /// `ponder` / `Ponder`: the GUI may ask us to ponder (the engine itself needs no change).
    pub ponder: bool,
    /// `usebook` / `OwnBook`.
    pub use_book: bool,
    /// `bookfiles` / `BookFile`: `;`-separated paths; empty = the embedded book.
    pub book_files: String,
    /// `hashsize` / `Hash`, megabytes.
    pub hash_mb: usize,
    /// `threads` / `Threads`.
    pub threads: usize,
    /// UCI `MultiPV`.
    pub multipv: usize,
    /// UCI `Move Overhead` (also UCCI `moveoverhead`), milliseconds.
    pub move_overhead_ms: u64,
    /// Root search algorithm (`algorithm` / `Algorithm`).
    pub algorithm: Algorithm,
    /// UCCI `resign`: may the engine resign hopeless games.
    pub resign: bool,
    /// UCCI `pruning`, `knowledge`, `randomness` (none|small|medium|large).
    pub pruning: Level,
    /// See `pruning`.
    pub knowledge: Level,
    /// See `pruning`; flattens book choice.
    pub randomness: Level,
    /// `without` / `Without`: search features switched off (comma-separated names, as
    /// `chariot bench --without` takes them), to measure what each one is worth in games.
    pub without: String,
    /// `withoutterms` / `Without Terms`: evaluation term groups left out (comma-separated).
    pub without_terms: String,
    /// `tune` / `Tune`: search parameters that differ from the defaults (`name=value` pairs,
    /// separated by spaces or commas), to test a candidate value against the landed one.
    pub tune: String,
    /// `evalfile` / `EvalFile`: the net file loaded (empty: none).
    pub eval_file: String,
    /// The net `eval_file` holds, loaded when the option was set.
    pub net: Option<Arc<Network>>,
    /// `usennue` / `Use NNUE`: evaluate with the net instead of the classic evaluation.
    pub use_nnue: bool,
}

/// The four-step scale of UCCI's combo options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// none
    None,
    /// small
    Small,
    /// medium
    Medium,
    /// large
    Large,
}

impl Level {
    fn parse(text: &str) -> Option<Level> {
        Some(match text.to_ascii_lowercase().as_str() {
            "none" => Level::None,
            "small" => Level::Small,
            "medium" => Level::Medium,
            "large" => Level::Large,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Small => "small",
            Level::Medium => "medium",
            Level::Large => "large",
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            use_millisec: false,
            batch: false,
            debug: false,
            ponder: false,
            use_book: true,
            book_files: String::new(),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            algorithm: Algorithm::Pvs,
            resign: true,
            pruning: Level::Large,
            knowledge: Level::Large,
            randomness: Level::None,
            without: String::new(),
            without_terms: String::new(),
            tune: String::new(),
            eval_file: String::new(),
            net: None,
            use_nnue: false,
        }
    }
}

/// Upper bounds of the spin options.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most MultiPV lines.
pub const MAX_MULTIPV: usize = 128;
/// Longest value of a string option (a path is at most 4096 bytes on Linux).
pub const MAX_TEXT_BYTES: usize = 4096;

/// What a `setoption` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// A value was set.
    Set,
    /// A button was pressed: clear the hash and forget the game (`newgame`, `Clear Hash`). A
    /// button takes no value: one given anyway is here for the caller to report, and the button
    /// is still pressed.
    NewGame {
        /// A value given after the button's name.
        stray_value: Option<String>,
    },
    /// No option of that name exists; the protocols say to ignore it (with a note).
    Unknown(String),
}

#[derive(Copy, Clone)]
enum Kind {
    Check,
    Spin(i64, i64),
    Combo(&'static [&'static str]),
    Text,
    Button,
}

struct Spec {
    ucci: Option<&'static str>,
    uci: Option<&'static str>,
    kind: Kind,
}

const LEVELS: &[&str] = &["none", "small", "medium", "large"];
const ALGORITHMS: &[&str] = &["pvs", "mtdf"];

const SPECS: &[Spec] = &[
    Spec { ucci: Some("usemillisec"), uci: None, kind: Kind::Check },
    Spec { ucci: Some("batch"), uci: None, kind: Kind::Check },
    Spec { ucci: Some("debug"), uci: None, kind: Kind::Check },
    Spec { ucci: Some("ponder"), uci: Some("Ponder"), kind: Kind::Check },
    Spec { ucci: Some("usebook"), uci: Some("OwnBook"), kind: Kind::Check },
    Spec { ucci: Some("bookfiles"), uci: Some("BookFile"), kind: Kind::Text },
    Spec { ucci: Some("hashsize"), uci: Some("Hash"), kind: Kind::Spin(1, MAX_HASH_MB as i64) },
    Spec { ucci: Some("threads"), uci: Some("Threads"), kind: Kind::Spin(1, MAX_THREADS as i64) },
    Spec { ucci: None, uci: Some("MultiPV"), kind: Kind::Spin(1, MAX_MULTIPV as i64) },
    Spec { ucci: Some("moveoverhead"), uci: Some("Move Overhead"), kind: Kind::Spin(0, 5_000) },
    Spec { ucci: Some("algorithm"), uci: Some("Algorithm"), kind: Kind::Combo(ALGORITHMS) },
    Spec { ucci: Some("resign"), uci: None, kind: Kind::Check },
    Spec { ucci: Some("pruning"), uci: None, kind: Kind::Combo(LEVELS) },
    Spec { ucci: Some("knowledge"), uci: None, kind: Kind::Combo(LEVELS) },
    Spec { ucci: Some("randomness"), uci: None, kind: Kind::Combo(LEVELS) },
    Spec { ucci: Some("without"), uci: Some("Without"), kind: Kind::Text },
    Spec { ucci: Some("withoutterms"), uci: Some("Without Terms"), kind: Kind::Text },
    Spec { ucci: Some("tune"), uci: Some("Tune"), kind: Kind::Text },
    Spec { ucci: Some("evalfile"), uci: Some("EvalFile"), kind: Kind::Text },
    Spec { ucci: Some("usennue"), uci: Some("Use NNUE"), kind: Kind::Check },
    Spec { ucci: Some("newgame"), uci: Some("Clear Hash"), kind: Kind::Button },
];

impl Options {
    /// The evaluation a search should use: the net when `usennue` is on, else the classic one.
    pub fn eval_choice(&self) -> EvalChoice {
        match (&self.net, self.use_nnue) {
            (Some(net), true) => EvalChoice::Nnue(net.clone()),
            _ => EvalChoice::Classic,
        }
    }

    fn current(&self, ucci_name: &str) -> String {
        match ucci_name {
            "usemillisec" => self.use_millisec.to_string(),
            "batch" => self.batch.to_string(),
            "debug" => self.debug.to_string(),
            "ponder" => self.ponder.to_string(),
            "usebook" => self.use_book.to_string(),
            "bookfiles" => self.book_files.clone(),
            "hashsize" => self.hash_mb.to_string(),
            "threads" => self.threads.to_string(),
            "multipv" => self.multipv.to_string(),
            "moveoverhead" => self.move_overhead_ms.to_string(),
            "algorithm" => match self.algorithm {
                Algorithm::Pvs => "pvs".into(),
                Algorithm::Mtdf => "mtdf".into(),
            },
            "resign" => self.resign.to_string(),
            "pruning" => self.pruning.name().into(),
            "knowledge" => self.knowledge.name().into(),
            "randomness" => self.randomness.name().into(),
            "without" => self.without.clone(),
            "withoutterms" => self.without_terms.clone(),
            "tune" => self.tune.clone(),
            "evalfile" => self.eval_file.clone(),
            "usennue" => self.use_nnue.to_string(),
            _ => String::new(),
        }
    }

    /// Sets the option known internally by its UCCI-style key.
    fn assign(&mut self, key: &str, kind: Kind, display: &str, value: &str) -> Result<SetOutcome, String> {
        match kind {
            Kind::Button => {
                let value = value.trim();
                let stray_value = (!value.is_empty()).then(|| value.to_string());
                return Ok(SetOutcome::NewGame { stray_value });
            }
            Kind::Check => {
                let v = parse_check(display, value)?;
                match key {
                    "usemillisec" => self.use_millisec = v,
                    "batch" => self.batch = v,
                    "debug" => self.debug = v,
                    "ponder" => self.ponder = v,
                    "usebook" => self.use_book = v,
                    "usennue" if v && self.net.is_none() => {
                        return Err(format!("{display}: no net is loaded (set EvalFile first)"))
                    }
                    "usennue" => self.use_nnue = v,
                    _ => self.resign = v,
                }
            }
            Kind::Spin(min, max) => {
                let v: i64 = match value.trim().parse() {
                    Ok(v) => v,
                    Err(e) if matches!(e.kind(), IntErrorKind::PosOverflow | IntErrorKind::NegOverflow) => {
                        return Err(format!(
                            "{display} must be between {min} and {max}, not {}",
                            quoted(value.trim())
                        ))
                    }
                    Err(_) => {
                        return Err(format!(
                            "{display} wants a whole number from {min} to {max}, not {}",
                            quoted(value)
                        ))
                    }
                };
                if !(min..=max).contains(&v) {
                    return Err(format!("{display} must be between {min} and {max}, not {v}"));
                }
                match key {
                    "hashsize" => self.hash_mb = v as usize,
                    "threads" => self.threads = v as usize,
                    "multipv" => self.multipv = v as usize,
                    _ => self.move_overhead_ms = v as u64,
                }
            }
            Kind::Combo(vars) => {
                let v = value.trim().to_ascii_lowercase();
                if !vars.contains(&v.as_str()) {
                    return Err(format!("{display} wants one of {}, not {}", vars.join("/"), quoted(value)));
                }
                match key {
                    "algorithm" => self.algorithm = v.parse()?,
                    "pruning" => self.pruning = Level::parse(&v).unwrap_or(Level::Large),
                    "knowledge" => self.knowledge = Level::parse(&v).unwrap_or(Level::Large),
                    _ => self.randomness = Level::parse(&v).unwrap_or(Level::None),
                }
            }
            // GUIs write an empty string as `<empty>`, as the announcement does.
            Kind::Text => {
                if value.len() > MAX_TEXT_BYTES {
                    return Err(format!("{display} is {} bytes long: at most {MAX_TEXT_BYTES}", value.len()));
                }
                let text = value.trim().replace("<empty>", "");
                match key {
                    "without" => {
                        SearchFeatures::ALL.without_list(&text).map_err(|e| format!("{display}: {e}"))?;
                        self.without = text;
                    }
                    "withoutterms" => {
                        TermSet::ALL.without_list(&text).map_err(|e| format!("{display}: {e}"))?;
                        self.without_terms = text;
                    }
                    "tune" => {
                        SearchParams::with_list(&text).map_err(|e| format!("{display}: {e}"))?;
                        self.tune = text;
                    }
                    // A file that does not load leaves the net in use as it was.
                    "evalfile" if text.is_empty() => {
                        (self.eval_file, self.net, self.use_nnue) = (text, None, false);
                    }
                    "evalfile" => {
                        let net = format::load(std::path::Path::new(&text))
                            .map_err(|e| format!("{display}: {e}"))?;
                        (self.eval_file, self.net) = (text, Some(Arc::new(net)));
                    }
                    _ => self.book_files = text,
                }
            }
        }
        Ok(SetOutcome::Set)
    }

    /// UCCI form: `setoption <name> [<value>]`.
    pub fn set_ucci(&mut self, args: &[&str]) -> Result<SetOutcome, String> {
        let Some((&name, value)) = args.split_first() else {
            return Err("setoption needs an option name".to_string());
        };
        // UCCI GUIs sometimes send the UCI keywords; accept them too.
        if name == "name" {
            return self.set_uci(args);
        }
        let Some(spec) = SPECS.iter().find(|s| s.ucci == Some(name)) else {
            return Ok(SetOutcome::Unknown(name.to_string()));
        };
        self.assign(name, spec.kind, name, &value.join(" "))
    }

    /// UCI form: `setoption name <name…> [value <value…>]` (names case-insensitive).
    pub fn set_uci(&mut self, args: &[&str]) -> Result<SetOutcome, String> {
        let ["name", rest @ ..] = args else {
            return Err("setoption needs 'name <option>'".to_string());
        };
        let name_len = rest.iter().position(|&t| t == "value").unwrap_or(rest.len());
        if name_len == 0 {
            return Err("setoption name is empty".to_string());
        }
        let name = rest[..name_len].join(" ");
        let value = rest.get(name_len + 1..).map(|v| v.join(" ")).unwrap_or_default();
        let Some(spec) = SPECS.iter().find(|s| s.uci.is_some_and(|u| u.eq_ignore_ascii_case(&name))) else {
            return Ok(SetOutcome::Unknown(name));
        };
        let key = spec.ucci.unwrap_or("multipv");
        if matches!(spec.kind, Kind::Check | Kind::Spin(..) | Kind::Combo(_)) && name_len == rest.len() {
            return Err(format!("setoption {name} needs 'value <…>'"));
        }
        self.assign(key, spec.kind, spec.uci.unwrap_or(key), &value)
    }

    /// The `option …` lines announced after `ucci`.
    pub fn ucci_lines(&self) -> Vec<String> {
        SPECS
            .iter()
            .filter_map(|s| s.ucci.map(|name| (name, s.kind)))
            .map(|(name, kind)| match kind {
                Kind::Check => format!("option {name} type check default {}", self.current(name)),
                Kind::Spin(min, max) => {
                    format!("option {name} type spin min {min} max {max} default {}", self.current(name))
                }
                Kind::Combo(vars) => {
                    format!(
                        "option {name} type combo default {} {}",
                        self.current(name),
                        var_list(vars, &self.current(name))
                    )
                }
                Kind::Text => format!("option {name} type string default {}", empty_as(&self.current(name))),
                Kind::Button => format!("option {name} type button"),
            })
            .collect()
    }

    /// The `option name …` lines announced after `uci`.
    pub fn uci_lines(&self) -> Vec<String> {
        SPECS
            .iter()
            .filter_map(|s| s.uci.map(|name| (name, s.ucci.unwrap_or("multipv"), s.kind)))
            .map(|(name, key, kind)| match kind {
                Kind::Check => format!("option name {name} type check default {}", self.current(key)),
                Kind::Spin(min, max) => {
                    format!("option name {name} type spin default {} min {min} max {max}", self.current(key))
                }
                Kind::Combo(vars) => {
                    format!(
                        "option name {name} type combo default {} {}",
                        self.current(key),
                        var_list(vars, &self.current(key))
                    )
                }
                Kind::Text => {
                    format!("option name {name} type string default {}", empty_as(&self.current(key)))
                }
                Kind::Button => format!("option name {name} type button"),
            })
            .collect()
    }
}

/// `var …` words with the current value first: XBoard's adapter uci2wb ignores `default` for
/// combos and XBoard then takes the first entry, so the first entry must be the value in force.
fn var_list(vars: &[&str], current: &str) -> String {
    std::iter::once(current)
        .chain(vars.iter().copied().filter(|&v| v != current))
        .map(|v| format!("var {v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn empty_as(value: &str) -> &str {
    if value.is_empty() {
        "<empty>"
    } else {
        value
    }
}

/// A check option's value: `true`/`false`, or `on`/`off`, `1`/`0`, `yes`/`no` as GUIs and
/// adapters (uci2wb sends `1`/`0`) write it. An empty value means `true`, as UCCI GUIs send a
/// bare name to switch a check on.
fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        other => Err(format!("{name} wants true or false, not {}", quoted(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usemillisec_switches() {
        let mut options = Options::default();
        assert_eq!(options.set_ucci(&["usemillisec", "true"]), Ok(SetOutcome::Set));
        assert!(options.use_millisec);
        assert!(options.ucci_lines().contains(&"option usemillisec type check default true".to_string()));
        assert_eq!(options.set_ucci(&["usemillisec", "false"]), Ok(SetOutcome::Set));
        assert!(!options.use_millisec);
        // uci2wb (XBoard's adapter) writes checks as 1 and 0.
        assert_eq!(options.set_ucci(&["ponder", "1"]), Ok(SetOutcome::Set));
        assert!(options.ponder);
        assert_eq!(options.set_ucci(&["ponder", "0"]), Ok(SetOutcome::Set));
        assert!(!options.ponder);
        let err = options.set_ucci(&["usemillisec", "maybe"]).unwrap_err();
        assert!(err.contains("'maybe'"), "{err}");
    }

    #[test]
    fn spins_combos_and_buttons_in_both_dialects() {
        let mut o = Options::default();
        assert_eq!(o.set_ucci(&["hashsize", "16"]), Ok(SetOutcome::Set));
        assert_eq!(o.hash_mb, 16);
        assert_eq!(o.set_uci(&["name", "hash", "value", "32"]), Ok(SetOutcome::Set));
        assert_eq!(o.hash_mb, 32);
        assert_eq!(o.set_uci(&["name", "Move", "Overhead", "value", "10"]), Ok(SetOutcome::Set));
        assert_eq!(o.move_overhead_ms, 10);
        assert_eq!(o.set_uci(&["name", "MultiPV", "value", "3"]), Ok(SetOutcome::Set));
        assert_eq!(o.multipv, 3);
        assert_eq!(o.set_ucci(&["algorithm", "mtdf"]), Ok(SetOutcome::Set));
        assert_eq!(o.algorithm, Algorithm::Mtdf);
        assert_eq!(o.set_ucci(&["bookfiles", "a.dat;b.dat"]), Ok(SetOutcome::Set));
        assert_eq!(o.book_files, "a.dat;b.dat");
        assert_eq!(o.set_ucci(&["bookfiles", "<empty>"]), Ok(SetOutcome::Set));
        assert_eq!(o.book_files, "");
        assert_eq!(o.set_ucci(&["newgame"]), Ok(SetOutcome::NewGame { stray_value: None }));
        assert_eq!(o.set_uci(&["name", "Clear", "Hash"]), Ok(SetOutcome::NewGame { stray_value: None }));
        // A value after a button is handed back to be reported; the button is pressed all the same.
        assert_eq!(
            o.set_uci(&["name", "Clear", "Hash", "value", "now"]),
            Ok(SetOutcome::NewGame { stray_value: Some("now".into()) })
        );
        assert_eq!(o.set_ucci(&["randomness", "small"]), Ok(SetOutcome::Set));
        assert_eq!(o.randomness, Level::Small);
        assert_eq!(o.set_ucci(&["without", "null,lmr"]), Ok(SetOutcome::Set));
        assert_eq!(o.without, "null,lmr");
        assert_eq!(o.set_uci(&["name", "Without", "value", "<empty>"]), Ok(SetOutcome::Set));
        assert_eq!(o.without, "");
        assert_eq!(o.set_uci(&["name", "Without", "Terms", "value", "cannons,pawns"]), Ok(SetOutcome::Set));
        assert_eq!(o.without_terms, "cannons,pawns");
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = Options::default();
        for (ucci, wanted) in [
            (&["hashsize", "0"][..], "between 1 and"),
            (&["hashsize", "lots"], "whole number"),
            (&["threads", "-2"], "between 1 and"),
            (&["pruning", "huge"], "none/small/medium/large"),
            (&["algorithm", "alphabeta"], "pvs/mtdf"),
            (&["without", "null,nullmove"], "unknown search feature 'nullmove'"),
            (&["withoutterms", "tempo"], "unknown evaluation term 'tempo'"),
        ] {
            let err = o.set_ucci(ucci).unwrap_err();
            assert!(err.contains(wanted), "{ucci:?}: {err}");
        }
        assert!(o.set_uci(&["name", "Hash"]).unwrap_err().contains("needs 'value"));
        assert!(o.set_uci(&["Hash", "16"]).unwrap_err().contains("'name <option>'"));
        assert!(o.set_uci(&["name", "value", "3"]).unwrap_err().contains("empty"));
        assert_eq!(o, Options::default());
        assert_eq!(o.set_ucci(&["nosuchoption", "1"]), Ok(SetOutcome::Unknown("nosuchoption".into())));
    }

    #[test]
    fn evalfile_loads_a_net_and_usennue_switches_to_it() {
        let dir = std::env::temp_dir().join(format!("chariot-options-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (good, bad) = (dir.join("good.nnue"), dir.join("bad.nnue"));
        let arch = crate::eval::nnue::Architecture { width: 16, ..crate::eval::nnue::Architecture::DEFAULT };
        let net = crate::eval::nnue::FloatNetwork::random(arch, 1).quantise().unwrap();
        format::save(&net, &good).unwrap();
        std::fs::write(&bad, b"CHARNNUE\x07\x00").unwrap();
        let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());

        let mut o = Options::default();
        assert_eq!(o.eval_choice(), EvalChoice::Classic);
        let err = o.set_uci(&["name", "Use", "NNUE", "value", "true"]).unwrap_err();
        assert!(err.contains("no net is loaded"), "{err}");
        assert!(!o.use_nnue);
        assert_eq!(o.set_uci(&["name", "EvalFile", "value", good]), Ok(SetOutcome::Set));
        assert_eq!(o.eval_choice(), EvalChoice::Classic, "loading a net does not switch to it");
        assert_eq!(o.set_uci(&["name", "Use", "NNUE", "value", "true"]), Ok(SetOutcome::Set));
        assert_eq!(o.eval_choice(), EvalChoice::Nnue(Arc::new(net.clone())));
        // A damaged file is refused, with where and what, and the loaded net stays.
        let err = o.set_ucci(&["evalfile", bad]).unwrap_err();
        assert!(err.starts_with("evalfile: net file") && err.contains("byte 8: format version 7"), "{err}");
        assert_eq!(o.eval_file, good);
        assert_eq!(o.eval_choice(), EvalChoice::Nnue(Arc::new(net)));
        assert!(o.uci_lines().contains(&format!("option name EvalFile type string default {good}")));
        assert!(o.ucci_lines().contains(&"option usennue type check default true".to_string()));
        assert_eq!(o.set_ucci(&["usennue", "false"]), Ok(SetOutcome::Set));
        assert_eq!(o.eval_choice(), EvalChoice::Classic);
        assert_eq!(o.set_ucci(&["evalfile", "<empty>"]), Ok(SetOutcome::Set));
        assert!(o.net.is_none() && o.eval_file.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn numbers_too_large_give_the_range_and_junk_is_quoted_short() {
        let mut o = Options::default();
        let err = o.set_uci(&["name", "Hash", "value", "99999999999999999999"]).unwrap_err();
        assert_eq!(err, "Hash must be between 1 and 65536, not '99999999999999999999'");
        let err = o.set_ucci(&["threads", "-99999999999999999999"]).unwrap_err();
        assert_eq!(err, "threads must be between 1 and 256, not '-99999999999999999999'");
        let junk = "j".repeat(1 << 20);
        for args in [["hashsize", junk.as_str()], ["pruning", junk.as_str()], ["ponder", junk.as_str()]] {
            let err = o.set_ucci(&args).unwrap_err();
            assert!(err.len() < 200 && err.contains("(1048576 bytes)"), "{err}");
        }
        let err = o.set_ucci(&["bookfiles", &junk]).unwrap_err();
        assert_eq!(err, "bookfiles is 1048576 bytes long: at most 4096");
        assert_eq!(o, Options::default());
    }

    #[test]
    fn announcements() {
        let o = Options::default();
        let ucci = o.ucci_lines();
        for name in ["usemillisec", "batch", "debug", "ponder", "usebook", "bookfiles", "hashsize", "threads"]
        {
            assert!(ucci.iter().any(|l| l.starts_with(&format!("option {name} type"))), "{name}");
        }
        assert!(ucci.contains(&"option newgame type button".to_string()));
        // The value in force comes first among the vars (for uci2wb and XBoard), then the rest.
        assert!(ucci.contains(
            &"option pruning type combo default large var large var none var small var medium".to_string()
        ));
        assert!(ucci.contains(&"option bookfiles type string default <empty>".to_string()));
        let uci = o.uci_lines();
        for name in
            ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "OwnBook", "BookFile"]
        {
            assert!(uci.iter().any(|l| l.starts_with(&format!("option name {name} type"))), "{name}");
        }
    }
}
