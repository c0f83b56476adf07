//! The bounds an option's value must keep, which the parsers check and the errors name: a spin
//! option's range and a string option's length.

/// Longest value of a string option (a path is at most 4096 bytes on Linux).
pub const MAX_TEXT_BYTES: usize = 4096;

/// The range of a spin option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SpinRange {
    /// The least value.
    pub min: i64,
    /// The greatest value.
    pub max: i64,
}
