//! What a training run is asked to do: the architecture, the optimiser's schedule, the loss's
//! blend, the split and the seed. A checkpoint stores them, and a resumed run keeps them.

use std::fmt;

use crate::eval::nnue::architecture::{Architecture, ArchitectureError};

/// How the learning rate changes from epoch to epoch (it is constant within an epoch).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Schedule {
    /// The same rate every epoch.
    Constant,
    /// Half a cosine from the rate at the first epoch down to `rate × final_factor` at the last.
    Cosine {
        /// The last epoch's rate as a share of the first's.
        final_factor: f64,
    },
    /// The rate times `gamma` after every `every` epochs.
    Step {
        /// Epochs between drops.
        every: u32,
        /// What each drop multiplies the rate by.
        gamma: f64,
    },
}

impl Schedule {
    /// The default: cosine down to 1% of the starting rate.
    pub const DEFAULT: Schedule = Schedule::Cosine { final_factor: 0.01 };

    /// Reads `constant`, `cosine` or `cosine:F` (final factor F, default 0.01), `step:N` or
    /// `step:N:G` (times G, default 0.3, every N epochs).
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let parts: Vec<&str> = text.split(':').collect();
        let refuse = |problem| ScheduleError { text: text.to_string(), problem };
        let number = |s: &str, what: &'static str| -> Result<f64, ScheduleError> {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0 && *x <= 1.0)
                .ok_or_else(|| refuse(ScheduleProblem::Factor { what, given: s.to_string() }))
        };
        match parts.as_slice() {
            ["constant"] => Ok(Schedule::Constant),
            ["cosine"] => Ok(Schedule::DEFAULT),
            ["cosine", f] => Ok(Schedule::Cosine { final_factor: number(f, "the final factor")? }),
            ["step", rest @ ..] if !rest.is_empty() && rest.len() <= 2 => {
                let every = rest[0]
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| refuse(ScheduleProblem::Every(rest[0].to_string())))?;
                let gamma = match rest.get(1) {
                    Some(g) => number(g, "the drop factor")?,
                    None => 0.3,
                };
                Ok(Schedule::Step { every, gamma })
            }
            _ => Err(refuse(ScheduleProblem::Unknown)),
        }
    }

    /// The rate of epoch `epoch` (counted from 0) of `epochs`, starting from `rate`.
    pub fn rate(&self, rate: f64, epoch: u32, epochs: u32) -> f64 {
        match *self {
            Schedule::Constant => rate,
            Schedule::Cosine { final_factor } => {
                let progress = if epochs <= 1 { 0.0 } else { epoch as f64 / (epochs - 1) as f64 };
                let end = rate * final_factor;
                end + (rate - end) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
            }
            Schedule::Step { every, gamma } => rate * gamma.powi((epoch / every) as i32),
        }
    }
}

/// A `--schedule` that could not be read: the text, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub problem: ScheduleProblem,
}

/// What is wrong with a `--schedule`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleProblem {
    /// Not a schedule's name.
    Unknown,
    /// A factor (`what`) that is not a number in (0, 1].
    Factor {
        /// Which factor.
        what: &'static str,
        /// The text given for it.
        given: String,
    },
    /// The epochs between drops are not a positive whole number.
    Every(String),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = &self.text;
        match &self.problem {
            ScheduleProblem::Unknown => {
                write!(f, "unknown schedule '{text}' (constant, cosine[:FINAL], step:EPOCHS[:FACTOR])")
            }
            ScheduleProblem::Factor { what, given } => {
                write!(f, "schedule '{text}': {what} must be a number in (0, 1], not '{given}'")
            }
            ScheduleProblem::Every(given) => write!(
                f,
                "schedule '{text}': the epochs between drops must be a positive whole number, not '{given}'"
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Constant => write!(f, "constant"),
            Schedule::Cosine { final_factor } => write!(f, "cosine:{final_factor}"),
            Schedule::Step { every, gamma } => write!(f, "step:{every}:{gamma}"),
        }
    }
}

/// Everything that decides what a run computes (with the data): a resumed run must use the same.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TrainSettings {
    /// The network's shape and quantisation.
    pub arch: Architecture,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: u32,
    /// Adam's step size at the first epoch.
    pub lr: f64,
    /// How the step size changes over the epochs.
    pub schedule: Schedule,
    /// The search score's share of the target (the result has the rest).
    pub lambda: f64,
    /// The sigmoid's scale in centipawns, if given; `None`: fitted to the training positions.
    pub k: Option<f64>,
    /// The share of games held out for validation.
    pub validation: f64,
    /// Seeds the initial weights and the order of the positions.
    pub seed: u64,
    /// Threads: with the seed and the data, they fix the result bit for bit.
    pub threads: u32,
    /// The net the weights start from (`--init`), by its file checksum; `None`: random weights
    /// from the seed.
    pub init: Option<u64>,
}

/// Most threads a run may use.
pub const MAX_THREADS: u32 = 256;
/// The range of `--threads`, as the error states it.
const THREADS_RANGE: &str = "1 to 256";
const _: () = assert!(MAX_THREADS == 256, "THREADS_RANGE states MAX_THREADS");

/// A setting a run cannot use: which option, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// The net's shape is not one the engine evaluates.
    Architecture(ArchitectureError),
    /// A number outside its range.
    OutOfRange {
        /// The option, as the command line spells it.
        option: &'static str,
        /// The value given.
        value: String,
        /// The values allowed.
        range: &'static str,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Architecture(e) => e.fmt(f),
            SettingsError::OutOfRange { option, value, range } => write!(f, "{option} {value} ({range})"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// Checks the target's blend (`--lambda`, and `--k` when given), as training and `nnue loss`
/// take them.
pub fn check_target(lambda: f64, k: Option<f64>) -> Result<(), SettingsError> {
    let refuse = |option, value: f64, range| {
        Err(SettingsError::OutOfRange { option, value: value.to_string(), range })
    };
    if !(lambda.is_finite() && (0.0..=1.0).contains(&lambda)) {
        return refuse("--lambda", lambda, "a number in [0, 1]");
    }
    match k {
        Some(k) if !(k.is_finite() && (1.0..=100_000.0).contains(&k)) => {
            refuse("--k", k, "centipawns, 1 to 100000")
        }
        _ => Ok(()),
    }
}

/// Checks `--threads`.
pub fn check_threads(threads: usize) -> Result<(), SettingsError> {
    if threads == 0 || threads > MAX_THREADS as usize {
        return Err(SettingsError::OutOfRange {
            option: "--threads",
            value: threads.to_string(),
            range: THREADS_RANGE,
        });
    }
    Ok(())
}

impl TrainSettings {
    /// Checks every number is usable; the error names the option.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.arch.validate().map_err(SettingsError::Architecture)?;
        let refuse = |option, value: String, range| Err(SettingsError::OutOfRange { option, value, range });
        if self.epochs == 0 || self.epochs > 100_000 {
            return refuse("--epochs", self.epochs.to_string(), "1 to 100000");
        }
        if self.batch_size == 0 || self.batch_size > 1 << 24 {
            return refuse("--batch-size", self.batch_size.to_string(), "1 to 16777216");
        }
        if !(self.lr.is_finite() && self.lr > 0.0 && self.lr <= 1.0) {
            return refuse("--lr", self.lr.to_string(), "a number in (0, 1]");
        }
        check_target(self.lambda, self.k)?;
        if !(self.validation.is_finite() && (0.0..0.9).contains(&self.validation)) {
            return refuse("--validation", self.validation.to_string(), "a share of the games in [0, 0.9)");
        }
        check_threads(self.threads as usize)
    }

    /// The settings where `self` and `other` differ, each as `name: ours (theirs)`.
    pub fn differences(&self, other: &TrainSettings) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name} {a} (the checkpoint's: {b})"));
            }
        };
        let (a, b) = (&self.arch, &other.arch);
        differ("--width", a.width.to_string(), b.width.to_string());
        differ(
            "--king-buckets",
            a.features.king_buckets.name().into(),
            b.features.king_buckets.name().into(),
        );
        differ("mirroring", on_off(a.features.mirror), on_off(b.features.mirror));
        differ("relation inputs", on_off(a.features.relations), on_off(b.features.relations));
        differ("--activation", a.activation.name().into(), b.activation.name().into());
        differ("--output-buckets", a.output_buckets.to_string(), b.output_buckets.to_string());
        differ("--hidden", a.hidden.to_string(), b.hidden.to_string());
        if !a.hidden.is_empty() && !b.hidden.is_empty() {
            differ(
                "--hidden-activation",
                a.hidden.first_activation().name().into(),
                b.hidden.first_activation().name().into(),
            );
        }
        differ("quantisation", format!("{:?}", a.quantisation), format!("{:?}", b.quantisation));
        differ("--epochs", self.epochs.to_string(), other.epochs.to_string());
        differ("--batch-size", self.batch_size.to_string(), other.batch_size.to_string());
        differ("--lr", self.lr.to_string(), other.lr.to_string());
        differ("--schedule", self.schedule.to_string(), other.schedule.to_string());
        differ("--lambda", self.lambda.to_string(), other.lambda.to_string());
        differ("--k", k_text(self.k), k_text(other.k));
        differ("--validation", self.validation.to_string(), other.validation.to_string());
        differ("--seed", self.seed.to_string(), other.seed.to_string());
        differ("--threads", self.threads.to_string(), other.threads.to_string());
        differ("--init", init_text(self.init), init_text(other.init));
        out
    }
}

fn init_text(init: Option<u64>) -> String {
    init.map_or_else(
        || "none (random weights)".to_string(),
        |sum| format!("the net with checksum {sum:016x}"),
    )
}

fn on_off(on: bool) -> String {
    if on { "on" } else { "off" }.to_string()
}

fn k_text(k: Option<f64>) -> String {
    k.map_or_else(|| "fitted".to_string(), |k| k.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_parse_print_and_decay() {
        for text in ["constant", "cosine:0.05", "step:4:0.5"] {
            assert_eq!(Schedule::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Schedule::parse("cosine"), Ok(Schedule::DEFAULT));
        assert_eq!(Schedule::parse("step:3"), Ok(Schedule::Step { every: 3, gamma: 0.3 }));
        for bad in ["linear", "cosine:0", "cosine:2", "step", "step:0", "step:2:x", "step:1:2:3"] {
            assert!(Schedule::parse(bad).is_err(), "{bad}");
        }
        let cosine = Schedule::parse("cosine:0.1").unwrap();
        assert_eq!(cosine.rate(1.0, 0, 5), 1.0);
        assert!((cosine.rate(1.0, 4, 5) - 0.1).abs() < 1e-12);
        assert!((cosine.rate(1.0, 2, 5) - 0.55).abs() < 1e-12);
        let step = Schedule::Step { every: 2, gamma: 0.5 };
        assert_eq!([0, 1, 2, 3, 4].map(|e| step.rate(1.0, e, 5)), [1.0, 1.0, 0.5, 0.5, 0.25]);
        assert_eq!(Schedule::Constant.rate(0.3, 7, 9), 0.3);
    }
}

/// The settings a command line asks for: `None` (or `false`) where an option was not given.
/// A fresh run fills the gaps with the defaults; a resumed run takes the checkpoint's settings
/// and refuses options that contradict them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SettingsRequest {
    /// `--width`.
    pub width: Option<usize>,
    /// `--king-buckets`.
    pub king_buckets: Option<crate::eval::nnue::KingBuckets>,
    /// `--no-mirror`.
    pub no_mirror: bool,
    /// `--relations`.
    pub relations: bool,
    /// `--activation`.
    pub activation: Option<crate::eval::nnue::Activation>,
    /// `--output-buckets`.
    pub output_buckets: Option<usize>,
    /// `--hidden`.
    pub hidden: Option<crate::eval::nnue::Hidden>,
    /// `--hidden-activation`.
    pub hidden_activation: Option<crate::eval::nnue::Activation>,
    /// `--init`: the checksum of the net given (the command reads the file and fills this in).
    pub init: Option<u64>,
    /// `--epochs`.
    pub epochs: Option<u32>,
    /// `--batch-size`.
    pub batch_size: Option<u32>,
    /// `--lr`.
    pub lr: Option<f64>,
    /// `--schedule`.
    pub schedule: Option<Schedule>,
    /// `--lambda`.
    pub lambda: Option<f64>,
    /// `--k`.
    pub k: Option<f64>,
    /// `--validation`.
    pub validation: Option<f64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--threads`.
    pub threads: Option<u32>,
}

/// Defaults of a fresh run.
pub mod defaults {
    /// Passes over the data.
    pub const EPOCHS: u32 = 20;
    /// Positions per step.
    pub const BATCH_SIZE: u32 = 16_384;
    /// Adam's step size at the first epoch.
    pub const LR: f64 = 0.001;
    /// The search score's share of the target.
    pub const LAMBDA: f64 = 0.75;
    /// The share of games held out.
    pub const VALIDATION: f64 = 0.05;
    /// The seed.
    pub const SEED: u64 = 1;
}

impl SettingsRequest {
    /// The request applied over `base`: `base` where an option was not given.
    pub fn over(&self, base: &TrainSettings) -> TrainSettings {
        let mut s = *base;
        let a = &mut s.arch;
        a.width = self.width.unwrap_or(a.width);
        a.features.king_buckets = self.king_buckets.unwrap_or(a.features.king_buckets);
        a.features.mirror = a.features.mirror && !self.no_mirror;
        a.features.relations = a.features.relations || self.relations;
        a.activation = self.activation.unwrap_or(a.activation);
        a.output_buckets = self.output_buckets.unwrap_or(a.output_buckets);
        // `--hidden` alone keeps the base's first-layer activation (a checkpoint's, or the default).
        let first = self.hidden_activation.unwrap_or(if a.hidden.is_empty() {
            crate::eval::nnue::Hidden::DEFAULT_FIRST
        } else {
            a.hidden.first_activation()
        });
        a.hidden = self.hidden.unwrap_or(a.hidden).with_first_activation(first);
        s.epochs = self.epochs.unwrap_or(s.epochs);
        s.batch_size = self.batch_size.unwrap_or(s.batch_size);
        s.lr = self.lr.unwrap_or(s.lr);
        s.schedule = self.schedule.unwrap_or(s.schedule);
        s.lambda = self.lambda.unwrap_or(s.lambda);
        s.k = self.k.or(s.k);
        s.validation = self.validation.unwrap_or(s.validation);
        s.seed = self.seed.unwrap_or(s.seed);
        s.threads = self.threads.unwrap_or(s.threads);
        s.init = self.init.or(s.init);
        s
    }

    /// The settings of a fresh run: the options given, the defaults for the rest (threads: the
    /// machine's cores).
    pub fn fresh(&self) -> TrainSettings {
        self.fresh_from(Architecture::DEFAULT)
    }

    /// As `fresh`, but with `arch` (an `--init` net's) where no architecture option was given.
    pub fn fresh_from(&self, arch: Architecture) -> TrainSettings {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32).min(MAX_THREADS);
        self.over(&TrainSettings {
            arch,
            epochs: defaults::EPOCHS,
            batch_size: defaults::BATCH_SIZE,
            lr: defaults::LR,
            schedule: Schedule::DEFAULT,
            lambda: defaults::LAMBDA,
            k: None,
            validation: defaults::VALIDATION,
            seed: defaults::SEED,
            threads: cores,
            init: None,
        })
    }

    /// The options given that contradict a checkpoint's `settings`.
    pub fn conflicts(&self, settings: &TrainSettings) -> Vec<String> {
        self.over(settings).differences(settings)
    }
}
