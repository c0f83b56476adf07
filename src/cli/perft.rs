//! `chariot perft <DEPTH> [--fen FEN] [--moves M1 M2 …] [--divide]`.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use clap::Args;

use super::common::setup_position;
use crate::board::movegen;

/// Arguments of `chariot perft`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position to start from, as one quoted argument (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play before counting, in ICCS, WXF or Chinese (e.g. `--moves h2e2 h9g7`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Print each legal root move with its count, sorted by move text.
    #[arg(long)]
    pub divide: bool,
}

/// Runs perft: counts (and the divide lines) go to `out`, time and speed to `diag`.
pub fn run(args: &PerftArgs, out: &mut impl Write, diag: &mut impl Write) -> Result<()> {
    let mut pos = setup_position(args.fen.as_deref(), &args.moves)?;
    let started = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        let mut lines: Vec<(String, u64)> = movegen::perft_divide(&mut pos, args.depth)
            .into_iter()
            .map(|(mv, count)| (mv.to_string(), count))
            .collect();
        lines.sort();
        for (mv, count) in &lines {
            writeln!(out, "{mv} {count}")?;
        }
        lines.iter().map(|(_, count)| count).sum()
    } else {
        movegen::perft(&mut pos, args.depth)
    };
    let elapsed = started.elapsed();
    writeln!(out, "nodes {nodes}")?;
    out.flush()?;
    let nps = if elapsed.as_secs_f64() > 0.0 { (nodes as f64 / elapsed.as_secs_f64()) as u64 } else { 0 };
    writeln!(diag, "info time_ms {} nps {nps}", elapsed.as_millis())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(depth: u32, fen: Option<&str>, moves: &[&str], divide: bool) -> PerftArgs {
        PerftArgs {
            depth,
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            divide,
        }
    }

    fn stdout_of(a: &PerftArgs) -> Result<String> {
        let (mut out, mut diag) = (Vec::new(), Vec::new());
        run(a, &mut out, &mut diag)?;
        assert!(String::from_utf8(diag).unwrap().starts_with("info time_ms "));
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn bare_kings_divide() {
        // Red king e0 may go to e1 or f0; d0 would face the black king on d9.
        let out = stdout_of(&args(1, Some("3k5/9/9/9/9/9/9/9/9/4K4 w"), &[], true)).unwrap();
        assert_eq!(out, "e0e1 1\ne0f0 1\nnodes 2\n");
    }

    #[test]
    fn depth_zero_is_one_node_with_no_root_moves() {
        assert_eq!(stdout_of(&args(0, None, &[], true)).unwrap(), "nodes 1\n");
    }

    #[test]
    fn moves_in_one_quoted_word() {
        let split = stdout_of(&args(2, None, &["h2e2", "h9g7"], false)).unwrap();
        let joined = stdout_of(&args(2, None, &["h2e2 h9g7"], false)).unwrap();
        assert_eq!(split, joined);
    }

    #[test]
    fn bad_input_is_an_error() {
        let err = stdout_of(&args(1, Some("9/9 w"), &[], false)).unwrap_err();
        assert_eq!(format!("{err:#}"), "bad FEN: 2 ranks instead of 10");
        let err = stdout_of(&args(1, None, &["h2e2", "h9g7", "h2h9"], false)).unwrap_err();
        assert_eq!(format!("{err:#}"), "move 3: no legal move matches 'h2h9'");
    }

    #[test]
    fn moves_in_any_notation() {
        let iccs = stdout_of(&args(2, None, &["h2e2", "h9g7"], false)).unwrap();
        assert_eq!(stdout_of(&args(2, None, &["炮二平五", "马8进7"], false)).unwrap(), iccs);
        assert_eq!(stdout_of(&args(2, None, &["C2=5", "h9g7"], false)).unwrap(), iccs);
    }
}
