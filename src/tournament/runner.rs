//! The match itself: checks every setting before the first game, plays the scheduled games on
//! `concurrency` threads, writes the PGN after each game, shows progress, stops on an SPRT
//! verdict, and prints the results table.

use std::collections::HashSet;
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

use super::engine::{self, EngineProcess, EngineStartError};
use super::game::{play_game, GameRecord, GameSettings};
use super::pgn_out::{self, GameTags, PgnOutError, ResumeError};
use super::report;
use super::schedule::{self, Job};
use super::spec::{EngineSpec, SprtSpec};
use super::stats::{sprt_verdict, SprtVerdict, Tally};
use crate::board::Color;
use crate::input_file::{self, InputError};
use crate::notation::Opening;
use crate::notation::{pgn, MoveNotation};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines.
    pub engines: Vec<EngineSpec>,
    /// The first engine against each other one, instead of a round robin.
    pub gauntlet: bool,
    /// Games per pairing.
    pub games: u32,
    /// The openings, each played twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where the PGN goes.
    pub pgn: Option<PathBuf>,
    /// The PGN's move notation.
    pub notation: MoveNotation,
    /// Stop when this test reaches a verdict (two engines only).
    pub sprt: Option<SprtSpec>,
    /// Continue the match recorded in `pgn`.
    pub resume: bool,
    /// Limits, tolerance and adjudication.
    pub settings: GameSettings,
}

/// What a match ended with.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// Per pairing (first engine, second engine) the result from the first's view.
    pub pairings: Vec<((usize, usize), Tally)>,
    /// Whether an SPRT verdict stopped the match before its last game.
    pub stopped_early: bool,
}

/// The most games a match may schedule (all pairings together).
pub const MAX_SCHEDULED_GAMES: u64 = 1_000_000;

/// Why a match did not run, or stopped before its end.
#[derive(Debug)]
pub enum MatchError {
    /// Fewer than two engines.
    TooFewEngines,
    /// Two engines share a name.
    DuplicateNames,
    /// `--games` or `--concurrency` is 0.
    NoGames,
    /// More than `MAX_SCHEDULED_GAMES` scheduled games.
    TooManyGames {
        /// Games per pairing.
        games: u32,
        /// Pairings.
        pairings: u64,
        /// Their product.
        scheduled: u64,
    },
    /// `--sprt` with other than one pairing.
    SprtNeedsTwoEngines,
    /// `--resume` without `--pgn`.
    ResumeWithoutPgn,
    /// The `--pgn` file exists and `--resume` was not given.
    PgnExists {
        /// The file.
        path: PathBuf,
    },
    /// `--resume` of a `--pgn` file that does not exist.
    NothingToResume {
        /// The file.
        path: PathBuf,
    },
    /// The PGN cannot be written (checked before the first game, or after a game).
    Pgn(PgnOutError),
    /// An engine did not start and answer its handshake on its trial start.
    Engine(EngineStartError),
    /// The PGN to resume from could not be read.
    ReadResume {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InputError,
    },
    /// The PGN to resume from holds games that cannot be resumed.
    Resume(ResumeError),
    /// A game of the PGN to resume from is not in this match's schedule.
    NotInSchedule {
        /// Its round.
        round: u32,
        /// Its Red engine.
        red: String,
        /// Its Black engine.
        black: String,
        /// The file.
        path: PathBuf,
    },
    /// The results table could not be written.
    Report(io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::TooFewEngines => write!(f, "a match needs at least two --engine"),
            MatchError::DuplicateNames => write!(f, "two engines have the same name: give each a distinct name="),
            MatchError::NoGames => write!(f, "--games and --concurrency must be at least 1"),
            MatchError::TooManyGames { games, pairings, scheduled } => write!(
                f,
                "{games} games per pairing over {pairings} pairings make {scheduled} games; at most {MAX_SCHEDULED_GAMES}"
            ),
            MatchError::SprtNeedsTwoEngines => write!(f, "--sprt needs exactly two engines"),
            MatchError::ResumeWithoutPgn => write!(f, "--resume needs --pgn FILE"),
            MatchError::PgnExists { path } => {
                write!(f, "{} exists: add --resume to continue that match, or remove it", path.display())
            }
            MatchError::NothingToResume { path } => write!(f, "cannot resume: {} does not exist", path.display()),
            MatchError::Pgn(e) => write!(f, "{e}"),
            MatchError::Engine(e) => write!(f, "{e}"),
            MatchError::ReadResume { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            MatchError::Resume(e) => write!(f, "{e}"),
            MatchError::NotInSchedule { round, red, black, path } => write!(
                f,
                "cannot resume: game {round} ({red} - {black}) in {} is not in this match's schedule",
                path.display()
            ),
            MatchError::Report(e) => write!(f, "cannot write the results: {e}"),
        }
    }
}

/// No `source`: the message already holds the cause's.
impl std::error::Error for MatchError {}

impl From<PgnOutError> for MatchError {
    fn from(e: PgnOutError) -> MatchError {
        MatchError::Pgn(e)
    }
}

impl From<EngineStartError> for MatchError {
    fn from(e: EngineStartError) -> MatchError {
        MatchError::Engine(e)
    }
}

impl From<ResumeError> for MatchError {
    fn from(e: ResumeError) -> MatchError {
        MatchError::Resume(e)
    }
}

/// Refuses a configuration that cannot run, before any game: too few engines, duplicate names,
/// too many games, SPRT with more than one pairing, a PGN to overwrite, missing for `--resume` or
/// that cannot be written, and every engine that does not start and answer its handshake.
pub fn check(config: &MatchConfig) -> Result<(), MatchError> {
    if config.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    let names: HashSet<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    if names.len() != config.engines.len() {
        return Err(MatchError::DuplicateNames);
    }
    if config.games == 0 || config.concurrency == 0 {
        return Err(MatchError::NoGames);
    }
    let pairings = schedule::pairing_count(config.engines.len(), config.gauntlet);
    let scheduled = pairings * u64::from(config.games);
    if scheduled > MAX_SCHEDULED_GAMES {
        return Err(MatchError::TooManyGames { games: config.games, pairings, scheduled });
    }
    if config.sprt.is_some() && pairings != 1 {
        return Err(MatchError::SprtNeedsTwoEngines);
    }
    if let Some(p) = &config.pgn {
        if p.is_dir() {
            return Err(PgnOutError::IsDirectory { path: p.clone() }.into());
        }
    }
    match (&config.pgn, config.resume) {
        (None, true) => return Err(MatchError::ResumeWithoutPgn),
        (Some(p), false) if p.exists() => return Err(MatchError::PgnExists { path: p.clone() }),
        (Some(p), true) if !p.exists() => return Err(MatchError::NothingToResume { path: p.clone() }),
        _ => {}
    }
    if let Some(p) = &config.pgn {
        pgn_out::check_writable(p)?;
    }
    let wdl = config.settings.uses_wdl();
    for spec in &config.engines {
        // A trial start catches a wrong path, a wrong protocol or a broken engine up front.
        let engine = EngineProcess::start(spec, config.settings.handshake_timeout, wdl)?;
        let user_sets_wdl = spec.options.iter().any(|(name, _)| engine::is_wdl_option(name));
        if wdl && !engine.offers_wdl() && !user_sets_wdl {
            eprintln!(
                "note: engine '{}' offers no UCI_ShowWDL or showwdl option: unless it prints \
                 `wdl W D L` of its own accord, the wdl= rules never fire in its games",
                spec.name
            );
        }
    }
    Ok(())
}

/// The result of a game from the first engine of its pairing's view.
fn tally_for(first_is_red: bool, winner: Option<Color>) -> Tally {
    let first_won = match winner {
        None => return Tally { wins: 0, draws: 1, losses: 0 },
        Some(Color::Red) => first_is_red,
        Some(Color::Black) => !first_is_red,
    };
    if first_won {
        Tally { wins: 1, draws: 0, losses: 0 }
    } else {
        Tally { wins: 0, draws: 0, losses: 1 }
    }
}

/// Runs the match and prints the results table (and SPRT line) to `out`.
pub fn run_match(config: &MatchConfig, out: &mut impl Write) -> Result<MatchSummary, MatchError> {
    check(config)?;
    let pairings = schedule::pairings(config.engines.len(), config.gauntlet);
    let jobs = schedule::jobs(&pairings, config.games, config.openings.len());
    let mut tallies = vec![Tally::default(); pairings.len()];
    let mut pgn_text = String::new();
    let mut done = HashSet::new();
    if let (Some(path), true) = (&config.pgn, config.resume) {
        pgn_text = input_file::read_text(path, pgn::FILE_LIMIT)
            .map_err(|error| MatchError::ReadResume { path: path.clone(), error })?;
        for game in pgn_out::played_games(&pgn_text, path)? {
            let job = jobs.iter().find(|j| {
                j.round == game.round
                    && config.engines[j.red].name == game.red
                    && config.engines[j.black].name == game.black
            });
            let Some(job) = job else {
                return Err(MatchError::NotInSchedule {
                    round: game.round,
                    red: game.red,
                    black: game.black,
                    path: path.clone(),
                });
            };
            let winner = match game.result.as_str() {
                "1-0" => Some(Color::Red),
                "0-1" => Some(Color::Black),
                _ => None,
            };
            if done.insert(job.round) {
                tallies[job.pairing].add(tally_for(job.red == pairings[job.pairing].0, winner));
            }
        }
        if !pgn_text.is_empty() && !pgn_text.ends_with("\n\n") {
            pgn_text.push('\n');
        }
    }
    let pending: Vec<Job> = jobs.iter().copied().filter(|j| !done.contains(&j.round)).collect();
    let bar = ProgressBar::new(jobs.len() as u64).with_position(done.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_message(report::progress_line(&tallies[0]));
    let stop = AtomicBool::new(false);
    let mut stopped_early = false;
    let mut failure = None;
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    let (result_tx, result_rx) = crossbeam_channel::unbounded::<(Job, Option<GameRecord>)>();
    for job in &pending {
        let _ = job_tx.send(*job);
    }
    drop(job_tx);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(pending.len()) {
            let (job_rx, result_tx, stop) = (job_rx.clone(), result_tx.clone(), &stop);
            scope.spawn(move || {
                while let Ok(job) = job_rx.recv() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let specs = [&config.engines[job.red], &config.engines[job.black]];
                    let opening = config.openings.get(job.opening).cloned().unwrap_or_else(Opening::startpos);
                    let record = play_game(specs, &opening, &config.settings, stop);
                    if result_tx.send((job, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(result_tx);
        for (job, record) in result_rx.iter() {
            let Some(record) = record else { continue };
            if failure.is_some() || stopped_early {
                continue;
            }
            let (red, black) = (&config.engines[job.red].name, &config.engines[job.black].name);
            let tally = tally_for(job.red == pairings[job.pairing].0, record.winner);
            tallies[job.pairing].add(tally);
            let line = format!(
                "game {} {red} - {black}: {} ({})",
                job.round,
                pgn_out::result_token(&record),
                record.termination
            );
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
            bar.inc(1);
            bar.set_message(report::progress_line(&tallies[0]));
            if let Some(path) = &config.pgn {
                let tags =
                    GameTags { red, black, round: job.round, time_control: config.settings.limit.describe() };
                let written = pgn_out::game_text(&record, &tags, config.notation).and_then(|text| {
                    pgn_text.push_str(&text);
                    pgn_text.push('\n');
                    pgn_out::write_file(path, &pgn_text)
                });
                if let Err(e) = written {
                    failure = Some(MatchError::Pgn(e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(sprt) = &config.sprt {
                if sprt_verdict(tallies[0].llr(sprt), sprt) != SprtVerdict::Continue {
                    stopped_early = true;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    let summary = MatchSummary {
        pairings: pairings.iter().copied().zip(tallies.iter().copied()).collect(),
        stopped_early,
    };
    write_report(config, &summary, out).map_err(MatchError::Report)?;
    Ok(summary)
}

/// The results table: one row per pairing, then with three or more engines one per engine
/// against the field; the SPRT line when asked for.
fn write_report(config: &MatchConfig, summary: &MatchSummary, out: &mut impl Write) -> std::io::Result<()> {
    let name = |i: usize| config.engines[i].name.as_str();
    let mut rows: Vec<(String, Tally)> =
        summary.pairings.iter().map(|&((a, b), t)| (format!("{} vs {}", name(a), name(b)), t)).collect();
    if config.engines.len() > 2 {
        for (i, spec) in config.engines.iter().enumerate() {
            let mut total = Tally::default();
            for &((a, b), t) in &summary.pairings {
                if a == i {
                    total.add(t);
                } else if b == i {
                    total.add(t.flipped());
                }
            }
            rows.push((format!("{} vs field", spec.name), total));
        }
    }
    writeln!(
        out,
        "Results ({}; Elo by the logistic model, 95% error from the win/draw/loss variance):",
        config.settings.limit.describe()
    )?;
    write!(out, "{}", report::table(&rows))?;
    if let Some(sprt) = &config.sprt {
        write!(out, "{}", report::sprt_line(&summary.pairings[0].1, sprt))?;
        if summary.stopped_early {
            writeln!(out, "stopped early on the SPRT verdict")?;
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::tournament::spec::Limit;

    fn config(engines: usize, gauntlet: bool, games: u32) -> MatchConfig {
        MatchConfig {
            engines: (0..engines)
                .map(|i| EngineSpec::parse(&format!("name=e{i},cmd=/no/such/engine")).unwrap())
                .collect(),
            gauntlet,
            games,
            openings: vec![Opening::startpos()],
            concurrency: 1,
            pgn: None,
            notation: MoveNotation::Iccs,
            sprt: None,
            resume: false,
            settings: GameSettings {
                limit: Limit::Depth(1),
                tolerance_ms: 0,
                move_timeout: Duration::from_secs(1),
                handshake_timeout: Duration::from_secs(1),
                draw: None,
                resign: None,
            },
        }
    }

    #[test]
    fn too_many_games_are_refused_before_any_engine_starts() {
        // Ten pairings of 100,000 games: a million, allowed (the missing engine is found next).
        let e = check(&config(11, true, 100_000)).unwrap_err().to_string();
        assert!(e.contains("no such file /no/such/engine"), "{e}");
        let e = check(&config(12, true, 100_000)).unwrap_err().to_string();
        assert_eq!(e, "100000 games per pairing over 11 pairings make 1100000 games; at most 1000000");
        // 1415 engines in a round robin make 1,000,405 pairings.
        let e = check(&config(1415, false, 1)).unwrap_err().to_string();
        assert!(e.contains("make 1000405 games"), "{e}");
    }
}
