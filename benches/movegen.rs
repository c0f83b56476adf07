//! Move generation speed: perft from the start position and a busy middlegame.

use chariot::board::{movegen, Position};
use criterion::{criterion_group, criterion_main, Criterion};

fn perft_benches(c: &mut Criterion) {
    let mut start = Position::startpos();
    c.bench_function("perft 4 startpos", |b| b.iter(|| movegen::perft(&mut start, 4)));
    let mut middle =
        Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1")
            .expect("valid FEN");
    c.bench_function("perft 3 middlegame", |b| b.iter(|| movegen::perft(&mut middle, 3)));
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
