//! How good the labels of a data-generation setting are, and what they cost (an experiment, not
//! a test): positions sampled from a scored data file are searched again under each setting
//! (`hard:N`, a node limit that cuts the last iteration off; `soft:S`, no iteration begun past S
//! nodes, with a hard cap of 5·S) and once under a reference search of many more nodes. For each
//! setting it prints the nodes and CPU time (all threads) per label, the depth reached, and the label's error
//! against the reference, as the expected score the built-in net's win-rate model reads from
//! each (the scale the trainer's targets live on).
//!
//! ```text
//! cargo run --release --example label_quality -- DATA.bin 400 200000 hard:5000 soft:1500 soft:2500
//! ```

use chariot::datagen::reader::DataReader;
use chariot::eval::EvalChoice;
use chariot::search::{Engine, Limits, SearchControl};

/// CPU seconds this process has used, all threads (the search runs on threads of its own).
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// A setting's limits, from `hard:N` or `soft:S`.
fn limits_of(setting: &str) -> Limits {
    let (kind, n) = setting.split_once(':').expect("a setting is hard:N or soft:S");
    let n: u64 = n.parse().expect("a node count");
    match kind {
        "hard" => Limits::nodes(n),
        "soft" => Limits { soft_nodes: Some(n), ..Limits::nodes(5 * n) },
        _ => panic!("a setting is hard:N or soft:S, not {setting}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: label_quality DATA.bin SAMPLES REFERENCE_NODES SETTING…");
        std::process::exit(2);
    }
    let samples: usize = args[1].parse().expect("SAMPLES");
    let reference_nodes: u64 = args[2].parse().expect("REFERENCE_NODES");
    let settings = &args[3..];
    let mut reader = DataReader::open(std::path::Path::new(&args[0])).expect("a readable data file");
    let mut records = Vec::new();
    while reader.read_chunk(&mut records, 1 << 20).expect("a whole data file") > 0 {}
    let step = (records.len() / samples).max(1);
    let positions: Vec<_> =
        records.iter().step_by(step).take(samples).filter_map(|r| r.to_position().ok()).collect();
    let eval = EvalChoice::default();
    let model = eval.win_rate();
    let expected = |pos: &chariot::board::Position, score: i32| {
        let wdl = model.wdl(score, chariot::winrate::material(pos));
        (f64::from(wdl.win) + f64::from(wdl.draw) / 2.0) / 1000.0
    };
    let search = |limits: &Limits, pos: &chariot::board::Position| {
        let mut engine = Engine::new(16);
        let control = SearchControl::new();
        control.start(false);
        let start = cpu_seconds();
        let r = engine.search(pos, limits, &control, &mut |_| {});
        (r.score, r.nodes, r.depth, cpu_seconds() - start)
    };
    let reference: Vec<f64> =
        positions.iter().map(|p| expected(p, search(&Limits::nodes(reference_nodes), p).0)).collect();
    println!("{} positions, reference {} nodes", positions.len(), reference_nodes);
    println!("setting        nodes/label  ms/label  depth  mean |error|  rms error");
    for setting in settings {
        let limits = limits_of(setting);
        let (mut nodes, mut secs, mut depth, mut abs, mut sq) = (0u64, 0.0, 0i64, 0.0, 0.0);
        for (pos, &truth) in positions.iter().zip(&reference) {
            let (score, n, d, s) = search(&limits, pos);
            let error = expected(pos, score) - truth;
            (nodes, secs, depth) = (nodes + n, secs + s, depth + i64::from(d));
            (abs, sq) = (abs + error.abs(), sq + error * error);
        }
        let k = positions.len() as f64;
        println!(
            "{setting:<14} {:>11.0} {:>9.2} {:>6.2} {:>13.4} {:>10.4}",
            nodes as f64 / k,
            1000.0 * secs / k,
            depth as f64 / k,
            abs / k,
            (sq / k).sqrt()
        );
    }
}
