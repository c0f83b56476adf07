//! The optional hidden layers of a net (`Architecture::hidden`): dense layers in integers, one
//! stack per output bucket, and their forward pass from the two accumulators to the output
//! layer's sum. `network`'s module doc gives the exact arithmetic; in short, the activated
//! accumulators (integers in `0..=QA`) go through `s = b + Σ x·w` (i16 weights at scale `QH`, i32
//! sums), and each hidden value is kept at the finer scale `QV = QA · 2^HIDDEN_VALUE_BITS`:
//! `h = clamp(s / QH · 2^HIDDEN_VALUE_BITS, 0, QV)` by a rounding shift (squared for a first layer
//! with SCReLU, as the accumulators are), then `s / QH` for the layers after it, whose inputs are
//! at scale QV already.
//!
//! The first layer reads `2·width` values, so it costs most: its inputs are activated a chunk at a
//! time into a small buffer on the stack (any width, no allocation), and each chunk is multiplied
//! into every row's sum by `affine_add`, which has an AVX2 variant tested against the plain loop.
//! Where the CPU has AVX-VNNI and the layer's weights fit i8 (they do at the 1/1024 step: the
//! trained weights stay far below ±127/1024), the chunk goes as bytes through `vpdpbusd`
//! instead (`Dense::quad_columns`, `vnni::affine_add`): four u8 × i8 products summed straight
//! into each i32 lane, the same sums bit for bit for a quarter of the instructions.

use super::architecture::{
    hidden_value_scale, Activation, Architecture, HIDDEN_SHIFT, HIDDEN_VALUE_BITS, MAX_HIDDEN,
};
use super::simd::has_avx2;

/// The shift that takes a hidden layer's sum to the hidden values' scale: the first layer's
/// inputs are at QA, so it keeps `HIDDEN_VALUE_BITS` more; the later layers' are at QV.
#[inline]
pub const fn hidden_shift(layer: usize) -> u32 {
    if layer == 0 {
        HIDDEN_SHIFT - HIDDEN_VALUE_BITS
    } else {
        HIDDEN_SHIFT
    }
}

/// Accumulator values activated at a time for the first hidden layer (1 KB on the stack).
const CHUNK: usize = 512;

/// One dense layer, for every output bucket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dense {
    /// Inputs of each neuron.
    pub inputs: usize,
    /// Neurons.
    pub outputs: usize,
    /// `round(w · QH)`: `[(bucket · outputs + neuron) · inputs + input]`.
    pub weights: Vec<i16>,
    /// `round(b · QA · QH)`: `[bucket · outputs + neuron]`.
    pub bias: Vec<i32>,
    /// The same weights as bytes, four inputs at a time, for `vnni::affine_add`: the weight of
    /// input `4·quad + k` for `neuron` at `[((bucket · inputs / 4 + quad) · outputs + neuron) · 4
    /// + k]`. None when a weight does not fit i8, or the inputs are not a multiple of four.
    quad_columns: Option<Vec<i8>>,
}

impl Dense {
    /// A layer of `outputs` neurons over `inputs` inputs for every bucket, with `weights` and
    /// `bias` laid out as the fields say.
    pub fn new(inputs: usize, outputs: usize, weights: Vec<i16>, bias: Vec<i32>) -> Dense {
        let fits = inputs.is_multiple_of(4) && weights.iter().all(|&w| i8::try_from(w).is_ok());
        let quad_columns = fits.then(|| {
            let mut quads = vec![0i8; weights.len()];
            for (at, &w) in weights.iter().enumerate() {
                let (row, input) = (at / inputs, at % inputs);
                let (bucket, neuron) = (row / outputs, row % outputs);
                let quad = bucket * inputs / 4 + input / 4;
                quads[(quad * outputs + neuron) * 4 + input % 4] = w as i8;
            }
            quads
        });
        Dense { inputs, outputs, weights, bias, quad_columns }
    }

    /// `bucket`'s weights as bytes four inputs at a time (`quad_columns`), from input `first` (a
    /// multiple of four) on; None when they do not fit bytes.
    #[inline]
    pub fn quad_columns(&self, bucket: usize, first: usize) -> Option<&[i8]> {
        let quads = self.quad_columns.as_deref()?;
        Some(&quads[(bucket * self.inputs + first) * self.outputs..(bucket + 1) * self.inputs * self.outputs])
    }

    /// The weights of `neuron` in `bucket`'s stack.
    #[inline]
    pub fn row(&self, bucket: usize, neuron: usize) -> &[i16] {
        let at = (bucket * self.outputs + neuron) * self.inputs;
        &self.weights[at..at + self.inputs]
    }

    /// Every weight of `bucket`'s layer, neuron by neuron.
    #[inline]
    pub fn rows(&self, bucket: usize) -> &[i16] {
        let n = self.outputs * self.inputs;
        &self.weights[bucket * n..(bucket + 1) * n]
    }

    /// The biases of `bucket`'s layer.
    #[inline]
    pub fn bias(&self, bucket: usize) -> &[i32] {
        &self.bias[bucket * self.outputs..(bucket + 1) * self.outputs]
    }
}

/// The sum the output layer adds its bias to: `Σ h·w_out` over the last hidden layer's values
/// `h` (the first layer's squared when its activation is SCReLU), from the side to move's
/// accumulator `us` and the other's `them`. `out_weights` are the output layer's weights of
/// `bucket`.
#[inline]
pub fn stack_sum(
    arch: &Architecture,
    hidden: &[Dense],
    out_weights: &[i16],
    us: &[i16],
    them: &[i16],
    bucket: usize,
) -> i32 {
    let n = arch.width;
    let q = arch.quantisation;
    let m = q.screlu_multiplier();
    let first = &hidden[0];
    let mut sums = [0i32; MAX_HIDDEN];
    let sums = &mut sums[..first.outputs];
    sums.copy_from_slice(first.bias(bucket));
    let rows = first.rows(bucket);
    let mut chunk = [0i16; CHUNK];
    let bytes_fit = q.activations_fit_bytes();
    for (half, acc) in [(0, us), (n, them)] {
        for start in (0..n).step_by(CHUNK) {
            let len = CHUNK.min(n - start);
            let chunk = &mut chunk[..len];
            activate(&acc[start..start + len], arch.activation, q.qa, m, chunk);
            first_layer_add(chunk, bytes_fit, first, bucket, half + start, &rows[half + start..], sums);
        }
    }
    let qv = hidden_value_scale(q.qa);
    let mut values = [0i16; MAX_HIDDEN];
    clipped_relu(sums, hidden_shift(0), qv, &mut values[..first.outputs]);
    if arch.hidden.first_activation() == Activation::SCRelu {
        square_hidden(&mut values[..first.outputs], m);
    }
    let mut width = first.outputs;
    for layer in &hidden[1..] {
        let mut sums = [0i32; MAX_HIDDEN];
        let sums = &mut sums[..layer.outputs];
        sums.copy_from_slice(layer.bias(bucket));
        affine_add(&values[..width], layer.rows(bucket), width, sums);
        clipped_relu(sums, hidden_shift(1), qv, &mut values[..layer.outputs]);
        width = layer.outputs;
    }
    let mut out = [0i32];
    affine_add(&values[..width], out_weights, width, &mut out);
    out[0]
}

/// Adds the first layer's products with `chunk` (its inputs from `at` on; `rows` its weights from
/// there) to `sums`: through `vnni::affine_add` where the CPU, the weights and the inputs
/// (`bytes_fit`: every activated value in 0..=255) allow, else `affine_add`.
#[inline]
fn first_layer_add(
    chunk: &[i16],
    bytes_fit: bool,
    layer: &Dense,
    bucket: usize,
    at: usize,
    rows: &[i16],
    sums: &mut [i32],
) {
    #[cfg(target_arch = "x86_64")]
    if bytes_fit && has_avx_vnni() && chunk.len().is_multiple_of(4) && at.is_multiple_of(4) {
        if let Some(quads) = layer.quad_columns(bucket, at) {
            let mut bytes = [0u8; CHUNK];
            let bytes = &mut bytes[..chunk.len()];
            bytes.iter_mut().zip(chunk).for_each(|(b, &x)| *b = x as u8);
            // SAFETY: the variant's only requirement is a CPU with AVX-VNNI, checked above.
            return unsafe { vnni::affine_add(bytes, quads, sums) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes_fit, bucket, at); // the byte path exists on x86-64 only
    affine_add(chunk, rows, layer.inputs, sums)
}

/// Whether the CPU has AVX-VNNI (`vpdpbusd` on 256-bit registers; the standard library caches
/// the answer).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx_vnni() -> bool {
    std::arch::is_x86_feature_detected!("avxvnni")
}

/// `h = clamp((s + 2^(shift−1)) >> shift, 0, max)` for each sum: `s / 2^shift` rounded half up
/// (a few dozen values: no SIMD).
#[inline]
pub fn clipped_relu(sums: &[i32], shift: u32, max: i32, out: &mut [i16]) {
    let half = 1i32 << (shift - 1);
    for (h, &s) in out.iter_mut().zip(sums) {
        *h = (s.wrapping_add(half) >> shift).clamp(0, max) as i16;
    }
}

/// Squares hidden values at scale QV, staying at scale QV: `(h² · m) >> (16 + HIDDEN_VALUE_BITS)`,
/// with `m` the SCReLU multiplier (about 2¹⁶ / QA).
#[inline]
pub fn square_hidden(values: &mut [i16], m: u16) {
    for h in values {
        let v = *h as i64;
        *h = ((v * v * m as i64) >> (16 + HIDDEN_VALUE_BITS)) as i16;
    }
}

/// The feature transformer's activation of `acc` into `out` (the same length): `clamp(v, 0, qa)`
/// for CReLU, `(clamp(v, 0, qa)² · m) >> 16` for SCReLU (`qa` at most 255 then).
#[inline]
pub fn activate(acc: &[i16], activation: Activation, qa: i16, m: u16, out: &mut [i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::activate(acc, activation, qa, m, out) };
    }
    portable::activate(acc, activation, qa, m, out)
}

/// `sums[j] += Σ input[i] · weights[j · stride + i]` for every row `j` (wrapping i32 sums of
/// i16 products). `weights` must hold `(sums.len() − 1) · stride + input.len()` values.
#[inline]
pub fn affine_add(input: &[i16], weights: &[i16], stride: usize, sums: &mut [i32]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::affine_add(input, weights, stride, sums) };
    }
    portable::affine_add(input, weights, stride, sums)
}

/// The kernels as plain loops: the meaning, and the fallback without AVX2.
mod portable {
    use super::Activation;

    #[inline(always)]
    pub fn activate(acc: &[i16], activation: Activation, qa: i16, m: u16, out: &mut [i16]) {
        let acc = &acc[..out.len()];
        match activation {
            Activation::CRelu => {
                for (o, &a) in out.iter_mut().zip(acc) {
                    *o = a.clamp(0, qa);
                }
            }
            Activation::SCRelu => {
                for (o, &a) in out.iter_mut().zip(acc) {
                    let v = a.clamp(0, qa) as u16;
                    *o = ((v.wrapping_mul(v) as u32 * m as u32) >> 16) as i16;
                }
            }
        }
    }

    #[inline(always)]
    pub fn dot(a: &[i16], b: &[i16]) -> i32 {
        let b = &b[..a.len()];
        let mut sum = 0i32;
        for i in 0..a.len() {
            sum = sum.wrapping_add(a[i] as i32 * b[i] as i32);
        }
        sum
    }

    #[inline(always)]
    pub fn affine_add(input: &[i16], weights: &[i16], stride: usize, sums: &mut [i32]) {
        for (j, sum) in sums.iter_mut().enumerate() {
            *sum = sum.wrapping_add(dot(input, &weights[j * stride..]));
        }
    }
}

/// The kernels with AVX2 intrinsics (the compiler's own vectorisation of `dot` widens to 32-bit
/// lanes, as `simd`'s dot products found). Safe functions, but calling one is `unsafe` unless the
/// caller has AVX2 too: the dispatchers above check the CPU first.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::simd::avx2::{lane_sum, load16};
    use super::Activation;
    use std::arch::x86_64::*;

    /// Writes 16 values to `values` at `at`, which must leave room for 16.
    #[target_feature(enable = "avx2")]
    fn store16(values: &mut [i16], at: usize, v: __m256i) {
        assert!(at + 16 <= values.len());
        // SAFETY: the assert keeps the 32 bytes written inside the slice; `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(values.as_mut_ptr().add(at).cast(), v) }
    }

    #[target_feature(enable = "avx2")]
    pub fn activate(acc: &[i16], activation: Activation, qa: i16, m: u16, out: &mut [i16]) {
        let n = out.len();
        let acc = &acc[..n];
        let (zero, top, mul) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa), _mm256_set1_epi16(m as i16));
        let whole = n - n % 16;
        for at in (0..whole).step_by(16) {
            let v = _mm256_min_epi16(_mm256_max_epi16(load16(acc, at), zero), top);
            let v = match activation {
                Activation::CRelu => v,
                Activation::SCRelu => _mm256_mulhi_epu16(_mm256_mullo_epi16(v, v), mul),
            };
            store16(out, at, v);
        }
        super::portable::activate(&acc[whole..], activation, qa, m, &mut out[whole..]);
    }

    /// Four rows at a time share each load of the input; `madd` multiplies 16 pairs and adds
    /// neighbours into 8 i32 lanes (it wraps exactly as the plain loop's i32 sum does).
    #[target_feature(enable = "avx2")]
    pub fn affine_add(input: &[i16], weights: &[i16], stride: usize, sums: &mut [i32]) {
        let n = input.len();
        let whole = n - n % 16;
        let row = |j: usize| &weights[j * stride..j * stride + n];
        let mut j = 0;
        while j + 4 <= sums.len() {
            let rows = [row(j), row(j + 1), row(j + 2), row(j + 3)];
            let mut acc = [_mm256_setzero_si256(); 4];
            for at in (0..whole).step_by(16) {
                let x = load16(input, at);
                for r in 0..4 {
                    acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(x, load16(rows[r], at)));
                }
            }
            for r in 0..4 {
                let tail = super::portable::dot(&input[whole..], &rows[r][whole..]);
                sums[j + r] = sums[j + r].wrapping_add(lane_sum(acc[r])).wrapping_add(tail);
            }
            j += 4;
        }
        while j < sums.len() {
            let w = row(j);
            let mut acc = _mm256_setzero_si256();
            for at in (0..whole).step_by(16) {
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(load16(input, at), load16(w, at)));
            }
            let tail = super::portable::dot(&input[whole..], &w[whole..]);
            sums[j] = sums[j].wrapping_add(lane_sum(acc)).wrapping_add(tail);
            j += 1;
        }
    }
}

/// The first layer with AVX-VNNI: `sums[j] += Σ input[i] · w_j[i]` over byte inputs and the
/// layer's byte weights four inputs at a time (`Dense::quad_columns`). Exact: `vpdpbusd` adds each
/// lane's four u8 × i8 products to it in 32 bits, with no saturation on the way (unlike
/// `maddubs`, whose i16 pair sums would saturate at inputs of 255 times weights near ±127).
#[cfg(target_arch = "x86_64")]
mod vnni {
    use std::arch::x86_64::*;

    /// `columns` must hold `input.len() · sums.len()` weights; `input.len()` a multiple of four.
    #[target_feature(enable = "avx2,avxvnni")]
    pub fn affine_add(input: &[u8], columns: &[i8], sums: &mut [i32]) {
        let outputs = sums.len();
        assert!(input.len().is_multiple_of(4) && columns.len() >= input.len() * outputs);
        let mut first = 0;
        while first + 32 <= outputs {
            add_columns::<4>(input, columns, outputs, first, &mut sums[first..first + 32]);
            first += 32;
        }
        while first + 8 <= outputs {
            add_columns::<1>(input, columns, outputs, first, &mut sums[first..first + 8]);
            first += 8;
        }
        for (j, sum) in sums.iter_mut().enumerate().skip(first) {
            for (q, x) in input.chunks_exact(4).enumerate() {
                let w = &columns[(q * outputs + j) * 4..][..4];
                let dot: i32 = x.iter().zip(w).map(|(&x, &w)| x as i32 * w as i32).sum();
                *sum = sum.wrapping_add(dot);
            }
        }
    }

    /// `sums` (8·R neurons from `first` on) += every quad of inputs times its column: one
    /// broadcast of four input bytes, then one `vpdpbusd` per 8 neurons.
    #[target_feature(enable = "avx2,avxvnni")]
    fn add_columns<const R: usize>(
        input: &[u8],
        columns: &[i8],
        outputs: usize,
        first: usize,
        sums: &mut [i32],
    ) {
        assert_eq!(sums.len(), 8 * R);
        let mut acc = [_mm256_setzero_si256(); R];
        for (q, x) in input.chunks_exact(4).enumerate() {
            let x = _mm256_set1_epi32(i32::from_le_bytes([x[0], x[1], x[2], x[3]]));
            let at = (q * outputs + first) * 4;
            let block = &columns[at..at + 32 * R];
            for (r, acc) in acc.iter_mut().enumerate() {
                // SAFETY: `block` holds 32·R bytes, so the 32 read at 32·r lie inside it; `loadu`
                // needs no alignment.
                let w = unsafe { _mm256_loadu_si256(block.as_ptr().add(32 * r).cast()) };
                *acc = _mm256_dpbusd_avx_epi32(*acc, x, w);
            }
        }
        for (r, acc) in acc.iter().enumerate() {
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` holds exactly the 32 bytes stored; `storeu` needs no alignment.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *acc) };
            for (sum, lane) in sums[8 * r..8 * r + 8].iter_mut().zip(lanes) {
                *sum = sum.wrapping_add(lane);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random_vec(rng: &mut impl Rng, n: usize, range: std::ops::RangeInclusive<i16>) -> Vec<i16> {
        (0..n).map(|_| rng.gen_range(range.clone())).collect()
    }

    /// `affine_add` written out in i64 with one wrap at the end.
    fn reference_affine(input: &[i16], weights: &[i16], stride: usize, sums: &[i32]) -> Vec<i32> {
        sums.iter()
            .enumerate()
            .map(|(j, &s)| {
                let dot: i64 =
                    input.iter().enumerate().map(|(i, &x)| x as i64 * weights[j * stride + i] as i64).sum();
                (s as i64 + dot) as i32
            })
            .collect()
    }

    #[test]
    fn affine_add_matches_the_reference_for_any_shape() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        // Row counts with and without a remainder of four, lengths with and without one of 16,
        // strides longer than the input (the first layer's halves), values up to the extremes.
        for (rows, n, extra) in [(16, 512, 0), (32, 16, 0), (1, 32, 0), (5, 33, 7), (3, 1, 2), (16, 256, 256)]
        {
            for big in [false, true] {
                let range = if big { i16::MIN..=i16::MAX } else { 0..=255 };
                let input = random_vec(&mut rng, n, range.clone());
                let stride = n + extra;
                let weights = random_vec(&mut rng, rows * stride, i16::MIN..=i16::MAX);
                let start: Vec<i32> = (0..rows).map(|_| rng.gen()).collect();
                let expected = reference_affine(&input, &weights, stride, &start);
                let mut fast = start.clone();
                affine_add(&input, &weights, stride, &mut fast);
                assert_eq!(fast, expected, "{rows}x{n}");
                let mut slow = start.clone();
                portable::affine_add(&input, &weights, stride, &mut slow);
                assert_eq!(slow, expected, "{rows}x{n}");
            }
        }
    }

    /// With AVX-VNNI, byte inputs times byte weights give `affine_add`'s sums bit for bit, at the
    /// extremes too (inputs of 255, weights of −128 and 127), for neuron counts with and
    /// without remainders of 32 and 8; weights that do not fit a byte keep the i16 path.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vnni_affine_add_matches_the_i16_sums() {
        let fits = Dense::new(4, 1, vec![127, -128, 0, 5], vec![0]);
        assert!(fits.quad_columns(0, 0).is_some());
        assert!(Dense::new(4, 1, vec![128, 0, 0, 0], vec![0]).quad_columns(0, 0).is_none());
        assert!(Dense::new(6, 1, vec![0; 6], vec![0]).quad_columns(0, 0).is_none());
        if !has_avx_vnni() {
            return; // nothing to compare on this CPU; the first layer never takes this path here
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(25);
        for (outputs, inputs) in [(32, 512), (16, 512), (48, 64), (128, 16), (12, 20)] {
            for extreme in [false, true] {
                let weights: Vec<i16> =
                    (0..2 * outputs * inputs)
                        .map(|_| {
                            if extreme {
                                [-128, 127][rng.gen_range(0..2)]
                            } else {
                                rng.gen_range(-128..=127)
                            }
                        })
                        .collect();
                let layer = Dense::new(inputs, outputs, weights, vec![0; 2 * outputs]);
                let input: Vec<u8> =
                    (0..inputs).map(|_| if extreme { 255 } else { rng.gen_range(0..=255) }).collect();
                let wide: Vec<i16> = input.iter().map(|&x| x as i16).collect();
                for bucket in 0..2 {
                    let start: Vec<i32> = (0..outputs).map(|_| rng.gen()).collect();
                    let expected = reference_affine(&wide, layer.rows(bucket), inputs, &start);
                    let mut fast = start.clone();
                    let quads = layer.quad_columns(bucket, 0).expect("weights fit bytes");
                    // SAFETY: AVX-VNNI is present (checked above).
                    unsafe { vnni::affine_add(&input, quads, &mut fast) };
                    assert_eq!(fast, expected, "{outputs}x{inputs}");
                    // From an input part way along: the columns of the later inputs only.
                    let mut tail = start.clone();
                    let quads = layer.quad_columns(bucket, 8).expect("weights fit bytes");
                    // SAFETY: as above.
                    unsafe { vnni::affine_add(&input[8..], quads, &mut tail) };
                    let rows: Vec<i16> =
                        layer.rows(bucket).chunks_exact(inputs).flat_map(|row| row[8..].to_vec()).collect();
                    assert_eq!(tail, reference_affine(&wide[8..], &rows, inputs - 8, &start));
                }
            }
        }
    }

    #[test]
    fn activation_and_clipping_match_their_formulas() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(22);
        for n in [512, 256, 17, 1] {
            let acc = random_vec(&mut rng, n, i16::MIN..=i16::MAX);
            for qa in [1i16, 127, 255] {
                let m = ((65536 + qa as u32 / 2) / qa as u32).min(u16::MAX as u32) as u16;
                for activation in Activation::ALL {
                    let expected: Vec<i16> = acc
                        .iter()
                        .map(|&a| {
                            let v = a.clamp(0, qa) as i64;
                            (if activation == Activation::SCRelu { v * v * m as i64 / 65536 } else { v })
                                as i16
                        })
                        .collect();
                    let (mut fast, mut slow) = (vec![0; n], vec![0; n]);
                    activate(&acc, activation, qa, m, &mut fast);
                    portable::activate(&acc, activation, qa, m, &mut slow);
                    assert_eq!(fast, expected, "{activation:?} {qa}");
                    assert_eq!(slow, expected, "{activation:?} {qa}");
                }
            }
        }
        // Half up: 511 / 1024 rounds to 0, 512 / 1024 to 1; negative sums clip to 0, large to QA.
        let sums = [511, 512, 1535, 1536, -5000, 255 * 1024 + 700, i32::MAX - 100];
        let mut out = [0i16; 7];
        clipped_relu(&sums, 10, 255, &mut out);
        assert_eq!(out, [0, 1, 1, 2, 0, 255, 0]);
        // The first layer keeps four more bits: 31 / 64 rounds to 0, 32 / 64 to 1, up to QV.
        clipped_relu(&[31, 32, 95, 96, -1, 4080 * 64 + 31, 4080 * 64 + 32], hidden_shift(0), 4080, &mut out);
        assert_eq!(out, [0, 1, 1, 2, 0, 4080, 4080]);
        // Squares at scale QV: 1.0 (4080) stays 4080 (to within one step), 0.5 (2040) becomes 0.25.
        let mut values = [4080i16, 2040, 0, 1];
        square_hidden(&mut values, 257);
        assert!((4078..=4080).contains(&values[0]), "{values:?}");
        assert!((1019..=1021).contains(&values[1]), "{values:?}");
        assert_eq!(values[2..], [0, 0]);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_variants_match_the_portable_ones() {
        if !has_avx2() {
            return; // nothing to compare on this CPU; the dispatcher never calls them here
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(23);
        for (rows, n) in [(16, 512), (32, 16), (7, 48), (1, 40)] {
            let input = random_vec(&mut rng, n, i16::MIN..=i16::MAX);
            let weights = random_vec(&mut rng, rows * n, i16::MIN..=i16::MAX);
            let (mut fast, mut slow) = (vec![3i32; rows], vec![3i32; rows]);
            // SAFETY: AVX2 is present (checked at the top of the test).
            unsafe { avx2::affine_add(&input, &weights, n, &mut fast) };
            portable::affine_add(&input, &weights, n, &mut slow);
            assert_eq!(fast, slow);
            for activation in Activation::ALL {
                let (mut fast, mut slow) = (vec![0; n], vec![0; n]);
                // SAFETY: as above.
                unsafe { avx2::activate(&input, activation, 255, 257, &mut fast) };
                portable::activate(&input, activation, 255, 257, &mut slow);
                assert_eq!(fast, slow);
            }
        }
    }
}
