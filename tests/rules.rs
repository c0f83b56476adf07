//! The rules module, one clause per test. Every position is hand-made; the comments give the
//! reasoning from docs/rules.md that fixes each expected value.

use chariot::board::{movegen, Color, Move, Position};
use chariot::rules::{
    find_repetition, game_result, game_verdict, insufficient_material, is_chasing_move, judge_cycle,
    search_verdict, GameResult, Termination, Verdict,
};

/// Sets up `fen` and plays `moves`, each checked for legality first.
fn play(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in moves {
        let mv = Move::parse_iccs(text).unwrap_or_else(|| panic!("bad move text {text}"));
        assert!(movegen::is_legal(&mut pos, mv), "{text} is not legal in {}", pos.to_fen());
        pos.make_move(mv);
    }
    pos
}

/// `cycle` repeated `times` times.
fn repeated<'a>(cycle: &[&'a str], times: usize) -> Vec<&'a str> {
    cycle.iter().copied().cycle().take(cycle.len() * times).collect()
}

/// For each move of `moves` from `fen`: (the move gave check, it was a chasing move).
fn move_kinds(fen: &str, moves: &[&str]) -> Vec<(bool, bool)> {
    let mut pos = Position::from_fen(fen).unwrap();
    moves
        .iter()
        .map(|text| {
            let mv = Move::parse_iccs(text).unwrap();
            assert!(movegen::is_legal(&mut pos, mv), "{text} is not legal");
            let chase = is_chasing_move(&pos, mv);
            pos.make_move(mv);
            (pos.is_check(), chase)
        })
        .collect()
}

/// Plays a four-ply cycle three times and returns the game verdict at the third occurrence,
/// after checking that the second occurrence was not yet a game verdict.
fn verdict_after_three(fen: &str, cycle: &[&str; 4]) -> Verdict {
    let early = play(fen, &repeated(cycle, 2)[..7]);
    assert_eq!(game_verdict(&early), None, "no position has occurred three times after 7 plies");
    let pos = play(fen, &repeated(cycle, 2));
    game_verdict(&pos).expect("the start position occurs for the third time after 8 plies")
}

fn result(winner: Option<Color>, termination: Termination) -> Option<GameResult> {
    Some(GameResult { winner, termination })
}

// ----- rule 1: no legal move -----

#[test]
fn checkmate_loses() {
    // Ra7-a9 checks along rank 9; e8 is covered by the rook on b8, d9 and f9 by the rook on a9
    // (d9 also by the flying general from d0).
    let fen = "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(game_result(&play(fen, &[])), None);
    let pos = play(fen, &["a7a9"]);
    assert!(pos.is_check());
    assert_eq!(game_result(&pos), result(Some(Color::Red), Termination::Checkmate));
}

#[test]
fn stalemate_loses() {
    // After Ra7-a8 the black king on e9 is not attacked, but d9 faces the red king, f9 is on
    // the rook f1's file and e8 on the rook a8's rank: no legal move, so Black loses.
    let pos = play("4k4/9/R8/9/9/9/9/9/5R3/3K5 w - - 0 1", &["a7a8"]);
    assert!(!pos.is_check());
    assert_eq!(game_result(&pos), result(Some(Color::Red), Termination::Stalemate));
}

// ----- rule 2: repetition -----

#[test]
fn perpetual_check_by_red_loses() {
    // The red rook checks on rank 9 then rank 8 while the black king steps e9-e8-e9.
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["a8a9", "e9e8", "a9a8", "e8e9"];
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualCheck { loser: Color::Red });
    let pos = play(fen, &repeated(&cycle, 2));
    assert_eq!(game_result(&pos), result(Some(Color::Black), Termination::PerpetualCheck));
}

#[test]
fn perpetual_check_by_black_loses() {
    // The black rook checks on rank 0 then rank 1 while the red king steps e0-e1-e0.
    let fen = "3k5/9/9/9/9/9/8P/9/r8/4K4 b - - 0 1";
    let cycle = ["a1a0", "e0e1", "a0a1", "e1e0"];
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualCheck { loser: Color::Black });
    let pos = play(fen, &repeated(&cycle, 2));
    assert_eq!(game_result(&pos), result(Some(Color::Red), Termination::PerpetualCheck));
}

#[test]
fn mutual_perpetual_check_is_a_draw() {
    // Red cannon a8 aims along rank 8 at the king f8; black cannon d9 down the d-file at the
    // king d0. The red horse (d8/c6) and the black horse (e8/d6) are the screens: each horse
    // move leaves exactly one screen on the enemy's line and two (or none) on its own.
    let fen = "3c5/C2Nnk3/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["d8c6", "e8d6", "c6d8", "d6e8"];
    assert!(move_kinds(fen, &cycle).iter().all(|&(check, _)| check));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    let pos = play(fen, &repeated(&cycle, 2));
    assert_eq!(game_result(&pos), result(None, Termination::Repetition));
}

#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    // The red rook (c5/a5) follows the lone black horse (a7/c8), newly attacking it each time;
    // nothing black can retake on a7 or c8. The horse never attacks the rook.
    let fen = "4k4/9/n8/9/2R6/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["c5a5", "a7c8", "a5c5", "c8a7"];
    assert_eq!(move_kinds(fen, &cycle), [(false, true), (false, false), (false, true), (false, false)]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
    let pos = play(fen, &repeated(&cycle, 2));
    assert_eq!(game_result(&pos), result(Some(Color::Black), Termination::PerpetualChase));
}

#[test]
fn chasing_a_protected_piece_is_not_a_chase() {
    // As above, but the black rook a8 guards both a7 and c8 (via b8). When the horse leaves a7
    // the black rook sees the red rook on a5, which the pawn a4 guards, so that is no chase
    // either (a rook on a rook needs the victim unprotected).
    let fen = "4k4/r8/n8/9/2R6/P8/9/9/9/3K5 w - - 0 1";
    let cycle = ["c5a5", "a7c8", "a5c5", "c8a7"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn horse_chasing_a_protected_rook_is_a_chase() {
    // Black rooks a9 and a6 guard each other along the a-file. The red horse on c5 attacks a6,
    // on b7 attacks a9: each horse move attacks the other rook anew. Black only moves its king.
    let fen = "r3k4/9/9/r8/2N6/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["c5b7", "e9e8", "b7c5", "e8e9"];
    assert_eq!(move_kinds(fen, &cycle), [(false, true), (false, false), (false, true), (false, false)]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
}

#[test]
fn cannon_chasing_a_protected_rook_is_a_chase() {
    // Cannon c0-c6: on c6 it sees the pawn b6 as its screen and the rook a6 behind it, which it
    // did not attack from c0. The rook a9 guards a6, but a rook threatened by a cannon is chased
    // anyway. With a horse on a6 instead (also guarded by a9), the same move is no chase.
    let rook = Position::from_fen("r3k4/9/9/rp7/9/9/9/9/9/2CK5 w - - 0 1").unwrap();
    assert!(is_chasing_move(&rook, Move::parse_iccs("c0c6").unwrap()));
    let horse = Position::from_fen("r3k4/9/9/np7/9/9/9/9/9/2CK5 w - - 0 1").unwrap();
    assert!(!is_chasing_move(&horse, Move::parse_iccs("c0c6").unwrap()));
}

#[test]
fn pawn_threats_are_not_chases() {
    // The red pawn (crossed) swings c6-b6-c6 attacking the unprotected horses c7 and b7 in
    // turn. A rook making the same move is a chase, so only the pawn rule makes the difference.
    let fen = "4k4/9/1nn6/2P6/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["c6b6", "e9e8", "b6c6", "e8e9"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    let rook = Position::from_fen("4k4/9/1nn6/2R6/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    assert!(is_chasing_move(&rook, Move::parse_iccs("c6b6").unwrap()));
}

#[test]
fn king_threats_are_not_chases() {
    // The red king steps e1-e2: on e1 it attacks the cannon d1, on e2 the cannon f2. Neither
    // cannon is protected and both captures are legal (the pawn d6 blocks the d-file), yet a
    // king's threat is no chase.
    let fen = "3k5/9/9/3p5/9/9/9/5c3/3cK4/9 w - - 0 1";
    let cycle = ["e1e2", "d9d8", "e2e1", "d8d9"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn threats_to_an_uncrossed_pawn_are_not_chases() {
    // The red rook swings a4-c4 attacking the black pawns a6 and c6 (on their own side) in turn.
    let fen = "4k4/9/9/p1p6/9/R8/9/9/9/3K5 w - - 0 1";
    let cycle = ["a4c4", "e9e8", "c4a4", "e8e9"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn threats_to_a_crossed_pawn_are_chases() {
    // The same swing a2-c2 against black pawns a4 and c4, which have crossed the river and do
    // not guard each other (they guard b4, not a4 or c4).
    let fen = "4k4/9/9/9/9/p1p6/9/R8/9/3K5 w - - 0 1";
    let cycle = ["a2c2", "e9e8", "c2a2", "e8e9"];
    assert_eq!(move_kinds(fen, &cycle), [(false, true), (false, false), (false, true), (false, false)]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
}

#[test]
fn a_pinned_attacker_is_not_chasing() {
    // The red rook on e3/e4 is all that stands between the black rook e8 and the red king e0.
    // Stepping along the e-file it newly attacks the lone horses b3 and h4 in turn, but taking
    // either would leave the e-file and expose the king.
    let fen = "3k5/4r4/9/9/9/7n1/1n2R4/9/9/4K4 w - - 0 1";
    let cycle = ["e3e4", "d9d8", "e4e3", "d8d9"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    // With the black rook off the e-file the same rook move is a chase.
    let free = Position::from_fen("3k5/r8/9/9/9/7n1/1n2R4/9/9/4K4 w - - 0 1").unwrap();
    assert!(is_chasing_move(&free, Move::parse_iccs("e3e4").unwrap()));
}

#[test]
fn mutual_perpetual_chase_is_a_draw() {
    // Red horse c5/b7 against the black rooks a6/a9; black horse g4/h2 against the red rooks
    // i3/i0 (the same pattern, turned around). Every move of both sides attacks a rook anew.
    let fen = "r3k4/9/9/r8/2N6/6n2/8R/9/9/3K4R w - - 0 1";
    let cycle = ["c5b7", "g4h2", "b7c5", "h2g4"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, true)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn plain_repetition_is_a_draw() {
    // Both rooks shuffle along their edge files, attacking nothing and never checking.
    let fen = "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let cycle = ["a0a1", "i9i8", "a1a0", "i8i9"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    let pos = play(fen, &repeated(&cycle, 2));
    assert_eq!(game_result(&pos), result(None, Termination::Repetition));
}

#[test]
fn perpetual_check_beats_perpetual_chase() {
    // The red cannon e5 aims up the e-file; the red horse (e8/g7) and the black rook (e7/b7)
    // are the screens. Each horse move leaves one screen: check. Each rook move takes the file
    // back to zero or two screens and attacks something anew: on b7 the unprotected horse b3
    // (and the horse g7), on e7 the unprotected cannon e5. Red checks perpetually, Black chases
    // perpetually: the checker loses.
    let fen = "4k4/4N4/4r4/9/4C4/9/1N7/9/9/3K5 w - - 0 1";
    let cycle = ["e8g7", "e7b7", "g7e8", "b7e7"];
    let kinds = move_kinds(fen, &cycle);
    assert!(kinds[0].0 && kinds[2].0, "red checks");
    assert!(kinds[1] == (false, true) && kinds[3] == (false, true), "black chases");
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualCheck { loser: Color::Red });
}

#[test]
fn search_verdict_comes_at_the_first_repetition() {
    // Four plies of the red perpetual check bring the start position back once.
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let pos = play(fen, &["a8a9", "e9e8", "a9a8", "e8e9"]);
    assert_eq!(game_verdict(&pos), None);
    assert_eq!(search_verdict(&pos), Some(Verdict::PerpetualCheck { loser: Color::Red }));
    assert_eq!(search_verdict(&play(fen, &["a8a9", "e9e8", "a9a8"])), None);
}

#[test]
fn verdict_losers() {
    assert_eq!(Verdict::Draw.loser(), None);
    assert_eq!(Verdict::PerpetualCheck { loser: Color::Black }.loser(), Some(Color::Black));
    assert_eq!(Verdict::PerpetualChase { loser: Color::Red }.loser(), Some(Color::Red));
}

// ----- find_repetition -----

const SHUFFLE_FEN: &str = "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
const SHUFFLE: [&str; 4] = ["a0a1", "i9i8", "a1a0", "i8i9"];

#[test]
fn find_repetition_counts_occurrences() {
    let once = play(SHUFFLE_FEN, &SHUFFLE);
    // Now and history index 0 hold the start position: two occurrences.
    assert_eq!(find_repetition(&once, 2), Some(0));
    assert_eq!(find_repetition(&once, 3), None);
    let twice = play(SHUFFLE_FEN, &repeated(&SHUFFLE, 2));
    // Now, index 4 and index 0: the two latest occurrences start at 4, all three at 0.
    assert_eq!(find_repetition(&twice, 2), Some(4));
    assert_eq!(find_repetition(&twice, 3), Some(0));
    assert_eq!(find_repetition(&twice, 4), None);
    assert_eq!(find_repetition(&twice, 1), None, "one occurrence is no repetition");
    // Three plies in, the side to move differs from every earlier matching placement.
    assert_eq!(find_repetition(&play(SHUFFLE_FEN, &SHUFFLE[..3]), 2), None);
}

#[test]
fn find_repetition_starts_after_the_last_capture() {
    // Ra0xa1 takes a pawn (history index 0); the rooks then shuffle until the position right
    // after the capture (index 1) comes back.
    let fen = "4k3r/9/9/9/9/9/9/9/p8/R2K5 w - - 0 1";
    let pos = play(fen, &["a0a1", "i9i8", "a1a0", "i8i9", "a0a1"]);
    assert!(pos.history()[0].captured.is_piece());
    assert_eq!(find_repetition(&pos, 2), Some(1));
    assert_eq!(find_repetition(&pos, 3), None);
}

#[test]
fn find_repetition_does_not_cross_a_null_move() {
    let mut pos = Position::from_fen(SHUFFLE_FEN).unwrap();
    let start_key = pos.key();
    pos.make_move(Move::parse_iccs("a0a1").unwrap());
    pos.make_null_move();
    pos.make_move(Move::parse_iccs("a1a0").unwrap());
    pos.make_null_move();
    // Same placement and side as the start, but only across null moves.
    assert_eq!(pos.key(), start_key);
    assert_eq!(find_repetition(&pos, 2), None);
    // A repetition after the last null move is still found.
    for text in SHUFFLE {
        pos.make_move(Move::parse_iccs(text).unwrap());
    }
    assert_eq!(find_repetition(&pos, 2), Some(4));
}

#[test]
fn an_empty_cycle_is_a_draw() {
    let pos = play(SHUFFLE_FEN, &SHUFFLE);
    assert_eq!(judge_cycle(&pos, 4), Verdict::Draw);
    assert_eq!(judge_cycle(&pos, 99), Verdict::Draw);
}

// ----- rule 3: 120 plies without a capture -----

#[test]
fn move_limit_is_120_plies() {
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 60";
    let at_119 = play(fen, &["a0a1"]);
    assert_eq!(at_119.halfmove_clock(), 119);
    assert_eq!(game_result(&at_119), None);
    let at_120 = play(fen, &["a0a1", "e9e8"]);
    assert_eq!(at_120.halfmove_clock(), 120);
    assert_eq!(game_result(&at_120), result(None, Termination::MoveLimit));
}

#[test]
fn no_legal_move_beats_the_move_limit() {
    // The stalemate above, reached on the 120th ply without a capture.
    let pos = play("4k4/9/R8/9/9/9/9/9/5R3/3K5 w - - 119 80", &["a7a8"]);
    assert_eq!(pos.halfmove_clock(), 120);
    assert_eq!(game_result(&pos), result(Some(Color::Red), Termination::Stalemate));
}

// ----- rule 4: material -----

#[test]
fn kings_advisors_and_elephants_cannot_win() {
    let pos = play("3aka3/9/4b4/9/9/9/9/4B4/9/3AK4 w - - 0 1", &[]);
    assert!(insufficient_material(&pos));
    assert_eq!(game_result(&pos), result(None, Termination::InsufficientMaterial));
}

#[test]
fn one_pawn_of_either_side_is_enough_material() {
    for fen in ["3aka3/9/4b4/9/9/9/P8/4B4/9/3AK4 w - - 0 1", "3aka3/9/4b4/p8/9/9/9/4B4/9/3AK4 w - - 0 1"] {
        let pos = play(fen, &[]);
        assert!(!insufficient_material(&pos), "{fen}");
        assert_eq!(game_result(&pos), None, "{fen}");
    }
}

// ----- presentation -----

#[test]
fn results_print_for_people_and_pgn() {
    let mate = GameResult { winner: Some(Color::Red), termination: Termination::Checkmate };
    assert_eq!(mate.to_string(), "1-0 (checkmate)");
    let chase = GameResult { winner: Some(Color::Black), termination: Termination::PerpetualChase };
    assert_eq!(chase.pgn_result(), "0-1");
    assert_eq!(chase.to_string(), "0-1 (perpetual chase)");
    let draw = GameResult { winner: None, termination: Termination::Repetition };
    assert_eq!(draw.to_string(), "1/2-1/2 (repetition)");
    assert_eq!(Termination::PerpetualCheck.to_string(), "perpetual check");
}
