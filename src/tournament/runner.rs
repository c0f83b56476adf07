//! The match itself: checks every setting before the first game, takes the games a resumed PGN
//! already holds (`resume`), plays the rest of the scheduled games (or one shard's share of them)
//! on `concurrency` threads, writes the PGN after each game, reports each game to the caller's
//! `MatchProgress`, stops on an SPRT verdict (not in a shard: the verdict needs every shard's
//! games), and prints the results table.

use std::collections::HashSet;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use super::engine::{self, EngineProcess};
use super::fingerprint::fingerprint;
use super::game::{play_game, GameRecord};
use super::match_config::MatchConfig;
use super::match_error::MatchError;
use super::match_tags::MatchTags;
use super::pairs::{PairCollector, Pentanomial};
use super::pgn_out::{self, GameTags, PgnOutError};
use super::progress::{FinishedGame, MatchProgress};
use super::random_plies::BalanceJudge;
use super::report::{self, Results};
use super::resume::{self, Resumed};
use super::schedule::{self, Job, MAX_SCHEDULED_GAMES};
use super::shard::Shard;
use super::spec::Limit;
use super::stats::{SprtVerdict, Tally};
use crate::notation::Opening;

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

/// Runs the match, reporting each game to `progress` as it ends, and prints the results table
/// (and SPRT line) to `out`. With `--resume` the games of the PGN count and only the missing ones
/// are played.
pub fn run_match(
    config: &MatchConfig,
    out: &mut impl Write,
    progress: &mut dyn MatchProgress,
) -> Result<MatchSummary, MatchError> {
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
    let mut state = match (&config.pgn, config.resume) {
        (Some(path), true) => {
            resume::read_played(&config.engines, path, &pairings, &jobs, &match_tags.settings)?
        }
        _ => Resumed::nothing(pairings.len()),
    };
    // A resumed match whose SPRT had already decided plays no further game: the verdict stands.
    let decided_before = sprt_decided(config, &state.pairs);
    let pending: Vec<Job> = if decided_before {
        Vec::new()
    } else {
        jobs.iter().copied().filter(|j| !state.done.contains(&j.round)).collect()
    };
    progress.started(jobs.len() as u64, state.done.len() as u64, state.tallies[0]);
    let played = play(config, &pairings, &match_tags, &pending, &mut state, progress);
    progress.finished();
    let stopped_early = decided_before || played?;
    let summary = MatchSummary {
        pairings: pairings.iter().copied().zip(state.tallies.iter().copied()).collect(),
        pairs: state.pairs.finished().to_vec(),
        stopped_early,
    };
    write_report(config, &match_tags, jobs.len(), &summary, out).map_err(MatchError::Report)?;
    Ok(summary)
}

/// Whether the SPRT has given its verdict. A shard plays its games to the end: the verdict is the
/// merged shards' to give.
fn sprt_decided(config: &MatchConfig, pairs: &PairCollector) -> bool {
    match (&config.sprt, config.shard) {
        (Some(sprt), None) => pairs.finished()[0].verdict(sprt) != SprtVerdict::Continue,
        _ => false,
    }
}

/// Plays the `pending` games on `config.concurrency` threads, adding each result to `state` and
/// its game to the PGN as it ends, until they are all played or the SPRT decides: whether it
/// did (the games still running are abandoned).
fn play(
    config: &MatchConfig,
    pairings: &[(usize, usize)],
    match_tags: &MatchTags,
    pending: &[Job],
    state: &mut Resumed,
    progress: &mut dyn MatchProgress,
) -> Result<bool, MatchError> {
    let stop = AtomicBool::new(false);
    let mut stopped_early = false;
    let mut failure = None;
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    let (result_tx, result_rx) = crossbeam_channel::unbounded::<(Job, Option<GameRecord>)>();
    for job in pending {
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
            let (red_engine, black_engine) = (&config.engines[job.red], &config.engines[job.black]);
            let (red, black) = (&red_engine.name, &black_engine.name);
            let tally = Tally::of_game(job.red == pairings[job.pairing].0, record.winner);
            state.tallies[job.pairing].add(tally);
            state.pairs.add(job.pairing, job.pair, tally);
            progress.game_finished(&FinishedGame {
                round: job.round,
                red,
                black,
                result: pgn_out::result_token(&record),
                termination: &record.termination,
                first_pairing: state.tallies[0],
            });
            if let Some(path) = &config.pgn {
                let tags = GameTags {
                    red: red_engine,
                    black: black_engine,
                    round: job.round,
                    time_control: config.limits_text(),
                    match_tags,
                };
                let written = pgn_out::game_text(&record, &tags, config.notation).and_then(|text| {
                    state.pgn_text.push_str(&text);
                    state.pgn_text.push('\n');
                    pgn_out::write_file(path, &state.pgn_text)
                });
                if let Err(e) = written {
                    failure = Some(MatchError::Pgn(e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if sprt_decided(config, &state.pairs) {
                stopped_early = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(stopped_early),
    }
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
    use crate::notation::MoveNotation;
    use crate::tournament::game::GameSettings;
    use crate::tournament::spec::EngineSpec;

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
