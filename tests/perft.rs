//! Perft against the reference counts in `tests/data/perft.txt`, and symmetry of the counts.

use chariot::board::{movegen, Position};

const REFERENCE: &str = "tests/data/perft.txt";

/// (FEN, depth, leaves) for each reference line.
fn reference_lines() -> Vec<(String, u32, u64)> {
    let text = std::fs::read_to_string(REFERENCE).expect("tests/data is in the repository");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split(';').collect();
            assert_eq!(parts.len(), 3, "malformed reference line {line}");
            (parts[0].to_string(), parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .collect()
}

/// Lines whose tree is small enough for a debug build.
fn is_small(leaves: u64) -> bool {
    leaves < 10_000_000
}

#[test]
fn reference_counts_match() {
    let lines = reference_lines();
    assert!(lines.len() >= 40, "the reference file has all its lines");
    for (fen, depth, leaves) in lines.into_iter().filter(|l| is_small(l.2)) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(movegen::perft(&mut pos, depth), leaves, "perft {depth} of {fen}");
        assert_eq!(pos.key(), pos.recomputed_key(), "key restored");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "133M leaves: release test run only")]
fn start_position_depth_5() {
    for (fen, depth, leaves) in reference_lines().into_iter().filter(|l| !is_small(l.2)) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(movegen::perft(&mut pos, depth), leaves, "perft {depth} of {fen}");
    }
}

#[test]
fn mirrored_twins_give_the_same_counts() {
    for (fen, depth, leaves) in reference_lines().into_iter().filter(|l| l.1 == 3) {
        let pos = Position::from_fen(&fen).unwrap();
        let mut flipped = pos.color_flipped();
        let mut mirrored = pos.files_mirrored();
        // The twins must be valid positions in their own right, and round-trip through FEN.
        assert_eq!(Position::from_fen(&flipped.to_fen()).unwrap(), flipped);
        assert_eq!(movegen::perft(&mut flipped, depth), leaves, "colour-flipped twin of {fen}");
        assert_eq!(movegen::perft(&mut mirrored, depth), leaves, "left-right mirror of {fen}");
    }
}
