//! `chariot play` driven through stdin, as a script would drive it.

use crate::common;

use std::process::Output;

use chariot::board::{movegen, Position};
use chariot::notation::read_pgn;

/// Positions written out by hand from the standard start.
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const AFTER_H2E2: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
const AFTER_H2E2_I9I8: &str = "rnbakabn1/8r/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";

fn play(args: &[&str], script: &str) -> Output {
    common::run_chariot(&[&["play"], args].concat(), script)
}

/// The lines of stdout that are FENs alone (what the `fen` command prints).
fn printed_fens(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| Position::from_fen(l).is_ok())
        .map(str::to_string)
        .collect()
}

#[test]
fn scripted_session_with_undo_redo_save_and_load() {
    let dir = std::env::temp_dir().join(format!("chariot-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // `save` into a folder that does not exist yet: it is created.
    let file = dir.join("saved").join("game.pgn");
    let file = file.to_str().unwrap();
    let script = format!(
        "h2e2\n马8进7\nR1+1\nh2h9\nundo\nfen\nredo\nundo\n车9进1\nredo\nsave {file}\nnew\nfen\n\
         load {file}\nfen\nnext\nfen\nnext\nfen\nnext\nprev\nprev\nredo\nfen\nquit\nfen\n"
    );
    let output = play(&["--red", "human", "--black", "human"], &script);
    assert!(output.status.success());
    assert_eq!(
        printed_fens(&output),
        [AFTER_H2E2, START, START, AFTER_H2E2, AFTER_H2E2_I9I8, AFTER_H2E2_I9I8]
    );
    let errors: Vec<String> = String::from_utf8(output.stderr).unwrap().lines().map(str::to_string).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].starts_with("error: ") && errors[0].contains("h2h9"), "{errors:?}");
    assert_eq!(errors[1], "error: nothing to replay"); // redo after a new move
    assert_eq!(errors[2], "error: nothing to replay"); // next at the end of the loaded game
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains(&format!("saved 2 moves to {file}")), "{said}");
    assert!(said.contains(&format!("loaded 2 moves from {file}")), "{said}");
    let saved = read_pgn(&std::fs::read_to_string(file).unwrap()).unwrap().remove(0);
    let moves: Vec<String> = saved.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves, ["h2e2", "i9i8"]);
    assert_eq!(saved.result, "*");
    // The day it was played, as PGN writes dates: YYYY.MM.DD, not the unknown `????.??.??`.
    let date = saved.tag("Date").expect("a Date tag");
    let digits: Vec<&str> = date.split('.').collect();
    assert!(
        digits.len() == 3
            && digits
                .iter()
                .zip([4, 2, 2])
                .all(|(d, n)| d.len() == n && d.bytes().all(|b| b.is_ascii_digit()))
            && date.as_bytes()[0] == b'2',
        "{date}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_engine_answers_a_move() {
    let output = play(&["--depth", "2"], "炮二平五\nfen\nquit\n");
    assert!(output.status.success());
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    let fens = printed_fens(&output);
    assert_eq!(fens.len(), 1);
    // Black's reply is one of its legal moves after h2e2.
    let mut pos = Position::from_fen(AFTER_H2E2).unwrap();
    let replies: Vec<String> = movegen::legal_moves(&mut pos)
        .iter()
        .map(|&mv| {
            let mut after = pos.clone();
            after.make_move(mv);
            after.to_fen()
        })
        .collect();
    assert!(replies.contains(&fens[0]), "{}", fens[0]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("Chariot plays "));
}

#[test]
fn checkmate_ends_the_game_and_undo_reopens_it() {
    // b0b9 mates: the a8 rook holds rank 8, the b9 rook rank 9, the red king on d0 the d file.
    let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
    let output = play(&["--fen", fen, "--black", "human"], "车八进九\ne9f9\nfen\nprev\nfen\n");
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(stdout.contains("game over: 1-0 (checkmate)"), "{stdout}");
    assert_eq!(printed_fens(&output), ["1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 1 1", fen]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr, "error: the game is over: 1-0 (checkmate); undo, new or quit\n");
}

#[test]
fn a_bad_fen_is_refused_in_one_line() {
    let output = play(&["--fen", "rnbakabnr/9 w"], "quit\n");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.starts_with("error: bad FEN"), "{stderr}");
}

#[test]
fn a_level_plays_weaker_and_says_so_and_bad_levels_are_refused() {
    let output = play(&["--level", "2"], "炮二平五\nhint\nfen\nquit\n");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("Chariot plays at level 2.00: about "), "{stdout}");
    assert!(stdout.contains("hint: "), "{stdout}");
    let fens = printed_fens(&output);
    assert_eq!(fens.len(), 1);
    let mut pos = Position::from_fen(AFTER_H2E2).unwrap();
    let legal = movegen::legal_moves(&mut pos).iter().any(|&mv| {
        let mut after = pos.clone();
        after.make_move(mv);
        after.to_fen() == fens[0]
    });
    assert!(legal, "{}", fens[0]);

    let elo = play(&["--elo", &chariot::search::skill::MIN_ELO.to_string()], "quit\n");
    assert!(String::from_utf8_lossy(&elo.stdout).starts_with("Chariot plays at level 0.00: "));
    for (args, wanted) in [
        (&["--level", "21"][..], "'--level <LEVEL>'"),
        // Read as an option of its own, and refused as one.
        (&["--level", "-1"][..], "unexpected argument '-1'"),
        (&["--level", "six"][..], "'--level <LEVEL>'"),
        (&["--elo", "1"][..], "'--elo <ELO>'"),
        (&["--level", "3", "--elo", "1500"][..], "cannot be used with"),
    ] {
        let output = play(args, "quit\n");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("error: ") && stderr.contains(wanted), "{args:?}: {stderr}");
    }
}
