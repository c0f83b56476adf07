//! The error for a name the command line gave (a king-bucket layout, an activation, an export
//! choice) that names nothing of its kind.

use std::fmt;

/// A name the command line gave that names nothing of its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was named (`activation`, `king-bucket layout`).
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names there are, as a reader should see them.
    pub choices: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} '{}' ({})", self.what, self.name, self.choices)
    }
}

impl std::error::Error for UnknownName {}
