//! The protocol loop end to end: the real binary driven through pipes in both dialects.

mod common;

use std::time::Duration;

use chariot::board::{movegen, Move, Position};
use common::book_dat::{book_dat, AFTER_H2E2_H9G7};
use common::{best_of, EngineProcess};

const SECOND: Duration = Duration::from_secs(1);

fn legal_in(position_args: &str, mv: &str) -> bool {
    let mut pos = chariot::protocol::position_cmd::parse_position(position_args).unwrap();
    Move::parse_iccs(mv).is_some_and(|m| movegen::is_legal(&mut pos, m))
}

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

/// Nodes of the last full iteration a UCI `go depth` reported.
fn nodes_to_depth(e: &mut EngineProcess, depth: u32) -> u64 {
    e.send(&format!("go depth {depth}"));
    e.expect("bestmove");
    let line = e.transcript.iter().rev().find(|l| l.starts_with(&format!("info depth {depth} "))).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

/// A UCI session without its book, at the position after 1. h2e2 h9g7.
fn uci_session_two_plies_in() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves h2e2 h9g7");
    e
}

/// Nodes to depth 7 after `setoption` (on an empty table, so that one thread is deterministic).
fn nodes_after(e: &mut EngineProcess, setoption: &str) -> u64 {
    e.send("setoption name Clear Hash");
    e.send(setoption);
    nodes_to_depth(e, 7)
}

#[test]
fn without_switches_search_features_off_and_back_on() {
    let mut e = uci_session_two_plies_in();
    let all = nodes_to_depth(&mut e, 7);
    // Late move reductions save most of the tree: without them the same depth costs more.
    let without = nodes_after(&mut e, "setoption name Without value lmr,null");
    assert!(without > all * 3 / 2, "without lmr,null {without} nodes, all on {all}");
    // Back on: the same tree as the first search.
    assert_eq!(nodes_after(&mut e, "setoption name Without value <empty>"), all);
}

#[test]
fn tune_changes_search_parameters_and_back() {
    let mut e = uci_session_two_plies_in();
    let landed = nodes_to_depth(&mut e, 7);
    // Gentler late-move reductions search more of the same tree.
    let gentler = nodes_after(&mut e, "setoption name Tune value lmr_base=0 lmr_divisor=400");
    assert!(gentler > landed * 6 / 5, "gentler reductions {gentler} nodes, landed {landed}");
    // A refused value leaves the last good one in place.
    e.send("setoption name Tune value lmr_divisor=1");
    e.expect("info string error: Tune: lmr_divisor must be between");
    assert_eq!(nodes_after(&mut e, "isready"), gentler);
    assert_eq!(nodes_after(&mut e, "setoption name Tune value <empty>"), landed);
}

/// Nodes to depth 7 after `setoption` (on an empty table) and the move played.
fn nodes_and_move_after(e: &mut EngineProcess, setoption: &str) -> (u64, String) {
    let nodes = nodes_after(e, setoption);
    let answer = e.transcript.iter().rev().find(|l| l.starts_with("bestmove")).unwrap();
    (nodes, best_of(answer).unwrap())
}

/// The `info` lines since the `from`th line of the transcript.
fn infos_since(e: &EngineProcess, from: usize) -> Vec<&String> {
    e.transcript[from..].iter().filter(|l| l.starts_with("info ")).collect()
}

/// The largest `nodes N` of `lines`.
fn most_nodes(lines: &[&String]) -> u64 {
    let nodes = |l: &&String| l.split_whitespace().skip_while(|&w| w != "nodes").nth(1)?.parse().ok();
    lines.iter().filter_map(nodes).max().unwrap_or(0)
}

#[test]
fn skill_level_20_searches_exactly_as_without_it_and_a_low_level_is_node_limited() {
    let mut e = uci_session_two_plies_in();
    let plain = nodes_and_move_after(&mut e, "isready");
    assert_eq!(nodes_and_move_after(&mut e, "setoption name Skill Level value 20"), plain);
    // Level 3: no more nodes than its limit, and only the line the GUI asked for is shown,
    // though four are searched.
    e.send("setoption name Skill Level value 3");
    let from = e.transcript.len();
    e.send("go depth 7");
    e.expect("bestmove");
    let infos = infos_since(&e, from);
    let limit = chariot::search::skill::LEVELS[3].nodes;
    assert!((1..=limit).contains(&most_nodes(&infos)), "{infos:?}");
    assert!(infos.iter().any(|l| l.contains(" multipv 1 ")), "{infos:?}");
    assert!(!infos.iter().any(|l| l.contains(" multipv 2 ")), "{infos:?}");
    // Back to 20, and an Elo without UCI_LimitStrength: full strength, to the node.
    assert_eq!(nodes_and_move_after(&mut e, "setoption name Skill Level value 20"), plain);
    let top = chariot::search::skill::MAX_ELO;
    assert_eq!(nodes_and_move_after(&mut e, &format!("setoption name UCI_Elo value {top}")), plain);
    e.send("setoption name UCI_LimitStrength value true");
    assert_eq!(nodes_and_move_after(&mut e, "setoption name UCI_LimitStrength value false"), plain);
}

#[test]
fn a_weak_level_ponders_until_ponderhit_and_analysis_is_not_weakened() {
    let mut e = uci_session_two_plies_in();
    e.send("setoption name Skill Level value 0");
    // The level's few hundred nodes are spent in milliseconds; the answer still waits.
    e.send("go ponder wtime 60000 btime 60000");
    assert!(
        e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")),
        "{:?}",
        e.transcript
    );
    e.send("ponderhit");
    let answer = e.wait_for(|l| l.starts_with("bestmove"), SECOND).0;
    assert!(legal_in("startpos moves h2e2 h9g7", &best_of(&answer).unwrap()));
    // Analysis runs at full strength: far past the level's node limit, until stop.
    let from = e.transcript.len();
    e.send("go infinite");
    assert!(e.drain(Duration::from_millis(500)).iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    e.expect("bestmove");
    let infos = infos_since(&e, from);
    let limit = chariot::search::skill::LEVELS[0].nodes;
    assert!(most_nodes(&infos) > 10 * limit, "{infos:?}");
}

#[test]
fn the_strength_options_are_announced_in_both_dialects_and_bad_values_refused() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    for line in [
        "option skilllevel type spin min 0 max 20 default 20",
        "option limitstrength type check default false",
    ] {
        assert!(e.transcript.iter().any(|l| l == line), "{line}: {:?}", e.transcript);
    }
    assert!(e.transcript.iter().any(|l| l.starts_with("option elo type spin min ")));
    e.send("setoption skilllevel 25");
    e.expect("info string error: skilllevel must be between 0 and 20, not 25");
    e.send("setoption elo 0");
    e.expect("info string error: elo must be between ");
    e.send("setoption limitstrength maybe");
    e.expect("info string error: limitstrength wants true or false, not 'maybe'");
    e.send("quit");
    e.expect("bye");

    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    for line in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
    ] {
        assert!(e.transcript.iter().any(|l| l == line), "{line}: {:?}", e.transcript);
    }
    assert!(e.transcript.iter().any(|l| l.starts_with("option name UCI_Elo type spin default ")));
    e.send("setoption name Skill Level value -3");
    e.expect("info string error: Skill Level must be between 0 and 20, not -3");
    e.send("setoption name UCI_Elo value strong");
    e.expect("info string error: UCI_Elo wants a whole number from ");
    e.send("quit");
}

/// The score of the depth-1 iteration of the search just started, in either dialect (UCI says
/// `score cp N`, UCCI `score N`), once its `bestmove` has come.
fn depth_1_score(e: &mut EngineProcess) -> i32 {
    e.expect("bestmove");
    let line = e.transcript.iter().rev().find(|l| l.starts_with("info depth 1 ")).unwrap().clone();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").unwrap();
    let number = if words[at + 1] == "cp" { words[at + 2] } else { words[at + 1] };
    number.parse::<i32>().unwrap()
}

#[test]
fn withoutterms_leaves_evaluation_terms_out() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    // The terms belong to the classic evaluation.
    e.send("setoption name Use NNUE value false");
    // Red's cannon faces the black king over an empty file (空头炮): the cannon terms see it.
    e.send("position fen 3akab2/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1");
    let score_at_depth_1 = |e: &mut EngineProcess| {
        e.send("go depth 1");
        depth_1_score(e)
    };
    let all = score_at_depth_1(&mut e);
    // The table keeps scores of the other evaluation: clear it between the runs.
    e.send("setoption name Clear Hash");
    e.send("setoption name Without Terms value cannons");
    let without = score_at_depth_1(&mut e);
    assert!(without < all, "without the cannon terms {without}, with them {all}");
    e.send("setoption name Clear Hash");
    e.send("setoption name Without Terms value <empty>");
    assert_eq!(score_at_depth_1(&mut e), all);
}

#[test]
fn knowledge_switches_evaluation_term_groups_and_a_refusal_keeps_it() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    // The term groups belong to the classic evaluation.
    e.send("setoption usennue false");
    // Red's cannon faces the black king over an empty file: the cannon terms see it.
    e.send("position fen 3akab2/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1");
    let score_at_depth_1 = |e: &mut EngineProcess| {
        e.send("setoption newgame");
        e.send("go depth 1");
        depth_1_score(e)
    };
    let all = score_at_depth_1(&mut e);
    e.send("setoption knowledge none");
    let none = score_at_depth_1(&mut e);
    assert_ne!(none, all, "material and squares alone score as all the knowledge does");
    // A bad value mid-game is refused at once and the level in force stays.
    e.send("setoption knowledge everything");
    e.expect("info string error: knowledge wants one of none/small/medium/large, not 'everything'");
    assert_eq!(score_at_depth_1(&mut e), none);
    // `withoutterms cannons` with all the knowledge sees what `knowledge none` saw here.
    e.send("setoption knowledge large");
    assert_eq!(score_at_depth_1(&mut e), all);
    e.send("setoption withoutterms cannons");
    assert!(score_at_depth_1(&mut e) < all);
    e.send("quit");
    e.expect("bye");
}

/// Nodes of a UCCI `go depth <depth>` on an empty table: the last `info time … nodes` line before
/// the answer is the whole search's count.
fn ucci_nodes_to_depth(e: &mut EngineProcess, depth: u32) -> u64 {
    e.send("setoption newgame");
    e.send(&format!("go depth {depth}"));
    e.expect("bestmove");
    let line = e.transcript.iter().rev().find(|l| l.starts_with("info time ")).unwrap();
    line.split_whitespace().skip_while(|&w| w != "nodes").nth(1).unwrap().parse().unwrap()
}

#[test]
fn pruning_and_algorithm_change_the_search_and_a_bad_value_keeps_the_last() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption usebook false");
    e.send("position startpos moves h2e2 h9g7");
    let landed = ucci_nodes_to_depth(&mut e, 6);
    // No selective search at all: the same depth costs far more.
    e.send("setoption pruning none");
    let full = ucci_nodes_to_depth(&mut e, 6);
    assert!(full > landed * 3 / 2, "pruning none {full} nodes, large {landed}");
    e.send("setoption pruning most");
    assert_eq!(
        e.expect("info string"),
        "info string error: pruning wants one of none/small/medium/large, not 'most'"
    );
    assert_eq!(ucci_nodes_to_depth(&mut e, 6), full, "the refused level changed the search");
    e.send("setoption pruning large");
    assert_eq!(ucci_nodes_to_depth(&mut e, 6), landed);
    // MTD(f) walks another tree to the same depth.
    e.send("setoption algorithm mtdf");
    let mtdf = ucci_nodes_to_depth(&mut e, 6);
    assert_ne!(mtdf, landed, "mtdf searched the tree pvs searches");
    e.send("setoption algorithm negascout");
    assert_eq!(
        e.expect("info string"),
        "info string error: algorithm wants one of pvs/mtdf, not 'negascout'"
    );
    assert_eq!(ucci_nodes_to_depth(&mut e, 6), mtdf);
    e.send("setoption algorithm pvs");
    assert_eq!(ucci_nodes_to_depth(&mut e, 6), landed);
    e.send("quit");
    e.expect("bye");
}

#[test]
fn move_overhead_threads_and_hash_are_applied_and_a_bad_value_keeps_the_last() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name OwnBook value false");
    e.send("debug on");
    // The overhead comes off a fixed move time: the budget `debug` prints shows it.
    e.send("setoption name Move Overhead value 100");
    e.send("go movetime 400");
    assert_eq!(e.expect("info string time"), "info string time budget: soft 300 ms, hard 300 ms");
    e.expect("bestmove");
    e.send("setoption name Move Overhead value -5");
    assert_eq!(
        e.expect("info string"),
        "info string error: Move Overhead must be between 0 and 5000, not -5"
    );
    e.send("go movetime 400");
    assert_eq!(e.expect("info string time"), "info string time budget: soft 300 ms, hard 300 ms");
    e.expect("bestmove");
    e.send("debug off");
    // More threads than cores: taken, and the engine says how many it uses.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = 256.min(cores + 1);
    e.send(&format!("setoption name Threads value {asked}"));
    if asked > cores {
        let note = format!("info string {asked} threads asked, {cores} used: one per core");
        assert_eq!(e.expect("info string"), note);
    }
    e.send("setoption name Threads value 0");
    assert_eq!(e.expect("info string"), "info string error: Threads must be between 1 and 256, not 0");
    e.send("setoption name Hash value 8");
    e.send("setoption name Hash value many");
    assert_eq!(
        e.expect("info string"),
        "info string error: Hash wants a whole number from 1 to 65536, not 'many'"
    );
    // The announcement writes back the values in force.
    e.send("uci");
    e.expect("uciok");
    for wanted in [
        format!("option name Threads type spin default {asked} min 1 max 256"),
        "option name Hash type spin default 8 min 1 max 65536".to_string(),
        "option name Move Overhead type spin default 100 min 0 max 5000".to_string(),
    ] {
        assert!(e.transcript.contains(&wanted), "{wanted}: {:?}", e.transcript);
    }
    e.send("quit");
    assert!(e.exits_within(SECOND));
}

#[test]
fn debug_prints_the_book_decision_the_evaluation_and_the_time_budget_in_both_dialects() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption usemillisec true");
    e.send("position startpos");
    e.send("go time 60000 increment 0");
    e.expect("bestmove");
    assert!(!e.transcript.iter().any(|l| l.starts_with("info string")), "debug is off: {:?}", e.transcript);
    e.send("setoption debug true");
    e.send("go time 60000 increment 0");
    let told = e.expect("info string book: ");
    assert!(told.contains(" moves of embedded (weight "), "{told}");
    e.expect("info message book move ");
    e.expect("bestmove");
    e.send("setoption usebook false");
    e.send("go time 1000 increment 0");
    assert_eq!(e.expect("info string"), "info string no book move: the book is switched off");
    let eval = e.expect("info string");
    assert!(eval.starts_with("info string evaluation: NNUE ") && eval.ends_with(" (built in)"), "{eval}");
    assert!(e.expect("info string").starts_with("info string time budget: soft "));
    e.expect("bestmove");
    e.send("setoption usennue false");
    e.send("go depth 1");
    assert_eq!(e.expect("info string"), "info string no book move: the book is switched off");
    assert_eq!(e.expect("info string"), "info string evaluation: classic evaluation");
    e.expect("bestmove");
    e.send("quit");
    e.expect("bye");

    // UCI switches it with the `debug` command; an option named Debug does not exist there.
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name Debug value true");
    assert_eq!(e.expect("info string"), "info string error: unknown option 'Debug' ignored");
    e.send("setoption name Knowledge value none");
    assert_eq!(e.expect("info string"), "info string error: unknown option 'Knowledge' ignored");
    e.send("setoption name OwnBook value true");
    e.send("debug on");
    e.send("position startpos");
    e.send("go depth 1");
    assert_eq!(e.expect("info string"), "info string no book move: the book is not asked for a 'go depth'");
    assert!(e.expect("info string").starts_with("info string evaluation: NNUE "));
    assert_eq!(e.expect("info string"), "info string time budget: none, no clock limits this search");
    e.expect("bestmove");
    e.send("debug off");
    let before = e.transcript.len();
    e.send("go movetime 200");
    e.send("go depth 1");
    e.expect("bestmove");
    e.expect("bestmove");
    let after: Vec<&String> =
        e.transcript[before..].iter().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(after.len(), 1, "only the book move's own line: {after:?}");
    assert!(after[0].starts_with("info string book move "), "{after:?}");
    e.send("quit");
}

// --- Reliability (issue 18): no hang, no runaway, short errors. ---

#[test]
fn go_perft_leaves_the_reader_free_and_stops() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.expect("uciok");
    // About 10^15 leaves from the start: only a stop ends it.
    e.send("go perft 12");
    e.send("isready");
    let (_, waited) = e.wait_for(|l| l == "readyok", SECOND);
    assert!(waited < Duration::from_millis(200), "readyok took {waited:?}");
    e.send("stop");
    let (line, waited) = e.wait_for(|l| l.starts_with("info string perft"), SECOND);
    assert_eq!(line, "info string perft 12 stopped before it was done");
    assert!(waited < Duration::from_millis(200), "stop took {waited:?}");
    // A finished count still comes, and quit ends one that runs.
    e.send("go perft 3");
    assert_eq!(e.expect("Nodes searched"), "Nodes searched: 79666");
    e.send("go perft 12");
    e.send("quit");
    assert!(e.exits_within(SECOND), "quit during perft");
}

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

/// Starts a UCI session without its book at the start position, runs `go`, lets it search a
/// moment, and closes the input.
fn search_then_close_input(go: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send(go);
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    e
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

// --- Issue 24: analysis GUIs get analysis; d, eval and flip. ---

/// Whether the transcript from `from` on holds an `info depth` line before its first
/// `bestmove`, and no book move anywhere.
fn searched_since(e: &EngineProcess, from: usize) -> bool {
    let lines = &e.transcript[from..];
    let Some(answer) = lines.iter().position(|l| l.starts_with("bestmove")) else { return false };
    lines[..answer].iter().any(|l| l.starts_with("info depth"))
        && !lines.iter().any(|l| l.contains(" book move "))
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
