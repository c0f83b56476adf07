//! Openings files: lines, each either ICCS moves from the start (`h2e2 h9g7 …`) or a FEN,
//! optionally followed by `moves …` (`notation::Opening` reads one). Blank lines and `#` comments
//! are skipped.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::input_file::{self, InputError, Limit};
use crate::notation::OpeningError;

use crate::notation::Opening;

/// The largest openings file read (256 MiB): a line is a FEN or a few dozen moves, so this is
/// millions of openings, far more than a match or a datagen run plays.
pub const FILE_LIMIT: Limit = Limit { what: "openings file", max_len: 1 << 28 };

/// Why an openings file was refused; `Display` names the file (and the line).
#[derive(Debug)]
pub enum OpeningsFileError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InputError,
    },
    /// A line is not an opening.
    Line {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        error: OpeningError,
    },
    /// The file holds no opening.
    Empty {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for OpeningsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsFileError::Read { path, error } => {
                write!(f, "cannot read openings file {}: {error}", path.display())
            }
            OpeningsFileError::Line { path, line, error } => {
                write!(f, "openings file {} line {line}: {error}", path.display())
            }
            OpeningsFileError::Empty { path } => {
                write!(f, "openings file {} has no openings", path.display())
            }
        }
    }
}

/// No `source`: the message already holds the cause's (a chain would say it twice).
impl std::error::Error for OpeningsFileError {}

/// Reads an openings file; an error names the file and the line.
pub fn load(path: &Path) -> Result<Vec<Opening>, OpeningsFileError> {
    let text = input_file::read_text(path, FILE_LIMIT)
        .map_err(|error| OpeningsFileError::Read { path: path.to_path_buf(), error })?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(line).map_err(|error| OpeningsFileError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            error,
        })?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningsFileError::Empty { path: path.to_path_buf() });
    }
    Ok(openings)
}
