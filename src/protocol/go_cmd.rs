//! The `go` command. Only `go perft <depth>` is understood so far; every search form is refused
//! by name until the search exists.

/// What a `go` command asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// Count the leaves of the legal move tree this many plies deep.
    Perft(u32),
}

/// Parses the words after `go`; the error names what was wrong or not yet supported.
pub fn parse_go(args: &[&str]) -> Result<GoCommand, String> {
    match args {
        ["perft"] => Err("go perft needs a depth".to_string()),
        ["perft", depth] => depth
            .parse::<u32>()
            .map(GoCommand::Perft)
            .map_err(|_| format!("perft depth '{depth}' is not a number")),
        ["perft", depth, extra, ..] => Err(format!("unexpected '{extra}' after go perft {depth}")),
        [] => Err("'go' (search) is not implemented yet; only 'go perft <depth>' works".to_string()),
        _ => Err(format!(
            "'go {}' (search) is not implemented yet; only 'go perft <depth>' works",
            args.join(" ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_depths() {
        assert_eq!(parse_go(&["perft", "3"]), Ok(GoCommand::Perft(3)));
        assert_eq!(parse_go(&["perft", "0"]), Ok(GoCommand::Perft(0)));
    }

    #[test]
    fn refusals_name_the_problem() {
        let cases: [(&[&str], &str); 6] = [
            (&["perft"], "needs a depth"),
            (&["perft", "x"], "perft depth 'x' is not a number"),
            (&["perft", "-1"], "perft depth '-1' is not a number"),
            (&["perft", "3", "4"], "unexpected '4'"),
            (&[], "'go' (search) is not implemented"),
            (&["depth", "5"], "'go depth 5' (search) is not implemented"),
        ];
        for (args, wanted) in cases {
            let err = parse_go(args).unwrap_err();
            assert!(err.contains(wanted), "{args:?} gave '{err}', wanted '{wanted}'");
        }
    }
}
