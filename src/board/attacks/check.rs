//! Whether a king is attacked: the full test, the test after one move that looks only at
//! what the move changed, and the cheap square tests that say when a move cannot give check.
//! Built on the piece geometry of `attacks`.

use super::{blockers, delta, line_step, pawn_forward, Blockers, HORSE_ATTACKER_STEPS, PAWN_SIDE_STEPS};
use crate::board::mailbox::Mailbox;
use crate::board::piece::{Color, PieceKind};
use crate::board::square::Square;
use delta::{DOWN, UP};

/// Whether a king standing on `king` is attacked by `attacker`: by a rook, cannon, horse or pawn,
/// or by the attacker's king on an open file (the flying-general rule). Advisors and elephants
/// never leave their own half, so they are not looked at.
#[inline]
pub fn king_attacked(board: &Mailbox, king: Square, attacker: Color) -> bool {
    pawn_or_horse_attacks(board, king, attacker)
        || delta::ORTHOGONAL.into_iter().any(|d| line_attacks(board, king, attacker, d))
}

/// `king_attacked` after a move from `from` to `to` (the only squares it changed), for a king
/// that nothing attacked before it and that did not move itself. An attack now must come from
/// the piece on `to` (a pawn's or a horse's here; a rook's, cannon's or king's along a line) or
/// through a changed square: a line through `from` or `to` (a piece gone or a new cannon screen),
/// or a horse whose leg was `from`. Only those are looked at; the king's other lines, the walks
/// that are most of the full test's work, are not.
///
/// Both uses meet the condition: a move's legality when its side is not in check (its own king,
/// attacked by nothing before), and whether a move gives check (the other king: a legal position
/// never has the side not to move in check).
#[inline]
pub fn king_attacked_after(board: &Mailbox, king: Square, attacker: Color, [from, to]: [Square; 2]) -> bool {
    let is = |sq: Square, kind: PieceKind| holds(board, sq, attacker, kind);
    let arrived = board[to];
    if arrived.is_color(attacker) {
        match arrived.kind() {
            PieceKind::Pawn => {
                let beside = PAWN_SIDE_STEPS.into_iter().any(|d| king.offset(d) == to);
                if to == king.offset(-pawn_forward(attacker)) || (beside && !to.on_home_side(attacker)) {
                    return true;
                }
            }
            PieceKind::Horse => {
                let attacks = HORSE_ATTACKER_STEPS.into_iter().any(|(leg, sources)| {
                    (king.offset(sources[0]) == to || king.offset(sources[1]) == to)
                        && board[king.offset(leg)].is_empty()
                });
                if attacks {
                    return true;
                }
            }
            _ => {}
        }
    }
    if is_horse_leg_toward(king, from) {
        let uncovered = HORSE_ATTACKER_STEPS.into_iter().any(|(leg, sources)| {
            king.offset(leg) == from
                && (is(king.offset(sources[0]), PieceKind::Horse)
                    || is(king.offset(sources[1]), PieceKind::Horse))
        });
        if uncovered {
            return true;
        }
    }
    let first = line_step(king, from);
    let second = line_step(king, to).filter(|&d| Some(d) != first);
    first.into_iter().chain(second).any(|d| line_attacks(board, king, attacker, d))
}

/// Whether an `attacker` pawn or horse attacks the king on `king`: a pawn one rank behind it as
/// the attacker moves, or beside it from across the river; a horse over an empty leg.
#[inline(always)]
fn pawn_or_horse_attacks(board: &Mailbox, king: Square, attacker: Color) -> bool {
    let is = |sq: Square, kind: PieceKind| holds(board, sq, attacker, kind);
    if is(king.offset(-pawn_forward(attacker)), PieceKind::Pawn) {
        return true;
    }
    for d in PAWN_SIDE_STEPS {
        let s = king.offset(d);
        if is(s, PieceKind::Pawn) && !s.on_home_side(attacker) {
            return true;
        }
    }
    HORSE_ATTACKER_STEPS.into_iter().any(|(leg, sources)| {
        board[king.offset(leg)].is_empty()
            && (is(king.offset(sources[0]), PieceKind::Horse)
                || is(king.offset(sources[1]), PieceKind::Horse))
    })
}

/// Whether `attacker` attacks the king on `king` along the line `d`: a rook (or, on the file, the
/// king) as the first blocker, a cannon as the second.
#[inline(always)]
fn line_attacks(board: &Mailbox, king: Square, attacker: Color, d: i8) -> bool {
    let Blockers { first, second } = blockers(board, king, d);
    let p = board[first];
    if p.is_color(attacker)
        && (p.kind() == PieceKind::Rook || (p.kind() == PieceKind::King && (d == UP || d == DOWN)))
    {
        return true;
    }
    holds(board, second, attacker, PieceKind::Cannon)
}

/// Whether `sq` holds a piece of `color` and `kind`.
#[inline(always)]
fn holds(board: &Mailbox, sq: Square, color: Color, kind: PieceKind) -> bool {
    let p = board[sq];
    p.is_color(color) && p.kind() == kind
}

/// Whether a move of a `kind` piece from `from` to `to` may attack the king on `king` (false
/// means it surely does not; true asks for the full test). A move gives check by attacking from
/// `to` or by uncovering an attack: rook, cannon, pawn and king attacks run along the king's
/// rank or file (a pawn's from a square beside it), a new cannon screen stands on them, and an
/// uncovered rook or cannon line, or a new cannon screen gone, starts from them; a horse attacks
/// from a horse's step away, and an uncovered horse attack needs its leg, diagonal to the king,
/// vacated.
#[inline]
pub fn may_give_check(kind: PieceKind, from: Square, to: Square, king: Square) -> bool {
    may_change_lines_or_legs(king, from, to) || (kind == PieceKind::Horse && is_horse_step(king, to))
}

/// Whether a move from `from` to `to` by a piece other than the king on `king` may uncover or
/// make an attack on it through the squares it changes: either stands on the king's rank or
/// file (a line opened, blocked, or a cannon screen added or taken away), or `from` is a
/// horse's leg toward it. False means every line and horse attack on the king is as before.
#[inline(always)]
pub fn may_change_lines_or_legs(king: Square, from: Square, to: Square) -> bool {
    on_lines_of(king, from) || on_lines_of(king, to) || is_horse_leg_toward(king, from)
}

/// Whether `sq` stands on the rank or the file of `king`.
#[inline(always)]
pub fn on_lines_of(king: Square, sq: Square) -> bool {
    sq.file() == king.file() || sq.rank() == king.rank()
}

/// Whether `a` and `b` are a horse's step apart (one file and two ranks, or two files and one
/// rank), legs aside.
#[inline(always)]
pub fn is_horse_step(a: Square, b: Square) -> bool {
    let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
    (df, dr) == (1, 2) || (df, dr) == (2, 1)
}

/// Whether `sq` is the leg of a horse's attack on `target` (one of its four diagonal neighbours):
/// a piece leaving it may uncover that attack.
#[inline]
pub fn is_horse_leg_toward(target: Square, sq: Square) -> bool {
    matches!(sq.index() as i32 - target.index() as i32, -17 | -15 | 15 | 17)
}

#[cfg(test)]
mod tests {
    //! Each attack test against the rules as people state them, or against the full test.

    use super::super::tests::{pieces_between, random_boards, stepped_to};
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn king_attacked_agrees_with_each_attacker_looked_at_alone() {
        for board in random_boards(4) {
            for attacker in Color::BOTH {
                for king in Square::all() {
                    let rule = Square::all().filter(|&a| board[a].is_color(attacker)).any(|a| {
                        let between = pieces_between(&board, a, king);
                        match board[a].kind() {
                            PieceKind::Rook => between == Some(0),
                            PieceKind::Cannon => between == Some(1),
                            PieceKind::King => between == Some(0) && a.file() == king.file(),
                            PieceKind::Advisor | PieceKind::Elephant => false,
                            kind => stepped_to(&board, attacker, kind, a).contains(&king),
                        }
                    });
                    assert_eq!(king_attacked(&board, king, attacker), rule, "{attacker:?} on {king}");
                }
            }
        }
    }

    #[test]
    fn the_attack_test_after_a_move_agrees_with_the_full_test() {
        use crate::board::{movegen, MoveList, Position};
        let mut rng = StdRng::seed_from_u64(13);
        let (mut own, mut own_attacked, mut other, mut other_attacked) = (0, 0, 0, 0);
        // Random games from the start: every pseudo-legal move of every position they reach,
        // tried on the board; the targeted test is asked where its condition holds.
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let mover = pos.side_to_move();
                let (ours, theirs) = (pos.king_square(mover), pos.king_square(mover.opponent()));
                let in_check = pos.is_check();
                let fen = pos.to_fen();
                let mut pseudo = MoveList::new();
                movegen::pseudo_moves(&pos, &mut pseudo);
                for &mv in pseudo.iter() {
                    let changed = [mv.from(), mv.to()];
                    pos.with_board_move(mv, |p| {
                        let board = p.mailbox();
                        // The other king: attacked by nothing before (the position is legal).
                        let full = king_attacked(board, theirs, mover);
                        assert_eq!(
                            king_attacked_after(board, theirs, mover, changed),
                            full,
                            "{mv} checks in {fen}"
                        );
                        other += 1;
                        other_attacked += usize::from(full);
                        // The mover's own king, when it was not in check and did not move.
                        if !in_check && mv.from() != ours {
                            let full = king_attacked(board, ours, mover.opponent());
                            let after = king_attacked_after(board, ours, mover.opponent(), changed);
                            assert_eq!(after, full, "{mv} exposes its king in {fen}");
                            own += 1;
                            own_attacked += usize::from(full);
                        }
                    });
                }
                let legal = movegen::legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        // Both answers were seen often enough to mean something.
        assert!(own > 100_000 && own_attacked > 500, "{own} own, {own_attacked} exposed");
        assert!(other > 100_000 && other_attacked > 1_000, "{other} other, {other_attacked} checks");
    }

    #[test]
    fn a_move_the_check_filter_passes_over_never_gives_check() {
        use crate::board::{movegen, MoveList, Position};
        let mut rng = StdRng::seed_from_u64(11);
        let (mut passed_over, mut checks) = (0, 0);
        // Random games from the start: every pseudo-legal move of every position they reach.
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let mut pseudo = MoveList::new();
                movegen::pseudo_moves(&pos, &mut pseudo);
                let king = pos.king_square(pos.side_to_move().opponent());
                for &mv in pseudo.iter() {
                    let kind = pos.piece_at(mv.from()).kind();
                    let mover = pos.side_to_move();
                    let check = pos.with_board_move(mv, |p| p.king_attacked(mover.opponent()));
                    checks += usize::from(check);
                    if !may_give_check(kind, mv.from(), mv.to(), king) {
                        assert!(!check, "{mv} gives check in {}", pos.to_fen());
                        passed_over += 1;
                    }
                }
                let legal = movegen::legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(passed_over > 100_000 && checks > 1_000, "{passed_over} passed over, {checks} checks");
    }

    #[test]
    fn is_check_after_a_move_or_a_null_move_is_the_full_attack_test() {
        use crate::board::{movegen, Position};
        let mut rng = StdRng::seed_from_u64(12);
        let (mut positions, mut checks) = (0, 0);
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let full = king_attacked(
                    pos.mailbox(),
                    pos.king_square(pos.side_to_move()),
                    pos.side_to_move().opponent(),
                );
                assert_eq!(pos.is_check(), full, "{}", pos.to_fen());
                positions += 1;
                checks += usize::from(full);
                let legal = movegen::legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                if !full && rng.gen_bool(0.05) {
                    pos.make_null_move();
                    continue;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(positions > 20_000 && checks > 500, "{positions} positions, {checks} checks");
    }
}
