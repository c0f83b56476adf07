//! The `go` command in both dialects: perft, or a search with its limits.

use std::fmt;
use std::num::IntErrorKind;

use super::perft::MAX_PERFT_DEPTH;
use crate::board::{movegen, Color, Move, Position};
use crate::quote::quoted;
use crate::search::Limits;

/// Why a `go` was refused; `Display` is the message the GUI gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// `go perft` without a depth.
    MissingPerftDepth,
    /// A word after `go perft <depth>`.
    AfterPerft {
        /// The depth as given.
        depth: String,
        /// The first word after it.
        extra: String,
    },
    /// A keyword that takes a number came last.
    MissingNumber {
        /// The keyword.
        keyword: String,
    },
    /// A number that is not a whole number (or is negative).
    NotNumber {
        /// What the number is, as the message names it (`depth`, `time (seconds)`…).
        what: String,
        /// The word as given.
        text: String,
        /// The largest number taken.
        max: u64,
    },
    /// A whole number above the largest taken.
    TooLarge {
        /// What the number is, as the message names it.
        what: String,
        /// The word as given.
        text: String,
        /// The largest number taken.
        max: u64,
    },
    /// A `searchmoves` word that is not a legal move in the position.
    IllegalSearchMove(String),
    /// A word that is no `go` parameter.
    UnknownParameter(String),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::MissingPerftDepth => write!(f, "go perft needs a depth"),
            GoError::AfterPerft { depth, extra } => {
                write!(f, "unexpected {} after go perft {depth}", quoted(extra))
            }
            GoError::MissingNumber { keyword } => write!(f, "'{keyword}' needs a number"),
            GoError::NotNumber { what, text, max } => {
                write!(f, "{what} {} is not a whole number from 0 to {max}", quoted(text))
            }
            GoError::TooLarge { what, text, max } => {
                write!(f, "{what} {} is too large: at most {max}", quoted(text))
            }
            GoError::IllegalSearchMove(text) => {
                write!(f, "searchmoves: {} is not a legal move here", quoted(text))
            }
            GoError::UnknownParameter(word) => write!(f, "unknown go parameter {}", quoted(word)),
        }
    }
}

impl std::error::Error for GoError {}

/// What a `go` command asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// Count the leaves of the legal move tree this many plies deep.
    Perft(u32),
    /// Search with these limits.
    Search(GoSearch),
}

/// A search request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoSearch {
    /// Depth, nodes, clock, pondering…
    pub limits: Limits,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offered: bool,
    /// `go depth 0`: answer without searching.
    pub depth_zero: bool,
    /// What was wrong with a command whose meaning is still clear (it is searched anyway).
    pub warnings: Vec<String>,
}

/// How times in a `go` are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// UCCI without `usemillisec`.
    Seconds,
    /// UCI, or UCCI with `usemillisec`.
    Milliseconds,
}

const KEYWORDS: &[&str] = &[
    "ponder",
    "draw",
    "depth",
    "nodes",
    "time",
    "movestogo",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "wtime",
    "btime",
    "winc",
    "binc",
    "mate",
    "movetime",
    "infinite",
    "searchmoves",
    "perft",
];

/// Clock values (milliseconds) above this, about 35 years, are taken as this: a clock that long
/// is as good as none, and the time manager's arithmetic stays far from overflowing.
pub const MAX_CLOCK_MS: u64 = 1 << 40;

/// `text` as a whole number from 0 to `max`, or an error naming `what` and the range.
fn bounded_number(text: &str, what: &str, max: u64) -> Result<u64, GoError> {
    let (what, text) = (what.to_string(), text.to_string());
    match text.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        Err(e) if *e.kind() != IntErrorKind::PosOverflow => Err(GoError::NotNumber { what, text, max }),
        _ => Err(GoError::TooLarge { what, text, max }),
    }
}

/// The number after keyword `what` at `args[*i]`, advancing `i` over it.
fn number(args: &[&str], i: &mut usize, what: &str) -> Result<u64, GoError> {
    *i += 1;
    let Some(text) = args.get(*i) else {
        return Err(GoError::MissingNumber { keyword: what.to_string() });
    };
    bounded_number(text, what, u64::MAX)
}

/// A time after keyword `what`, in milliseconds: UCCI writes seconds unless `usemillisec` is on.
fn time(args: &[&str], i: &mut usize, what: &str, unit: TimeUnit) -> Result<u64, GoError> {
    let ms = match unit {
        TimeUnit::Milliseconds => number(args, i, what)?,
        TimeUnit::Seconds => {
            *i += 1;
            let text = args.get(*i).ok_or_else(|| GoError::MissingNumber { keyword: what.to_string() })?;
            bounded_number(text, &format!("{what} (seconds)"), u64::MAX / 1000)? * 1000
        }
    };
    Ok(ms.min(MAX_CLOCK_MS))
}

/// Parses the words after `go`. `unit` applies to UCCI's `time`/`increment`/`opptime`; UCI's
/// `wtime`, `btime`, `winc`, `binc` and `movetime` are always milliseconds. `pos` resolves
/// `searchmoves` and picks the side's clock.
pub fn parse_go(args: &[&str], unit: TimeUnit, pos: &Position, multipv: usize) -> Result<GoCommand, GoError> {
    if let Some(&"perft") = args.first() {
        return match args {
            [_, depth] => bounded_number(depth, "perft depth", MAX_PERFT_DEPTH as u64)
                .map(|d| GoCommand::Perft(d as u32)),
            [_, depth, extra, ..] => {
                Err(GoError::AfterPerft { depth: depth.to_string(), extra: extra.to_string() })
            }
            _ => Err(GoError::MissingPerftDepth),
        };
    }
    let mut limits = Limits { multipv: multipv.max(1), ..Limits::default() };
    let mut draw_offered = false;
    let mut depth_zero = false;
    let mut warnings = Vec::new();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut uc_time = None;
    let mut uc_inc = 0;
    let mut i = 0;
    let mut seen: Vec<&str> = Vec::new();
    while i < args.len() {
        let word = args[i];
        if KEYWORDS.contains(&word) {
            if seen.contains(&word) {
                warnings.push(format!("'{word}' is given more than once: the last one counts"));
            }
            seen.push(word);
        }
        match word {
            "ponder" => limits.ponder = true,
            "draw" => draw_offered = true,
            "infinite" => limits.infinite = true,
            "depth" => {
                if args.get(i + 1) == Some(&"infinite") {
                    i += 1;
                    limits.infinite = true;
                } else {
                    let d = number(args, &mut i, "depth")?;
                    if d == 0 {
                        depth_zero = true;
                    }
                    limits.depth = Some(d.min(100) as i32);
                }
            }
            "nodes" => limits.nodes = Some(number(args, &mut i, "nodes")?),
            "mate" => limits.mate = Some(number(args, &mut i, "mate")?.clamp(1, 50) as i32),
            "movetime" => limits.movetime = Some(number(args, &mut i, "movetime")?.min(MAX_CLOCK_MS)),
            "time" => uc_time = Some(time(args, &mut i, "time", unit)?),
            "increment" => uc_inc = time(args, &mut i, "increment", unit)?,
            "movestogo" => {
                limits.moves_to_go = Some(number(args, &mut i, "movestogo")?.min(u32::MAX as u64) as u32)
            }
            "opptime" | "oppincrement" => {
                time(args, &mut i, word, unit)?;
            }
            "oppmovestogo" => {
                number(args, &mut i, word)?;
            }
            "wtime" => wtime = Some(time(args, &mut i, "wtime", TimeUnit::Milliseconds)?),
            "btime" => btime = Some(time(args, &mut i, "btime", TimeUnit::Milliseconds)?),
            "winc" => winc = time(args, &mut i, "winc", TimeUnit::Milliseconds)?,
            "binc" => binc = time(args, &mut i, "binc", TimeUnit::Milliseconds)?,
            "searchmoves" => {
                let mut p = pos.clone();
                limits.search_moves.clear();
                while let Some(&text) = args.get(i + 1) {
                    if KEYWORDS.contains(&text) {
                        break;
                    }
                    i += 1;
                    let mv = Move::parse_iccs(text)
                        .filter(|&m| movegen::is_legal(&mut p, m))
                        .ok_or_else(|| GoError::IllegalSearchMove(text.to_string()))?;
                    limits.search_moves.push(mv);
                }
                if limits.search_moves.is_empty() {
                    warnings.push("searchmoves names no move: all moves are searched".to_string());
                }
            }
            other => return Err(GoError::UnknownParameter(other.to_string())),
        }
        i += 1;
    }
    if let Some(t) = uc_time {
        limits.time_left = Some(t);
        limits.increment = uc_inc;
    } else {
        let (time, inc) = match pos.side_to_move() {
            Color::Red => (wtime, winc),
            Color::Black => (btime, binc),
        };
        if time.is_some() {
            limits.time_left = time;
            limits.increment = inc;
        }
    }
    // A bare `go` searches until `stop`, as both dialects' GUIs expect.
    if limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.mate.is_none()
        && limits.movetime.is_none()
        && limits.time_left.is_none()
    {
        limits.infinite = true;
    }
    Ok(GoCommand::Search(GoSearch { limits, draw_offered, depth_zero, warnings }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search `args` ask for, or the error message.
    fn go(args: &[&str], unit: TimeUnit) -> Result<GoSearch, String> {
        match parse_go(args, unit, &Position::startpos(), 1).map_err(|e| e.to_string())? {
            GoCommand::Search(s) => Ok(s),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn perft_depths() {
        let p = Position::startpos();
        assert_eq!(parse_go(&["perft", "3"], TimeUnit::Seconds, &p, 1), Ok(GoCommand::Perft(3)));
        let err = parse_go(&["perft", "x"], TimeUnit::Seconds, &p, 1).unwrap_err();
        assert_eq!(err, GoError::NotNumber { what: "perft depth".into(), text: "x".into(), max: 64 });
        assert!(err.to_string().contains("'x'"), "{err}");
        let err = parse_go(&["perft"], TimeUnit::Seconds, &p, 1).unwrap_err();
        assert_eq!(err.to_string(), "go perft needs a depth");
        assert_eq!(parse_go(&["perft", "64"], TimeUnit::Seconds, &p, 1), Ok(GoCommand::Perft(64)));
        let err = parse_go(&["perft", "2971"], TimeUnit::Seconds, &p, 1).unwrap_err();
        assert_eq!(err.to_string(), "perft depth '2971' is too large: at most 64");
        let err = parse_go(&["perft", "3", "now"], TimeUnit::Seconds, &p, 1).unwrap_err();
        assert_eq!(err.to_string(), "unexpected 'now' after go perft 3");
    }

    #[test]
    fn ucci_clock_in_seconds_or_milliseconds() {
        let s =
            go(&["time", "300", "increment", "2", "opptime", "290", "oppincrement", "2"], TimeUnit::Seconds)
                .unwrap();
        assert_eq!((s.limits.time_left, s.limits.increment), (Some(300_000), 2_000));
        let s = go(&["time", "3000", "movestogo", "20"], TimeUnit::Milliseconds).unwrap();
        assert_eq!((s.limits.time_left, s.limits.moves_to_go), (Some(3000), Some(20)));
        let s = go(&["draw", "ponder", "depth", "8"], TimeUnit::Seconds).unwrap();
        assert!(s.draw_offered && s.limits.ponder && s.limits.depth == Some(8));
        assert!(go(&["depth", "infinite"], TimeUnit::Seconds).unwrap().limits.infinite);
        assert!(go(&["depth", "0"], TimeUnit::Seconds).unwrap().depth_zero);
    }

    #[test]
    fn uci_clock_picks_the_side_to_move() {
        let red = go(&["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20"], TimeUnit::Milliseconds)
            .unwrap();
        assert_eq!((red.limits.time_left, red.limits.increment), (Some(1000), 10));
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
                .unwrap();
        let GoCommand::Search(s) =
            parse_go(&["wtime", "1000", "btime", "2000", "binc", "20"], TimeUnit::Milliseconds, &black, 1)
                .unwrap()
        else {
            panic!()
        };
        assert_eq!((s.limits.time_left, s.limits.increment), (Some(2000), 20));
        let s = go(&["searchmoves", "h2e2", "b2e2", "depth", "3"], TimeUnit::Milliseconds).unwrap();
        assert_eq!(s.limits.search_moves.len(), 2);
        assert_eq!(s.limits.depth, Some(3));
        assert!(go(&[], TimeUnit::Milliseconds).unwrap().limits.infinite);
        assert_eq!(go(&["mate", "3"], TimeUnit::Milliseconds).unwrap().limits.mate, Some(3));
    }

    #[test]
    fn bad_numbers_and_words_are_named() {
        for (args, wanted) in [
            (&["depth", "x"][..], "depth 'x'"),
            (&["nodes", "-5"], "nodes '-5'"),
            (&["time"], "'time' needs a number"),
            (&["sideways"], "unknown go parameter 'sideways'"),
            (&["searchmoves", "h2h8"], "'h2h8' is not a legal move"),
        ] {
            let err = go(args, TimeUnit::Seconds).unwrap_err();
            assert!(err.contains(wanted), "{args:?}: {err}");
        }
    }

    #[test]
    fn numbers_too_large_give_the_range() {
        let huge = "99999999999999999999";
        for (args, unit, wanted) in [
            (
                ["depth", huge],
                TimeUnit::Milliseconds,
                format!("depth '{huge}' is too large: at most 18446744073709551615"),
            ),
            (
                ["nodes", huge],
                TimeUnit::Milliseconds,
                format!("nodes '{huge}' is too large: at most 18446744073709551615"),
            ),
            (
                ["wtime", huge],
                TimeUnit::Milliseconds,
                format!("wtime '{huge}' is too large: at most 18446744073709551615"),
            ),
            // Seconds that would overflow once made milliseconds.
            (
                ["time", "18446744073709552"],
                TimeUnit::Seconds,
                "time (seconds) '18446744073709552' is too large: at most 18446744073709551".to_string(),
            ),
            (
                ["increment", "-1"],
                TimeUnit::Seconds,
                "increment (seconds) '-1' is not a whole number from 0 to 18446744073709551".to_string(),
            ),
        ] {
            assert_eq!(go(&args, unit).unwrap_err(), wanted, "{args:?}");
        }
        // The largest number of seconds is taken, as a clock as good as none.
        let s =
            go(&["time", "18446744073709551", "increment", "18446744073709551"], TimeUnit::Seconds).unwrap();
        assert_eq!((s.limits.time_left, s.limits.increment), (Some(MAX_CLOCK_MS), MAX_CLOCK_MS));
        let s = go(&["movetime", "18446744073709551615"], TimeUnit::Milliseconds).unwrap();
        assert_eq!(s.limits.movetime, Some(MAX_CLOCK_MS));
        assert!(crate::search::TimeBudget::new(&s.limits, 30).is_some());
    }

    #[test]
    fn long_junk_is_quoted_short() {
        let junk = "z".repeat(1 << 20);
        let err = go(&["depth", &junk], TimeUnit::Milliseconds).unwrap_err();
        assert!(err.len() < 200 && err.contains("(1048576 bytes)"), "{err}");
        let err = go(&[&junk], TimeUnit::Milliseconds).unwrap_err();
        assert!(err.len() < 200 && err.starts_with("unknown go parameter 'zzz"), "{err}");
    }

    #[test]
    fn a_keyword_given_twice_is_reported_and_the_last_counts() {
        let s = go(&["depth", "5", "ponder", "depth", "7", "ponder"], TimeUnit::Milliseconds).unwrap();
        assert_eq!(s.limits.depth, Some(7));
        assert_eq!(
            s.warnings,
            [
                "'depth' is given more than once: the last one counts",
                "'ponder' is given more than once: the last one counts"
            ]
        );
    }

    #[test]
    fn an_empty_searchmoves_is_searched_whole_with_a_warning() {
        let s = go(&["searchmoves", "depth", "3"], TimeUnit::Milliseconds).unwrap();
        assert!(s.limits.search_moves.is_empty() && s.limits.depth == Some(3));
        assert_eq!(s.warnings, ["searchmoves names no move: all moves are searched"]);
        assert!(go(&["depth", "3"], TimeUnit::Milliseconds).unwrap().warnings.is_empty());
    }
}
