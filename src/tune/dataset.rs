//! Training data: one `FEN;result` line per position, the result from Red's view (1.0 a Red
//! win, 0.5 a draw, 0.0 a Black win). Blank lines and `#` comments are skipped.

use std::path::Path;

use crate::board::Position;

use super::features::{extract, Features};

/// A labelled position, already decomposed.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position's linear decomposition.
    pub features: Features,
    /// The game result from Red's view: 0.0, 0.5 or 1.0.
    pub result: f64,
}

/// Parses a result field; only 0, 0.5 and 1 (in any decimal spelling) are accepted.
pub fn parse_result(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if r == 0.0 || r == 0.5 || r == 1.0 => Ok(r),
        _ => Err(format!("result '{}' is not 1.0, 0.5 or 0.0", text.trim())),
    }
}

/// Parses one `FEN;result` line.
pub fn parse_line(line: &str) -> Result<(Position, f64), String> {
    let (fen, result) =
        line.rsplit_once(';').ok_or_else(|| "expected 'FEN;result' (no ';' found)".to_string())?;
    let pos = Position::from_fen(fen.trim()).map_err(|e| e.to_string())?;
    Ok((pos, parse_result(result)?))
}

/// Parses a whole data text; an error names the line.
pub fn parse(text: &str) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, result) = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        samples.push(Sample { features: extract(&pos), result });
    }
    Ok(samples)
}

/// The largest Texel data file read (2 GiB): some twenty million positions, as many as the
/// tuner's features fit in memory.
pub const FILE_LIMIT: crate::input_file::Limit =
    crate::input_file::Limit { what: "data file", max_len: 1 << 31 };

/// Reads a data file; an error names the file and the line.
pub fn load(path: &Path) -> Result<Vec<Sample>, String> {
    let text = crate::input_file::read_text(path, FILE_LIMIT)
        .map_err(|e| format!("cannot read data file {}: {e}", path.display()))?;
    let samples = parse(&text).map_err(|e| format!("data file {} {e}", path.display()))?;
    if samples.is_empty() {
        return Err(format!("data file {} has no positions", path.display()));
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
            parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1;0.7").unwrap_err(),
            "line 1: result '0.7' is not 1.0, 0.5 or 0.0"
        );
        assert!(parse("\n9/9 w;1.0").unwrap_err().starts_with("line 2: bad FEN"));
        assert_eq!(
            parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err(),
            "line 1: expected 'FEN;result' (no ';' found)"
        );
    }
}
