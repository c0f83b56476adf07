//! Move generation: pseudo-legal moves (all, or captures only), legality, and perft.
//!
//! Pseudo-legal moves obey every movement rule (palace, elephant eye and river, horse leg, cannon
//! screen, pawn direction) but may leave the mover's king attacked or facing the other king;
//! `Position::leaves_king_safe` filters those.

use super::attacks::{self, delta};
use super::mailbox::Mailbox;
use super::moves::{Move, MoveList};
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::square::Square;

/// Which moves a generator emits.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Wanted {
    All,
    Captures,
    Quiets,
}

/// Appends every pseudo-legal move of the side to move.
pub fn pseudo_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list, Wanted::All);
}

/// Appends the pseudo-legal captures of the side to move (for quiescence).
pub fn pseudo_captures(pos: &Position, list: &mut MoveList) {
    generate(pos, list, Wanted::Captures);
}

/// Appends the pseudo-legal moves of the side to move that capture nothing.
pub fn pseudo_quiets(pos: &Position, list: &mut MoveList) {
    generate(pos, list, Wanted::Quiets);
}

/// Decides legality of pseudo-legal moves in one position (a legal one: the search's, perft's),
/// sparing the board test where the answer is known without it.
///
/// Not in check, a move by a piece other than the king can only uncover an attack on its king
/// if it leaves the king's rank or file (unblocking a rook, a facing king, or changing a cannon's
/// screens), lands on it (a new cannon screen), or leaves a square diagonal to the king (a horse
/// leg); such a move is legal at once, and the others are tried with only those lines and that
/// leg looked at. Pawn attacks never depend on our pieces. In check, a move that touches no
/// check's path is illegal at once; the others, and every king move, get the full test.
#[derive(Copy, Clone)]
pub struct LegalityFilter {
    king: Square,
    in_check: bool,
}

impl LegalityFilter {
    /// The filter for the side to move in `pos`.
    #[inline]
    pub fn new(pos: &Position) -> LegalityFilter {
        LegalityFilter { king: pos.king_square(pos.side_to_move()), in_check: pos.is_check() }
    }

    /// Whether the side to move was in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Whether the pseudo-legal `mv` is legal.
    #[inline]
    pub fn is_legal(&self, pos: &mut Position, mv: Move) -> bool {
        let (from, to, k) = (mv.from(), mv.to(), self.king);
        if self.in_check && from != k {
            // A check is answered only by capturing the checker or standing in its way: on the
            // king's lines (a rook, cannon, king or pawn and their paths, or a cannon's screen
            // moved away), on a checking horse's square, or on its leg. A move touching none of
            // those leaves every check standing.
            let answers = attacks::on_lines_of(k, from)
                || attacks::on_lines_of(k, to)
                || attacks::is_horse_step(k, to)
                || attacks::is_horse_leg_toward(k, to);
            if !answers {
                return false;
            }
        } else if from != k {
            if !attacks::may_change_lines_or_legs(k, from, to) {
                return true;
            }
            // Not in check: only the lines through the two squares the move changes can hold
            // a new attack (`attacks::king_attacked_after`).
            let attacker = pos.side_to_move().opponent();
            return pos.with_board_move(mv, |p| {
                !attacks::king_attacked_after(p.mailbox(), k, attacker, [from, to])
            });
        }
        pos.leaves_king_safe(mv)
    }
}

/// Every legal move of the side to move. An empty list means the side to move has lost.
pub fn legal_moves(pos: &mut Position) -> MoveList {
    let mut list = MoveList::new();
    pseudo_moves(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    list.retain(|mv| filter.is_legal(pos, mv));
    list
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move(pos: &mut Position) -> bool {
    let mut list = MoveList::new();
    pseudo_moves(pos, &mut list);
    list.iter().any(|&mv| pos.leaves_king_safe(mv))
}

/// Whether `mv` is a legal move in `pos`.
pub fn is_legal(pos: &mut Position, mv: Move) -> bool {
    is_pseudo_legal(pos, mv) && pos.leaves_king_safe(mv)
}

#[inline]
fn generate(pos: &Position, list: &mut MoveList, wanted: Wanted) {
    let us = pos.side_to_move();
    let board = pos.mailbox();
    for slot in 0..16u8 {
        let from = pos.slot_square(us, slot);
        if from == Square::NONE {
            continue;
        }
        let step = |to| push_if(board, list, wanted, us, from, to);
        match board[from].kind() {
            PieceKind::King => attacks::king_steps(from, step),
            PieceKind::Advisor => attacks::advisor_steps(from, step),
            PieceKind::Elephant => attacks::elephant_steps(board, us, from, step),
            PieceKind::Horse => attacks::horse_steps(board, from, step),
            PieceKind::Pawn => attacks::pawn_steps(us, from, step),
            kind @ (PieceKind::Rook | PieceKind::Cannon) => slider(board, list, wanted, us, from, kind),
        }
    }
}

/// Appends the move to `to` if the mover may enter it and it is wanted.
#[inline]
fn push_if(board: &Mailbox, list: &mut MoveList, wanted: Wanted, us: Color, from: Square, to: Square) {
    let target = board[to];
    let kind_wanted = match wanted {
        Wanted::All => true,
        Wanted::Captures => target.is_piece(),
        Wanted::Quiets => !target.is_piece(),
    };
    if target.is_enterable_by(us) && kind_wanted {
        list.push(Move::new(from, to));
    }
}

/// A rook's or cannon's moves: the empty squares along each line, if quiet moves are wanted, and
/// a capture of the first blocker (rook) or of the blocker behind it (cannon) if it is theirs
/// and captures are wanted.
#[inline]
fn slider(board: &Mailbox, list: &mut MoveList, wanted: Wanted, us: Color, from: Square, kind: PieceKind) {
    for d in delta::ORTHOGONAL {
        let first = attacks::walk(board, from, d, |to| {
            if wanted != Wanted::Captures {
                list.push(Move::new(from, to));
            }
        });
        let target = if kind == PieceKind::Cannon { attacks::blocker_behind(board, first, d) } else { first };
        if wanted != Wanted::Quiets && board[target].is_color(us.opponent()) {
            list.push(Move::new(from, target));
        }
    }
}

/// Whether `mv` obeys the movement rules for the piece on its origin square, with the side to
/// move's piece there (checks of king safety are separate). Used to vet moves from outside:
/// hash tables, books, killers, user input.
pub fn is_pseudo_legal(pos: &Position, mv: Move) -> bool {
    let (from, to) = (mv.from(), mv.to());
    if !from.on_board() || !to.on_board() || from == to {
        return false;
    }
    let us = pos.side_to_move();
    pos.piece_at(from).is_color(us)
        && pos.piece_at(to).is_enterable_by(us)
        && attacks::reaches(pos.mailbox(), from, to)
}

/// Counts the leaves of the legal move tree `depth` plies deep.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pseudo_moves(pos, &mut list);
    let filter = LegalityFilter::new(pos);
    if depth == 1 {
        return list.iter().filter(|&&mv| filter.is_legal(pos, mv)).count() as u64;
    }
    let mut nodes = 0;
    for &mv in &list {
        if filter.is_legal(pos, mv) {
            pos.make_move(mv);
            nodes += perft(pos, depth - 1);
            pos.unmake_move();
        }
    }
    nodes
}

/// Perft split by root move: each legal root move with its leaf count, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = legal_moves(pos);
    moves
        .iter()
        .map(|&mv| {
            pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (mv, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The filter's shortcuts (a move that cannot expose the king, a targeted test of the lines
    /// it changes, an evasion that touches no check's path) agree with trying every move on the
    /// board, in check and out of it.
    #[test]
    fn the_legality_filter_agrees_with_trying_each_move() {
        let mut rng = StdRng::seed_from_u64(21);
        let (mut in_check, mut evasions_refused, mut exposed) = (0, 0, 0);
        for _ in 0..80 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let filter = LegalityFilter::new(&pos);
                assert_eq!(filter.in_check(), pos.king_attacked(pos.side_to_move()), "{}", pos.to_fen());
                in_check += usize::from(filter.in_check());
                let mut pseudo = MoveList::new();
                pseudo_moves(&pos, &mut pseudo);
                for &mv in pseudo.iter() {
                    let tried = pos.leaves_king_safe(mv);
                    assert_eq!(filter.is_legal(&mut pos, mv), tried, "{mv} in {}", pos.to_fen());
                    evasions_refused += usize::from(filter.in_check() && !tried);
                    exposed += usize::from(!filter.in_check() && !tried);
                }
                let legal = legal_moves(&mut pos);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
        // Enough of each kind to mean something.
        assert!(
            in_check > 300 && evasions_refused > 5_000 && exposed > 500,
            "{in_check} {evasions_refused} {exposed}"
        );
    }
}
