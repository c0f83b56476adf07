//! The `go` command in both dialects: perft, or a search with its limits.

use crate::board::{movegen, Color, Move, Position};
use crate::search::Limits;

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

/// The number after keyword `what` at `args[*i]`, advancing `i` over it.
fn number(args: &[&str], i: &mut usize, what: &str) -> Result<u64, String> {
    *i += 1;
    let Some(text) = args.get(*i) else {
        return Err(format!("'{what}' needs a number"));
    };
    text.parse::<u64>().map_err(|_| format!("{what} '{text}' is not a non-negative whole number"))
}

/// Parses the words after `go`. `unit` applies to UCCI's `time`/`increment`/`opptime`; UCI's
/// `wtime`, `btime`, `winc`, `binc` and `movetime` are always milliseconds. `pos` resolves
/// `searchmoves` and picks the side's clock.
pub fn parse_go(args: &[&str], unit: TimeUnit, pos: &Position, multipv: usize) -> Result<GoCommand, String> {
    if let Some(&"perft") = args.first() {
        return match args {
            [_, depth] => depth
                .parse::<u32>()
                .map(GoCommand::Perft)
                .map_err(|_| format!("perft depth '{depth}' is not a number")),
            [_, depth, extra, ..] => Err(format!("unexpected '{extra}' after go perft {depth}")),
            _ => Err("go perft needs a depth".to_string()),
        };
    }
    let mut limits = Limits { multipv: multipv.max(1), ..Limits::default() };
    let mut draw_offered = false;
    let mut depth_zero = false;
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut uc_time = None;
    let mut uc_inc = 0;
    let scale = match unit {
        TimeUnit::Seconds => 1000,
        TimeUnit::Milliseconds => 1,
    };
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
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
            "movetime" => limits.movetime = Some(number(args, &mut i, "movetime")?),
            "time" => uc_time = Some(number(args, &mut i, "time")? * scale),
            "increment" => uc_inc = number(args, &mut i, "increment")? * scale,
            "movestogo" => {
                limits.moves_to_go = Some(number(args, &mut i, "movestogo")?.min(u32::MAX as u64) as u32)
            }
            "opptime" | "oppincrement" | "oppmovestogo" => {
                number(args, &mut i, word)?;
            }
            "wtime" => wtime = Some(number(args, &mut i, "wtime")?),
            "btime" => btime = Some(number(args, &mut i, "btime")?),
            "winc" => winc = number(args, &mut i, "winc")?,
            "binc" => binc = number(args, &mut i, "binc")?,
            "searchmoves" => {
                let mut p = pos.clone();
                while let Some(&text) = args.get(i + 1) {
                    if KEYWORDS.contains(&text) {
                        break;
                    }
                    i += 1;
                    let mv = Move::parse_iccs(text)
                        .filter(|&m| movegen::is_legal(&mut p, m))
                        .ok_or_else(|| format!("searchmoves: '{text}' is not a legal move here"))?;
                    limits.search_moves.push(mv);
                }
            }
            other => return Err(format!("unknown go parameter '{other}'")),
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
    Ok(GoCommand::Search(GoSearch { limits, draw_offered, depth_zero }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(args: &[&str], unit: TimeUnit) -> Result<GoSearch, String> {
        match parse_go(args, unit, &Position::startpos(), 1)? {
            GoCommand::Search(s) => Ok(s),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn perft_depths() {
        let p = Position::startpos();
        assert_eq!(parse_go(&["perft", "3"], TimeUnit::Seconds, &p, 1), Ok(GoCommand::Perft(3)));
        assert!(parse_go(&["perft", "x"], TimeUnit::Seconds, &p, 1).unwrap_err().contains("'x'"));
        assert!(parse_go(&["perft"], TimeUnit::Seconds, &p, 1).unwrap_err().contains("needs a depth"));
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
}
