//! The identification blocks answered to `ucci` and `uci`.

use super::options::Options;

/// The engine's name with its version, as `id name` reports it.
pub fn engine_name() -> String {
    format!("Chariot {}", env!("CARGO_PKG_VERSION"))
}

/// Who wrote the engine, as `id author` reports it.
pub const AUTHOR: &str = "the Chariot developers";

/// The reply to `ucci`: identity, one line per option, then `ucciok`.
pub fn ucci_reply(options: &Options) -> Vec<String> {
    let mut lines = vec![
        format!("id name {}", engine_name()),
        format!("id author {AUTHOR}"),
        format!("id copyright {AUTHOR}, licensed under {}", env!("CARGO_PKG_LICENSE")),
    ];
    lines.extend(options.ucci_lines());
    lines.push("ucciok".to_string());
    lines
}

/// The reply to `uci`: identity, one line per option, then `uciok`.
pub fn uci_reply(options: &Options) -> Vec<String> {
    let mut lines = vec![format!("id name {}", engine_name()), format!("id author {AUTHOR}")];
    lines.extend(options.uci_lines());
    lines.push("uciok".to_string());
    lines
}
