//! Why an engine could not be started and readied, in the words a user needs to fix it.

use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::pipes::Failure;

/// Why an engine could not be started and readied; the message names the engine.
#[derive(Debug)]
pub enum EngineStartError {
    /// The program could not be run.
    Spawn {
        /// The engine's name.
        name: String,
        /// The program.
        cmd: PathBuf,
        /// Why, in the words a user needs to fix it.
        cause: SpawnFailure,
    },
    /// The process has no pipes to talk over.
    NoPipes {
        /// The engine's name.
        name: String,
    },
    /// The engine did not complete the handshake (options and `isready` included).
    Handshake {
        /// The engine's name.
        name: String,
        /// How it failed.
        failure: Failure,
    },
}

/// Why a program could not be run.
#[derive(Debug)]
pub enum SpawnFailure {
    /// The path is a directory.
    IsDirectory,
    /// A bare name that is not on `PATH`.
    NotOnPath,
    /// The file exists but could not be run as found: most likely its `#!` interpreter is missing.
    NoInterpreter(std::io::Error),
    /// No file at the path.
    NoSuchFile,
    /// The file may not be executed.
    NotExecutable,
    /// Anything else the system said.
    Other(std::io::Error),
}

impl SpawnFailure {
    /// Why `cmd` could not be started, given the error the system gave. Looks at the file system
    /// (is it a directory, does it exist), so this is decided when the start fails.
    pub(super) fn of(cmd: &Path, e: std::io::Error) -> SpawnFailure {
        // A bare name is looked up on PATH.
        let bare = cmd.components().count() == 1;
        if !bare && cmd.is_dir() {
            return SpawnFailure::IsDirectory;
        }
        match e.kind() {
            ErrorKind::NotFound if bare => SpawnFailure::NotOnPath,
            ErrorKind::NotFound if cmd.exists() => SpawnFailure::NoInterpreter(e),
            ErrorKind::NotFound => SpawnFailure::NoSuchFile,
            ErrorKind::PermissionDenied => SpawnFailure::NotExecutable,
            _ => SpawnFailure::Other(e),
        }
    }
}

impl fmt::Display for EngineStartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineStartError::Spawn { name, cmd, cause } => {
                let path = cmd.display();
                write!(f, "engine '{name}': ")?;
                match cause {
                    SpawnFailure::IsDirectory => write!(f, "{path} is a directory"),
                    SpawnFailure::NotOnPath => write!(f, "no program {} on PATH", shown_path(cmd)),
                    SpawnFailure::NoInterpreter(e) => {
                        write!(f, "{path} cannot be run ({e}): is the interpreter on its #! line missing?")
                    }
                    SpawnFailure::NoSuchFile => write!(f, "no such file {path}"),
                    SpawnFailure::NotExecutable => write!(f, "{path} is not executable"),
                    SpawnFailure::Other(e) => write!(f, "cannot start {path}: {e}"),
                }
            }
            EngineStartError::NoPipes { name } => write!(f, "engine '{name}': no pipes to the process"),
            EngineStartError::Handshake { name, failure } => match failure {
                Failure::Crash(why) | Failure::Misbehaved(why) => {
                    write!(f, "engine '{name}' failed during the handshake: {why}")
                }
                Failure::Timeout => write!(f, "engine '{name}' did not answer the handshake in time"),
            },
        }
    }
}

/// No `source`: the message already holds the system's reason.
impl std::error::Error for EngineStartError {}

/// A program name quoted for a message.
fn shown_path(path: &Path) -> String {
    crate::tournament::shown::shown(&path.to_string_lossy())
}
