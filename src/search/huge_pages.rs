//! Memory the search reads at random addresses, backed by huge pages (2 MiB) where the system
//! allows: the hash table, and the continuation history that move ordering reads for every
//! quiet move. With 4 KiB pages nearly every such read also missed the TLB.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a huge page on x86-64 and AArch64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the memory from `start`, `len` bytes, with huge pages where it can,
/// before the memory is first touched. Only the whole huge pages inside the range can be so
/// backed. Advice only: where transparent huge pages are off, or on another system, nothing
/// changes.
pub fn advise_huge_pages(start: *const u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        let begin = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize).saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
        if end > begin {
            // SAFETY: the range lies inside an allocation the caller owns; MADV_HUGEPAGE only
            // changes how the kernel backs those pages, never their contents or their mapping,
            // and a failure is advice not taken (the result is not needed).
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// A slice of fixed length whose memory starts on a huge-page boundary when it is a huge page
/// or more, so that all of it, not only the whole huge pages that happen to fall inside an
/// ordinary allocation, can be backed by huge pages. Otherwise a `Box<[T]>`.
pub struct HugePageBuf<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the buffer owns its elements as a `Box<[T]>` would; sending or sharing it sends or
// shares only `T`s.
unsafe impl<T: Copy + Send> Send for HugePageBuf<T> {}
// SAFETY: as for `Send`: `&HugePageBuf<T>` gives out only `&T`.
unsafe impl<T: Copy + Sync> Sync for HugePageBuf<T> {}

impl<T: Copy> HugePageBuf<T> {
    /// `len` copies of `value`. Aborts as `Vec` does when the memory cannot be had.
    pub fn filled(len: usize, value: T) -> HugePageBuf<T> {
        let Some(layout) = Self::layout(len) else {
            return HugePageBuf { ptr: NonNull::dangling(), len };
        };
        // SAFETY: `layout` has a non-zero size (`layout` returns `None` otherwise).
        let raw = unsafe { alloc::alloc(layout) }.cast::<T>();
        let Some(ptr) = NonNull::new(raw) else { alloc::handle_alloc_error(layout) };
        advise_huge_pages(raw.cast(), layout.size());
        for i in 0..len {
            // SAFETY: `i < len`, and the allocation holds `len` elements of `T`, aligned for
            // `T`; writing (not assigning) leaves nothing uninitialised behind to drop.
            unsafe { raw.add(i).write(value) };
        }
        HugePageBuf { ptr, len }
    }

    /// The layout of `len` elements: aligned to a huge page when they fill one. `None` when
    /// nothing needs allocating (no elements, or elements of no size).
    fn layout(len: usize) -> Option<Layout> {
        let size = std::mem::size_of::<T>().checked_mul(len).expect("HugePageBuf: size overflows usize");
        if size == 0 {
            return None;
        }
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE.max(std::mem::align_of::<T>())
        } else {
            std::mem::align_of::<T>()
        };
        Some(Layout::from_size_align(size, align).expect("HugePageBuf: size overflows isize"))
    }
}

impl<T: Copy> Deref for HugePageBuf<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised elements (or is dangling with no size to read),
        // aligned, owned by `self` and borrowed immutably for the slice's lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for HugePageBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`, borrowed mutably through `&mut self`, so the slice is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for HugePageBuf<T> {
    fn drop(&mut self) {
        if let Some(layout) = Self::layout(self.len) {
            // SAFETY: `ptr` came from `alloc::alloc` with this very layout (`layout` is a pure
            // function of `len`, which never changes), and is freed once. `T: Copy` has no
            // destructor to run first.
            unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for the comparison with `Vec`.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn behaves_as_a_vec_under_the_same_writes() {
        for len in [0, 1, 7, 1000, (HUGE_PAGE / 4) + 3] {
            let mut buf = HugePageBuf::filled(len, 5i32);
            let mut safe = vec![5i32; len];
            assert_eq!(&*buf, &safe[..], "fill of {len}");
            let mut state = 0x9e37_79b9_7f4a_7c15 ^ len as u64;
            for _ in 0..10_000.min(len * 4) {
                let i = next(&mut state) as usize % len;
                let v = next(&mut state) as i32;
                buf[i] = v;
                safe[i] = v;
                let j = next(&mut state) as usize % len;
                assert_eq!(buf[j], safe[j]);
            }
            assert_eq!(&*buf, &safe[..], "after writes, {len}");
        }
    }

    #[test]
    fn a_buffer_of_a_huge_page_or_more_starts_on_a_huge_page() {
        let rows: HugePageBuf<[i32; 1260]> = HugePageBuf::filled(1261, [0; 1260]);
        assert_eq!(rows.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(rows.iter().all(|row| row.iter().all(|&v| v == 0)));
        let small: HugePageBuf<u64> = HugePageBuf::filled(10, u64::MAX);
        assert_eq!(small.as_ptr() as usize % std::mem::align_of::<u64>(), 0);
        assert_eq!(&*small, &[u64::MAX; 10]);
        let none: HugePageBuf<()> = HugePageBuf::filled(usize::MAX, ());
        assert_eq!(none.len(), usize::MAX);
    }
}
