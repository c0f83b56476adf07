//! An option's value as the GUI typed it, parsed by its type (check, spin, combo, string), and
//! written back as the announcement writes it.

use std::num::IntErrorKind;

use super::bounds::{SpinRange, MAX_TEXT_BYTES};
use super::error::OptionError;

/// A check option's value: `true`/`false`, or `on`/`off`, `1`/`0`, `yes`/`no` as GUIs and
/// adapters (uci2wb sends `1`/`0`) write it. An empty value means `true`, as UCCI GUIs send a
/// bare name to switch a check on.
pub(super) fn parse_check(name: &str, value: &str) -> Result<bool, OptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        other => Err(OptionError::NotCheck { name: name.into(), value: other.into() }),
    }
}

/// A spin option's value: a whole number within `range`.
pub(super) fn parse_spin(name: &str, range: SpinRange, value: &str) -> Result<i64, OptionError> {
    let name = name.to_string();
    let v: i64 = match value.trim().parse() {
        Ok(v) => v,
        Err(e) if matches!(e.kind(), IntErrorKind::PosOverflow | IntErrorKind::NegOverflow) => {
            return Err(OptionError::Overflow { name, range, value: value.trim().into() })
        }
        Err(_) => return Err(OptionError::NotNumber { name, range, value: value.into() }),
    };
    if !(range.min..=range.max).contains(&v) {
        return Err(OptionError::OutOfRange { name, range, value: v });
    }
    Ok(v)
}

/// A combo option's value: the index of one of `choices`, whatever its case (the canonical
/// names only, not any parser's aliases).
pub(super) fn parse_combo(
    name: &str,
    choices: &'static [&'static str],
    value: &str,
) -> Result<usize, OptionError> {
    let word = value.trim().to_ascii_lowercase();
    choices.iter().position(|&choice| choice == word).ok_or_else(|| OptionError::NotChoice {
        name: name.into(),
        choices,
        value: value.into(),
    })
}

/// A string option's value, trimmed; GUIs write an empty string as `<empty>`, as the announcement
/// does.
pub(super) fn parse_text(name: &str, value: &str) -> Result<String, OptionError> {
    if value.len() > MAX_TEXT_BYTES {
        return Err(OptionError::TooLong { name: name.into(), bytes: value.len() });
    }
    Ok(value.trim().replace("<empty>", ""))
}

/// `var …` words with the current value first: XBoard's adapter uci2wb ignores `default` for
/// combos and XBoard then takes the first entry, so the first entry must be the value in force.
pub(super) fn var_list(vars: &[&str], current: &str) -> String {
    std::iter::once(current)
        .chain(vars.iter().copied().filter(|&v| v != current))
        .map(|v| format!("var {v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A string option's value as announced: `<empty>` for none.
pub(super) fn empty_as(value: &str) -> &str {
    if value.is_empty() {
        "<empty>"
    } else {
        value
    }
}
