//! The match PGN: a finished game as PGN text, the file rewritten whole through a temporary file
//! after each game (so it is never half-written), and the results of an earlier run read back
//! for `--resume`.

use std::io::ErrorKind;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::game::GameRecord;
use crate::files;
use crate::notation::{read_pgn, write_pgn, MoveNotation, PgnGame, PgnMove};
use crate::rules::GameResult;

/// The names and settings a game's tags record.
pub struct GameTags<'a> {
    /// The Red engine's name.
    pub red: &'a str,
    /// The Black engine's name.
    pub black: &'a str,
    /// The game's number in the match.
    pub round: u32,
    /// The time control as text.
    pub time_control: String,
}

/// Today's date as PGN writes it (`2026.11.22`), in UTC.
fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() / 86_400).unwrap_or(0) as i64;
    // Civil-from-days (proleptic Gregorian), counting eras of 400 years from 0000-03-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The PGN result token of a record.
pub fn result_token(record: &GameRecord) -> &'static str {
    // Any termination will do: only the winner decides the token.
    GameResult { winner: record.winner, termination: crate::rules::Termination::Checkmate }.pgn_result()
}

/// A finished game as PGN text; book moves carry the comment `book`, engine moves their score
/// (pawns, mover's view), depth and time.
pub fn game_text(record: &GameRecord, tags: &GameTags, notation: MoveNotation) -> Result<String, String> {
    let mut game = PgnGame::new(record.opening.start.clone());
    let mut set = |name: &str, value: String| game.tags.push((name.to_string(), value));
    set("Event", "chariot match".to_string());
    set("Site", "?".to_string());
    set("Date", today());
    set("Round", tags.round.to_string());
    set("Red", tags.red.to_string());
    set("Black", tags.black.to_string());
    set("Termination", record.termination.clone());
    set("TimeControl", tags.time_control.clone());
    set("PlyCount", (record.opening.moves.len() + record.moves.len()).to_string());
    for &mv in &record.opening.moves {
        game.moves.push(PgnMove { mv, comment: Some("book".to_string()), suffix: None });
    }
    for played in &record.moves {
        let mut comment = match (played.score, played.depth) {
            (Some(s), Some(d)) => format!("{:+.2}/{d} ", s as f64 / 100.0),
            (Some(s), None) => format!("{:+.2} ", s as f64 / 100.0),
            _ => String::new(),
        };
        comment.push_str(&format!("{:.3}s", played.time_ms as f64 / 1000.0));
        game.moves.push(PgnMove { mv: played.mv, comment: Some(comment), suffix: None });
    }
    game.result = result_token(record).to_string();
    write_pgn(&game, notation).map_err(|e| format!("cannot write game {} as PGN: {e}", tags.round))
}

/// Checks before the first game that the PGN can be written where `--pgn` says: not a
/// directory itself, in a directory that exists and takes new files (tried by creating and
/// removing a temporary file there).
pub fn check_writable(path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!("--pgn {shown} is a directory"));
    }
    let dir = files::directory_of(path);
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(format!("--pgn {shown}: {} is not a directory", dir.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(format!("--pgn {shown}: directory {} does not exist", dir.display()))
        }
        Err(e) => return Err(format!("--pgn {shown}: cannot use directory {}: {e}", dir.display())),
    }
    files::check_writable(path).map_err(|e| format!("--pgn {shown}: cannot write in {} ({e})", dir.display()))
}

/// Replaces the match PGN at `path` with `text`, whole or not at all.
pub fn write_file(path: &Path, text: &str) -> Result<(), String> {
    files::write_atomically(path, text)
        .map_err(|e| format!("cannot write the PGN file {}: {e}", path.display()))
}

/// A game found in an earlier run's PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Its `Round` tag.
    pub round: u32,
    /// Its `Red` tag.
    pub red: String,
    /// Its `Black` tag.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
}

/// Reads the finished games of an earlier run from its PGN text.
pub fn played_games(text: &str, path: &Path) -> Result<Vec<PlayedGame>, String> {
    let games = read_pgn(text).map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let bad = |what: &str| format!("cannot resume from {}: game {} {what}", path.display(), i + 1);
        let round =
            game.tag("Round").and_then(|r| r.parse().ok()).ok_or_else(|| bad("has no numeric Round tag"))?;
        if !["1-0", "0-1", "1/2-1/2"].contains(&game.result.as_str()) {
            return Err(bad("has no result"));
        }
        let tag =
            |name: &str| game.tag(name).map(str::to_string).ok_or_else(|| bad(&format!("has no {name} tag")));
        out.push(PlayedGame { round, red: tag("Red")?, black: tag("Black")?, result: game.result.clone() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
        assert_eq!(&d[4..5], ".");
    }
}
