//! Files given as input (nets, books, PGN, openings, data), read with a bound.
//!
//! Every file a user names goes through here, so that no name can make the engine eat memory or
//! hang: only regular files are read (a character device such as `/dev/zero` never ends, a FIFO
//! blocks until someone writes to it, a directory holds no bytes), and a file larger than the
//! largest valid one of its kind is refused from its size alone, before a byte is read. Each
//! format states that largest size as a [`Limit`] beside its layout.
//!
//! The type is checked twice: on the path before opening, so a FIFO is never opened (opening one
//! for reading blocks until a writer comes), and on the opened file, which is what is read. The
//! errors leave naming the file to the caller, which knows what the file was for, as `io::Error`
//! does; they name what was wrong and, for a size, the limit.

use std::fmt;
use std::fs::{File, FileType, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The largest valid file of one kind, and what that kind is called in messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What a file of this kind is, as a message names it: `net file`, `PGN file`.
    pub what: &'static str,
    /// The most bytes a valid file of this kind has.
    pub max_len: u64,
}

/// Why an input file was not read; `Display` says what was wrong (the caller names the file).
#[derive(Debug)]
pub enum InputError {
    /// The file could not be found, opened or read: the system's error.
    Io(io::Error),
    /// The path names something other than a regular file (a device, a FIFO, a directory…).
    NotRegular {
        /// What it is instead: `a character device`, `a FIFO`, `a directory`.
        kind: &'static str,
    },
    /// The file is larger than any valid file of its kind; nothing was read.
    TooLarge {
        /// Its size in bytes.
        len: u64,
        /// The limit it broke.
        limit: Limit,
    },
    /// The file grew past its kind's limit while it was read.
    Grew {
        /// The limit it broke.
        limit: Limit,
    },
    /// A text file is not UTF-8.
    NotUtf8 {
        /// The offset of the first byte that is not.
        valid_up_to: usize,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => write!(f, "{e}"),
            InputError::NotRegular { kind } => write!(f, "it is {kind}, not a regular file"),
            InputError::TooLarge { len, limit } => write!(
                f,
                "it is {len} bytes, more than a {} can be ({} bytes at most); nothing was read",
                limit.what, limit.max_len
            ),
            InputError::Grew { limit } => write!(
                f,
                "it grew past {} bytes while it was read, more than a {} can be",
                limit.max_len, limit.what
            ),
            InputError::NotUtf8 { valid_up_to } => {
                write!(f, "not UTF-8 text (byte {valid_up_to} is invalid)")
            }
        }
    }
}

/// No `source`: the message already holds the cause's (a chain would say it twice).
impl std::error::Error for InputError {}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> Self {
        InputError::Io(e)
    }
}

/// What `file_type` is, in words, when it is not a regular file.
fn irregular_kind(file_type: FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Refuses `metadata` unless it is that of a regular file.
fn check_regular(metadata: &Metadata) -> Result<(), InputError> {
    match irregular_kind(metadata.file_type()) {
        Some(kind) => Err(InputError::NotRegular { kind }),
        None => Ok(()),
    }
}

/// Opens the regular file at `path` for reading, refusing anything else (a device, a FIFO, a
/// directory, a socket) without blocking. For a file that is streamed, whatever its size.
pub fn open(path: &Path) -> Result<File, InputError> {
    // The path first, so a FIFO is never opened; then the opened file, which is what is read
    // (the path may have been replaced in between).
    check_regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    check_regular(&file.metadata()?)?;
    Ok(file)
}

/// The bytes of the regular file at `path`, refused from its size alone if it is larger than
/// `limit` allows; the allocation never exceeds the limit, even for a file that grows.
pub fn read(path: &Path, limit: Limit) -> Result<Vec<u8>, InputError> {
    let file = open(path)?;
    let len = file.metadata()?.len();
    if len > limit.max_len {
        return Err(InputError::TooLarge { len, limit });
    }
    // The size is a hint only (files in /proc say 0, a file may grow): the read stops one byte
    // past the limit, which is enough to tell a file that grew from one that did not.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit.max_len.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit.max_len {
        return Err(InputError::Grew { limit });
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, bounded as [`read`] bounds it, refused if it is not
/// UTF-8.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, InputError> {
    String::from_utf8(read(path, limit)?)
        .map_err(|e| InputError::NotUtf8 { valid_up_to: e.utf8_error().valid_up_to() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const SMALL: Limit = Limit { what: "test file", max_len: 16 };

    /// A fresh directory for one test, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("chariot-input-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_file_within_the_limit_is_read_whole() {
        let dir = Scratch::new("within");
        let path = dir.0.join("ok.txt");
        std::fs::write(&path, "sixteen bytes ok").unwrap();
        assert_eq!(read_text(&path, SMALL).unwrap(), "sixteen bytes ok");
        std::fs::write(&path, "").unwrap();
        assert_eq!(read(&path, SMALL).unwrap(), b"");
    }

    #[test]
    fn a_file_past_the_limit_is_refused_from_its_size() {
        let dir = Scratch::new("large");
        let path = dir.0.join("big.bin");
        // Sparse: the size is there, the bytes are not, so a refusal that read them would show.
        File::create(&path).unwrap().set_len(1 << 40).unwrap();
        let err = read(&path, SMALL).unwrap_err();
        assert!(matches!(err, InputError::TooLarge { len, .. } if len == 1 << 40), "{err:?}");
        assert_eq!(
            err.to_string(),
            "it is 1099511627776 bytes, more than a test file can be (16 bytes at most); nothing was read"
        );
        std::fs::write(&path, "seventeen bytes!!").unwrap();
        assert!(matches!(read(&path, SMALL), Err(InputError::TooLarge { len: 17, .. })));
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = Scratch::new("kinds");
        let err = read(&dir.0, SMALL).unwrap_err();
        assert_eq!(err.to_string(), "it is a directory, not a regular file");
        assert!(
            matches!(read(&dir.0.join("missing"), SMALL), Err(InputError::Io(e)) if e.kind() == io::ErrorKind::NotFound)
        );
        #[cfg(unix)]
        {
            let err = read(Path::new("/dev/zero"), SMALL).unwrap_err();
            assert_eq!(err.to_string(), "it is a character device, not a regular file");
            assert!(open(Path::new("/dev/null")).is_err());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = Scratch::new("fifo");
        let fifo = dir.0.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        // On a thread, so that a read that blocked would fail the test instead of hanging it.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(read(&fifo, SMALL).map_err(|e| e.to_string())));
        let answer = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("no block on a FIFO");
        assert_eq!(answer.unwrap_err(), "it is a FIFO (named pipe), not a regular file");
    }

    #[test]
    fn text_must_be_utf8() {
        let dir = Scratch::new("utf8");
        let path = dir.0.join("latin1.txt");
        std::fs::write(&path, b"caf\xe9").unwrap();
        assert_eq!(read_text(&path, SMALL).unwrap_err().to_string(), "not UTF-8 text (byte 3 is invalid)");
    }

    #[test]
    fn a_file_that_says_it_is_empty_is_still_bounded() {
        // /proc files report a size of 0 and hold more: the read stops at the limit.
        let path = Path::new("/proc/self/maps");
        if path.exists() {
            let err = read(path, Limit { what: "test file", max_len: 1 }).unwrap_err();
            assert!(matches!(err, InputError::Grew { .. }), "{err:?}");
        }
    }
}
