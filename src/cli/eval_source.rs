//! Which evaluation a searching subcommand uses (`--evalfile`, `--classic`), and loading a net
//! file named on the command line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Error, Result};
use clap::Args;

use crate::eval::nnue::{format, Network};
use crate::eval::EvalChoice;

/// Loads the net at `path`, or says why not.
pub fn load_net(path: &Path) -> Result<Arc<Network>> {
    format::load(path).map(Arc::new).map_err(Error::msg)
}

/// The evaluation a searching subcommand uses: the built-in net unless told otherwise.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct EvalSource {
    /// Evaluate with the net in this file instead of the built-in one.
    #[arg(long, value_name = "NET", conflicts_with = "classic")]
    pub evalfile: Option<PathBuf>,
    /// Evaluate with the classic (hand-tuned piece-square) evaluation instead of a net.
    #[arg(long)]
    pub classic: bool,
}

impl EvalSource {
    /// The evaluation these arguments ask for; a net file that does not load is an error.
    pub fn choice(&self) -> Result<EvalChoice> {
        match (&self.evalfile, self.classic) {
            (_, true) => Ok(EvalChoice::Classic),
            (Some(path), false) => Ok(EvalChoice::Nnue(load_net(path)?)),
            (None, false) => Ok(EvalChoice::default()),
        }
    }
}
