//! `chariot nnue …`: the neural evaluation's tools. `check FILE` verifies a net file and prints its
//! architecture; `random` writes a net with random weights of a chosen architecture (for tests and
//! speed measurements before a trained net exists).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};

use super::CliError;
use crate::board::Position;
use crate::eval::nnue::network::{Activation, Architecture, FloatNetwork, Quantisation};
use crate::eval::nnue::{features, format, FeatureSet, KingBuckets, Network};
use crate::eval::EvalChoice;

/// Arguments of `chariot nnue`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct NnueArgs {
    /// What to do with nets.
    #[command(subcommand)]
    pub command: NnueCommand,
}

/// The `nnue` subcommands.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum NnueCommand {
    /// Verify a net file (header, length, checksum, weight ranges) and print its architecture.
    Check(CheckArgs),
    /// Write a net with random weights (reproducible from its seed).
    Random(RandomArgs),
}

/// Arguments of `chariot nnue check`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct CheckArgs {
    /// The net file.
    pub file: PathBuf,
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
    /// Hidden activation: crelu or screlu.
    #[arg(long, default_value = "screlu", value_parser = Activation::from_name)]
    pub activation: Activation,
    /// Output buckets by material (1 to 31).
    #[arg(long, default_value_t = Architecture::DEFAULT.output_buckets)]
    pub output_buckets: usize,
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
            features: FeatureSet { king_buckets: self.king_buckets, mirror: !self.no_mirror },
            width: self.width,
            activation: self.activation,
            output_buckets: self.output_buckets,
            quantisation: Quantisation::DEFAULT,
        }
    }
}

/// Loads the net at `path`, or says why not.
pub fn load_net(path: &Path) -> Result<Arc<Network>, CliError> {
    format::load(path).map(Arc::new).map_err(CliError)
}

/// The evaluation `--evalfile` asks for: the net in that file, or the classic one without it.
pub fn eval_choice(evalfile: Option<&Path>) -> Result<EvalChoice, CliError> {
    match evalfile {
        None => Ok(EvalChoice::Classic),
        Some(path) => Ok(EvalChoice::Nnue(load_net(path)?)),
    }
}

/// Prints a net's architecture, one fact a line.
pub fn describe(net: &Network, out: &mut impl Write) -> Result<(), CliError> {
    let arch = net.arch();
    let q = arch.quantisation;
    writeln!(out, "Format: version {}, checksum ok", format::VERSION)?;
    writeln!(out, "Inputs: {}", arch.features)?;
    writeln!(out, "Accumulator: {} per perspective, {}", arch.width, arch.activation.name())?;
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
    writeln!(out, "Start position: {:+} (red to move's view)", net.evaluate(&Position::startpos()))?;
    Ok(())
}

/// Runs `chariot nnue …`.
pub fn run(args: &NnueArgs, out: &mut impl Write) -> Result<(), CliError> {
    match &args.command {
        NnueCommand::Check(check) => {
            let net = load_net(&check.file)?;
            writeln!(out, "File: {}", check.file.display())?;
            describe(&net, out)?;
        }
        NnueCommand::Random(random) => {
            let arch = random.architecture();
            arch.validate().map_err(CliError)?;
            let net = FloatNetwork::random(arch, random.seed).quantise().map_err(CliError)?;
            let net = net.with_description(&format!("random weights, seed {}", random.seed));
            format::save(&net, &random.out).map_err(CliError)?;
            writeln!(out, "Wrote {}", random.out.display())?;
            describe(&net, out)?;
        }
    }
    out.flush()?;
    Ok(())
}
