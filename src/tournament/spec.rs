//! The match's settings as written on the command line: engine specs, the search limit and SPRT
//! bounds, each parsed from its `key=value,…` text with a clear refusal. The adjudication rules
//! are `adjudication`'s.

use std::fmt;
use std::path::PathBuf;

use super::shown::{is_invisible, shown};

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI 3.0 (`ucci` → `ucciok`).
    Ucci,
    /// UCI in the Pikafish / Fairy-Stockfish dialect (`uci` → `uciok`).
    Uci,
}

/// One `--engine` argument: how to start the engine and talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in the PGN and the tables.
    pub name: String,
    /// The program to run.
    pub cmd: PathBuf,
    /// Arguments for the program (`arg=…`, repeatable).
    pub args: Vec<String>,
    /// UCCI or UCI.
    pub proto: Protocol,
    /// Whether the engine numbers ranks 1–10 instead of 0–9 (Fairy-Stockfish's UCI mode).
    pub ranks_from_one: bool,
    /// `option.X=Y` pairs, sent with `setoption` in the order given.
    pub options: Vec<(String, String)>,
    /// This engine's own search limit (`tc=`, `nodes=`, `depth=` or `movetime=`), in place of
    /// the match's: an engine at a fixed depth against one on a clock, say.
    pub limit: Option<Limit>,
}

/// Splits `a=1,b=2` into pairs; the refusal is the first item without `=`.
pub(super) fn key_values(text: &str) -> Result<Vec<(&str, &str)>, &str> {
    text.split(',')
        .filter(|item| !item.trim().is_empty())
        .map(|item| item.split_once('=').map(|(k, v)| (k.trim(), v.trim())).ok_or(item))
        .collect()
}

/// The longest engine name, in characters: room enough for any real name in the results table
/// and the PGN tags.
pub const MAX_NAME_CHARS: usize = 64;

/// Why a name cannot name an engine in the table and the PGN tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// More than `MAX_NAME_CHARS` characters: how many.
    TooLong(usize),
    /// A `"` or `\\`, which would need escaping in PGN tags.
    NeedsEscaping(char),
    /// A control character.
    Control(char),
    /// An invisible or reordering character (a zero-width mark, a bidi override).
    Invisible(char),
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NameProblem::TooLong(length) => {
                write!(f, "the name is {length} characters long; at most {MAX_NAME_CHARS} are allowed")
            }
            NameProblem::NeedsEscaping(c) => {
                write!(f, "the name may not contain '{c}' (it would need escaping in PGN tags)")
            }
            NameProblem::Control(c) => {
                write!(f, "the name may not contain a control character (U+{:04X})", c as u32)
            }
            NameProblem::Invisible(c) => {
                write!(
                    f,
                    "the name may not contain U+{:04X} (an invisible or reordering character)",
                    c as u32
                )
            }
        }
    }
}

/// Why `name` cannot name an engine in the table and the PGN tags, if it cannot.
fn name_problem(name: &str) -> Option<NameProblem> {
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return Some(NameProblem::TooLong(length));
    }
    let bad = name.chars().find(|&c| is_invisible(c) || c == '"' || c == '\\')?;
    Some(match bad {
        '"' | '\\' => NameProblem::NeedsEscaping(bad),
        c if c.is_control() => NameProblem::Control(c),
        c => NameProblem::Invisible(c),
    })
}

/// Why an `--engine` spec was refused: the spec as given and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub problem: EngineSpecProblem,
}

/// What is wrong with an `--engine` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpecProblem {
    /// An item without `=`.
    NotKeyValue(String),
    /// `proto=` is neither `ucci` nor `uci`: the value.
    Protocol(String),
    /// `ranks=` is neither `0` nor `1`: the value.
    Ranks(String),
    /// An `option.X=Y` with a control character; the option's name.
    OptionControl(String),
    /// A key that is not known, or empty.
    UnknownKey(String),
    /// No `cmd=`.
    MissingCmd,
    /// No `name=`, and the program's file name cannot serve as one.
    FileNameCannotName(NameProblem),
    /// The name given cannot serve.
    Name(NameProblem),
    /// An own limit (`tc=`, `nodes=`, `depth=`, `movetime=`) that does not read.
    Limit(LimitError),
    /// More than one own limit: the second key.
    SecondLimit(String),
}

impl fmt::Display for EngineSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad engine spec {}: ", shown(&self.spec))?;
        match &self.problem {
            EngineSpecProblem::NotKeyValue(item) => write!(f, "{} is not key=value", shown(item)),
            EngineSpecProblem::Protocol(value) => {
                write!(f, "proto must be ucci or uci, not {}", shown(value))
            }
            EngineSpecProblem::Ranks(value) => write!(f, "ranks must be 0 or 1, not {}", shown(value)),
            EngineSpecProblem::OptionControl(option) => {
                write!(f, "option.{} has a control character", shown(option))
            }
            EngineSpecProblem::UnknownKey(key) => write!(f, "unknown or empty key {}", shown(key)),
            EngineSpecProblem::MissingCmd => write!(f, "cmd=PATH is missing"),
            EngineSpecProblem::FileNameCannotName(why) => {
                write!(f, "the program's file name cannot name it ({why}): give name=")
            }
            EngineSpecProblem::Name(why) => write!(f, "{why}"),
            EngineSpecProblem::Limit(why) => write!(f, "{why}"),
            EngineSpecProblem::SecondLimit(key) => {
                write!(
                    f,
                    "{key}= is a second limit: an engine takes at most one of tc=, nodes=, depth=, movetime="
                )
            }
        }
    }
}

impl std::error::Error for EngineSpecError {}

impl EngineSpec {
    /// Parses `name=A,cmd=PATH[,proto=ucci|uci][,ranks=0|1][,arg=X…][,option.X=Y…]`, with at
    /// most one own limit: `tc=BASE+INC`, `nodes=N`, `depth=D` or `movetime=MS`.
    /// The name defaults to the program's file name, the protocol to UCCI. Names are checked here
    /// (length, characters) so that every later use of them can trust them.
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let bad = |problem| EngineSpecError { spec: text.to_string(), problem };
        let (mut name, mut cmd, mut proto, mut ranks) = (None, None, Protocol::Ucci, false);
        let (mut args, mut options, mut limit) = (Vec::new(), Vec::new(), None);
        let items = key_values(text).map_err(|item| bad(EngineSpecProblem::NotKeyValue(item.to_string())))?;
        for (key, value) in items {
            match key {
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "cmd" if !value.is_empty() => cmd = Some(PathBuf::from(value)),
                "proto" => {
                    proto = match value {
                        "ucci" => Protocol::Ucci,
                        "uci" => Protocol::Uci,
                        _ => return Err(bad(EngineSpecProblem::Protocol(value.to_string()))),
                    }
                }
                "ranks" => {
                    ranks = match value {
                        "0" => false,
                        "1" => true,
                        _ => return Err(bad(EngineSpecProblem::Ranks(value.to_string()))),
                    }
                }
                "arg" => args.push(value.to_string()),
                "tc" | "nodes" | "depth" | "movetime" => {
                    if limit.is_some() {
                        return Err(bad(EngineSpecProblem::SecondLimit(key.to_string())));
                    }
                    let parsed = match key {
                        "tc" => Limit::parse_tc(value),
                        "nodes" => Limit::parse_nodes(value),
                        "depth" => Limit::parse_depth(value),
                        _ => Limit::parse_movetime(value),
                    };
                    limit = Some(parsed.map_err(|mut e| {
                        // Named as the spec names it, not as the match's flag.
                        if let LimitError::Number(NumberError::WholeNumber { flag, .. }) = &mut e {
                            *flag = format!("{key}=");
                        }
                        bad(EngineSpecProblem::Limit(e))
                    })?);
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        // A line break would end the `setoption` line and start another command.
                        if option.chars().chain(value.chars()).any(char::is_control) {
                            return Err(bad(EngineSpecProblem::OptionControl(option.to_string())));
                        }
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(bad(EngineSpecProblem::UnknownKey(key.to_string()))),
                },
            }
        }
        let cmd = cmd.ok_or_else(|| bad(EngineSpecProblem::MissingCmd))?;
        let name = match name {
            Some(name) => name,
            None => {
                let file = cmd.file_name().map(|n| n.to_string_lossy().into_owned());
                let name = file.unwrap_or_else(|| "engine".to_string());
                if let Some(why) = name_problem(&name) {
                    return Err(bad(EngineSpecProblem::FileNameCannotName(why)));
                }
                name
            }
        };
        if let Some(why) = name_problem(&name) {
            return Err(bad(EngineSpecProblem::Name(why)));
        }
        Ok(EngineSpec { name, cmd, args, proto, ranks_from_one: ranks, options, limit })
    }

    /// The program and its settings in `--engine`'s syntax, less the name and the limit (the
    /// PGN's `TimeControl` holds those): `cmd=PATH[,arg=X…][,proto=uci][,ranks=1][,option.X=Y…]`,
    /// so that a game's record says which program played it and how.
    pub fn program_text(&self) -> String {
        let mut text = format!("cmd={}", self.cmd.display());
        for arg in &self.args {
            text.push_str(&format!(",arg={arg}"));
        }
        if self.proto == Protocol::Uci {
            text.push_str(",proto=uci");
        }
        if self.ranks_from_one {
            text.push_str(",ranks=1");
        }
        for (option, value) in &self.options {
            text.push_str(&format!(",option.{option}={value}"));
        }
        text
    }

    /// The limit this engine plays under: its own, or else the match's.
    pub fn limit_or(&self, match_limit: Limit) -> Limit {
        self.limit.unwrap_or(match_limit)
    }
}

/// A number on the command line that is not one or out of its range; the message gives the range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not a whole number in `min..=max`.
    WholeNumber {
        /// The flag (`--games`).
        flag: String,
        /// The text as given.
        text: String,
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
    /// Not seconds that round into `min_ms..=max_ms` milliseconds.
    Seconds {
        /// The flag (`--timeout`).
        flag: String,
        /// The text as given.
        text: String,
        /// The shortest allowed, in milliseconds.
        min_ms: u64,
        /// The longest allowed, in milliseconds.
        max_ms: u64,
    },
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberError::WholeNumber { flag, text, min, max } => {
                write!(f, "{flag} {}: expected a whole number from {min} to {max}", shown(text))
            }
            NumberError::Seconds { flag, text, min_ms, max_ms } => write!(
                f,
                "{flag} {}: expected seconds from {} to {}",
                shown(text),
                seconds_text(*min_ms),
                seconds_text(*max_ms)
            ),
        }
    }
}

impl std::error::Error for NumberError {}

/// A whole number for `flag` in `min..=max`; the refusal gives the range.
pub fn whole_number(flag: &str, text: &str, min: u64, max: u64) -> Result<u64, NumberError> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| NumberError::WholeNumber { flag: flag.to_string(), text: text.to_string(), min, max })
}

/// Seconds (`10`, `0.5`) as whole milliseconds, or `None` unless a finite number that rounds
/// into `min_ms..=max_ms`.
fn seconds_to_ms(text: &str, min_ms: u64, max_ms: u64) -> Option<u64> {
    let s = text.trim().parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)?;
    // Compared as floats: a huge value must not saturate into range.
    let ms = (s * 1000.0).round();
    (ms >= min_ms as f64 && ms <= max_ms as f64).then_some(ms as u64)
}

/// Milliseconds as seconds for a message: `0.1`, `86400`.
fn seconds_text(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

/// Seconds for `flag` (decimals allowed) as milliseconds in `min_ms..=max_ms`; the refusal gives
/// the range.
pub fn seconds(flag: &str, text: &str, min_ms: u64, max_ms: u64) -> Result<u64, NumberError> {
    seconds_to_ms(text, min_ms, max_ms).ok_or_else(|| NumberError::Seconds {
        flag: flag.to_string(),
        text: text.to_string(),
        min_ms,
        max_ms,
    })
}

/// How long each move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock per side: base milliseconds plus an increment after each move.
    Clock {
        /// Starting time in milliseconds.
        base_ms: u64,
        /// Milliseconds added after each move.
        inc_ms: u64,
    },
    /// A fixed number of nodes per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed time per move in milliseconds.
    MoveTime(u64),
}

/// The longest clock: a day. Times stay far inside what engines read into 32-bit integers (in
/// milliseconds, 24 days) even with the increments of a long game added.
pub const MAX_CLOCK_MS: u64 = 86_400_000;
/// The largest increment: an hour.
pub const MAX_INCREMENT_MS: u64 = 3_600_000;
/// The largest `--movetime`: a day, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = MAX_CLOCK_MS;
/// The largest `--nodes`: a day's search at ten million nodes a second is less.
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// The largest `--depth`: beyond any engine's reach.
pub const MAX_DEPTH: u64 = 1000;

/// The part of a `--tc` that is out of range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClockPart {
    /// The base time: 1 ms to `MAX_CLOCK_MS`.
    Base,
    /// The increment: 0 to `MAX_INCREMENT_MS`.
    Increment,
}

impl ClockPart {
    /// The part's name in a message and its range in milliseconds.
    fn name_and_range(self) -> (&'static str, u64, u64) {
        match self {
            ClockPart::Base => ("base time", 1, MAX_CLOCK_MS),
            ClockPart::Increment => ("increment", 0, MAX_INCREMENT_MS),
        }
    }
}

/// Why a search limit (`--tc`, `--nodes`, `--depth`, `--movetime`) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitError {
    /// A `--tc` whose base or increment is not seconds in range.
    TimeControl {
        /// The `--tc` text as given.
        text: String,
        /// The part that is wrong (the base when both are).
        part: ClockPart,
    },
    /// A `--nodes`, `--depth` or `--movetime` that is not a whole number in range.
    Number(NumberError),
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::TimeControl { text, part } => {
                let (name, min, max) = part.name_and_range();
                write!(
                    f,
                    "bad time control {}: the {name} must be from {} to {} seconds",
                    shown(text),
                    seconds_text(min),
                    seconds_text(max)
                )
            }
            LimitError::Number(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LimitError {}

impl Limit {
    /// Parses `--tc BASE[+INC]` in seconds (`60+0.6`, `10`): a base from 1 ms to a day and an
    /// increment up to an hour.
    pub fn parse_tc(text: &str) -> Result<Limit, LimitError> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let read = |part: ClockPart, value: &str| {
            let (_, min, max) = part.name_and_range();
            seconds_to_ms(value, min, max)
                .ok_or_else(|| LimitError::TimeControl { text: text.to_string(), part })
        };
        let base_ms = read(ClockPart::Base, base)?;
        let inc_ms = read(ClockPart::Increment, inc)?;
        Ok(Limit::Clock { base_ms, inc_ms })
    }

    /// Parses `--nodes N`.
    pub fn parse_nodes(text: &str) -> Result<Limit, LimitError> {
        whole_number("--nodes", text, 1, MAX_NODES).map(Limit::Nodes).map_err(LimitError::Number)
    }

    /// Parses `--depth D`.
    pub fn parse_depth(text: &str) -> Result<Limit, LimitError> {
        whole_number("--depth", text, 1, MAX_DEPTH)
            .map(|d| Limit::Depth(d as u32))
            .map_err(LimitError::Number)
    }

    /// Parses `--movetime MS`.
    pub fn parse_movetime(text: &str) -> Result<Limit, LimitError> {
        whole_number("--movetime", text, 1, MAX_MOVETIME_MS).map(Limit::MoveTime).map_err(LimitError::Number)
    }

    /// How the limit reads in a PGN `TimeControl` tag and the report.
    pub fn describe(&self) -> String {
        match *self {
            Limit::Clock { base_ms, inc_ms } => {
                format!("{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            Limit::Nodes(n) => format!("nodes={n}"),
            Limit::Depth(d) => format!("depth={d}"),
            Limit::MoveTime(ms) => format!("movetime={ms}ms"),
        }
    }
}

/// SPRT settings: the two hypotheses in Elo and the error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtSpec {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// As `--sprt` takes it, `elo0=0,elo1=5,alpha=0.05,beta=0.05`: `parse` reads back the same
/// numbers (a float's `Display` is the shortest text that does).
impl fmt::Display for SprtSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elo0={},elo1={},alpha={},beta={}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}

/// The largest Elo an SPRT hypothesis may name (either sign).
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// Why an `--sprt` setting was refused: the text as given and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SprtError {
    /// The `--sprt` text as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: SprtProblem,
}

/// What is wrong with an `--sprt` setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtProblem {
    /// An item without `=`.
    NotKeyValue(String),
    /// `elo0=` or `elo1=` is not a number within ±`MAX_SPRT_ELO`.
    Elo {
        /// The key.
        key: String,
        /// Its value as given.
        value: String,
    },
    /// `alpha=` or `beta=` is not a number strictly between 0 and 0.5.
    ErrorRate {
        /// The key.
        key: String,
        /// Its value as given.
        value: String,
    },
    /// A key that is not one of the four.
    UnknownKey(String),
    /// One of the four keys is missing.
    Missing(&'static str),
    /// `elo1` is not above `elo0`.
    Elo1NotAboveElo0,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad --sprt {}: ", shown(&self.text))?;
        match &self.problem {
            SprtProblem::NotKeyValue(item) => write!(f, "{} is not key=value", shown(item)),
            SprtProblem::Elo { key, value } => {
                write!(f, "{key}={} is not a number from -{MAX_SPRT_ELO} to {MAX_SPRT_ELO}", shown(value))
            }
            SprtProblem::ErrorRate { key, value } => {
                write!(f, "{key}={} is not a number between 0 and 0.5", shown(value))
            }
            SprtProblem::UnknownKey(key) => write!(f, "unknown key {}", shown(key)),
            SprtProblem::Missing(key) => write!(f, "{key}= is missing"),
            SprtProblem::Elo1NotAboveElo0 => write!(f, "elo1 must be above elo0"),
        }
    }
}

impl std::error::Error for SprtError {}

/// Parses the Elo value of `key` in ±`MAX_SPRT_ELO`.
fn elo(key: &str, value: &str) -> Result<f64, SprtProblem> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.abs() <= MAX_SPRT_ELO)
        .ok_or_else(|| SprtProblem::Elo { key: key.to_string(), value: value.to_string() })
}

/// Parses the error rate of `key`, strictly between 0 and 0.5.
fn error_rate(key: &str, value: &str) -> Result<f64, SprtProblem> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| 0.0 < *v && *v < 0.5)
        .ok_or_else(|| SprtProblem::ErrorRate { key: key.to_string(), value: value.to_string() })
}

impl SprtSpec {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (all four are required).
    pub fn parse(text: &str) -> Result<SprtSpec, SprtError> {
        SprtSpec::read(text).map_err(|problem| SprtError { text: text.to_string(), problem })
    }

    /// `parse` without the text in the refusal.
    fn read(text: &str) -> Result<SprtSpec, SprtProblem> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        for (key, value) in key_values(text).map_err(|item| SprtProblem::NotKeyValue(item.to_string()))? {
            match key {
                "elo0" => elo0 = Some(elo(key, value)?),
                "elo1" => elo1 = Some(elo(key, value)?),
                "alpha" => alpha = Some(error_rate(key, value)?),
                "beta" => beta = Some(error_rate(key, value)?),
                _ => return Err(SprtProblem::UnknownKey(key.to_string())),
            }
        }
        let need = |v: Option<f64>, key: &'static str| v.ok_or(SprtProblem::Missing(key));
        let spec = SprtSpec {
            elo0: need(elo0, "elo0")?,
            elo1: need(elo1, "elo1")?,
            alpha: need(alpha, "alpha")?,
            beta: need(beta, "beta")?,
        };
        if spec.elo1 <= spec.elo0 {
            return Err(SprtProblem::Elo1NotAboveElo0);
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec_fields() {
        let s = EngineSpec::parse("name=fsf,cmd=/usr/games/fairy-stockfish,proto=uci,ranks=1,option.Hash=16")
            .unwrap();
        assert_eq!(s.name, "fsf");
        assert_eq!(s.proto, Protocol::Uci);
        assert!(s.ranks_from_one);
        assert_eq!(s.options, vec![("Hash".to_string(), "16".to_string())]);
        let d = EngineSpec::parse("cmd=/bin/eng").unwrap();
        assert_eq!((d.name.as_str(), d.proto, d.ranks_from_one), ("eng", Protocol::Ucci, false));
    }

    #[test]
    fn engine_spec_refusals() {
        assert!(EngineSpec::parse("name=a").unwrap_err().to_string().contains("cmd=PATH is missing"));
        assert!(EngineSpec::parse("cmd=x,proto=xboard").unwrap_err().to_string().contains("proto must be"));
        assert!(EngineSpec::parse("cmd=x,colour=red")
            .unwrap_err()
            .to_string()
            .contains("unknown or empty key 'colour'"));
        assert!(EngineSpec::parse("cmd=x,ranks")
            .unwrap_err()
            .to_string()
            .contains("'ranks' is not key=value"));
    }

    #[test]
    fn an_engine_may_carry_its_own_limit() {
        let own = |text: &str| EngineSpec::parse(&format!("name=e,cmd=/bin/e,{text}")).map(|s| s.limit);
        assert_eq!(own("depth=3"), Ok(Some(Limit::Depth(3))));
        assert_eq!(own("nodes=5000"), Ok(Some(Limit::Nodes(5000))));
        assert_eq!(own("movetime=250"), Ok(Some(Limit::MoveTime(250))));
        assert_eq!(own("tc=10+0.1"), Ok(Some(Limit::Clock { base_ms: 10_000, inc_ms: 100 })));
        assert_eq!(EngineSpec::parse("cmd=/bin/e").unwrap().limit, None);
        let match_limit = Limit::Clock { base_ms: 5000, inc_ms: 50 };
        assert_eq!(EngineSpec::parse("cmd=/bin/e,depth=2").unwrap().limit_or(match_limit), Limit::Depth(2));
        assert_eq!(EngineSpec::parse("cmd=/bin/e").unwrap().limit_or(match_limit), match_limit);
        let refused = |text: &str| own(text).unwrap_err().to_string();
        assert!(
            refused("depth=0").contains("depth= '0': expected a whole number from 1 to 1000"),
            "{}",
            refused("depth=0")
        );
        assert!(refused("nodes=x").contains("nodes= 'x'"), "{}", refused("nodes=x"));
        assert!(refused("tc=0+1").contains("the base time must be"), "{}", refused("tc=0+1"));
        let second = refused("depth=3,nodes=10");
        assert!(second.contains("nodes= is a second limit"), "{second}");
    }

    #[test]
    fn engine_names() {
        let named = |name: &str| EngineSpec::parse(&format!("name={name},cmd=/bin/eng"));
        assert_eq!(named(&"炮".repeat(MAX_NAME_CHARS)).unwrap().name.chars().count(), MAX_NAME_CHARS);
        let long = named(&"n".repeat(65_531)).unwrap_err().to_string();
        assert!(long.contains("the name is 65531 characters long; at most 64 are allowed"), "{long}");
        assert!(long.len() < 200, "{long}");
        assert!(named("a\tb").unwrap_err().to_string().contains("control character (U+0009)"));
        assert!(named("a\u{200b}b").unwrap_err().to_string().contains("U+200B"));
        assert!(named("say \"hi\"").unwrap_err().to_string().contains("may not contain '\"'"));
        assert!(named("a\\b").unwrap_err().to_string().contains("may not contain '\\'"));
        assert!(named("Fairy-Stockfish 11.1 (象棋)").is_ok());
        // A default name from the file name is checked the same way.
        let default = EngineSpec::parse("cmd=/bin/bad\u{7f}name").unwrap_err().to_string();
        assert!(default.contains("file name cannot name it") && default.contains("give name="), "{default}");
        // A line break in an option would be a second command to the engine.
        assert!(EngineSpec::parse("cmd=x,option.Hash=16\nquit")
            .unwrap_err()
            .to_string()
            .contains("control character"));
    }

    #[test]
    fn time_control() {
        assert_eq!(Limit::parse_tc("10+0.1").unwrap(), Limit::Clock { base_ms: 10_000, inc_ms: 100 });
        assert_eq!(Limit::parse_tc("0.5").unwrap(), Limit::Clock { base_ms: 500, inc_ms: 0 });
        assert_eq!(
            Limit::parse_tc("86400+3600").unwrap(),
            Limit::Clock { base_ms: MAX_CLOCK_MS, inc_ms: 3_600_000 }
        );
        for bad in ["ten", "0+1", "0.0004", "-1", "inf", "NaN", "1e17+0", "86400.001"] {
            let e = Limit::parse_tc(bad).unwrap_err().to_string();
            assert!(e.contains("the base time must be from 0.001 to 86400 seconds"), "{bad}: {e}");
        }
        for bad in ["1+1e20", "1+-1", "1+3600.5", "1+"] {
            let e = Limit::parse_tc(bad).unwrap_err().to_string();
            assert!(e.contains("the increment must be from 0 to 3600 seconds"), "{bad}: {e}");
        }
    }

    #[test]
    fn numbers_out_of_range_give_the_range() {
        assert_eq!(Limit::parse_nodes("1000000000000"), Ok(Limit::Nodes(MAX_NODES)));
        assert_eq!(Limit::parse_depth("1000"), Ok(Limit::Depth(1000)));
        let e = Limit::parse_depth("4294967297").unwrap_err().to_string();
        assert_eq!(e, "--depth '4294967297': expected a whole number from 1 to 1000");
        assert!(Limit::parse_movetime("0").unwrap_err().to_string().contains("from 1 to 86400000"));
        assert!(Limit::parse_nodes("-1").is_err());
        assert_eq!(seconds("--timeout", "0.5", 100, 1000), Ok(500));
        assert_eq!(
            seconds("--timeout", "0.04", 100, 1000).unwrap_err().to_string(),
            "--timeout '0.04': expected seconds from 0.1 to 1"
        );
        // A huge number is quoted, not echoed.
        let huge = "9".repeat(100_000);
        assert!(whole_number("--games", &huge, 1, 10).unwrap_err().to_string().contains("(100000 bytes)"));
    }

    #[test]
    fn sprt_settings() {
        let s = SprtSpec::parse("elo0=0,elo1=5,alpha=0.05,beta=0.1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!(s.to_string(), "elo0=0,elo1=5,alpha=0.05,beta=0.1");
        // Written as it parses, to the last bit.
        let odd = SprtSpec { elo0: -0.1 - 0.2, elo1: 1.0 / 3.0, alpha: 0.05, beta: 0.1 + 0.2 - 0.25 };
        assert_eq!(SprtSpec::parse(&odd.to_string()), Ok(odd));
        assert!(SprtSpec::parse("elo0=0,elo1=5,alpha=0.05")
            .unwrap_err()
            .to_string()
            .contains("beta= is missing"));
        assert!(SprtSpec::parse("elo0=5,elo1=0,alpha=0.05,beta=0.05").is_err());
        let e = SprtSpec::parse("elo0=-1e300,elo1=5,alpha=0.05,beta=0.05").unwrap_err().to_string();
        assert!(e.contains("elo0='-1e300' is not a number from -1000 to 1000"), "{e}");
        assert!(SprtSpec::parse("elo0=0,elo1=5,alpha=0.5,beta=0.05")
            .unwrap_err()
            .to_string()
            .contains("between 0 and 0.5"));
    }
}
