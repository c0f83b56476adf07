//! Growing a trained net into a larger shape without changing what it computes, so that a
//! bigger net (`nnue train --init` with a wider `--width` or finer `--king-buckets`) starts from
//! everything the smaller one learned instead of from random weights:
//!
//! * a wider accumulator: the old neurons keep their weights; each new neuron gets random
//!   feature weights and bias (as `FloatNetwork::random` draws them) and **zero** output weights,
//!   so it adds nothing until training gives it a use;
//! * finer king buckets: each new bucket starts as a copy of the old bucket that held the same
//!   king squares (one bucket copied into nine palace squares, three rank buckets into their
//!   palace squares);
//! * relation inputs added: their weights start at **zero**, so they add nothing until trained;
//! * hidden layers added under a net without them (`--hidden`): the feature transformer and the
//!   output biases are copied, and the stack starts out passing the old output through (see
//!   `add_stack`), so training starts from the old net's scores rather than from noise.
//!
//! A net that has hidden layers keeps its shape: its first layer reads every accumulator value,
//! and growing under it is not written.
//!
//! The mirroring, the activation, the output buckets and the quantisation must stay: changing
//! them changes what the weights mean.

use std::fmt;

use crate::board::{Color, Square};
use crate::eval::nnue::architecture::{Activation, Architecture, Hidden};
use crate::eval::nnue::features::relations::RELATION_FEATURES;
use crate::eval::nnue::features::{FeatureSet, FEATURES_PER_BUCKET};

use super::float::FloatNetwork;

/// Why a net cannot grow into a shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrowError {
    /// The new accumulator is narrower than the net's.
    Narrower {
        /// The net's width.
        from: usize,
        /// The width asked for.
        to: usize,
    },
    /// A king bucket asked for holds king squares of two of the net's buckets.
    Coarser {
        /// The net's feature set.
        from: FeatureSet,
        /// The one asked for.
        to: FeatureSet,
    },
    /// Something that must stay the same differs: which, and the two values.
    Changed {
        /// The option, as the command line spells it.
        what: &'static str,
        /// The net's value.
        from: String,
        /// The value asked for.
        to: String,
    },
}

impl fmt::Display for GrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrowError::Narrower { from, to } => {
                write!(f, "--width {to} is narrower than the net's {from}: a net can grow, not shrink")
            }
            GrowError::Coarser { from, to } => write!(
                f,
                "--king-buckets {} merges king squares the net's {} buckets tell apart: a net's buckets \
                 can be split, not merged",
                to.king_buckets.name(),
                from.king_buckets.name()
            ),
            GrowError::Changed { what, from, to } => {
                write!(
                    f,
                    "{what} {to} (the net's: {from}): only the width, the king buckets and relation inputs \
                     can grow"
                )
            }
        }
    }
}

impl std::error::Error for GrowError {}

/// `net` in the shape `arch`: the same function (see the module's doc), new weights drawn from
/// `seed`. The same shape gives `net` back unchanged.
pub fn grow(net: &FloatNetwork, arch: Architecture, seed: u64) -> Result<FloatNetwork, GrowError> {
    let old = net.arch;
    if arch == old {
        return Ok(net.clone());
    }
    if !old.hidden.is_empty() {
        return Err(GrowError::Changed {
            what: "the shape of a net with hidden layers",
            from: old.to_string(),
            to: arch.to_string(),
        });
    }
    let flat = grow_flat(net, Architecture { hidden: Hidden::NONE, ..arch }, seed)?;
    if arch.hidden.is_empty() {
        return Ok(flat);
    }
    Ok(add_stack(&flat, arch, seed))
}

/// How far the pass-through neurons reach: the first hidden layer's two pass-through neurons
/// compute `clamp(±PASS·u, 0, 1)`, `u` the old net's output less its bias, so the old output is
/// reproduced exactly while `|u| ≤ 1/PASS` (850 centipawns at scale 400) and clipped beyond. A
/// larger reach would cost resolution: the quantised neuron has 255 steps, so one step is
/// `1/(255·PASS)` units, 3.3 centipawns here. Not 0.5: the old output weights are multiples of
/// 1/QB = 1/1024, so half of them would become exact ties at the hidden scale QH = 1024 (`v/2`
/// for odd `v`), and the first training step, which moves a row's weights all the same way,
/// would tip every tie the same way: a bias of about 12 cp measured on s17's positions (the
/// quantised net against the float one), where 0.47 leaves rounding errors that cancel (1 cp).
pub const PASS: f32 = 0.47;

/// The one-layer net `flat` with the hidden layers of `arch` added under its output, computing
/// (in floats, while the output stays within ±1/PASS of the bias) what `flat` computes. With a
/// clipped first layer, its neurons 0 and 1 are `±PASS` times the old output weights, with zero
/// bias: `h₀ − h₁ = PASS·u`. With a squared one, they are `±PASS/2` times them with bias ½:
/// `(½ + t)² − (½ − t)² = 2t = PASS·u` for `t = PASS·u/2`, exact while both stay in [0, 1], that
/// is over the same reach. Each later layer passes neurons 0 and 1 on (weight 1, bias 0); the
/// output layer reads only those two, with weights `±1/PASS` and the old bias. Every other hidden neuron is drawn at random
/// (as `FloatNetwork::random` draws them) and has a zero output weight: it adds nothing at first
/// but receives gradient through its output weight, as the new neurons of a wider net do.
fn add_stack(flat: &FloatNetwork, arch: Architecture, seed: u64) -> FloatNetwork {
    let mut net = FloatNetwork::random(arch, seed);
    net.feature_weights.clone_from(&flat.feature_weights);
    net.feature_bias.clone_from(&flat.feature_bias);
    let two_n = 2 * arch.width;
    let (scale, middle) = match arch.hidden.first_activation() {
        Activation::CRelu => (PASS, 0.0),
        Activation::SCRelu => (PASS / 2.0, 0.5),
    };
    for (l, layer) in net.hidden.iter_mut().enumerate() {
        let (inputs, outputs) = (layer.inputs, layer.outputs);
        for k in 0..arch.output_buckets {
            for (j, sign) in [(0, 1.0f32), (1, -1.0)] {
                let row = &mut layer.weights[(k * outputs + j) * inputs..(k * outputs + j + 1) * inputs];
                if l == 0 {
                    let old = &flat.output_weights[k * two_n..(k + 1) * two_n];
                    row.iter_mut().zip(old).for_each(|(w, &o)| *w = sign * scale * o);
                    layer.bias[k * outputs + j] = middle;
                } else {
                    row.fill(0.0);
                    row[j] = 1.0;
                    layer.bias[k * outputs + j] = 0.0;
                }
            }
        }
    }
    let last = arch.output_inputs();
    for k in 0..arch.output_buckets {
        let w = &mut net.output_weights[k * last..(k + 1) * last];
        w.fill(0.0);
        w[0] = 1.0 / PASS;
        w[1] = -1.0 / PASS;
    }
    net.output_bias.clone_from(&flat.output_bias);
    net
}

/// `grow` between two shapes without hidden layers.
fn grow_flat(net: &FloatNetwork, arch: Architecture, seed: u64) -> Result<FloatNetwork, GrowError> {
    let old = net.arch;
    if arch == old {
        return Ok(net.clone());
    }
    let changed = |what: &'static str, from: String, to: String| {
        if from == to {
            Ok(())
        } else {
            Err(GrowError::Changed { what, from, to })
        }
    };
    let on_off = |on: bool| if on { "on" } else { "off" }.to_string();
    changed("mirroring", on_off(old.features.mirror), on_off(arch.features.mirror))?;
    changed("--activation", old.activation.name().into(), arch.activation.name().into())?;
    changed("--output-buckets", old.output_buckets.to_string(), arch.output_buckets.to_string())?;
    changed("quantisation", format!("{:?}", old.quantisation), format!("{:?}", arch.quantisation))?;
    if old.features.relations && !arch.features.relations {
        changed("relation inputs", on_off(true), on_off(false))?;
    }
    if arch.width < old.width {
        return Err(GrowError::Narrower { from: old.width, to: arch.width });
    }
    let sources = bucket_sources(old.features, arch.features)
        .ok_or(GrowError::Coarser { from: old.features, to: arch.features })?;

    let (n_old, n) = (old.width, arch.width);
    let mut grown = FloatNetwork::random(arch, seed);
    for (bucket, &source) in sources.iter().enumerate() {
        for feature in 0..FEATURES_PER_BUCKET {
            let from = (source * FEATURES_PER_BUCKET + feature) * n_old;
            let to = (bucket * FEATURES_PER_BUCKET + feature) * n;
            grown.feature_weights[to..to + n_old].copy_from_slice(&net.feature_weights[from..from + n_old]);
        }
    }
    if arch.features.relations {
        let (old_base, base) = (old.features.piece_inputs(), arch.features.piece_inputs());
        for feature in 0..RELATION_FEATURES {
            let to = (base + feature) * n;
            let row = &mut grown.feature_weights[to..to + n];
            if old.features.relations {
                let from = (old_base + feature) * n_old;
                row[..n_old].copy_from_slice(&net.feature_weights[from..from + n_old]);
            } else {
                row.fill(0.0);
            }
        }
    }
    grown.feature_bias[..n_old].copy_from_slice(&net.feature_bias);
    for bucket in 0..arch.output_buckets {
        for half in 0..2 {
            let from = bucket * 2 * n_old + half * n_old;
            let to = bucket * 2 * n + half * n;
            grown.output_weights[to..to + n_old].copy_from_slice(&net.output_weights[from..from + n_old]);
            grown.output_weights[to + n_old..to + n].fill(0.0);
        }
    }
    grown.output_bias.copy_from_slice(&net.output_bias);
    Ok(grown)
}

/// For each king bucket of `to`, the bucket of `from` that holds the same king squares; `None`
/// when a bucket of `to` spans two of `from`'s. Both sets mirror alike (checked by the caller),
/// so one perspective's palace squares tell every bucket apart.
fn bucket_sources(from: FeatureSet, to: FeatureSet) -> Option<Vec<usize>> {
    let mut sources = vec![None; to.bucket_count()];
    for file in 3..=5 {
        for rank in 0..=2 {
            let king = Square::new(file, rank);
            let bucket = to.frame(Color::Red, king).bucket_offset() / FEATURES_PER_BUCKET;
            let source = from.frame(Color::Red, king).bucket_offset() / FEATURES_PER_BUCKET;
            match sources[bucket] {
                None => sources[bucket] = Some(source),
                Some(s) if s == source => {}
                Some(_) => return None,
            }
        }
    }
    sources.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::nnue::architecture::{Activation, Quantisation};
    use crate::eval::nnue::KingBuckets;
    use crate::train::float::tests::random_positions;

    fn arch(buckets: KingBuckets, mirror: bool, width: usize) -> Architecture {
        Architecture {
            features: FeatureSet { king_buckets: buckets, mirror, relations: false },
            width,
            activation: Activation::SCRelu,
            output_buckets: 4,
            quantisation: Quantisation::DEFAULT,
            hidden: Hidden::NONE,
        }
    }

    /// Grown, the quantised net scores every position exactly as the original quantised net.
    #[test]
    fn a_grown_net_computes_what_the_net_computed() {
        let cases = [
            (KingBuckets::Single, KingBuckets::Palace, true, 32, 48),
            (KingBuckets::Single, KingBuckets::Palace, false, 32, 32),
            (KingBuckets::Rank, KingBuckets::Palace, true, 32, 64),
            (KingBuckets::Single, KingBuckets::Rank, true, 16, 16),
            (KingBuckets::Palace, KingBuckets::Palace, true, 16, 32),
        ];
        let all = random_positions(5, 3000);
        for (from, to, mirror, w_from, w_to) in cases {
            let net = FloatNetwork::random(arch(from, mirror, w_from), 3).quantise().unwrap();
            let float = FloatNetwork::from_quantised(&net);
            let grown = grow(&float, arch(to, mirror, w_to), 9).unwrap();
            assert_eq!(grown.arch, arch(to, mirror, w_to));
            let quantised = grown.quantise().unwrap();
            let mut king_frames = std::collections::HashSet::new();
            for pos in &all {
                assert_eq!(quantised.evaluate(pos), net.evaluate(pos), "{from:?} -> {to:?}: {pos:?}");
                for side in Color::BOTH {
                    king_frames.insert((side, to_frame(to, mirror, side, pos)));
                }
            }
            assert!(king_frames.len() >= 4, "{from:?} -> {to:?}: the kings visited {king_frames:?}");
            // New neurons are live (they can learn) but silent (zero output weights).
            if w_to > w_from {
                assert!(grown.feature_bias[w_from..].iter().all(|&b| b > 0.0));
                assert!(grown.output_weights[w_from..w_to].iter().all(|&w| w == 0.0));
            }
        }
    }

    fn with_relations(arch: Architecture) -> Architecture {
        Architecture { features: FeatureSet { relations: true, ..arch.features }, ..arch }
    }

    /// Relation inputs added (at zero), or kept while the net widens: the same scores, and the
    /// added inputs can learn (they are inputs like any other) but start silent.
    #[test]
    fn adding_relation_inputs_keeps_what_the_net_computed() {
        let plain = arch(KingBuckets::Single, true, 32);
        let cases = [
            (plain, with_relations(plain)),
            (plain, with_relations(arch(KingBuckets::Palace, true, 48))),
            (with_relations(plain), with_relations(arch(KingBuckets::Single, true, 48))),
        ];
        let all = random_positions(6, 1500);
        for (from, to) in cases {
            let net = FloatNetwork::random(from, 3).quantise().unwrap();
            let grown = grow(&FloatNetwork::from_quantised(&net), to, 9).unwrap();
            let quantised = grown.quantise().unwrap();
            for pos in &all {
                assert_eq!(quantised.evaluate(pos), net.evaluate(pos), "{from} -> {to}: {pos:?}");
            }
            let relation_rows = &grown.feature_weights[to.features.piece_inputs() * to.width..];
            let nonzero = relation_rows.iter().filter(|&&w| w != 0.0).count();
            if from.features.relations {
                assert!(nonzero > 0, "{from} -> {to}: the net's relation weights are kept");
            } else {
                assert_eq!(nonzero, 0, "{from} -> {to}");
            }
        }
        let err = grow(&FloatNetwork::random(with_relations(plain), 1), plain, 1).unwrap_err();
        assert!(err.to_string().contains("relation inputs off (the net's: on)"), "{err}");
    }

    fn to_frame(buckets: KingBuckets, mirror: bool, side: Color, pos: &Position) -> usize {
        FeatureSet { king_buckets: buckets, mirror, relations: false }
            .frame(side, pos.king_square(side))
            .bucket_offset()
    }

    /// Hidden layers added under a one-layer net (and the net widened at once): the float net
    /// computes what it computed wherever the output is within ±1/PASS of the bias (the
    /// pass-through's reach), and the quantised nets differ by the pass-through neurons'
    /// rounding, a few centipawns. A net with hidden layers cannot be reshaped.
    #[test]
    fn hidden_layers_start_by_passing_the_net_through() {
        let flat = arch(KingBuckets::Rank, true, 32);
        let all = random_positions(7, 600);
        let cases = [
            (32, &[16][..], Activation::CRelu),
            (32, &[16, 32], Activation::CRelu),
            (48, &[32, 16], Activation::CRelu),
            (32, &[16], Activation::SCRelu),
            (48, &[16, 32], Activation::SCRelu),
        ];
        for (width, sizes, first) in cases {
            let hidden = Hidden::new(sizes).unwrap().with_first_activation(first);
            let to = Architecture { width, hidden, ..flat };
            let net = FloatNetwork::random(flat, 3).quantise().unwrap();
            let float = FloatNetwork::from_quantised(&net);
            let grown = grow(&float, to, 9).unwrap();
            assert_eq!(grown.arch, to);
            assert_eq!(grown.hidden.len(), sizes.len());
            let quantised = grown.quantise().unwrap();
            let (mut compared, mut worst) = (0, 0.0f32);
            for pos in &all {
                let (before, after) = (float.evaluate_cp(pos), grown.evaluate_cp(pos));
                let bucket = crate::eval::nnue::features::output_bucket(
                    crate::eval::nnue::features::non_king_pieces(pos),
                    flat.output_buckets,
                );
                let reach = flat.quantisation.scale as f32 / PASS;
                if (before - float.output_bias[bucket] * flat.quantisation.scale as f32).abs() < reach * 0.99
                {
                    assert!(
                        (before - after).abs() < 0.05,
                        "{sizes:?} {first:?} {pos:?}: {before} vs {after}"
                    );
                    let error = (net.evaluate(pos) - quantised.evaluate(pos)).abs() as f32;
                    worst = worst.max(error);
                    assert!(error <= 8.0, "{sizes:?} {first:?} {pos:?}: quantised {error} cp apart");
                    compared += 1;
                }
            }
            assert!(compared > 500, "{sizes:?}: only {compared} positions within reach");
            eprintln!("{sizes:?} {first:?}: quantised pass-through worst {worst} cp");
            // The stack's other neurons are live but silent: random weights, zero output weights.
            let last = to.output_inputs();
            assert!(grown.output_weights[2..last].iter().all(|&w| w == 0.0));
            assert!(grown.hidden[0].weights[2 * 2 * width..].iter().any(|&w| w != 0.0));
        }
        let deep = Architecture { hidden: Hidden::new(&[16]).unwrap(), ..flat };
        let err = grow(&FloatNetwork::random(deep, 1), Architecture { width: 48, ..deep }, 1).unwrap_err();
        assert!(err.to_string().contains("the shape of a net with hidden layers"), "{err}");
        let err = grow(&FloatNetwork::random(deep, 1), flat, 1).unwrap_err();
        assert!(err.to_string().contains("hidden layers"), "{err}");
        assert_eq!(grow(&FloatNetwork::random(deep, 1), deep, 1).unwrap(), FloatNetwork::random(deep, 1));
    }

    /// The built-in net grown into `--hidden 16,32` quantises, writes and loads as a net file,
    /// and scores as the built-in net does within the pass-through's rounding wherever its score
    /// is within the pass-through's reach of its output bias: 8 cp with a clipped first layer,
    /// 12 cp with a squared one (squaring after the rounding to 1/255 doubles its error near 1).
    /// Measured: 5 and 9 cp.
    #[test]
    fn the_built_in_net_grows_hidden_layers_and_loads() {
        use crate::eval::nnue::{embedded, format};
        let net = format::from_bytes(embedded::BYTES).unwrap();
        for first in Activation::ALL {
            let hidden = Hidden::new(&[16, 32]).unwrap().with_first_activation(first);
            let to = Architecture { hidden, ..*net.arch() };
            let grown = grow(&FloatNetwork::from_quantised(&net), to, 1).unwrap().quantise().unwrap();
            let loaded = format::from_bytes(&format::to_bytes(&grown)).unwrap();
            assert_eq!(loaded.arch(), &to);
            let (mut compared, mut worst) = (0, 0);
            for pos in random_positions(8, 400) {
                let (before, after) = (net.evaluate(&pos), loaded.evaluate(&pos));
                if before.abs() < 600 {
                    worst = worst.max((before - after).abs());
                    compared += 1;
                }
            }
            assert!(compared > 200, "{compared} positions within reach");
            let bound = if first == Activation::SCRelu { 12 } else { 8 };
            assert!(worst <= bound, "{first:?}: the grown built-in net is {worst} cp from the built-in net");
            eprintln!("built-in net grown into 16,32, {first:?}: worst {worst} cp over {compared} positions");
        }
    }

    #[test]
    fn the_same_shape_gives_the_net_back() {
        let net = FloatNetwork::random(arch(KingBuckets::Palace, true, 16), 4);
        assert_eq!(grow(&net, net.arch, 1).unwrap(), net);
    }

    #[test]
    fn shrinking_merging_and_changing_meaning_are_refused() {
        let net = FloatNetwork::random(arch(KingBuckets::Palace, true, 32), 4);
        let err = |to: Architecture| grow(&net, to, 1).unwrap_err().to_string();
        assert!(err(arch(KingBuckets::Palace, true, 16)).contains("--width 16 is narrower than the net's 32"));
        let merged = err(arch(KingBuckets::Rank, true, 32));
        assert!(
            merged.contains("--king-buckets rank merges king squares the net's palace buckets"),
            "{merged}"
        );
        assert!(err(arch(KingBuckets::Single, true, 32)).contains("merges"));
        assert!(err(arch(KingBuckets::Palace, false, 32)).contains("mirroring off (the net's: on)"));
        let crelu = Architecture { activation: Activation::CRelu, ..net.arch };
        assert!(err(crelu).contains("--activation crelu (the net's: screlu)"));
        let buckets = Architecture { output_buckets: 8, ..net.arch };
        assert!(err(buckets).contains("--output-buckets 8 (the net's: 4)"));
    }
}
