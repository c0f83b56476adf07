//! The training loop: epochs of shuffled mini-batches, each batch's gradient computed on several
//! threads and applied by Adam, a validation pass after each epoch, and the export of a net.
//!
//! Reproducibility: the shuffle comes from the state's own generator; a batch is cut into as many
//! contiguous parts as there are threads, each part's gradient is summed in position order into
//! that thread's buffer, and the buffers are added in thread order. So the same data, settings,
//! seed and thread count give the same weights bit for bit, and a run resumed from a checkpoint
//! gives what an uninterrupted run gives.

use crate::board::Position;
use crate::datagen::format::Record;
use crate::eval::nnue::network::Network;

use super::adam::Adam;
use super::checkpoint::{DataIdentity, EpochLosses, TrainState};
use super::float::FloatNetwork;
use super::loss::{Blend, ScoreTable};
use super::model::{self, ClipLimits, Gradients, Scratch};
use super::rng::SplitMix64;
use super::samples::Samples;
use super::settings::TrainSettings;

/// A run's starting state: the weights of `start` (an `--init` net's), or else from the seed
/// (`FloatNetwork::random`), clipped; a fresh optimiser, the generator seeded, and K as given or
/// else fitted to the training positions.
pub fn fresh_state(
    settings: TrainSettings,
    data: DataIdentity,
    training: &Samples,
    start: Option<FloatNetwork>,
) -> TrainState {
    let k = settings.k.unwrap_or_else(|| fit_k(training));
    let mut net = start.unwrap_or_else(|| FloatNetwork::random(settings.arch, settings.seed));
    model::clip(&mut net, &ClipLimits::of(&settings.arch));
    TrainState {
        settings,
        data,
        k,
        epochs_done: 0,
        rng: SplitMix64::new(settings.seed).state,
        history: Vec::new(),
        best_epoch: 0,
        best_net: net.clone(),
        adam: Adam::new(&settings.arch),
        net,
    }
}

/// The K for which `σ(score/K)` best predicts the results of `samples`.
pub fn fit_k(samples: &Samples) -> f64 {
    fit_k_of((0..samples.len()).map(|i| samples.get(i)).map(|s| (s.score, s.result)))
}

/// The K for which `σ(score/K)` best predicts the results of the (score, result code) pairs.
pub fn fit_k_of(labels: impl Iterator<Item = (i16, u8)>) -> f64 {
    let mut table = ScoreTable::new();
    labels.for_each(|(score, result)| table.add(score, result));
    table.fit_k()
}

/// The blend of labels a state trains towards.
pub fn blend(state: &TrainState) -> Blend {
    Blend { lambda: state.settings.lambda as f32, k: state.k as f32 }
}

/// What one epoch did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: u32,
    /// Its losses and learning rate.
    pub losses: EpochLosses,
    /// Whether its validation loss is the lowest so far.
    pub best: bool,
}

/// Per-thread buffers, kept from batch to batch.
pub struct Workspace {
    grads: Vec<Gradients>,
    scratch: Vec<Scratch>,
}

impl Workspace {
    /// Buffers for `state`'s net and thread count (a few MB a thread).
    pub fn new(state: &TrainState) -> Workspace {
        let threads = state.settings.threads as usize;
        let arch = &state.settings.arch;
        Workspace {
            grads: (0..threads).map(|_| Gradients::zeros(arch)).collect(),
            scratch: (0..threads).map(|_| Scratch::new(arch)).collect(),
        }
    }
}

/// Trains one epoch over `training`, then measures `validation`. `progress` is told the number
/// of positions done after each batch.
pub fn run_epoch(
    state: &mut TrainState,
    work: &mut Workspace,
    training: &Samples,
    validation: &Samples,
    progress: &mut dyn FnMut(usize),
) -> EpochReport {
    let settings = state.settings;
    let threads = settings.threads as usize;
    let blend = blend(state);
    let limits = ClipLimits::of(&settings.arch);
    let lr = settings.schedule.rate(settings.lr, state.epochs_done, settings.epochs);
    let mut rng = SplitMix64 { state: state.rng };
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    rng.shuffle(&mut order);
    // Each batch in ascending order: the same positions (and the same sum, fixed in order), but
    // memory read front to back, which the hardware prefetches.
    order.chunks_mut(settings.batch_size as usize).for_each(|batch| batch.sort_unstable());
    let mut loss_sum = 0.0f64;
    let mut done = 0;
    for batch in order.chunks(settings.batch_size as usize) {
        let part = batch.len().div_ceil(threads);
        let net = &state.net;
        let losses: Vec<f64> = std::thread::scope(|s| {
            let mut jobs = batch.chunks(part).zip(work.grads.iter_mut()).zip(work.scratch.iter_mut());
            let first = jobs.next();
            let handles: Vec<_> = jobs
                .map(|((positions, grads), scratch)| {
                    s.spawn(move || model::batch_gradient(net, training, positions, blend, grads, scratch))
                })
                .collect();
            let mut losses = Vec::with_capacity(threads);
            if let Some(((positions, grads), scratch)) = first {
                losses.push(model::batch_gradient(net, training, positions, blend, grads, scratch));
            }
            losses.extend(handles.into_iter().map(|h| h.join().expect("a gradient thread does not panic")));
            losses
        });
        loss_sum += losses.iter().sum::<f64>();
        state.adam.step(&mut state.net, &mut work.grads, batch.len(), lr, &limits, threads);
        done += batch.len();
        progress(done);
    }
    state.rng = rng.state;
    state.epochs_done += 1;
    let train = loss_sum / training.len().max(1) as f64;
    let validation_loss =
        if validation.is_empty() { f64::NAN } else { mean_loss(&state.net, validation, blend, threads) };
    let previous_best = state.best_epoch.checked_sub(1).map(|e| state.history[e as usize].validation);
    let best = !validation.is_empty() && previous_best.is_none_or(|b| validation_loss < b);
    if best || validation.is_empty() {
        state.best_epoch = state.epochs_done;
        state.best_net.clone_from(&state.net);
    }
    let losses = EpochLosses { train, validation: validation_loss, lr };
    state.history.push(losses);
    EpochReport { epoch: state.epochs_done, losses, best }
}

/// The mean loss of `net` over `samples`, on `threads` threads (the same bits for any count:
/// each part's sum is kept apart and the parts are added in order; the parts are fixed).
pub fn mean_loss(net: &FloatNetwork, samples: &Samples, blend: Blend, threads: usize) -> f64 {
    const PARTS: usize = 64;
    let n = samples.len();
    if n == 0 {
        return f64::NAN;
    }
    let bounds: Vec<std::ops::Range<usize>> =
        (0..PARTS).map(|p| p * n / PARTS..(p + 1) * n / PARTS).collect();
    let per_thread = PARTS.div_ceil(threads.max(1));
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = bounds
            .chunks(per_thread)
            .map(|ranges| {
                s.spawn(move || {
                    ranges
                        .iter()
                        .map(|r| model::batch_loss(net, samples, r.clone(), blend))
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a loss thread does not panic")).collect()
    });
    sums.iter().sum::<f64>() / n as f64
}

/// How the quantised net does against the float net it came from, over `samples`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QuantisedCheck {
    /// The quantised net's mean loss.
    pub loss: f64,
    /// The largest difference between the two nets' scores, centipawns.
    pub max_error_cp: f64,
    /// The mean difference, centipawns.
    pub mean_error_cp: f64,
}

/// Evaluates the quantised `net` (as the engine does) and `float` on every position of `samples`.
pub fn check_quantised(
    net: &Network,
    float: &FloatNetwork,
    samples: &Samples,
    blend: Blend,
) -> QuantisedCheck {
    let n = net.arch().width;
    let (mut us, mut them) = (vec![0i16; n], vec![0i16; n]);
    let mut active = Vec::with_capacity(net.arch().features.max_active());
    let mut scratch = Scratch::new(net.arch());
    let (mut loss, mut max_error, mut sum_error) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..samples.len() {
        let s = samples.get(i);
        for (features, acc) in [(s.us, &mut us), (s.them, &mut them)] {
            active.clear();
            active.extend(features.iter().map(|&f| f as usize));
            net.refresh(&active, acc);
        }
        let cp = net.output(&us, &them, s.bucket) as f32;
        loss += blend.loss(cp, blend.target(s.score, s.result)) as f64;
        let error = (cp - model::predict_cp(float, &s, &mut scratch)).abs() as f64;
        max_error = max_error.max(error);
        sum_error += error;
    }
    let count = samples.len().max(1) as f64;
    QuantisedCheck { loss: loss / count, max_error_cp: max_error, mean_error_cp: sum_error / count }
}

/// Reference losses that say what the net's losses are worth.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Baselines {
    /// Predicting the mean target for every position (the targets' variance).
    pub constant: f64,
    /// Predicting with the classic (hand-tuned) evaluation's score.
    pub classic: f64,
    /// Predicting with the search score itself: about the best a static evaluation can hope for
    /// (only the result's share of the target is left to miss).
    pub search: f64,
}

/// The reference losses over `records` (the validation positions).
pub fn baselines(records: &[Record], blend: Blend) -> Baselines {
    let targets: Vec<f64> =
        records.iter().map(|r| blend.target(r.score(), r.result() as u8) as f64).collect();
    let n = targets.len().max(1) as f64;
    let mean = targets.iter().sum::<f64>() / n;
    let constant = targets.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / n;
    let classic = records
        .iter()
        .zip(&targets)
        .map(|(r, &t)| match Position::from_fen(&r.to_fen()) {
            Ok(pos) => blend.loss(crate::eval::classic::evaluate(&pos) as f32, t as f32) as f64,
            // A record the reader accepted but the FEN rules refuse: scored as a coin toss.
            Err(_) => (0.5 - t) * (0.5 - t),
        })
        .sum::<f64>()
        / n;
    let search = records
        .iter()
        .zip(&targets)
        .map(|(r, &t)| blend.loss(r.score() as f32, t as f32) as f64)
        .sum::<f64>()
        / n;
    Baselines { constant, classic, search }
}
