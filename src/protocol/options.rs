//! Engine options and the `setoption` command in both dialects.

/// The option values the engine holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// UCCI `usemillisec`: `go` times are in milliseconds instead of seconds.
    pub use_millisec: bool,
}

/// What a `setoption` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// The option was set.
    Set,
    /// No option of that name exists; the protocols say to ignore it (with a note).
    Unknown(String),
}

/// The UCCI `option` lines announced after `ucci`.
pub fn ucci_option_lines(options: &Options) -> Vec<String> {
    vec![format!("option usemillisec type check default {}", options.use_millisec)]
}

impl Options {
    /// UCCI form: `setoption <name> [<value>]`.
    pub fn set_ucci(&mut self, args: &[&str]) -> Result<SetOutcome, String> {
        let Some((&name, value)) = args.split_first() else {
            return Err("setoption needs an option name".to_string());
        };
        match name {
            "usemillisec" => {
                self.use_millisec = parse_check(name, &value.join(" "))?;
                Ok(SetOutcome::Set)
            }
            _ => Ok(SetOutcome::Unknown(name.to_string())),
        }
    }

    /// UCI form: `setoption name <name…> [value <value…>]`. No UCI option exists yet, so every
    /// well-formed command names an unknown option.
    pub fn set_uci(&mut self, args: &[&str]) -> Result<SetOutcome, String> {
        let ["name", rest @ ..] = args else {
            return Err("setoption needs 'name <option>'".to_string());
        };
        let name_len = rest.iter().position(|&t| t == "value").unwrap_or(rest.len());
        if name_len == 0 {
            return Err("setoption name is empty".to_string());
        }
        Ok(SetOutcome::Unknown(rest[..name_len].join(" ")))
    }
}

/// A check option's value: `true`/`false` (`on`/`off` as GUIs sometimes send). An empty value
/// means `true`, as UCCI GUIs send a bare name to switch a check on.
fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "" | "true" | "on" => Ok(true),
        "false" | "off" => Ok(false),
        other => Err(format!("{name} wants true or false, not '{other}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usemillisec_switches() {
        let mut options = Options::default();
        assert_eq!(options.set_ucci(&["usemillisec", "true"]), Ok(SetOutcome::Set));
        assert!(options.use_millisec);
        assert_eq!(ucci_option_lines(&options), ["option usemillisec type check default true"]);
        assert_eq!(options.set_ucci(&["usemillisec", "false"]), Ok(SetOutcome::Set));
        assert!(!options.use_millisec);
        let err = options.set_ucci(&["usemillisec", "maybe"]).unwrap_err();
        assert!(err.contains("'maybe'"), "{err}");
    }

    #[test]
    fn unknown_and_malformed() {
        let mut options = Options::default();
        assert_eq!(options.set_ucci(&["hashsize", "64"]), Ok(SetOutcome::Unknown("hashsize".into())));
        assert!(options.set_ucci(&[]).is_err());
        assert_eq!(
            options.set_uci(&["name", "Move", "Overhead", "value", "10"]),
            Ok(SetOutcome::Unknown("Move Overhead".into()))
        );
        assert!(options.set_uci(&["Hash", "16"]).unwrap_err().contains("'name <option>'"));
        assert!(options.set_uci(&["name", "value", "3"]).unwrap_err().contains("empty"));
        assert_eq!(options, Options::default());
    }
}
