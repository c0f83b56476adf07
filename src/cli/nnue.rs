//! `chariot nnue …`: the neural evaluation's tools. `check [FILE]` verifies a net file (without
//! one, the built-in net) and prints its architecture; `random` writes a net with random weights
//! of a chosen architecture (for tests and speed measurements before a trained net exists);
//! `train` fits a net to scored self-play data (docs/nnue-training.md); `loss` measures nets on
//! data none of them trained on.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Error, Result};
use clap::{Args, Subcommand};

use super::common::{bar_style, progress_bar, progress_wanted};
use super::eval_source::load_net;
use crate::board::Position;
use crate::eval::nnue::architecture::{Activation, Architecture, Hidden, Quantisation};
use crate::eval::nnue::{embedded, features, format, FeatureSet, KingBuckets, Network};
use crate::train::measure::{LossData, LossRequest};
use crate::train::run::{self, Export, TrainJob};
use crate::train::{FloatNetwork, Schedule, SettingsRequest};

/// Arguments of `chariot nnue`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct NnueArgs {
    /// What to do with nets.
    #[command(subcommand)]
    pub command: NnueCommand,
}

/// The `nnue` subcommands.
// `Train` is the largest by far (with `--hidden`, past clippy's threshold); the value is parsed
// once per process, so its size costs nothing worth a `Box` in every match on it.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug, Clone, PartialEq)]
pub enum NnueCommand {
    /// Verify a net file (header, length, checksum, weight ranges) and print its architecture.
    Check(CheckArgs),
    /// Write a net with random weights (reproducible from its seed).
    Random(RandomArgs),
    /// Train a net on scored data (`datagen --scored`), with a checkpoint each epoch.
    Train(TrainArgs),
    /// Fit an evaluation's win-rate model to scored games it played, and write a net carrying it.
    Winrate(super::winrate_fit::WinRateArgs),
    /// Measure nets' loss on scored data (positions none of them trained on), float and quantised.
    Loss(LossArgs),
}

/// Arguments of `chariot nnue loss`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct LossArgs {
    /// The net files to measure [default: the net built into this binary].
    #[arg(value_name = "NET")]
    pub nets: Vec<PathBuf>,
    /// A scored data file; repeat for several (every complete game counts).
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// The search score's share of the target; the game result has the rest [default: 0.75].
    #[arg(long)]
    pub lambda: Option<f64>,
    /// The sigmoid's scale in centipawns [default: fitted to the data].
    #[arg(long)]
    pub k: Option<f64>,
    /// Threads (the losses do not depend on how many).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Arguments of `chariot nnue train`. Options left out take their defaults on a fresh run and
/// the checkpoint's values with `--resume` (where given ones must agree with the checkpoint).
#[derive(Args, Debug, Clone, PartialEq)]
pub struct TrainArgs {
    /// A scored data file; repeat for several (each may end in an unfinished game, left out).
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the trained net.
    #[arg(short, long, value_name = "NET")]
    pub out: PathBuf,
    /// Where the checkpoint and each epoch's net go [default: NET.ckpt beside the net].
    #[arg(long, value_name = "DIR")]
    pub checkpoint_dir: Option<PathBuf>,
    /// Continue the run whose checkpoint is in the checkpoint directory.
    #[arg(long)]
    pub resume: bool,
    /// Stop after this many epochs in this invocation (export, keep the checkpoint; --resume goes on).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub stop_after: Option<u32>,
    /// The epoch to export: best (lowest validation loss) or last.
    #[arg(long, default_value = "best", value_parser = Export::parse)]
    pub export: Export,
    /// Start from this net's weights instead of random ones (fine-tuning); the net's shape is kept.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Accumulator width per perspective (a multiple of 16) [default: 256].
    #[arg(long)]
    pub width: Option<usize>,
    /// King buckets: single, rank (3) or palace (9, or 6 mirrored) [default: palace].
    #[arg(long, value_parser = KingBuckets::from_name)]
    pub king_buckets: Option<KingBuckets>,
    /// Do not mirror the board when the king stands right of centre.
    #[arg(long)]
    pub no_mirror: bool,
    /// Add relation inputs (which piece attacks or protects which); with --init they start at
    /// zero, so the net starts out computing what the --init net computes.
    #[arg(long)]
    pub relations: bool,
    /// Hidden activation: crelu or screlu [default: screlu].
    #[arg(long, value_parser = Activation::from_name)]
    pub activation: Option<Activation>,
    /// Output buckets by material, 1 to 31 [default: 8].
    #[arg(long)]
    pub output_buckets: Option<usize>,
    /// Hidden layers between the accumulators and the output, one stack per output bucket:
    /// sizes separated by commas, e.g. 16,32 (multiples of 16 up to 128, at most two layers), or
    /// none [default: none]. With --init from a net without them, the stack starts out passing
    /// the net's output through.
    #[arg(long, value_name = "SIZES", value_parser = Hidden::parse)]
    pub hidden: Option<Hidden>,
    /// The first hidden layer's activation: screlu or crelu (the later ones clip) [default:
    /// screlu].
    #[arg(long, value_parser = Activation::from_name)]
    pub hidden_activation: Option<Activation>,
    /// Passes over the training positions [default: 20].
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Positions per optimiser step [default: 16384].
    #[arg(long)]
    pub batch_size: Option<u32>,
    /// Adam's step size at the first epoch [default: 0.001].
    #[arg(long)]
    pub lr: Option<f64>,
    /// Learning-rate schedule: constant, cosine[:FINAL] (down to lr × FINAL, default 0.01) or
    /// step:EPOCHS[:FACTOR] (times FACTOR, default 0.3, every EPOCHS) [default: cosine:0.01].
    #[arg(long, value_parser = Schedule::parse)]
    pub schedule: Option<Schedule>,
    /// The search score's share of the target; the game result has the rest [default: 0.75].
    #[arg(long)]
    pub lambda: Option<f64>,
    /// The sigmoid's scale in centipawns (win probability σ(cp/K)) [default: fitted to the data].
    #[arg(long)]
    pub k: Option<f64>,
    /// Share of the games held out for validation [default: 0.05].
    #[arg(long)]
    pub validation: Option<f64>,
    /// Seed of the initial weights and the shuffles [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads (part of the recipe: the same data, seed and threads give the same net)
    /// [default: the machine's cores].
    #[arg(long)]
    pub threads: Option<u32>,
}

impl TrainArgs {
    /// The job these arguments describe.
    pub fn job(&self) -> TrainJob {
        TrainJob {
            data: self.data.clone(),
            out: self.out.clone(),
            checkpoint_dir: self
                .checkpoint_dir
                .clone()
                .unwrap_or_else(|| run::default_checkpoint_dir(&self.out)),
            resume: self.resume,
            stop_after: self.stop_after,
            export: self.export,
            init: self.init.clone(),
            request: SettingsRequest {
                width: self.width,
                king_buckets: self.king_buckets,
                no_mirror: self.no_mirror,
                relations: self.relations,
                activation: self.activation,
                output_buckets: self.output_buckets,
                hidden: self.hidden,
                hidden_activation: self.hidden_activation,
                epochs: self.epochs,
                batch_size: self.batch_size,
                lr: self.lr,
                schedule: self.schedule,
                lambda: self.lambda,
                k: self.k,
                validation: self.validation,
                seed: self.seed,
                threads: self.threads,
                init: None,
            },
        }
    }
}

/// Arguments of `chariot nnue check`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct CheckArgs {
    /// The net file [default: the net built into this binary].
    pub file: Option<PathBuf>,
}

/// Arguments of `chariot nnue random`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct RandomArgs {
    /// Accumulator width per perspective (a multiple of 16, e.g. 128, 256, 512).
    #[arg(long, default_value_t = Architecture::DEFAULT.width)]
    pub width: usize,
    /// King buckets: single, rank (3) or palace (9, or 6 mirrored).
    #[arg(long, default_value = "palace", value_parser = KingBuckets::from_name)]
    pub king_buckets: KingBuckets,
    /// Do not mirror the board when the king stands right of centre.
    #[arg(long)]
    pub no_mirror: bool,
    /// Add relation inputs (which piece attacks or protects which).
    #[arg(long)]
    pub relations: bool,
    /// Hidden activation: crelu or screlu.
    #[arg(long, default_value = "screlu", value_parser = Activation::from_name)]
    pub activation: Activation,
    /// Output buckets by material (1 to 31).
    #[arg(long, default_value_t = Architecture::DEFAULT.output_buckets)]
    pub output_buckets: usize,
    /// Hidden layers, sizes separated by commas (e.g. 16,32), or none.
    #[arg(long, value_name = "SIZES", default_value = "none", value_parser = Hidden::parse)]
    pub hidden: Hidden,
    /// The first hidden layer's activation: screlu or crelu (the later ones clip).
    #[arg(long, default_value = "screlu", value_parser = Activation::from_name)]
    pub hidden_activation: Activation,
    /// Seed of the random weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the net.
    #[arg(short, long)]
    pub out: PathBuf,
}

impl RandomArgs {
    /// The architecture these arguments ask for.
    pub fn architecture(&self) -> Architecture {
        Architecture {
            features: FeatureSet {
                king_buckets: self.king_buckets,
                mirror: !self.no_mirror,
                relations: self.relations,
            },
            width: self.width,
            activation: self.activation,
            output_buckets: self.output_buckets,
            quantisation: Quantisation::DEFAULT,
            hidden: self.hidden.with_first_activation(self.hidden_activation),
        }
    }
}

/// Prints a net's architecture, one fact a line.
pub fn describe(net: &Network, out: &mut impl Write) -> Result<()> {
    let arch = net.arch();
    let q = arch.quantisation;
    writeln!(out, "Format: version {}, checksum {:016x} ok", format::version_of(net), format::checksum(net))?;
    writeln!(out, "Inputs: {}", arch.features)?;
    writeln!(out, "Accumulator: {} per perspective, {}", arch.width, arch.activation.name())?;
    if !arch.hidden.is_empty() {
        writeln!(
            out,
            "Hidden layers: {} (the first {}, later ones crelu; one stack per output bucket)",
            arch.hidden.sizes().iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" -> "),
            arch.hidden.first_activation().name()
        )?;
    }
    writeln!(
        out,
        "Output buckets: {} (by pieces other than the kings, n * {0} / {})",
        arch.output_buckets,
        features::MAX_NON_KING_PIECES + 1
    )?;
    writeln!(out, "Quantisation: QA {}, QB {}, scale {} centipawns per unit", q.qa, q.qb, q.scale)?;
    writeln!(out, "Payload: {} bytes", format::payload_len(arch))?;
    let description = if net.description().is_empty() { "(none)" } else { net.description() };
    writeln!(out, "Description: {description}")?;
    let (a, b) = net.win_rate().parameters(crate::winrate::MATERIAL_SCALE as u32);
    writeln!(
        out,
        "Win-rate model: {} (at full material 50% to win at {a:.0}, slope {b:.0})",
        super::winrate_fit::as_rust(net.win_rate())
    )?;
    writeln!(out, "Start position: {:+} (red to move's view)", net.evaluate(&Position::startpos()))?;
    Ok(())
}

/// Runs `chariot nnue loss`: every net is loaded (and refused) before the data is read.
fn measure_loss(args: &LossArgs, out: &mut impl Write) -> Result<()> {
    let nets: Vec<(String, Arc<Network>)> = if args.nets.is_empty() {
        let net = format::from_bytes(embedded::BYTES).map_err(Error::msg)?;
        vec![("the built-in net".to_owned(), Arc::new(net))]
    } else {
        args.nets.iter().map(|p| Ok((p.display().to_string(), load_net(p)?))).collect::<Result<_>>()?
    };
    let request =
        LossRequest { data: args.data.clone(), lambda: args.lambda, k: args.k, threads: args.threads };
    let data = LossData::load(&request).map_err(Error::msg)?;
    for note in &data.notes {
        writeln!(out, "Note: {note}")?;
    }
    writeln!(out, "Data: {} positions in {} complete games", data.positions(), data.games)?;
    let k_source = if data.k_fitted { "fitted to the data" } else { "given" };
    writeln!(out, "Target: lambda {}, K {:.1} ({k_source})", data.blend.lambda, data.blend.k)?;
    let b = data.baselines;
    writeln!(
        out,
        "Baselines: constant {:.6}, classic evaluation {:.6}, search score {:.6}",
        b.constant, b.classic, b.search
    )?;
    for (name, net) in &nets {
        let loss = data.measure(net);
        let q = loss.quantised;
        writeln!(
            out,
            "{name}: float {:.6}, quantised {:.6} (from the float net: mean {:.2} cp, max {:.1} cp)",
            loss.float, q.loss, q.mean_error_cp, q.max_error_cp
        )?;
    }
    Ok(())
}

/// Runs `chariot nnue …`.
pub fn run(args: &NnueArgs, out: &mut impl Write) -> Result<()> {
    match &args.command {
        NnueCommand::Check(check) => {
            let (net, name) = match &check.file {
                Some(file) => (load_net(file)?, file.display().to_string()),
                // The built-in bytes go through the same checks as a file's.
                None => {
                    let net = format::from_bytes(embedded::BYTES).map_err(Error::msg)?;
                    (Arc::new(net), "the built-in net (nets/default.nnue)".to_owned())
                }
            };
            writeln!(out, "File: {name}")?;
            describe(&net, out)?;
        }
        NnueCommand::Random(random) => {
            let arch = random.architecture();
            arch.validate().map_err(Error::msg)?;
            let net = FloatNetwork::random(arch, random.seed).quantise().map_err(Error::msg)?;
            let net = net.with_description(&format!("random weights, seed {}", random.seed));
            format::save(&net, &random.out).map_err(Error::msg)?;
            writeln!(out, "Wrote {}", random.out.display())?;
            describe(&net, out)?;
        }
        NnueCommand::Train(train) => {
            // One bar an epoch: its length is set when the epoch's first batch is reported.
            let style = bar_style("{msg} {bar:40} {pos}/{len} positions [{elapsed} < {eta}]");
            let bar = progress_bar(0, progress_wanted(), style);
            let mut shown_epoch = 0;
            let result = crate::train::train(&train.job(), out, &mut |epoch, done, total| {
                if epoch != shown_epoch {
                    shown_epoch = epoch;
                    bar.reset();
                    bar.set_length(total as u64);
                    bar.set_message(format!("epoch {epoch}"));
                }
                bar.set_position(done as u64);
            });
            bar.finish_and_clear();
            result.map_err(Error::msg)?;
        }
        NnueCommand::Winrate(fit) => super::winrate_fit::run(fit, out)?,
        NnueCommand::Loss(loss) => measure_loss(loss, out)?,
    }
    out.flush()?;
    Ok(())
}
