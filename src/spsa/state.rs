//! The state file of a run, rewritten whole after every pair so that a stopped run resumes where
//! it stood: the settings' fingerprint, the iterations planned and done, the games' tally and
//! the tuned values. Plain text, a field a line:
//!
//! ```text
//! chariot spsa 1
//! settings 9c1f0b7d2a6e4f31
//! iterations 2000
//! done 57
//! games 41 30 43
//! value rfp_margin 85.25
//! value lmr_base 79.5
//! ```
//!
//! `games` counts the `+` sides' wins, draws and losses.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::files::write_atomically;
use crate::input_file::{self, InputError, Limit};

/// The first line of every state file.
const HEADER: &str = "chariot spsa 1";

/// The largest state file read: far above any run's (a line per parameter).
const STATE_LIMIT: Limit = Limit { what: "spsa state file", max_len: 1 << 20 };

/// A run as its state file records it.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedRun {
    /// The fingerprint of the settings it was begun with.
    pub settings: String,
    /// The pairs it plays in all.
    pub iterations: u32,
    /// The pairs played.
    pub done: u32,
    /// The `+` sides' wins, draws and losses.
    pub games: [u64; 3],
    /// Each parameter's name and tuned value, in the order given.
    pub values: Vec<(String, f64)>,
}

/// Why a state file could not be read or written.
#[derive(Debug)]
pub enum StateError {
    /// Reading it failed (missing, unreadable, too large, not text).
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: InputError,
    },
    /// Writing it failed.
    Write {
        /// The file.
        path: PathBuf,
        /// The system's error.
        cause: io::Error,
    },
    /// Its content is not a state file's.
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line (from 1) where it goes wrong, or 0 for a line missing at the end.
        line: usize,
        /// What is wrong there.
        reason: String,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Read { path, cause } => write!(f, "cannot read {}: {cause}", path.display()),
            StateError::Write { path, cause } => write!(f, "cannot write {}: {cause}", path.display()),
            StateError::Malformed { path, line: 0, reason } => {
                write!(f, "{} is not an spsa state file: {reason}", path.display())
            }
            StateError::Malformed { path, line, reason } => {
                write!(f, "{} is not an spsa state file: line {line}: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for StateError {}

impl SavedRun {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{HEADER}\nsettings {}\niterations {}\ndone {}\ngames {} {} {}\n",
            self.settings, self.iterations, self.done, self.games[0], self.games[1], self.games[2]
        );
        for (name, value) in &self.values {
            // Rust's shortest round-trip form: reading it back gives the same value.
            text.push_str(&format!("value {name} {value:?}\n"));
        }
        text
    }

    /// Writes the file whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        write_atomically(path, self.to_text())
            .map_err(|cause| StateError::Write { path: path.to_path_buf(), cause })
    }

    /// Reads a state file.
    pub fn load(path: &Path) -> Result<SavedRun, StateError> {
        let text = input_file::read_text(path, STATE_LIMIT)
            .map_err(|cause| StateError::Read { path: path.to_path_buf(), cause })?;
        SavedRun::parse(&text).map_err(|(line, reason)| StateError::Malformed {
            path: path.to_path_buf(),
            line,
            reason,
        })
    }

    /// Parses a state file's text; the refusal names the line (0: one missing at the end).
    fn parse(text: &str) -> Result<SavedRun, (usize, String)> {
        let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line.trim_end()));
        let mut next = |want: &str| -> Result<(usize, Vec<&str>), (usize, String)> {
            let (n, line) = lines.next().ok_or_else(|| (0, format!("no '{want}' line")))?;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() != Some(&want) {
                return Err((n, format!("expected '{want}', found '{}'", clip(line))));
            }
            Ok((n, words[1..].to_vec()))
        };
        let (n, header) = next("chariot")?;
        if header != ["spsa", "1"] {
            return Err((n, format!("expected '{HEADER}'")));
        }
        let (n, settings) = next("settings")?;
        let settings = match settings.as_slice() {
            [hex] if hex.len() == 16 && hex.chars().all(|c| c.is_ascii_hexdigit()) => hex.to_string(),
            _ => return Err((n, "the settings are not 16 hexadecimal digits".into())),
        };
        let whole = |n: usize, words: &[&str], what: &str| -> Result<u64, (usize, String)> {
            match words {
                [w] => w.parse().map_err(|_| (n, format!("{what} is not a whole number"))),
                _ => Err((n, format!("expected one number of {what}"))),
            }
        };
        let (n, words) = next("iterations")?;
        let iterations =
            u32::try_from(whole(n, &words, "iterations")?).map_err(|_| (n, "too many iterations".into()))?;
        let (n, words) = next("done")?;
        let done = u32::try_from(whole(n, &words, "iterations done")?)
            .map_err(|_| (n, "too many iterations".into()))?;
        if done > iterations {
            return Err((n, format!("{done} iterations done of {iterations}")));
        }
        let (n, words) = next("games")?;
        let games = match words.as_slice() {
            [w, d, l] => {
                let count = |t: &str| {
                    t.parse::<u64>().map_err(|_| (n, format!("'{}' is not a count of games", clip(t))))
                };
                [count(w)?, count(d)?, count(l)?]
            }
            _ => return Err((n, "expected the wins, draws and losses".into())),
        };
        let mut values = Vec::new();
        for (n, line) in lines {
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["value", name, value] => match value.parse::<f64>() {
                    Ok(v) if v.is_finite() => values.push((name.to_string(), v)),
                    _ => return Err((n, format!("the value of {} is not a number", clip(name)))),
                },
                _ => return Err((n, format!("expected 'value NAME NUMBER', found '{}'", clip(line)))),
            }
        }
        Ok(SavedRun { settings, iterations, done, games, values })
    }
}

/// A line as a refusal quotes it: at most 60 characters.
fn clip(text: &str) -> String {
    let mut clipped: String = text.chars().take(60).collect();
    if clipped.len() < text.len() {
        clipped.push('…');
    }
    clipped.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> SavedRun {
        SavedRun {
            settings: "0123456789abcdef".into(),
            iterations: 2000,
            done: 57,
            games: [41, 30, 43],
            values: vec![("rfp_margin".into(), 85.123456789), ("lmr_base".into(), -0.1)],
        }
    }

    #[test]
    fn a_run_reads_back_as_it_was_written() {
        let text = run().to_text();
        assert!(text.starts_with(
            "chariot spsa 1\nsettings 0123456789abcdef\niterations 2000\ndone 57\ngames 41 30 43\n"
        ));
        assert_eq!(SavedRun::parse(&text).unwrap(), run());
        let dir = std::env::temp_dir().join(format!("chariot-spsa-state-{}", std::process::id()));
        let path = dir.join("run.spsa");
        run().save(&path).unwrap();
        assert_eq!(SavedRun::load(&path).unwrap(), run());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_files_are_refused_with_the_line() {
        let good = run().to_text();
        let refused = |text: &str| SavedRun::parse(text).unwrap_err();
        assert_eq!(refused(""), (0, "no 'chariot' line".into()));
        assert_eq!(refused("chariot spsa 2\n").0, 1);
        assert_eq!(refused(&good.replace("0123456789abcdef", "0123")).0, 2);
        assert_eq!(
            refused(&good.replace("done 57", "done 2001")),
            (4, "2001 iterations done of 2000".into())
        );
        assert_eq!(refused(&good.replace("games 41 30 43", "games 41 30")).0, 5);
        assert_eq!(
            refused(&good.replace("85.123456789", "NaN")),
            (6, "the value of rfp_margin is not a number".into())
        );
        assert_eq!(refused(&good.replace("value lmr_base", "valu lmr_base")).0, 7);
        let cut: String = good.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert_eq!(refused(&cut), (0, "no 'done' line".into()));
        let message =
            StateError::Malformed { path: "x.spsa".into(), line: 4, reason: "why".into() }.to_string();
        assert_eq!(message, "x.spsa is not an spsa state file: line 4: why");
    }
}
