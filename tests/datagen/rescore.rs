//! `datagen rescore`: the same games and results with a deeper search's labels, the same file
//! whatever the concurrency or the interruptions, and refusals that leave the output alone.

use super::*;

use chariot::datagen::rescore::{rescore, RescoreConfig, RescoreError, RescoreSummary};
use chariot::search::{Limits, SearchControl};

/// Searches at most `soft` nodes an iteration, deeper than `tiny`'s 150 nodes.
fn deeper(soft: u64, concurrency: usize) -> RescoreConfig {
    RescoreConfig {
        depth: None,
        nodes: Some(soft * 5),
        soft_nodes: Some(soft),
        concurrency,
        hash_mb: 1,
        eval: EvalChoice::default(),
        positions: None,
    }
}

fn rescored(input: &Path, output: &Path, cfg: &RescoreConfig) -> Result<RescoreSummary, RescoreError> {
    rescore(input, output, cfg, &mut |_| {}, &mut |_| {})
}

/// A tiny run of `games` games.
fn made(dir: &Path, name: &str, seed: u64, games: u64) -> PathBuf {
    let path = dir.join(name);
    run(&path, &tiny(seed), Target::Games(games));
    path
}

#[test]
fn a_rescore_keeps_the_games_and_labels_them_with_the_new_search() {
    let dir = scratch("rescore_labels");
    let input = made(&dir, "in.bin", 5, 6);
    let output = dir.join("out.bin");
    let cfg = deeper(1200, 2);
    let summary = rescored(&input, &output, &cfg).unwrap();
    let (old, new) = (read_all(&input).unwrap(), read_all(&output).unwrap());
    assert_eq!(new.len(), old.len());
    assert!(summary.complete);
    assert_eq!(summary.progress.positions, old.len() as u64);
    assert_eq!(summary.progress.games, 6);
    for (o, n) in old.iter().zip(&new) {
        assert!(o.same_position(n), "{o:?} / {n:?}");
        assert_eq!(
            (o.result(), o.game_end(), o.last_of_game()),
            (n.result(), n.game_end(), n.last_of_game())
        );
        n.to_position().expect("the new best move is legal");
    }
    // The first position of each game is searched with cleared tables: a fresh engine with the
    // same limits gives its label.
    let mut firsts = 0;
    for (i, n) in new.iter().enumerate() {
        if i > 0 && !new[i - 1].last_of_game() {
            continue;
        }
        let pos = n.to_position().unwrap();
        let mut engine = Engine::new(1);
        let limits = Limits { soft_nodes: Some(1200), ..Limits::nodes(6000) };
        let control = SearchControl::new();
        control.start(false);
        let found = engine.search(&pos, &limits, &control, &mut |_| {});
        assert_eq!(n.score() as i32, found.score.clamp(-MAX_SCORE, MAX_SCORE), "{n:?}");
        assert_eq!(n.best_move(), found.best.unwrap());
        firsts += 1;
    }
    assert_eq!(firsts, 6);
    let changed = old.iter().zip(&new).filter(|(o, n)| o.score() != n.score()).count();
    assert!(changed > old.len() / 4, "only {changed} of {} labels changed", old.len());
    assert_eq!(
        summary.progress.score_change,
        old.iter().zip(&new).map(|(o, n)| (o.score() as i64 - n.score() as i64).unsigned_abs()).sum::<u64>()
    );
    // The header names the run it came from but is not that run's.
    let (h_in, h_out) =
        (DataReader::open(&input).unwrap().header(), DataReader::open(&output).unwrap().header());
    assert_eq!((h_out.seed, h_out.shard, h_out.nodes), (h_in.seed, h_in.shard, 6000));
    assert_ne!(h_out.settings, h_in.settings);
}

#[test]
fn a_rescore_is_the_same_at_any_concurrency_and_after_interruptions() {
    let dir = scratch("rescore_resume");
    let input = made(&dir, "in.bin", 6, 7);
    let whole = dir.join("whole.bin");
    rescored(&input, &whole, &deeper(600, 1)).unwrap();
    let expected = std::fs::read(&whole).unwrap();

    let three = dir.join("three.bin");
    rescored(&input, &three, &deeper(600, 3)).unwrap();
    assert_eq!(std::fs::read(&three).unwrap(), expected);

    // Cut inside the fourth game and inside a record: the game is searched again.
    let cut = dir.join("cut.bin");
    let at = end_of_game(&expected, 2) + 3 * BLOCK + 17;
    std::fs::write(&cut, &expected[..at]).unwrap();
    let mut notes = Vec::new();
    let summary =
        rescore(&input, &cut, &deeper(600, 2), &mut |n| notes.push(n.to_string()), &mut |_| {}).unwrap();
    assert!(summary.complete);
    assert_eq!(summary.resumed_positions as usize, end_of_game(&expected, 2) / BLOCK - 1);
    assert!(notes.iter().any(|n| n.contains("cut off")), "{notes:?}");
    assert_eq!(std::fs::read(&cut).unwrap(), expected);

    // A target stops after a whole game; going on without it finishes the same file.
    let limited = dir.join("limited.bin");
    let cfg = RescoreConfig { positions: Some(50), ..deeper(600, 2) };
    let summary = rescored(&input, &limited, &cfg).unwrap();
    let held = read_all(&limited).unwrap();
    assert!(held.len() >= 50 && held.len() < read_all(&input).unwrap().len(), "{}", held.len());
    assert!(held.last().unwrap().last_of_game());
    assert!(!summary.complete);
    let again = rescored(&input, &limited, &cfg).unwrap();
    assert_eq!(again.progress.positions, 0);
    rescored(&input, &limited, &deeper(600, 2)).unwrap();
    assert_eq!(std::fs::read(&limited).unwrap(), expected);
}

#[test]
fn a_rescore_refuses_what_it_cannot_continue_and_leaves_the_output_alone() {
    let dir = scratch("rescore_refusals");
    let input = made(&dir, "in.bin", 7, 3);
    let other = made(&dir, "other.bin", 8, 3);
    let output = dir.join("out.bin");
    rescored(&input, &output, &deeper(400, 1)).unwrap();
    let bytes = std::fs::read(&output).unwrap();

    let e = rescored(&input, &output, &deeper(800, 1)).unwrap_err();
    assert!(matches!(e, RescoreError::OtherSettings(_)), "{e}");
    assert!(e.to_string().contains("other settings"), "{e}");
    let e = rescored(&other, &output, &deeper(400, 1)).unwrap_err();
    assert!(matches!(e, RescoreError::OtherSettings(_)), "{e}");
    assert!(matches!(rescored(&input, &input, &deeper(400, 1)), Err(RescoreError::SameFile(_))));
    let unlimited = RescoreConfig { nodes: None, soft_nodes: None, ..deeper(400, 1) };
    assert!(matches!(rescored(&input, &output, &unlimited), Err(RescoreError::Unlimited)));
    assert_eq!(std::fs::read(&output).unwrap(), bytes);

    // The output of a longer file of the same run, resumed from a shorter copy of its input.
    let longer = made(&dir, "longer.bin", 7, 5);
    let long_out = dir.join("long-out.bin");
    rescored(&longer, &long_out, &deeper(400, 1)).unwrap();
    let long_bytes = std::fs::read(&long_out).unwrap();
    let e = rescored(&input, &long_out, &deeper(400, 1)).unwrap_err();
    assert!(matches!(e, RescoreError::NotFromInput { .. }), "{e}");
    assert!(e.to_string().contains("is not a rescore of"), "{e}");
    assert_eq!(std::fs::read(&long_out).unwrap(), long_bytes);

    // Two runs in one file, and a damaged one: refused, and no empty output is left.
    let both = dir.join("both.bin");
    let mut joined = std::fs::read(&input).unwrap();
    joined.extend_from_slice(&std::fs::read(&other).unwrap());
    std::fs::write(&both, &joined).unwrap();
    let fresh = dir.join("fresh.bin");
    assert!(matches!(rescored(&both, &fresh, &deeper(400, 1)), Err(RescoreError::SeveralShards(_))));
    assert!(!fresh.exists());
    let damaged = dir.join("damaged.bin");
    let mut broken = std::fs::read(&input).unwrap();
    broken[BLOCK + 5 * BLOCK + 30] = 7; // a result code that is none
    std::fs::write(&damaged, &broken).unwrap();
    let e = rescored(&damaged, &fresh, &deeper(400, 1)).unwrap_err();
    assert!(e.to_string().contains(&damaged.display().to_string()), "{e}");
    assert!(!fresh.exists());
}

#[test]
fn the_rescore_command_reports_what_changed_and_writes_a_checked_file() {
    let dir = scratch("rescore_command");
    let input = made(&dir, "in.bin", 9, 3);
    let output = dir.join("out.bin");
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    let out = chariot(&["datagen", "rescore", i, "-o", o, "--soft-nodes", "500", "--hash", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8(out.stdout).unwrap();
    let records = read_all(&input).unwrap().len();
    assert!(said.starts_with(&format!("rescored 3 games, {records} positions in ")), "{said}");
    assert!(said.trim_end().ends_with("every game of the input"), "{said}");
    let out = chariot(&["datagen", "--stats", o]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains(&format!("records {records}, games 3")));

    let out = chariot(&["datagen", "rescore", i, "-o", o, "--soft-nodes", "900", "--nodes", "500"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--soft-nodes must not be above --nodes"));
    let out = chariot(&["datagen", "rescore", i, "-o", o]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("give the searches a limit"));
}
