//! The transposition table: shared by all search threads without locks.
//!
//! Each bucket holds two entries: slot 0 is depth-preferred, slot 1 always-replace. An entry is two
//! atomic words, `key ^ data` and `data`; a reader that sees a torn write gets a key mismatch and
//! treats the entry as absent (the "lockless hashing" trick), so no lock is ever taken.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::board::Move;

use super::score::{from_tt, to_tt};

/// What a stored score says about the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at least the score (fail high).
    Lower = 1,
    /// The true value is at most the score (fail low).
    Upper = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    /// What a fail-soft result `score` of a search with window (`alpha`, `beta`) says.
    #[inline]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A probed entry, with its score already adjusted to the probing ply.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TtHit {
    /// Best or refutation move (`Move::NONE` if none).
    pub mv: Move,
    /// Score from the side to move's view, mate distances relative to the probing node.
    pub score: i32,
    /// Static evaluation saved with the entry.
    pub eval: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Bound type of `score`.
    pub bound: Bound,
    /// Whether the position was on a principal variation when stored (Stockfish's `ttPv`).
    pub pv: bool,
}

impl TtHit {
    /// Whether the stored bound settles a node searched with window (alpha, beta).
    #[inline]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Two entries, aligned to their size so that a bucket never straddles two cache lines: a
/// probe costs one memory access. (A table's memory from the system allocator starts 16 bytes
/// past a page, so with 8-byte alignment every other bucket straddled a line.)
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    entries: [Entry; 2],
}
const _: () = assert!(std::mem::size_of::<Bucket>() == 32 && 64 % std::mem::align_of::<Bucket>() == 0);

/// Searches are told apart by an age of this many bits (it wraps).
const AGE_MASK: u8 = 31;
/// Where the principal-variation flag and the age sit in an entry's data.
const PV_SHIFT: u32 = 58;
const AGE_SHIFT: u32 = 59;

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 + pv 1 + age 5
#[allow(clippy::too_many_arguments)]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    mv.bits() as u64
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | ((pv as u64) << PV_SHIFT)
        | (((age & AGE_MASK) as u64) << AGE_SHIFT)
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

fn unpack_age(data: u64) -> u8 {
    ((data >> AGE_SHIFT) as u8) & AGE_MASK
}

/// The shared hash table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

/// Why a table of the size asked for cannot be had. The caller keeps what it had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HashError {
    /// The system has less memory free than the table needs (with a tenth to spare).
    NotAvailable {
        /// The size asked for.
        mb: usize,
        /// Megabytes free when it was asked.
        available_mb: u64,
    },
    /// The process's address-space limit (`ulimit -v`) leaves less room than the table and
    /// what the search needs besides it.
    AddressSpace {
        /// The size asked for.
        mb: usize,
        /// Megabytes of address space left when it was asked.
        left_mb: u64,
    },
    /// The allocator refused: the kernel's overcommit rules, or a size beyond what the address
    /// space can hold.
    Refused {
        /// The size asked for.
        mb: usize,
    },
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HashError::NotAvailable { mb, available_mb } => write!(
                f,
                "a hash table of {mb} MB cannot be allocated: only {available_mb} MB of memory are free"
            ),
            HashError::AddressSpace { mb, left_mb } => write!(
                f,
                "a hash table of {mb} MB cannot be allocated: the address-space limit (ulimit -v) \
                 leaves {left_mb} MB"
            ),
            HashError::Refused { mb } => write!(
                f,
                "a hash table of {mb} MB cannot be allocated: the system refused the memory \
                 (more than the machine or the address space can hold)"
            ),
        }
    }
}

impl std::error::Error for HashError {}

/// Address space kept free of the table under a `ulimit -v`: each search thread's stack and
/// move-ordering tables (about 8 MB a thread), and the rest of the engine's allocations. Under a
/// very tight limit, half of what is left.
const SEARCH_RESERVE_BYTES: u64 = 32 << 20;

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be had; sizes that come from users go through `try_new`.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes (at least one bucket), or why there is none. The table
    /// is refused when the system has not got the memory free; otherwise every page is written
    /// here, so that the memory is really there rather than promised by overcommit and taken
    /// away by the OOM killer in the middle of a game.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashError> {
        let mb = mb.max(1);
        let bytes = mb.checked_mul(1 << 20).ok_or(HashError::Refused { mb })?;
        if let Some(free) = super::memory::available_bytes() {
            if bytes as u64 > free / 10 * 9 {
                return Err(HashError::NotAvailable { mb, available_mb: free >> 20 });
            }
        }
        if let Some(left) = super::memory::address_space_left() {
            if bytes as u64 + SEARCH_RESERVE_BYTES.min(left / 2) > left {
                return Err(HashError::AddressSpace { mb, left_mb: left >> 20 });
            }
        }
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| HashError::Refused { mb })?;
        super::memory::advise_huge_pages(buckets.as_ptr().cast(), count * std::mem::size_of::<Bucket>());
        // Writes every entry: the pages are committed now, not at some node of a later search.
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable { buckets, age: AtomicU8::new(0) })
    }

    /// Size in megabytes as configured.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.entries {
                e.check.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u8 {
        self.age.load(Ordering::Relaxed) & AGE_MASK
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any table size.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after does not wait
    /// for memory. Changes nothing a probe or a store sees.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let bucket: *const Bucket = self.bucket(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint to the cache: it neither reads nor writes anything the
        // program sees and cannot fault, whatever the address; this one is a live bucket.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Looks `key` up; `ply` converts mate scores back to distances from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    3 => Bound::Exact,
                    _ => continue,
                };
                return Some(TtHit {
                    mv: Move::from_bits(data as u16),
                    score: from_tt((data >> 16) as u16 as i16 as i32, ply),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: unpack_depth(data),
                    bound,
                    pv: (data >> PV_SHIFT) & 1 == 1,
                });
            }
        }
        None
    }

    /// Stores a result, `pv` if the position is or was on a principal variation. Keeps an
    /// existing move when the new result has none.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: i32,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let bucket = self.bucket(key);
        let age = self.current_age();
        let [deep, recent] = &bucket.entries;
        let deep_data = deep.data.load(Ordering::Relaxed);
        let deep_key = deep.check.load(Ordering::Relaxed) ^ deep_data;
        let same = deep_key == key;
        // The depth-preferred slot takes the result if it is as deep, the slot is stale, or same key.
        let target =
            if same || depth >= unpack_depth(deep_data) || unpack_age(deep_data) != age || deep_data == 0 {
                deep
            } else {
                recent
            };
        let mut mv = mv;
        if mv.is_none() {
            let old = target.data.load(Ordering::Relaxed);
            if target.check.load(Ordering::Relaxed) ^ old == key {
                mv = Move::from_bits(old as u16);
            }
        }
        if same && std::ptr::eq(target, deep) && bound != Bound::Exact {
            // Do not overwrite a deeper result for the same position with a shallower bound.
            if unpack_depth(deep_data) > depth + 2 && unpack_age(deep_data) == age {
                return;
            }
        }
        if std::ptr::eq(target, deep) && !same && deep_data != 0 {
            // The displaced deep entry is still worth keeping: it becomes the recent one.
            recent.data.store(deep_data, Ordering::Relaxed);
            recent.check.store(deep_key ^ deep_data, Ordering::Relaxed);
        }
        let data = pack(mv, to_tt(score, ply), eval, depth, bound, pv, age);
        target.data.store(data, Ordering::Relaxed);
        target.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let sample = self.buckets.len().min(500);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && unpack_age(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 2).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn store_probe_round_trips_bounds_and_scores() {
        let tt = TranspositionTable::new(1);
        let mv = Move::parse_iccs("h2e2").unwrap();
        for (i, bound) in [Bound::Lower, Bound::Upper, Bound::Exact].into_iter().enumerate() {
            let key = 0x1234_5678_9ABC_DEF0 ^ i as u64;
            for pv in [false, true] {
                tt.store(key, 3, mv, -250, 17, 9, bound, pv);
                let hit = tt.probe(key, 3).expect("stored");
                assert_eq!(hit, TtHit { mv, score: -250, eval: 17, depth: 9, bound, pv });
            }
        }
        assert_eq!(tt.probe(0xDEAD, 0), None);
        // A lower bound settles a node only at or above beta; an upper bound at or below alpha.
        let hit = |bound| TtHit { mv, score: 50, eval: 0, depth: 1, bound, pv: false };
        assert!(hit(Bound::Lower).cuts(0, 50) && !hit(Bound::Lower).cuts(0, 51));
        assert!(hit(Bound::Upper).cuts(50, 60) && !hit(Bound::Upper).cuts(49, 60));
        assert!(hit(Bound::Exact).cuts(-100, 100));
        // And a result's bound is read off the window it was searched with, fail-soft.
        assert_eq!(Bound::of(60, 0, 50), Bound::Lower);
        assert_eq!(Bound::of(50, 0, 50), Bound::Lower);
        assert_eq!(Bound::of(25, 0, 50), Bound::Exact);
        assert_eq!(Bound::of(0, 0, 50), Bound::Upper);
        assert_eq!(Bound::of(-80, 0, 50), Bound::Upper);
    }

    #[test]
    fn prefetching_changes_no_probe_and_every_bucket_sits_in_one_cache_line() {
        let tt = TranspositionTable::new(1);
        let mv = Move::parse_iccs("h2e2").unwrap();
        let keys: Vec<u64> = (0..1_000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for (i, &key) in keys.iter().enumerate().step_by(2) {
            tt.store(key, 0, mv, i as i32, 0, 5, Bound::Exact, false);
        }
        let before: Vec<Option<TtHit>> = keys.iter().map(|&k| tt.probe(k, 0)).collect();
        // The extremes of the key range too: the prefetch's address is a bucket's, whatever the key.
        for &key in keys.iter().chain(&[0, u64::MAX, 1 << 63]) {
            tt.prefetch(key);
        }
        let after: Vec<Option<TtHit>> = keys.iter().map(|&k| tt.probe(k, 0)).collect();
        assert_eq!(before, after);
        assert!(before.iter().step_by(2).all(Option::is_some), "the stored keys are found");
        let first = tt.buckets.as_ptr() as usize;
        assert_eq!(first % std::mem::size_of::<Bucket>(), 0, "buckets start on a line or half-way");
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Found at ply 5: mate in 7 plies from the root = mate in 2 from this node.
        tt.store(42, 5, Move::NONE, MATE - 7, 0, 4, Bound::Exact, false);
        // Probed at ply 1 (same node reached sooner): mate is 3 plies from the root now.
        assert_eq!(tt.probe(42, 1).unwrap().score, MATE - 3);
        tt.store(43, 2, Move::NONE, -(MATE - 6), 0, 4, Bound::Exact, true);
        assert_eq!(tt.probe(43, 4).unwrap().score, -(MATE - 8));
    }

    #[test]
    fn sizes_that_cannot_be_had_are_refused_not_fatal() {
        // Beyond the address space: the byte count itself does not fit.
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).err(),
            Some(HashError::Refused { mb: usize::MAX })
        );
        if let Some(free) = super::super::memory::available_bytes() {
            // Twice what is free: refused up front, however generous overcommit would be.
            let mb = (free >> 20) as usize * 2 + 1;
            let err = TranspositionTable::try_new(mb).err().expect("refused");
            assert!(matches!(err, HashError::NotAvailable { .. }), "{err:?}");
            assert!(err.to_string().contains(&format!("{mb} MB cannot be allocated")), "{err}");
        }
        // A size that fits is really there: every bucket was written.
        let tt = TranspositionTable::try_new(2).unwrap();
        assert_eq!(tt.size_mb(), 2);
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            // Half of them on a principal variation: the flag is not read as age.
            tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, Move::NONE, 0, 0, 1, Bound::Exact, k % 2 == 0);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.probe(0, 0), None);
    }
}
