//! The two protocols a GUI may speak; the first command of a conversation picks one.

/// The protocol a GUI speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCCI 3.0 (XQWizard, BHGUI).
    Ucci,
    /// UCI in the Pikafish dialect (Sharkchess).
    Uci,
}

impl Dialect {
    /// The handshake command that selects this dialect.
    pub fn handshake(self) -> &'static str {
        match self {
            Dialect::Ucci => "ucci",
            Dialect::Uci => "uci",
        }
    }
}
