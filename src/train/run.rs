//! `chariot nnue train` as a function: read the data, start or resume a run, train epoch by
//! epoch with a checkpoint after each, and export the chosen epoch's net.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::eval::nnue::format;
use crate::eval::nnue::network::Network;
use crate::files;

use super::checkpoint::{self, TrainState};
use super::data::{self, DataSet};
use super::float::FloatNetwork;
use super::samples::Samples;
use super::settings::{SettingsRequest, TrainSettings};
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
    pub fn parse(text: &str) -> Result<Export, String> {
        match text {
            "best" => Ok(Export::Best),
            "last" => Ok(Export::Last),
            _ => Err(format!("unknown export choice '{text}' (best or last)")),
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

/// Runs the job: log lines go to `log`, batch progress to `progress`. Returns the exported net.
pub fn train(job: &TrainJob, log: &mut dyn Write, progress: ProgressFn) -> Result<Network, String> {
    let started = Instant::now();
    let io = |e: std::io::Error| format!("cannot write the log: {e}");
    check_writable(&job.out)?;
    let checkpoint_path = job.checkpoint_dir.join(checkpoint::FILE_NAME);
    // Refuse an unwritable checkpoint place now, but create the directory only to train.
    if job.checkpoint_dir.is_dir() {
        check_writable(&checkpoint_path)?;
    } else {
        check_writable(&job.checkpoint_dir)?;
    }
    let resumed = if job.resume {
        let state = TrainState::load(&checkpoint_path)?;
        let conflicts = job.request.conflicts(&state.settings);
        if !conflicts.is_empty() {
            return Err(format!(
                "--resume continues with the checkpoint's settings; these options contradict them: {}",
                conflicts.join(", ")
            ));
        }
        Some(state)
    } else {
        if checkpoint_path.exists() {
            return Err(format!(
                "'{}' already holds a checkpoint: add --resume to continue that run, or choose \
                 another --checkpoint-dir (or delete it) to start afresh",
                job.checkpoint_dir.display()
            ));
        }
        None
    };
    let settings = resumed.as_ref().map_or_else(|| job.request.fresh(), |s| s.settings);
    settings.validate()?;
    let threads = settings.threads as usize;

    let read_started = Instant::now();
    let data = data::load(&job.data, settings.validation)?;
    for note in &data.notes {
        writeln!(log, "note: {note}").map_err(io)?;
    }
    writeln!(
        log,
        "data: {} positions in {} games ({}); read in {:.1} s",
        group(data.training.len() as u64 + data.validation.len() as u64),
        group(data.training_games + data.validation_games),
        names(&job.data),
        read_started.elapsed().as_secs_f64()
    )
    .map_err(io)?;
    writeln!(
        log,
        "split by game: training {} positions ({} games), validation {} ({} games, share {})",
        group(data.training.len() as u64),
        group(data.training_games),
        group(data.validation.len() as u64),
        group(data.validation_games),
        settings.validation
    )
    .map_err(io)?;
    if let Some(state) = &resumed {
        if state.data != data.identity() {
            return Err(format!(
                "the data is not the checkpoint's: it holds {} training and {} validation positions \
                 with fingerprint {:016x}, the checkpoint was made on {} and {} with fingerprint {:016x}",
                data.training.len(),
                data.validation.len(),
                data.fingerprint,
                state.data.training,
                state.data.validation,
                state.data.fingerprint
            ));
        }
    }
    let convert_started = Instant::now();
    let arch = settings.arch;
    let DataSet {
        training: training_records,
        validation: validation_records,
        training_games,
        validation_games,
        fingerprint,
        ..
    } = data;
    let training = Samples::from_records(&training_records, arch.features, arch.output_buckets, threads);
    // The records take 40 bytes a position: free them now that the features are made.
    drop(training_records);
    let validation = Samples::from_records(&validation_records, arch.features, arch.output_buckets, threads);
    writeln!(
        log,
        "features: converted in {:.1} s ({} MB)",
        convert_started.elapsed().as_secs_f64(),
        (training.memory() + validation.memory()) >> 20
    )
    .map_err(io)?;
    let mut state = match resumed {
        Some(state) => state,
        None => trainer::fresh_state(settings, data_identity(&training, &validation, fingerprint), &training),
    };
    writeln!(log, "net: {}; {} weights", arch, group(parameter_count(&state.net) as u64)).map_err(io)?;
    let blend = trainer::blend(&state);
    writeln!(
        log,
        "loss: mean squared error of sigmoid(net/K) against {:.3}·sigmoid(score/K) + {:.3}·result, K {:.1} ({})",
        settings.lambda,
        1.0 - settings.lambda,
        state.k,
        if settings.k.is_some() { "given" } else { "fitted to the training positions' scores and results" }
    )
    .map_err(io)?;
    writeln!(
        log,
        "optimiser: Adam, lr {} ({}), batch {}, epochs {}, threads {}, seed {}",
        settings.lr, settings.schedule, settings.batch_size, settings.epochs, settings.threads, settings.seed
    )
    .map_err(io)?;
    if !validation.is_empty() {
        let b = trainer::baselines(&validation_records, blend);
        writeln!(
            log,
            "validation loss of a constant prediction {:.6}, of the classic evaluation {:.6}, \
             of the search score itself {:.6}",
            b.constant, b.classic, b.search
        )
        .map_err(io)?;
    }
    drop(validation_records);
    if state.epochs_done > 0 {
        writeln!(log, "resuming after epoch {} of {}", state.epochs_done, settings.epochs).map_err(io)?;
    }

    std::fs::create_dir_all(&job.checkpoint_dir).map_err(|e| {
        format!("cannot create the checkpoint directory '{}': {e}", job.checkpoint_dir.display())
    })?;
    let mut work = Workspace::new(&state);
    let mut ran = 0;
    while state.epochs_done < settings.epochs && job.stop_after.is_none_or(|n| ran < n) {
        let epoch_started = Instant::now();
        let epoch = state.epochs_done + 1;
        let total = training.len();
        let report = trainer::run_epoch(&mut state, &mut work, &training, &validation, &mut |done| {
            progress(epoch, done, total)
        });
        ran += 1;
        state.save(&checkpoint_path)?;
        let net =
            quantise(&state.net, &state, &job.data, training_games, validation_games, epoch, "this epoch")?;
        format::save(&net, &epoch_net_path(&job.checkpoint_dir, epoch))?;
        let seconds = epoch_started.elapsed().as_secs_f64();
        writeln!(
            log,
            "epoch {:>3}/{}  lr {:.6}  train {:.6}  validation {}{}  {:.1} s  {} positions/s",
            report.epoch,
            settings.epochs,
            report.losses.lr,
            report.losses.train,
            if validation.is_empty() { "-".to_string() } else { format!("{:.6}", report.losses.validation) },
            if report.best { " (best)" } else { "" },
            seconds,
            group((total as f64 / seconds.max(1e-9)) as u64)
        )
        .map_err(io)?;
        log.flush().map_err(io)?;
    }
    if state.epochs_done == 0 {
        return Err("no epoch trained (--stop-after 0): nothing to export".to_string());
    }

    let (float, epoch, why) = match job.export {
        Export::Best if !validation.is_empty() && state.best_epoch > 0 => {
            (&state.best_net, state.best_epoch, "the lowest validation loss")
        }
        Export::Best => (&state.net, state.epochs_done, "the last (no validation loss to choose by)"),
        Export::Last => (&state.net, state.epochs_done, "the last"),
    };
    let net = quantise(float, &state, &job.data, training_games, validation_games, epoch, why)?;
    format::save(&net, &job.out)?;
    writeln!(log, "exported epoch {epoch} ({why}) to {}", job.out.display()).map_err(io)?;
    if !validation.is_empty() {
        let check = trainer::check_quantised(&net, float, &validation, blend);
        writeln!(
            log,
            "quantised: validation loss {:.6} (float {:.6}); score difference to the float net: mean {:.2} cp, max {:.1} cp",
            check.loss,
            trainer::mean_loss(float, &validation, blend, threads),
            check.mean_error_cp,
            check.max_error_cp
        )
        .map_err(io)?;
    }
    if state.epochs_done < settings.epochs {
        writeln!(log, "stopped after epoch {} of {}: --resume continues", state.epochs_done, settings.epochs)
            .map_err(io)?;
    }
    writeln!(log, "done in {:.1} s", started.elapsed().as_secs_f64()).map_err(io)?;
    Ok(net)
}

fn data_identity(training: &Samples, validation: &Samples, fingerprint: u64) -> checkpoint::DataIdentity {
    checkpoint::DataIdentity {
        fingerprint,
        training: training.len() as u64,
        validation: validation.len() as u64,
    }
}

fn parameter_count(net: &FloatNetwork) -> usize {
    net.feature_weights.len() + net.feature_bias.len() + net.output_weights.len() + net.output_bias.len()
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
fn quantise(
    float: &FloatNetwork,
    state: &TrainState,
    data: &[PathBuf],
    training_games: u64,
    validation_games: u64,
    epoch: u32,
    why: &str,
) -> Result<Network, String> {
    let net = float.quantise().map_err(|e| format!("the trained net cannot be quantised: {e}"))?;
    Ok(net.with_description(&description(state, data, training_games, validation_games, epoch, why)))
}

/// How a net was made: data, seed, settings, epochs and losses.
pub fn description(
    state: &TrainState,
    data: &[PathBuf],
    training_games: u64,
    validation_games: u64,
    epoch: u32,
    why: &str,
) -> String {
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
    text
}

/// Refuses a destination that could not be written, naming its directory.
fn check_writable(path: &Path) -> Result<(), String> {
    files::check_writable(path)
        .map_err(|e| format!("cannot write in {}: {e}", files::directory_of(path).display()))
}
