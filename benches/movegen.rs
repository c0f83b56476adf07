//! Move generation speed: perft from the start position and a busy middlegame, timed over a few
//! rounds with the standard library's clock (`cargo bench`). The node counts are printed with
//! the times, so a change that speeds the generator up by generating less shows.

use std::hint::black_box;
use std::time::{Duration, Instant};

use chariot::board::{movegen, Position};

/// Runs `count` `rounds` times and prints the fastest round, its nodes and their rate.
fn bench(name: &str, rounds: u32, mut count: impl FnMut() -> u64) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        nodes = black_box(count());
        best = best.min(started.elapsed());
    }
    let rate = nodes as f64 / best.as_secs_f64().max(1e-9) / 1e6;
    println!(
        "{name:<20} {nodes:>10} nodes  best of {rounds}: {:>9.3} ms  {rate:>7.2} M nodes/s",
        best.as_secs_f64() * 1e3
    );
}

fn main() {
    let mut start = Position::startpos();
    bench("perft 4 startpos", 10, || movegen::perft(&mut start, 4));
    let middlegame = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let Ok(mut middle) = Position::from_fen(middlegame) else {
        eprintln!("the middlegame FEN does not read");
        std::process::exit(2);
    };
    bench("perft 3 middlegame", 10, || movegen::perft(&mut middle, 3));
}
