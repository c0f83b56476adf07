//! The lab's algorithms checked against theory: the same value as minimax, never more leaves
//! than minimax, and Knuth and Moore's minimal tree under perfect ordering.

use super::synthetic::{Ordering, SyntheticTree};
use super::*;
use crate::board::Position;

fn settings() -> Settings {
    Settings { window: 20, table_bits: 16 }
}

/// Positions with captures, checks and a quick mate in reach, beside the start.
const POSITIONS: [&str; 4] = [
    crate::board::START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "4k4/4C4/5P3/1R7/9/9/4r4/3A5/6pp1/5K3 w - - 0 1",
    // Two rooks against a bare king: mated lines inside three plies.
    "3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1",
];

fn xiangqi(fen: &str) -> XiangqiTree {
    XiangqiTree::new(Position::from_fen(fen).unwrap())
}

#[test]
fn every_algorithm_finds_the_minimax_value_on_synthetic_trees() {
    for seed in 1..=6 {
        for (branching, depth) in [(2, 6), (3, 5), (5, 4), (7, 3)] {
            for ordering in [Ordering::AsGenerated, Ordering::BestFirst] {
                let mut tree = SyntheticTree::new(branching, depth, 50, seed, ordering);
                let reference = run(Algorithm::Minimax, &mut tree, depth, settings());
                for algorithm in Algorithm::ALL {
                    let got = run(algorithm, &mut tree, depth, settings());
                    assert_eq!(
                        got.value,
                        reference.value,
                        "{} on seed {seed}, b={branching}, d={depth}, {ordering:?}",
                        algorithm.name()
                    );
                }
            }
        }
    }
}

#[test]
fn every_algorithm_finds_the_minimax_value_on_xiangqi_positions() {
    for fen in POSITIONS {
        for depth in 1..=3 {
            let reference = run(Algorithm::Minimax, &mut xiangqi(fen), depth, settings());
            for algorithm in Algorithm::ALL {
                let got = run(algorithm, &mut xiangqi(fen), depth, settings());
                assert_eq!(got.value, reference.value, "{} at depth {depth} on {fen}", algorithm.name());
            }
        }
    }
}

/// At depth 4 a table still cannot hold a deeper result for the same position: a position
/// recurs at the earliest two plies further down (a rook's one move against two), and the
/// deeper of the two then has no interior plies left. So even the table users must agree.
#[test]
fn at_depth_four_every_algorithm_agrees_with_alpha_beta() {
    for fen in POSITIONS {
        let reference = run(Algorithm::AlphaBeta, &mut xiangqi(fen), 4, settings());
        for algorithm in Algorithm::ALL.into_iter().filter(|&a| a != Algorithm::Minimax) {
            let got = run(algorithm, &mut xiangqi(fen), 4, settings());
            assert_eq!(got.value, reference.value, "{} on {fen}", algorithm.name());
        }
    }
}

#[test]
fn alpha_beta_never_evaluates_more_leaves_than_minimax() {
    for fen in POSITIONS {
        for depth in 1..=3 {
            let minimax = run(Algorithm::Minimax, &mut xiangqi(fen), depth, settings());
            let alpha_beta = run(Algorithm::AlphaBeta, &mut xiangqi(fen), depth, settings());
            assert!(alpha_beta.counts.leaves <= minimax.counts.leaves, "depth {depth} on {fen}");
            if depth >= 2 {
                assert!(alpha_beta.counts.leaves < minimax.counts.leaves, "no cut at {depth} on {fen}");
            }
        }
    }
    for seed in 1..=10 {
        let mut tree = SyntheticTree::new(4, 5, 100, seed, Ordering::AsGenerated);
        let minimax = run(Algorithm::Minimax, &mut tree, 5, settings());
        let alpha_beta = run(Algorithm::AlphaBeta, &mut tree, 5, settings());
        assert_eq!(minimax.counts.leaves, 4u64.pow(5));
        assert!(alpha_beta.counts.leaves <= minimax.counts.leaves);
    }
}

/// Knuth and Moore (1975): with the best move first everywhere, alpha-beta evaluates exactly
/// `b^ceil(d/2) + b^floor(d/2) - 1` leaves of a uniform tree; no ordering does better.
#[test]
fn with_the_best_move_first_alpha_beta_evaluates_the_minimal_tree() {
    let minimal = |b: u64, d: u32| b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
    for seed in 1..=4 {
        for (b, d) in [(2u32, 7u32), (3, 6), (4, 5), (6, 4), (8, 3), (10, 2), (5, 1)] {
            let min = minimal(b as u64, d);
            let mut best_first = SyntheticTree::new(b, d, 1000, seed, Ordering::BestFirst);
            for algorithm in [Algorithm::AlphaBeta, Algorithm::FailSoft, Algorithm::Pvs] {
                let got = run(algorithm, &mut best_first, d, settings()).counts.leaves;
                assert_eq!(got, min, "{} b={b} d={d} seed {seed}", algorithm.name());
            }
            let mut as_generated = SyntheticTree::new(b, d, 1000, seed, Ordering::AsGenerated);
            let got = run(Algorithm::AlphaBeta, &mut as_generated, d, settings()).counts.leaves;
            assert!(got >= min, "b={b} d={d} seed {seed}: {got} below the minimum {min}");
        }
    }
    // Random order is well above the minimum on a bushy tree.
    let mut tree = SyntheticTree::new(8, 4, 1000, 9, Ordering::AsGenerated);
    let got = run(Algorithm::AlphaBeta, &mut tree, 4, settings()).counts.leaves;
    assert!(got > minimal(8, 4) * 3 / 2, "{got}");
}

#[test]
fn the_history_heuristic_and_the_table_cut_the_leaves_as_the_book_found() {
    let leaves = |a: Algorithm| run(a, &mut xiangqi(crate::board::START_FEN), 4, settings()).counts.leaves;
    let alpha_beta = leaves(Algorithm::AlphaBeta);
    assert!(leaves(Algorithm::AlphaBetaHistory) * 2 < alpha_beta);
    assert!(leaves(Algorithm::NegaScoutTtHistory) < leaves(Algorithm::AlphaBetaHistory));
    assert!(leaves(Algorithm::AlphaBetaTt) < alpha_beta);
}

#[test]
fn the_start_has_forty_four_leaves_at_depth_one_and_names_round_trip() {
    for algorithm in Algorithm::ALL {
        let got = run(algorithm, &mut xiangqi(crate::board::START_FEN), 1, settings());
        if !matches!(algorithm, Algorithm::Sss | Algorithm::Dual | Algorithm::Mtdf | Algorithm::Aspiration) {
            assert_eq!(got.counts.leaves, 44, "{}", algorithm.name());
            assert_eq!(got.counts.nodes, 1, "{}", algorithm.name());
        }
        assert_eq!(Algorithm::from_name(algorithm.name()), Ok(algorithm));
    }
    let err = Algorithm::from_name("sss*").unwrap_err().to_string();
    assert!(err.starts_with("unknown algorithm 'sss*' (known: minimax, alphabeta,"), "{err}");
}

/// Stockman (1979): SSS* never evaluates a leaf that alpha-beta, with the same move order,
/// leaves alone. The table keeps every leaf's value, so MT-SSS* evaluates each leaf once.
#[test]
fn sss_never_evaluates_more_leaves_than_alpha_beta() {
    let mut fewer = 0;
    for seed in 1..=8 {
        for (b, d) in [(3u32, 5u32), (4, 4), (6, 3), (2, 8)] {
            let mut tree = SyntheticTree::new(b, d, 100, seed, Ordering::AsGenerated);
            let sss = run(Algorithm::Sss, &mut tree, d, settings()).counts.leaves;
            let alpha_beta = run(Algorithm::AlphaBeta, &mut tree, d, settings()).counts.leaves;
            assert!(sss <= alpha_beta, "b={b} d={d} seed {seed}: SSS* {sss}, alpha-beta {alpha_beta}");
            fewer += usize::from(sss < alpha_beta);
        }
    }
    assert!(fewer > 8, "SSS* saved leaves on only {fewer} trees");
}
