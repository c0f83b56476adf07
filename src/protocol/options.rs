//! Engine options, declared once and announced in either dialect, and `setoption`.
//!
//! A value is parsed and checked when `setoption` brings it, and what the search needs goes
//! straight into the `EngineOptions` this holds, so `go` hands that over whole and a refused value
//! leaves the last good one in force. The strings the GUI typed are not kept: an announcement
//! writes each value back from its typed form.

use std::fmt;
use std::num::IntErrorKind;
use std::sync::Arc;

use crate::eval::nnue::{embedded, format, Network};
use crate::eval::{EvalChoice, TermSet};
use crate::quote::quoted;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::search::{
    Algorithm, EngineOptions, ParamError, SearchFeatures, SearchParams, Skill, UnknownName, DEFAULT_HASH_MB,
};

use super::dialect::Dialect;

/// Why a `setoption` was refused; `Display` is the message the GUI gets. Each names the option
/// as the GUI wrote it (`name`) and quotes what it gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// UCCI `setoption` with nothing after it.
    MissingName,
    /// UCI `setoption` without the word `name`.
    MissingNameKeyword,
    /// UCI `setoption name` followed by nothing but `value`.
    EmptyName,
    /// A UCI check, spin or combo option without `value <…>`.
    MissingValue {
        /// The option.
        name: String,
    },
    /// A check option given something other than true or false.
    NotCheck {
        /// The option.
        name: String,
        /// The value, trimmed and lower-cased.
        value: String,
    },
    /// A spin option given something that is not a whole number.
    NotNumber {
        /// The option.
        name: String,
        /// Its range.
        range: SpinRange,
        /// The value as given.
        value: String,
    },
    /// A spin option given a number too large (or small) for any integer.
    Overflow {
        /// The option.
        name: String,
        /// Its range.
        range: SpinRange,
        /// The value, trimmed.
        value: String,
    },
    /// A spin option given a number outside its range.
    OutOfRange {
        /// The option.
        name: String,
        /// Its range.
        range: SpinRange,
        /// The value.
        value: i64,
    },
    /// A combo option given a word it does not offer.
    NotChoice {
        /// The option.
        name: String,
        /// The words it offers.
        choices: &'static [&'static str],
        /// The value as given.
        value: String,
    },
    /// A string option longer than `MAX_TEXT_BYTES`.
    TooLong {
        /// The option.
        name: String,
        /// Its length in bytes.
        bytes: usize,
    },
    /// `without` / `Without` names no search feature.
    Features {
        /// The option.
        name: String,
        /// The name that is no feature.
        error: UnknownName,
    },
    /// `tune` / `Tune` is not a list of parameters in range.
    Params {
        /// The option.
        name: String,
        /// The pair at fault.
        error: ParamError,
    },
    /// The evaluation or the tables refused the value (`withoutterms`, `evalfile`, `egtbpath`):
    /// its reason, as it wrote it.
    Evaluation {
        /// The option.
        name: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::MissingName => write!(f, "setoption needs an option name"),
            OptionError::MissingNameKeyword => write!(f, "setoption needs 'name <option>'"),
            OptionError::EmptyName => write!(f, "setoption name is empty"),
            OptionError::MissingValue { name } => write!(f, "setoption {name} needs 'value <…>'"),
            OptionError::NotCheck { name, value } => {
                write!(f, "{name} wants true or false, not {}", quoted(value))
            }
            OptionError::NotNumber { name, range: SpinRange { min, max }, value } => {
                write!(f, "{name} wants a whole number from {min} to {max}, not {}", quoted(value))
            }
            OptionError::Overflow { name, range: SpinRange { min, max }, value } => {
                write!(f, "{name} must be between {min} and {max}, not {}", quoted(value))
            }
            OptionError::OutOfRange { name, range: SpinRange { min, max }, value } => {
                write!(f, "{name} must be between {min} and {max}, not {value}")
            }
            OptionError::NotChoice { name, choices, value } => {
                write!(f, "{name} wants one of {}, not {}", choices.join("/"), quoted(value))
            }
            OptionError::TooLong { name, bytes } => {
                write!(f, "{name} is {bytes} bytes long: at most {MAX_TEXT_BYTES}")
            }
            OptionError::Features { name, error } => write!(f, "{name}: {error}"),
            OptionError::Params { name, error } => write!(f, "{name}: {error}"),
            OptionError::Evaluation { name, reason } => write!(f, "{name}: {reason}"),
        }
    }
}

impl std::error::Error for OptionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OptionError::Features { error, .. } => Some(error),
            OptionError::Params { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The option values a session holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// UCCI `usemillisec`: `go` times are in milliseconds instead of seconds.
    pub use_millisec: bool,
    /// UCCI `batch`: read no commands while thinking.
    pub batch: bool,
    /// UCCI `debug` (and UCI's `debug` command): report the time budget and the book's decision
    /// as `info string` lines.
    pub debug: bool,
    /// `ponder` / `Ponder`: the GUI may ask us to ponder (the engine itself needs no change).
    pub ponder: bool,
    /// `usebook` / `OwnBook`: true by default in UCCI, false in UCI (`take_dialect_defaults`).
    pub use_book: bool,
    /// `bookfiles` / `BookFile`: `;`-separated paths; empty = the embedded book.
    pub book_files: String,
    /// `hashsize` / `Hash`, megabytes.
    pub hash_mb: usize,
    /// UCI `MultiPV`.
    pub multipv: usize,
    /// UCCI `resign`: may the engine resign hopeless games.
    pub resign: bool,
    /// `showwdl` / `UCI_ShowWDL`: info lines carry win, draw and loss chances.
    pub show_wdl: bool,
    /// UCCI `randomness`: flattens the choice among book moves.
    pub randomness: Level,
    /// UCCI `pruning`: how much of the selective search is on (with `without`, the features).
    pruning: Level,
    /// UCCI `knowledge`: how many evaluation term groups are on (with `without_terms`, the terms).
    knowledge: Level,
    /// `without` / `Without`: every search feature but those named.
    without: SearchFeatures,
    /// `withoutterms` / `Without Terms`: every evaluation term group but those named.
    without_terms: TermSet,
    /// `evalfile` / `EvalFile`: the net file loaded (empty: the built-in net).
    eval_file: String,
    /// `egtbpath` / `EgtbPath`: the folder of endgame tables loaded (empty: none).
    egtb_path: String,
    /// `skilllevel` / `Skill Level`: 0 to 19 play weaker (`search::skill`), 20 at full strength.
    skill_level: u8,
    /// `limitstrength` / `UCI_LimitStrength`: play at `elo` instead of `skill_level`.
    limit_strength: bool,
    /// `elo` / `UCI_Elo`: the strength on the measured scale (docs/levels.md), used while
    /// `limit_strength` is on.
    elo: i32,
    /// The net `usennue` switches to: the one `eval_file` holds, loaded when the option was set,
    /// or the built-in one.
    net: Arc<Network>,
    /// What the next search runs with: `threads`, `algorithm`, `moveoverhead`, the features
    /// (`pruning` less `without`), the terms (`knowledge` less `withoutterms`), the parameters
    /// (`tune`), the evaluation (`usennue` with the net of `evalfile`) and the playing strength
    /// (`skilllevel`, or `elo` under `limitstrength`). Kept up to date as each option arrives.
    engine: EngineOptions,
}

/// The four-step scale of UCCI's combo options.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
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

/// The levels' names, in the order of `Level`.
const LEVELS: &[&str] = &["none", "small", "medium", "large"];
const ALGORITHMS: &[&str] = &["pvs", "mtdf"];

impl Level {
    const ALL: [Level; 4] = [Level::None, Level::Small, Level::Medium, Level::Large];

    fn parse(display: &str, value: &str) -> Result<Level, OptionError> {
        let word = value.trim().to_ascii_lowercase();
        match LEVELS.iter().position(|&name| name == word) {
            Some(at) => Ok(Level::ALL[at]),
            None => {
                Err(OptionError::NotChoice { name: display.into(), choices: LEVELS, value: value.into() })
            }
        }
    }

    /// The level as the option writes it.
    pub fn name(self) -> &'static str {
        LEVELS[self as usize]
    }

    /// The book's `randomness` for this level (see `book::choose`).
    pub fn book_randomness(self) -> f64 {
        match self {
            Level::None => 0.0,
            Level::Small => 0.5,
            Level::Medium => 1.5,
            Level::Large => 4.0,
        }
    }
}

/// UCCI's `knowledge` scale over the evaluation's term groups, the groups measured to be worth the
/// most (docs/strength.md, "What each feature and term is worth") coming on first: none (material
/// and piece-square tables alone), small (the cannon terms and mobility), medium (also attacker
/// pairs near the king and connected pawns), large (everything, also king safety).
fn terms_for_knowledge(level: Level) -> TermSet {
    TermSet {
        cannons: level >= Level::Small,
        mobility: level >= Level::Small,
        king_attack: level >= Level::Medium,
        pawns: level >= Level::Medium,
        king_safety: level >= Level::Large,
    }
}

/// The features on in both `a` and `b` (every field named, so a new feature cannot be missed).
fn features_in_both(a: SearchFeatures, b: SearchFeatures) -> SearchFeatures {
    let SearchFeatures {
        null_move,
        reverse_futility,
        futility,
        late_move_pruning,
        late_move_reductions,
        check_extension,
        quiescence_pruning,
        mate_distance_pruning,
    } = a;
    SearchFeatures {
        null_move: null_move && b.null_move,
        reverse_futility: reverse_futility && b.reverse_futility,
        futility: futility && b.futility,
        late_move_pruning: late_move_pruning && b.late_move_pruning,
        late_move_reductions: late_move_reductions && b.late_move_reductions,
        check_extension: check_extension && b.check_extension,
        quiescence_pruning: quiescence_pruning && b.quiescence_pruning,
        mate_distance_pruning: mate_distance_pruning && b.mate_distance_pruning,
    }
}

/// The term groups on in both `a` and `b` (every field named, as above).
fn terms_in_both(a: TermSet, b: TermSet) -> TermSet {
    let TermSet { king_safety, cannons, mobility, pawns, king_attack } = a;
    TermSet {
        king_safety: king_safety && b.king_safety,
        cannons: cannons && b.cannons,
        mobility: mobility && b.mobility,
        pawns: pawns && b.pawns,
        king_attack: king_attack && b.king_attack,
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
            multipv: 1,
            resign: true,
            show_wdl: false,
            randomness: Level::None,
            pruning: Level::Large,
            knowledge: Level::Large,
            without: SearchFeatures::ALL,
            without_terms: TermSet::ALL,
            eval_file: String::new(),
            egtb_path: String::new(),
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: MIN_ELO,
            net: embedded::network(),
            engine: EngineOptions::default(),
        }
    }
}

/// The range of a spin option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SpinRange {
    /// The least value.
    pub min: i64,
    /// The greatest value.
    pub max: i64,
}

/// Upper bound of `hashsize` / `Hash`.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most MultiPV lines.
pub const MAX_MULTIPV: usize = 128;
/// Longest value of a string option (a path is at most 4096 bytes on Linux).
pub const MAX_TEXT_BYTES: usize = 4096;

const HASH_RANGE: SpinRange = SpinRange { min: 1, max: MAX_HASH_MB as i64 };
const THREADS_RANGE: SpinRange = SpinRange { min: 1, max: MAX_THREADS as i64 };
const MULTIPV_RANGE: SpinRange = SpinRange { min: 1, max: MAX_MULTIPV as i64 };
const OVERHEAD_RANGE: SpinRange = SpinRange { min: 0, max: 5_000 };
const SKILL_RANGE: SpinRange = SpinRange { min: 0, max: MAX_LEVEL as i64 };
/// The Elo scale's measured range: outside it nothing was measured to stand for the number.
const ELO_RANGE: SpinRange = SpinRange { min: MIN_ELO as i64, max: MAX_ELO as i64 };

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
    /// No option of that name exists: reported as an error, and nothing changes.
    Unknown(String),
}

/// Each option, whatever either dialect calls it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Key {
    UseMillisec,
    Batch,
    Debug,
    Ponder,
    UseBook,
    BookFiles,
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
    Algorithm,
    Resign,
    Pruning,
    Knowledge,
    Randomness,
    Without,
    WithoutTerms,
    Tune,
    EvalFile,
    EgtbPath,
    UseNnue,
    ShowWdl,
    SkillLevel,
    LimitStrength,
    Elo,
    NewGame,
}

#[derive(Copy, Clone)]
enum Kind {
    Check,
    Spin(SpinRange),
    Combo(&'static [&'static str]),
    Text,
    Button,
}

impl Key {
    fn kind(self) -> Kind {
        match self {
            Key::UseMillisec | Key::Batch | Key::Debug | Key::Ponder | Key::UseBook | Key::Resign => {
                Kind::Check
            }
            Key::UseNnue | Key::ShowWdl | Key::LimitStrength => Kind::Check,
            Key::SkillLevel => Kind::Spin(SKILL_RANGE),
            Key::Elo => Kind::Spin(ELO_RANGE),
            Key::Hash => Kind::Spin(HASH_RANGE),
            Key::Threads => Kind::Spin(THREADS_RANGE),
            Key::MultiPv => Kind::Spin(MULTIPV_RANGE),
            Key::MoveOverhead => Kind::Spin(OVERHEAD_RANGE),
            Key::Algorithm => Kind::Combo(ALGORITHMS),
            Key::Pruning | Key::Knowledge | Key::Randomness => Kind::Combo(LEVELS),
            Key::BookFiles | Key::Without | Key::WithoutTerms | Key::Tune | Key::EvalFile => Kind::Text,
            Key::EgtbPath => Kind::Text,
            Key::NewGame => Kind::Button,
        }
    }
}

/// One option's names: UCCI's, UCI's, or both.
struct Spec {
    key: Key,
    ucci: Option<&'static str>,
    uci: Option<&'static str>,
}

/// The options in the order they are announced.
const SPECS: &[Spec] = &[
    Spec { key: Key::UseMillisec, ucci: Some("usemillisec"), uci: None },
    Spec { key: Key::Batch, ucci: Some("batch"), uci: None },
    Spec { key: Key::Debug, ucci: Some("debug"), uci: None },
    Spec { key: Key::Ponder, ucci: Some("ponder"), uci: Some("Ponder") },
    Spec { key: Key::UseBook, ucci: Some("usebook"), uci: Some("OwnBook") },
    Spec { key: Key::BookFiles, ucci: Some("bookfiles"), uci: Some("BookFile") },
    Spec { key: Key::Hash, ucci: Some("hashsize"), uci: Some("Hash") },
    Spec { key: Key::Threads, ucci: Some("threads"), uci: Some("Threads") },
    Spec { key: Key::MultiPv, ucci: None, uci: Some("MultiPV") },
    Spec { key: Key::MoveOverhead, ucci: Some("moveoverhead"), uci: Some("Move Overhead") },
    Spec { key: Key::Algorithm, ucci: Some("algorithm"), uci: Some("Algorithm") },
    Spec { key: Key::Resign, ucci: Some("resign"), uci: None },
    Spec { key: Key::Pruning, ucci: Some("pruning"), uci: None },
    Spec { key: Key::Knowledge, ucci: Some("knowledge"), uci: None },
    Spec { key: Key::Randomness, ucci: Some("randomness"), uci: None },
    Spec { key: Key::Without, ucci: Some("without"), uci: Some("Without") },
    Spec { key: Key::WithoutTerms, ucci: Some("withoutterms"), uci: Some("Without Terms") },
    Spec { key: Key::Tune, ucci: Some("tune"), uci: Some("Tune") },
    Spec { key: Key::EvalFile, ucci: Some("evalfile"), uci: Some("EvalFile") },
    Spec { key: Key::EgtbPath, ucci: Some("egtbpath"), uci: Some("EgtbPath") },
    Spec { key: Key::UseNnue, ucci: Some("usennue"), uci: Some("Use NNUE") },
    Spec { key: Key::ShowWdl, ucci: Some("showwdl"), uci: Some("UCI_ShowWDL") },
    Spec { key: Key::SkillLevel, ucci: Some("skilllevel"), uci: Some("Skill Level") },
    Spec { key: Key::LimitStrength, ucci: Some("limitstrength"), uci: Some("UCI_LimitStrength") },
    Spec { key: Key::Elo, ucci: Some("elo"), uci: Some("UCI_Elo") },
    Spec { key: Key::NewGame, ucci: Some("newgame"), uci: Some("Clear Hash") },
];

impl Options {
    /// Sets the defaults that differ by dialect, when the first command picks one: UCI's
    /// `OwnBook` starts off (analysis GUIs expect a search, and Pikafish has no book), UCCI's
    /// `usebook` on (as ElephantEye's users expect). The announcement then gives these defaults.
    pub fn take_dialect_defaults(&mut self, dialect: Dialect) {
        self.use_book = match dialect {
            Dialect::Ucci => true,
            Dialect::Uci => false,
        };
    }

    /// What the next search runs with, as the options set it.
    pub fn engine(&self) -> &EngineOptions {
        &self.engine
    }

    /// The playing strength the three strength options give: the Elo under `limitstrength` (as
    /// UCI has it, `UCI_LimitStrength` overrides `Skill Level`), else the skill level.
    fn skill(&self) -> Skill {
        match self.limit_strength {
            true => Skill::from_elo(self.elo),
            false => Skill::level(self.skill_level),
        }
    }

    /// The value in force, as the announcement writes it.
    fn current(&self, key: Key) -> String {
        match key {
            Key::UseMillisec => self.use_millisec.to_string(),
            Key::Batch => self.batch.to_string(),
            Key::Debug => self.debug.to_string(),
            Key::Ponder => self.ponder.to_string(),
            Key::UseBook => self.use_book.to_string(),
            Key::BookFiles => self.book_files.clone(),
            Key::Hash => self.hash_mb.to_string(),
            Key::Threads => self.engine.threads.to_string(),
            Key::MultiPv => self.multipv.to_string(),
            Key::MoveOverhead => self.engine.move_overhead_ms.to_string(),
            Key::Algorithm => match self.engine.algorithm {
                Algorithm::Pvs => "pvs".into(),
                Algorithm::Mtdf => "mtdf".into(),
            },
            Key::Resign => self.resign.to_string(),
            Key::Pruning => self.pruning.name().into(),
            Key::Knowledge => self.knowledge.name().into(),
            Key::Randomness => self.randomness.name().into(),
            Key::Without => {
                let off = |&name: &&str| self.without.without(name) == Ok(self.without);
                SearchFeatures::NAMES.into_iter().filter(off).collect::<Vec<_>>().join(",")
            }
            Key::WithoutTerms => {
                let off = |&name: &&str| self.without_terms.without_list(name) == Ok(self.without_terms);
                TermSet::NAMES.into_iter().filter(off).collect::<Vec<_>>().join(",")
            }
            Key::Tune => {
                let landed = SearchParams::DEFAULT.pairs();
                let pairs = self.engine.params.pairs().into_iter().zip(landed);
                let changed = pairs.filter(|(now, landed)| now != landed);
                changed.map(|((name, value), _)| format!("{name}={value}")).collect::<Vec<_>>().join(",")
            }
            Key::EvalFile => self.eval_file.clone(),
            Key::EgtbPath => self.egtb_path.clone(),
            Key::UseNnue => matches!(self.engine.eval, EvalChoice::Nnue(_)).to_string(),
            Key::ShowWdl => self.show_wdl.to_string(),
            Key::SkillLevel => self.skill_level.to_string(),
            Key::LimitStrength => self.limit_strength.to_string(),
            Key::Elo => self.elo.to_string(),
            Key::NewGame => String::new(),
        }
    }

    /// Parses `value` for the option `key` (called `display` in messages) and puts it in force;
    /// a value that does not parse is refused and changes nothing.
    fn assign(&mut self, key: Key, display: &str, value: &str) -> Result<SetOutcome, OptionError> {
        let name = || display.to_string();
        // The evaluation's own errors come as text; whatever their type, the message is theirs.
        let evaluation =
            |reason: &dyn fmt::Display| OptionError::Evaluation { name: name(), reason: reason.to_string() };
        match key {
            Key::NewGame => {
                let value = value.trim();
                let stray_value = (!value.is_empty()).then(|| value.to_string());
                return Ok(SetOutcome::NewGame { stray_value });
            }
            Key::UseMillisec => self.use_millisec = parse_check(display, value)?,
            Key::Batch => self.batch = parse_check(display, value)?,
            Key::Debug => self.debug = parse_check(display, value)?,
            Key::Ponder => self.ponder = parse_check(display, value)?,
            Key::UseBook => self.use_book = parse_check(display, value)?,
            Key::Resign => self.resign = parse_check(display, value)?,
            Key::ShowWdl => self.show_wdl = parse_check(display, value)?,
            Key::SkillLevel => {
                self.skill_level = parse_spin(display, SKILL_RANGE, value)? as u8;
                self.engine.skill = self.skill();
            }
            Key::LimitStrength => {
                self.limit_strength = parse_check(display, value)?;
                self.engine.skill = self.skill();
            }
            Key::Elo => {
                self.elo = parse_spin(display, ELO_RANGE, value)? as i32;
                self.engine.skill = self.skill();
            }
            Key::UseNnue => {
                self.engine.eval = match parse_check(display, value)? {
                    false => EvalChoice::Classic,
                    true => EvalChoice::Nnue(self.net.clone()),
                }
            }
            Key::Hash => self.hash_mb = parse_spin(display, HASH_RANGE, value)? as usize,
            Key::Threads => self.engine.threads = parse_spin(display, THREADS_RANGE, value)? as usize,
            Key::MultiPv => self.multipv = parse_spin(display, MULTIPV_RANGE, value)? as usize,
            Key::MoveOverhead => {
                self.engine.move_overhead_ms = parse_spin(display, OVERHEAD_RANGE, value)? as u64
            }
            Key::Algorithm => {
                let word = value.trim().to_ascii_lowercase();
                // The option offers the canonical names only, not the parser's aliases.
                self.engine.algorithm = match word.parse() {
                    Ok(algorithm) if ALGORITHMS.contains(&word.as_str()) => algorithm,
                    _ => {
                        let choices = ALGORITHMS;
                        return Err(OptionError::NotChoice { name: name(), choices, value: value.into() });
                    }
                };
            }
            Key::Pruning => {
                self.pruning = Level::parse(display, value)?;
                self.engine.features =
                    features_in_both(SearchFeatures::for_level(self.pruning as u8), self.without);
            }
            Key::Knowledge => {
                self.knowledge = Level::parse(display, value)?;
                self.engine.terms = terms_in_both(terms_for_knowledge(self.knowledge), self.without_terms);
            }
            Key::Randomness => self.randomness = Level::parse(display, value)?,
            Key::Without => {
                self.without = SearchFeatures::ALL
                    .without_list(&parse_text(display, value)?)
                    .map_err(|error| OptionError::Features { name: name(), error })?;
                self.engine.features =
                    features_in_both(SearchFeatures::for_level(self.pruning as u8), self.without);
            }
            Key::WithoutTerms => {
                self.without_terms =
                    TermSet::ALL.without_list(&parse_text(display, value)?).map_err(|e| evaluation(&e))?;
                self.engine.terms = terms_in_both(terms_for_knowledge(self.knowledge), self.without_terms);
            }
            Key::Tune => {
                self.engine.params = SearchParams::with_list(&parse_text(display, value)?)
                    .map_err(|error| OptionError::Params { name: name(), error })?
            }
            Key::EvalFile => {
                let path = parse_text(display, value)?;
                // A file that does not load leaves the net in use as it was.
                let net = match path.is_empty() {
                    true => embedded::network(),
                    false => Arc::new(format::load(std::path::Path::new(&path)).map_err(|e| evaluation(&e))?),
                };
                if matches!(self.engine.eval, EvalChoice::Nnue(_)) {
                    self.engine.eval = EvalChoice::Nnue(net.clone());
                }
                (self.eval_file, self.net) = (path, net);
            }
            Key::BookFiles => self.book_files = parse_text(display, value)?,
            Key::EgtbPath => {
                let path = parse_text(display, value)?;
                // A folder that does not load leaves the tables in use as they were.
                let tables = match path.is_empty() {
                    true => None,
                    false => Some(Arc::new(
                        crate::egtb::Tablebases::load_dir(std::path::Path::new(&path))
                            .map_err(|e| OptionError::Evaluation { name: name(), reason: e.to_string() })?,
                    )),
                };
                self.engine.tablebases = crate::search::TablebaseHandle(tables);
                self.egtb_path = path;
            }
        }
        Ok(SetOutcome::Set)
    }

    /// UCCI form: `setoption <name> [<value>]`.
    pub fn set_ucci(&mut self, args: &[&str]) -> Result<SetOutcome, OptionError> {
        let Some((&name, value)) = args.split_first() else {
            return Err(OptionError::MissingName);
        };
        // UCCI GUIs sometimes send the UCI keywords; accept them too.
        if name == "name" {
            return self.set_uci(args);
        }
        let Some(spec) = SPECS.iter().find(|s| s.ucci == Some(name)) else {
            return Ok(SetOutcome::Unknown(name.to_string()));
        };
        self.assign(spec.key, name, &value.join(" "))
    }

    /// UCI form: `setoption name <name…> [value <value…>]` (names case-insensitive).
    pub fn set_uci(&mut self, args: &[&str]) -> Result<SetOutcome, OptionError> {
        let ["name", rest @ ..] = args else {
            return Err(OptionError::MissingNameKeyword);
        };
        let name_len = rest.iter().position(|&t| t == "value").unwrap_or(rest.len());
        if name_len == 0 {
            return Err(OptionError::EmptyName);
        }
        let name = rest[..name_len].join(" ");
        let value = rest.get(name_len + 1..).map(|v| v.join(" ")).unwrap_or_default();
        let Some((spec, uci_name)) =
            SPECS.iter().find_map(|s| s.uci.filter(|u| u.eq_ignore_ascii_case(&name)).map(|u| (s, u)))
        else {
            return Ok(SetOutcome::Unknown(name));
        };
        let kind = spec.key.kind();
        if matches!(kind, Kind::Check | Kind::Spin(..) | Kind::Combo(_)) && name_len == rest.len() {
            return Err(OptionError::MissingValue { name });
        }
        self.assign(spec.key, uci_name, &value)
    }

    /// The `option …` lines announced after `ucci`.
    pub fn ucci_lines(&self) -> Vec<String> {
        SPECS
            .iter()
            .filter_map(|s| s.ucci.map(|name| (name, s.key)))
            .map(|(name, key)| {
                let current = self.current(key);
                match key.kind() {
                    Kind::Check => format!("option {name} type check default {current}"),
                    Kind::Spin(SpinRange { min, max }) => {
                        format!("option {name} type spin min {min} max {max} default {current}")
                    }
                    Kind::Combo(vars) => {
                        format!("option {name} type combo default {current} {}", var_list(vars, &current))
                    }
                    Kind::Text => format!("option {name} type string default {}", empty_as(&current)),
                    Kind::Button => format!("option {name} type button"),
                }
            })
            .collect()
    }

    /// The `option name …` lines announced after `uci`.
    pub fn uci_lines(&self) -> Vec<String> {
        SPECS
            .iter()
            .filter_map(|s| s.uci.map(|name| (name, s.key)))
            .map(|(name, key)| {
                let current = self.current(key);
                match key.kind() {
                    Kind::Check => format!("option name {name} type check default {current}"),
                    Kind::Spin(SpinRange { min, max }) => {
                        format!("option name {name} type spin default {current} min {min} max {max}")
                    }
                    Kind::Combo(vars) => {
                        format!(
                            "option name {name} type combo default {current} {}",
                            var_list(vars, &current)
                        )
                    }
                    Kind::Text => format!("option name {name} type string default {}", empty_as(&current)),
                    Kind::Button => format!("option name {name} type button"),
                }
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
fn parse_check(name: &str, value: &str) -> Result<bool, OptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        other => Err(OptionError::NotCheck { name: name.into(), value: other.into() }),
    }
}

/// A spin option's value: a whole number within `range`.
fn parse_spin(name: &str, range: SpinRange, value: &str) -> Result<i64, OptionError> {
    let name = name.to_string();
    let v: i64 = match value.trim().parse() {
        Ok(v) => v,
        Err(e) if matches!(e.kind(), IntErrorKind::PosOverflow | IntErrorKind::NegOverflow) => {
            return Err(OptionError::Overflow { name, range, value: value.trim().into() })
        }
        Err(_) => return Err(OptionError::NotNumber { name, range, value: value.into() }),
    };
    if !(range.min..=range.max).contains(&v) {
        return Err(OptionError::OutOfRange { name, range, value: v });
    }
    Ok(v)
}

/// A string option's value, trimmed; GUIs write an empty string as `<empty>`, as the announcement
/// does.
fn parse_text(name: &str, value: &str) -> Result<String, OptionError> {
    if value.len() > MAX_TEXT_BYTES {
        return Err(OptionError::TooLong { name: name.into(), bytes: value.len() });
    }
    Ok(value.trim().replace("<empty>", ""))
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
        let err = options.set_ucci(&["usemillisec", "maybe"]).unwrap_err().to_string();
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
        assert_eq!(o.engine().move_overhead_ms, 10);
        assert_eq!(o.set_uci(&["name", "MultiPV", "value", "3"]), Ok(SetOutcome::Set));
        assert_eq!(o.multipv, 3);
        assert_eq!(o.set_ucci(&["threads", "2"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().threads, 2);
        assert_eq!(o.set_ucci(&["algorithm", "mtdf"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().algorithm, Algorithm::Mtdf);
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
    }

    #[test]
    fn without_and_pruning_give_the_search_features_when_set() {
        let mut o = Options::default();
        assert_eq!(o.engine().features, SearchFeatures::ALL);
        assert_eq!(o.set_ucci(&["without", "null,", "lmr"]), Ok(SetOutcome::Set));
        let f = o.engine().features;
        assert!(!f.null_move && !f.late_move_reductions, "{f:?}");
        assert!(f.futility && f.late_move_pruning && f.reverse_futility && f.check_extension, "{f:?}");
        // Written back in one canonical form.
        assert!(o.uci_lines().contains(&"option name Without type string default null,lmr".to_string()));
        // `pruning small` keeps null move and check extension; `without null` still takes null move.
        assert_eq!(o.set_ucci(&["pruning", "small"]), Ok(SetOutcome::Set));
        let f = o.engine().features;
        assert!(!f.null_move && f.check_extension && f.mate_distance_pruning, "{f:?}");
        assert!(!f.futility && !f.late_move_pruning && !f.late_move_reductions && !f.reverse_futility);
        assert_eq!(o.set_uci(&["name", "Without", "value", "<empty>"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().features, SearchFeatures::for_level(1));
        assert!(o.engine().features.null_move);
        assert_eq!(o.set_ucci(&["pruning", "none"]), Ok(SetOutcome::Set));
        assert!(!o.engine().features.null_move);
        assert_eq!(o.set_ucci(&["pruning", "large"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().features, SearchFeatures::ALL);
    }

    #[test]
    fn knowledge_and_withoutterms_give_the_evaluation_terms_when_set() {
        let mut o = Options::default();
        assert_eq!(o.engine().terms, TermSet::ALL);
        let levels: Vec<TermSet> = ["none", "small", "medium", "large"]
            .iter()
            .map(|level| {
                assert_eq!(o.set_ucci(&["knowledge", level]), Ok(SetOutcome::Set));
                o.engine().terms
            })
            .collect();
        let none =
            TermSet { king_safety: false, cannons: false, mobility: false, pawns: false, king_attack: false };
        assert_eq!(levels[0], none);
        assert_eq!(levels[1], TermSet { cannons: true, mobility: true, ..none });
        assert_eq!(levels[2], TermSet { king_safety: false, ..TermSet::ALL });
        assert_eq!(levels[3], TermSet::ALL);
        assert_eq!(o.set_uci(&["name", "Without", "Terms", "value", "cannons,pawns"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().terms, TermSet { cannons: false, pawns: false, ..TermSet::ALL });
        assert!(o
            .ucci_lines()
            .contains(&"option withoutterms type string default cannons,pawns".to_string()));
        assert_eq!(o.set_ucci(&["knowledge", "small"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().terms, TermSet { mobility: true, ..none });
        assert!(o
            .ucci_lines()
            .iter()
            .any(|l| l.starts_with("option knowledge type combo default small var small")));
    }

    #[test]
    fn tune_gives_the_search_parameters_when_set() {
        let mut o = Options::default();
        assert_eq!(
            o.set_uci(&["name", "Tune", "value", "rfp_margin=70", "lmr_history=8"]),
            Ok(SetOutcome::Set)
        );
        assert_eq!(o.engine().params.rfp_margin, 70);
        assert_eq!(o.engine().params.lmr_history, 8);
        assert_eq!(o.engine().params.lmr_base, SearchParams::DEFAULT.lmr_base);
        assert!(o
            .ucci_lines()
            .contains(&"option tune type string default rfp_margin=70,lmr_history=8".to_string()));
        // Each setting replaces the whole list.
        assert_eq!(o.set_ucci(&["tune", "lmr_base=0"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().params, SearchParams { lmr_base: 0, ..SearchParams::DEFAULT });
        assert_eq!(o.set_ucci(&["tune", "<empty>"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine(), &EngineOptions::default());
    }

    #[test]
    fn a_refused_value_keeps_the_typed_value_in_force() {
        let mut o = Options::default();
        for good in [
            &["without", "lmr"][..],
            &["withoutterms", "mobility"],
            &["tune", "rfp_margin=70"],
            &["pruning", "medium"],
            &["knowledge", "small"],
            &["threads", "2"],
            &["algorithm", "mtdf"],
            &["moveoverhead", "50"],
        ] {
            assert_eq!(o.set_ucci(good), Ok(SetOutcome::Set), "{good:?}");
        }
        let in_force = o.clone();
        for bad in [
            &["without", "lmr,nullmove"][..],
            &["withoutterms", "tempo"],
            &["tune", "rfp_margin=70,null_reduction=0"],
            &["pruning", "huge"],
            &["knowledge", "all"],
            &["threads", "0"],
            &["algorithm", "negascout"],
            &["moveoverhead", "-1"],
            &["evalfile", "/nonexistent/net.nnue"],
        ] {
            assert!(o.set_ucci(bad).is_err(), "{bad:?}");
            assert_eq!(o, in_force, "{bad:?}");
        }
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
            let err = o.set_ucci(ucci).unwrap_err().to_string();
            assert!(err.contains(wanted), "{ucci:?}: {err}");
        }
        assert!(o.set_uci(&["name", "Hash"]).unwrap_err().to_string().contains("needs 'value"));
        assert!(o.set_uci(&["Hash", "16"]).unwrap_err().to_string().contains("'name <option>'"));
        assert!(o.set_uci(&["name", "value", "3"]).unwrap_err().to_string().contains("empty"));
        assert_eq!(o, Options::default());
        assert_eq!(
            o.set_ucci(&["threads", "0"]),
            Err(OptionError::OutOfRange { name: "threads".into(), range: THREADS_RANGE, value: 0 })
        );
        assert_eq!(o.set_ucci(&[]), Err(OptionError::MissingName));
        assert_eq!(o.set_ucci(&["nosuchoption", "1"]), Ok(SetOutcome::Unknown("nosuchoption".into())));
        assert_eq!(
            o.set_uci(&["name", "Knowledge", "value", "none"]),
            Ok(SetOutcome::Unknown("Knowledge".into()))
        );
    }

    #[test]
    fn evalfile_loads_a_net_and_usennue_switches_to_it() {
        let dir = std::env::temp_dir().join(format!("chariot-options-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (good, other, bad) = (dir.join("good.nnue"), dir.join("other.nnue"), dir.join("bad.nnue"));
        let arch = crate::eval::nnue::Architecture { width: 16, ..crate::eval::nnue::Architecture::DEFAULT };
        let net = crate::train::FloatNetwork::random(arch, 1).quantise().unwrap();
        let other_net = crate::train::FloatNetwork::random(arch, 2).quantise().unwrap();
        format::save(&net, &good).unwrap();
        format::save(&other_net, &other).unwrap();
        std::fs::write(&bad, b"CHARNNUE\x07\x00").unwrap();
        let (good, other, bad) = (good.to_str().unwrap(), other.to_str().unwrap(), bad.to_str().unwrap());

        let mut o = Options::default();
        assert_eq!(o.engine().eval, EvalChoice::Nnue(embedded::network()), "the built-in net by default");
        assert!(o.ucci_lines().contains(&"option usennue type check default true".to_string()));
        assert!(o.uci_lines().contains(&"option name EvalFile type string default <empty>".to_string()));
        assert_eq!(o.set_uci(&["name", "Use", "NNUE", "value", "false"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().eval, EvalChoice::Classic);
        assert_eq!(o.set_uci(&["name", "EvalFile", "value", good]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().eval, EvalChoice::Classic, "loading a net does not switch to it");
        assert_eq!(o.set_uci(&["name", "Use", "NNUE", "value", "true"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().eval, EvalChoice::Nnue(Arc::new(net.clone())));
        // A damaged file is refused, with where and what, and the loaded net stays.
        let err = o.set_ucci(&["evalfile", bad]).unwrap_err().to_string();
        assert!(err.starts_with("evalfile: net file") && err.contains("byte 8: format version 7"), "{err}");
        assert_eq!(o.eval_file, good);
        assert_eq!(o.engine().eval, EvalChoice::Nnue(Arc::new(net)));
        assert!(o.uci_lines().contains(&format!("option name EvalFile type string default {good}")));
        assert!(o.ucci_lines().contains(&"option usennue type check default true".to_string()));
        // Another net while the net is in use: the search uses the new one.
        assert_eq!(o.set_ucci(&["evalfile", other]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().eval, EvalChoice::Nnue(Arc::new(other_net)));
        // Emptying the file name goes back to the built-in net.
        assert_eq!(o.set_ucci(&["evalfile", "<empty>"]), Ok(SetOutcome::Set));
        assert!(o.eval_file.is_empty());
        assert_eq!(o, Options::default());
        assert_eq!(o.set_ucci(&["usennue", "false"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().eval, EvalChoice::Classic);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_strength_options_set_a_level_or_an_elo_and_refuse_what_is_out_of_range() {
        let mut o = Options::default();
        assert!(o.engine().skill.is_full());
        assert_eq!(o.set_uci(&["name", "Skill", "Level", "value", "5"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().skill, Skill::level(5));
        // Out of range, or not a number: refused with the range, and level 5 stays.
        let err = o.set_uci(&["name", "Skill", "Level", "value", "21"]).unwrap_err().to_string();
        assert_eq!(err, "Skill Level must be between 0 and 20, not 21");
        let err = o.set_ucci(&["skilllevel", "-1"]).unwrap_err().to_string();
        assert_eq!(err, "skilllevel must be between 0 and 20, not -1");
        let err = o.set_ucci(&["skilllevel", "strong"]).unwrap_err().to_string();
        assert_eq!(err, "skilllevel wants a whole number from 0 to 20, not 'strong'");
        assert_eq!(o.engine().skill, Skill::level(5));
        // The Elo counts only while UCI_LimitStrength is on, and then it overrides the level.
        let top = MAX_ELO.to_string();
        assert_eq!(o.set_uci(&["name", "UCI_Elo", "value", &top]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().skill, Skill::level(5));
        assert_eq!(o.set_uci(&["name", "UCI_LimitStrength", "value", "true"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().skill, Skill::from_elo(MAX_ELO));
        assert!(o.engine().skill.centi_level() > Skill::level(5).centi_level());
        assert_eq!(o.set_ucci(&["elo", &MIN_ELO.to_string()]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().skill, Skill::from_elo(MIN_ELO));
        for (name, value) in [("elo", MIN_ELO - 1), ("elo", MAX_ELO + 1), ("elo", 0)] {
            let err = o.set_ucci(&[name, &value.to_string()]).unwrap_err().to_string();
            assert_eq!(err, format!("elo must be between {MIN_ELO} and {MAX_ELO}, not {value}"));
        }
        assert_eq!(o.engine().skill, Skill::from_elo(MIN_ELO));
        assert_eq!(o.set_ucci(&["limitstrength", "false"]), Ok(SetOutcome::Set));
        assert_eq!(o.engine().skill, Skill::level(5));
        assert_eq!(o.set_ucci(&["skilllevel", "20"]), Ok(SetOutcome::Set));
        assert!(o.engine().skill.is_full());
    }

    #[test]
    fn numbers_too_large_give_the_range_and_junk_is_quoted_short() {
        let mut o = Options::default();
        let err = o.set_uci(&["name", "Hash", "value", "99999999999999999999"]).unwrap_err().to_string();
        assert_eq!(err, "Hash must be between 1 and 65536, not '99999999999999999999'");
        let err = o.set_ucci(&["threads", "-99999999999999999999"]).unwrap_err().to_string();
        assert_eq!(err, "threads must be between 1 and 256, not '-99999999999999999999'");
        let junk = "j".repeat(1 << 20);
        for args in [["hashsize", junk.as_str()], ["pruning", junk.as_str()], ["ponder", junk.as_str()]] {
            let err = o.set_ucci(&args).unwrap_err().to_string();
            assert!(err.len() < 200 && err.contains("(1048576 bytes)"), "{err}");
        }
        let err = o.set_ucci(&["bookfiles", &junk]).unwrap_err().to_string();
        assert_eq!(err, "bookfiles is 1048576 bytes long: at most 4096");
        assert_eq!(o, Options::default());
    }

    /// A value for each option other than its default (a button has none).
    fn another_value(key: Key) -> Option<String> {
        Some(String::from(match key {
            Key::UseMillisec | Key::Batch | Key::Debug | Key::Ponder | Key::ShowWdl => "true",
            Key::UseBook | Key::Resign => "false",
            Key::BookFiles => "a.cbk",
            Key::Hash => "8",
            Key::Threads => "2",
            Key::MultiPv => "3",
            Key::MoveOverhead => "0",
            Key::Algorithm => "mtdf",
            Key::Pruning | Key::Knowledge | Key::Randomness => "medium",
            Key::Without => "lmp",
            Key::WithoutTerms => "pawns",
            Key::Tune => "rfp_margin=70",
            Key::SkillLevel => "10",
            Key::LimitStrength => "true",
            // The scale's top, whatever the measurements made it.
            Key::Elo => return Some(MAX_ELO.to_string()),
            // Needs a net file: the test above covers it.
            Key::EvalFile | Key::UseNnue | Key::NewGame => return None,
            // Needs a folder of tables: tests/egtb.rs covers it.
            Key::EgtbPath => return None,
        }))
    }

    /// Checks that `after` differs from `before` in one line, the one announcing `value`.
    fn one_line_changed(before: &[String], after: &[String], value: &str, set: &str) {
        let changed: Vec<(&String, &String)> = before.iter().zip(after).filter(|(b, a)| b != a).collect();
        assert_eq!(changed.len(), 1, "{set} changed {changed:?}");
        assert!(changed[0].1.contains(&format!("default {value}")), "{set}: {:?}", changed[0]);
    }

    #[test]
    fn each_name_sets_its_own_option_and_no_other() {
        let default = Options::default();
        for spec in SPECS {
            let Some(value) = another_value(spec.key) else { continue };
            let value = value.as_str();
            if let Some(name) = spec.ucci {
                let mut o = Options::default();
                assert_eq!(o.set_ucci(&[name, value]), Ok(SetOutcome::Set), "{name}");
                one_line_changed(&default.ucci_lines(), &o.ucci_lines(), value, name);
            }
            if let Some(name) = spec.uci {
                let line = format!("name {name} value {value}");
                let mut o = Options::default();
                assert_eq!(o.set_uci(&line.split(' ').collect::<Vec<_>>()), Ok(SetOutcome::Set), "{line}");
                one_line_changed(&default.uci_lines(), &o.uci_lines(), value, &line);
            }
        }
    }

    #[test]
    fn the_options_take_back_their_announced_defaults() {
        let mut o = Options::default();
        for spec in SPECS {
            if let (Some(name), Some(value)) = (spec.ucci, another_value(spec.key)) {
                assert_eq!(o.set_ucci(&[name, &value]), Ok(SetOutcome::Set), "{name}");
            }
        }
        assert_eq!(o.set_uci(&["name", "MultiPV", "value", "2"]), Ok(SetOutcome::Set));
        assert_ne!(o.engine(), &EngineOptions::default());
        // Setting each option to the default it was announced with (at the start) undoes it all.
        for line in Options::default().ucci_lines() {
            let words: Vec<&str> = line.split(' ').collect();
            let (name, kind) = (words[1], words[3]);
            let default = words.iter().position(|&w| w == "default").map(|at| words[at + 1]);
            let outcome = o.set_ucci(&[name, default.unwrap_or("")]);
            let wanted =
                if kind == "button" { SetOutcome::NewGame { stray_value: None } } else { SetOutcome::Set };
            assert_eq!(outcome, Ok(wanted), "{line}");
        }
        let line = Options::default().uci_lines().into_iter().find(|l| l.contains("MultiPV")).unwrap();
        let default = line.split(' ').skip_while(|&w| w != "default").nth(1).unwrap().to_string();
        assert_eq!(o.set_uci(&["name", "MultiPV", "value", &default]), Ok(SetOutcome::Set));
        assert_eq!(o, Options::default());
    }

    #[test]
    fn the_default_options_search_as_the_engine_does_by_default() {
        assert_eq!(Options::default().engine(), &EngineOptions::default());
    }

    #[test]
    fn announcements() {
        let o = Options::default();
        // The option table of docs/protocols.md, in both dialects.
        assert_eq!(
            o.ucci_lines(),
            [
                "option usemillisec type check default false",
                "option batch type check default false",
                "option debug type check default false",
                "option ponder type check default false",
                "option usebook type check default true",
                "option bookfiles type string default <empty>",
                "option hashsize type spin min 1 max 65536 default 64",
                "option threads type spin min 1 max 256 default 1",
                "option moveoverhead type spin min 0 max 5000 default 30",
                "option algorithm type combo default pvs var pvs var mtdf",
                "option resign type check default true",
                // The value in force comes first among the vars (for uci2wb and XBoard), then the rest.
                "option pruning type combo default large var large var none var small var medium",
                "option knowledge type combo default large var large var none var small var medium",
                "option randomness type combo default none var none var small var medium var large",
                "option without type string default <empty>",
                "option withoutterms type string default <empty>",
                "option tune type string default <empty>",
                "option evalfile type string default <empty>",
                "option egtbpath type string default <empty>",
                "option usennue type check default true",
                "option showwdl type check default false",
                "option skilllevel type spin min 0 max 20 default 20",
                "option limitstrength type check default false",
                "option elo type spin min 899 max 3050 default 899",
                "option newgame type button",
            ]
        );
        // A UCI session starts without its book: the first command took the dialect's defaults.
        let mut uci = o.clone();
        uci.take_dialect_defaults(Dialect::Uci);
        assert_eq!(
            uci.uci_lines(),
            [
                "option name Ponder type check default false",
                "option name OwnBook type check default false",
                "option name BookFile type string default <empty>",
                "option name Hash type spin default 64 min 1 max 65536",
                "option name Threads type spin default 1 min 1 max 256",
                "option name MultiPV type spin default 1 min 1 max 128",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "option name Algorithm type combo default pvs var pvs var mtdf",
                "option name Without type string default <empty>",
                "option name Without Terms type string default <empty>",
                "option name Tune type string default <empty>",
                "option name EvalFile type string default <empty>",
                "option name EgtbPath type string default <empty>",
                "option name Use NNUE type check default true",
                "option name UCI_ShowWDL type check default false",
                "option name Skill Level type spin default 20 min 0 max 20",
                "option name UCI_LimitStrength type check default false",
                "option name UCI_Elo type spin default 899 min 899 max 3050",
                "option name Clear Hash type button",
            ]
        );
    }
}
