//! The match itself: checks every setting before the first game, plays the scheduled games (or
//! one shard's share of them) on `concurrency` threads, writes the PGN after each game, shows
//! progress, stops on an SPRT verdict (not in a shard: the verdict needs every shard's games), and
//! prints the results table.

use std::collections::HashSet;
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

use super::engine::{self, EngineProcess, EngineStartError};
use super::fingerprint::fingerprint;
use super::game::{play_game, GameRecord, GameSettings};
use super::match_tags::MatchTags;
use super::pairs::{PairCollector, Pentanomial};
use super::pgn_out::{self, GameTags, PgnOutError, ResumeError};
use super::random_plies::{BalanceJudge, RandomPlies};
use super::report::{self, Results};
use super::schedule::{self, Job};
use super::shard::Shard;
use super::spec::{EngineSpec, Limit, SprtSpec};
use super::stats::{sprt_verdict, SprtVerdict, Tally};
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
    /// Random plies after each opening, drawn anew for each game pair (`None`: the lines as
    /// they are).
    pub random_plies: Option<RandomPlies>,
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
    /// Play only this shard's games; `None` plays the whole match (and lets `sprt` stop it).
    pub shard: Option<Shard>,
    /// Limits, tolerance and adjudication.
    pub settings: GameSettings,
}

impl MatchConfig {
    /// The limits as the report and the PGN's `TimeControl` tag give them: the match's, then
    /// each engine's own (`10+0.1; ee: depth=3`).
    pub fn limits_text(&self) -> String {
        let mut text = self.settings.limit.describe();
        for engine in &self.engines {
            if let Some(own) = engine.limit {
                text.push_str(&format!("; {}: {}", engine.name, own.describe()));
            }
        }
        text
    }
}

/// What a match ended with.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// Per pairing (first engine, second engine) the result from the first's view.
    pub pairings: Vec<((usize, usize), Tally)>,
    /// Per pairing, its finished game pairs (what the SPRT judges).
    pub pairs: Vec<Pentanomial>,
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
    /// More shards than games: some shard would have none.
    ShardsExceedGames {
        /// The `--shard` asked for.
        shard: Shard,
        /// The games of the whole match.
        games: u64,
    },
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
    /// A game of the PGN to resume from was played with other settings than this match's.
    OtherSettings {
        /// Its round.
        round: u32,
        /// Its settings fingerprint.
        found: String,
        /// This match's.
        expected: String,
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
            MatchError::ShardsExceedGames { shard, games } => write!(
                f,
                "--shard {shard}: the match has {games} games, fewer than {} shards, so some shard would have none",
                shard.count()
            ),
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
            MatchError::OtherSettings { round, found, expected, path } => write!(
                f,
                "cannot resume: game {round} in {} was played with other settings (fingerprint {found}, \
                 this match's is {expected}): the engines' names, programs (by their contents) or options, the \
                 openings, the limits or the adjudication differ; give the first run's options and programs \
                 again, or start a new --pgn",
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

/// Whether the match asks for more games than its openings can make distinct: every engine
/// under a node or depth limit (so the same position gives the same game) and no random plies.
fn replays_games(config: &MatchConfig) -> bool {
    let fixed = |limit: Limit| matches!(limit, Limit::Nodes(_) | Limit::Depth(_));
    config.random_plies.is_none()
        && config.engines.iter().all(|e| fixed(e.limit_or(config.settings.limit)))
        && u64::from(config.games) > 2 * config.openings.len() as u64
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
    if let Some(shard) = config.shard {
        if u64::from(shard.count()) > scheduled {
            return Err(MatchError::ShardsExceedGames { shard, games: scheduled });
        }
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
    if replays_games(config) {
        eprintln!(
            "note: {} games a pairing from {} opening{} under fixed nodes or depth: engines that \
             search alike every time replay the same {} games; --random-plies 2 gives each pair \
             an opening of its own",
            config.games,
            config.openings.len(),
            if config.openings.len() == 1 { "" } else { "s" },
            2 * config.openings.len()
        );
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

/// Runs the match and prints the results table (and SPRT line) to `out`.
pub fn run_match(config: &MatchConfig, out: &mut impl Write) -> Result<MatchSummary, MatchError> {
    check(config)?;
    let pairings = schedule::pairings(config.engines.len(), config.gauntlet);
    let all_jobs = schedule::jobs(&pairings, config.games, config.openings.len());
    let shard = config.shard.unwrap_or(Shard::WHOLE);
    let match_tags = MatchTags {
        // `check` bounds the games far below u32::MAX.
        games: all_jobs.len() as u32,
        settings: fingerprint(config),
        engines: config.engines.iter().map(|e| e.name.clone()).collect(),
        gauntlet: config.gauntlet,
        shard,
        sprt: config.sprt,
    };
    let jobs: Vec<Job> = all_jobs.into_iter().filter(|j| shard.contains(j.round)).collect();
    let mut tallies = vec![Tally::default(); pairings.len()];
    let mut pairs = PairCollector::new(pairings.len());
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
            // A game of a smaller match that a larger `--games` extended has the same settings.
            if let Some(found) = game.settings.filter(|found| *found != match_tags.settings) {
                return Err(MatchError::OtherSettings {
                    round: game.round,
                    found,
                    expected: match_tags.settings.clone(),
                    path: path.clone(),
                });
            }
            // `played_games` took only finished games.
            let winner = pgn_out::result_winner(&game.result).unwrap_or(None);
            if done.insert(job.round) {
                let game = Tally::of_game(job.red == pairings[job.pairing].0, winner);
                tallies[job.pairing].add(game);
                pairs.add(job.pairing, job.pair, game);
            }
        }
        if !pgn_text.is_empty() && !pgn_text.ends_with("\n\n") {
            pgn_text.push('\n');
        }
    }
    // Whether the SPRT has given its verdict. A shard plays its games to the end: the verdict is
    // the merged shards' to give.
    let decided = |pairs: &PairCollector| match (&config.sprt, config.shard) {
        (Some(sprt), None) => sprt_verdict(pairs.finished()[0].llr(sprt), sprt) != SprtVerdict::Continue,
        _ => false,
    };
    // A resumed match whose SPRT had already decided plays no further game: the verdict stands.
    let decided_before = decided(&pairs);
    let pending: Vec<Job> = if decided_before {
        Vec::new()
    } else {
        jobs.iter().copied().filter(|j| !done.contains(&j.round)).collect()
    };
    let bar = ProgressBar::new(jobs.len() as u64).with_position(done.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_message(report::progress_line(&tallies[0]));
    let stop = AtomicBool::new(false);
    let mut stopped_early = decided_before;
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
                let mut random_plies = config.random_plies.map(|r| (r, BalanceJudge::new()));
                while let Ok(job) = job_rx.recv() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let specs = [&config.engines[job.red], &config.engines[job.black]];
                    let mut opening =
                        config.openings.get(job.opening).cloned().unwrap_or_else(Opening::startpos);
                    if let Some((random, judge)) = random_plies.as_mut() {
                        opening = random.opening(&opening, job.pair, judge);
                    }
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
            let tally = Tally::of_game(job.red == pairings[job.pairing].0, record.winner);
            tallies[job.pairing].add(tally);
            pairs.add(job.pairing, job.pair, tally);
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
                let tags = GameTags {
                    red,
                    black,
                    round: job.round,
                    time_control: config.limits_text(),
                    match_tags: &match_tags,
                };
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
            if decided(&pairs) {
                stopped_early = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    let summary = MatchSummary {
        pairings: pairings.iter().copied().zip(tallies.iter().copied()).collect(),
        pairs: pairs.finished().to_vec(),
        stopped_early,
    };
    write_report(config, &match_tags, jobs.len(), &summary, out).map_err(MatchError::Report)?;
    Ok(summary)
}

/// The results table; for a shard, which share of the match it was and where its result goes.
fn write_report(
    config: &MatchConfig,
    match_tags: &MatchTags,
    played: usize,
    summary: &MatchSummary,
    out: &mut impl Write,
) -> io::Result<()> {
    let limit = config.limits_text();
    let results = Results {
        engines: &match_tags.engines,
        limit: &limit,
        pairings: &summary.pairings,
        pairs: &summary.pairs,
        // One shard's games cannot judge the test.
        sprt: if config.shard.is_some() { None } else { config.sprt.as_ref() },
        stopped_early: summary.stopped_early,
    };
    report::write_results(out, &results)?;
    if let Some(shard) = config.shard {
        writeln!(
            out,
            "shard {shard}: {played} of the match's {} games; `chariot match report` merges the shards' PGNs",
            match_tags.games
        )?;
        if config.sprt.is_some() {
            writeln!(
                out,
                "SPRT: no verdict from one shard; `chariot match report` gives it for all of them"
            )?;
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
            random_plies: None,
            concurrency: 1,
            pgn: None,
            notation: MoveNotation::Iccs,
            sprt: None,
            resume: false,
            shard: None,
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

    #[test]
    fn more_shards_than_games_are_refused_before_any_engine_starts() {
        // Three engines, two games per pairing: six games.
        let mut c = config(3, false, 2);
        c.shard = Some(Shard::new(1, 7).unwrap());
        let e = check(&c).unwrap_err().to_string();
        assert_eq!(
            e,
            "--shard 1/7: the match has 6 games, fewer than 7 shards, so some shard would have none"
        );
        // Six shards of six games pass (the missing engine is found next).
        c.shard = Some(Shard::new(6, 6).unwrap());
        assert!(check(&c).unwrap_err().to_string().contains("no such file /no/such/engine"));
    }
}
