//! Ratings of many engines on one scale from the games of many matches (`chariot match ratings`):
//! the maximum-likelihood Elo of each engine under the logistic model, one of them fixed as the
//! anchor, with 95% errors from the likelihood's curvature, as Ordo and BayesElo give them. A
//! ladder of matches between neighbours (the strength levels against each other and against
//! anchors) becomes one table this way, every game weighing in.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::path::PathBuf;

use crate::input_file::{self, InputError};
use crate::notation::{pgn, read_pgn, PgnError};

/// The two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo per natural-log unit of odds: the logistic model's scale, 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Virtual draws added to every pairing that played: a little prior that keeps an engine that won
/// (or lost) every game at a finite rating, and weighs nothing beside tens of real games.
const PRIOR_DRAWS: f64 = 1.0;

/// One game's result between two named engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    /// The engine with Red.
    pub red: String,
    /// The engine with Black.
    pub black: String,
    /// Red's score: 1 a win, 0.5 a draw, 0 a loss.
    pub red_score: f64,
}

/// One engine's place on the scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The engine's name, as the PGNs give it.
    pub name: String,
    /// Its Elo on the anchor's scale.
    pub elo: f64,
    /// The 95% error of that Elo against the anchor (0 for the anchor itself).
    pub error95: f64,
    /// Games it played.
    pub games: u32,
    /// Its score in them, 0 to 1.
    pub score: f64,
}

/// The fitted scale.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingTable {
    /// Every engine, strongest first.
    pub ratings: Vec<Rating>,
    /// Covariances of the Elos (engine order as in `ratings`), for the error of a difference.
    covariance: Vec<Vec<f64>>,
}

impl RatingTable {
    /// The rating of the engine named `name`.
    pub fn get(&self, name: &str) -> Option<&Rating> {
        self.ratings.iter().find(|r| r.name == name)
    }

    /// The Elo difference `a − b` and its 95% error, for two engines of the table.
    pub fn difference(&self, a: &str, b: &str) -> Option<(f64, f64)> {
        let i = self.ratings.iter().position(|r| r.name == a)?;
        let j = self.ratings.iter().position(|r| r.name == b)?;
        let c = &self.covariance;
        let variance = (c[i][i] + c[j][j] - 2.0 * c[i][j]).max(0.0);
        Some((self.ratings[i].elo - self.ratings[j].elo, Z95 * variance.sqrt()))
    }
}

/// Why no scale could be fitted.
#[derive(Debug)]
pub enum RatingsError {
    /// A PGN could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InputError,
    },
    /// A PGN does not parse.
    Pgn {
        /// The file.
        path: PathBuf,
        /// Why.
        error: PgnError,
    },
    /// A finished game without `Red` or `Black` tags: the file and the game's number in it.
    NoNames {
        /// The file.
        path: PathBuf,
        /// The game, from 1.
        game: usize,
    },
    /// An engine played itself: its name.
    SelfPlay(String),
    /// No finished game in the files.
    NoGames,
    /// The anchor played no game: its name, and the names that did.
    UnknownAnchor(String, Vec<String>),
    /// Engines no chain of games links to the anchor, so nothing puts them on its scale.
    NotConnected(Vec<String>),
}

impl fmt::Display for RatingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingsError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            RatingsError::Pgn { path, error } => write!(f, "{}: {error}", path.display()),
            RatingsError::NoNames { path, game } => {
                write!(f, "{}: game {game} has a result but no Red or Black tag", path.display())
            }
            RatingsError::SelfPlay(name) => write!(f, "{name} plays itself in a game: rename one side"),
            RatingsError::NoGames => write!(f, "no finished game in the files"),
            RatingsError::UnknownAnchor(name, known) => {
                write!(f, "the anchor {name} played no game; the engines are: {}", known.join(", "))
            }
            RatingsError::NotConnected(names) => write!(
                f,
                "no chain of games links {} to the anchor: play them against an engine that is linked",
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for RatingsError {}

/// The finished games of PGN files (`*` games are left out).
pub fn read_encounters(paths: &[PathBuf]) -> Result<Vec<Encounter>, RatingsError> {
    let mut encounters = Vec::new();
    for path in paths {
        let text = input_file::read_text(path, pgn::FILE_LIMIT)
            .map_err(|error| RatingsError::Read { path: path.clone(), error })?;
        let games = read_pgn(&text).map_err(|error| RatingsError::Pgn { path: path.clone(), error })?;
        for (i, game) in games.iter().enumerate() {
            let red_score = match game.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let (Some(red), Some(black)) = (game.tag("Red"), game.tag("Black")) else {
                return Err(RatingsError::NoNames { path: path.clone(), game: i + 1 });
            };
            encounters.push(Encounter { red: red.to_string(), black: black.to_string(), red_score });
        }
    }
    Ok(encounters)
}

/// Fits the scale to `games`, with `anchor` fixed at `anchor_elo`.
pub fn fit(games: &[Encounter], anchor: &str, anchor_elo: f64) -> Result<RatingTable, RatingsError> {
    if games.is_empty() {
        return Err(RatingsError::NoGames);
    }
    // Engines by name (sorted, so the table does not depend on the order of the files).
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for g in games {
        if g.red == g.black {
            return Err(RatingsError::SelfPlay(g.red.clone()));
        }
        for name in [g.red.as_str(), g.black.as_str()] {
            let next = index.len();
            index.entry(name).or_insert(next);
        }
    }
    let names: Vec<String> = {
        let mut by_index = vec![String::new(); index.len()];
        for (&name, &i) in &index {
            by_index[i] = name.to_string();
        }
        by_index
    };
    let n = names.len();
    let Some(&a) = index.get(anchor) else {
        let mut known = names.clone();
        known.sort();
        return Err(RatingsError::UnknownAnchor(anchor.to_string(), known));
    };
    // Games and points per ordered pair: played[i][j] games between i and j, points[i][j] i's.
    let mut played = vec![vec![0.0; n]; n];
    let mut points = vec![vec![0.0; n]; n];
    for g in games {
        let (r, b) = (index[g.red.as_str()], index[g.black.as_str()]);
        played[r][b] += 1.0;
        played[b][r] += 1.0;
        points[r][b] += g.red_score;
        points[b][r] += 1.0 - g.red_score;
    }
    let unlinked = unlinked(&played, a);
    if !unlinked.is_empty() {
        let mut missing: Vec<String> = unlinked.iter().map(|&i| names[i].clone()).collect();
        missing.sort();
        return Err(RatingsError::NotConnected(missing));
    }
    let (games_of, score_of): (Vec<f64>, Vec<f64>) =
        (0..n).map(|i| (played[i].iter().sum::<f64>(), points[i].iter().sum::<f64>())).unzip();
    for i in 0..n {
        for j in 0..n {
            if played[i][j] > 0.0 {
                played[i][j] += PRIOR_DRAWS;
                points[i][j] += PRIOR_DRAWS / 2.0;
            }
        }
    }
    // Newton's method on the log-likelihood in natural-log units, the anchor held at 0.
    let free: Vec<usize> = (0..n).filter(|&i| i != a).collect();
    let mut strength = vec![0.0; n];
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let (gradient, info) = gradient_and_information(&strength, &played, &points, &free);
        let step = solve(&info, &gradient);
        information = info;
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        // At most one natural-log unit (about 174 Elo) a step: the start can be far off.
        let damp = if largest > 1.0 { 1.0 / largest } else { 1.0 };
        for (k, &i) in free.iter().enumerate() {
            strength[i] += damp * step[k];
        }
        if largest < 1e-10 {
            break;
        }
    }
    let inverse = invert(&information);
    let mut covariance = vec![vec![0.0; n]; n];
    for (k, &i) in free.iter().enumerate() {
        for (l, &j) in free.iter().enumerate() {
            covariance[i][j] = inverse[k][l] * ELO_PER_NAT * ELO_PER_NAT;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| strength[j].total_cmp(&strength[i]).then(names[i].cmp(&names[j])));
    let ratings = order
        .iter()
        .map(|&i| Rating {
            name: names[i].clone(),
            elo: anchor_elo + strength[i] * ELO_PER_NAT,
            error95: Z95 * covariance[i][i].max(0.0).sqrt(),
            games: games_of[i] as u32,
            score: score_of[i] / games_of[i],
        })
        .collect();
    let covariance = order.iter().map(|&i| order.iter().map(|&j| covariance[i][j]).collect()).collect();
    Ok(RatingTable { ratings, covariance })
}

/// The engines that no chain of played games links to `anchor`.
fn unlinked(played: &[Vec<f64>], anchor: usize) -> Vec<usize> {
    let mut seen = vec![false; played.len()];
    let mut queue = VecDeque::from([anchor]);
    seen[anchor] = true;
    while let Some(i) = queue.pop_front() {
        for (j, &games) in played[i].iter().enumerate() {
            if games > 0.0 && !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    (0..played.len()).filter(|&i| !seen[i]).collect()
}

/// The log-likelihood's gradient over the free engines, and its information matrix (the negated
/// second derivatives), at `strength` (natural-log units).
fn gradient_and_information(
    strength: &[f64],
    played: &[Vec<f64>],
    points: &[Vec<f64>],
    free: &[usize],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = strength.len();
    let mut position = vec![None; n];
    for (k, &i) in free.iter().enumerate() {
        position[i] = Some(k);
    }
    let mut gradient = vec![0.0; free.len()];
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    for i in 0..n {
        for j in (i + 1)..n {
            if played[i][j] == 0.0 {
                continue;
            }
            let expected = 1.0 / (1.0 + (strength[j] - strength[i]).exp());
            let weight = played[i][j] * expected * (1.0 - expected);
            let surplus = points[i][j] - played[i][j] * expected;
            if let Some(k) = position[i] {
                gradient[k] += surplus;
                information[k][k] += weight;
            }
            if let Some(l) = position[j] {
                gradient[l] -= surplus;
                information[l][l] += weight;
            }
            if let (Some(k), Some(l)) = (position[i], position[j]) {
                information[k][l] -= weight;
                information[l][k] -= weight;
            }
        }
    }
    (gradient, information)
}

/// Solves `m · x = v` by Gaussian elimination with partial pivoting (`m` is positive definite
/// here: every free engine is linked to the anchor).
fn solve(m: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> =
        m.iter().zip(v).map(|(row, &b)| row.iter().copied().chain([b]).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-300 {
            continue;
        }
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for row in lower.iter_mut() {
            let factor = row[col] / p;
            for (x, &y) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= factor * y;
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = ((row + 1)..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-300 { 0.0 } else { (a[row][n] - tail) / a[row][row] };
    }
    x
}

/// The inverse of `m`, a column at a time.
fn invert(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = m.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|c| {
            let unit: Vec<f64> = (0..n).map(|r| if r == c { 1.0 } else { 0.0 }).collect();
            solve(m, &unit)
        })
        .collect();
    (0..n).map(|r| (0..n).map(|c| columns[c][r]).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::score_from_elo;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn encounter(red: &str, black: &str, red_score: f64) -> Encounter {
        Encounter { red: red.into(), black: black.into(), red_score }
    }

    /// Games between neighbours of a ladder whose true Elos are known, results drawn at random
    /// by the logistic model (a draw a fifth of the time, the rest won by the model's odds).
    fn ladder(truth: &[(&str, f64)], games: usize, seed: u64) -> Vec<Encounter> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for pair in truth.windows(2).chain(std::iter::once(&[truth[0], truth[2]][..])) {
            let (a, b) = (pair[0], pair[1]);
            for g in 0..games {
                let expected = score_from_elo(a.1 - b.1);
                // Score a draw 0.5 and otherwise win with the chance that keeps the mean expected.
                let score = if rng.gen_bool(0.2) {
                    0.5
                } else {
                    f64::from(u8::from(rng.gen_bool(((expected - 0.1) / 0.8).clamp(0.0, 1.0))))
                };
                let (red, black, red_score) =
                    if g % 2 == 0 { (a.0, b.0, score) } else { (b.0, a.0, 1.0 - score) };
                out.push(encounter(red, black, red_score));
            }
        }
        out
    }

    #[test]
    fn a_ladder_of_matches_recovers_the_elos_it_was_made_with() {
        let truth = [("a", 1000.0), ("b", 1150.0), ("c", 1230.0), ("d", 1480.0), ("e", 1500.0)];
        let table = fit(&ladder(&truth, 4000, 7), "a", 1000.0).unwrap();
        for (name, elo) in truth {
            let r = table.get(name).unwrap();
            assert!(
                (r.elo - elo).abs() < 2.5 * r.error95.max(1.0) / 1.96 + 1.0,
                "{name}: {r:?} against {elo}"
            );
            assert!((r.elo - elo).abs() < 25.0, "{name}: {r:?} against {elo}");
        }
        assert_eq!(table.get("a").unwrap().error95, 0.0);
        // The farther from the anchor, the larger the error.
        assert!(table.get("e").unwrap().error95 > table.get("b").unwrap().error95);
        // Strongest first.
        let names: Vec<&str> = table.ratings.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["e", "d", "c", "b", "a"]);
        let (diff, error) = table.difference("e", "d").unwrap();
        assert!((diff - 20.0).abs() < 25.0 && error > 0.0 && error < 40.0, "{diff} ± {error}");
    }

    #[test]
    fn two_engines_match_the_score_formula() {
        // 30 wins, 20 draws, 10 losses for x: a score of 2/3, +120 Elo, whoever had Red.
        let mut games = Vec::new();
        for (score, count) in [(1.0, 30), (0.5, 20), (0.0, 10)] {
            for k in 0..count {
                games.push(if k % 2 == 0 {
                    encounter("x", "y", score)
                } else {
                    encounter("y", "x", 1.0 - score)
                });
            }
        }
        let table = fit(&games, "y", 0.0).unwrap();
        let x = table.get("x").unwrap();
        // The prior's one virtual draw pulls the 2/3 score towards one half a little.
        let expected = crate::tournament::stats::elo_from_score((40.0 + 0.5) / 61.0);
        assert!((x.elo - expected).abs() < 0.01, "{} against {expected}", x.elo);
        assert_eq!((x.games, y_games(&table)), (60, 60));
        assert!((x.score - 2.0 / 3.0).abs() < 1e-12);
    }

    fn y_games(table: &RatingTable) -> u32 {
        table.get("y").unwrap().games
    }

    #[test]
    fn a_clean_sweep_stays_finite() {
        let games: Vec<Encounter> = (0..20).map(|_| encounter("strong", "weak", 1.0)).collect();
        let table = fit(&games, "weak", 0.0).unwrap();
        let strong = table.get("strong").unwrap();
        assert!(strong.elo.is_finite() && strong.elo > 400.0, "{strong:?}");
    }

    #[test]
    fn what_cannot_be_fitted_is_named() {
        assert!(matches!(fit(&[], "a", 0.0), Err(RatingsError::NoGames)));
        let games = [encounter("a", "b", 1.0), encounter("c", "d", 0.5)];
        let err = fit(&games, "a", 0.0).unwrap_err().to_string();
        assert_eq!(
            err,
            "no chain of games links c, d to the anchor: play them against an engine that is linked"
        );
        let err = fit(&games, "z", 0.0).unwrap_err().to_string();
        assert_eq!(err, "the anchor z played no game; the engines are: a, b, c, d");
        let err = fit(&[encounter("a", "a", 1.0)], "a", 0.0).unwrap_err().to_string();
        assert!(err.contains("a plays itself"), "{err}");
    }
}
