//! The loss of finished nets on data (`chariot nnue loss`): how nets compare on positions none of
//! them trained on, measured as the trainer measures its validation positions.
//!
//! Every complete game of the files counts (no split). K is fitted to the data unless given, so
//! it is the same for every net measured on the same files and their losses compare.

use std::fmt;
use std::path::PathBuf;

use crate::datagen::format::Record;
use crate::eval::nnue::network::Network;

use super::data::{self, LoadError};
use super::float::FloatNetwork;
use super::loss::Blend;
use super::samples::Samples;
use super::settings::{check_target, check_threads, defaults, SettingsError};
use super::trainer::{self, Baselines, QuantisedCheck};

/// What to measure nets on.
#[derive(Clone, Debug, PartialEq)]
pub struct LossRequest {
    /// Scored data files (`datagen --scored`); an unfinished last game is left out.
    pub data: Vec<PathBuf>,
    /// The search score's share of the target; `None`: the trainer's default.
    pub lambda: Option<f64>,
    /// The sigmoid's scale in centipawns; `None`: fitted to the data.
    pub k: Option<f64>,
    /// Threads for the feature conversion and the float loss (the result does not depend on it).
    pub threads: usize,
}

/// The data loaded once, with the target every net is measured against.
pub struct LossData {
    records: Vec<Record>,
    /// Complete games read.
    pub games: u64,
    /// What was left out of unfinished file ends, one note a file.
    pub notes: Vec<String>,
    /// The target's blend: λ, and K (given or fitted).
    pub blend: Blend,
    /// Whether K was fitted to the data (not given).
    pub k_fitted: bool,
    /// The losses of predictions that are not a net's, for scale.
    pub baselines: Baselines,
    threads: usize,
}

/// One net's losses on the data.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct NetLoss {
    /// The mean loss of the net's weights in floating point (as training sees them).
    pub float: f64,
    /// The engine's integer evaluation: its loss, and its distance from the float scores.
    pub quantised: QuantisedCheck,
}

/// Why nets cannot be measured on the data.
#[derive(Clone, Debug, PartialEq)]
pub enum MeasureError {
    /// A file could not be read, or holds a damaged record.
    Data(LoadError),
    /// The files hold no complete game.
    NoPositions(Vec<PathBuf>),
    /// `--lambda`, `--k` or `--threads` outside its range (the trainer's check).
    Settings(SettingsError),
}

impl fmt::Display for MeasureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeasureError::Data(e) => e.fmt(f),
            MeasureError::NoPositions(paths) => write!(
                f,
                "no complete game in {}",
                paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
            MeasureError::Settings(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MeasureError {}

impl LossData {
    /// Reads every complete game of `request.data` and fixes the target.
    pub fn load(request: &LossRequest) -> Result<LossData, MeasureError> {
        let lambda = request.lambda.unwrap_or(defaults::LAMBDA);
        check_target(lambda, request.k).map_err(MeasureError::Settings)?;
        check_threads(request.threads).map_err(MeasureError::Settings)?;
        let set = match data::load(&request.data, 0.0) {
            Ok(set) => set,
            Err(LoadError::NoTraining { paths, .. }) => return Err(MeasureError::NoPositions(paths)),
            Err(e) => return Err(MeasureError::Data(e)),
        };
        let k = request
            .k
            .unwrap_or_else(|| trainer::fit_k_of(set.training.iter().map(|r| (r.score(), r.result() as u8))));
        let blend = Blend { lambda: lambda as f32, k: k as f32 };
        Ok(LossData {
            baselines: trainer::baselines(&set.training, blend),
            records: set.training,
            games: set.training_games,
            notes: set.notes,
            blend,
            k_fitted: request.k.is_none(),
            threads: request.threads,
        })
    }

    /// The positions measured.
    pub fn positions(&self) -> usize {
        self.records.len()
    }

    /// `net`'s losses on every position.
    pub fn measure(&self, net: &Network) -> NetLoss {
        let arch = net.arch();
        let samples = Samples::from_records(&self.records, arch.features, arch.output_buckets, self.threads);
        let float = FloatNetwork::from_quantised(net);
        NetLoss {
            float: trainer::mean_loss(&float, &samples, self.blend, self.threads),
            quantised: trainer::check_quantised(net, &float, &samples, self.blend),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(lambda: Option<f64>, k: Option<f64>, threads: usize) -> LossRequest {
        LossRequest { data: vec![PathBuf::from("no-such-file.bin")], lambda, k, threads }
    }

    fn refused_option(request: &LossRequest) -> &'static str {
        match LossData::load(request) {
            Err(MeasureError::Settings(SettingsError::OutOfRange { option, .. })) => option,
            Err(e) => panic!("refused for another reason: {e}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn numbers_out_of_range_are_refused_before_any_file_is_read() {
        assert_eq!(refused_option(&request(Some(1.5), None, 1)), "--lambda");
        assert_eq!(refused_option(&request(Some(f64::NAN), None, 1)), "--lambda");
        assert_eq!(refused_option(&request(None, Some(0.0), 1)), "--k");
        assert_eq!(refused_option(&request(None, Some(f64::INFINITY), 1)), "--k");
        assert_eq!(refused_option(&request(None, None, 0)), "--threads");
        assert_eq!(refused_option(&request(None, None, 257)), "--threads");
    }

    #[test]
    fn a_missing_file_is_a_data_error_naming_it() {
        let e = LossData::load(&request(None, None, 1)).err().expect("refused");
        assert!(matches!(e, MeasureError::Data(_)), "{e:?}");
        assert!(e.to_string().contains("no-such-file.bin"), "{e}");
    }
}
