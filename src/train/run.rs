//! `chariot nnue train` as a function, in three stages: `prepare` (read the data, start or
//! resume a run), `epochs` (train epoch by epoch with a checkpoint after each) and `export` (the
//! chosen epoch's net, with its `Provenance` as its description).

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::binary::FileError;
use crate::eval::nnue::features::UnknownName;
use crate::eval::nnue::format;
use crate::eval::nnue::network::Network;
use crate::files;

use super::checkpoint::{self, DataIdentity, TrainState};
use super::data::{self, DataSet, LoadError};
use super::float::{FloatNetwork, QuantiseError};
use super::grow::{grow, GrowError};
use super::loss::Blend;
use super::samples::Samples;
use super::settings::{SettingsError, SettingsRequest, TrainSettings};
use super::trainer::{self, Workspace};

/// Which epoch's weights become the net.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Export {
    /// The epoch with the lowest validation loss (the last one without validation).
    Best,
    /// The last epoch trained.
    Last,
}

impl Export {
    /// Reads `best` or `last`.
    pub fn parse(text: &str) -> Result<Export, UnknownName> {
        match text {
            "best" => Ok(Export::Best),
            "last" => Ok(Export::Last),
            _ => Err(UnknownName { what: "export choice", name: text.to_string(), choices: "best or last" }),
        }
    }
}

/// A training job, as the command line gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainJob {
    /// Scored data files (`chariot datagen --scored`).
    pub data: Vec<PathBuf>,
    /// Where the exported net goes.
    pub out: PathBuf,
    /// Where the checkpoint and each epoch's net go.
    pub checkpoint_dir: PathBuf,
    /// Continue the run whose checkpoint is in `checkpoint_dir`.
    pub resume: bool,
    /// Train at most this many epochs in this invocation (then export and stop; `--resume` goes on).
    pub stop_after: Option<u32>,
    /// Which epoch to export.
    pub export: Export,
    /// A net whose weights the run starts from instead of random ones (`--init`).
    pub init: Option<PathBuf>,
    /// The settings asked for.
    pub request: SettingsRequest,
}

/// The default checkpoint directory for a net written to `out`: `OUT.ckpt` beside it.
pub fn default_checkpoint_dir(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".ckpt");
    out.with_file_name(name)
}

/// The file each epoch's quantised net is written to in the checkpoint directory.
pub fn epoch_net_path(dir: &Path, epoch: u32) -> PathBuf {
    dir.join(format!("epoch-{epoch:03}.nnue"))
}

/// What a run reports on its way: a batch done (epoch, positions done, positions in the epoch).
pub type ProgressFn<'a> = &'a mut dyn FnMut(u32, usize, usize);

/// Why a training run stopped short.
#[derive(Debug)]
pub enum TrainError {
    /// A destination could not be written.
    Unwritable {
        /// The directory it is in.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The log could not be written.
    Log(std::io::Error),
    /// The checkpoint could not be read, was refused, or could not be written.
    Checkpoint(FileError),
    /// `--resume` with options that contradict the checkpoint's settings.
    Conflicts(Vec<String>),
    /// A fresh run asked for a directory that already holds a checkpoint.
    CheckpointExists(PathBuf),
    /// The settings are not usable.
    Settings(SettingsError),
    /// The data could not be read or has no training positions.
    Data(LoadError),
    /// A resumed run was given other data than its checkpoint was made on.
    OtherData {
        /// The data given.
        given: DataIdentity,
        /// The checkpoint's.
        checkpoint: DataIdentity,
    },
    /// The checkpoint directory could not be created.
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A net could not be written.
    NetFile(FileError),
    /// The trained weights have no quantised form.
    Quantise(QuantiseError),
    /// `--stop-after 0` on a run with no epoch done.
    NothingTrained,
    /// The `--init` net could not be read or was refused.
    Init(FileError),
    /// The `--init` net cannot grow into the shape asked for.
    InitShape {
        /// The net.
        path: PathBuf,
        /// Why not.
        error: GrowError,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Unwritable { dir, source } => {
                write!(f, "cannot write in {}: {source}", dir.display())
            }
            TrainError::Log(e) => write!(f, "cannot write the log: {e}"),
            TrainError::Checkpoint(e) | TrainError::NetFile(e) => e.fmt(f),
            TrainError::Conflicts(conflicts) => write!(
                f,
                "--resume continues with the checkpoint's settings; these options contradict them: {}",
                conflicts.join(", ")
            ),
            TrainError::CheckpointExists(dir) => write!(
                f,
                "'{}' already holds a checkpoint: add --resume to continue that run, or choose \
                 another --checkpoint-dir (or delete it) to start afresh",
                dir.display()
            ),
            TrainError::Settings(e) => e.fmt(f),
            TrainError::Data(e) => e.fmt(f),
            TrainError::OtherData { given, checkpoint } => write!(
                f,
                "the data is not the checkpoint's: it holds {} training and {} validation positions \
                 with fingerprint {:016x}, the checkpoint was made on {} and {} with fingerprint {:016x}",
                given.training,
                given.validation,
                given.fingerprint,
                checkpoint.training,
                checkpoint.validation,
                checkpoint.fingerprint
            ),
            TrainError::CreateDir { dir, source } => {
                write!(f, "cannot create the checkpoint directory '{}': {source}", dir.display())
            }
            TrainError::Quantise(e) => write!(f, "the trained net cannot be quantised: {e}"),
            TrainError::NothingTrained => write!(f, "no epoch trained (--stop-after 0): nothing to export"),
            TrainError::Init(e) => write!(f, "--init: {e}"),
            TrainError::InitShape { path, error } => {
                write!(f, "--init '{}' cannot start this run: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for TrainError {}

impl From<std::io::Error> for TrainError {
    /// The only bare I/O errors of a run are the log's.
    fn from(e: std::io::Error) -> TrainError {
        TrainError::Log(e)
    }
}

/// Runs the job: log lines go to `log`, batch progress to `progress`. Returns the exported net.
pub fn train(job: &TrainJob, log: &mut dyn Write, progress: ProgressFn) -> Result<Network, TrainError> {
    let started = Instant::now();
    let mut run = prepare(job, log)?;
    epochs(job, &mut run, log, progress)?;
    let net = export(job, &run, log)?;
    writeln!(log, "done in {:.1} s", started.elapsed().as_secs_f64())?;
    Ok(net)
}

/// Training records read before they are converted to features and freed: about 40 MB of
/// records, enough to keep every conversion thread busy.
const CONVERSION_BATCH: usize = 1 << 20;

/// A run ready to train: its state (fresh or resumed) and the positions as features.
struct Prepared {
    /// Where the run stands.
    state: TrainState,
    /// The training positions.
    training: Samples,
    /// The validation positions.
    validation: Samples,
    /// Games behind `training` and `validation`, for the description.
    training_games: u64,
    /// See `training_games`.
    validation_games: u64,
    /// The loss's blend of score and result.
    blend: Blend,
    /// Where the checkpoint is written.
    checkpoint_path: PathBuf,
}

/// Checks the destinations, starts or resumes the run, reads the data and converts it to
/// features, logging what it found.
fn prepare(job: &TrainJob, log: &mut dyn Write) -> Result<Prepared, TrainError> {
    check_writable(&job.out)?;
    let checkpoint_path = job.checkpoint_dir.join(checkpoint::FILE_NAME);
    // Refuse an unwritable checkpoint place now, but create the directory only to train.
    if job.checkpoint_dir.is_dir() {
        check_writable(&checkpoint_path)?;
    } else {
        check_writable(&job.checkpoint_dir)?;
    }
    let init = match &job.init {
        Some(path) => Some(format::load(path).map_err(TrainError::Init)?),
        None => None,
    };
    let request = SettingsRequest { init: init.as_ref().map(format::checksum), ..job.request.clone() };
    let resumed = if job.resume {
        let state = TrainState::load(&checkpoint_path).map_err(TrainError::Checkpoint)?;
        let conflicts = request.conflicts(&state.settings);
        if !conflicts.is_empty() {
            return Err(TrainError::Conflicts(conflicts));
        }
        Some(state)
    } else {
        if checkpoint_path.exists() {
            return Err(TrainError::CheckpointExists(job.checkpoint_dir.clone()));
        }
        None
    };
    let settings = match (&resumed, &init) {
        (Some(state), _) => state.settings,
        (None, Some(net)) => request.fresh_from(*net.arch()),
        (None, None) => request.fresh(),
    };
    settings.validate().map_err(TrainError::Settings)?;
    // A fresh run from a net starts from its weights, grown into the shape asked for.
    let start = match (&resumed, &init) {
        (None, Some(net)) => {
            Some(grow(&FloatNetwork::from_quantised(net), settings.arch, settings.seed).map_err(|error| {
                TrainError::InitShape { path: job.init.clone().unwrap_or_default(), error }
            })?)
        }
        _ => None,
    };
    let threads = settings.threads as usize;

    let read_started = Instant::now();
    let arch = settings.arch;
    // The training records become features batch by batch as they are read: held all at once,
    // beside their features, 51 M positions took 10.4 GB instead of 4.8 GB.
    let mut training = Samples::default();
    let data = data::load_streaming(&job.data, settings.validation, CONVERSION_BATCH, |records| {
        training.extend_from_records(records, arch.features, arch.output_buckets, threads);
        records.clear();
    })
    .map_err(TrainError::Data)?;
    for note in &data.notes {
        writeln!(log, "note: {note}")?;
    }
    writeln!(
        log,
        "data: {} positions in {} games ({}); read and converted to features in {:.1} s",
        group(data.training_positions + data.validation.len() as u64),
        group(data.training_games + data.validation_games),
        names(&job.data),
        read_started.elapsed().as_secs_f64()
    )?;
    writeln!(
        log,
        "split by game: training {} positions ({} games), validation {} ({} games, share {})",
        group(data.training_positions),
        group(data.training_games),
        group(data.validation.len() as u64),
        group(data.validation_games),
        settings.validation
    )?;
    if let Some(state) = &resumed {
        if state.data != data.identity() {
            return Err(TrainError::OtherData { given: data.identity(), checkpoint: state.data });
        }
    }
    let DataSet { validation: validation_records, training_games, validation_games, fingerprint, .. } = data;
    let validation = Samples::from_records(&validation_records, arch.features, arch.output_buckets, threads);
    writeln!(log, "features: {} MB", (training.memory() + validation.memory()) >> 20)?;
    let state = match resumed {
        Some(state) => state,
        None => trainer::fresh_state(
            settings,
            data_identity(&training, &validation, fingerprint),
            &training,
            start,
        ),
    };
    writeln!(log, "net: {}; {} weights", arch, group(parameter_count(&state.net) as u64))?;
    if let Some(sum) = settings.init {
        writeln!(log, "init: the weights start from the net with checksum {sum:016x}")?;
    }
    if let Some(net) = init.as_ref().filter(|net| *net.arch() != arch && state.epochs_done == 0) {
        writeln!(
            log,
            "init: grown from {} (new neurons silent, new king buckets copies of the old{})",
            net.arch(),
            if net.arch().hidden.is_empty() && !arch.hidden.is_empty() {
                ", hidden layers passing the net's output through"
            } else {
                ""
            }
        )?;
    }
    let blend = trainer::blend(&state);
    writeln!(
        log,
        "loss: mean squared error of sigmoid(net/K) against {:.3}·sigmoid(score/K) + {:.3}·result, K {:.1} ({})",
        settings.lambda,
        1.0 - settings.lambda,
        state.k,
        if settings.k.is_some() { "given" } else { "fitted to the training positions' scores and results" }
    )?;
    writeln!(
        log,
        "optimiser: Adam, lr {} ({}), batch {}, epochs {}, threads {}, seed {}",
        settings.lr, settings.schedule, settings.batch_size, settings.epochs, settings.threads, settings.seed
    )?;
    if !validation.is_empty() {
        let b = trainer::baselines(&validation_records, blend);
        writeln!(
            log,
            "validation loss of a constant prediction {:.6}, of the classic evaluation {:.6}, \
             of the search score itself {:.6}",
            b.constant, b.classic, b.search
        )?;
    }
    drop(validation_records);
    if state.epochs_done > 0 {
        writeln!(log, "resuming after epoch {} of {}", state.epochs_done, settings.epochs)?;
    }
    Ok(Prepared { state, training, validation, training_games, validation_games, blend, checkpoint_path })
}

/// Trains epoch after epoch (up to `--stop-after` in this invocation), saving the checkpoint
/// and the epoch's net after each.
fn epochs(
    job: &TrainJob,
    run: &mut Prepared,
    log: &mut dyn Write,
    progress: ProgressFn,
) -> Result<(), TrainError> {
    std::fs::create_dir_all(&job.checkpoint_dir)
        .map_err(|source| TrainError::CreateDir { dir: job.checkpoint_dir.clone(), source })?;
    let settings = run.state.settings;
    let mut work = Workspace::new(&run.state);
    let mut ran = 0;
    while run.state.epochs_done < settings.epochs && job.stop_after.is_none_or(|n| ran < n) {
        let epoch_started = Instant::now();
        let epoch = run.state.epochs_done + 1;
        let total = run.training.len();
        let report =
            trainer::run_epoch(&mut run.state, &mut work, &run.training, &run.validation, &mut |done| {
                progress(epoch, done, total)
            });
        ran += 1;
        run.state.save(&run.checkpoint_path).map_err(TrainError::Checkpoint)?;
        let net = quantise(&run.state.net, &run.provenance(&job.data, epoch, "this epoch"))?;
        format::save(&net, &epoch_net_path(&job.checkpoint_dir, epoch)).map_err(TrainError::NetFile)?;
        let seconds = epoch_started.elapsed().as_secs_f64();
        writeln!(
            log,
            "epoch {:>3}/{}  lr {:.6}  train {:.6}  validation {}{}  {:.1} s  {} positions/s",
            report.epoch,
            settings.epochs,
            report.losses.lr,
            report.losses.train,
            if run.validation.is_empty() {
                "-".to_string()
            } else {
                format!("{:.6}", report.losses.validation)
            },
            if report.best { " (best)" } else { "" },
            seconds,
            group((total as f64 / seconds.max(1e-9)) as u64)
        )?;
        log.flush()?;
    }
    Ok(())
}

/// Quantises the chosen epoch's weights, writes the net to `job.out`, and logs how far the
/// quantised net is from the float one.
fn export(job: &TrainJob, run: &Prepared, log: &mut dyn Write) -> Result<Network, TrainError> {
    let state = &run.state;
    if state.epochs_done == 0 {
        return Err(TrainError::NothingTrained);
    }
    let (float, epoch, why) = match job.export {
        Export::Best if !run.validation.is_empty() && state.best_epoch > 0 => {
            (&state.best_net, state.best_epoch, "the lowest validation loss")
        }
        Export::Best => (&state.net, state.epochs_done, "the last (no validation loss to choose by)"),
        Export::Last => (&state.net, state.epochs_done, "the last"),
    };
    let net = quantise(float, &run.provenance(&job.data, epoch, why))?;
    format::save(&net, &job.out).map_err(TrainError::NetFile)?;
    writeln!(log, "exported epoch {epoch} ({why}) to {}", job.out.display())?;
    if !run.validation.is_empty() {
        let check = trainer::check_quantised(&net, float, &run.validation, run.blend);
        writeln!(
            log,
            "quantised: validation loss {:.6} (float {:.6}); score difference to the float net: mean {:.2} cp, max {:.1} cp",
            check.loss,
            trainer::mean_loss(float, &run.validation, run.blend, state.settings.threads as usize),
            check.mean_error_cp,
            check.max_error_cp
        )?;
    }
    if state.epochs_done < state.settings.epochs {
        writeln!(
            log,
            "stopped after epoch {} of {}: --resume continues",
            state.epochs_done, state.settings.epochs
        )?;
    }
    Ok(net)
}

impl Prepared {
    /// How epoch `epoch`'s net was made, chosen for `why`.
    fn provenance<'a>(&'a self, data: &'a [PathBuf], epoch: u32, why: &'a str) -> Provenance<'a> {
        Provenance {
            state: &self.state,
            data,
            training_games: self.training_games,
            validation_games: self.validation_games,
            epoch,
            why,
        }
    }
}

fn data_identity(training: &Samples, validation: &Samples, fingerprint: u64) -> checkpoint::DataIdentity {
    checkpoint::DataIdentity {
        fingerprint,
        training: training.len() as u64,
        validation: validation.len() as u64,
    }
}

fn parameter_count(net: &FloatNetwork) -> usize {
    net.tensors().iter().map(|t| t.len()).sum()
}

/// The file names of `paths`, comma-separated.
fn names(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `n` with thousands separated by commas.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `float` quantised, with a description of how it was made (no times: the same run gives the
/// same bytes).
fn quantise(float: &FloatNetwork, provenance: &Provenance) -> Result<Network, TrainError> {
    let net = float.quantise().map_err(TrainError::Quantise)?;
    Ok(net.with_description(&provenance.description()))
}

/// How a net was made: the run's state, its data, and which epoch's weights it is and why.
#[derive(Copy, Clone, Debug)]
pub struct Provenance<'a> {
    /// The run (settings, data identity, losses).
    pub state: &'a TrainState,
    /// The data files.
    pub data: &'a [PathBuf],
    /// Games behind the training positions.
    pub training_games: u64,
    /// Games behind the validation positions.
    pub validation_games: u64,
    /// The epoch (from 1) whose weights the net is.
    pub epoch: u32,
    /// Why that epoch.
    pub why: &'a str,
}

impl Provenance<'_> {
    /// The net's description: data, seed, settings, epochs and losses.
    pub fn description(&self) -> String {
        let Provenance { state, data, training_games, validation_games, epoch, why } = *self;
        let s: &TrainSettings = &state.settings;
        let losses = state.history.get(epoch as usize - 1).copied();
        let mut text = format!(
            "chariot nnue train: data {} ({} training positions in {} games, {} validation in {} games, fingerprint {:016x}); \
             seed {}, threads {}; Adam lr {} {}, batch {}, lambda {}, K {:.1} ({}), loss MSE of sigmoid(cp/K); \
             epoch {} of {} ({}): train loss {:.6}, validation loss {:.6}; validation by epoch:",
            names(data),
            state.data.training,
            training_games,
            state.data.validation,
            validation_games,
            state.data.fingerprint,
            s.seed,
            s.threads,
            s.lr,
            s.schedule,
            s.batch_size,
            s.lambda,
            state.k,
            if s.k.is_some() { "given" } else { "fitted" },
            epoch,
            s.epochs,
            why,
            losses.map_or(f64::NAN, |l| l.train),
            losses.map_or(f64::NAN, |l| l.validation),
        );
        for e in &state.history[..epoch as usize] {
            text.push_str(&format!(" {:.5}", e.validation));
        }
        if let Some(sum) = s.init {
            text.push_str(&format!("; started from the net with checksum {sum:016x}"));
        }
        text
    }
}

/// Refuses a destination that could not be written, naming its directory.
fn check_writable(path: &Path) -> Result<(), TrainError> {
    files::check_writable(path)
        .map_err(|source| TrainError::Unwritable { dir: files::directory_of(path).to_path_buf(), source })
}
