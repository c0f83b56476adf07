//! The neural evaluation end to end: the engine searching with a net (random weights the tests
//! make), and the `nnue`, `eval`, `bench` and `analyze` commands with net files.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;

use chariot::board::{movegen, Position};
use chariot::eval::nnue::{embedded, format, Activation, Architecture, Network};
use chariot::eval::EvalChoice;
use chariot::search::{bench, Engine, EngineOptions, Limits, SearchControl, SearchResult};

const BIN: &str = env!("CARGO_BIN_EXE_chariot");

fn chariot(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the chariot binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("nnue", name)
}

fn random_net(width: usize, seed: u64) -> Arc<Network> {
    let arch = Architecture { width, ..Architecture::DEFAULT };
    Arc::new(Network::random(arch, seed).unwrap())
}

fn search_with(net: &Arc<Network>, pos: &Position, depth: i32) -> SearchResult {
    let mut engine = Engine::new(16);
    engine.options.eval = EvalChoice::Nnue(net.clone());
    let control = SearchControl::new();
    control.start(false);
    engine.search(pos, &Limits::depth(depth), &control, &mut |_| {})
}

#[test]
fn the_engine_plays_legal_moves_with_a_net_and_repeats_itself() {
    let net = random_net(64, 3);
    // A short game of the engine against itself: every move legal, every search repeatable.
    let mut pos = Position::startpos();
    for ply in 0..16 {
        let first = search_with(&net, &pos, 4);
        let again = search_with(&net, &pos, 4);
        assert_eq!(
            (first.best, first.score, first.nodes),
            (again.best, again.score, again.nodes),
            "ply {ply}"
        );
        let Some(mv) = first.best else { break };
        assert!(movegen::is_legal(&mut pos, mv), "ply {ply}: {mv} is not legal in {pos:?}");
        pos.make_move(mv);
    }
    assert!(pos.game_ply() >= 10);
}

#[test]
fn a_net_changes_the_search_and_the_built_in_net_is_the_default() {
    let classic = EngineOptions { eval: EvalChoice::Classic, ..EngineOptions::default() };
    let classic = bench::run_with(4, 4, &classic).unwrap();
    let options = EngineOptions { eval: EvalChoice::Nnue(random_net(32, 1)), ..EngineOptions::default() };
    let with_net = bench::run_with(4, 4, &options).unwrap();
    let again = bench::run_with(4, 4, &options).unwrap();
    assert_eq!(with_net.nodes, again.nodes, "deterministic for a given net");
    assert_ne!(with_net.nodes, classic.nodes, "the net is what evaluates");
    assert_eq!(EngineOptions::default().eval, EvalChoice::Nnue(embedded::network()));
    let built_in = bench::run_with(4, 4, &EngineOptions::default()).unwrap();
    assert_ne!(built_in.nodes, classic.nodes, "the default searches with the built-in net");
    assert_ne!(built_in.nodes, with_net.nodes);
}

#[test]
fn nnue_random_then_check_prints_the_architecture() {
    let dir = scratch("check");
    let file = dir.join("r128.nnue");
    let path = file.to_str().unwrap();
    let made =
        chariot(&["nnue", "random", "--width", "128", "--seed", "5", "--activation", "crelu", "-o", path]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let checked = chariot(&["nnue", "check", file.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    let out = text(&checked.stdout);
    for line in [
        "Inputs: palace king buckets (6), mirrored, 4248 inputs",
        "Accumulator: 128 per perspective, crelu",
        "Output buckets: 8",
        "Description: random weights, seed 5",
    ] {
        assert!(out.contains(line), "missing '{line}' in:\n{out}");
    }
    // The same seed makes the same file, another seed another.
    let again = dir.join("again.nnue");
    let other = dir.join("other.nnue");
    for (seed, to) in [("5", &again), ("6", &other)] {
        let args = ["nnue", "random", "--width", "128", "--seed", seed, "--activation", "crelu", "-o"];
        let made = chariot(&[&args[..], &[to.to_str().unwrap()]].concat());
        assert!(made.status.success(), "{}", text(&made.stderr));
    }
    let bytes = |path: &PathBuf| std::fs::read(path).unwrap();
    assert!(bytes(&file) == bytes(&again), "seed 5 made two different files");
    assert!(bytes(&file) != bytes(&other), "seeds 5 and 6 made the same file");
    let net = format::load(&file).unwrap();
    assert_eq!(
        *net.arch(),
        Architecture { width: 128, activation: Activation::CRelu, ..Architecture::DEFAULT }
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `nnue random --hidden 16,32` writes a net of that shape, `nnue check` describes its stack,
/// and `bench` searches with it the nodes the library counts.
#[test]
fn nnue_random_with_hidden_layers_checks_and_benches() {
    let dir = scratch("hidden");
    let file = dir.join("h.nnue");
    let path = file.to_str().unwrap();
    let made = chariot(&["nnue", "random", "--width", "32", "--hidden", "16,32", "--seed", "3", "-o", path]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let out = text(&chariot(&["nnue", "check", path]).stdout);
    for line in ["Format: version 5", "Accumulator: 32 per perspective, screlu", "Hidden layers: 16 -> 32"] {
        assert!(
            out.contains(line),
            "missing '{line}' in:
{out}"
        );
    }
    let arch = Architecture {
        width: 32,
        hidden: chariot::eval::nnue::Hidden::new(&[16, 32]).unwrap(),
        ..Architecture::DEFAULT
    };
    let net = format::load(&file).unwrap();
    assert_eq!(*net.arch(), arch);
    let bench_out = chariot(&["bench", "--depth", "3", "--evalfile", path]);
    assert!(bench_out.status.success(), "{}", text(&bench_out.stderr));
    let options = EngineOptions { eval: EvalChoice::Nnue(Arc::new(net)), ..EngineOptions::default() };
    let expected = bench::run_with(3, 16, &options).unwrap().nodes;
    assert!(
        text(&bench_out.stdout).contains(&format!("Nodes searched: {expected}\n")),
        "{}",
        text(&bench_out.stdout)
    );
    let bad = chariot(&["nnue", "random", "--hidden", "16,20", "-o", path]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("hidden layer 2 of 20 neurons"), "{}", text(&bad.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nnue_check_without_a_file_checks_the_built_in_net() {
    let checked = chariot(&["nnue", "check"]);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    let out = text(&checked.stdout);
    let net = embedded::network();
    // The checksum stored in the file, just before the weights.
    let bytes = std::fs::read("nets/default.nnue").unwrap();
    let at = bytes.len() - format::payload_len(net.arch()) as usize - 8;
    let stored = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    // The version in the file's header, after the 8-byte magic.
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    for line in [
        "File: the built-in net".to_owned(),
        format!("Format: version {version}, checksum {stored:016x} ok"),
        format!("Accumulator: {} per perspective", net.arch().width),
        format!("Description: {}", net.description()),
    ] {
        assert!(out.contains(&line), "missing '{line}' in:\n{out}");
    }
}

#[test]
fn damaged_nets_are_refused_by_every_command() {
    let dir = scratch("damaged");
    let good = dir.join("good.nnue");
    format::save(&random_net(16, 2), &good).unwrap();
    let mut bytes = std::fs::read(&good).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, &bytes).unwrap();
    let damaged = damaged.to_str().unwrap();
    for args in [
        vec!["nnue", "check", damaged],
        vec!["eval", "--evalfile", damaged],
        vec!["bench", "--depth", "1", "--evalfile", damaged],
        vec!["analyze", "--depth", "1", "--evalfile", damaged],
    ] {
        let out = chariot(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("damaged.nnue") && err.contains("checksum mismatch"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing is searched or printed with a bad net");
    }
    let missing = chariot(&["nnue", "check", dir.join("none.nnue").to_str().unwrap()]);
    assert!(text(&missing.stderr).contains("cannot read net file"), "{}", text(&missing.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_shows_the_net_beside_the_classic_breakdown() {
    let dir = scratch("eval");
    let file = dir.join("net.nnue");
    let net = random_net(32, 9);
    format::save(&net, &file).unwrap();
    let fen = "3akab2/9/4b4/p3p3p/2p6/6P2/P1P1r3P/4C4/4A4/2BAK1B2 w - - 0 30";
    let out = chariot(&["eval", "--fen", fen, "--evalfile", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = text(&out.stdout);
    assert!(out.contains("Total: ") && out.contains("Piece shares"), "{out}");
    let pos = Position::from_fen(fen).unwrap();
    assert!(out.contains(&format!("NNUE total: {:+} (red to move's view)", net.evaluate(&pos))), "{out}");
    // One share line per piece but the kings: the rook on e3 is one of 18.
    let shares: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Piece shares"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(shares.len(), 18, "{out}");
    assert!(shares.iter().any(|l| l.starts_with("  e3 r 車 black rook")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_line_searches_with_the_built_in_net_unless_told_classic() {
    let nodes_of = |args: &[&str]| {
        let out = chariot(args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .map(str::to_string)
            .expect("a node count")
    };
    let classic = EngineOptions { eval: EvalChoice::Classic, ..EngineOptions::default() };
    let classic = bench::run_with(3, 16, &classic).unwrap().nodes;
    let built_in = bench::run_with(3, 16, &EngineOptions::default()).unwrap().nodes;
    assert_ne!(classic, built_in);
    assert_eq!(nodes_of(&["bench", "--depth", "3"]), built_in.to_string());
    assert_eq!(nodes_of(&["bench", "--depth", "3", "--classic"]), classic.to_string());
    for sub in ["bench", "analyze", "eval", "datagen", "play", "annotate"] {
        let out = chariot(&[sub, "--classic", "--evalfile", "net.nnue"]);
        assert_eq!(out.status.code(), Some(2), "{sub}");
        assert!(text(&out.stderr).contains("'--classic' cannot be used with '--evalfile <NET>'"), "{sub}");
    }
}

#[test]
fn bench_and_analyze_search_with_the_net() {
    let dir = scratch("bench");
    let file = dir.join("net.nnue");
    let net = random_net(32, 4);
    format::save(&net, &file).unwrap();
    let file = file.to_str().unwrap();
    let out = chariot(&["bench", "--depth", "3", "--evalfile", file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let options = EngineOptions { eval: EvalChoice::Nnue(net.clone()), ..EngineOptions::default() };
    let expected = bench::run_with(3, 16, &options).unwrap().nodes;
    assert!(text(&out.stdout).contains(&format!("Nodes searched: {expected}\n")), "{}", text(&out.stdout));
    let out = chariot(&["analyze", "--depth", "3", "--evalfile", file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let best = search_with(&net, &Position::startpos(), 3).best.unwrap();
    assert!(text(&out.stdout).contains(&format!("bestmove {best} ")), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_protocol_loads_a_net_refuses_a_bad_one_and_searches_with_it() {
    use std::io::Write;
    let dir = scratch("protocol");
    let file = dir.join("net.nnue");
    let net = random_net(32, 6);
    format::save(&net, &file).unwrap();
    let missing = dir.join("missing.nnue");
    let script = format!(
        "uci\nsetoption name Use NNUE value true\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {}\nsetoption name Use NNUE value true\n\
         position startpos\ngo depth 3\nisready\n",
        missing.display(),
        file.display()
    );
    let mut child = Command::new(BIN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the chariot binary runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    // `quit` only once the search has answered: sent at once, it would stop the search wherever
    // it had got to (a bigger tree than the previous random net's was cut at depth 2).
    let mut out = String::new();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    while !out.contains("bestmove") {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut reader, &mut line).unwrap() == 0 {
            break;
        }
        out.push_str(&line);
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success(), "{out}");
    assert!(out.contains("option name EvalFile type string default <empty>"), "{out}");
    assert!(out.contains("option name Use NNUE type check default true"), "{out}");
    assert!(out.contains("info string error: EvalFile: cannot read net file"), "{out}");
    let best = search_with(&net, &Position::startpos(), 3).best.unwrap();
    assert!(out.contains(&format!("bestmove {best}")), "the search used the net: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}
