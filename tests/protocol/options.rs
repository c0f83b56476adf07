//! What each option changes (search switches, `tune`, skill levels, evaluation terms, pruning,
//! overhead, threads, hash, debug) and how a bad value is refused and keeps the last.

use super::*;

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
