//! `chariot match report`: reads the PGNs of a match's shards (or of a whole match), checks that
//! every game belongs to one match (one settings fingerprint, the tags of `match_tags`, a place in
//! that match's schedule) and is whole, and puts the results together as the one process that
//! played them all would have counted them. Games no file holds are listed as missing; a game in
//! two files is counted once, from the first file given, and listed.

use std::fmt;
use std::path::{Path, PathBuf};

use super::match_tags::{MatchTags, TagProblem};
use super::pairs::{PairCollector, Pentanomial};
use super::pgn_out::result_winner;
use super::schedule::{self, MAX_SCHEDULED_GAMES};
use super::shard::Shard;
use super::spec::SprtSpec;
use super::stats::Tally;
use crate::input_file::{self, InputError};
use crate::notation::{pgn, read_pgn, PgnError, PgnGame};

/// The games of one match, put together from its PGNs.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The engines' names, in order.
    pub engines: Vec<String>,
    /// T: the games of the whole match.
    pub games: u32,
    /// The settings fingerprint every game carries.
    pub settings: String,
    /// The search limit as the games' `TimeControl` tag says it.
    pub limit: String,
    /// Per pairing (first engine, second engine) the result from the first's view, each game
    /// counted once.
    pub pairings: Vec<((usize, usize), Tally)>,
    /// Per pairing, the game pairs both of whose games were found.
    pub pairs: Vec<Pentanomial>,
    /// How many of the T games were found.
    pub found: u32,
    /// The games no file holds, by number.
    pub missing: Vec<u32>,
    /// The games found more than once: each number with the files that hold it, in the order
    /// given (the first is the one counted).
    pub duplicates: Vec<(u32, Vec<PathBuf>)>,
    /// N, when every game was played by a shard of N (1 for whole matches).
    pub shard_count: Option<u32>,
    /// The different `MatchSprt` settings found, each with the first file that has it.
    pub sprts: Vec<(SprtSpec, PathBuf)>,
}

/// What is wrong with one game of a PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameProblem {
    /// A match tag is missing or unreadable.
    Tags(TagProblem),
    /// A tag every match game has is missing: its name.
    NoTag(&'static str),
    /// The game has no result (`*`, or none).
    NoResult,
    /// The `Result` tag and the result after the moves differ.
    ResultsDiffer,
    /// Fewer or more moves than `PlyCount` says: the game was cut short (or edited).
    PlyCount {
        /// What the tag says.
        tag: String,
        /// The moves read.
        moves: usize,
    },
    /// `Round` is not a game number of the match.
    Round {
        /// The tag's value.
        value: String,
        /// T.
        games: u32,
    },
    /// `MatchGames` is not a number of games the match's pairings can make.
    Games {
        /// T.
        games: u32,
        /// The pairings of the engines named.
        pairings: u64,
    },
    /// The game is not the one the schedule has under its number.
    NotInSchedule {
        /// Its number.
        round: u32,
        /// Its Red engine.
        red: String,
        /// Its Black engine.
        black: String,
    },
    /// The game's number is not one its shard plays.
    NotInShard {
        /// Its number.
        round: u32,
        /// Its `MatchShard`.
        shard: Shard,
    },
    /// A tag differs from the first game's although the settings fingerprint is the same: the
    /// tag's name.
    Differs(&'static str),
}

impl fmt::Display for GameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameProblem::Tags(problem) => write!(f, "{problem} (was it written by `chariot match`?)"),
            GameProblem::NoTag(name) => write!(f, "has no {name} tag (was it written by `chariot match`?)"),
            GameProblem::NoResult => {
                write!(f, "has no result: the file was cut short or the game not finished")
            }
            GameProblem::ResultsDiffer => write!(f, "its Result tag and the result after its moves differ"),
            GameProblem::PlyCount { tag, moves } => write!(
                f,
                "has {moves} moves where its PlyCount tag says {}: the file was cut short or edited",
                super::shown::shown(tag)
            ),
            GameProblem::Round { value, games } => write!(
                f,
                "its Round tag {} is not a game number from 1 to {games}",
                super::shown::shown(value)
            ),
            GameProblem::Games { games, pairings } => {
                write!(f, "{games} games cannot be split evenly over {pairings} pairings")
            }
            GameProblem::NotInSchedule { round, red, black } => {
                write!(f, "game {round} ({red} - {black}) is not the match's game {round}")
            }
            GameProblem::NotInShard { round, shard } => {
                write!(f, "game {round} is not one shard {shard} plays")
            }
            GameProblem::Differs(name) => {
                write!(f, "its {name} tag differs from the first game's, though the settings are the same")
            }
        }
    }
}

/// Why the PGNs cannot be reported as one match; the message names the file.
#[derive(Debug)]
pub enum MergeError {
    /// No file was given.
    NoFiles,
    /// A file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InputError,
    },
    /// A file is not PGN.
    Pgn {
        /// The file.
        path: PathBuf,
        /// Why.
        error: PgnError,
    },
    /// A file does not end with a game's result: it was cut short.
    Truncated {
        /// The file.
        path: PathBuf,
        /// What the PGN reader said of the cut end, if it could not read it.
        error: Option<PgnError>,
    },
    /// A file holds no game.
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A game is not a whole game of a match.
    Game {
        /// The file.
        path: PathBuf,
        /// The game's place in the file, from 1.
        number: usize,
        /// What is wrong.
        problem: GameProblem,
    },
    /// A game was played with other settings than the match's (or, before an extension, than
    /// the other games of its count in its file).
    OtherSettings {
        /// The file.
        path: PathBuf,
        /// The game's place in the file, from 1.
        number: usize,
        /// Its fingerprint.
        settings: String,
        /// The file whose games hold the expected fingerprint.
        first: PathBuf,
        /// The expected fingerprint.
        expected: String,
    },
    /// The files record different `--sprt` settings and none was given to choose.
    SprtsDiffer {
        /// The first file with one setting.
        first: PathBuf,
        /// The first file with another.
        other: PathBuf,
    },
    /// An SPRT for a match of more than one pairing.
    SprtNeedsTwoEngines,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoFiles => write!(f, "no PGN file to report on"),
            MergeError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            MergeError::Pgn { path, error } => write!(f, "{} is not a match PGN: {error}", path.display()),
            MergeError::Truncated { path, error } => {
                write!(f, "{} does not end with a game's result: it was cut short", path.display())?;
                match error {
                    Some(error) => write!(f, " ({error})"),
                    None => Ok(()),
                }
            }
            MergeError::Empty { path } => write!(f, "{} holds no game", path.display()),
            MergeError::Game { path, number, problem } => {
                write!(f, "{}: game {number} in the file {problem}", path.display())
            }
            MergeError::OtherSettings { path, number, settings, first, expected } => write!(
                f,
                "{}: game {number} in the file comes from another match (settings {settings}, not {expected} as in {}): \
                 its engines, limits, openings or adjudication differ",
                path.display(),
                first.display()
            ),
            MergeError::SprtsDiffer { first, other } => write!(
                f,
                "{} and {} record different --sprt settings: give --sprt to choose",
                first.display(),
                other.display()
            ),
            MergeError::SprtNeedsTwoEngines => write!(f, "--sprt needs a match of exactly two engines"),
        }
    }
}

/// No `source`: the message already holds the cause's.
impl std::error::Error for MergeError {}

/// The match as the first file's last game describes it (an extended match's full count): what
/// every other game must agree with.
struct Reference {
    path: PathBuf,
    tags: MatchTags,
    limit: String,
    pairings: Vec<(usize, usize)>,
    jobs: Vec<schedule::Job>,
}

/// Whether the text ends as a match PGN does, with a finished game's result token. A file cut
/// short loses its end; without this check the last game would take its result from its
/// `Result` tag and lose its last moves unnoticed.
fn ends_with_a_result(text: &str) -> bool {
    let last = text.split_whitespace().next_back().unwrap_or("");
    result_winner(last).is_some()
}

/// The checks of one game on its own: a finished, whole game with its match tags.
fn whole_game(game: &PgnGame) -> Result<(MatchTags, String), GameProblem> {
    if result_winner(&game.result).is_none() {
        return Err(GameProblem::NoResult);
    }
    if game.tag("Result") != Some(game.result.as_str()) {
        return Err(GameProblem::ResultsDiffer);
    }
    let plies = game.tag("PlyCount").ok_or(GameProblem::NoTag("PlyCount"))?;
    if plies.parse::<usize>().ok() != Some(game.moves.len()) {
        return Err(GameProblem::PlyCount { tag: plies.to_string(), moves: game.moves.len() });
    }
    let tags = MatchTags::read(game).map_err(GameProblem::Tags)?;
    let limit = game.tag("TimeControl").ok_or(GameProblem::NoTag("TimeControl"))?;
    Ok((tags, limit.to_string()))
}

/// The schedule the first game's tags describe.
fn reference(path: &Path, tags: MatchTags, limit: String) -> Result<Reference, GameProblem> {
    let pairing_count = schedule::pairing_count(tags.engines.len(), tags.gauntlet);
    let games = u64::from(tags.games);
    if games > MAX_SCHEDULED_GAMES || games % pairing_count != 0 {
        return Err(GameProblem::Games { games: tags.games, pairings: pairing_count });
    }
    let pairings = schedule::pairings(tags.engines.len(), tags.gauntlet);
    // The openings do not matter here: only the numbers, colours and pairings are checked.
    let jobs = schedule::jobs(&pairings, (games / pairing_count) as u32, 1);
    Ok(Reference { path: path.to_path_buf(), tags, limit, pairings, jobs })
}

/// Puts together the games of the PGN texts, each with the file it came from, in order.
pub fn merge_texts(files: &[(PathBuf, String)]) -> Result<Merged, MergeError> {
    if files.is_empty() {
        return Err(MergeError::NoFiles);
    }
    let mut reference: Option<Reference> = None;
    let mut seen: Vec<Option<usize>> = Vec::new();
    let mut duplicates: Vec<(u32, Vec<PathBuf>)> = Vec::new();
    let mut tallies: Vec<Tally> = Vec::new();
    let mut pairs = PairCollector::default();
    let mut shard_counts: Vec<u32> = Vec::new();
    let mut sprts: Vec<(SprtSpec, PathBuf)> = Vec::new();
    for (file, (path, text)) in files.iter().enumerate() {
        // A cut can leave half a token or comment, which the reader refuses: the cut is the
        // cause to name.
        let games = read_pgn(text).map_err(|error| {
            if ends_with_a_result(text) {
                MergeError::Pgn { path: path.clone(), error }
            } else {
                MergeError::Truncated { path: path.clone(), error: Some(error) }
            }
        })?;
        if games.is_empty() {
            return Err(MergeError::Empty { path: path.clone() });
        }
        if !ends_with_a_result(text) {
            return Err(MergeError::Truncated { path: path.clone(), error: None });
        }
        // A match extended by a larger `--games` appends the games of the larger count after
        // those of the smaller, with the same settings fingerprint (the count is no part of it):
        // a file is judged by its last game, and its earlier games may have a smaller
        // `MatchGames`, never growing smaller again.
        let last = games.iter().rev().find_map(|game| whole_game(game).ok());
        let mut largest_so_far = 0;
        for (i, game) in games.iter().enumerate() {
            let bad = |problem| MergeError::Game { path: path.clone(), number: i + 1, problem };
            let (tags, limit) = whole_game(game).map_err(bad)?;
            if reference.is_none() {
                // `whole_game` just read this game, so the file has a last whole game.
                let (last_tags, last_limit) = last.clone().unwrap_or_else(|| (tags.clone(), limit.clone()));
                let r = self::reference(path, last_tags, last_limit).map_err(|problem| MergeError::Game {
                    path: path.clone(),
                    number: games.len(),
                    problem,
                })?;
                seen = vec![None; r.jobs.len()];
                tallies = vec![Tally::default(); r.pairings.len()];
                pairs = PairCollector::new(r.pairings.len());
                reference = Some(r);
            }
            let Some(r) = &reference else { continue };
            let file_games = last.as_ref().map_or(tags.games, |(last, _)| last.games);
            let extended = tags.games < file_games && tags.games >= largest_so_far;
            largest_so_far = largest_so_far.max(tags.games);
            if tags.settings != r.tags.settings {
                return Err(MergeError::OtherSettings {
                    path: path.clone(),
                    number: i + 1,
                    settings: tags.settings,
                    first: r.path.clone(),
                    expected: r.tags.settings.clone(),
                });
            }
            let differs = [
                (!extended && tags.games != r.tags.games, "MatchGames"),
                (tags.engines != r.tags.engines, "MatchEngines"),
                (tags.gauntlet != r.tags.gauntlet, "MatchPairings"),
                (limit != r.limit, "TimeControl"),
            ];
            if let Some((_, name)) = differs.iter().find(|(d, _)| *d) {
                return Err(bad(GameProblem::Differs(name)));
            }
            let round_text = game.tag("Round").ok_or_else(|| bad(GameProblem::NoTag("Round")))?;
            let round =
                round_text.parse::<u32>().ok().filter(|r| (1..=tags.games).contains(r)).ok_or_else(|| {
                    bad(GameProblem::Round { value: round_text.to_string(), games: tags.games })
                })?;
            if !tags.shard.contains(round) {
                return Err(bad(GameProblem::NotInShard { round, shard: tags.shard }));
            }
            let job = r.jobs[round as usize - 1];
            let red = game.tag("Red").ok_or_else(|| bad(GameProblem::NoTag("Red")))?;
            let black = game.tag("Black").ok_or_else(|| bad(GameProblem::NoTag("Black")))?;
            if red != r.tags.engines[job.red] || black != r.tags.engines[job.black] {
                let (red, black) = (red.to_string(), black.to_string());
                return Err(bad(GameProblem::NotInSchedule { round, red, black }));
            }
            if !shard_counts.contains(&tags.shard.count()) {
                shard_counts.push(tags.shard.count());
            }
            if let Some(sprt) = tags.sprt {
                if !sprts.iter().any(|(s, _)| *s == sprt) {
                    sprts.push((sprt, path.clone()));
                }
            }
            match seen[round as usize - 1] {
                None => {
                    seen[round as usize - 1] = Some(file);
                    let winner = result_winner(&game.result).unwrap_or(None);
                    let game = Tally::of_game(job.red == r.pairings[job.pairing].0, winner);
                    tallies[job.pairing].add(game);
                    pairs.add(job.pairing, job.pair, game);
                }
                Some(first) => match duplicates.iter_mut().find(|(g, _)| *g == round) {
                    Some((_, paths)) => paths.push(path.clone()),
                    None => duplicates.push((round, vec![files[first].0.clone(), path.clone()])),
                },
            }
        }
    }
    // Every file holds a game, so the first one made the reference.
    let Some(r) = reference else { return Err(MergeError::NoFiles) };
    duplicates.sort_by_key(|(g, _)| *g);
    let missing: Vec<u32> = (1..=r.tags.games).filter(|&g| seen[g as usize - 1].is_none()).collect();
    Ok(Merged {
        found: r.tags.games - missing.len() as u32,
        missing,
        duplicates,
        shard_count: (shard_counts.len() == 1).then(|| shard_counts[0]),
        sprts,
        pairings: r.pairings.iter().copied().zip(tallies).collect(),
        pairs: pairs.finished().to_vec(),
        engines: r.tags.engines,
        games: r.tags.games,
        settings: r.tags.settings,
        limit: r.limit,
    })
}

/// Reads the PGN files and puts their games together.
pub fn merge_files(paths: &[PathBuf]) -> Result<Merged, MergeError> {
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let text = input_file::read_text(path, pgn::FILE_LIMIT)
            .map_err(|error| MergeError::Read { path: path.clone(), error })?;
        files.push((path.clone(), text));
    }
    merge_texts(&files)
}

impl Merged {
    /// The SPRT to judge the match by: `chosen` if given, else the one the games record (if
    /// they record one, and only one).
    pub fn sprt(&self, chosen: Option<SprtSpec>) -> Result<Option<SprtSpec>, MergeError> {
        let sprt = match (chosen, self.sprts.as_slice()) {
            (Some(chosen), _) => Some(chosen),
            (None, []) => None,
            (None, [(only, _)]) => Some(*only),
            (None, [(_, first), (_, other), ..]) => {
                return Err(MergeError::SprtsDiffer { first: first.clone(), other: other.clone() })
            }
        };
        if sprt.is_some() && self.pairings.len() != 1 {
            return Err(MergeError::SprtNeedsTwoEngines);
        }
        Ok(sprt)
    }

    /// The shards that hold the missing games, when every game came from a shard of the same
    /// split (and there was a split).
    pub fn missing_shards(&self) -> Vec<Shard> {
        let Some(count) = self.shard_count.filter(|&n| n > 1) else { return Vec::new() };
        let mut shards: Vec<Shard> = self.missing.iter().filter_map(|&g| Shard::of_game(g, count)).collect();
        shards.sort_by_key(Shard::index);
        shards.dedup();
        shards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of no moves with the match tags: `fields` are round, red, black, result, games,
    /// shard, and `extra` more tag lines.
    fn game(
        round: u32,
        red: &str,
        black: &str,
        result: &str,
        games: u32,
        shard: &str,
        extra: &str,
    ) -> String {
        format!(
            "[Round \"{round}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [TimeControl \"depth=1\"]\n[PlyCount \"0\"]\n[MatchGames \"{games}\"]\n\
             [MatchSettings \"0123456789abcdef\"]\n[MatchEngines \"a,b\"]\n\
             [MatchPairings \"round robin\"]\n[MatchShard \"{shard}\"]\n{extra}\n{result}\n\n"
        )
    }

    fn files(texts: &[String]) -> Vec<(PathBuf, String)> {
        texts.iter().enumerate().map(|(i, t)| (PathBuf::from(format!("s{}.pgn", i + 1)), t.clone())).collect()
    }

    fn problem(texts: &[String]) -> (PathBuf, usize, GameProblem) {
        match merge_texts(&files(texts)) {
            Err(MergeError::Game { path, number, problem }) => (path, number, problem),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn games_are_counted_from_the_first_engines_view() {
        // Game 1: a (Red) wins; game 2: b (Red) wins; game 3: a (Red) draws; game 4 missing.
        let one = game(1, "a", "b", "1-0", 4, "1/2", "") + &game(3, "a", "b", "1/2-1/2", 4, "1/2", "");
        let two = game(2, "b", "a", "1-0", 4, "2/2", "");
        let merged = merge_texts(&files(&[one, two])).unwrap();
        assert_eq!(merged.pairings, vec![((0, 1), Tally { wins: 1, draws: 1, losses: 1 })]);
        assert_eq!((merged.found, merged.games, merged.missing.clone()), (3, 4, vec![4]));
        assert_eq!(merged.missing_shards(), vec![Shard::new(2, 2).unwrap()]);
        assert_eq!(merged.engines, ["a", "b"]);
        assert_eq!(merged.limit, "depth=1");
        assert!(merged.duplicates.is_empty());
    }

    #[test]
    fn a_duplicate_counts_once_from_the_first_file() {
        let first = game(1, "a", "b", "1-0", 2, "1/1", "");
        // The same game with another result in a later file: not counted.
        let again = game(1, "a", "b", "0-1", 2, "1/2", "") + &game(2, "b", "a", "0-1", 2, "2/2", "");
        let merged = merge_texts(&files(&[first, again.clone(), again])).unwrap();
        assert_eq!(merged.pairings[0].1, Tally { wins: 2, draws: 0, losses: 0 });
        let paths = ["s1.pgn", "s2.pgn", "s3.pgn"].map(PathBuf::from).to_vec();
        let twice = ["s2.pgn", "s3.pgn"].map(PathBuf::from).to_vec();
        assert_eq!(merged.duplicates, vec![(1, paths), (2, twice)]);
        // Shards of different splits: no shard to name.
        assert_eq!(merged.shard_count, None);
    }

    #[test]
    fn games_that_do_not_fit_the_match_are_refused() {
        let ok = game(1, "a", "b", "1-0", 2, "1/2", "");
        let (path, number, p) = problem(&[ok.clone(), game(2, "b", "a", "1-0", 2, "1/2", "")]);
        assert_eq!((path, number), (PathBuf::from("s2.pgn"), 1));
        assert_eq!(p, GameProblem::NotInShard { round: 2, shard: Shard::new(1, 2).unwrap() });
        let swapped = game(2, "a", "b", "1-0", 2, "2/2", "");
        let (_, _, p) = problem(&[ok.clone(), swapped]);
        assert_eq!(p, GameProblem::NotInSchedule { round: 2, red: "a".into(), black: "b".into() });
        let other_games = game(2, "b", "a", "1-0", 4, "2/2", "");
        assert_eq!(problem(&[ok.clone(), other_games]).2, GameProblem::Differs("MatchGames"));
        let other_limit = game(2, "b", "a", "1-0", 2, "2/2", "").replace("depth=1", "depth=2");
        assert_eq!(problem(&[ok.clone(), other_limit]).2, GameProblem::Differs("TimeControl"));
        let unfinished = game(2, "b", "a", "*", 2, "2/2", "") + &game(2, "b", "a", "1-0", 2, "2/2", "");
        assert_eq!(problem(&[ok.clone(), unfinished]).2, GameProblem::NoResult);
        let disagree = game(2, "b", "a", "1-0", 2, "2/2", "").replace("\n1-0\n\n", "\n0-1\n\n");
        assert_eq!(problem(&[ok.clone(), disagree]).2, GameProblem::ResultsDiffer);
        // Three engines make three pairings, which four games cannot share evenly.
        let three = game(1, "a", "b", "1-0", 4, "1/1", "").replace("\"a,b\"", "\"a,b,c\"");
        assert_eq!(problem(&[three]).2, GameProblem::Games { games: 4, pairings: 3 });
        let foreign = game(2, "b", "a", "1-0", 2, "2/2", "").replace("0123456789abcdef", "fedcba9876543210");
        match merge_texts(&files(&[ok, foreign])) {
            Err(e @ MergeError::OtherSettings { .. }) => {
                let e = e.to_string();
                assert!(e.starts_with("s2.pgn: game 1 in the file comes from another match"), "{e}");
                assert!(e.contains("fedcba9876543210") && e.contains("as in s1.pgn"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(merge_texts(&[]), Err(MergeError::NoFiles)));
    }

    #[test]
    fn a_match_extended_by_more_games_is_read_whole_from_its_file() {
        let before = |round, red, black| game(round, red, black, "1-0", 2, "1/1", "");
        let after = |round, red, black| game(round, red, black, "0-1", 4, "1/1", "");
        let extended = before(1, "a", "b") + &before(2, "b", "a") + &after(3, "a", "b") + &after(4, "b", "a");
        let merged = merge_texts(&files(std::slice::from_ref(&extended))).unwrap();
        assert_eq!((merged.found, merged.games, merged.settings.as_str()), (4, 4, "0123456789abcdef"));
        assert_eq!(merged.pairings[0].1, Tally { wins: 2, draws: 0, losses: 2 });
        // The games before the extension carry the match's fingerprint like the rest.
        let odd = game(2, "b", "a", "1-0", 2, "1/1", "").replace("0123456789abcdef", "cccccccccccccccc");
        let mixed = before(1, "a", "b") + &odd + &after(3, "a", "b") + &after(4, "b", "a");
        match merge_texts(&files(&[mixed])) {
            Err(MergeError::OtherSettings { number: 2, settings, expected, .. }) => {
                assert_eq!((settings.as_str(), expected.as_str()), ("cccccccccccccccc", "0123456789abcdef"));
            }
            other => panic!("{other:?}"),
        }
        // A smaller count after a larger one is not an extension.
        let backwards =
            before(1, "a", "b") + &after(3, "a", "b") + &before(2, "b", "a") + &after(4, "b", "a");
        assert!(matches!(
            merge_texts(&files(&[backwards])),
            Err(MergeError::Game { number: 3, problem: GameProblem::Differs("MatchGames"), .. })
        ));
        // Another file of the smaller match alone is another match.
        let small = before(1, "a", "b") + &before(2, "b", "a");
        assert!(matches!(
            merge_texts(&files(&[extended, small])),
            Err(MergeError::Game { number: 1, problem: GameProblem::Differs("MatchGames"), .. })
        ));
    }

    #[test]
    fn the_recorded_sprt_is_used_unless_another_is_given() {
        let tag = |spec: &str| format!("[MatchSprt \"{spec}\"]");
        let (low, high) = ("elo0=0,elo1=5,alpha=0.05,beta=0.05", "elo0=0,elo1=10,alpha=0.05,beta=0.05");
        let one = game(1, "a", "b", "1-0", 2, "1/2", &tag(low));
        let merged = merge_texts(&files(&[one.clone(), game(2, "b", "a", "1-0", 2, "2/2", "")])).unwrap();
        assert_eq!(merged.sprt(None).unwrap(), Some(SprtSpec::parse(low).unwrap()));
        let chosen = SprtSpec::parse(high).unwrap();
        assert_eq!(merged.sprt(Some(chosen)).unwrap(), Some(chosen));
        let two = game(2, "b", "a", "1-0", 2, "2/2", &tag(high));
        let merged = merge_texts(&files(&[one, two])).unwrap();
        let e = merged.sprt(None).unwrap_err().to_string();
        assert_eq!(e, "s1.pgn and s2.pgn record different --sprt settings: give --sprt to choose");
        assert_eq!(merged.sprt(Some(chosen)).unwrap(), Some(chosen));
    }
}
