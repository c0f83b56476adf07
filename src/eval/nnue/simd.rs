//! The inner loops of inference: accumulator column updates and the output layer's dot products.
//!
//! Each kernel is written once as a plain loop (`portable`) that the compiler vectorises for the
//! baseline x86-64 target (SSE2, 8 lanes of i16). On x86-64 the same loop is compiled a second
//! time with AVX2 enabled (16 lanes) and picked at run time when the CPU has AVX2, so the binary
//! runs on any x86-64 and uses the wider registers where they exist. The arithmetic wraps, so no
//! input can make a kernel panic; the net loader refuses nets whose sums could actually overflow.

/// `dst = src + add - sub`, element by element.
#[inline]
pub fn copy_add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::copy_add_sub(dst, src, add, sub) };
    }
    portable::copy_add_sub(dst, src, add, sub)
}

/// `dst = src + add - sub1 - sub2`, element by element (a capture).
#[inline]
pub fn copy_add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::copy_add_sub_sub(dst, src, add, sub1, sub2) };
    }
    portable::copy_add_sub_sub(dst, src, add, sub1, sub2)
}

/// `acc += column`, element by element.
#[inline]
pub fn add_assign(acc: &mut [i16], column: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::add_assign(acc, column) };
    }
    portable::add_assign(acc, column)
}

/// `acc -= column`, element by element.
#[inline]
pub fn sub_assign(acc: &mut [i16], column: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::sub_assign(acc, column) };
    }
    portable::sub_assign(acc, column)
}

/// `acc += Σ rows[f] for f in adds − Σ rows[f] for f in subs`, where row `f` of `weights` is
/// `weights[f · n..(f + 1) · n]` and `n = acc.len()`: many columns at once, a tile of the
/// accumulator held in registers while every column is added to it (relation differences).
#[inline]
pub fn add_sub_rows(acc: &mut [i16], weights: &[i16], adds: &[u32], subs: &[u32]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::add_sub_rows(acc, weights, adds, subs) };
    }
    portable::add_sub_rows(acc, weights, adds, subs)
}

/// `Σ clamp(acc[i], 0, qa) · w[i]`: the clipped-ReLU layer times the output weights.
#[inline]
pub fn crelu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::crelu_dot(acc, w, qa) };
    }
    portable::crelu_dot(acc, w, qa)
}

/// `Σ ((clamp(acc[i], 0, qa)² · m) >> 16) · w[i]`: the squared clipped-ReLU layer, brought back
/// to the accumulator's scale by `m ≈ 2¹⁶ / qa`, times the output weights. `qa` must be at
/// most 255 (so that `v²` fits in 16 bits).
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16, m: u16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the AVX2 variant's only requirement is a CPU with AVX2, checked just above.
        return unsafe { avx2::screlu_dot(acc, w, qa, m) };
    }
    portable::screlu_dot(acc, w, qa, m)
}

/// Whether the CPU has AVX2 (the standard library caches the answer).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Whether the CPU has AVX2: never, off x86-64.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn has_avx2() -> bool {
    false
}

/// The kernels as plain loops; the compiler vectorises them for whatever target features the
/// function they are inlined into has.
mod portable {
    #[inline(always)]
    pub fn copy_add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        let n = dst.len();
        let (src, add, sub) = (&src[..n], &add[..n], &sub[..n]);
        for i in 0..n {
            dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
        }
    }

    #[inline(always)]
    pub fn copy_add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
        let n = dst.len();
        let (src, add, sub1, sub2) = (&src[..n], &add[..n], &sub1[..n], &sub2[..n]);
        for i in 0..n {
            dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub1[i]).wrapping_sub(sub2[i]);
        }
    }

    #[inline(always)]
    pub fn add_assign(acc: &mut [i16], column: &[i16]) {
        let n = acc.len();
        let column = &column[..n];
        for i in 0..n {
            acc[i] = acc[i].wrapping_add(column[i]);
        }
    }

    #[inline(always)]
    pub fn sub_assign(acc: &mut [i16], column: &[i16]) {
        let n = acc.len();
        let column = &column[..n];
        for i in 0..n {
            acc[i] = acc[i].wrapping_sub(column[i]);
        }
    }

    /// Accumulator values per tile of `add_sub_rows`: eight AVX2 registers.
    const TILE: usize = 128;

    #[inline(always)]
    pub fn add_sub_rows(acc: &mut [i16], weights: &[i16], adds: &[u32], subs: &[u32]) {
        let n = acc.len();
        let row = |f: u32| &weights[f as usize * n..(f as usize + 1) * n];
        let mut at = 0;
        while at + TILE <= n {
            let mut tile: [i16; TILE] = acc[at..at + TILE].try_into().expect("a whole tile");
            for &f in adds {
                let r = &row(f)[at..at + TILE];
                for i in 0..TILE {
                    tile[i] = tile[i].wrapping_add(r[i]);
                }
            }
            for &f in subs {
                let r = &row(f)[at..at + TILE];
                for i in 0..TILE {
                    tile[i] = tile[i].wrapping_sub(r[i]);
                }
            }
            acc[at..at + TILE].copy_from_slice(&tile);
            at += TILE;
        }
        if at < n {
            for &f in adds {
                add_assign(&mut acc[at..], &row(f)[at..]);
            }
            for &f in subs {
                sub_assign(&mut acc[at..], &row(f)[at..]);
            }
        }
    }

    #[inline(always)]
    pub fn crelu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = acc.len();
        let w = &w[..n];
        let mut sum = 0i32;
        for i in 0..n {
            sum = sum.wrapping_add(acc[i].clamp(0, qa) as i32 * w[i] as i32);
        }
        sum
    }

    #[inline(always)]
    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16, m: u16) -> i32 {
        let n = acc.len();
        let w = &w[..n];
        let mut sum = 0i32;
        for i in 0..n {
            // qa ≤ 255 (checked with the architecture), so v² fits in 16 bits and the product
            // with m keeps its high half: one 16-bit high multiply per value.
            let v = acc[i].clamp(0, qa) as u16;
            let squared = ((v.wrapping_mul(v) as u32 * m as u32) >> 16) as i16;
            sum = sum.wrapping_add(squared as i32 * w[i] as i32);
        }
        sum
    }
}

/// The same loops compiled with AVX2 enabled. Safe functions, but calling one is `unsafe`
/// unless the caller has AVX2 too: the dispatchers above check the CPU first.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub fn copy_add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        super::portable::copy_add_sub(dst, src, add, sub)
    }

    #[target_feature(enable = "avx2")]
    pub fn copy_add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
        super::portable::copy_add_sub_sub(dst, src, add, sub1, sub2)
    }

    #[target_feature(enable = "avx2")]
    pub fn add_assign(acc: &mut [i16], column: &[i16]) {
        super::portable::add_assign(acc, column)
    }

    #[target_feature(enable = "avx2")]
    pub fn sub_assign(acc: &mut [i16], column: &[i16]) {
        super::portable::sub_assign(acc, column)
    }

    #[target_feature(enable = "avx2")]
    pub fn add_sub_rows(acc: &mut [i16], weights: &[i16], adds: &[u32], subs: &[u32]) {
        super::portable::add_sub_rows(acc, weights, adds, subs)
    }

    // The dot products are written with intrinsics: the compiler's own vectorisation of the
    // plain loop widened to 32-bit lanes and back (measured: SCReLU took 4.4% of a bench with a
    // net, against about 1.5% here). Per 16 values: clamp, square in 16 bits, keep the high half
    // of the product with m, and multiply-add pairs into 32-bit sums.

    /// Reads 16 values from `values` at `at`, which must leave 16 values in the slice.
    #[target_feature(enable = "avx2")]
    pub(in crate::eval::nnue) fn load16(values: &[i16], at: usize) -> __m256i {
        assert!(at + 16 <= values.len());
        // SAFETY: the assert keeps the 32 bytes read inside the slice; `loadu` needs no alignment.
        unsafe { _mm256_loadu_si256(values.as_ptr().add(at).cast()) }
    }

    /// The wrapping sum of the eight 32-bit lanes.
    #[target_feature(enable = "avx2")]
    pub(in crate::eval::nnue) fn lane_sum(v: __m256i) -> i32 {
        let halves = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        _mm_cvtsi128_si32(_mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs)))
    }

    #[target_feature(enable = "avx2")]
    pub fn crelu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = acc.len();
        let w = &w[..n];
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa));
        let mut sum = _mm256_setzero_si256();
        let whole = n - n % 16;
        for at in (0..whole).step_by(16) {
            let v = _mm256_min_epi16(_mm256_max_epi16(load16(acc, at), zero), top);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, load16(w, at)));
        }
        lane_sum(sum).wrapping_add(super::portable::crelu_dot(&acc[whole..], &w[whole..], qa))
    }

    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16, m: u16) -> i32 {
        let n = acc.len();
        let w = &w[..n];
        let (zero, top, mul) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa), _mm256_set1_epi16(m as i16));
        let mut sum = _mm256_setzero_si256();
        let whole = n - n % 16;
        for at in (0..whole).step_by(16) {
            let v = _mm256_min_epi16(_mm256_max_epi16(load16(acc, at), zero), top);
            let squared = _mm256_mulhi_epu16(_mm256_mullo_epi16(v, v), mul);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(squared, load16(w, at)));
        }
        lane_sum(sum).wrapping_add(super::portable::screlu_dot(&acc[whole..], &w[whole..], qa, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random_vec(rng: &mut impl Rng, n: usize, range: std::ops::RangeInclusive<i16>) -> Vec<i16> {
        (0..n).map(|_| rng.gen_range(range.clone())).collect()
    }

    /// The kernels' meaning, written out in wide integers with one wrap at the end.
    fn reference_dot(acc: &[i16], w: &[i16], qa: i16, squared: bool) -> i32 {
        let m = ((65536 + qa as i64 / 2) / qa as i64).min(u16::MAX as i64);
        let sum: i64 = acc
            .iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = a.clamp(0, qa) as i64;
                (if squared { v * v * m / 65536 } else { v }) * w as i64
            })
            .sum();
        sum as i32
    }

    #[test]
    fn dispatched_kernels_match_the_reference() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        // Lengths that are and are not a multiple of the vector width.
        for n in [16, 32, 128, 256, 512, 17, 1] {
            for big in [false, true] {
                let range = if big { i16::MIN..=i16::MAX } else { -300..=300 };
                let [src, a, b, c] = std::array::from_fn(|_| random_vec(&mut rng, n, range.clone()));
                let expected: Vec<i16> = (0..n)
                    .map(|i| (src[i] as i32 + a[i] as i32 - b[i] as i32 - c[i] as i32) as i16)
                    .collect();
                let mut dst = vec![0; n];
                copy_add_sub_sub(&mut dst, &src, &a, &b, &c);
                assert_eq!(dst, expected);
                let mut portable_dst = vec![0; n];
                portable::copy_add_sub_sub(&mut portable_dst, &src, &a, &b, &c);
                assert_eq!(portable_dst, expected);

                let expected: Vec<i16> =
                    (0..n).map(|i| (src[i] as i32 + a[i] as i32 - b[i] as i32) as i16).collect();
                copy_add_sub(&mut dst, &src, &a, &b);
                assert_eq!(dst, expected);
                portable::copy_add_sub(&mut portable_dst, &src, &a, &b);
                assert_eq!(portable_dst, expected);

                let expected: Vec<i16> = (0..n).map(|i| (src[i] as i32 + a[i] as i32) as i16).collect();
                dst.copy_from_slice(&src);
                add_assign(&mut dst, &a);
                assert_eq!(dst, expected);
                portable_dst.copy_from_slice(&src);
                portable::add_assign(&mut portable_dst, &a);
                assert_eq!(portable_dst, expected);

                let expected: Vec<i16> = (0..n).map(|i| (src[i] as i32 - a[i] as i32) as i16).collect();
                dst.copy_from_slice(&src);
                sub_assign(&mut dst, &a);
                assert_eq!(dst, expected);
                portable_dst.copy_from_slice(&src);
                portable::sub_assign(&mut portable_dst, &a);
                assert_eq!(portable_dst, expected);

                for qa in [1i16, 127, 255] {
                    let m = ((65536 + qa as u32 / 2) / qa as u32).min(u16::MAX as u32) as u16;
                    let w = random_vec(&mut rng, n, if big { -32768..=32767 } else { -127..=127 });
                    let crelu = reference_dot(&src, &w, qa, false);
                    assert_eq!(crelu_dot(&src, &w, qa), crelu);
                    assert_eq!(portable::crelu_dot(&src, &w, qa), crelu);
                    let screlu = reference_dot(&src, &w, qa, true);
                    assert_eq!(screlu_dot(&src, &w, qa, m), screlu);
                    assert_eq!(portable::screlu_dot(&src, &w, qa, m), screlu);
                }
            }
        }
    }

    /// Many rows at once, for widths with and without a remainder past the last whole tile.
    #[test]
    fn add_sub_rows_adds_and_takes_away_each_row() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for n in [16, 128, 256, 272, 1024] {
            let rows = 40;
            let weights = random_vec(&mut rng, rows * n, i16::MIN..=i16::MAX);
            let acc = random_vec(&mut rng, n, i16::MIN..=i16::MAX);
            for (adds, subs) in [(vec![3u32, 7, 7, 39], vec![0u32, 12]), (vec![], vec![5]), (vec![1], vec![])]
            {
                let mut expected = acc.clone();
                for &f in &adds {
                    portable::add_assign(&mut expected, &weights[f as usize * n..][..n]);
                }
                for &f in &subs {
                    portable::sub_assign(&mut expected, &weights[f as usize * n..][..n]);
                }
                let (mut fast, mut slow) = (acc.clone(), acc.clone());
                add_sub_rows(&mut fast, &weights, &adds, &subs);
                portable::add_sub_rows(&mut slow, &weights, &adds, &subs);
                assert_eq!(fast, expected, "{n}");
                assert_eq!(slow, expected, "{n}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_variants_match_the_portable_ones() {
        if !has_avx2() {
            return; // nothing to compare on this CPU; the dispatcher never calls them here
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for n in [16, 256, 33] {
            let [src, a, b, c] = std::array::from_fn(|_| random_vec(&mut rng, n, i16::MIN..=i16::MAX));
            let (mut fast, mut slow) = (vec![0; n], vec![0; n]);
            // SAFETY: AVX2 is present (checked at the top of the test).
            unsafe { avx2::copy_add_sub_sub(&mut fast, &src, &a, &b, &c) };
            portable::copy_add_sub_sub(&mut slow, &src, &a, &b, &c);
            assert_eq!(fast, slow);
            // SAFETY: as above.
            unsafe { avx2::copy_add_sub(&mut fast, &src, &a, &b) };
            portable::copy_add_sub(&mut slow, &src, &a, &b);
            assert_eq!(fast, slow);
            // SAFETY: as above.
            unsafe { avx2::add_assign(&mut fast, &c) };
            portable::add_assign(&mut slow, &c);
            assert_eq!(fast, slow);
            // SAFETY: as above.
            unsafe { avx2::sub_assign(&mut fast, &b) };
            portable::sub_assign(&mut slow, &b);
            assert_eq!(fast, slow);
            // SAFETY: as above.
            let (fc, fs) = unsafe { (avx2::crelu_dot(&src, &a, 255), avx2::screlu_dot(&src, &a, 255, 257)) };
            assert_eq!(fc, portable::crelu_dot(&src, &a, 255));
            assert_eq!(fs, portable::screlu_dot(&src, &a, 255, 257));
        }
    }
}
