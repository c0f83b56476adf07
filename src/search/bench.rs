//! The bench: a fixed set of varied positions searched to a fixed depth. With one thread the
//! total node count is the search's signature.

use std::time::Instant;

use crate::board::Position;

use super::control::SearchControl;
use super::engine::Engine;
use super::limits::Limits;
use super::options::{Algorithm, EngineOptions};
use super::tt::HashError;

/// Openings, middlegames, endgames and mates, as FEN.
pub const BENCH_FENS: &[&str] = &[
    // Openings
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 3 3",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 2 2",
    "rnbakabnr/9/1c5c1/p1p1p3p/6p2/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w - - 0 2",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 4 4",
    // Middlegames
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "r8/3ka2R1/3a3C1/1n2pN3/9/R2N1n2c/5c3/2r2A3/3p1p1p1/4K1C2 w - - 0 1",
    "C2k5/4P4/r2cb1N1b/8C/6r2/9/9/6p2/4p4/5K1R1 w - - 0 1",
    "3ak1b1r/4a2Pn/4b4/4C4/9/9/cR7/n8/4A1p2/3AKC3 w - - 0 1",
    "2bak1P2/2P1a3R/4b3N/1N7/9/9/9/2C1B1r1n/1p1rC4/2p1K1p2 w - - 0 1",
    "4k3C/2P1aN3/4b3b/7R1/9/6B2/9/2n5B/1r1c1p3/4K1c1r w - - 0 1",
    "2n2k1cr/3P4N/2n1b3b/2CR4R/2r3c1C/9/9/9/4p4/3K1p3 w - - 0 1",
    "C3ka3/4aP1P1/9/2P6/9/9/9/9/2p2n2c/3RK1pr1 w - - 0 1",
    "r1bakab2/9/1cn3n1c/p1p1p3p/6p2/2P3R2/P3P1P1P/1CN1C1N2/9/R1BAKAB2 b - - 0 7",
    "2bakab2/9/2n1c1n2/p1p1p1p1p/9/2P3P2/P3P3P/2N1C1N2/4A4/2BAK1B2 w - - 0 20",
    "3akab2/9/4b4/p3p3p/2p6/6P2/P1P1r3P/4C4/4A4/2BAK1B2 w - - 0 30",
    // Endgames
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "3a1a3/5k3/9/5N3/9/9/7C1/3A3p1/4Ar3/4K1B2 w - - 0 1",
    "4k4/4C4/5P3/1R7/9/9/4r4/3A5/6pp1/5K3 w - - 0 1",
    "2baka3/9/b4P3/9/9/4C4/9/9/9/3K5 w - - 0 1",
    "9/9/5k3/2p1P1p2/9/5pB2/9/3A5/9/2B1Kc3 w - - 0 1",
    "5k3/3Pa4/5a3/8N/9/9/7p1/9/4K4/9 w - - 0 1",
    "3k5/9/9/2p6/9/4N4/9/9/9/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/3AKR3 w - - 0 1",
    "4k4/4a4/9/9/9/9/9/9/3p5/5K3 w - - 0 1",
    // Mates
    "4ka3/4a4/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
    "3k5/9/4P4/9/9/9/9/9/9/4K1R2 w - - 0 1",
    "2bakab2/9/9/9/9/9/9/9/4C4/3RK4 w - - 0 1",
    "3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1",
];

/// The outcome of a bench run.
pub struct BenchReport {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Each position's best move and node count.
    pub per_position: Vec<(String, u64)>,
}

/// Searches every bench position to `depth` with a fresh table of `hash_mb` each time.
///
/// # Panics
/// If the table cannot be allocated (`run_with` says why instead).
pub fn run(depth: i32, threads: usize, hash_mb: usize, algorithm: Algorithm) -> BenchReport {
    let options = EngineOptions { threads, algorithm, ..EngineOptions::default() };
    run_with(depth, hash_mb, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// `run` with every engine option given (to measure search features one by one), or why the
/// table cannot be had.
pub fn run_with(depth: i32, hash_mb: usize, options: &EngineOptions) -> Result<BenchReport, HashError> {
    let mut engine = Engine::try_new(hash_mb)?;
    engine.options = options.clone();
    let start = Instant::now();
    let mut nodes = 0;
    let mut per_position = Vec::new();
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        engine.clear_hash();
        let control = SearchControl::new();
        control.start(false);
        let result = engine.search(&pos, &Limits::depth(depth), &control, &mut |_| {});
        nodes += result.nodes;
        per_position
            .push((result.best.map(|m| m.to_string()).unwrap_or_else(|| "(none)".into()), result.nodes));
    }
    Ok(BenchReport { nodes, time_ms: start.elapsed().as_millis() as u64, per_position })
}
