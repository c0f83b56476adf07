//! Training data: one `FEN;result` line per position, the result from Red's view (1.0 a Red
//! win, 0.5 a draw, 0.0 a Black win). Blank lines and `#` comments are skipped.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::board::{FenError, Position};

use super::features::{extract, Features};

/// A labelled position, already decomposed.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position's linear decomposition.
    pub features: Features,
    /// The game result from Red's view: 0.0, 0.5 or 1.0.
    pub result: f64,
}

/// What is wrong with one line of data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// No `;` between the FEN and the result.
    NoSeparator,
    /// The FEN does not parse.
    Fen(FenError),
    /// The result is not 0, 0.5 or 1.
    Result(String),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NoSeparator => write!(f, "expected 'FEN;result' (no ';' found)"),
            LineError::Fen(e) => e.fmt(f),
            LineError::Result(text) => write!(f, "result '{text}' is not 1.0, 0.5 or 0.0"),
        }
    }
}

impl std::error::Error for LineError {}

/// Why a data text or file was refused: the file (when read from one), and the line.
#[derive(Debug)]
pub enum DatasetError {
    /// A line (counted from 1) is wrong, in a file when `file` says which.
    Line {
        /// The file, when the text came from one.
        file: Option<PathBuf>,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        error: LineError,
    },
    /// The file could not be read.
    Read(PathBuf, crate::input_file::InputError),
    /// The file holds no position.
    Empty(PathBuf),
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Line { file: None, line, error } => write!(f, "line {line}: {error}"),
            DatasetError::Line { file: Some(path), line, error } => {
                write!(f, "data file {} line {line}: {error}", path.display())
            }
            DatasetError::Read(path, e) => write!(f, "cannot read data file {}: {e}", path.display()),
            DatasetError::Empty(path) => write!(f, "data file {} has no positions", path.display()),
        }
    }
}

impl std::error::Error for DatasetError {}

/// Parses a result field; only 0, 0.5 and 1 (in any decimal spelling) are accepted.
pub fn parse_result(text: &str) -> Result<f64, LineError> {
    match text.trim().parse::<f64>() {
        Ok(r) if r == 0.0 || r == 0.5 || r == 1.0 => Ok(r),
        _ => Err(LineError::Result(text.trim().to_string())),
    }
}

/// Parses one `FEN;result` line.
pub fn parse_line(line: &str) -> Result<(Position, f64), LineError> {
    let (fen, result) = line.rsplit_once(';').ok_or(LineError::NoSeparator)?;
    let pos = Position::from_fen(fen.trim()).map_err(LineError::Fen)?;
    Ok((pos, parse_result(result)?))
}

/// Parses a whole data text; an error names the line.
pub fn parse(text: &str) -> Result<Vec<Sample>, DatasetError> {
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, result) =
            parse_line(line).map_err(|error| DatasetError::Line { file: None, line: i + 1, error })?;
        samples.push(Sample { features: extract(&pos), result });
    }
    Ok(samples)
}

/// The largest Texel data file read (2 GiB): some twenty million positions, as many as the
/// tuner's features fit in memory.
pub const FILE_LIMIT: crate::input_file::Limit =
    crate::input_file::Limit { what: "data file", max_len: 1 << 31 };

/// Reads a data file; an error names the file and the line.
pub fn load(path: &Path) -> Result<Vec<Sample>, DatasetError> {
    let text = crate::input_file::read_text(path, FILE_LIMIT)
        .map_err(|e| DatasetError::Read(path.to_path_buf(), e))?;
    let samples = parse(&text).map_err(|e| match e {
        DatasetError::Line { line, error, .. } => {
            DatasetError::Line { file: Some(path.to_path_buf()), line, error }
        }
        other => other,
    })?;
    if samples.is_empty() {
        return Err(DatasetError::Empty(path.to_path_buf()));
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_bad_ones_are_named() {
        let text = "# comment\n\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;0.5\n\
                    3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1;1\n";
        let samples = parse(text).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!((samples[0].result, samples[1].result), (0.5, 1.0));
        assert_eq!(
            parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1;0.7").unwrap_err().to_string(),
            "line 1: result '0.7' is not 1.0, 0.5 or 0.0"
        );
        assert!(parse("\n9/9 w;1.0").unwrap_err().to_string().starts_with("line 2: bad FEN"));
        assert_eq!(
            parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err().to_string(),
            "line 1: expected 'FEN;result' (no ';' found)"
        );
    }
}
