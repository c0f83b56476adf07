//! The trainer's random numbers: SplitMix64, whose whole state is one `u64`, so a checkpoint
//! can save it and a resumed run draws exactly what an uninterrupted one would. Written here
//! rather than taken from `rand` so that the shuffle (and with it every trained net) does not
//! change when a dependency changes its algorithms.

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Scrambles `x` into a well-mixed 64-bit value (SplitMix64's output function): also the hash
/// that splits games between training and validation.
#[inline]
pub fn mix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A SplitMix64 generator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    /// The whole state: saved in checkpoints.
    pub state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: mix(seed ^ 0x6368_6172_696F_7421) }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A uniform number in `0..n` (`n` > 0), without bias (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = self.next_u64() as u128 * n as u128;
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// Shuffles `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_is_all_there_is() {
        let mut a = SplitMix64::new(5);
        for _ in 0..10 {
            a.next_u64();
        }
        let mut b = SplitMix64 { state: a.state };
        assert_eq!(
            (0..100).map(|_| a.next_u64()).collect::<Vec<_>>(),
            (0..100).map(|_| b.next_u64()).collect::<Vec<_>>()
        );
        assert_ne!(SplitMix64::new(5).next_u64(), SplitMix64::new(6).next_u64());
    }

    #[test]
    fn below_is_uniform_enough_and_in_range() {
        let mut rng = SplitMix64::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            let x = rng.below(6) as usize;
            counts[x] += 1;
        }
        // Each count is 10,000 ± a few hundred (σ ≈ 91).
        assert!(counts.iter().all(|&c| (9_600..=10_400).contains(&c)), "{counts:?}");
    }

    #[test]
    fn shuffle_is_a_permutation_that_moves_things() {
        let mut rng = SplitMix64::new(2);
        let mut v: Vec<u32> = (0..1000).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..1000).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..1000).collect::<Vec<_>>());
    }
}
