//! The results table printed at the end of a match (and by `chariot match report` for the
//! games of its PGNs), and the one-line summary the progress bar shows.

use std::io::{self, Write};

use super::merge::Merged;
use super::pairs::{Pentanomial, MIN_PAIRS_FOR_VERDICT};
use super::ratings::RatingTable;
use super::shard::Shard;
use super::spec::SprtSpec;
use super::stats::{sprt_bounds, SprtVerdict, Tally};

/// `+12.3 ± 45.6` or `inf` / `-inf` / `-` when it cannot be told.
fn elo_text(t: &Tally) -> String {
    match (t.elo(), t.elo_error95()) {
        // `+ 0.0` turns -0.0 into 0.0.
        (Some(e), Some(err)) => format!("{:+.1} ± {err:.1}", e + 0.0),
        (Some(e), None) if e.is_finite() => format!("{e:+.1} ± inf"),
        (Some(e), None) => (if e > 0.0 { "+inf" } else { "-inf" }).to_string(),
        _ => "-".to_string(),
    }
}

/// A percentage or `-`.
fn percent(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", 100.0 * v)).unwrap_or_else(|| "-".to_string())
}

/// The progress bar's message: `W-D-L` and Elo of the first side.
pub fn progress_line(t: &Tally) -> String {
    format!("+{} ={} -{}  Elo {}", t.wins, t.draws, t.losses, elo_text(t))
}

/// One table row per line, each a result from the first name's point of view.
pub fn table(rows: &[(String, Tally)]) -> String {
    // Names are checked when the specs are read; the cap keeps the width a format width can be
    // (a longer name just overflows its column).
    let width = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0).clamp(6, 256);
    let mut out = format!(
        "{:<width$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>18} {:>7} {:>7}\n",
        "result", "games", "W", "D", "L", "score", "Elo ± 95%", "LOS", "draws"
    );
    for (name, t) in rows {
        out.push_str(&format!(
            "{:<width$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>18} {:>7} {:>7}\n",
            name,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            percent(t.score()),
            elo_text(t),
            percent(t.los()),
            percent(t.draw_ratio())
        ));
    }
    out
}

/// The line on the game pairs: how many scored 0, ½, 1, 1½ and 2 points, and the Elo with its
/// error, each pair one sample.
pub fn pairs_line(p: &Pentanomial) -> String {
    let [a, b, c, d, e] = p.counts;
    let elo = match (p.elo(), p.elo_error95()) {
        (Some(elo), Some(err)) => format!("Elo {:+.1} ± {err:.1}", elo + 0.0),
        _ => "Elo -".to_string(),
    };
    format!("pairs {}: 0-½-1-1½-2 points {a}-{b}-{c}-{d}-{e}, {elo} (each pair one sample)\n", p.pairs())
}

/// The SPRT line: LLR (each finished game pair one sample), bounds and verdict.
pub fn sprt_line(p: &Pentanomial, sprt: &SprtSpec) -> String {
    let llr = p.llr(sprt);
    let (lower, upper) = sprt_bounds(sprt);
    let verdict = match p.verdict(sprt) {
        SprtVerdict::AcceptH1 => "H1 accepted".to_string(),
        SprtVerdict::AcceptH0 => "H0 accepted".to_string(),
        SprtVerdict::Continue if p.pairs() < MIN_PAIRS_FOR_VERDICT => {
            format!("no verdict before {MIN_PAIRS_FOR_VERDICT} pairs")
        }
        SprtVerdict::Continue => "no verdict yet".to_string(),
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} of {} pairs (bounds {lower:.2}, {upper:.2}): {verdict}\n",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        p.pairs()
    )
}

/// What the end-of-match results say: the same whether one process played the games or
/// `chariot match report` read them from the shards' PGNs.
pub struct Results<'a> {
    /// The engines' names, in order.
    pub engines: &'a [String],
    /// The search limit as `Limit::describe` writes it.
    pub limit: &'a str,
    /// Per pairing (first engine, second engine) the result from the first's view.
    pub pairings: &'a [((usize, usize), Tally)],
    /// Per pairing, its finished game pairs.
    pub pairs: &'a [Pentanomial],
    /// The SPRT to judge the first pairing by.
    pub sprt: Option<&'a SprtSpec>,
    /// Whether an SPRT verdict stopped the match before its last game.
    pub stopped_early: bool,
}

/// The results: one row per pairing, then with three or more engines one per engine against
/// the field; the SPRT line when asked for.
pub fn write_results(out: &mut impl Write, results: &Results) -> io::Result<()> {
    let name = |i: usize| results.engines[i].as_str();
    let mut rows: Vec<(String, Tally)> =
        results.pairings.iter().map(|&((a, b), t)| (format!("{} vs {}", name(a), name(b)), t)).collect();
    if results.engines.len() > 2 {
        for (i, engine) in results.engines.iter().enumerate() {
            let mut total = Tally::default();
            for &((a, b), t) in results.pairings {
                if a == i {
                    total.add(t);
                } else if b == i {
                    total.add(t.flipped());
                }
            }
            rows.push((format!("{engine} vs field"), total));
        }
    }
    writeln!(
        out,
        "Results ({}; Elo by the logistic model, 95% error from the win/draw/loss variance):",
        results.limit
    )?;
    write!(out, "{}", table(&rows))?;
    if let ([_], [pairs]) = (results.pairings, results.pairs) {
        write!(out, "{}", pairs_line(pairs))?;
    }
    if let (Some(sprt), Some(first)) = (results.sprt, results.pairs.first()) {
        write!(out, "{}", sprt_line(first, sprt))?;
        if results.stopped_early {
            writeln!(out, "stopped early on the SPRT verdict")?;
        }
    }
    out.flush()
}

/// Numbers as a list: `2, 5, 8`.
fn list(numbers: impl Iterator<Item = String>) -> String {
    numbers.collect::<Vec<_>>().join(", ")
}

/// Ascending game numbers as a list with runs of three or more joined: `2, 5, 40–1000`, so that a
/// match stopped early (an SPRT's) names its unplayed games in a line.
fn runs(numbers: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        match j - i {
            0 => parts.push(numbers[i].to_string()),
            1 => parts.extend([numbers[i].to_string(), numbers[j].to_string()]),
            _ => parts.push(format!("{}–{}", numbers[i], numbers[j])),
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// `chariot match report`'s output: the results table of the games found (as the match that
/// played them prints it), then how many of the match's games were found in how many files,
/// which are missing and which were found twice.
pub fn write_merged(
    out: &mut impl Write,
    merged: &Merged,
    sprt: Option<&SprtSpec>,
    files: usize,
) -> io::Result<()> {
    let results = Results {
        engines: &merged.engines,
        limit: &merged.limit,
        pairings: &merged.pairings,
        pairs: &merged.pairs,
        sprt,
        stopped_early: false,
    };
    write_results(out, &results)?;
    let plural = if files == 1 { "" } else { "s" };
    writeln!(
        out,
        "games: {} of {} from {files} file{plural} (settings {})",
        merged.found, merged.games, merged.settings
    )?;
    if !merged.missing.is_empty() {
        writeln!(out, "missing games ({}): {}", merged.missing.len(), runs(&merged.missing))?;
        let shards = merged.missing_shards();
        if !shards.is_empty() {
            writeln!(
                out,
                "missing shards: {} (rerun each with its --shard)",
                list(shards.iter().map(Shard::to_string))
            )?;
        }
    }
    if !merged.duplicates.is_empty() {
        let found_in = |paths: &[std::path::PathBuf]| list(paths.iter().map(|p| p.display().to_string()));
        writeln!(
            out,
            "duplicated games ({}), each counted once, from the first file: {}",
            merged.duplicates.len(),
            merged
                .duplicates
                .iter()
                .map(|(g, paths)| format!("{g} ({})", found_in(paths)))
                .collect::<Vec<_>>()
                .join("; ")
        )?;
    }
    out.flush()
}

/// The table of `chariot match ratings`: rank, engine, Elo with its 95% error against the
/// anchor, games and score, strongest first.
pub fn write_ratings(out: &mut impl Write, table: &RatingTable, games: usize) -> io::Result<()> {
    let width = table.ratings.iter().map(|r| r.name.chars().count()).max().unwrap_or(6).max(6);
    writeln!(out, "{games} games; Elo by maximum likelihood (logistic model), 95% error against the anchor")?;
    writeln!(out, "rank  {:<width$}      Elo    ± 95%   games   score", "engine")?;
    for (i, r) in table.ratings.iter().enumerate() {
        writeln!(
            out,
            "{:>4}  {:<width$}  {:>7.1}  {:>7.1}  {:>6}  {:>5.1}%",
            i + 1,
            r.name,
            r.elo,
            r.error95,
            r.games,
            100.0 * r.score
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_game_numbers_are_joined() {
        assert_eq!(runs(&[]), "");
        assert_eq!(runs(&[7]), "7");
        assert_eq!(runs(&[2, 5]), "2, 5");
        assert_eq!(runs(&[2, 3, 9]), "2, 3, 9");
        assert_eq!(runs(&[1, 2, 3, 7, 40, 41, 42, 43]), "1–3, 7, 40–43");
        let stopped: Vec<u32> = (40..=1000).collect();
        assert_eq!(runs(&stopped), "40–1000");
    }

    #[test]
    fn the_table_takes_any_name() {
        let t = Tally { wins: 1, draws: 0, losses: 1 };
        let rows = vec![("a vs b".to_string(), t), ("n".repeat(70_000), t)];
        let table = table(&rows);
        assert!(table.lines().nth(1).unwrap().starts_with(&format!("{:<256} ", "a vs b")), "{table}");
        assert_eq!(table.lines().count(), 3);
    }

    #[test]
    fn the_sprt_line_names_the_floor_until_it_is_reached() {
        let sprt = SprtSpec { elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05 };
        let few = Pentanomial { counts: [0, 4, 1, 0, 0], games: Tally::default() };
        let line = sprt_line(&few, &sprt);
        assert!(
            line.contains("LLR -3.08 of 5 pairs") && line.ends_with("no verdict before 30 pairs\n"),
            "{line}"
        );
        let enough = Pentanomial { counts: [0, 24, 6, 0, 0], games: Tally::default() };
        assert!(sprt_line(&enough, &sprt).ends_with("H0 accepted\n"), "{}", sprt_line(&enough, &sprt));
        let even = Pentanomial { counts: [1, 8, 12, 8, 1], games: Tally::default() };
        assert!(sprt_line(&even, &sprt).ends_with("no verdict yet\n"), "{}", sprt_line(&even, &sprt));
    }
}
