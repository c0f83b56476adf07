//! Resignation and draw rules judged by the engines' own win/draw/loss chances.

use super::*;

/// The start position without Black's a9 rook and b7 cannon: Red is winning from the first move.
const BLACK_A_ROOK_AND_CANNON_DOWN: &str =
    "1nbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Two games of Chariot against itself (one UCCI, one UCI, `extra` added to both specs) from
/// `BLACK_A_ROOK_AND_CANNON_DOWN` at 2,000 nodes a move, with `--resign movecount=2,wdl=950`, and
/// a draw by scores after two moves each that ends any game the resign rule has not: the draw
/// rule is checked after the resign rule, so it ends only games the resign rule cannot.
/// Returns the games (Red, Black, result, termination) and stderr.
fn chariot_from_rook_and_cannon_up(
    test: &str,
    extra: &[&str; 2],
) -> (Vec<(String, String, String, String)>, String) {
    let dir = scratch(test);
    let pgn = dir.join("games.pgn");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("{BLACK_A_ROOK_AND_CANNON_DOWN}\n")).unwrap();
    let a = format!("name=chariot-ucci,cmd={BIN}{}", extra[0]);
    let b = format!("name=chariot-uci,cmd={BIN},proto=uci{}", extra[1]);
    let output = chariot_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--nodes",
        "2000",
        "--openings",
        openings.to_str().unwrap(),
        "--resign",
        "movecount=2,wdl=950",
        "--draw",
        "movenumber=0,movecount=2,score=30000",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    (check_pgn(&pgn, 2), stderr(&output))
}

#[test]
fn chariot_resigns_by_its_win_draw_loss_chances() {
    // The match turns on `showwdl` (UCCI) and `UCI_ShowWDL` (UCI): both sides agree at once
    // that Red wins, whichever engine has Red.
    let (games, err) = chariot_from_rook_and_cannon_up("wdl-resign", &["", ""]);
    assert!(!err.contains("note:"), "{err}");
    for (_, _, result, why) in &games {
        assert_eq!((result.as_str(), why.as_str()), ("1-0", "adjudication: resignation by win/draw/loss"));
    }
    assert_ne!(games[0].0, games[1].0, "each engine had Red once");
}

#[test]
fn a_wdl_rule_never_fires_for_engines_told_not_to_print_chances() {
    // The user's own setting of the option stands: no chances, so only the draw rule ends games.
    let off = [",option.showwdl=false", ",option.UCI_ShowWDL=false"];
    let (games, _) = chariot_from_rook_and_cannon_up("wdl-off", &off);
    for (_, _, result, why) in &games {
        assert_eq!((result.as_str(), why.as_str()), ("1/2-1/2", "adjudication: draw by scores"));
    }
}

/// The `setoption` lines of the wdl option a `wdl.sh` engine logged (UCCI engines are also sent
/// `usemillisec`).
fn logged(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().filter(|l| l.to_lowercase().contains("showwdl")).map(str::to_string).collect()
}

#[test]
fn wdl_rules_ask_engines_for_their_chances_and_judge_by_them() {
    let dir = scratch("wdl-fakes");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    // `winner` always claims 990 per mille to win, `loser` concedes as much, in either colour.
    let winner =
        format!("name=winner,cmd={},arg={},arg=990,arg=10,arg=0,proto=uci", fake("wdl"), log_a.display());
    let loser = format!("name=loser,cmd={},arg={},arg=0,arg=10,arg=990", fake("wdl"), log_b.display());
    let play = |test: &str, engines: [&str; 2], extra: &[&str]| {
        let _ = std::fs::remove_file(&log_a);
        let _ = std::fs::remove_file(&log_b);
        let pgn = dir.join(format!("{test}.pgn"));
        let mut args = vec!["--engine", engines[0], "--engine", engines[1], "--games", "2", "--depth", "1"];
        args.extend_from_slice(&["--pgn", pgn.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let run = bounded_match(&args, FAULT_LIMIT);
        assert!(run.output.status.success(), "{}", stderr(&run.output));
        (check_pgn(&pgn, 2), stderr(&run.output))
    };
    let set_uci = "setoption name UCI_ShowWDL value true".to_string();
    let set_ucci = "setoption showwdl true".to_string();

    // Asked for chances, both agree after two moves each: the loser loses in either colour.
    let (games, err) = play("agree", [&winner, &loser], &["--resign", "movecount=2,wdl=950"]);
    assert!(!err.contains("note:"), "{err}");
    for (red, _, result, why) in &games {
        let expected = if red == "winner" { "1-0" } else { "0-1" };
        assert_eq!((result.as_str(), why.as_str()), (expected, "adjudication: resignation by win/draw/loss"));
    }
    assert!(logged(&log_a).contains(&set_uci), "{:?}", logged(&log_a));
    assert!(logged(&log_b).contains(&set_ucci), "{:?}", logged(&log_b));
    // Above what they claim (990): never.
    let (games, _) = play("too-sure", [&winner, &loser], &["--resign", "movecount=2,wdl=991"]);
    assert!(games.iter().all(|g| g.3 == "resignation (no move while legal moves remain)"), "{games:?}");
    // A draw by chances: both must see one at least as likely as the rule asks (they see 10 per
    // mille).
    let (games, _) = play("draw-at-10", [&winner, &loser], &["--draw", "movenumber=0,movecount=1,wdl=10"]);
    assert!(games.iter().all(|g| g.3 == "adjudication: draw by win/draw/loss"), "{games:?}");
    let (games, _) = play("no-draw", [&winner, &loser], &["--draw", "movenumber=0,movecount=1,wdl=11"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation")), "{games:?}");

    // A score rule asks for nothing, and the scores (0) end nothing.
    let (games, _) = play("by-score", [&winner, &loser], &["--resign", "movecount=2,score=500"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation (no move")), "{games:?}");
    assert!(
        logged(&log_a).is_empty() && logged(&log_b).is_empty(),
        "{:?} {:?}",
        logged(&log_a),
        logged(&log_b)
    );

    // The user's own setting stands, and an engine silent on its chances never agrees.
    let quiet = format!("{winner},option.uci_showwdl=false");
    let (games, _) = play("quiet", [&quiet, &loser], &["--resign", "movecount=2,wdl=950"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation (no move")), "{games:?}");
    assert_eq!(logged(&log_a).iter().filter(|l| l.contains("true")).count(), 0, "{:?}", logged(&log_a));
    assert!(logged(&log_a).contains(&"setoption name uci_showwdl value false".to_string()));

    // An engine with no such option gets a note, once, and its games are not adjudicated.
    let plain = faulty("plain", "good", None);
    let (games, err) = play("plain", [&plain, &loser], &["--resign", "movecount=2,wdl=950"]);
    assert!(games.iter().all(|g| g.3.starts_with("resignation (no move")), "{games:?}");
    assert_eq!(
        err.matches("note: engine 'plain' offers no UCI_ShowWDL or showwdl option").count(),
        1,
        "{err}"
    );
    assert!(!err.contains("'loser'"), "{err}");
}
