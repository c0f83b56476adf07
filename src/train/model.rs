//! The network's forward and backward passes in floating point, one position at a time, with the
//! semantics of `FloatNetwork` (docs/nnue.md): per perspective `a = bias + Σ W[f]`, `h = act(a)`,
//! `y = b_out[k] + h_us·w_out[k][..N] + h_them·w_out[k][N..]`, `cp = y · scale`.
//!
//! Sparsity does the work: a perspective has about 30 active features, so the forward pass sums
//! that many rows of `W`, and the backward pass adds the accumulator's gradient into only those
//! rows. Gradients are sums over the positions a thread was given (the optimiser divides by the
//! batch size), accumulated in a fixed order, so a run is reproducible.

use crate::eval::nnue::architecture::{Activation, Architecture, QH};

use super::float::{activate, tensor_list, FloatLayer, FloatNetwork};
use super::loss::Blend;
use super::samples::{Sample, Samples};

/// Partial sums of a dot product: the output layer's sums run in this many lanes, added up in a
/// fixed order, which the compiler can vectorise and which gives the same bits on every CPU.
const LANES: usize = 8;

/// The gradient of the loss, summed over positions, with `FloatNetwork`'s layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    /// With respect to `feature_weights`.
    pub feature_weights: Vec<f32>,
    /// With respect to `feature_bias`.
    pub feature_bias: Vec<f32>,
    /// With respect to each hidden layer's weights and biases.
    pub hidden: Vec<FloatLayer>,
    /// With respect to `output_weights`.
    pub output_weights: Vec<f32>,
    /// With respect to `output_bias`.
    pub output_bias: Vec<f32>,
}

impl Gradients {
    /// All zero, for a net of `arch`.
    pub fn zeros(arch: &Architecture) -> Gradients {
        Gradients {
            feature_weights: vec![0.0; arch.feature_weight_count()],
            feature_bias: vec![0.0; arch.width],
            hidden: FloatLayer::zeros(arch),
            output_weights: vec![0.0; arch.output_weight_count()],
            output_bias: vec![0.0; arch.output_buckets],
        }
    }

    /// The tensors, in `tensors_mut`'s order.
    pub fn tensors(&self) -> Vec<&Vec<f32>> {
        tensor_list!(self, &)
    }

    /// The tensors, in `FloatNetwork`'s order: feature weights and biases, each hidden layer's
    /// weights and biases, output weights and biases (four without hidden layers).
    pub fn tensors_mut(&mut self) -> Vec<&mut Vec<f32>> {
        tensor_list!(self, &mut)
    }
}

/// The largest magnitudes training lets the weights take, so that `quantise` never refuses the
/// net (docs/nnue.md, "Quantisation"): after every step each weight is clipped to these.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipLimits {
    /// Feature weights and feature biases: the bias plus the largest weights of a column that
    /// can be on together (32 pieces, and 134 relations with relation inputs), each rounded at
    /// scale QA, stay within i16.
    pub feature: f32,
    /// Output weights: all 2N of a bucket at this size, rounded at scale QB and times the
    /// largest activation, stay within i32; and each fits in i16.
    pub output: f32,
    /// Output bias: rounded at scale QA·QB (QV·QB with hidden layers) it fits in i32.
    pub output_bias: f32,
    /// Each hidden layer's weights and biases: rounded at scale QH (and its inputs' scale times
    /// QH: QA for the first layer, QV after), a neuron's sum
    /// stays within i32 whatever its inputs, the biases taking at most half of it; each weight
    /// fits in i16. The first layer's weights, where its inputs fit bytes (QA ≤ 255), fit an i8
    /// (±127/1024), so that it can take the byte path (`layers`' AVX-VNNI kernel): trained first
    /// layers keep their weights far below that, and clipping the few above cost nothing
    /// measurable (docs/nnue-log.md).
    pub hidden: Vec<(f32, f32)>,
}

impl ClipLimits {
    /// The limits of `arch`'s quantisation.
    pub fn of(arch: &Architecture) -> ClipLimits {
        let q = arch.quantisation;
        let (qa, qb) = (q.qa as f64, q.qb as f64);
        // Rounding adds at most ½ per weight; the −1 keeps a margin for float error.
        let per_weight = (i16::MAX as f64 / (arch.features.max_active() + 1) as f64).floor() - 1.0;
        let feature = per_weight / qa;
        let per_unit = arch.output_input_max() as f64;
        let per_output = (i32::MAX as f64 / per_unit.max(1.0) / arch.output_inputs() as f64).floor() - 1.0;
        let output = per_output.min(i16::MAX as f64 - 1.0) / qb;
        let output_bias = (i32::MAX as f64 / (arch.output_input_scale() as f64 * qb)).floor() - 1.0;
        let half = (1u64 << 30) as f64 - QH as f64;
        let mut input_max = arch.activation_max() as f64;
        let mut hidden = Vec::new();
        for (l, &(inputs, _)) in arch.dense_shapes()[..arch.hidden.sizes().len()].iter().enumerate() {
            // Rounding adds at most ½ per weight; the −1 keeps a margin for float error.
            let per_weight = (half / (input_max.max(1.0) * inputs as f64) - 0.5).floor() - 1.0;
            let mut weight = per_weight.min(i16::MAX as f64 - 1.0) / QH as f64;
            if l == 0 && q.activations_fit_bytes() {
                weight = weight.min(i8::MAX as f64 / QH as f64);
            }
            let bias = (half / (arch.dense_input_scale(l) as f64 * QH as f64)).floor() - 1.0;
            hidden.push((weight as f32, bias as f32));
            input_max = crate::eval::nnue::architecture::hidden_value_scale(q.qa) as f64;
        }
        ClipLimits { feature: feature as f32, output: output as f32, output_bias: output_bias as f32, hidden }
    }

    /// The limit of each tensor, in `Gradients::tensors_mut`'s order.
    pub fn per_tensor(&self) -> Vec<f32> {
        let mut out = vec![self.feature, self.feature];
        for &(weight, bias) in &self.hidden {
            out.extend([weight, bias]);
        }
        out.extend([self.output, self.output_bias]);
        out
    }
}

/// Clips every weight of `net` to `limits`.
pub fn clip(net: &mut FloatNetwork, limits: &ClipLimits) {
    for (tensor, limit) in net.tensors_mut().into_iter().zip(limits.per_tensor()) {
        tensor.iter_mut().for_each(|w| *w = w.clamp(-limit, limit));
    }
}

/// Per-thread working memory: the two accumulators and their gradients, and for hidden layers
/// every layer's inputs (`x`: the activated accumulators, then each hidden layer's values), sums
/// before the clipping (`z`) and gradients (`dx`).
#[derive(Clone, Debug)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
    x: Vec<f32>,
    z: Vec<f32>,
    dx: Vec<f32>,
}

impl Scratch {
    /// Room for a net of `arch`.
    pub fn new(arch: &Architecture) -> Scratch {
        let width = arch.width;
        let hidden: usize = arch.hidden.sizes().iter().sum();
        let x = if hidden == 0 { 0 } else { 2 * width + hidden };
        Scratch {
            us: vec![0.0; width],
            them: vec![0.0; width],
            d_us: vec![0.0; width],
            d_them: vec![0.0; width],
            x: vec![0.0; x],
            z: vec![0.0; hidden],
            dx: vec![0.0; x],
        }
    }
}

/// `acc = bias + Σ W[f]` over `features`.
#[inline(always)]
fn accumulate(net: &FloatNetwork, features: &[u16], acc: &mut [f32]) {
    let n = acc.len();
    acc.copy_from_slice(&net.feature_bias);
    for &f in features {
        let row = &net.feature_weights[f as usize * n..(f as usize + 1) * n];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// The activation's derivative (0 where it is clipped, and at the clipping points themselves).
#[inline(always)]
fn slope(activation: Activation, a: f32) -> f32 {
    let inside = ((a > 0.0) & (a < 1.0)) as u32 as f32;
    match activation {
        Activation::CRelu => inside,
        Activation::SCRelu => inside * 2.0 * a,
    }
}

/// `Σ act(acc[i]) · w[i]` in `LANES` partial sums added in a fixed order.
#[inline(always)]
fn activated_dot(activation: Activation, acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for j in 0..LANES {
            lanes[j] += activate(activation, a[j]) * w[j];
        }
    }
    let tail: f32 = acc
        .chunks_exact(LANES)
        .remainder()
        .iter()
        .zip(w.chunks_exact(LANES).remainder())
        .map(|(&a, &w)| activate(activation, a) * w)
        .sum();
    lanes.iter().sum::<f32>() + tail
}

/// `Σ a[i] · w[i]` in `LANES` partial sums added in a fixed order.
#[inline(always)]
fn dot(a: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    for (a, w) in a.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for j in 0..LANES {
            lanes[j] += a[j] * w[j];
        }
    }
    let tail: f32 = a
        .chunks_exact(LANES)
        .remainder()
        .iter()
        .zip(w.chunks_exact(LANES).remainder())
        .map(|(&a, &w)| a * w)
        .sum();
    lanes.iter().sum::<f32>() + tail
}

/// The hidden stack's forward pass from the accumulators in `scratch`: fills `scratch.x` (the
/// activated accumulators, then each layer's clipped values) and `scratch.z` (each layer's sums),
/// and returns the output in units of `scale`.
#[inline(always)]
fn hidden_output(net: &FloatNetwork, scratch: &mut Scratch, bucket: usize) -> f32 {
    let n = net.arch.width;
    let act = net.arch.activation;
    let Scratch { us, them, x, z, .. } = scratch;
    for i in 0..n {
        x[i] = activate(act, us[i]);
        x[n + i] = activate(act, them[i]);
    }
    let (mut input_at, mut inputs, mut z_at) = (0, 2 * n, 0);
    let mut hidden_act = net.arch.hidden.first_activation();
    for layer in &net.hidden {
        let (before, after) = x.split_at_mut(input_at + inputs);
        let input = &before[input_at..];
        let rows = &layer.weights[bucket * layer.outputs * inputs..(bucket + 1) * layer.outputs * inputs];
        let bias = &layer.bias[bucket * layer.outputs..(bucket + 1) * layer.outputs];
        for j in 0..layer.outputs {
            let sum = bias[j] + dot(input, &rows[j * inputs..(j + 1) * inputs]);
            z[z_at + j] = sum;
            after[j] = activate(hidden_act, sum);
        }
        hidden_act = Activation::CRelu;
        input_at += inputs;
        inputs = layer.outputs;
        z_at += layer.outputs;
    }
    let w = &net.output_weights[bucket * inputs..(bucket + 1) * inputs];
    net.output_bias[bucket] + dot(&x[input_at..input_at + inputs], w)
}

/// The net's output for the accumulators in `scratch`, in units of `scale`.
#[inline(always)]
fn output(net: &FloatNetwork, scratch: &mut Scratch, bucket: usize) -> f32 {
    if !net.hidden.is_empty() {
        return hidden_output(net, scratch, bucket);
    }
    let n = net.arch.width;
    let w = &net.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
    let act = net.arch.activation;
    net.output_bias[bucket]
        + activated_dot(act, &scratch.us, &w[..n])
        + activated_dot(act, &scratch.them, &w[n..])
}

/// The net's score of `sample` in centipawns, side to move's view (unrounded).
#[inline(always)]
pub fn predict_cp(net: &FloatNetwork, sample: &Sample, scratch: &mut Scratch) -> f32 {
    accumulate(net, sample.us, &mut scratch.us);
    accumulate(net, sample.them, &mut scratch.them);
    output(net, scratch, sample.bucket) * net.arch.quantisation.scale as f32
}

/// Adds the gradient of `sample`'s loss to `grads` and returns the loss.
#[inline(always)]
pub fn add_gradient(
    net: &FloatNetwork,
    sample: &Sample,
    blend: Blend,
    grads: &mut Gradients,
    scratch: &mut Scratch,
) -> f32 {
    let scale = net.arch.quantisation.scale as f32;
    let cp = predict_cp(net, sample, scratch);
    let (loss, d_cp) = blend.loss_and_slope(cp, blend.target(sample.score, sample.result));
    let g = d_cp * scale;
    if !net.hidden.is_empty() {
        hidden_gradient(net, sample, g, grads, scratch);
        return loss;
    }
    let n = net.arch.width;
    let k = sample.bucket;
    let act = net.arch.activation;
    let w = &net.output_weights[k * 2 * n..(k + 1) * 2 * n];
    grads.output_bias[k] += g;
    let gw = &mut grads.output_weights[k * 2 * n..(k + 1) * 2 * n];
    let Scratch { us, them, d_us, d_them, .. } = scratch;
    for (half, acc, delta) in [(0, &*us, &mut *d_us), (n, &*them, &mut *d_them)] {
        let (w, gw) = (&w[half..half + n], &mut gw[half..half + n]);
        for (((gw, delta), &a), &w) in gw.iter_mut().zip(delta.iter_mut()).zip(acc.iter()).zip(w) {
            *gw += g * activate(act, a);
            *delta = g * w * slope(act, a);
        }
    }
    for ((b, du), dt) in grads.feature_bias.iter_mut().zip(d_us.iter()).zip(d_them.iter()) {
        *b += du + dt;
    }
    for (features, delta) in [(sample.us, &*d_us), (sample.them, &*d_them)] {
        for &f in features {
            let row = &mut grads.feature_weights[f as usize * n..(f as usize + 1) * n];
            for (r, d) in row.iter_mut().zip(delta.iter()) {
                *r += d;
            }
        }
    }
    loss
}

/// The backward pass of a net with hidden layers, after `hidden_output` filled `scratch`: adds
/// the gradient of a loss whose slope with respect to the output `y` is `g` to `grads`.
#[inline(always)]
fn hidden_gradient(
    net: &FloatNetwork,
    sample: &Sample,
    g: f32,
    grads: &mut Gradients,
    scratch: &mut Scratch,
) {
    let n = net.arch.width;
    let k = sample.bucket;
    let act = net.arch.activation;
    let Scratch { us, them, d_us, d_them, x, z, dx } = scratch;
    // Where each layer's inputs start in `x`, and its sums in `z`.
    let mut starts = [(0usize, 0usize); crate::eval::nnue::architecture::MAX_HIDDEN_LAYERS + 1];
    let (mut input_at, mut z_at) = (0, 0);
    let mut inputs = 2 * n;
    for (l, layer) in net.hidden.iter().enumerate() {
        starts[l] = (input_at, z_at);
        input_at += inputs;
        z_at += layer.outputs;
        inputs = layer.outputs;
    }
    grads.output_bias[k] += g;
    let w = &net.output_weights[k * inputs..(k + 1) * inputs];
    let gw = &mut grads.output_weights[k * inputs..(k + 1) * inputs];
    for i in 0..inputs {
        gw[i] += g * x[input_at + i];
        dx[input_at + i] = g * w[i];
    }
    for (l, layer) in net.hidden.iter().enumerate().rev() {
        let (input_at, z_at) = starts[l];
        let inputs = layer.inputs;
        let out_at = input_at + inputs;
        let (d_in, d_out) = dx.split_at_mut(out_at);
        let d_in = &mut d_in[input_at..];
        d_in.fill(0.0);
        let input = &x[input_at..out_at];
        let rows = &layer.weights[k * layer.outputs * inputs..(k + 1) * layer.outputs * inputs];
        let grad = &mut grads.hidden[l];
        let grad_rows = &mut grad.weights[k * layer.outputs * inputs..(k + 1) * layer.outputs * inputs];
        for j in 0..layer.outputs {
            let act = if l == 0 { net.arch.hidden.first_activation() } else { Activation::CRelu };
            let dz = d_out[j] * slope(act, z[z_at + j]);
            if dz == 0.0 {
                continue; // a clipped neuron passes nothing back
            }
            grad.bias[k * layer.outputs + j] += dz;
            let row = &rows[j * inputs..(j + 1) * inputs];
            let grad_row = &mut grad_rows[j * inputs..(j + 1) * inputs];
            for i in 0..inputs {
                grad_row[i] += dz * input[i];
                d_in[i] += dz * row[i];
            }
        }
    }
    for i in 0..n {
        d_us[i] = dx[i] * slope(act, us[i]);
        d_them[i] = dx[n + i] * slope(act, them[i]);
    }
    for ((b, du), dt) in grads.feature_bias.iter_mut().zip(d_us.iter()).zip(d_them.iter()) {
        *b += du + dt;
    }
    for (features, delta) in [(sample.us, &*d_us), (sample.them, &*d_them)] {
        for &f in features {
            let row = &mut grads.feature_weights[f as usize * n..(f as usize + 1) * n];
            for (r, d) in row.iter_mut().zip(delta.iter()) {
                *r += d;
            }
        }
    }
}

/// Adds the gradients of the positions `order` names to `grads`; returns the sum of their losses.
///
/// On x86-64 CPUs with AVX2 this runs the same code compiled with AVX2 enabled (twice the
/// lanes). It computes the same bits: the loops are element by element or, for the dot
/// products, in `LANES` fixed partial sums, and Rust never fuses a multiply and an add.
pub fn batch_gradient(
    net: &FloatNetwork,
    samples: &Samples,
    order: &[u32],
    blend: Blend,
    grads: &mut Gradients,
    scratch: &mut Scratch,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if crate::eval::nnue::simd::has_avx2() {
        // SAFETY: calling a `#[target_feature(enable = "avx2")]` function needs a CPU with AVX2,
        // checked just above.
        return unsafe { batch_gradient_avx2(net, samples, order, blend, grads, scratch) };
    }
    batch_gradient_portable(net, samples, order, blend, grads, scratch)
}

/// `batch_gradient` compiled for the baseline target.
pub fn batch_gradient_portable(
    net: &FloatNetwork,
    samples: &Samples,
    order: &[u32],
    blend: Blend,
    grads: &mut Gradients,
    scratch: &mut Scratch,
) -> f64 {
    batch_gradient_inline(net, samples, order, blend, grads, scratch)
}

/// `batch_gradient` compiled with AVX2 (a safe function, as in `eval::nnue::simd`: only a
/// caller without AVX2 enabled must check the CPU, in an `unsafe` block).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn batch_gradient_avx2(
    net: &FloatNetwork,
    samples: &Samples,
    order: &[u32],
    blend: Blend,
    grads: &mut Gradients,
    scratch: &mut Scratch,
) -> f64 {
    batch_gradient_inline(net, samples, order, blend, grads, scratch)
}

#[inline(always)]
fn batch_gradient_inline(
    net: &FloatNetwork,
    samples: &Samples,
    order: &[u32],
    blend: Blend,
    grads: &mut Gradients,
    scratch: &mut Scratch,
) -> f64 {
    // A plain loop, not an iterator adapter: the body must be inlined into the AVX2 variant.
    let mut sum = 0.0f64;
    for &i in order {
        sum += add_gradient(net, &samples.get(i as usize), blend, grads, scratch) as f64;
    }
    sum
}

/// The sum of the losses of positions `range` of `samples`.
pub fn batch_loss(net: &FloatNetwork, samples: &Samples, range: std::ops::Range<usize>, blend: Blend) -> f64 {
    let mut scratch = Scratch::new(&net.arch);
    range
        .map(|i| {
            let sample = samples.get(i);
            let cp = predict_cp(net, &sample, &mut scratch);
            blend.loss(cp, blend.target(sample.score, sample.result)) as f64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::Record;
    use crate::eval::nnue::architecture::{Hidden, Quantisation};
    use crate::eval::nnue::features::{FeatureSet, KingBuckets};
    use rand::{Rng, SeedableRng};

    fn tiny(activation: Activation) -> Architecture {
        Architecture {
            features: FeatureSet { king_buckets: KingBuckets::Rank, mirror: true, relations: false },
            width: 16,
            activation,
            output_buckets: 2,
            quantisation: Quantisation::DEFAULT,
            hidden: Hidden::NONE,
        }
    }

    /// Records of random positions with made-up labels.
    pub(crate) fn random_records(count: usize, seed: u64) -> Vec<Record> {
        use crate::board::{movegen, Color, Position};
        use crate::datagen::games::GameEnd;
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < count {
            let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
            if moves.is_empty() || pos.game_ply() > 120 {
                pos = Position::startpos();
                continue;
            }
            let best = moves[rng.gen_range(0..moves.len())];
            let mut rec = Record::new(&pos, rng.gen_range(-400..400), best);
            let (end, winner) = match rng.gen_range(0..3) {
                0 => (GameEnd::DrawAdjudicated, None),
                1 => (GameEnd::Resigned, Some(Color::Red)),
                _ => (GameEnd::Resigned, Some(Color::Black)),
            };
            rec.finish(0, end, winner, false);
            out.push(rec);
            pos.make_move(best);
        }
        out
    }

    /// The mean loss over `samples` in double precision from the single-precision forward pass.
    fn mean_loss(net: &FloatNetwork, samples: &Samples, blend: Blend) -> f64 {
        let mut scratch = Scratch::new(&net.arch);
        let n = samples.len() as f64;
        (0..samples.len())
            .map(|i| {
                let s = samples.get(i);
                let cp = predict_cp(net, &s, &mut scratch) as f64;
                let p = 1.0 / (1.0 + (-cp / blend.k as f64).exp());
                let d = p - blend.target(s.score, s.result) as f64;
                d * d
            })
            .sum::<f64>()
            / n
    }

    /// Every weight's gradient against the central difference of the loss: the feature weights
    /// of the rows the positions touch (the others must have a zero gradient), all biases and all
    /// output weights. Accumulators are kept away from the activation's kinks by the biases.
    #[test]
    fn gradients_match_finite_differences() {
        let clipped = |sizes: &[usize]| Hidden::new(sizes).unwrap().with_first_activation(Activation::CRelu);
        let squared = |sizes: &[usize]| Hidden::new(sizes).unwrap().with_first_activation(Activation::SCRelu);
        let shapes = [Hidden::NONE, clipped(&[16]), clipped(&[16, 32]), squared(&[16]), squared(&[16, 32])];
        for (activation, hidden) in Activation::ALL.into_iter().flat_map(|a| shapes.map(|h| (a, h))) {
            let arch = Architecture { hidden, ..tiny(activation) };
            let mut net = FloatNetwork::random(arch, 3);
            // Feature weights in ±0.01, biases 0.3..0.7: every accumulator well inside (0, 1).
            let mut rng = rand::rngs::StdRng::seed_from_u64(4);
            net.feature_weights.iter_mut().for_each(|w| *w = rng.gen_range(-0.01..0.01));
            net.feature_bias.iter_mut().for_each(|b| *b = rng.gen_range(0.3..0.7));
            // Hidden weights in ±0.3/inputs, biases 0.3..0.7: every hidden sum inside (0, 1) too,
            // but a few neurons pushed below 0 (bias −0.5), whose gradients must then be zero.
            for layer in &mut net.hidden {
                let limit = 0.3 / layer.inputs as f32;
                layer.weights.iter_mut().for_each(|w| *w = rng.gen_range(-limit..limit));
                layer.bias.iter_mut().for_each(|b| *b = rng.gen_range(0.3..0.7));
                layer.bias.iter_mut().step_by(5).for_each(|b| *b = -0.5);
            }
            // Output weights large enough for the hidden layers' gradients to be measurable.
            if !net.hidden.is_empty() {
                net.output_weights.iter_mut().for_each(|w| *w = rng.gen_range(-2.0..2.0));
            }
            let records = random_records(12, 5);
            let samples = Samples::from_records(&records, arch.features, arch.output_buckets, 1);
            let blend = Blend { lambda: 0.6, k: 150.0 };
            let mut grads = Gradients::zeros(&arch);
            let mut scratch = Scratch::new(&arch);
            let order: Vec<u32> = (0..samples.len() as u32).collect();
            batch_gradient(&net, &samples, &order, blend, &mut grads, &mut scratch);
            let n = samples.len() as f32;
            grads.tensors_mut().into_iter().for_each(|t| t.iter_mut().for_each(|g| *g /= n));

            let touched: std::collections::HashSet<usize> = (0..samples.len())
                .flat_map(|i| {
                    samples
                        .get(i)
                        .us
                        .iter()
                        .chain(samples.get(i).them)
                        .map(|&f| f as usize)
                        .collect::<Vec<_>>()
                })
                .collect();
            let analytic: Vec<Vec<f32>> = grads.tensors().iter().map(|t| t.to_vec()).collect();
            let (mut checked, mut worst) = (0, 0.0f64);
            for (tensor, expected) in analytic.iter().enumerate() {
                for (i, &ours) in expected.iter().enumerate() {
                    if tensor == 0 && !touched.contains(&(i / arch.width)) {
                        assert_eq!(ours, 0.0, "untouched feature weight {i}");
                        continue;
                    }
                    let h = 1e-3f32;
                    let original = net.tensors()[tensor][i];
                    net.tensors_mut()[tensor][i] = original + h;
                    let up = mean_loss(&net, &samples, blend);
                    net.tensors_mut()[tensor][i] = original - h;
                    let down = mean_loss(&net, &samples, blend);
                    net.tensors_mut()[tensor][i] = original;
                    let numeric = (up - down) / (2.0 * h as f64);
                    let ours = ours as f64;
                    let error = (numeric - ours).abs();
                    worst = worst.max(error / (1e-4 + numeric.abs()));
                    assert!(
                        error <= 2e-5 + 0.02 * numeric.abs(),
                        "{activation:?} {hidden} tensor {tensor} weight {i}: analytic {ours}, numeric {numeric}"
                    );
                    checked += 1;
                }
            }
            assert!(checked > 800, "{checked} weights checked");
            // The check has teeth: every tensor's gradient is far from zero somewhere (the
            // output bias's last), and the neurons held below zero pass nothing back.
            for (tensor, g) in analytic.iter().enumerate() {
                assert!(g.iter().any(|g| g.abs() > 1e-4), "{hidden} tensor {tensor}: {g:?}");
            }
            for (l, layer) in net.hidden.iter().enumerate() {
                let biases = &analytic[3 + 2 * l];
                for (i, &g) in biases.iter().enumerate().step_by(5) {
                    assert_eq!(g, 0.0, "{hidden} layer {l} neuron {i} is clipped");
                }
                assert_eq!(biases.len(), layer.bias.len());
            }
            eprintln!(
                "{activation:?} {hidden} {:?}: {checked} weights, worst relative error {worst:.2e}",
                hidden.first_activation()
            );
        }
    }

    /// The AVX2 build of the gradient loop computes the portable build's bits, both activations.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_gradient_is_the_portable_gradient_bit_for_bit() {
        if !crate::eval::nnue::simd::has_avx2() {
            eprintln!("no AVX2 on this CPU: nothing to compare");
            return;
        }
        let records = random_records(300, 9);
        let shapes = [
            Hidden::NONE,
            Hidden::new(&[16, 32]).unwrap().with_first_activation(Activation::CRelu),
            Hidden::new(&[16, 32]).unwrap().with_first_activation(Activation::SCRelu),
        ];
        for (activation, hidden) in Activation::ALL.into_iter().flat_map(|a| shapes.map(|h| (a, h))) {
            let arch = Architecture { width: 64, activation, hidden, ..Architecture::DEFAULT };
            let net = FloatNetwork::random(arch, 8);
            let samples = Samples::from_records(&records, arch.features, arch.output_buckets, 1);
            let blend = Blend { lambda: 0.75, k: 90.0 };
            let order: Vec<u32> = (0..samples.len() as u32).rev().collect();
            let (mut a, mut b) = (Gradients::zeros(&arch), Gradients::zeros(&arch));
            let mut scratch = Scratch::new(&arch);
            let loss_a = batch_gradient_portable(&net, &samples, &order, blend, &mut a, &mut scratch);
            // SAFETY: the CPU has AVX2, checked at the top of the test.
            let loss_b = unsafe { batch_gradient_avx2(&net, &samples, &order, blend, &mut b, &mut scratch) };
            assert_eq!(loss_a.to_bits(), loss_b.to_bits());
            assert_eq!(a.tensors().len(), 4 + 2 * hidden.sizes().len());
            for (x, y) in a.tensors_mut().into_iter().zip(b.tensors_mut()) {
                assert!(
                    x.iter().zip(y.iter()).all(|(p, q)| p.to_bits() == q.to_bits()),
                    "{activation:?} {hidden}"
                );
                assert!(x.iter().any(|&g| g != 0.0));
            }
        }
    }

    /// Weights at the clipping limits quantise, for every activation and for narrow and wide nets;
    /// a little beyond them, they do not.
    /// With hidden layers, every weight at its clip limit (the worst case of every sum) still
    /// quantises, for narrow and wide first layers; a first layer's weights 5% over do not where
    /// the i32 sum, not i16, is what holds them.
    #[test]
    fn hidden_weights_at_the_clip_limits_quantise() {
        for activation in Activation::ALL {
            for (width, sizes) in [(16, &[16][..]), (256, &[16, 32]), (4096, &[128, 128])] {
                let hidden = Hidden::new(sizes).unwrap();
                let arch =
                    Architecture { width, activation, output_buckets: 2, hidden, ..Architecture::DEFAULT };
                let limits = ClipLimits::of(&arch);
                assert_eq!(limits.per_tensor().len(), 4 + 2 * sizes.len());
                let mut net = FloatNetwork::zeros(arch);
                for (tensor, limit) in net.tensors_mut().into_iter().zip(limits.per_tensor()) {
                    tensor.iter_mut().for_each(|w| *w = limit);
                }
                let quantised =
                    net.quantise().unwrap_or_else(|e| panic!("{activation:?} {width} {hidden}: {e}"));
                // Inputs in bytes: the first layer's weights at most 127/1024, so they fit an i8.
                let (first, _) = limits.hidden[0];
                assert_eq!(first, 127.0 / 1024.0, "{width} {hidden}: first-layer limit");
                assert!(quantised.hidden[0].quad_columns(1, 0).is_some(), "{width} {hidden}: byte path");
            }
        }
        // Without the byte cap (QA above 255, clipped ReLU), the i32 sum is what holds a wide first
        // layer's weights: at the limit they quantise, 5% over they do not.
        let wide_qa = Quantisation { qa: 1023, ..Quantisation::DEFAULT };
        let hidden = Hidden::new(&[128, 128]).unwrap().with_first_activation(Activation::CRelu);
        let arch = Architecture {
            width: 4096,
            activation: Activation::CRelu,
            output_buckets: 2,
            hidden,
            quantisation: wide_qa,
            ..Architecture::DEFAULT
        };
        let limits = ClipLimits::of(&arch);
        let mut net = FloatNetwork::zeros(arch);
        for (tensor, limit) in net.tensors_mut().into_iter().zip(limits.per_tensor()) {
            tensor.iter_mut().for_each(|w| *w = limit);
        }
        net.quantise().unwrap();
        let (first, _) = limits.hidden[0];
        assert!(first > 0.1, "first-layer limit {first}");
        let mut over = net.clone();
        over.hidden[0].weights.iter_mut().for_each(|w| *w = first * 1.05);
        let err = over.quantise().unwrap_err().to_string();
        assert!(err.contains("hidden layer 1"), "{err}");
    }

    #[test]
    fn weights_at_the_clip_limits_quantise() {
        for activation in Activation::ALL {
            for width in [16, 256, 1024, 4096] {
                let arch = Architecture { width, activation, output_buckets: 2, ..Architecture::DEFAULT };
                let limits = ClipLimits::of(&arch);
                let mut net = FloatNetwork::zeros(arch);
                for (tensor, limit) in net.tensors_mut().into_iter().zip(limits.per_tensor()) {
                    tensor.iter_mut().for_each(|w| *w = limit);
                }
                net.quantise().unwrap_or_else(|e| panic!("{activation:?} {width}: {e}"));
                assert!(limits.feature > 3.0 && limits.output > 0.5, "{limits:?}");
                let mut over = net.clone();
                over.feature_weights.iter_mut().for_each(|w| *w = limits.feature * 1.05);
                assert!(over.quantise().is_err(), "feature weights 5% over the limit");
                if width >= 1024 {
                    // Wide nets are held by the output sum, not by i16.
                    let mut over = net.clone();
                    over.output_weights.iter_mut().for_each(|w| *w = limits.output * 1.05);
                    assert!(over.quantise().is_err(), "{activation:?} {width}: output weights 5% over");
                }
                let mut wild = net.clone();
                wild.feature_weights[7] = 1e6;
                wild.output_weights[3] = -1e6;
                clip(&mut wild, &limits);
                assert_eq!(
                    (wild.feature_weights[7], wild.output_weights[3]),
                    (limits.feature, -limits.output)
                );
            }
        }
    }
}
