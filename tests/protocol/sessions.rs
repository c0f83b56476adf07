//! Whole sessions in both dialects: pondering, ban moves, `isready` and `stop` during a search,
//! malformed input and refused positions, options announced, the book.

use super::*;

#[test]
fn a_full_ucci_session_with_pondering_hit_and_miss() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption usemillisec true");
    e.send("setoption hashsize 16");
    e.send("setoption usebook false");
    e.send("isready");
    e.expect("readyok");
    e.send("position startpos");
    e.send("go time 60000 increment 0 opptime 60000 oppincrement 0");
    let first = e.expect("bestmove");
    let ours = best_of(&first).unwrap();
    assert!(legal_in("startpos", &ours), "{first}");
    let ponder = first.split_whitespace().nth(3).expect("a ponder move comes with the answer").to_string();

    // Ponder hit: the clock starts at ponderhit, and the answer comes after it, not before.
    let line = format!("startpos moves {ours} {ponder}");
    e.send(&format!("position {line}"));
    e.send("go ponder time 2000 increment 0 opptime 2000");
    assert!(
        e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")),
        "no answer while pondering"
    );
    e.send("ponderhit");
    let hit = e.wait_for(|l| l.starts_with("bestmove"), 3 * SECOND).0;
    assert!(legal_in(&line, &best_of(&hit).unwrap()), "{hit}");

    // Ponder miss: the GUI stops the ponder search and starts on the real position.
    e.send(&format!("position {line} {}", best_of(&hit).unwrap()));
    e.send("go ponder time 2000 increment 0");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.expect("bestmove");
    e.send("position startpos moves h2e2");
    e.send("go depth 5");
    let answer = e.expect("bestmove");
    assert!(legal_in("startpos moves h2e2", &best_of(&answer).unwrap()), "{answer}");
    // UCCI's own lines: info depth … score … pv, and no UCI-only words.
    assert!(e.transcript.iter().any(|l| l.starts_with("info depth 5 score ")), "{:?}", e.transcript);
    assert!(!e.transcript.iter().any(|l| l.contains("score cp")));
    e.send("quit");
    e.expect("bye");
    assert!(e.exits_within(SECOND));
}

#[test]
fn a_full_uci_session() {
    let mut e = EngineProcess::start();
    e.send("uci");
    let ok = e.expect("uciok");
    assert_eq!(ok, "uciok");
    for name in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "OwnBook", "BookFile"]
    {
        assert!(e.transcript.iter().any(|l| l.starts_with(&format!("option name {name} type"))), "{name}");
    }
    e.send("setoption name Hash value 8");
    e.send("setoption name OwnBook value false");
    e.send("setoption name MultiPV value 3");
    e.send("ucinewgame");
    e.send("isready");
    e.expect("readyok");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go wtime 5000 btime 5000 winc 50 binc 50");
    let answer = e.wait_for(|l| l.starts_with("bestmove"), 3 * SECOND).0;
    assert!(legal_in("startpos moves h2e2 h9g7", &best_of(&answer).unwrap()));
    // Three PV lines per depth, with hashfull and nps.
    for k in 1..=3 {
        assert!(e.transcript.iter().any(|l| l.contains(&format!(" multipv {k} score cp "))), "multipv {k}");
    }
    assert!(e.transcript.iter().any(|l| l.contains(" hashfull ") && l.contains(" nps ")));
    // go mate, go nodes, searchmoves.
    e.send("setoption name MultiPV value 1");
    e.send("position fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1");
    e.send("go mate 2");
    e.expect("bestmove");
    assert!(e.transcript.iter().any(|l| l.contains("score mate 2")), "{:?}", e.transcript);
    e.send("position startpos");
    e.send("go nodes 5000 searchmoves a0a1");
    assert_eq!(best_of(&e.expect("bestmove")).as_deref(), Some("a0a1"));
    // No legal move: bestmove (none).
    e.send("position fen 3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.expect("bestmove"), "bestmove (none)");
    e.send("quit");
    assert!(e.exits_within(SECOND));
}

#[test]
fn banmoves_are_honoured() {
    let mut pos = Position::startpos();
    let legal: Vec<String> = movegen::legal_moves(&mut pos).iter().map(|m| m.to_string()).collect();
    // Ban everything but b0a2: nothing else may come back.
    let banned: Vec<&str> = legal.iter().map(String::as_str).filter(|&m| m != "b0a2").collect();
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 4");
    assert_eq!(best_of(&e.expect("bestmove")).as_deref(), Some("b0a2"));
    // A new position clears the bans.
    e.send("position startpos");
    e.send("go depth 4");
    assert_ne!(best_of(&e.expect("bestmove")).as_deref(), Some("b0a2"));
    // A bad banmoves list is refused whole and changes nothing.
    e.send("banmoves h2e2 zz");
    e.expect("info string error: banmoves: 'zz'");
}

#[test]
fn isready_probe_and_stop_during_a_search() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("position startpos");
    e.send("go depth infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let (_, waited) = e.wait_for(|l| l == "readyok", SECOND);
    assert!(waited < Duration::from_millis(100), "readyok took {waited:?}");
    e.send("probe startpos");
    let pophash = e.expect("pophash");
    let hashed = pophash.split_whitespace().nth(2).expect("the root is in the table mid-search");
    assert!(legal_in("startpos", hashed), "{pophash}");
    e.send("stop");
    let (best, waited) = e.wait_for(|l| l.starts_with("bestmove"), SECOND);
    assert!(legal_in("startpos", &best_of(&best).unwrap()));
    assert!(waited < Duration::from_millis(100), "stop took {waited:?}");
    e.send("stop");
    e.expect("nobestmove");
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.send("position fen 3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1");
    e.send("go infinite");
    // A mate in one is found at once, but infinite means no answer before stop.
    let early = e.drain(Duration::from_millis(400));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    e.send("stop");
    assert_eq!(best_of(&e.expect("bestmove")).as_deref(), Some("i0i9"));
}

#[test]
fn malformed_input_gets_one_error_and_changes_nothing() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    for (bad, wanted) in [
        ("position fen rnbakabnr/9/9 w", "bad FEN"),
        ("position startpos moves h2e2 h2e2", "move 2 'h2e2' is illegal"),
        ("position sideways", "position expects 'startpos' or 'fen'"),
    ] {
        e.send(bad);
        let line = e.expect("info string");
        assert!(line.starts_with("info string error: ") && line.contains(wanted), "{bad}: {line}");
    }
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    for (bad, wanted) in [
        ("go depth deep", "depth 'deep'"),
        ("go sideways 3", "unknown go parameter 'sideways'"),
        ("setoption hashsize lots", "hashsize wants a whole number"),
        ("setoption threads 0", "threads must be between"),
        ("setoption without null,nullmove", "unknown search feature 'nullmove'"),
        ("setoption withoutterms mobility,tempo", "unknown evaluation term 'tempo'"),
        ("setoption tune rfp_margin=70,null_reduction=0", "null_reduction must be between 1 and 10"),
        ("setoption tune lmr_gain=3", "unknown search parameter 'lmr_gain'"),
        ("frobnicate", "unknown command 'frobnicate'"),
        ("probe fen xyz", "bad FEN"),
        ("ponderhit", "ponderhit while not pondering"),
    ] {
        e.send(bad);
        let line = e.expect("info string");
        assert!(line.starts_with("info string error: ") && line.contains(wanted), "{bad}: {line}");
    }
    // Still the bare kings: the red king's only move is d1 (e0 would face the black king).
    e.send("go perft 1");
    assert_eq!(e.expect("Nodes searched"), "Nodes searched: 1");
    e.send("quit");
    e.expect("bye");
}

#[test]
fn after_a_refused_position_go_answers_without_a_move_in_both_dialects() {
    // The kings face each other: a client sent this once, and the next `go` was answered with a
    // move of the position before, which a GUI would play on a board where it means another.
    let facing = "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let no_position = "info string error: no position: the last position command was refused \
                       (bad FEN: the kings face each other); send a valid one";
    for (handshake, no_move, clock) in [
        ("ucci", "nobestmove", "go time 60 increment 0"),
        ("uci", "bestmove (none)", "go wtime 60000 btime 60000"),
    ] {
        let mut e = EngineProcess::start();
        e.send(handshake);
        e.expect(&format!("{handshake}ok"));
        e.send("position startpos moves h2e2");
        e.send("go depth 3");
        assert!(legal_in("startpos moves h2e2", &best_of(&e.expect("bestmove")).unwrap()));
        e.send(facing);
        assert_eq!(e.expect("info string"), "info string error: bad FEN: the kings face each other");
        for go in ["go depth 3", clock] {
            e.send(go);
            assert_eq!(e.expect("info string"), no_position, "{handshake}: {go}");
            let answer = e.wait_for(|l| l.contains("bestmove"), 5 * SECOND).0;
            assert_eq!(answer, no_move, "{handshake}: {go}");
        }
        // Nor is the old board shown as if it were the position.
        e.send("d");
        assert_eq!(e.expect("info string"), no_position, "{handshake}: d");
        // A valid position ends it.
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 3");
        let answer = e.wait_for(|l| l.contains("bestmove"), 20 * SECOND).0;
        assert!(legal_in("startpos moves h2e2 h9g7", &best_of(&answer).unwrap()), "{handshake}: {answer}");
        e.send("quit");
        assert!(e.exits_within(5 * SECOND), "{handshake}");
    }
}

#[test]
fn options_round_trip_through_the_announcement() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    for set in [
        "setoption hashsize 8",
        "setoption threads 2",
        "setoption randomness small",
        "setoption batch true",
        "setoption bookfiles a.dat;b.dat",
        "setoption algorithm mtdf",
        "setoption batch false",
    ] {
        e.send(set);
    }
    e.send("ucci");
    e.expect("ucciok");
    for wanted in [
        "option hashsize type spin min 1 max 65536 default 8",
        "option threads type spin min 1 max 256 default 2",
        "option randomness type combo default small",
        "option batch type check default false",
        "option bookfiles type string default a.dat;b.dat",
        "option algorithm type combo default mtdf",
    ] {
        assert!(e.transcript.iter().any(|l| l.starts_with(wanted)), "{wanted}: {:?}", e.transcript);
    }
    // Two threads and MTD(f) still answer legally.
    e.send("position startpos");
    e.send("go depth 6");
    assert!(legal_in("startpos", &best_of(&e.expect("bestmove")).unwrap()));
}

#[test]
fn a_fen_after_a_capture_searches_like_the_full_move_list() {
    // Moves with a capture (h2h9: the cannon takes the horse), then quiet moves. The GUI form is
    // the FEN after the capture plus the moves since.
    // (Its moves were once illegal from the third on; both forms were refused and the start
    // position searched twice, which a refused position no longer allows.)
    let full = "startpos moves h2h9 g6g5 b0c2 b9c7 h0g2 g5g4";
    // Each later move lands on an empty square: the last capture is the first move.
    let mut after_capture = Position::startpos();
    after_capture.make_move(Move::parse_iccs("h2h9").unwrap());
    let gui = format!("fen {} moves g6g5 b0c2 b9c7 h0g2 g5g4", after_capture.to_fen());
    let mut answers = Vec::new();
    for position in [full.to_string(), gui] {
        assert!(chariot::protocol::position_cmd::parse_position(&position).is_ok(), "{position}");
        let mut e = EngineProcess::start();
        e.send("uci");
        e.send(&format!("position {position}"));
        e.send("go depth 7");
        let best = e.expect("bestmove");
        let last_info = e.transcript.iter().rev().find(|l| l.starts_with("info depth 7")).cloned().unwrap();
        let words: Vec<&str> = last_info.split_whitespace().collect();
        let score = words.iter().skip_while(|&&w| w != "score").nth(2).unwrap().to_string();
        let pv = words.iter().skip_while(|&&w| w != "pv").skip(1).copied().collect::<Vec<_>>().join(" ");
        answers.push((best, score, pv));
    }
    // The same move, score and line. (Not yet the same node count: from depth 6 on the full list
    // takes a few nodes more, 11805 against 11797 at depth 7, though no rule reaches back past
    // the capture; something in the search still reads the older history.)
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption threads 2");
    e.send("position startpos");
    e.send("go depth infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = std::time::Instant::now();
    e.send("quit");
    assert!(e.exits_within(Duration::from_millis(500)), "still running");
    assert!(start.elapsed() < Duration::from_millis(100), "quit took {:?}", start.elapsed());
}

#[test]
fn the_book_answers_at_once_and_usebook_false_searches() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption usemillisec true");
    e.send("position startpos");
    e.send("go time 60000 increment 0");
    let (line, waited) = e.wait_for(|l| l.starts_with("bestmove"), 5 * SECOND);
    let mv = best_of(&line).unwrap();
    assert!(waited < Duration::from_millis(200), "a book move is instant, took {waited:?}");
    let named = e
        .transcript
        .iter()
        .any(|l| l.starts_with(&format!("info message book move {mv} ")) && l.ends_with("from embedded"));
    assert!(named, "{:?}", e.transcript);
    assert!(!e.transcript.iter().any(|l| l.starts_with("info depth")), "no search for a book move");
    // Without the book the engine searches.
    e.send("setoption usebook false");
    e.send("go time 2000 increment 0");
    e.expect("bestmove");
    assert!(e.transcript.iter().any(|l| l.starts_with("info depth")), "{:?}", e.transcript);
}

#[test]
fn a_bookdat_file_from_the_option_is_used() {
    // After h2e2 h9g7, ElephantEye's book offers h0g2 955, g3g4 61, c3c4 3 (docs/book-formats.md);
    // without that file the test writes one holding the same records and a colliding a0a5.
    let file = book_dat("a_bookdat_file_from_the_option_is_used");
    let mut e = EngineProcess::start();
    e.send("uci");
    // UCI starts without its book (analysis GUIs expect a search): a game GUI switches it on.
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", file.path_text()));
    e.send("position startpos moves h2e2 h9g7");
    e.send("go wtime 60000 btime 60000");
    let mv = best_of(&e.expect("bestmove")).unwrap();
    let weight = AFTER_H2E2_H9G7.iter().find(|(m, _)| *m == mv).map(|(_, w)| *w);
    let Some(weight) = weight else { panic!("{mv} is not one of the book's moves {AFTER_H2E2_H9G7:?}") };
    let announced = format!("info string book move {mv} weight {weight} from BOOK.DAT");
    assert!(e.transcript.contains(&announced), "no '{announced}' in {:?}", e.transcript);
    assert!(!e.transcript.iter().any(|l| l.starts_with("info depth")), "no search for a book move");
    // An unreadable book is reported when it is named, and the engine still plays (by searching).
    e.send("setoption name BookFile value /no/such/book.cbk");
    e.expect("info string error: book '/no/such/book.cbk'");
    e.send("go wtime 2000 btime 2000");
    let mv = best_of(&e.expect("bestmove")).unwrap();
    assert!(legal_in("startpos moves h2e2 h9g7", &mv));
}
