//! What the extra terms count on the board, before any weight: the evaluation weighs these
//! counts, and the tuner reads them as its features.

use super::weights::{ATTACK_FORCE, CANNON_MOBILITY_BASE, HORSE_MOBILITY_BASE, ROOK_MOBILITY_BASE};
use crate::board::attacks::{self, delta};
use crate::board::{Color, PieceKind, Position, Square};

/// What the extra terms count for one side, before any weight: the evaluation multiplies these
/// by `weights`, and the tuner reads them as its features, so both see the same numbers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TermCounts {
    /// Missing advisors times the enemy's attacking force.
    pub missing_advisors_by_force: i32,
    /// Missing elephants times the enemy's attacking force.
    pub missing_elephants_by_force: i32,
    /// Cannons facing the enemy king with no screen.
    pub empty_screen_cannons: i32,
    /// Cannons on the enemy back rank with the king there.
    pub bottom_cannons: i32,
    /// Horses with no square to go to.
    pub trapped_horses: i32,
    /// Horses with exactly one square to go to.
    pub cramped_horses: i32,
    /// Squares the rooks reach, less `ROOK_MOBILITY_BASE` per rook.
    pub rook_mobility: i32,
    /// Squares the horses reach, less `HORSE_MOBILITY_BASE` per horse.
    pub horse_mobility: i32,
    /// Squares the cannons reach (moves and captures), less `CANNON_MOBILITY_BASE` per cannon.
    pub cannon_mobility: i32,
    /// Pairs of crossed pawns side by side on one rank.
    pub connected_pawns: i32,
    /// Cannons on the enemy king's file with two pieces between: one moving away gives check.
    pub screened_cannons: i32,
    /// Pairs among the rooks, horses, cannons and crossed pawns in the enemy king's zone.
    pub king_attacker_pairs: i32,
}

/// The counts behind the extra terms for `us`.
pub fn term_counts(pos: &Position, us: Color) -> TermCounts {
    let them = us.opponent();
    let mut c = TermCounts::default();

    let force: i32 = [PieceKind::Horse, PieceKind::Rook, PieceKind::Cannon]
        .iter()
        .map(|&k| ATTACK_FORCE[k.index()] * pos.count(them, k) as i32)
        .sum();
    c.missing_advisors_by_force = (2 - pos.count(us, PieceKind::Advisor) as i32) * force;
    c.missing_elephants_by_force = (2 - pos.count(us, PieceKind::Elephant) as i32) * force;

    let board = pos.mailbox();
    let their_king = pos.king_square(them);
    let their_back_rank = if us == Color::Red { 9 } else { 0 };
    for cannon in pos.pieces(us, PieceKind::Cannon) {
        let on_king_file = cannon.file() == their_king.file();
        if let Some(d) = attacks::line_step(cannon, their_king).filter(|_| on_king_file) {
            // No piece between (the king is the first blocker), or two (the king is the third).
            let screens = attacks::blockers(board, cannon, d);
            if screens.first == their_king {
                c.empty_screen_cannons += 1;
            } else if attacks::blocker_behind(board, screens.second, d) == their_king {
                c.screened_cannons += 1;
            }
        }
        if cannon.rank() == their_back_rank && their_king.rank() == their_back_rank {
            c.bottom_cannons += 1;
        }
        let mut reach = 0;
        for d in delta::ORTHOGONAL {
            let screen = attacks::walk(board, cannon, d, |_| reach += 1);
            // Over the screen to the first piece beyond it: a capture if it is theirs.
            reach += board[attacks::blocker_behind(board, screen, d)].is_color(them) as i32;
        }
        c.cannon_mobility += reach - CANNON_MOBILITY_BASE;
    }

    for horse in pos.pieces(us, PieceKind::Horse) {
        let mut reach = 0;
        attacks::horse_steps(board, horse, |to| reach += board[to].is_enterable_by(us) as usize);
        match reach {
            0 => c.trapped_horses += 1,
            1 => c.cramped_horses += 1,
            _ => {}
        }
        c.horse_mobility += reach as i32 - HORSE_MOBILITY_BASE;
    }

    // The king's zone: two files either side of the king's, the four ranks at its end of the board.
    let near_king =
        |sq: Square| sq.file().abs_diff(their_king.file()) <= 2 && sq.rank().abs_diff(their_back_rank) <= 3;
    let mut attackers = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
        .iter()
        .flat_map(|&k| pos.pieces(us, k))
        .filter(|&sq| near_king(sq))
        .count() as i32;
    for pawn in pos.pieces(us, PieceKind::Pawn).filter(|p| !p.on_home_side(us)) {
        attackers += near_king(pawn) as i32;
        // Each side-by-side pair once, from its left pawn (a pawn beside a crossed one has crossed too).
        let right = board[pawn.offset(delta::RIGHT)];
        c.connected_pawns += (right.is_color(us) && right.kind() == PieceKind::Pawn) as i32;
    }
    c.king_attacker_pairs = attackers * (attackers - 1).max(0) / 2;

    for rook in pos.pieces(us, PieceKind::Rook) {
        let mut reach = 0;
        for d in delta::ORTHOGONAL {
            let stop = attacks::walk(board, rook, d, |_| reach += 1);
            reach += board[stop].is_color(them) as i32;
        }
        c.rook_mobility += reach - ROOK_MOBILITY_BASE;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interaction_counts_fire_on_positions_that_show_them() {
        // Red: pawns d6 and e6 side by side across the river (and a lone one on a6); a cannon on
        // e2 with the e6 pawn and the black advisor e8 between it and the black king e9; a rook
        // on d7 and a horse on g7 near the black king.
        let pos = Position::from_fen("4k4/4a4/3R2N2/P2PP4/9/9/9/4C4/9/3K5 w - - 0 1").unwrap();
        let c = term_counts(&pos, Color::Red);
        assert_eq!(c.connected_pawns, 1);
        assert_eq!(c.screened_cannons, 1);
        assert_eq!(c.empty_screen_cannons, 0);
        assert_eq!(c.king_attacker_pairs, 4 * 3 / 2, "rook, horse and pawns d6, e6 (a6 is too far out)");
        // Cannon e2: e1 e0 down, e3 e4 e5 up to the screen e6 and the advisor e8 beyond it,
        // four squares each way along rank 2.
        assert_eq!(c.cannon_mobility, 2 + 3 + 1 + 8 - CANNON_MOBILITY_BASE);
        let black = term_counts(&pos, Color::Black);
        assert_eq!((black.connected_pawns, black.screened_cannons, black.king_attacker_pairs), (0, 0, 0));
        // A horse in the corner reaches two squares.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/N2K5 w - - 0 1").unwrap();
        assert_eq!(
            term_counts(&pos, Color::Red).horse_mobility,
            2 - HORSE_MOBILITY_BASE,
            "a0 reaches b2, c1"
        );
    }
}
