//! The loop while a search runs and as the process ends: perft, end of input, a closed output,
//! junk and oversized numbers, commands answered in turn, analysis.

use super::*;

#[test]
fn the_issue_example_ends_promptly() {
    // printf 'uci\ngo perft 2971\nisready\nstop\nquit\n' | chariot
    let mut e = EngineProcess::start();
    for line in ["uci", "go perft 2971", "isready", "stop", "quit"] {
        e.send(line);
    }
    assert!(e.exits_within(5 * SECOND), "{:?}", e.drain(Duration::from_millis(10)));
    let lines = e.drain(Duration::from_millis(100));
    assert!(
        lines.contains(&"info string error: perft depth '2971' is too large: at most 64".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&"readyok".to_string()));
}

#[test]
fn end_of_input_stops_every_search_and_exits() {
    for go in [
        "go depth 60",
        "go movetime 600000",
        "go nodes 100000000000",
        "go wtime 600000 btime 600000",
        "go ponder wtime 600000 btime 600000",
        "go infinite",
        "go mate 40",
    ] {
        let mut e = search_then_close_input(go);
        let status = e.exit_status_within(2 * SECOND);
        assert_eq!(status.map(|s| s.code()), Some(Some(0)), "{go}: still searching after the end of input");
        e.drain(Duration::from_millis(100));
        let last = e.transcript.last().cloned().unwrap_or_default();
        assert!(legal_in("startpos", &best_of(&last).unwrap_or_default()), "{go}: {last}");
    }
    let mut e = search_then_close_input("go perft 12");
    assert!(e.exits_within(2 * SECOND), "perft still counting after the end of input");
}

#[test]
fn a_closed_output_stops_the_search_and_the_process() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    for go in ["go infinite", "go depth 60", "go ponder wtime 600000 btime 600000"] {
        let mut child = Command::new(common::chariot_bin())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "uci\nsetoption name OwnBook value false\nposition startpos\n{go}").unwrap();
        stdin.flush().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while !line.starts_with("info depth") {
            line.clear();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "{go}: the engine closed its output");
        }
        // The GUI stops reading but keeps the engine's input open.
        drop(stdout);
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if start.elapsed() > 3 * SECOND {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        drop(stdin);
        assert_eq!(status.and_then(|s| s.code()), Some(2), "{go}: still running with nobody reading");
        assert!(stderr.starts_with("error: cannot write the output"), "{go}: {stderr}");
    }
}

#[test]
fn junk_lines_come_back_short() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    let junk = "k".repeat(1 << 20);
    e.send(&junk);
    let line = e.expect("info string error");
    assert_eq!(line, format!("info string error: unknown command '{}…' (1048576 bytes)", "k".repeat(40)));
    e.send(&format!("position startpos moves h2e2 {}", &junk[..1 << 19]));
    let line = e.expect("info string error");
    assert!(line.len() < 150 && line.contains("move 2 'kkk") && line.contains("(524288 bytes)"), "{line}");
    // Longer than any line is read: refused by its length alone.
    e.send(&"m".repeat(3 << 20));
    assert_eq!(
        e.expect("info string error"),
        "info string error: the line is 3145728 bytes long; at most 1048576 are read: ignored"
    );
    // Not UTF-8: one error for the line, and the next line is read.
    e.send_bytes(b"isready \xff\xfe\n");
    assert_eq!(
        e.expect("info string error"),
        "info string error: the line is not UTF-8 text (byte 0xff at offset 8): ignored"
    );
    e.send("isready");
    e.expect("readyok");
}

#[test]
fn numbers_too_large_give_the_range() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    let huge = "99999999999999999999";
    for (line, wanted) in [
        (format!("go depth {huge}"), format!("depth '{huge}' is too large: at most 18446744073709551615")),
        (format!("go wtime {huge}"), format!("wtime '{huge}' is too large: at most 18446744073709551615")),
        (
            format!("setoption name Hash value {huge}"),
            format!("Hash must be between 1 and 65536, not '{huge}'"),
        ),
        (
            format!("setoption name Threads value {huge}"),
            format!("Threads must be between 1 and 256, not '{huge}'"),
        ),
        ("go perft 100".to_string(), "perft depth '100' is too large: at most 64".to_string()),
    ] {
        e.send(&line);
        assert_eq!(e.expect("info string"), format!("info string error: {wanted}"), "{line}");
    }
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("go time 18446744073709552 increment 0");
    assert_eq!(
        e.expect("info string"),
        "info string error: time (seconds) '18446744073709552' is too large: at most 18446744073709551"
    );
    // The largest clock that fits is a clock as good as none, not a time forfeit.
    e.send("setoption usebook false");
    e.send("position startpos");
    e.send("go time 18446744073709551 increment 18446744073709551 movestogo 1");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    assert!(legal_in("startpos", &best_of(&e.expect("bestmove")).unwrap()));
}

#[test]
fn malformed_lines_get_one_error_each_and_still_act() {
    let mut e = EngineProcess::start();
    e.send("ucci extra");
    assert_eq!(e.expect("info string"), "info string error: ucci takes no arguments: 'extra' ignored");
    e.expect("ucciok");
    e.send("isready extra");
    assert_eq!(e.expect("info string"), "info string error: isready takes no arguments: 'extra' ignored");
    e.expect("readyok");
    e.send("setoption usebook false");
    e.send("position fen 3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    e.send("go ponder depth 3");
    e.send("ponderhit draw draw");
    assert_eq!(e.expect("info string"), "info string error: ponderhit takes only 'draw': 'draw' ignored");
    // The ponderhit counted, and so did its draw offer: a dead draw is accepted.
    let answer = e.wait_for(|l| l.starts_with("bestmove"), 2 * SECOND).0;
    assert!(answer.ends_with(" draw"), "{answer}");
    e.send("setoption newgame now");
    assert_eq!(e.expect("info string"), "info string error: a button takes no value: 'now' ignored");
    e.send("stop here");
    assert_eq!(e.expect("info string"), "info string error: stop takes no arguments: 'here' ignored");
    e.expect("nobestmove");
    e.send("quit now");
    assert_eq!(e.expect("info string"), "info string error: quit takes no arguments: 'now' ignored");
    e.expect("bye");
    assert!(e.exits_within(SECOND));
}

#[test]
fn the_protocol_loop_in_ucci_answers_each_command_in_turn() {
    // Formerly a piped script: perft now runs on the engine thread like a search, so the GUI
    // (here the test) waits for each answer before the next command, as it does for bestmove.
    const BARE_KINGS: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let bad_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P1/1C5C1/9/RNBAKABNR w";
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    for (command, answer) in [
        ("isready".to_string(), "readyok"),
        ("go perft 3".to_string(), "Nodes searched: 79666"),
        (format!("position fen {BARE_KINGS}"), ""),
        ("go perft 1".to_string(), "Nodes searched: 2"),
        (format!("position fen {bad_fen}"), "info string error: bad FEN: rank 3 has 10 files"),
        // A refused position leaves none: the bare kings are not counted in its place.
        ("go perft 1".to_string(), "info string error: no position: the last position command was refused"),
        ("position startpos moves h2e2 h9h2".to_string(), "info string error: move 2 'h9h2' is illegal"),
        ("go perft 1".to_string(), "info string error: no position: the last position command was refused"),
        (format!("position fen {BARE_KINGS}"), ""),
        ("go perft 1".to_string(), "Nodes searched: 2"),
        ("frobnicate now".to_string(), "info string error: unknown command 'frobnicate'"),
        ("quit".to_string(), "bye"),
    ] {
        e.send(&command);
        if !answer.is_empty() {
            let line = e.wait_for(|_| true, 5 * SECOND).0;
            assert!(line.starts_with(answer), "{command}: {line}");
        }
    }
    assert!(e.exits_within(SECOND));
    assert!(e.drain(Duration::from_millis(50)).is_empty());
}

#[test]
fn the_protocol_loop_in_uci_answers_perft_then_a_search_quit_stops() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("position startpos moves h2e2");
    e.send("go perft 1");
    // Black's 44 start moves, less the h7 cannon's capture on h0 (its screen on h2 left), plus
    // h7h2 and h7h1 onto the emptied file: 45.
    assert_eq!(e.expect("Nodes searched"), "Nodes searched: 45");
    e.send("go depth 30");
    e.send("isready");
    e.expect("readyok");
    // Quit stops the search with a legal move, and UCI has no 'bye'.
    e.send("quit");
    let best = e.expect("bestmove");
    assert!(legal_in("startpos moves h2e2", &best_of(&best).unwrap()), "{best}");
    assert!(e.exits_within(SECOND));
    assert!(!e.drain(Duration::from_millis(50)).contains(&"bye".to_string()));
}

#[test]
fn d_eval_and_flip_are_answered_while_go_infinite_thinks() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("position startpos moves h2e2");
    e.send("d");
    assert_eq!(
        e.expect("Fen: "),
        "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    assert!(e.expect("Key: ").len() == "Key: ".len() + 16);
    e.send("go infinite");
    e.expect("info depth");
    let before = e.transcript.len();
    e.send("d");
    e.expect("Fen: rnbakabnr/");
    e.send("eval");
    let last = e.expect("Final evaluation: ");
    assert!(last.contains("(Black's view, the side to move)"), "{last}");
    e.send("flip");
    e.send("d");
    let flipped =
        chariot::protocol::position_cmd::parse_position("startpos moves h2e2").unwrap().color_flipped();
    assert_eq!(e.expect("Fen: "), format!("Fen: {}", flipped.to_fen()));
    assert!(flipped.to_fen().contains(" w "), "flip hands the move to the other colour");
    assert!(!e.transcript[before..].iter().any(|l| l.starts_with("bestmove")), "{:?}", e.transcript);
    // The search went on meanwhile, and stops with a move of the position it was given.
    e.send("stop");
    let best = e.expect("bestmove");
    assert!(legal_in("startpos moves h2e2", &best_of(&best).unwrap()), "{best}");
    // The next search is on the flipped position: Red to move.
    e.send("go depth 3");
    let best = best_of(&e.expect("bestmove")).unwrap();
    assert!(movegen::is_legal(&mut flipped.clone(), Move::parse_iccs(&best).unwrap()), "{best}");
    e.send("quit");
    assert!(e.exits_within(SECOND));
}

#[test]
fn uci_analyses_by_default_and_analysis_never_answers_from_the_book() {
    // UCI: OwnBook is off by default, so a game move and a depth search are both searched.
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("option name OwnBook type check default false");
    e.send("position startpos");
    for go in ["go depth 1", "go wtime 2000 btime 2000"] {
        let from = e.transcript.len();
        e.send(go);
        e.expect("bestmove");
        assert!(searched_since(&e, from), "{go}: {:?}", e.transcript);
    }
    // With the book on, two lines asked for are analysis still.
    e.send("setoption name OwnBook value true");
    e.send("setoption name MultiPV value 2");
    let from = e.transcript.len();
    e.send("go wtime 2000 btime 2000");
    e.expect("bestmove");
    assert!(searched_since(&e, from), "{:?}", e.transcript);
    assert!(e.transcript[from..].iter().any(|l| l.contains(" multipv 2 ")), "{:?}", e.transcript);
    e.send("quit");

    // UCCI: usebook is on by default; a game move comes from the book, `go infinite` searches.
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("option usebook type check default true");
    e.send("position startpos");
    e.send("go time 60 increment 0");
    e.expect("info message book move ");
    e.expect("bestmove");
    let from = e.transcript.len();
    e.send("go infinite");
    e.expect("info depth");
    e.send("stop");
    e.expect("bestmove");
    assert!(searched_since(&e, from), "{:?}", e.transcript);
    e.send("quit");
    e.expect("bye");
}
