//! The rules module, one clause per test. Every position is hand-made; the comments give the
//! reasoning from `docs/rules.md` ("How a game ends" and "What counts as a chasing move") that fixes each
//! expected value. Every move sequence was also checked against Fairy-Stockfish's move generator.

use chariot::board::{movegen, Color, Move, Position};
use chariot::rules::{
    chases, explain_cycle, find_repetition, game_cycle, game_result, game_verdict, insufficient_material,
    is_chasing_move, judge_cycle, search_verdict, GameResult, Termination, Verdict,
};

/// Sets up `fen` and plays `moves`, each checked for legality first.
fn play(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    play_on(&mut pos, moves.iter().map(|text| Move::parse_iccs(text).expect("ICCS move text")));
    pos
}

fn play_on(pos: &mut Position, moves: impl IntoIterator<Item = Move>) {
    for mv in moves {
        assert!(movegen::is_legal(pos, mv), "{mv} is not legal in {}", pos.to_fen());
        pos.make_move(mv);
    }
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

/// For each move of `moves` from `fen`: its chases written `attacker>victim` (squares after the
/// move), in generation order.
fn chases_along(fen: &str, moves: &[&str]) -> Vec<Vec<String>> {
    let mut pos = Position::from_fen(fen).unwrap();
    moves
        .iter()
        .map(|text| {
            let mv = Move::parse_iccs(text).unwrap();
            let found =
                chases(&pos, mv).chases.iter().map(|c| format!("{}>{}", c.attacker, c.victim)).collect();
            play_on(&mut pos, [mv]);
            found
        })
        .collect()
}

/// For each move of `moves` from `fen`: its offers to exchange written `attacker>victim`.
fn offers_along(fen: &str, moves: &[&str]) -> Vec<Vec<String>> {
    let mut pos = Position::from_fen(fen).unwrap();
    moves
        .iter()
        .map(|text| {
            let mv = Move::parse_iccs(text).unwrap();
            let found =
                chases(&pos, mv).offers.iter().map(|c| format!("{}>{}", c.attacker, c.victim)).collect();
            play_on(&mut pos, [mv]);
            found
        })
        .collect()
}

/// The verdict with the colours swapped.
fn colours_swapped(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Draw => Verdict::Draw,
        Verdict::PerpetualCheck { loser } => Verdict::PerpetualCheck { loser: loser.opponent() },
        Verdict::PerpetualChase { loser } => Verdict::PerpetualChase { loser: loser.opponent() },
    }
}

/// Plays a four-ply cycle three times and returns the game verdict at the third occurrence,
/// after checking that the second occurrence was not yet a game verdict. Also checks that the
/// same game seen from the other side (colours swapped, board flipped) gets the mirrored
/// verdict and the game mirrored left to right the same one, and that `explain_cycle` agrees
/// with `judge_cycle`.
fn verdict_after_three(fen: &str, cycle: &[&str; 4]) -> Verdict {
    let early = play(fen, &repeated(cycle, 2)[..7]);
    assert_eq!(game_verdict(&early), None, "no position has occurred three times after 7 plies");
    let pos = play(fen, &repeated(cycle, 2));
    let verdict = game_verdict(&pos).expect("the start position occurs for the third time after 8 plies");
    let report = game_cycle(&pos).expect("the cycle is explained too");
    assert_eq!((report.start, report.moves.len(), report.verdict), (0, 8, verdict));
    assert_eq!(explain_cycle(&pos, 4).verdict, judge_cycle(&pos, 4), "the last cycle alone");

    let moves: Vec<Move> = repeated(cycle, 2).iter().map(|t| Move::parse_iccs(t).unwrap()).collect();
    let start = Position::from_fen(fen).unwrap();
    let mut flipped = start.color_flipped();
    play_on(&mut flipped, moves.iter().map(|m| m.flip_ranks()));
    assert_eq!(game_verdict(&flipped), Some(colours_swapped(verdict)), "seen from the other side");
    let mut mirrored = start.files_mirrored();
    play_on(&mut mirrored, moves.iter().map(|m| m.mirror_files()));
    assert_eq!(game_verdict(&mirrored), Some(verdict), "mirrored left to right");
    verdict
}

fn result(winner: Option<Color>, termination: Termination) -> Option<GameResult> {
    Some(GameResult { winner, termination })
}

/// Whether `mv` chases in the position `fen`.
fn chases_in(fen: &str, mv: &str) -> bool {
    is_chasing_move(&Position::from_fen(fen).unwrap(), Move::parse_iccs(mv).unwrap())
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

// ----- rule 2: perpetual chase -----

#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    // The red rook (c5/a5) follows the lone black horse (a7/c8), newly attacking it each time;
    // nothing black can retake on a7 or c8. The horse never attacks the rook. The horse is one
    // piece on two squares: followed as it moves, it is chased by every red move.
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
    // the black rook sees the red rook on a5, which the pawn a4 guards and which could take the
    // black rook back (an offer to exchange), so that is no chase either.
    let fen = "4k4/r8/n8/9/2R6/P8/9/9/9/3K5 w - - 0 1";
    let cycle = ["c5a5", "a7c8", "a5c5", "c8a7"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn a_horse_attacking_two_rooks_in_turn_is_no_perpetual_chase() {
    // Black rooks a9 and a6 guard each other along the a-file. The red horse on c5 attacks a6,
    // on b7 attacks a9: each horse move is a chasing move (a horse on a rook counts even when
    // the rook is protected), but one piece attacking two pieces in turn is allowed: no single
    // black piece is chased by every red move. Black only moves its king.
    let fen = "r3k4/9/9/r8/2N6/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["c5b7", "e9e8", "b7c5", "e8e9"];
    assert_eq!(chases_along(fen, &cycle), [vec!["b7>a9"], vec![], vec!["c5>a6"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    assert_eq!(game_result(&play(fen, &repeated(&cycle, 2))), result(None, Termination::Repetition));
}

#[test]
fn a_rook_attacking_two_crossed_pawns_in_turn_is_no_perpetual_chase() {
    // The red rook swings a2-c2 against the black pawns a4 and c4, which have crossed the river
    // and do not guard each other (they guard b4, not a4 or c4): each swing chases one pawn, but
    // never the same one twice, so there is no perpetual chase.
    let fen = "4k4/9/9/9/9/p1p6/9/R8/9/3K5 w - - 0 1";
    let cycle = ["a2c2", "e9e8", "c2a2", "e8e9"];
    assert_eq!(chases_along(fen, &cycle), [vec!["c2>c4"], vec![], vec!["a2>a4"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn chasing_a_crossed_pawn_perpetually_loses() {
    // The black pawn b4 (across the river, so it may be chased) steps b4-a4-b4 and the red rook
    // follows on rank 2, newly attacking it on each file. Nothing guards the pawn, and a pawn
    // only attacks forward and sideways, never the rook two ranks behind it.
    let fen = "4k4/9/9/9/9/1p7/9/R8/9/3K5 w - - 0 1";
    let cycle = ["a2b2", "b4a4", "b2a2", "a4b4"];
    assert_eq!(chases_along(fen, &cycle), [vec!["b2>b4"], vec![], vec!["a2>a4"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
}

#[test]
fn two_attackers_taking_turns_on_one_victim_is_a_perpetual_chase() {
    // The lone black horse c7 is covered by the red rook c2 up the c-file and the red rook h7
    // along rank 7. The red horse hops c5-d7-c5: on c5 it blocks the c-file, on d7 rank 7. Each
    // hop uncovers the other rook's attack on c7, a new attack by a different piece each time,
    // but always on the same unprotected horse: a perpetual chase. The black king steps d9-d8.
    let fen = "3k5/9/2n4R1/9/2N6/9/9/2R6/9/4K4 w - - 0 1";
    let cycle = ["c5d7", "d9d8", "d7c5", "d8d9"];
    assert_eq!(chases_along(fen, &cycle), [vec!["c2>c7"], vec![], vec!["h7>c7"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
}

#[test]
fn chasing_one_piece_loses_against_attacks_on_different_pieces() {
    // The red rook follows the black horse a7/c8 as in the first chase test. This time the
    // horse's moves attack something too: from c8 the unprotected red cannon d6, from a7 the
    // unprotected red cannon b9, a different piece each time. Red chases one piece with every
    // move, Black does not: Red loses (it is no mutual chase).
    let fen = "1C2k4/9/n8/3C5/2R6/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["c5a5", "a7c8", "a5c5", "c8a7"];
    assert_eq!(chases_along(fen, &cycle), [vec!["a5>a7"], vec!["c8>d6"], vec!["c5>c8"], vec!["a7>b9"]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
}

#[test]
fn mutual_perpetual_chase_is_a_draw() {
    // Two copies of the two-attacker chase. Red: rooks c2 and e7 take turns on the black horse
    // c7 as the red horse hops c5-d7. Black: rooks g6 and i3 take turns on the red horse g3 as
    // the black horse hops g5-h3. Both horses are unprotected, and each side chases the same
    // piece with every move: both chase perpetually, a draw.
    let fen = "5k3/9/2n1R4/6r2/2N3n2/9/6N1r/2R6/9/3K5 w - - 0 1";
    let cycle = ["c5d7", "g5h3", "d7c5", "h3g5"];
    assert_eq!(chases_along(fen, &cycle), [vec!["c2>c7"], vec!["g6>g3"], vec!["e7>c7"], vec!["i3>g3"]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    assert_eq!(game_result(&play(fen, &repeated(&cycle, 2))), result(None, Termination::Repetition));
}

#[test]
fn a_check_is_not_a_chase() {
    // The red rook alternates between a5, where it attacks the lone black horse a7, and e5,
    // where it checks the king e9 (which steps aside to f9 and back). Every move checks or
    // chases, but not every move checks, and the check does not chase the horse: neither
    // perpetual check nor perpetual chase.
    let fen = "4k4/9/n8/9/R8/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["a5e5", "e9f9", "e5a5", "f9e9"];
    assert_eq!(move_kinds(fen, &cycle), [(true, false), (false, false), (false, true), (false, false)]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn perpetual_check_beats_perpetual_chase() {
    // The red rook checks from a9 and a8 in turn; the black king answers e9-e8-e9. Each king
    // move uncovers a black cannon's attack on the rook: leaving e9 opens rank 9 for the cannon
    // i9 (screen: the advisor f9), leaving e8 opens rank 8 for the cannon i8 (screen: the horse
    // g8). A king's own threats are not chases, but the cannons' are, and a cannon on a rook
    // counts: Black chases the red rook with every move while Red checks with every move. The
    // checker loses.
    let fen = "4ka2c/R5n1c/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["a8a9", "e9e8", "a9a8", "e8e9"];
    assert_eq!(move_kinds(fen, &cycle), [(true, false), (false, true), (true, false), (false, true)]);
    assert_eq!(chases_along(fen, &cycle), [vec![], vec!["i9>a9"], vec![], vec!["i8>a8"]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualCheck { loser: Color::Red });
    let report = game_cycle(&play(fen, &repeated(&cycle, 2))).unwrap();
    assert_eq!(report.checked, [true, false], "Red checked with every move, Black with none");
    assert!(report.chased[Color::Red.index()].is_empty(), "Red checked; it did not chase");
    assert_eq!(report.chased[Color::Black.index()].slots().count(), 1, "Black chased one piece");
}

// ----- what a chasing move is -----

#[test]
fn horse_and_cannon_on_a_protected_rook_chase() {
    // Cannon c0-c6: on c6 it sees the pawn b6 as its screen and the rook a6 behind it, which it
    // did not attack from c0. The rook a9 guards a6, but a rook threatened by a cannon is chased
    // anyway. With a horse on a6 instead (also guarded by a9), the same move is no chase.
    assert!(chases_in("r3k4/9/9/rp7/9/9/9/9/9/2CK5 w - - 0 1", "c0c6"));
    assert!(!chases_in("r3k4/9/9/np7/9/9/9/9/9/2CK5 w - - 0 1", "c0c6"));
    // Horse d3-c5 attacks the rook a6 (guarded by a9); the same attack on a horse is no chase.
    assert!(chases_in("r3k4/9/9/r8/9/9/3N5/9/9/3K5 w - - 0 1", "d3c5"));
    assert!(!chases_in("r3k4/9/9/n8/9/9/3N5/9/9/3K5 w - - 0 1", "d3c5"));
}

#[test]
fn an_elephant_on_a_protected_rook_horse_or_cannon_chases() {
    // Elephant c0-e2 newly attacks g4 (eye f3 empty), where a black piece stands guarded by the
    // rook g9. A rook, horse or cannon is greater than an elephant: chased even though guarded.
    // A crossed pawn is not greater, and it is guarded: no chase.
    for (victim, chased) in [('r', true), ('n', true), ('c', true), ('p', false)] {
        let fen = format!("4k1r2/9/9/9/9/6{victim}2/9/9/9/2BK5 w - - 0 1");
        assert_eq!(chases_in(&fen, "c0e2"), chased, "{victim}");
        // Without the guard on g9 each of them, the pawn too, is chased.
        let unguarded = format!("4k4/9/9/9/9/6{victim}2/9/9/9/2BK5 w - - 0 1");
        assert!(chases_in(&unguarded, "c0e2"), "{victim} unguarded");
    }
}

#[test]
fn an_advisor_on_a_protected_rook_horse_or_cannon_chases() {
    // Advisor f0-e1 newly attacks f2, where a black piece stands guarded by the rook f9 down the
    // open f-file. Rook, horse and cannon are chased although guarded; a crossed pawn is not.
    for (victim, chased) in [('r', true), ('n', true), ('c', true), ('p', false)] {
        let fen = format!("4kr3/9/9/9/9/9/9/5{victim}3/9/3K1A3 w - - 0 1");
        assert_eq!(chases_in(&fen, "f0e1"), chased, "{victim}");
    }
}

#[test]
fn an_elephant_taking_turns_with_another_on_a_protected_rook_is_a_perpetual_chase() {
    // The black rook e2 is guarded by the rook e7 down the e-file. The red elephants c0 and g0
    // both aim at e2 through their eyes d1 and f1; the red rook shuttles d1-f1, blocking one
    // eye and opening the other, so each move uncovers a new elephant attack on the same rook.
    // Guarded or not, a rook attacked by an elephant is chased: Red chases perpetually.
    let fen = "4k4/9/4r4/9/9/9/9/4r4/3R5/2BK2B2 w - - 0 1";
    let cycle = ["d1f1", "e9e8", "f1d1", "e8e9"];
    assert_eq!(chases_along(fen, &cycle), [vec!["c0>e2"], vec![], vec!["g0>e2"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
}

#[test]
fn a_rook_following_a_rook_that_can_take_it_back_offers_an_exchange() {
    // The red rook follows the lone black rook a7/b7 along rank 5, attacking it anew each time,
    // and nothing guards the black rook. But a rook attacked by a rook attacks it back: the
    // black rook could take the red one, so this is an offer to exchange, not a chase.
    let fen = "4k4/9/r8/9/1R7/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["b5a5", "a7b7", "a5b5", "b7a7"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(offers_along(fen, &cycle), [vec!["a5>a7"], vec![], vec!["b5>b7"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn a_rook_that_cannot_legally_take_back_is_chased() {
    // Rook b3-b7 attacks the black rook e7, which could take back on b7 geometrically, but it
    // is pinned: the red rook e3 would then see the king e9. It cannot legally capture in
    // return, so no exchange is offered, and nothing guards e7: a chase. With the pinning rook
    // on h3 instead, the black rook could take back: no chase.
    assert_eq!(offers_along("4k4/9/4r4/9/9/9/1R2R4/9/9/3K5 w - - 0 1", &["b3b7"]), [Vec::<String>::new()]);
    assert!(chases_in("4k4/9/4r4/9/9/9/1R2R4/9/9/3K5 w - - 0 1", "b3b7"));
    assert!(!chases_in("4k4/9/4r4/9/9/9/1R5R1/9/9/3K5 w - - 0 1", "b3b7"));
    assert_eq!(offers_along("4k4/9/4r4/9/9/9/1R5R1/9/9/3K5 w - - 0 1", &["b3b7"]), [vec!["b7>e7"]]);
}

#[test]
fn a_cannon_following_a_cannon_offers_an_exchange() {
    // The red cannon b3/a3 follows the lone black cannon a7/b7 with the red pawns a5 and b5 as
    // screens. Both cannons see each other over the same screen, so the black cannon could take
    // back: an offer to exchange each time, no chase. A black horse on a7 in the cannon's place
    // is chased by the same move.
    let fen = "4k4/9/c8/9/PP7/9/1C7/9/9/3K5 w - - 0 1";
    let cycle = ["b3a3", "a7b7", "a3b3", "b7a7"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(offers_along(fen, &cycle), [vec!["a3>a7"], vec![], vec!["b3>b7"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
    assert!(chases_in("4k4/9/n8/9/PP7/9/1C7/9/9/3K5 w - - 0 1", "b3a3"));
}

#[test]
fn a_horse_following_a_horse_with_its_leg_free_offers_an_exchange() {
    // The red horse hops d6-b5-d6 after the black horse a7/c8: from b5 it attacks a7, from d6
    // it attacks c8, anew each time, and nothing guards the black horse. The black horse's own
    // legs toward the red one (a6 from a7, c7 from c8) are free, so it could take back: an
    // offer to exchange, no chase.
    let fen = "4k4/9/n8/3N5/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["d6b5", "a7c8", "b5d6", "c8a7"];
    assert!(move_kinds(fen, &cycle).iter().all(|&kinds| kinds == (false, false)));
    assert_eq!(offers_along(fen, &cycle), [vec!["b5>a7"], vec![], vec!["d6>c8"], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::Draw);
}

#[test]
fn a_horse_following_a_horse_with_its_leg_blocked_chases() {
    // The same hops, with the black horse's legs a6 (a black pawn) and c7 (a red pawn)
    // blocked. The red horse's own legs (b6, d7) stay free, so it attacks as before, but the
    // black horse cannot take back: each hop chases the unprotected horse, and Red loses.
    let fen = "4k4/9/n1P6/p2N5/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["d6b5", "a7c8", "b5d6", "c8a7"];
    assert_eq!(chases_along(fen, &cycle), [vec!["b5>a7"], vec![], vec!["d6>c8"], vec![]]);
    assert_eq!(offers_along(fen, &cycle), [Vec::<String>::new(), vec![], vec![], vec![]]);
    assert_eq!(verdict_after_three(fen, &cycle), Verdict::PerpetualChase { loser: Color::Red });
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
fn the_repetition_verdict_comes_before_the_move_limit() {
    // The perpetual chase of the lone horse, started 112 plies after the last capture: the
    // third occurrence falls on the 120th ply, and the repetition verdict comes first.
    let fen = "4k4/9/n8/9/2R6/9/9/9/9/3K5 w - - 112 60";
    let pos = play(fen, &repeated(&["c5a5", "a7c8", "a5c5", "c8a7"], 2));
    assert_eq!(pos.halfmove_clock(), 120);
    assert_eq!(game_result(&pos), result(Some(Color::Black), Termination::PerpetualChase));
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
