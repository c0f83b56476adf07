//! Relations on hand-built positions whose attackers and protectors are known.

use super::*;
use crate::eval::classic::weights::MATERIAL;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn squares(names: &[&str]) -> Vec<Square> {
    let mut v: Vec<Square> = names.iter().map(|n| sq(n)).collect();
    v.sort_by_key(|s| s.index());
    v
}

/// The relations of the piece on `on` in `fen`.
fn of(fen: &str, on: &str) -> PieceRelations {
    let pos = Position::from_fen(fen).unwrap();
    relations(&pos).into_iter().find(|r| r.square == sq(on)).expect("a piece stands there")
}

const HORSE: i32 = MATERIAL[3].mg;
const ROOK: i32 = MATERIAL[4].mg;

#[test]
fn a_horse_attacks_over_a_free_leg_only() {
    let free = of("3k5/9/9/9/3r5/9/2N6/9/9/4K4 w - - 0 1", "d5");
    assert_eq!(free.attackers, squares(&["c3"]));
    assert!(free.protectors.is_empty());
    assert_eq!(free.exchange, Some(ROOK));
    assert!(free.hangs());
    // A pawn of its own on c4 hobbles the horse: the rook is safe.
    let hobbled = of("3k5/9/9/9/3r5/2P6/2N6/9/9/4K4 w - - 0 1", "d5");
    assert!(hobbled.attackers.is_empty());
    assert_eq!(hobbled.exchange, None);
    assert!(!hobbled.hangs());
}

#[test]
fn a_cannon_attacks_over_a_screen_and_the_screen_is_not_attacked() {
    let fen = "3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 w - - 0 1";
    let rook = of(fen, "e7");
    assert_eq!(rook.attackers, squares(&["e2"]));
    assert!(rook.protectors.is_empty());
    assert_eq!(rook.exchange, Some(ROOK));
    let screen = of(fen, "e5");
    assert!(screen.attackers.is_empty(), "a cannon never takes its screen");
    assert_eq!(screen.protectors, squares(&["e7"]));
    // Without the screen the cannon attacks nothing on the file; the rook attacks the cannon.
    let open = "3k5/9/4r4/9/9/9/9/4C4/9/5K3 w - - 0 1";
    assert!(of(open, "e7").attackers.is_empty());
    assert_eq!(of(open, "e2").attackers, squares(&["e7"]));
}

#[test]
fn an_elephant_protects_and_attacks_over_a_free_eye_only() {
    let free = of("3k5/9/9/9/9/6B2/9/4n4/9/4K4 w - - 0 1", "e2");
    assert_eq!(free.attackers, squares(&["g4"]));
    assert_eq!(free.exchange, Some(HORSE));
    let blocked = of("3k5/9/9/9/9/6B2/5P3/4n4/9/4K4 w - - 0 1", "e2");
    assert!(blocked.attackers.is_empty(), "the eye on f3 is blocked");
    // An elephant on e2 protects c0 and g4's points over its eyes, its own pieces there.
    let guard = of("3k5/9/9/9/9/6R2/9/4B4/9/4K4 w - - 0 1", "g4");
    assert_eq!(guard.protectors, squares(&["e2"]));
}

#[test]
fn facing_kings_protect_a_piece_in_the_other_palace() {
    // The rook on e8 checks; the black king beside it may not take it, or it would face the red
    // king down the open file: the red king protects it, and it does not hang.
    let guarded = of("4k4/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1", "e8");
    assert_eq!(guarded.attackers, squares(&["e9"]));
    assert_eq!(guarded.protectors, squares(&["e0"]));
    assert_eq!(guarded.exchange, None);
    assert!(!guarded.hangs());
    // With the red king on d0 the king takes the rook.
    let lost = of("4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1", "e8");
    assert_eq!(lost.attackers, squares(&["e9"]));
    assert!(lost.protectors.is_empty());
    assert_eq!(lost.exchange, Some(ROOK));
    assert!(lost.hangs());
    // A piece between on the file blocks the rule: the pawn on e5 screens the kings.
    let screened = of("4k4/4R4/9/9/4P4/9/9/9/9/4K4 b - - 0 1", "e8");
    assert!(screened.protectors.is_empty());
}

#[test]
fn an_exchange_counts_protectors_and_values() {
    // The black horse on e5 is protected by the pawn on e6 and attacked by the red rook: taking
    // it loses the rook for a horse, so it does not hang.
    let r = of("3k5/9/9/4p4/4n4/9/9/9/4R4/5K3 w - - 0 1", "e5");
    assert_eq!((r.attackers.clone(), r.protectors.clone()), (squares(&["e1"]), squares(&["e6"])));
    assert_eq!(r.exchange, Some(HORSE - ROOK));
    assert!(!r.hangs());
}

#[test]
fn nothing_hangs_at_the_start_and_the_rooks_protect_what_they_should() {
    let pos = Position::startpos();
    let all = relations(&pos);
    assert_eq!(all.len(), 32);
    assert!(all.iter().all(|r| !r.hangs()), "{:?}", all.iter().find(|r| r.hangs()));
    let horse = all.iter().find(|r| r.square == sq("b0")).unwrap();
    assert_eq!(horse.protectors, squares(&["a0"]));
    // The black horse on b9 is attacked by the red cannon on b2 over the black cannon on b7, and
    // protected by the rook on a9: the cannon would be lost for it.
    let target = all.iter().find(|r| r.square == sq("b9")).unwrap();
    assert_eq!(target.attackers, squares(&["b2"]));
    assert_eq!(target.protectors, squares(&["a9"]));
    assert_eq!(target.exchange, Some(HORSE - MATERIAL[5].mg));
}

#[test]
fn a_move_that_wins_a_piece_and_one_that_leaves_one_hanging() {
    let pos = Position::from_fen("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1").unwrap();
    let effect = move_effect(&pos, Move::parse_iccs("e1e5").unwrap());
    assert_eq!(effect.wins.map(|(s, p, g)| (s, p.kind(), g)), Some((sq("e5"), PieceKind::Horse, HORSE)));
    assert!(effect.leaves_hanging.is_empty());
    // The rook steps in front of a black pawn.
    let pos = Position::from_fen("3k5/9/9/9/4p4/R8/9/9/9/4K4 w - - 0 1").unwrap();
    let effect = move_effect(&pos, Move::parse_iccs("a4e4").unwrap());
    assert_eq!(effect.wins, None);
    let hanging: Vec<_> = effect.leaves_hanging.iter().map(|&(s, p, g)| (s, p.kind(), g)).collect();
    assert_eq!(hanging, vec![(sq("e4"), PieceKind::Rook, ROOK)]);
    // Staying on the a-file leaves nothing hanging.
    assert!(move_effect(&pos, Move::parse_iccs("a4a5").unwrap()).leaves_hanging.is_empty());
}
