//! The tuning pipeline: the linear decomposition reproduces `evaluate`, the optimiser and the K
//! search do what they should on data whose answer is known, self-play data is well formed, and
//! the weights writer keeps every current value.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use chariot::board::{movegen, PieceKind, Position};
use chariot::datagen::games::{generate, play_game, DatagenConfig};
use chariot::eval::classic::evaluate;
use chariot::eval::classic::weights::{MATERIAL, PST_EG, PST_MG};
use chariot::texel::dataset::{self, Sample};
use chariot::texel::features::{extract, Entry, Features};
use chariot::texel::layout::{self, Term};
use chariot::texel::optimizer::{find_k, mean_error, sigmoid, Adam};
use chariot::texel::writer::weights_source;
use chariot::tournament::Opening;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn test_data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file)
}

fn scratch(test: &str) -> PathBuf {
    common::scratch_dir("tune", test)
}

/// The perft FENs and, from each, every position of a seeded random walk of `plies` plies.
fn varied_positions(plies: usize) -> Vec<Position> {
    let text = std::fs::read_to_string(test_data("perft.txt")).unwrap();
    let mut fens: Vec<&str> =
        text.lines().filter_map(|l| l.split(';').next()).filter(|f| !f.is_empty()).collect();
    fens.dedup();
    let mut rng = StdRng::seed_from_u64(2024);
    let mut out = Vec::new();
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap();
        out.push(pos.clone());
        for _ in 0..plies {
            let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
            let Some(&mv) = moves.choose(&mut rng) else { break };
            pos.make_move(mv);
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn features_reproduce_evaluate_on_many_positions() {
    let positions = varied_positions(25);
    assert!(positions.len() > 500, "{}", positions.len());
    let w = layout::current();
    let mut worst = 0.0f64;
    for pos in &positions {
        let f = extract(pos);
        let diff = (f.reconstruct(&w) - evaluate(pos) as f64).abs();
        assert!(diff <= 1.0, "{}: {} vs {}", pos.to_fen(), f.reconstruct(&w), evaluate(pos));
        worst = worst.max(diff);
    }
    // The walks reach captures, checks and unbalanced material: not all trivially equal.
    assert!(positions.iter().any(|p| extract(p).entries.len() > 20));
    assert!(worst < 1.0);
}

#[test]
fn any_weights_keep_the_evaluation_colour_and_mirror_symmetric() {
    let mut rng = StdRng::seed_from_u64(5);
    let w: Vec<f64> = (0..layout::WEIGHTS).map(|_| rng.gen_range(-50.0..50.0)).collect();
    for pos in varied_positions(10).iter().step_by(7) {
        let e = extract(pos).reconstruct(&w);
        let flipped = extract(&pos.color_flipped()).reconstruct(&w);
        let mirrored = extract(&pos.files_mirrored()).reconstruct(&w);
        assert!((e - flipped).abs() < 1e-6 && (e - mirrored).abs() < 1e-6, "{}", pos.to_fen());
    }
}

/// Simple material count (rook 9, horse 4, cannon 4.5, advisor and elephant 2, pawn 1), Red's view.
fn material_balance(pos: &Position) -> f64 {
    let values = [0.0, 2.0, 2.0, 4.0, 9.0, 4.5, 1.0];
    let side = |c| PieceKind::ALL.iter().map(|&k| values[k.index()] * pos.count(c, k) as f64).sum::<f64>();
    side(chariot::board::Color::Red) - side(chariot::board::Color::Black)
}

#[test]
fn adam_learns_material_from_positions_labelled_by_material() {
    let samples: Vec<Sample> = varied_positions(40)
        .iter()
        .map(|pos| {
            let b = material_balance(pos);
            let result = if b > 0.5 {
                1.0
            } else if b < -0.5 {
                0.0
            } else {
                0.5
            };
            Sample { features: extract(pos), result }
        })
        .collect();
    assert!(samples.iter().any(|s| s.result == 1.0) && samples.iter().any(|s| s.result == 0.0));
    let mut w = vec![0.0; layout::WEIGHTS];
    let k = 0.01;
    let before = mean_error(&samples, &w, k);
    let mut errors = Vec::new();
    let after = Adam::new(150, 2.0).run(&samples, &mut w, k, &mut |_, e| errors.push(e));
    assert_eq!(errors.len(), 150);
    assert_eq!(errors[0], before, "the first report is the error of the starting weights");
    assert!(after < 0.6 * before, "{before} -> {after}");
    let rook = layout::material(PieceKind::Rook);
    let pawn = layout::material(PieceKind::Pawn);
    assert!(w[2 * rook] + w[2 * rook + 1] > w[2 * pawn] + w[2 * pawn + 1] + 20.0, "{w:?}");
}

#[test]
fn k_search_finds_the_k_that_made_the_data() {
    // Rook material mg = 20 and phase 32 of 32, so a position with coefficient c evaluates to
    // 20·c + TEMPO (Red to move). At each c in −20..=20, 1000 results of which a share
    // sigmoid(K0 · eval) are wins: the mean squared error is then smallest at K0.
    let k0 = 0.0075;
    let mut w = vec![0.0; layout::WEIGHTS];
    w[2 * layout::material(PieceKind::Rook)] = 20.0;
    let tempo = chariot::eval::classic::weights::TEMPO as f64;
    let mut samples = Vec::new();
    for coef in -20i16..=20 {
        let wins = (1000.0 * sigmoid(k0 * (20.0 * coef as f64 + tempo))).round() as usize;
        for i in 0..1000 {
            let entries = vec![Entry { pair: layout::material(PieceKind::Rook) as u16, coef }];
            let features = Features { phase: 32, red_to_move: true, entries };
            samples.push(Sample { features, result: if i < wins { 1.0 } else { 0.0 } });
        }
    }
    let k = find_k(&samples, &w);
    assert!((k - k0).abs() < 0.01 * k0, "found {k}, made with {k0}");
    // A K twice as large or half as large fits worse.
    let best = mean_error(&samples, &w, k);
    assert!(best < mean_error(&samples, &w, 2.0 * k0) && best < mean_error(&samples, &w, 0.5 * k0));
}

/// The 90 numbers of `const NAME: [i32; 90] = [ … ];` in generated source.
fn table_in(text: &str, name: &str) -> Vec<i32> {
    let head = format!("const {name}: [i32; 90] = [");
    let start = text.find(&head).unwrap_or_else(|| panic!("{name} missing")) + head.len();
    let end = start + text[start..].find("];").unwrap();
    text[start..end].split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect()
}

/// Every `Score::new(a, b)` between `from` and the next `;`.
fn scores_in(text: &str, from: &str) -> Vec<(i32, i32)> {
    let start = text.find(from).unwrap_or_else(|| panic!("{from} missing"));
    let end = start + text[start..].find(";\n").unwrap();
    text[start..end]
        .split("Score::new(")
        .skip(1)
        .map(|s| {
            let inner = &s[..s.find(')').unwrap()];
            let (a, b) = inner.split_once(',').unwrap();
            (a.trim().parse().unwrap(), b.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn writer_keeps_every_current_value() {
    let text = weights_source(&layout::current());
    let material = scores_in(&text, "pub const MATERIAL");
    assert_eq!(material, MATERIAL.iter().map(|s| (s.mg, s.eg)).collect::<Vec<_>>());
    for kind in PieceKind::ALL {
        let name = kind.name().to_ascii_uppercase();
        assert_eq!(table_in(&text, &format!("{name}_MG")), PST_MG[kind.index()].to_vec(), "{name}");
        assert_eq!(table_in(&text, &format!("{name}_EG")), PST_EG[kind.index()].to_vec(), "{name}");
    }
    assert!(text.contains(
        "pub const PST_MG: [[i32; 90]; 7] = [KING_MG, ADVISOR_MG, ELEPHANT_MG, HORSE_MG, ROOK_MG, CANNON_MG, PAWN_MG];"
    ));
    assert!(text.contains(
        "pub const PST_EG: [[i32; 90]; 7] = [KING_EG, ADVISOR_EG, ELEPHANT_EG, HORSE_EG, ROOK_EG, CANNON_EG, PAWN_EG];"
    ));
    for t in Term::ALL {
        let s = t.current();
        assert_eq!(scores_in(&text, &format!("pub const {}: Score", t.name())), vec![(s.mg, s.eg)]);
    }
    for fixed in [
        "pub const PHASE: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];",
        "pub const MAX_PHASE: i32 = 32;",
        "pub const ATTACK_FORCE: [i32; 7] = [0, 0, 0, 2, 3, 2, 0];",
        "pub const ROOK_MOBILITY_BASE: i32 = 6;",
        "pub const TEMPO: i32 = 6;",
    ] {
        assert!(text.contains(fixed), "{fixed}");
    }
}

#[test]
fn writer_rounds_and_mirrors_a_changed_weight() {
    let mut w = layout::current();
    // Horse, written row 2 (rank 7), file b: middlegame 36.6 → 37 on b and on its mirror h.
    w[2 * layout::pst(PieceKind::Horse, 2, 1)] = 36.6;
    w[2 * layout::material(PieceKind::Cannon) + 1] = 87.4;
    let text = weights_source(&w);
    let horse = table_in(&text, "HORSE_MG");
    assert_eq!((horse[2 * 9 + 1], horse[2 * 9 + 7]), (37, 37));
    assert_eq!(table_in(&text, "HORSE_EG"), PST_EG[PieceKind::Horse.index()].to_vec());
    assert_eq!(scores_in(&text, "pub const MATERIAL")[PieceKind::Cannon.index()], (MATERIAL[5].mg, 87));
}

fn check_lines(text: &str) -> Vec<f64> {
    let mut results = Vec::new();
    for line in text.lines() {
        let (fen, result) = line.rsplit_once(';').unwrap_or_else(|| panic!("no ';' in {line}"));
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!pos.is_check(), "a position in check was kept: {fen}");
        let r: f64 = result.parse().unwrap();
        assert!([0.0, 0.5, 1.0].contains(&r), "{line}");
        assert_eq!(dataset::parse_line(line).unwrap().1, r);
        results.push(r);
    }
    results
}

#[test]
fn datagen_of_two_tiny_games_is_well_formed_and_reproducible() {
    let mut cfg = DatagenConfig::new(2, 300, 6, 11);
    let games = generate(&cfg, &|_| {}).unwrap();
    assert_eq!(games.len(), 2);
    let text: String = games.iter().map(|g| g.lines()).collect();
    assert!(!text.is_empty());
    let results = check_lines(&text);
    assert_eq!(results.len(), games.iter().map(|g| g.fens.len()).sum::<usize>());
    for g in &games {
        assert!(g.plies <= cfg.max_plies);
        assert!(g.lines().lines().all(|l| l.ends_with(&format!(";{:.1}", g.result))));
    }
    // Two games at once give the same file as one after the other.
    cfg.concurrency = 2;
    let again: String = generate(&cfg, &|_| {}).unwrap().iter().map(|g| g.lines()).collect();
    assert_eq!(again, text);
}

#[test]
fn datagen_scores_decided_games_for_the_right_side() {
    let mut cfg = DatagenConfig::new(1, 2000, 0, 3);
    let mut engine = chariot::search::Engine::new(4);
    // Red has two rooks against a bare king: Red wins, by mate or by adjudication.
    cfg.openings = vec![Opening::parse("3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1").unwrap()];
    let red = play_game(&mut engine, &cfg, 0);
    assert_eq!(red.result, 1.0);
    assert!(red.plies < 40, "{}", red.plies);
    // The same with colours swapped: Black wins.
    cfg.openings = vec![Opening::parse("rr2k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap()];
    assert_eq!(play_game(&mut engine, &cfg, 0).result, 0.0);
    // From the start with a 12-ply cap: a draw after exactly 12 plies.
    cfg.openings.clear();
    cfg.max_plies = 12;
    let capped = play_game(&mut engine, &cfg, 0);
    assert_eq!((capped.result, capped.plies), (0.5, 12));
    // The first 8 plies are never kept.
    assert!(capped.fens.len() <= 4, "{}", capped.fens.len());
}

fn chariot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().unwrap()
}

#[test]
fn datagen_and_tune_commands_end_to_end() {
    let dir = scratch("cli");
    let data = dir.join("data.txt");
    let openings = test_data("openings.txt");
    let out = chariot(&[
        "datagen",
        "--games",
        "2",
        "--nodes",
        "300",
        "--random-plies",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(summary.starts_with("games 2 (red wins "), "{summary}");
    let text = std::fs::read_to_string(&data).unwrap();
    let results = check_lines(&text);
    assert!(summary.contains(&format!(", {} positions written to ", results.len())), "{summary}");

    // Zero epochs write the current weights back.
    let weights = dir.join("weights.rs");
    let out = chariot(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "0",
        "--validate",
        data.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains(&format!("positions {}", results.len())), "{report}");
    assert!(report.contains("error before ") && report.contains("error after "), "{report}");
    // Validating on the training data itself with no steps: the same error before and after.
    let held_out = report.lines().find(|l| l.starts_with("held-out error ")).expect(&report);
    let numbers: Vec<&str> = held_out.split_whitespace().collect();
    assert_eq!(numbers[2], numbers[4], "{held_out}");
    assert!(report.contains(&format!("error before {}", numbers[2])), "{report}");
    assert_eq!(std::fs::read_to_string(&weights).unwrap(), weights_source(&layout::current()));
    // Only the two outputs: no temporary file left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn tune_refuses_bad_data_with_the_line() {
    let dir = scratch("bad");
    let data = dir.join("bad.txt");
    std::fs::write(&data, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1;0.5\n3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1;2\n")
        .unwrap();
    let weights = dir.join("w.rs");
    let out = chariot(&["tune", "--data", data.to_str().unwrap(), "--out", weights.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: data file ") && err.contains("line 2: result '2' is not"), "{err}");
    assert!(!weights.exists());
    let out = chariot(&["tune", "--data", "/nonexistent/data.txt", "--out", weights.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("cannot read data file /nonexistent/data.txt"));
    // A missing folder for the weights is made, so the one refused lies below a file.
    let out =
        chariot(&["tune", "--data", data.to_str().unwrap(), "--out", data.join("w.rs").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("error: cannot write in {}", data.display())), "{err}");
    // datagen makes a missing folder, so the one refused lies below a file.
    let below_a_file = data.join("dir").join("data.txt");
    let out = chariot(&["datagen", "--games", "1", "--out", below_a_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("error: cannot create the folder {}", data.join("dir").display())),
        "{err}"
    );
}
