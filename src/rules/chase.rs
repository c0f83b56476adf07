//! Chasing moves: a move after which one of the mover's pieces newly attacks an enemy piece it
//! could win, as `docs/rules.md` ("What counts as a chasing move") defines it.

use crate::board::movegen::{self, is_legal};
use crate::board::{Move, MoveList, Piece, PieceKind, Position, Square};

/// One newly created threat: the attacker and its victim, by square after the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chase {
    /// Where the chasing piece stands after the move.
    pub attacker: Square,
    /// Where the chased piece stands.
    pub victim: Square,
}

/// Whether the legal move `mv` is a chasing move in `pos`. An illegal `mv` is never one.
pub fn is_chasing_move(pos: &Position, mv: Move) -> bool {
    let mut work = pos.clone();
    if !is_legal(&mut work, mv) {
        return false;
    }
    chasing_move(&mut work, mv)
}

/// Every chase the legal move `mv` creates in `pos` (empty for an illegal move or a quiet one).
pub fn chases(pos: &Position, mv: Move) -> Vec<Chase> {
    let mut work = pos.clone();
    let mut found = Vec::new();
    if is_legal(&mut work, mv) {
        scan(&mut work, mv, |chase| {
            found.push(chase);
            false
        });
    }
    found
}

/// `is_chasing_move` on a position the caller lets us play on (it is restored before returning);
/// `mv` must be legal.
pub(crate) fn chasing_move(pos: &mut Position, mv: Move) -> bool {
    let mut any = false;
    scan(pos, mv, |_| {
        any = true;
        true
    });
    any
}

/// Which enemy slots each of the mover's slots attacks: bit `v` of entry `a`.
type AttackTable = [u16; 16];

/// The captures the side to move could make, as attacker slot → victim slots. Geometry only:
/// legality is judged separately, as `docs/rules.md` keeps "attacks" and "can legally capture" apart.
fn attack_table(pos: &Position) -> AttackTable {
    let mut table = [0u16; 16];
    let mut captures = MoveList::new();
    movegen::pseudo_captures(pos, &mut captures);
    for mv in captures.iter() {
        let (a, v) = (pos.piece_at(mv.from()), pos.piece_at(mv.to()));
        table[a.slot() as usize] |= 1 << v.slot();
    }
    table
}

/// Calls `report` for each chase `mv` creates until it returns true (stop). Plays `mv`, lets the
/// mover move again with a null move to list its captures, and takes everything back.
fn scan(pos: &mut Position, mv: Move, mut report: impl FnMut(Chase) -> bool) {
    let before = attack_table(pos);
    pos.make_move(mv);
    pos.make_null_move();
    let mut captures = MoveList::new();
    movegen::pseudo_captures(pos, &mut captures);
    for &capture in captures.iter() {
        let (a, v) = (pos.piece_at(capture.from()), pos.piece_at(capture.to()));
        let is_new = before[a.slot() as usize] & (1 << v.slot()) == 0;
        if is_new && may_chase(a, v, capture.to()) && is_chase(pos, capture, a, v) {
            let chase = Chase { attacker: capture.from(), victim: capture.to() };
            if report(chase) {
                break;
            }
        }
    }
    pos.unmake_null_move();
    pos.unmake_move();
}

/// The piece conditions of `docs/rules.md`: kings and pawns never chase; kings and uncrossed pawns are never
/// chased.
fn may_chase(attacker: Piece, victim: Piece, victim_square: Square) -> bool {
    let attacker_ok = !matches!(attacker.kind(), PieceKind::King | PieceKind::Pawn);
    let victim_ok = match victim.kind() {
        PieceKind::King => false,
        PieceKind::Pawn => !victim_square.on_home_side(victim.color()),
        _ => true,
    };
    attacker_ok && victim_ok
}

/// With the attacker's side to move: `capture` is legal, and the victim is unprotected or is a
/// rook threatened by a horse or cannon.
fn is_chase(pos: &mut Position, capture: Move, attacker: Piece, victim: Piece) -> bool {
    if !pos.leaves_king_safe(capture) {
        return false;
    }
    let lesser_on_rook =
        victim.kind() == PieceKind::Rook && matches!(attacker.kind(), PieceKind::Horse | PieceKind::Cannon);
    lesser_on_rook || !has_legal_recapture(pos, capture)
}

/// Whether, after `capture` is played, the side that lost the piece can legally take back on
/// the same square.
fn has_legal_recapture(pos: &mut Position, capture: Move) -> bool {
    let square = capture.to();
    pos.make_move(capture);
    let mut replies = MoveList::new();
    movegen::pseudo_captures(pos, &mut replies);
    let recaptures = replies.iter().any(|&reply| reply.to() == square && pos.leaves_king_safe(reply));
    pos.unmake_move();
    recaptures
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Square {
        Square::parse(text).unwrap()
    }

    fn chases_of(fen: &str, mv: &str) -> Vec<Chase> {
        chases(&Position::from_fen(fen).unwrap(), Move::parse_iccs(mv).unwrap())
    }

    #[test]
    fn a_threat_that_already_existed_is_not_new() {
        // The rook attacks the lone horse a7 from a5 and still from a4: nothing new.
        assert_eq!(chases_of("4k4/9/n8/9/R8/9/9/9/9/3K5 w - - 0 1", "a5a4"), []);
        // From b5 it attacked nothing; on a5 the threat is new.
        let chased = chases_of("4k4/9/n8/9/1R7/9/9/9/9/3K5 w - - 0 1", "b5a5");
        assert_eq!(chased, [Chase { attacker: at("a5"), victim: at("a7") }]);
    }

    #[test]
    fn a_discovered_attack_is_a_chase_by_the_uncovered_piece() {
        // The horse a4 steps off the a-file; the rook a2 behind it now sees the horse a7.
        let chased = chases_of("4k4/9/n8/9/9/N8/9/R8/9/3K5 w - - 0 1", "a4b6");
        assert_eq!(chased, [Chase { attacker: at("a2"), victim: at("a7") }]);
    }

    #[test]
    fn a_cannon_given_a_screen_chases() {
        // The horse b2 lands on a4, between the cannon a2 and the horse a7.
        let chased = chases_of("4k4/9/n8/9/9/9/9/CN7/9/3K5 w - - 0 1", "b2a4");
        assert_eq!(chased, [Chase { attacker: at("a2"), victim: at("a7") }]);
    }

    #[test]
    fn an_illegal_move_is_not_a_chasing_move() {
        let pos = Position::from_fen("4k4/9/n8/9/1R7/9/9/9/9/3K5 w - - 0 1").unwrap();
        // A rook cannot move diagonally, and there is no red piece on c5.
        for text in ["b5a6", "c5a5"] {
            let mv = Move::parse_iccs(text).unwrap();
            assert!(!is_chasing_move(&pos, mv), "{text}");
            assert!(chases(&pos, mv).is_empty(), "{text}");
        }
    }
}
