//! Chasing moves: a move after which one of the mover's pieces newly attacks an enemy piece it
//! could win, as `docs/rules.md` ("What counts as a chasing move") defines it (the Asian rules).
//!
//! A move chases a *set* of enemy pieces. They are named two ways: by square after the move
//! (`Chase`, for people) and by identity (`Victims`, for the repetition judge): a piece keeps its
//! slot in its side's piece list as it moves, and no capture happens inside a repetition cycle,
//! so "the same enemy piece chased by every move" is the intersection of the moves' `Victims`.

use std::fmt;

use crate::board::movegen::{self, is_legal};
use crate::board::{attacks, Move, MoveList, Piece, PieceKind, Position, Square};

/// One chase: the attacker and its victim, by square after the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chase {
    /// Where the chasing piece stands after the move.
    pub attacker: Square,
    /// Where the chased piece stands.
    pub victim: Square,
}

/// A set of one side's pieces by identity: bit `s` is the piece in slot `s` of that side's list.
#[derive(Copy, Clone, PartialEq, Eq, Default, Hash)]
pub struct Victims(u16);

impl Victims {
    /// No piece.
    pub const NONE: Victims = Victims(0);
    /// Every slot (the start of an intersection).
    pub const ALL: Victims = Victims(u16::MAX);

    /// The set holding only `piece` (by its slot).
    #[inline]
    pub const fn of(piece: Piece) -> Victims {
        Victims(1 << piece.slot())
    }

    /// The raw mask, bit `s` for slot `s`.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the piece in `slot` is in the set.
    #[inline]
    pub const fn contains_slot(self, slot: u8) -> bool {
        self.0 & (1 << slot) != 0
    }

    /// The pieces in both sets.
    #[inline]
    #[must_use]
    pub const fn intersect(self, other: Victims) -> Victims {
        Victims(self.0 & other.0)
    }

    /// The pieces in either set.
    #[inline]
    #[must_use]
    pub const fn union(self, other: Victims) -> Victims {
        Victims(self.0 | other.0)
    }

    /// The slots in the set, lowest first.
    pub fn slots(self) -> impl Iterator<Item = u8> {
        (0..16u8).filter(move |&s| self.contains_slot(s))
    }
}

impl fmt::Debug for Victims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Victims({:#06x})", self.0)
    }
}

/// Everything one move chases: each chase by square, and the victims by identity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveChases {
    /// The chases in generation order; one victim may appear with several attackers.
    pub chases: Vec<Chase>,
    /// The chased enemy pieces, by slot in the enemy's piece list.
    pub victims: Victims,
    /// New attacks that would be chases but are offers to exchange (the victim, of the same
    /// kind, could legally take its attacker): listed for people, they count for nothing.
    pub offers: Vec<Chase>,
}

impl MoveChases {
    /// Whether the move chases nothing.
    pub fn is_empty(&self) -> bool {
        self.chases.is_empty()
    }
}

/// Whether the legal move `mv` is a chasing move in `pos`. An illegal `mv` is never one.
pub fn is_chasing_move(pos: &Position, mv: Move) -> bool {
    !chases(pos, mv).is_empty()
}

/// Every chase (and offer to exchange) the legal move `mv` creates in `pos`; nothing for an
/// illegal move or a quiet one.
pub fn chases(pos: &Position, mv: Move) -> MoveChases {
    let mut work = pos.clone();
    if is_legal(&mut work, mv) {
        move_chases(&mut work, mv)
    } else {
        MoveChases::default()
    }
}

/// The enemy pieces among `wanted` that the legal move `mv` chases, on a position the caller
/// lets us play on (it is restored before returning). Allocates nothing: the search's judge.
pub(crate) fn chased_victims(pos: &mut Position, mv: Move, wanted: Victims) -> Victims {
    let mut victims = Victims::NONE;
    if !wanted.is_empty() {
        scan(pos, mv, wanted, |threat, _, victim| {
            if threat == Threat::Chase {
                victims = victims.union(Victims::of(victim));
            }
        });
    }
    victims
}

/// `chases` on a position the caller lets us play on; `mv` must be legal.
pub(crate) fn move_chases(pos: &mut Position, mv: Move) -> MoveChases {
    let mut found = MoveChases::default();
    scan(pos, mv, Victims::ALL, |threat, chase, victim| match threat {
        Threat::Chase => {
            found.chases.push(chase);
            found.victims = found.victims.union(Victims::of(victim));
        }
        Threat::Offer => found.offers.push(chase),
    });
    found
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

/// What a new attack on a piece that may be chased amounts to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Threat {
    /// A chase.
    Chase,
    /// An offer to exchange: no chase.
    Offer,
}

/// Calls `report` with each chase and offer to exchange `mv` creates whose victim is in
/// `wanted`. Plays `mv`, lets the mover move again with a null move to list its captures, and
/// takes everything back.
fn scan(pos: &mut Position, mv: Move, wanted: Victims, mut report: impl FnMut(Threat, Chase, Piece)) {
    let before = attack_table(pos);
    pos.make_move(mv);
    pos.make_null_move();
    let mut captures = MoveList::new();
    movegen::pseudo_captures(pos, &mut captures);
    for &capture in captures.iter() {
        let (a, v) = (pos.piece_at(capture.from()), pos.piece_at(capture.to()));
        if !wanted.contains_slot(v.slot()) || before[a.slot() as usize] & (1 << v.slot()) != 0 {
            continue;
        }
        if !may_chase(a, v, capture.to()) {
            continue;
        }
        if let Some(threat) = threat(pos, capture, a, v) {
            report(threat, Chase { attacker: capture.from(), victim: capture.to() }, v);
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

/// Whether a threat by `attacker` on `victim` counts even when the victim is protected: a lesser
/// piece on a greater one (horse or cannon on a rook; advisor or elephant on a rook, horse or
/// cannon).
fn lesser_on_greater(attacker: PieceKind, victim: PieceKind) -> bool {
    use PieceKind::*;
    match attacker {
        Horse | Cannon => victim == Rook,
        Advisor | Elephant => matches!(victim, Rook | Horse | Cannon),
        _ => false,
    }
}

/// With the attacker's side to move (after the chasing move and a null move), for a new attack
/// on a piece that may be chased: a chase when `capture` is legal, is no offer to exchange, and
/// the victim is unprotected or the attack is a lesser piece's on a greater one.
fn threat(pos: &mut Position, capture: Move, attacker: Piece, victim: Piece) -> Option<Threat> {
    if !pos.leaves_king_safe(capture) {
        return None;
    }
    if attacker.kind() == victim.kind() && can_take_back(pos, capture) {
        return Some(Threat::Offer);
    }
    let counts = lesser_on_greater(attacker.kind(), victim.kind()) || !has_legal_recapture(pos, capture);
    counts.then_some(Threat::Chase)
}

/// Whether, in the position after the chasing move (the victim's side to move), the victim could
/// legally capture its attacker: the attack is mutual. For rooks and cannons it always is
/// geometrically; a horse's attack is not when the victim's own leg is blocked.
fn can_take_back(pos: &mut Position, capture: Move) -> bool {
    let back = Move::new(capture.to(), capture.from());
    pos.unmake_null_move();
    let mutual = attacks::reaches(pos.mailbox(), back.from(), back.to()) && pos.leaves_king_safe(back);
    pos.make_null_move();
    mutual
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
        chases(&Position::from_fen(fen).unwrap(), Move::parse_iccs(mv).unwrap()).chases
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

    #[test]
    fn victims_are_named_by_slot() {
        // The rook b5-a5 chases the horse a7, not the horse i1: the victims name a7's slot only.
        let pos = Position::from_fen("4k4/9/n8/9/1R7/9/9/9/8n/3K5 w - - 0 1").unwrap();
        let found = chases(&pos, Move::parse_iccs("b5a5").unwrap());
        assert_eq!(found.chases, [Chase { attacker: at("a5"), victim: at("a7") }]);
        let horse = pos.piece_at(at("a7"));
        assert_eq!(found.victims, Victims::of(horse));
        assert_eq!(found.victims.slots().collect::<Vec<_>>(), [horse.slot()]);
        // The allocation-free scan agrees; asked only about the horse i1, it finds nothing.
        let mut work = pos.clone();
        let mv = Move::parse_iccs("b5a5").unwrap();
        assert_eq!(chased_victims(&mut work, mv, Victims::ALL), found.victims);
        let other = pos.piece_at(at("i1"));
        assert_ne!(other.slot(), horse.slot());
        assert_eq!(chased_victims(&mut work, mv, Victims::of(other)), Victims::NONE);
        assert_eq!(work.to_fen(), pos.to_fen(), "the position is restored");
    }

    #[test]
    fn lesser_and_greater_pieces() {
        use PieceKind::*;
        for attacker in [Horse, Cannon] {
            assert!(lesser_on_greater(attacker, Rook));
            assert!(!lesser_on_greater(attacker, Horse) && !lesser_on_greater(attacker, Cannon));
        }
        for attacker in [Advisor, Elephant] {
            for victim in [Rook, Horse, Cannon] {
                assert!(lesser_on_greater(attacker, victim));
            }
            assert!(!lesser_on_greater(attacker, Pawn) && !lesser_on_greater(attacker, Advisor));
        }
        assert!(!lesser_on_greater(Rook, Rook) && !lesser_on_greater(Rook, Horse));
    }
}
