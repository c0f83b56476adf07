//! What a `setoption` can come to: refused (`OptionError`, whose `Display` is the message the GUI
//! gets), or done (`SetOutcome`).

use std::fmt;

use crate::quote::quoted;
use crate::search::{ParamError, UnknownName};

use super::bounds::{SpinRange, MAX_TEXT_BYTES};

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

/// Why a text option's setter refused its value; the walker adds the option's name
/// (`TextRefusal::named`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TextRefusal {
    /// A name in the list is no search feature.
    Features(UnknownName),
    /// A pair of the list is no parameter in range.
    Params(ParamError),
    /// The evaluation refused the value, for this reason.
    Evaluation(String),
}

impl TextRefusal {
    /// The refusal as the error of the option the GUI called `name`.
    pub(super) fn named(self, name: &str) -> OptionError {
        let name = name.to_string();
        match self {
            TextRefusal::Features(error) => OptionError::Features { name, error },
            TextRefusal::Params(error) => OptionError::Params { name, error },
            TextRefusal::Evaluation(reason) => OptionError::Evaluation { name, reason },
        }
    }
}
