//! Files written whole or not at all, for the library (books, nets, match PGNs) and the command
//! line (weights, tuning data, annotated games) alike.
//!
//! A file is written under a temporary name beside its destination, synced to the disk, then
//! renamed over the destination: a reader sees the old file or the new one, never half of one,
//! and a failure leaves neither a half-written file nor the temporary behind. A destination's
//! missing folders are created first, for every command alike (`-o out/games.pgn` on a first
//! run). The errors are the system's; each caller says which file it was writing.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Temporary files this process has named so far: with the process id, a name no other writer
/// (another process, or another thread of this one) uses at the same time.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// The directory `path` names a file in: its parent, or `.` for a bare file name.
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Creates the folder `path` names a file in, and the folders above it, unless they exist.
pub fn create_directory_of(path: &Path) -> io::Result<()> {
    std::fs::create_dir_all(directory_of(path))
}

/// A fresh hidden name beside `path`: `.NAME.PID-N.tmp`.
fn temporary_beside(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{} names no file", path.display()))
    })?;
    let n = TEMPORARIES.fetch_add(1, Ordering::Relaxed);
    let temporary = format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id());
    Ok(directory_of(path).join(temporary))
}

/// Replaces (or creates) `path` with `bytes`, whole or not at all: through a temporary file in
/// the same directory, synced, then renamed over `path`.
pub fn write_atomically(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    replace_with(path, |file| file.write_all(bytes.as_ref()))
}

/// Replaces (or creates) `path` with what `write` writes into a temporary file beside it, its
/// folder created if missing; if anything fails (the system, or `write` with an error of its
/// own), the temporary is removed and `path` is left as it was.
pub fn replace_with<E: From<io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut File) -> Result<(), E>,
) -> Result<(), E> {
    let temporary = temporary_beside(path)?;
    create_directory_of(path)?;
    let written = (|| -> Result<(), E> {
        let mut file = File::create(&temporary)?;
        write(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        Ok(std::fs::rename(&temporary, path)?)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Checks that `path` could be written (its directory, created if missing, takes a new file) by
/// creating and removing a temporary file beside it; `path` itself is not touched. A long job
/// calls this to refuse a bad destination before it starts.
pub fn check_writable(path: &Path) -> io::Result<()> {
    let temporary = temporary_beside(path)?;
    create_directory_of(path)?;
    File::create(&temporary)?;
    std::fs::remove_file(&temporary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory for one test, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("chariot-files-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(&self.0)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn missing_folders_are_created_and_a_file_in_the_way_is_refused() {
        let dir = Scratch::new("folders");
        let deep = dir.0.join("new").join("deeper").join("out.pgn");
        check_writable(&deep).unwrap();
        assert!(deep.parent().unwrap().is_dir() && !deep.exists());
        let other = dir.0.join("other").join("book.cbk");
        write_atomically(&other, "a book").unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "a book");
        // A file where a folder should be: refused, and nothing written.
        write_atomically(&dir.0.join("plain"), "x").unwrap();
        let blocked = dir.0.join("plain").join("out.pgn");
        assert!(write_atomically(&blocked, "y").is_err());
        assert!(check_writable(&blocked).is_err());
        assert_eq!(dir.names(), ["new", "other", "plain"]);
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = Scratch::new("replace");
        let path = dir.0.join("out.txt");
        write_atomically(&path, "one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(dir.names(), ["out.txt"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = Scratch::new("fail");
        // Failing halfway through the writing (a full disk): the old file stays as it was.
        let path = dir.0.join("book.bin");
        write_atomically(&path, "the old book").unwrap();
        let err = replace_with(&path, |file| {
            file.write_all(b"half of the new")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        })
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old book");
        assert_eq!(dir.names(), ["book.bin"]);
        // Failing at the rename, after the temporary was written whole: a directory cannot be
        // renamed over.
        let taken = dir.0.join("taken");
        std::fs::create_dir(&taken).unwrap();
        std::fs::write(taken.join("inside"), "kept").unwrap();
        let err = write_atomically(&taken, "new").unwrap_err();
        assert_ne!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
        assert_eq!(std::fs::read_to_string(taken.join("inside")).unwrap(), "kept");
        assert_eq!(dir.names(), ["book.bin", "taken"]);
        // A file where the directory should be: nothing is written anywhere.
        assert!(write_atomically(&dir.0.join("book.bin/out.txt"), "x").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old book");
        assert_eq!(dir.names(), ["book.bin", "taken"]);
    }

    #[test]
    fn a_path_naming_no_file_is_refused() {
        let err = write_atomically(Path::new("/"), "x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("names no file"), "{err}");
        assert!(check_writable(Path::new("dir/..")).is_err());
    }

    #[test]
    fn a_bare_name_is_in_the_current_directory() {
        assert_eq!(directory_of(Path::new("out.pgn")), Path::new("."));
        assert_eq!(directory_of(Path::new("a/b/out.pgn")), Path::new("a/b"));
        assert_eq!(directory_of(Path::new("/out.pgn")), Path::new("/"));
    }

    #[test]
    fn check_writable_touches_nothing() {
        let dir = Scratch::new("check");
        check_writable(&dir.0.join("later.txt")).unwrap();
        assert!(dir.names().is_empty());
        // A missing folder is made, and left empty.
        check_writable(&dir.0.join("missing/later.txt")).unwrap();
        assert_eq!(dir.names(), ["missing"]);
        assert_eq!(std::fs::read_dir(dir.0.join("missing")).unwrap().count(), 0);
    }

    #[test]
    fn threads_writing_one_file_do_not_share_a_temporary() {
        let dir = Scratch::new("threads");
        let path = dir.0.join("shared.txt");
        std::thread::scope(|s| {
            for t in 0..4 {
                let path = &path;
                s.spawn(move || {
                    for i in 0..20 {
                        let text = format!("thread {t} write {i} {}", "x".repeat(4096));
                        write_atomically(path, &text).unwrap();
                    }
                });
            }
        });
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("thread ") && text.ends_with(&"x".repeat(4096)), "{}", &text[..20]);
        assert_eq!(dir.names(), ["shared.txt"]);
    }
}
