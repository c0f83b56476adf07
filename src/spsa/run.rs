//! A tuning run: checks that the engine takes the parameters, then plays the iterations' game
//! pairs on `concurrency` threads, applies each pair's result as it ends (fishtest's
//! asynchronous SPSA: a pair begun before another ended plays the values of its own start), and
//! rewrites the state file after each.
//!
//! A stopped run resumes from its state file with the same settings (the fingerprint checks
//! them). The pairs that were still playing are played again under the next iteration numbers,
//! so a run always applies exactly `iterations` results.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use super::gains::Gains;
use super::param::ParamSpec;
use super::state::{SavedRun, StateError};
use super::tuner::{Trial, Tuner};
use crate::binary::fnv1a64;
use crate::board::Color;
use crate::notation::{MoveNotation, Opening};
use crate::tournament::engine::EngineProcess;
use crate::tournament::fingerprint::fingerprint;
use crate::tournament::random_plies::BalanceJudge;
use crate::tournament::{
    play_game, EngineSpec, EngineStartError, GameRecord, GameSettings, MatchConfig, RandomPlies,
};

/// Everything a tuning run needs.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The engine, both sides of every pair; its own options are set before the tuned ones.
    pub engine: EngineSpec,
    /// The parameters to tune.
    pub params: Vec<ParamSpec>,
    /// `Some(option)`: the values go in that one option as `name=value name=value …` (Chariot's
    /// `tune`), after any value the engine spec gives it. `None`: each parameter is an option.
    pub tune_option: Option<String>,
    /// Game pairs to play.
    pub iterations: u32,
    /// Seed of the directions.
    pub seed: u64,
    /// Openings, one a pair in turn.
    pub openings: Vec<Opening>,
    /// Random plies after each opening, drawn anew for each pair.
    pub random_plies: Option<RandomPlies>,
    /// Games at once.
    pub concurrency: usize,
    /// Limits, tolerance and adjudication of every game.
    pub settings: GameSettings,
    /// The state file.
    pub state: PathBuf,
    /// Continue the run the state file holds (otherwise it must not exist).
    pub resume: bool,
    /// A line per pair is added to this file: iteration, result, endings, values.
    pub log: Option<PathBuf>,
}

/// Why a run did not start or stopped.
#[derive(Debug)]
pub enum SpsaError {
    /// The state file exists and `--resume` was not given.
    Exists(PathBuf),
    /// `--resume` without a state file.
    NothingToResume(PathBuf),
    /// The state file could not be read or written.
    State(StateError),
    /// The state file is another run's.
    OtherRun {
        /// The file.
        path: PathBuf,
        /// What differs, in words.
        what: String,
    },
    /// The engine did not start with the parameters at one end of their ranges.
    Engine {
        /// Which end: `least` or `greatest`.
        end: &'static str,
        /// Why.
        cause: EngineStartError,
    },
    /// The engine declares no option of this name.
    NoSuchOption(String),
    /// The engine answered the options with a complaint.
    Refused {
        /// Which end of the ranges it was given: `least` or `greatest`.
        end: &'static str,
        /// Its line.
        line: String,
    },
    /// The log could not be written.
    Log {
        /// The file.
        path: PathBuf,
        /// The system's error.
        cause: io::Error,
    },
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::Exists(path) => {
                write!(f, "{} exists: --resume continues its run, or name another state file", path.display())
            }
            SpsaError::NothingToResume(path) => write!(f, "--resume: {} does not exist", path.display()),
            SpsaError::State(e) => write!(f, "{e}"),
            SpsaError::OtherRun { path, what } => write!(
                f,
                "{} holds another run ({what}): resume it with its own settings, or name another state file",
                path.display()
            ),
            SpsaError::Engine { end, cause } => {
                write!(f, "the engine with every parameter at its {end} value: {cause}")
            }
            SpsaError::NoSuchOption(name) => write!(f, "the engine declares no option '{name}'"),
            SpsaError::Refused { end, line } => {
                write!(f, "the engine refused the parameters at their {end} values: {line}")
            }
            SpsaError::Log { path, cause } => write!(f, "cannot write {}: {cause}", path.display()),
        }
    }
}

impl std::error::Error for SpsaError {}

impl From<StateError> for SpsaError {
    fn from(e: StateError) -> Self {
        SpsaError::State(e)
    }
}

/// One pair as it ended.
#[derive(Clone, Debug)]
pub struct FinishedPair<'a> {
    /// Its iteration number.
    pub iteration: u32,
    /// Pairs applied so far, this one included.
    pub done: u32,
    /// The `+` side's wins less its losses.
    pub result: i32,
    /// How its two games ended (the `+` side had Red in the first).
    pub endings: [&'a str; 2],
    /// The tuned values after it.
    pub values: &'a [f64],
}

/// Watches a run.
pub trait SpsaProgress {
    /// The run starts: its iterations, and those already done.
    fn started(&mut self, iterations: u32, done: u32);
    /// A pair ended and its result was applied.
    fn pair_finished(&mut self, pair: &FinishedPair<'_>);
    /// The run ended.
    fn finished(&mut self);
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaSummary {
    /// The parameters.
    pub params: Vec<ParamSpec>,
    /// Their tuned values.
    pub values: Vec<f64>,
    /// The `+` sides' wins, draws and losses over the whole run.
    pub games: [u64; 3],
    /// Pairs played.
    pub done: u32,
}

impl SpsaSummary {
    /// The tuned values as whole numbers in the tune option's form: `a=1 b=2`.
    pub fn tune_list(&self) -> String {
        self.params
            .iter()
            .zip(&self.values)
            .map(|(p, v)| format!("{}={}", p.name, v.round() as i64))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The fingerprint of everything that decides the run's games and updates.
pub fn settings_fingerprint(config: &SpsaConfig) -> String {
    let games = MatchConfig {
        engines: vec![config.engine.clone()],
        gauntlet: false,
        games: 0,
        openings: config.openings.clone(),
        random_plies: config.random_plies,
        concurrency: 1,
        pgn: None,
        notation: MoveNotation::Iccs,
        sprt: None,
        resume: false,
        shard: None,
        settings: config.settings.clone(),
    };
    let mut text = format!(
        "chariot spsa settings 1\n{}\n{:?}\n{}\n{}\n",
        fingerprint(&games),
        config.tune_option,
        config.iterations,
        config.seed
    );
    for p in &config.params {
        text.push_str(&format!(
            "{} {:?} {:?} {:?} {:?} {:?}\n",
            p.name, p.start, p.min, p.max, p.c_end, p.r_end
        ));
    }
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// The engine playing `values`, named `name`.
fn side(config: &SpsaConfig, name: &str, values: &[i64]) -> EngineSpec {
    let mut spec = config.engine.clone();
    spec.name = name.to_string();
    match &config.tune_option {
        Some(option) => {
            let mut list: Vec<String> = Vec::new();
            // The spec's own value of the option first: later names win in the list.
            if let Some(place) = spec.options.iter().position(|(n, _)| n.eq_ignore_ascii_case(option)) {
                list.push(spec.options.remove(place).1);
            }
            list.extend(config.params.iter().zip(values).map(|(p, v)| format!("{}={v}", p.name)));
            spec.options.push((option.clone(), list.join(" ")));
        }
        None => spec
            .options
            .extend(config.params.iter().zip(values).map(|(p, v)| (p.name.clone(), v.to_string()))),
    }
    spec
}

/// Whether an engine's line after its options were set says it refused one.
fn is_complaint(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["error", "no such option", "unknown option", "invalid"].iter().any(|word| lower.contains(word))
}

/// Starts the engine with every parameter at its least and then its greatest value, and
/// refuses the run when it does not start, lacks an option, or complains.
pub fn check_engine(config: &SpsaConfig) -> Result<(), SpsaError> {
    let ends: [(&'static str, Vec<i64>); 2] = [
        ("least", config.params.iter().map(|p| p.min.round() as i64).collect()),
        ("greatest", config.params.iter().map(|p| p.max.round() as i64).collect()),
    ];
    for (end, values) in ends {
        let spec = side(config, "check", &values);
        let mut engine = EngineProcess::start(&spec, config.settings.handshake_timeout, false)
            .map_err(|cause| SpsaError::Engine { end, cause })?;
        let wanted: Vec<&str> = match &config.tune_option {
            Some(option) => vec![option.as_str()],
            None => config.params.iter().map(|p| p.name.as_str()).collect(),
        };
        let declared = engine.declared_options();
        let missing = wanted.iter().find(|w| !declared.iter().any(|d| d.eq_ignore_ascii_case(w)));
        let complaint = engine.option_replies().iter().find(|line| is_complaint(line)).cloned();
        engine.kill();
        if let Some(name) = missing {
            return Err(SpsaError::NoSuchOption(name.to_string()));
        }
        if let Some(line) = complaint {
            return Err(SpsaError::Refused { end, line });
        }
    }
    Ok(())
}

/// The saved run to continue, or a fresh one; refuses a state file of other settings.
fn starting_point(config: &SpsaConfig, settings: &str) -> Result<SavedRun, SpsaError> {
    let exists = config.state.try_exists().unwrap_or(true);
    match (config.resume, exists) {
        (false, true) => return Err(SpsaError::Exists(config.state.clone())),
        (true, false) => return Err(SpsaError::NothingToResume(config.state.clone())),
        (false, false) => {
            return Ok(SavedRun {
                settings: settings.to_string(),
                iterations: config.iterations,
                done: 0,
                games: [0; 3],
                values: config.params.iter().map(|p| (p.name.clone(), p.start)).collect(),
            })
        }
        (true, true) => {}
    }
    let saved = SavedRun::load(&config.state)?;
    let other = |what: String| SpsaError::OtherRun { path: config.state.clone(), what };
    let names: Vec<&str> = saved.values.iter().map(|(n, _)| n.as_str()).collect();
    let wanted: Vec<&str> = config.params.iter().map(|p| p.name.as_str()).collect();
    if names != wanted {
        return Err(other(format!("its parameters are {}", names.join(", "))));
    }
    if saved.iterations != config.iterations {
        return Err(other(format!("{} iterations", saved.iterations)));
    }
    if saved.settings != settings {
        return Err(other(format!(
            "settings {}, not {settings}: another engine, limit, opening, seed or parameter range",
            saved.settings
        )));
    }
    Ok(saved)
}

/// The `+` side's wins less its losses over a pair, and the pair's tally of its wins, draws and
/// losses; the `+` side had Red in the first game.
fn pair_outcome(games: &[GameRecord; 2]) -> (i32, [u64; 3]) {
    let mut result = 0;
    let mut tally = [0; 3];
    for (game, plus) in games.iter().zip([Color::Red, Color::Black]) {
        match game.winner {
            Some(winner) if winner == plus => {
                result += 1;
                tally[0] += 1;
            }
            Some(_) => {
                result -= 1;
                tally[2] += 1;
            }
            None => tally[1] += 1,
        }
    }
    (result, tally)
}

/// Plays the run (or what is left of it), reporting to `progress`; the state file holds every
/// applied pair.
pub fn run_spsa(config: &SpsaConfig, progress: &mut dyn SpsaProgress) -> Result<SpsaSummary, SpsaError> {
    let settings = settings_fingerprint(config);
    let mut saved = starting_point(config, &settings)?;
    check_engine(config)?;
    let values: Vec<f64> = saved.values.iter().map(|(_, v)| *v).collect();
    let mut tuner =
        Tuner::new(config.params.clone(), Gains::new(config.iterations), config.seed).with_values(&values);
    let mut log = match &config.log {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|cause| SpsaError::Log { path: path.clone(), cause })?,
        ),
        None => None,
    };
    if !config.resume {
        saved.save(&config.state)?;
    }
    progress.started(config.iterations, saved.done);
    let stop = AtomicBool::new(false);
    let (trial_tx, trial_rx) = crossbeam_channel::unbounded::<Trial>();
    let (pair_tx, pair_rx) = crossbeam_channel::unbounded::<(Trial, Option<[GameRecord; 2]>)>();
    let mut next = saved.done;
    let mut failure = None;
    let workers = config.concurrency.max(1).min((config.iterations - saved.done) as usize);
    for _ in 0..workers {
        let _ = trial_tx.send(tuner.trial(next));
        next += 1;
    }
    // Dropped once every iteration is handed out (or the run fails): the idle workers then leave.
    let mut trial_tx = (next < config.iterations).then_some(trial_tx);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (trial_rx, pair_tx, stop) = (trial_rx.clone(), pair_tx.clone(), &stop);
            scope.spawn(move || {
                let mut judge = config.random_plies.map(|r| (r, BalanceJudge::new()));
                while let Ok(trial) = trial_rx.recv() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let games = play_pair(config, &trial, judge.as_mut(), stop);
                    if pair_tx.send((trial, games)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(pair_tx);
        for (trial, games) in pair_rx.iter() {
            let Some(games) = games else { continue };
            if failure.is_some() {
                continue;
            }
            let (result, tally) = pair_outcome(&games);
            tuner.apply(&trial, result);
            saved.done += 1;
            for (total, n) in saved.games.iter_mut().zip(tally) {
                *total += n;
            }
            saved.values =
                config.params.iter().map(|p| p.name.clone()).zip(tuner.values().iter().copied()).collect();
            let written = saved.save(&config.state).map_err(SpsaError::from).and_then(|()| {
                match (&mut log, &config.log) {
                    (Some(file), Some(path)) => log_line(file, &trial, result, &games, tuner.values())
                        .map_err(|cause| SpsaError::Log { path: path.clone(), cause }),
                    _ => Ok(()),
                }
            });
            if let Err(e) = written {
                failure = Some(e);
                stop.store(true, Ordering::Relaxed);
                trial_tx = None;
                continue;
            }
            progress.pair_finished(&FinishedPair {
                iteration: trial.iteration,
                done: saved.done,
                result,
                endings: [&games[0].termination, &games[1].termination],
                values: tuner.values(),
            });
            if let Some(tx) = &trial_tx {
                let _ = tx.send(tuner.trial(next));
                next += 1;
                if next >= config.iterations {
                    trial_tx = None;
                }
            }
        }
    });
    progress.finished();
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(SpsaSummary {
        params: config.params.clone(),
        values: tuner.values().to_vec(),
        games: saved.games,
        done: saved.done,
    })
}

/// Plays `trial`'s two games from its opening, the `+` side with Red first; `None` when `stop`
/// ended one.
fn play_pair(
    config: &SpsaConfig,
    trial: &Trial,
    judge: Option<&mut (RandomPlies, BalanceJudge)>,
    stop: &AtomicBool,
) -> Option<[GameRecord; 2]> {
    let (plus, minus) = (side(config, "plus", &trial.plus), side(config, "minus", &trial.minus));
    let line = match config.openings.len() {
        0 => Opening::startpos(),
        n => config.openings[trial.iteration as usize % n].clone(),
    };
    let opening = match judge {
        Some((random, judge)) => random.opening(&line, trial.iteration, judge),
        None => line,
    };
    let first = play_game([&plus, &minus], &opening, &config.settings, stop)?;
    let second = play_game([&minus, &plus], &opening, &config.settings, stop)?;
    Some([first, second])
}

/// The log's line for a pair: its iteration, result, the two endings and the values after it.
fn log_line(
    file: &mut impl Write,
    trial: &Trial,
    result: i32,
    games: &[GameRecord; 2],
    values: &[f64],
) -> io::Result<()> {
    let values: Vec<String> = values.iter().map(|v| format!("{v:.3}")).collect();
    writeln!(
        file,
        "{} {result:+} {} | {} | {}",
        trial.iteration,
        games[0].termination,
        games[1].termination,
        values.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Limit;
    use std::time::Duration;

    fn config(tune_option: Option<&str>, options: &[(&str, &str)]) -> SpsaConfig {
        let mut engine = EngineSpec::parse("name=e,cmd=chariot").unwrap();
        engine.options = options.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        SpsaConfig {
            engine,
            params: ParamSpec::parse_all(&["a=1,0,9,1".into(), "b=5,0,9,1".into()]).unwrap(),
            tune_option: tune_option.map(str::to_string),
            iterations: 10,
            seed: 1,
            openings: vec![Opening::startpos()],
            random_plies: None,
            concurrency: 1,
            settings: GameSettings {
                limit: Limit::parse_nodes("1000").unwrap(),
                tolerance_ms: 100,
                move_timeout: Duration::from_secs(5),
                handshake_timeout: Duration::from_secs(5),
                draw: None,
                resign: None,
            },
            state: "s.spsa".into(),
            resume: false,
            log: None,
        }
    }

    #[test]
    fn each_side_gets_its_values_as_options_or_in_the_tune_list_after_the_engines_own() {
        let own = side(&config(None, &[("Hash", "16")]), "plus", &[2, 7]);
        assert_eq!(own.name, "plus");
        assert_eq!(
            own.options,
            [("Hash".into(), "16".into()), ("a".into(), "2".into()), ("b".into(), "7".into())]
        );
        let listed = side(&config(Some("tune"), &[("Tune", "lmr_cut=0"), ("Hash", "16")]), "minus", &[0, 9]);
        assert_eq!(
            listed.options,
            [("Hash".into(), "16".into()), ("tune".into(), "lmr_cut=0 a=0 b=9".into())]
        );
        let alone = side(&config(Some("tune"), &[]), "minus", &[3, 4]);
        assert_eq!(alone.options, [("tune".into(), "a=3 b=4".into())]);
    }

    #[test]
    fn the_fingerprint_follows_what_decides_the_games_and_the_updates_only() {
        let base = settings_fingerprint(&config(Some("tune"), &[]));
        let mut more = config(Some("tune"), &[]);
        more.concurrency = 8;
        more.state = "elsewhere.spsa".into();
        more.log = Some("x.log".into());
        assert_eq!(settings_fingerprint(&more), base);
        for change in [
            |c: &mut SpsaConfig| c.iterations = 11,
            |c: &mut SpsaConfig| c.seed = 2,
            |c: &mut SpsaConfig| c.params[1].c_end = 2.0,
            |c: &mut SpsaConfig| c.params[0].max = 8.0,
            |c: &mut SpsaConfig| c.tune_option = None,
            |c: &mut SpsaConfig| c.settings.limit = Limit::parse_nodes("1001").unwrap(),
        ] {
            let mut changed = config(Some("tune"), &[]);
            change(&mut changed);
            assert_ne!(settings_fingerprint(&changed), base, "{changed:?}");
        }
    }

    #[test]
    fn a_pairs_result_is_the_plus_sides_wins_less_its_losses() {
        let game = |winner: Option<Color>| GameRecord {
            opening: Opening::startpos(),
            moves: Vec::new(),
            winner,
            termination: String::new(),
        };
        // The + side has Red in the first game and Black in the second.
        assert_eq!(pair_outcome(&[game(Some(Color::Red)), game(Some(Color::Black))]), (2, [2, 0, 0]));
        assert_eq!(pair_outcome(&[game(Some(Color::Black)), game(None)]), (-1, [0, 1, 1]));
        assert_eq!(pair_outcome(&[game(Some(Color::Red)), game(Some(Color::Red))]), (0, [1, 0, 1]));
        assert!(is_complaint("info string error: tune: unknown search parameter 'x'"));
        assert!(is_complaint("No such option: Foo"));
        assert!(!is_complaint("info string NNUE evaluation using nn.nnue"));
    }
}
