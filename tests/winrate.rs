//! Scores in the field's language, through the built binary: normalised scores and win/draw/loss
//! chances from `analyze` and `eval` with the net and the classic evaluation, `wdl` on every
//! scored UCI info line with `UCI_ShowWDL`, and a net file's win-rate model written and read.

use crate::common;

use std::time::Duration;

use common::{run_chariot, scratch_dir, EngineProcess};
use serde_json::Value;

/// The start position less Black's (left) rook and cannon, Red to move.
const START_LESS_ROOK_AND_CANNON: &str =
    "1nbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = run_chariot(args, "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The last iteration's normalised score and wdl of `analyze --json` with `extra` arguments.
fn analysed(extra: &[&str]) -> (i64, [u64; 3]) {
    let mut args = vec!["analyze", "--json", "--depth", "8"];
    args.extend_from_slice(extra);
    let lines = json_lines(&args);
    let last = lines.iter().rev().find(|l| l.get("depth").is_some()).expect("an iteration");
    let wdl: Vec<u64> = last["wdl"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(wdl.iter().sum::<u64>(), 1000, "{last}");
    assert_eq!(last["view"], "red", "{last}");
    (last["score_cp"].as_i64().expect("not a mate"), [wdl[0], wdl[1], wdl[2]])
}

#[test]
fn the_start_position_reads_near_even_with_either_evaluation() {
    for eval in [&[][..], &["--classic"][..]] {
        let (cp, wdl) = analysed(eval);
        assert!(cp.abs() <= 50, "{eval:?}: the start reads {cp}");
        assert!((250..=600).contains(&wdl[0]), "{eval:?}: a win chance of {} per mille at the start", wdl[0]);
    }
}

#[test]
fn a_rook_and_a_cannon_ahead_is_at_least_a_90_percent_win_with_either_evaluation() {
    for eval in [&[][..], &["--classic"][..]] {
        let mut args = vec!["--fen", START_LESS_ROOK_AND_CANNON];
        args.extend_from_slice(eval);
        let (cp, wdl) = analysed(&args);
        assert!(wdl[0] >= 900, "{eval:?}: {cp} reads a win chance of only {} per mille", wdl[0]);
        assert!(cp > 300, "{eval:?}: {cp}");
    }
}

#[test]
fn eval_json_gives_both_evaluations_normalised_with_their_chances() {
    let lines = json_lines(&["eval", "--json", "--fen", START_LESS_ROOK_AND_CANNON]);
    for which in ["classic", "nnue"] {
        let part = &lines[0][which];
        let wdl: Vec<u64> = part["wdl"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u64>(), 1000, "{part}");
        assert!(part["score_cp"].as_i64().unwrap() > part["internal"].as_i64().unwrap() / 10, "{part}");
        assert!(wdl[0] > wdl[2], "{which}: Red is a rook and a cannon up: {part}");
    }
    assert!(lines[0].get("nnue").is_some());
    let classic_only = json_lines(&["eval", "--json", "--classic"]);
    assert!(classic_only[0].get("nnue").is_none());
}

#[test]
fn uci_show_wdl_puts_wdl_on_every_scored_info_line() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves h2e2");
    e.send("go depth 6");
    let mut scored = 0;
    loop {
        let line = e.expect("");
        if line.starts_with("bestmove") {
            break;
        }
        if !line.contains(" score ") {
            continue;
        }
        scored += 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").unwrap_or_else(|| panic!("no wdl: {line}"));
        let wdl: Vec<u32> = words[at + 1..at + 4].iter().map(|w| w.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
    }
    assert!(scored >= 6, "{scored} scored lines");
    e.send("setoption name UCI_ShowWDL value false");
    e.send("go depth 3");
    let mut plain = 0;
    loop {
        let line = e.expect("");
        if line.starts_with("bestmove") {
            break;
        }
        if line.contains(" score ") {
            plain += 1;
            assert!(!line.contains(" wdl "), "{line}");
        }
    }
    assert!(plain >= 3, "{plain} scored lines");
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(10)));
}

#[test]
fn a_fitted_model_travels_in_the_net_file_and_a_bad_one_is_refused() {
    let dir = scratch_dir("winrate", "net-file");
    let net = dir.join("net.nnue");
    let out = run_chariot(&["nnue", "random", "--width", "16", "--out", net.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let check = run_chariot(&["nnue", "check", net.to_str().unwrap()], "");
    let text = String::from_utf8(check.stdout).unwrap();
    assert!(text.contains("Win-rate model:"), "{text}");
    // The model's first coefficient (a₃) sits after the fixed header and the description; make
    // the constant term of `a` (a₀, the fourth) hugely negative: no model can have that.
    let mut bytes = std::fs::read(&net).unwrap();
    let description_len = u16::from_le_bytes([bytes[36], bytes[37]]) as usize;
    let a0 = 38 + description_len + 3 * 8;
    bytes[a0..a0 + 8].copy_from_slice(&(-1.0e6f64).to_le_bytes());
    std::fs::write(&net, &bytes).unwrap();
    let refused = run_chariot(&["nnue", "check", net.to_str().unwrap()], "");
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(err.contains("win-rate model") && err.contains("net.nnue"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn show_svg_draws_a_well_formed_board_with_the_last_move_and_the_arrow() {
    let dir = scratch_dir("winrate", "show-svg");
    let path = dir.join("board.svg");
    let out = run_chariot(
        &["show", "--moves", "h2e2", "h9g7", "--svg", path.to_str().unwrap(), "--arrow", "h0g2"],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("not well-formed SVG: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let of_class = |class: &str| doc.descendants().filter(|n| n.attribute("class") == Some(class)).count();
    assert_eq!(of_class("piece"), 32);
    // The last move's start and end, and one arrow.
    assert_eq!(of_class("last-move"), 2);
    assert_eq!(of_class("arrow"), 1);
    let texts: String = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.contains('帥') && texts.contains('將') && texts.contains('馬'), "{texts}");
    let refused = run_chariot(&["show", "--svg", path.to_str().unwrap(), "--arrow", "a0a5"], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--arrow 'a0a5' is not a legal move"));
    let _ = std::fs::remove_dir_all(&dir);
}
