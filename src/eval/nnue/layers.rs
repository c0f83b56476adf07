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

use super::network::{Activation, Architecture, MAX_HIDDEN};
use super::simd::has_avx2;

/// Hidden weights are `round(w · QH)`, `QH = 2^HIDDEN_SHIFT`: a power of two, so that the sum is
/// brought back to the activation's scale by a shift.
pub const HIDDEN_SHIFT: u32 = 10;
/// The hidden weights' scale, 1024: weights up to ±32 fit i16, in steps of 1/1024.
pub const QH: i32 = 1 << HIDDEN_SHIFT;
/// Bits by which a hidden value's scale is finer than the accumulators' QA (net format version
/// 5): rounding the hidden values to steps of 1/QA cost a hidden-layer net most of what it
/// gained over the one-layer net (docs/nnue-log.md), steps of 1/(16·QA) almost nothing.
pub const HIDDEN_VALUE_BITS: u32 = 4;

/// The scale of the hidden values, `QV = QA · 2^HIDDEN_VALUE_BITS`, and their largest value.
#[inline]
pub const fn hidden_value_scale(qa: i16) -> i32 {
    (qa as i32) << HIDDEN_VALUE_BITS
}

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
}

impl Dense {
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
    for (half, acc) in [(0, us), (n, them)] {
        for start in (0..n).step_by(CHUNK) {
            let len = CHUNK.min(n - start);
            let chunk = &mut chunk[..len];
            activate(&acc[start..start + len], arch.activation, q.qa, m, chunk);
            affine_add(chunk, &rows[half + start..], 2 * n, sums);
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
