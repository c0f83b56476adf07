//! A table file mapped into memory read-only, instead of read into a buffer of its own.
//!
//! Why: a folder of tables is gigabytes (docs/egtb.md: 2.3 GB for the 342 tables of one
//! attacker up to 60 million positions, about 11 GB for all of them), and every engine process
//! that sets `EgtbPath` (a match starts two for every game) read all of it into its own memory.
//! Mapped, the pages are the system's file cache, shared by every process, read on first touch,
//! and loading costs no copy. Measured on 2026-11-29 (docs/egtb.md, "Mapped tables").
//!
//! The one `unsafe` block is the `mmap` call and the view of its memory as a byte slice; it is
//! tested against the read-into-memory path (`format.rs`'s tests and `tests/egtb.rs`).

use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// A whole file mapped read-only. The file must not be truncated while mapped (the tables are
/// only ever replaced whole, by renaming a new file over the old, which leaves the old one's
/// pages intact for whoever maps them).
pub struct Mapping {
    address: *mut libc::c_void,
    len: usize,
}

// SAFETY: the mapping is read-only (PROT_READ) and private, never written through, and unmapped
// only in `drop`, when no borrow of its bytes can remain: sharing it between threads (the search
// threads probe the same tables) is as safe as sharing a `&[u8]`.
unsafe impl Send for Mapping {}
// SAFETY: as above: shared reads of memory nobody writes.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Maps all of `path`; an empty file cannot be mapped and is refused.
    pub fn open(path: &Path) -> io::Result<Mapping> {
        let file = File::open(path)?;
        let len = usize::try_from(file.metadata()?.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is too large to map"))?;
        if len == 0 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "the file is empty"));
        }
        // SAFETY: a fresh read-only private mapping of a file we opened, of its whole length; the
        // kernel checks the descriptor and the length. On failure nothing is mapped.
        let address = unsafe {
            libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, file.as_raw_fd(), 0)
        };
        if address == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // The mapping outlives the descriptor: closing the file here is what POSIX allows.
        Ok(Mapping { address, len })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `address` is the start of a live mapping of `len` readable bytes (made in
        // `open`, unmapped only in `drop`, which cannot run while `self` is borrowed).
        unsafe { std::slice::from_raw_parts(self.address as *const u8, self.len) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping `open` made; no borrow of its bytes outlives `self`.
        unsafe {
            libc::munmap(self.address, self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_file_reads_as_the_file_and_an_empty_or_missing_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("chariot-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bytes");
        let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let mapped = Mapping::open(&path).unwrap();
        assert_eq!(mapped.bytes(), &data[..]);
        // Replacing the file by a rename (as tables are written) leaves the mapping as it was.
        let newer = dir.join("newer");
        std::fs::write(&newer, b"something else").unwrap();
        std::fs::rename(&newer, &path).unwrap();
        assert_eq!(mapped.bytes(), &data[..]);
        drop(mapped);
        std::fs::write(&path, b"").unwrap();
        assert!(Mapping::open(&path).is_err());
        assert!(Mapping::open(&dir.join("missing")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
