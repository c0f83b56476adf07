//! Evaluation: material and piece-square tables (kept incrementally by the board, tapered by
//! phase), plus a few xiangqi terms the tables cannot see; or a neural network (`nnue`), as
//! `choice::EvalChoice` picks.

pub mod choice;
pub mod nnue;
pub mod psq;
pub mod score;
pub mod weights;

pub use choice::{EvalChoice, Evaluator};
pub use score::Score;

use crate::board::attacks::{self, delta};
use crate::board::{Color, PieceKind, Position, Square};
use weights::*;

/// The non-table terms for one side, each as a middlegame/endgame pair.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Missing advisors and elephants against the enemy's attacking pieces.
    pub king_safety: Score,
    /// Cannons facing the enemy king with no screen (空头炮).
    pub empty_screen_cannon: Score,
    /// Cannons on the enemy back rank beside the king (沉底炮).
    pub bottom_cannon: Score,
    /// Trapped or cramped horses.
    pub horse_mobility: Score,
    /// Squares the rooks reach.
    pub rook_mobility: Score,
    /// Squares the horses and cannons reach.
    pub minor_mobility: Score,
    /// Crossed pawns side by side.
    pub connected_pawns: Score,
    /// Cannons on the enemy king's file with two pieces between (中炮 pressure).
    pub screened_cannon: Score,
    /// Pairs of attackers near the enemy king.
    pub king_attack: Score,
}

impl Terms {
    /// Names and values, in a fixed order (for printing).
    pub fn named(&self) -> [(&'static str, Score); 9] {
        [
            ("king safety", self.king_safety),
            ("empty-screen cannon", self.empty_screen_cannon),
            ("bottom cannon", self.bottom_cannon),
            ("horse mobility", self.horse_mobility),
            ("rook mobility", self.rook_mobility),
            ("horse/cannon mobility", self.minor_mobility),
            ("connected pawns", self.connected_pawns),
            ("screened cannon", self.screened_cannon),
            ("king attack", self.king_attack),
        ]
    }

    /// The sum of all terms.
    pub fn total(&self) -> Score {
        self.named().iter().fold(Score::ZERO, |acc, (_, s)| acc + *s)
    }
}

/// Groups of extra terms the evaluation can leave out, to measure what each is worth in games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TermSet {
    /// Missing advisors and elephants against attackers.
    pub king_safety: bool,
    /// Empty-screen, bottom and central (two-screen) cannons.
    pub cannons: bool,
    /// Trapped and cramped horses, rook, horse and cannon mobility.
    pub mobility: bool,
    /// Connected crossed pawns.
    pub pawns: bool,
    /// Attacker pairs near the enemy king.
    pub king_attack: bool,
}

impl TermSet {
    /// Every term: the evaluation as it plays.
    pub const ALL: TermSet =
        TermSet { king_safety: true, cannons: true, mobility: true, pawns: true, king_attack: true };

    /// The group names, as the `withoutterms` option takes them.
    pub const NAMES: [&'static str; 5] = ["kingsafety", "cannons", "mobility", "pawns", "kingattack"];

    /// The set with each group named in `list` (comma- or space-separated, may be empty) left out.
    pub fn without_list(mut self, list: &str) -> Result<TermSet, String> {
        for name in list.split([',', ' ']).filter(|n| !n.is_empty()) {
            let flag = match name {
                "kingsafety" => &mut self.king_safety,
                "cannons" => &mut self.cannons,
                "mobility" => &mut self.mobility,
                "pawns" => &mut self.pawns,
                "kingattack" => &mut self.king_attack,
                other => {
                    return Err(format!("unknown evaluation term '{other}' ({})", Self::NAMES.join(", ")))
                }
            };
            *flag = false;
        }
        Ok(self)
    }

    /// `terms` with the groups this set leaves out zeroed.
    #[inline]
    fn keep(self, mut terms: Terms) -> Terms {
        if self == TermSet::ALL {
            return terms;
        }
        let zero_unless = |on: bool, s: &mut Score| {
            if !on {
                *s = Score::ZERO;
            }
        };
        zero_unless(self.king_safety, &mut terms.king_safety);
        zero_unless(self.cannons, &mut terms.empty_screen_cannon);
        zero_unless(self.cannons, &mut terms.bottom_cannon);
        zero_unless(self.cannons, &mut terms.screened_cannon);
        zero_unless(self.mobility, &mut terms.horse_mobility);
        zero_unless(self.mobility, &mut terms.rook_mobility);
        zero_unless(self.mobility, &mut terms.minor_mobility);
        zero_unless(self.pawns, &mut terms.connected_pawns);
        zero_unless(self.king_attack, &mut terms.king_attack);
        terms
    }
}

impl Default for TermSet {
    fn default() -> Self {
        TermSet::ALL
    }
}

/// Static evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, TermSet::ALL)
}

/// Static evaluation with only the extra terms of `set`.
#[inline]
pub fn evaluate_with(pos: &Position, set: TermSet) -> i32 {
    let terms = |color| set.keep(side_terms(pos, color)).total();
    let red = pos.psq_score() + terms(Color::Red) - terms(Color::Black);
    let value = red.taper(pos.phase(), MAX_PHASE);
    match pos.side_to_move() {
        Color::Red => value + TEMPO,
        Color::Black => -value + TEMPO,
    }
}

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

/// The terms for `us`.
pub fn side_terms(pos: &Position, us: Color) -> Terms {
    let c = term_counts(pos, us);
    Terms {
        king_safety: MISSING_ADVISOR * c.missing_advisors_by_force
            + MISSING_ELEPHANT * c.missing_elephants_by_force,
        empty_screen_cannon: EMPTY_SCREEN_CANNON * c.empty_screen_cannons,
        bottom_cannon: BOTTOM_CANNON * c.bottom_cannons,
        horse_mobility: TRAPPED_HORSE * c.trapped_horses + CRAMPED_HORSE * c.cramped_horses,
        rook_mobility: ROOK_MOBILITY * c.rook_mobility,
        minor_mobility: HORSE_MOBILITY * c.horse_mobility + CANNON_MOBILITY * c.cannon_mobility,
        connected_pawns: CONNECTED_PAWNS * c.connected_pawns,
        screened_cannon: SCREENED_CANNON * c.screened_cannons,
        king_attack: KING_ATTACK * c.king_attacker_pairs,
    }
}

/// A full account of an evaluation, for `chariot eval`.
pub struct Breakdown {
    /// Each piece with its material + placement value (owner's view, before tapering).
    pub pieces: Vec<(Square, char, Score)>,
    /// Terms per side (Red, Black).
    pub terms: [Terms; 2],
    /// Phase and its maximum.
    pub phase: (i32, i32),
    /// The final value from the side to move's view (what `evaluate` returns).
    pub total: i32,
}

/// Explains `evaluate(pos)` term by term.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut pieces = Vec::new();
    for sq in Square::all() {
        let p = pos.piece_at(sq);
        if p.is_piece() {
            pieces.push((sq, p.letter(), psq::PSQ[p.type_index()][sq.index()]));
        }
    }
    Breakdown {
        pieces,
        terms: [side_terms(pos, Color::Red), side_terms(pos, Color::Black)],
        phase: (pos.phase(), MAX_PHASE),
        total: evaluate(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), TEMPO, "symmetric: only the tempo bonus");
        let b = breakdown(&pos);
        assert_eq!(b.terms[0], b.terms[1]);
        assert_eq!(b.pieces.len(), 32);
    }

    #[test]
    fn colour_flip_negates_and_mirror_keeps() {
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "4k4/4C4/5P3/1R7/9/9/4r4/3A5/6pp1/5K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos.color_flipped()), evaluate(&pos), "{fen}");
            assert_eq!(evaluate(&pos.files_mirrored()), evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn extra_rook_is_winning() {
        // Red has an extra rook on a0; otherwise the start position.
        let with = eval_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        let without = eval_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert!(without - with > 150, "{without} vs {with}");
    }

    #[test]
    fn terms_fire_on_positions_that_show_them() {
        // Red cannon e4 faces the black king e9 over an empty file: 空头炮.
        let pos = Position::from_fen("3akab2/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Red).empty_screen_cannon, EMPTY_SCREEN_CANNON);
        assert_eq!(side_terms(&pos, Color::Red).bottom_cannon, Score::ZERO);
        // Red cannon a9 on Black's back rank with the king there (it checks over d9: Black to move).
        let pos = Position::from_fen("C2akab2/9/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Red).bottom_cannon, BOTTOM_CANNON);
        assert_eq!(side_terms(&pos, Color::Red).empty_screen_cannon, Score::ZERO);
        // Red horse a0 boxed in by its own rooks on b2 and c1: no square to go to.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/1R7/2R6/N2K5 w - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Red).horse_mobility, TRAPPED_HORSE);
        // Black has one advisor and faces two red rooks (force 2 x 3): a penalty for one missing
        // advisor. Red misses an advisor and both elephants but Black has no attackers: no penalty.
        let pos = Position::from_fen("2b1kab2/9/9/9/9/9/9/9/R3A3R/3K5 w - - 0 1").unwrap();
        assert_eq!(side_terms(&pos, Color::Black).king_safety, MISSING_ADVISOR * 6);
        assert_eq!(side_terms(&pos, Color::Red).king_safety, Score::ZERO);
    }

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

    #[test]
    fn term_groups_switch_off_by_name() {
        // Red's cannon faces the black king over an empty file: only the cannon group sees it.
        let pos = Position::from_fen("3akab2/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1").unwrap();
        let all = evaluate(&pos);
        assert_eq!(evaluate_with(&pos, TermSet::ALL.without_list("").unwrap()), all);
        let no_cannons = evaluate_with(&pos, TermSet::ALL.without_list("cannons").unwrap());
        // Within one for the taper's rounding of a sum against the sum of its parts.
        assert!((all - no_cannons - EMPTY_SCREEN_CANNON.taper(pos.phase(), MAX_PHASE)).abs() <= 1);
        assert!(all > no_cannons);
        assert_eq!(evaluate_with(&pos, TermSet::ALL.without_list("pawns, kingattack").unwrap()), all);
        let err = TermSet::ALL.without_list("cannons,tempo").unwrap_err();
        assert!(err.contains("unknown evaluation term 'tempo'"), "{err}");
    }

    #[test]
    fn breakdown_adds_up() {
        let pos =
            Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 0 1")
                .unwrap();
        let b = breakdown(&pos);
        let mut red = Score::ZERO;
        for (_, letter, s) in &b.pieces {
            if letter.is_ascii_uppercase() {
                red += *s
            } else {
                red -= *s
            }
        }
        red += b.terms[0].total() - b.terms[1].total();
        assert_eq!(-red.taper(b.phase.0, b.phase.1) + TEMPO, b.total);
    }
}
