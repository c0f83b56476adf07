//! Search behaviour: mates found with the right score, material recognised, legality of the
//! returned move, banmoves, determinism, the clock, PVS against MTD(f).
//! Mate distances were checked with an independent engine (fairy-stockfish, UCCI mode).

use std::time::Instant;

use chariot::board::{movegen, Move, Position};
use chariot::eval::EvalChoice;
use chariot::search::score::{mate_in_moves, MATE, MATE_BOUND};
use chariot::search::{
    bench, Algorithm, Engine, Info, IterationInfo, Limits, ScoreBound, SearchControl, SearchParams,
    SearchResult,
};

fn search_with(engine: &mut Engine, fen: &str, limits: Limits) -> SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let control = SearchControl::new();
    control.start(limits.ponder);
    engine.search(&pos, &limits, &control, &mut |_| {})
}

fn search(fen: &str, limits: Limits) -> SearchResult {
    search_with(&mut Engine::new(16), fen, limits)
}

#[test]
fn mates_in_one_two_three_are_found_with_the_right_score() {
    for algorithm in [Algorithm::Pvs, Algorithm::Mtdf] {
        for (fen, moves, first) in [
            ("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1", 1, "i0i9"),
            ("3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1", 2, "g0g9"),
            ("2bak4/4a4/4b4/9/9/9/9/2R6/4C4/4K4 w - - 0 1", 3, "c2f2"),
        ] {
            let mut engine = Engine::new(16);
            engine.options.algorithm = algorithm;
            let r = search_with(&mut engine, fen, Limits::depth(2 * moves + 2));
            assert_eq!(r.score, MATE - (2 * moves - 1), "{algorithm:?} {fen}");
            assert_eq!(mate_in_moves(r.score), Some(moves));
            if moves == 1 {
                assert_eq!(r.best.unwrap().to_string(), first, "{algorithm:?} {fen}");
            }
            // The PV is the mate: it replays legally and leaves the loser without a move.
            let mut pos = Position::from_fen(fen).unwrap();
            assert_eq!(r.pv.len() as i32, 2 * moves - 1, "{algorithm:?} {fen}: {:?}", r.pv);
            for &m in &r.pv {
                assert!(movegen::is_legal(&mut pos, m));
                pos.make_move(m);
            }
            assert!(movegen::legal_moves(&mut pos).is_empty(), "{algorithm:?} {fen}: {:?}", r.pv);
        }
    }
}

#[test]
fn the_mated_side_sees_it_coming() {
    // Black to move after red's g0g9 in the mate-in-two: mated in two plies whatever it plays.
    let r = search("3akaR2/9/4b4/9/9/9/9/9/4R4/3K5 b - - 0 1", Limits::depth(6));
    assert_eq!(r.score, -(MATE - 2));
}

#[test]
fn no_legal_move_loses_even_without_check() {
    // Black's king d9 has no move after a0a8 (d8 covered, e9 faces the red king): that wins.
    let r = search("3k5/9/9/9/9/9/9/9/9/R3K3R w - - 0 1", Limits::depth(3));
    assert_eq!(r.score, MATE - 1);
    // The position after it: Black is not in check, has no move, gets no best move and a lost score.
    let fen = "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    assert!(!pos.is_check() && movegen::legal_moves(&mut pos).is_empty());
    let r = search(fen, Limits::depth(3));
    assert_eq!((r.best, r.score), (None, -MATE));
}

#[test]
fn an_extra_rook_scores_high() {
    let r = search("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", Limits::depth(6));
    assert!(r.score > 150, "{}", r.score);
    let r = search("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", Limits::depth(6));
    assert!(r.score < -150, "{}", r.score);
}

#[test]
fn material_that_cannot_mate_scores_a_draw() {
    // Red has both advisors and both elephants, Black one advisor: more material, but neither
    // side has a piece that can cross the river, so the rules call it a draw whatever is played.
    for side in ["w", "b"] {
        let r = search(&format!("3k5/4a4/9/9/9/9/9/B3B4/4A4/3AK4 {side} - - 0 1"), Limits::depth(5));
        assert_eq!(r.score, 0, "{side} to move");
    }
    // A single pawn is enough to play on.
    let r = search("3k5/4a4/9/9/9/9/4P4/B3B4/4A4/3AK4 w - - 0 1", Limits::depth(5));
    assert!(r.score > 0, "{}", r.score);
}

#[test]
fn best_move_is_legal_and_never_banned() {
    for fen in bench::BENCH_FENS {
        let mut pos = Position::from_fen(fen).unwrap();
        let legal = movegen::legal_moves(&mut pos);
        let banned: Vec<Move> = legal.iter().take(2).copied().collect();
        let mut limits = Limits::nodes(3_000);
        limits.ban_moves = banned.clone();
        let r = search(fen, limits);
        match r.best {
            Some(mv) => {
                assert!(legal.contains(mv), "{fen}: {mv} is not legal");
                assert!(!banned.contains(&mv), "{fen}: {mv} is banned");
                // The whole PV replays legally.
                let mut p = pos.clone();
                for &m in &r.pv {
                    assert!(movegen::is_legal(&mut p, m), "{fen}: pv {:?}", r.pv);
                    p.make_move(m);
                }
            }
            None => assert!(legal.len() <= 2, "{fen}: a legal unbanned move existed"),
        }
    }
}

#[test]
fn one_thread_is_deterministic() {
    let a = bench::run(5, 1, 4, Algorithm::Pvs);
    let b = bench::run(5, 1, 4, Algorithm::Pvs);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.per_position, b.per_position);
    let n = search(bench::BENCH_FENS[6], Limits::nodes(20_000)).nodes;
    assert_eq!(n, 20_000, "the node limit is exact with one thread");
}

/// An engine with the search parameters `setting` (`name=value` pairs).
fn tuned(setting: &str) -> Engine {
    let mut engine = Engine::new(16);
    engine.options.params = SearchParams::with_list(setting).unwrap();
    engine
}

/// With the search parameters `setting`, the mates in one, two and three are found, each at
/// the depth that just reaches it.
fn assert_finds_the_mates(setting: &str) {
    for (fen, moves) in [
        ("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1", 1),
        ("3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1", 2),
        ("2bak4/4a4/4b4/9/9/9/9/2R6/4C4/4K4 w - - 0 1", 3),
    ] {
        let r = search_with(&mut tuned(setting), fen, Limits::depth(2 * moves + 2));
        assert_eq!(r.score, MATE - (2 * moves - 1), "{setting} {fen}");
    }
}

#[test]
fn singular_extensions_keep_the_mates_and_determinism() {
    // `se_depth=1` tries a singular search wherever the table holds a move: the harshest setting.
    for setting in [
        "se_depth=1",
        "se_depth=4,se_margin=0",
        "se_depth=1,se_negative=1",
        "se_depth=1,se_negative=2",
        "se_depth=1,se_double_margin=1,se_double_limit=64",
    ] {
        assert_finds_the_mates(setting);
    }
    let fen = bench::BENCH_FENS[6];
    let with = |setting: &str| {
        let r = search_with(&mut tuned(setting), fen, Limits::depth(9));
        assert!(r.best.is_some(), "{setting}");
        r.nodes
    };
    assert_eq!(
        with("se_depth=4"),
        with("se_depth=4"),
        "one thread stays deterministic with singular extensions"
    );
    // Double extensions are a candidate, off by default: switched on, they change the search.
    assert_ne!(
        with("se_depth=4,se_double_margin=20"),
        with("se_depth=4"),
        "double extensions change nothing"
    );
}

/// The nodes of a search of a bench middlegame to `depth` with the `tune` values `setting`.
fn middlegame_nodes(setting: &str, depth: i32) -> u64 {
    search_with(&mut tuned(setting), bench::BENCH_FENS[6], Limits::depth(depth)).nodes
}

#[test]
fn the_pruning_candidates_keep_the_mates_and_change_the_search() {
    // Internal iterative reduction, static-exchange pruning, razoring, ProbCut, history
    // pruning, cut-node reductions, reductions of checks and futility at the reduced depth (these
    // three on by default), reductions of losing captures and after a capture from the table,
    // deeper or shallower searches after a reduced one beats alpha, more reduction under
    // children that keep failing high, less at nodes once on a principal variation or below a
    // parent's late move, continuation history taught by re-searches, capture history and
    // check extensions only from a depth on, a larger history bonus, quiet checks in
    // quiescence, history taught by the table's cut-offs and by fail-low nodes' prior moves,
    // a continuation history four plies back, futility pruning of captures, the table's
    // move searched before the others are generated, reductions summed in fractions of a ply
    // with the history's share, and late move pruning's count scaled are candidates: at their
    // harshest they must still find forced mates, and each must change the search of a
    // middlegame position (so a screen of them measures something).
    for setting in [
        "iir_depth=2",
        "see_prune_depth=8,see_capture_margin=0,see_quiet_margin=0",
        "razor_depth=8,razor_base=0,razor_margin=0",
        "probcut_depth=5,probcut_margin=0,probcut_check_margin=1",
        "hist_prune_depth=8,hist_prune_margin=0",
        "lmr_cut=4",
        "lmr_checks=1,lmr_captures=1,lmr_tt_capture=4,lmr_deeper=1,futility_lmr=1",
        "capture_history_div=2",
        "lmr_cutoffs=1",
        "lmr_tt_pv=4",
        "lmr_parent_moves=1,lmr_cont_bonus=1",
        "check_ext_depth=64",
        "history_bonus=1024",
        "qs_checks=1",
        "rule_damping=1",
        "tt_cut_bonus=1,prior_bonus=64,cont_fourth=1,staged_picker=1,rep_root_rule=1",
        "capture_futility=1,futility_depth=32",
        "lmr_stat=1",
        "lmp_scale=1,lmp_scale_improving=1,lmp_depth=32",
    ] {
        assert_finds_the_mates(setting);
    }
    let nodes = |setting: &str| middlegame_nodes(setting, 10);
    let default = nodes("");
    for setting in [
        "iir_depth=4",
        "see_prune_depth=4",
        "razor_depth=4",
        "probcut_depth=5,probcut_margin=100",
        "probcut_check_margin=300",
        "hist_prune_depth=8",
        "lmr_cut=2",
        "lmr_captures=1",
        "lmr_tt_capture=1",
        "lmr_deeper=60",
        "capture_history_div=256",
        "lmr_cutoffs=3",
        "lmr_tt_pv=2",
        "lmr_parent_moves=6",
        "lmr_cont_bonus=1",
        "check_ext_depth=6",
        "history_bonus=64",
        "qs_checks=1",
        "rule_damping=240",
        "tt_cut_bonus=1",
        "prior_bonus=16",
        "capture_futility=90",
        "cont_fourth=1",
        "staged_picker=1",
        "lmr_stat=4000",
        "lmp_scale=50",
        "lmp_scale_improving=50",
    ] {
        assert_ne!(nodes(setting), default, "{setting} changes nothing");
    }
}

#[test]
fn the_root_rule_searches_on_through_repetitions_of_the_games_history() {
    // Rook against rook after four plies that brought the start back: without the candidate
    // `rep_root_rule`, every line that repeats one of those positions is a draw at once; with
    // it, the search goes on until the game's own third occurrence, so it searches more.
    let mut pos = Position::from_fen("3k4r/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
    for mv in ["a0a1", "i9i8", "a1a0", "i8i9"] {
        pos.make_move(chariot::board::Move::parse_iccs(mv).unwrap());
    }
    let nodes = |setting: &str| {
        let control = SearchControl::new();
        control.start(false);
        tuned(setting).search(&pos, &Limits::depth(6), &control, &mut |_| {}).nodes
    };
    assert!(nodes("rep_root_rule=1") > nodes(""), "the root rule changes nothing here");
}

#[test]
fn the_landed_reductions_are_on_by_default() {
    // Cut-node reductions, reductions of quiet checks, futility at the reduced depth and less
    // reduction at nodes once on a principal variation passed their gates and are on by
    // default: switching any off changes the search of a middlegame position.
    let nodes = |setting: &str| middlegame_nodes(setting, 9);
    let default = nodes("");
    assert_ne!(default, nodes("lmr_cut=0"), "late moves at cut nodes are reduced more");
    assert_ne!(default, nodes("lmr_checks=0"), "quiet checks are reduced");
    assert_ne!(default, nodes("futility_lmr=0"), "futility looks at the reduced depth");
    assert_ne!(default, nodes("lmr_tt_pv=0"), "nodes once on a PV are reduced less");
}

#[test]
fn the_default_search_extends_singular_moves() {
    // Singular extensions passed their SPRT and are on by default: switching them off changes
    // the search of a middlegame position that reaches their depth.
    let nodes = |setting: &str| middlegame_nodes(setting, 10);
    assert_ne!(nodes(""), nodes("se_depth=0"));
}

/// The first iteration of a search to depth 9 that reports a mate, with `setting` and the classic
/// evaluation: a hand-tuned evaluation, so that a new built-in net does not move the depths.
fn first_mate_depth(fen: &str, setting: &str) -> Option<i32> {
    let pos = Position::from_fen(fen).unwrap();
    let control = SearchControl::new();
    control.start(false);
    let mut found = None;
    let mut engine = tuned(setting);
    engine.options.eval = EvalChoice::Classic;
    engine.search(&pos, &Limits::depth(9), &control, &mut |info| {
        if let Info::Iteration(it) = info {
            if found.is_none() && it.score.abs() >= MATE_BOUND {
                found = Some(it.depth);
            }
        }
    });
    found
}

#[test]
fn singular_extensions_see_forced_mates_sooner() {
    // The defender's king has one good reply at each step: extended, the mate shows at a
    // shallower nominal depth (found by trying the positions of this crate's tests).
    for fen in ["4k4/9/n8/9/1R7/9/9/9/9/3K5 w - - 0 1", "C3ka3/4aP1P1/9/2P6/9/9/9/9/2p2n2c/3RK1pr1 w - - 0 1"]
    {
        let off = first_mate_depth(fen, "se_depth=0").expect("a mate without singular extensions");
        let on = first_mate_depth(fen, "se_depth=1").expect("a mate with singular extensions");
        assert!(on < off, "{fen}: the mate shows at depth {on} with singular extensions, {off} without");
    }
}

#[test]
fn pvs_and_mtdf_mostly_agree() {
    // Depth 10, not less: at depths 6 to 9 the two searches pick different moves of nearly equal
    // score in about a third of the bench positions (22 to 24 of 34 agree at 8 and 9 with the
    // built-in net s256p), and at depth 10 they settle on the same ones (28 of 34).
    let pvs = bench::run(10, 1, 16, Algorithm::Pvs);
    let mtdf = bench::run(10, 1, 16, Algorithm::Mtdf);
    let same = pvs.per_position.iter().zip(&mtdf.per_position).filter(|(a, b)| a.0 == b.0).count();
    assert!(same * 3 >= pvs.per_position.len() * 2, "only {same} of {} agree", pvs.per_position.len());
}

#[test]
fn a_tight_clock_is_respected() {
    // 100 ms left, no increment: must answer well inside it (30 ms overhead is reserved).
    let limits = Limits { time_left: Some(100), multipv: 1, ..Limits::default() };
    let start = Instant::now();
    let r = search(bench::BENCH_FENS[8], limits);
    let used = start.elapsed().as_millis();
    assert!(r.best.is_some());
    assert!(used < 100, "used {used} ms of 100");
    // A fixed move time is used, not exceeded by much.
    let start = Instant::now();
    search(bench::BENCH_FENS[0], Limits::movetime(300));
    let used = start.elapsed().as_millis();
    assert!((150..400).contains(&used), "movetime 300 used {used} ms");
}

#[test]
fn a_single_legal_move_is_played_at_once_on_a_clock() {
    // Black king d8 in check from the rook a8; d7 is covered by the rook a7, e8 by both the rook
    // and the red king's file: d9 is the only move.
    let fen = "9/R2k5/R8/9/9/9/9/9/9/4K4 b - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    let legal = movegen::legal_moves(&mut pos);
    assert_eq!(legal.len(), 1, "{:?}", legal.as_slice());
    let limits = Limits { time_left: Some(60_000), multipv: 1, ..Limits::default() };
    let r = search(fen, limits);
    assert_eq!(r.best, Some(legal.as_slice()[0]));
    // At once: after the first iteration, not after a share of the minute. Counted in plies and
    // nodes, which a loaded machine does not stretch (its milliseconds once passed 50).
    assert!(r.depth <= 1 && r.nodes < 1_000, "depth {} after {} nodes", r.depth, r.nodes);
    assert!(r.time_ms < 500, "{} ms", r.time_ms);
}

#[test]
fn the_checking_side_avoids_a_perpetual_check() {
    // Red's rook has checked from h9 and h8 while the black king stepped e9-e8-e9. Checking again
    // on h9 repeats the position with every red move in the cycle a check: Red would lose by the
    // perpetual-check rule, so the search must score it as lost and play something else.
    let fen = "4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let check = Move::parse_iccs("h8h9").unwrap();
    let mut pos = Position::from_fen(fen).unwrap();
    for m in ["h8h9", "e9e8", "h9h8", "e8e9"] {
        let mv = Move::parse_iccs(m).unwrap();
        assert!(movegen::is_legal(&mut pos, mv), "{m}");
        pos.make_move(mv);
    }
    let control = SearchControl::new();
    let mut only_check = Limits::depth(5);
    only_check.search_moves = vec![check];

    // Without the history the check is a fine move...
    control.start(false);
    let fresh = Engine::new(16).search(&Position::from_fen(fen).unwrap(), &only_check, &control, &mut |_| {});
    assert!(fresh.score > 200, "{}", fresh.score);
    // ...with it, the rules make it a loss,
    control.start(false);
    let repeated = Engine::new(16).search(&pos, &only_check, &control, &mut |_| {});
    assert!(repeated.score <= -(chariot::search::score::RULE_WIN - 10), "{}", repeated.score);
    // so the engine plays another move and still wins.
    control.start(false);
    let free = Engine::new(16).search(&pos, &Limits::depth(5), &control, &mut |_| {});
    assert_ne!(free.best, Some(check));
    assert!(free.score > 200, "{}", free.score);
}

/// The lines a MultiPV search showed last at each depth, by line number (exact scores only, as a
/// GUI keeps them), and its result.
fn shown_lines(moves: &str, lines: usize, depth: i32) -> (Vec<Vec<IterationInfo>>, SearchResult) {
    let pos = chariot::protocol::position_cmd::parse_position(&format!("startpos moves {moves}")).unwrap();
    let control = SearchControl::new();
    control.start(false);
    let mut shown: Vec<Vec<IterationInfo>> = vec![Vec::new(); depth as usize + 1];
    let limits = Limits { multipv: lines, ..Limits::depth(depth) };
    let result = Engine::new(64).search(&pos, &limits, &control, &mut |info| {
        if let Info::Iteration(it) = info {
            if it.bound == ScoreBound::Exact {
                let at_depth = &mut shown[it.depth as usize];
                match at_depth.iter_mut().find(|l| l.multipv == it.multipv) {
                    Some(line) => *line = it.clone(),
                    None => at_depth.push(it.clone()),
                }
            }
        }
    });
    (shown, result)
}

#[test]
fn multipv_lines_are_shown_and_played_in_score_order() {
    // Openings where, searched line by line, a later line once came out scoring above an earlier
    // one at some of these depths, and was shown below it.
    for (moves, depth) in [("h2e2", 9), ("b2e2 b9c7 b0c2 a9b9 a0b0 h9g7", 6), ("h2e2 h9g7 h0g2", 7)] {
        let (shown, result) = shown_lines(moves, 4, depth);
        for (d, lines) in shown.iter().enumerate().skip(1) {
            let numbers: Vec<usize> = lines.iter().map(|l| l.multipv).collect();
            assert_eq!(numbers, [1, 2, 3, 4], "{moves}, depth {d}: every line shown, in turn");
            let scores: Vec<i32> = lines.iter().map(|l| l.score).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{moves}, depth {d}: {scores:?}");
        }
        // The move played is the first line's.
        let first = &shown[depth as usize][0];
        assert_eq!((result.best, result.score), (first.pv.first().copied(), first.score), "{moves}");
    }
}

#[test]
fn quiet_checks_in_quiescence_see_a_mate_past_the_horizon() {
    // Mate in two by quiet rook checks: 1. Ra9+ Kd10 (d8 holds Black's advisor, the e-file
    // faces White's king) 2. Ri10#. A search of one ply (its check extended) ends in
    // quiescence after the evasion, and only quiescence that tries quiet checks finds the mate.
    let fen = "9/3k5/R2a5/9/9/9/9/9/9/4K3R w - - 0 1";
    let score = |setting: &str| search_with(&mut tuned(setting), fen, Limits::depth(1)).score;
    assert_eq!(score("qs_checks=1"), MATE - 3);
    assert!(score("qs_checks=0") < MATE - 100, "{}", score("qs_checks=0"));
}

#[test]
fn the_move_rule_damps_the_evaluation_when_asked() {
    // Red a rook against the guards with 100 plies gone without a capture: damped by (240 − h) / 240, the score
    // of a short search falls to about half (h is 100 to 104 at its leaves); undamped it stays.
    let fen = "3akab2/9/4b4/9/9/9/9/9/4R4/3K5 w - - 100 80";
    let score = |setting: &str| search_with(&mut tuned(setting), fen, Limits::depth(4)).score;
    let (plain, damped) = (score(""), score("rule_damping=240"));
    assert!(plain > 100, "a rook up: {plain}");
    assert!(damped > 0 && damped < plain * 3 / 4, "{damped} against {plain}");
    assert_eq!(score("rule_damping=0"), plain);
}
