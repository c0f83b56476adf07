//! Each table and walker against a definition in files and ranks, square by square, on empty
//! and random boards. The definitions are shared with the attack tests (`check`'s).

use super::*;
use crate::board::Piece;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// The square `df` files and `dr` ranks from `sq`, if that is on the board.
pub(super) fn shifted(sq: Square, df: i32, dr: i32) -> Option<Square> {
    let (file, rank) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
    ((0..9).contains(&file) && (0..10).contains(&rank)).then(|| Square::new(file as u8, rank as u8))
}

pub(super) fn in_a_palace(sq: Square) -> bool {
    (3..=5).contains(&sq.file()) && (sq.rank() <= 2 || sq.rank() >= 7)
}

pub(super) fn on_own_half(sq: Square, color: Color) -> bool {
    match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    }
}

pub(super) fn forward_ranks(color: Color) -> i32 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Boards with pieces of random colour and kind on about `percent` of the squares (not
/// necessarily legal positions: the geometry must not care).
pub(super) fn random_boards(seed: u64) -> Vec<Mailbox> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut boards = vec![Mailbox::empty()];
    for percent in [5, 15, 30, 50, 80] {
        for _ in 0..8 {
            let mut board = Mailbox::empty();
            for sq in Square::all() {
                if rng.gen_range(0..100) < percent {
                    let color = if rng.gen() { Color::Red } else { Color::Black };
                    board[sq] = Piece::from_slot(color, rng.gen_range(0..16));
                }
            }
            boards.push(board);
        }
    }
    boards
}

pub(super) fn collect(visitor: impl FnOnce(&mut dyn FnMut(Square))) -> Vec<Square> {
    let mut seen = Vec::new();
    visitor(&mut |s| {
        if s.on_board() {
            seen.push(s);
        }
    });
    seen.sort();
    seen
}

/// Where a `color` `kind` on `from` steps by the rules as people state them (not rooks and
/// cannons), on `board`.
pub(super) fn stepped_to(board: &Mailbox, color: Color, kind: PieceKind, from: Square) -> Vec<Square> {
    let mut to = Vec::new();
    for df in -2..=2i32 {
        for dr in -2..=2i32 {
            let Some(s) = shifted(from, df, dr) else { continue };
            let ok = match kind {
                PieceKind::King => df.abs() + dr.abs() == 1 && in_a_palace(s),
                PieceKind::Advisor => df.abs() == 1 && dr.abs() == 1 && in_a_palace(s),
                PieceKind::Elephant => {
                    let eye = shifted(from, df / 2, dr / 2).unwrap();
                    df.abs() == 2 && dr.abs() == 2 && board[eye].is_empty() && on_own_half(s, color)
                }
                PieceKind::Horse => {
                    df.abs() + dr.abs() == 3
                        && df != 0
                        && dr != 0
                        && board[horse_leg(from, df, dr)].is_empty()
                }
                PieceKind::Pawn => {
                    (df == 0 && dr == forward_ranks(color))
                        || (dr == 0 && df.abs() == 1 && !on_own_half(from, color))
                }
                PieceKind::Rook | PieceKind::Cannon => unreachable!("lines are tested apart"),
            };
            if ok {
                to.push(s);
            }
        }
    }
    to.sort();
    to
}

/// The leg of a horse on `from` moving `df` files and `dr` ranks (an L on the board): the
/// first square along the long side of the L.
pub(super) fn horse_leg(from: Square, df: i32, dr: i32) -> Square {
    if df.abs() == 2 { shifted(from, df / 2, 0) } else { shifted(from, 0, dr / 2) }.unwrap()
}

/// The pieces strictly between two squares on one line, or `None` if they share no line.
pub(super) fn pieces_between(board: &Mailbox, a: Square, b: Square) -> Option<usize> {
    let (df, dr) = (b.file() as i32 - a.file() as i32, b.rank() as i32 - a.rank() as i32);
    if (df != 0 && dr != 0) || a == b {
        return None;
    }
    let n = df.abs().max(dr.abs());
    Some((1..n).filter(|i| board[shifted(a, df.signum() * i, dr.signum() * i).unwrap()].is_piece()).count())
}

#[test]
fn step_visitors_follow_the_rules_on_every_square() {
    for board in random_boards(1) {
        for from in Square::all() {
            for color in Color::BOTH {
                let b = &board;
                assert_eq!(
                    collect(|v| king_steps(from, v)),
                    stepped_to(b, color, PieceKind::King, from),
                    "king {from}"
                );
                assert_eq!(
                    collect(|v| advisor_steps(from, v)),
                    stepped_to(b, color, PieceKind::Advisor, from),
                    "advisor {from}"
                );
                assert_eq!(
                    collect(|v| elephant_steps(b, color, from, v)),
                    stepped_to(b, color, PieceKind::Elephant, from),
                    "{color:?} elephant {from}"
                );
                assert_eq!(
                    collect(|v| horse_steps(b, from, v)),
                    stepped_to(b, color, PieceKind::Horse, from),
                    "horse {from}"
                );
                assert_eq!(
                    collect(|v| pawn_steps(color, from, v)),
                    stepped_to(b, color, PieceKind::Pawn, from),
                    "{color:?} pawn {from}"
                );
            }
        }
    }
}

#[test]
fn step_tables_hold_every_move_once_with_its_blocking_square() {
    for from in Square::all() {
        // Elephant: (eye, destination) is (midpoint, two diagonal steps away).
        let table: BTreeSet<_> = ELEPHANT_STEPS
            .iter()
            .map(|&(eye, to)| (from.offset(eye), from.offset(to)))
            .filter(|(_, to)| to.on_board())
            .collect();
        let mut rule = BTreeSet::new();
        for (df, dr) in [(-2, -2), (-2, 2), (2, -2), (2, 2)] {
            if let Some(to) = shifted(from, df, dr) {
                rule.insert((shifted(from, df / 2, dr / 2).unwrap(), to));
            }
        }
        assert_eq!(table, rule, "elephant {from}");

        // Horse, both ways: (leg, destination) from the horse, (leg, horse) from its target.
        let mut forward = BTreeSet::new();
        let mut backward = BTreeSet::new();
        for other in Square::all() {
            let (df, dr) =
                (other.file() as i32 - from.file() as i32, other.rank() as i32 - from.rank() as i32);
            if df.abs() + dr.abs() != 3 || df == 0 || dr == 0 {
                continue;
            }
            forward.insert((horse_leg(from, df, dr), other));
            backward.insert((horse_leg(other, -df, -dr), other));
        }
        // The table's (leg, other square) pairs from `from`, those with the other on the board.
        let pairs = |table: [(i8, [i8; 2]); 4]| -> BTreeSet<(Square, Square)> {
            table
                .iter()
                .flat_map(|&(leg, others)| others.map(|d| (from.offset(leg), from.offset(d))))
                .filter(|(_, other)| other.on_board())
                .collect()
        };
        assert_eq!(pairs(HORSE_STEPS), forward, "horse from {from}");
        assert_eq!(pairs(HORSE_ATTACKER_STEPS), backward, "horses attacking {from}");

        // The legs toward a square are its diagonal neighbours (near the edge, some with no
        // horse square behind them: a filter may ask about a few squares too many).
        for sq in Square::all() {
            let diagonal = sq.file().abs_diff(from.file()) == 1 && sq.rank().abs_diff(from.rank()) == 1;
            assert_eq!(is_horse_leg_toward(from, sq), diagonal, "leg {sq} toward {from}");
            if backward.iter().any(|&(leg, _)| leg == sq) {
                assert!(diagonal);
            }
        }
    }
}

#[test]
fn the_ray_walker_finds_what_a_naive_walk_finds() {
    let directions = [(delta::UP, 0, 1), (delta::DOWN, 0, -1), (delta::LEFT, -1, 0), (delta::RIGHT, 1, 0)];
    for board in random_boards(2) {
        for from in Square::all() {
            for (d, df, dr) in directions {
                // Naively: every square along the line in files and ranks, until the edge.
                let line: Vec<Square> = (1..10).map_while(|i| shifted(from, df * i, dr * i)).collect();
                let empties: Vec<Square> =
                    line.iter().copied().take_while(|&s| board[s].is_empty()).collect();
                let mut pieces = line.iter().copied().filter(|&s| board[s].is_piece());
                let (first, second) = (pieces.next(), pieces.next());

                let mut visited = Vec::new();
                let stop = walk(&board, from, d, |s| visited.push(s));
                assert_eq!(visited, empties, "{from} {d}");
                let found = blockers(&board, from, d);
                assert_eq!(found.first, stop);
                assert_eq!(first_blocker(&board, from, d), stop);
                match first {
                    Some(first) => assert_eq!(found.first, first, "{from} {d}"),
                    None => assert!(!found.first.on_board() && !board[found.first].is_piece()),
                }
                match (first, second) {
                    (None, _) => assert_eq!(found.second, found.first),
                    (Some(_), Some(second)) => assert_eq!(found.second, second, "{from} {d}"),
                    (Some(_), None) => {
                        assert!(!found.second.on_board() && !board[found.second].is_piece())
                    }
                }
            }
        }
    }
}

#[test]
fn reaches_follows_the_rules_for_every_piece() {
    for board in random_boards(3) {
        for from in Square::all().filter(|&s| board[s].is_piece()) {
            let (color, kind) = (board[from].color(), board[from].kind());
            let steps = match kind {
                PieceKind::Rook | PieceKind::Cannon => Vec::new(),
                _ => stepped_to(&board, color, kind, from),
            };
            for to in Square::all() {
                let rule = match kind {
                    PieceKind::Rook => pieces_between(&board, from, to) == Some(0),
                    PieceKind::Cannon => {
                        pieces_between(&board, from, to) == Some(board[to].is_piece() as usize)
                    }
                    _ => steps.contains(&to),
                };
                assert_eq!(reaches(&board, from, to), rule, "{color:?} {kind:?} {from} to {to}");
            }
        }
    }
}

#[test]
fn reachable_squares_are_those_the_steps_reach_from_the_start() {
    let empty = Mailbox::empty();
    let starts: [(PieceKind, &[&str]); 7] = [
        (PieceKind::King, &["e0"]),
        (PieceKind::Advisor, &["d0", "f0"]),
        (PieceKind::Elephant, &["c0", "g0"]),
        (PieceKind::Horse, &["b0", "h0"]),
        (PieceKind::Rook, &["a0", "i0"]),
        (PieceKind::Cannon, &["b2", "h2"]),
        (PieceKind::Pawn, &["a3", "c3", "e3", "g3", "i3"]),
    ];
    for color in Color::BOTH {
        for (kind, squares) in starts {
            // Red's start squares, turned over for Black; then every square the steps lead to.
            let mut seen: BTreeSet<Square> = squares
                .iter()
                .map(|s| Square::parse(s).unwrap())
                .map(|s| if color == Color::Red { s } else { s.flip_ranks() })
                .collect();
            let mut frontier: Vec<Square> = seen.iter().copied().collect();
            while let Some(from) = frontier.pop() {
                let next = match kind {
                    PieceKind::Rook | PieceKind::Cannon => collect(|v| {
                        delta::ORTHOGONAL.iter().for_each(|&d| _ = walk(&empty, from, d, &mut *v))
                    }),
                    _ => stepped_to(&empty, color, kind, from),
                };
                for to in next {
                    if seen.insert(to) {
                        frontier.push(to);
                    }
                }
            }
            // The rule is looser for pawns: it takes every file of the two ranks before the
            // river, where the steps keep an uncrossed pawn on its own file.
            let red_frame = |sq: Square| if color == Color::Red { sq } else { sq.flip_ranks() };
            let loose = |sq: Square| {
                let sq = red_frame(sq);
                kind == PieceKind::Pawn && (3..=4).contains(&sq.rank()) && sq.file() % 2 == 1
            };
            for sq in Square::all() {
                let expected = seen.contains(&sq) || loose(sq);
                assert_eq!(reachable(color, kind, sq), expected, "{color:?} {kind:?} {sq}");
            }
        }
    }
}

#[test]
fn capture_targets_are_the_occupied_squares_a_piece_reaches() {
    let mut relations = 0;
    for board in random_boards(31) {
        for from in Square::all().filter(|&s| board[s].is_piece()) {
            let mut directions = Vec::new();
            let got = collect(|v| {
                capture_targets(&board, from, |d, s| {
                    directions.push(d);
                    v(s)
                })
            });
            let expected: Vec<Square> = Square::all()
                .filter(|&to| to != from && board[to].is_piece() && reaches(&board, from, to))
                .collect();
            assert_eq!(got, expected, "{:?} on {from}", board[from].kind());
            let distinct: BTreeSet<usize> = directions.iter().copied().collect();
            assert!(distinct.len() == directions.len() && directions.iter().all(|&d| d < MAX_TARGETS));
            relations += got.len();
        }
    }
    // Whatever else stands on the board, a target found a given way has the same direction.
    let directions = |fen: &str| {
        let pos = crate::board::Position::from_fen(fen).unwrap();
        let mut found = Vec::new();
        capture_targets(pos.mailbox(), Square::parse("e1").unwrap(), |d, s| found.push((d, s.to_string())));
        found
    };
    let up_down = |up: &str| vec![(0, up.to_string()), (1, "e0".to_string())];
    assert_eq!(directions("4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1"), up_down("e9"));
    assert_eq!(directions("3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), up_down("e8"));
    assert!(relations > 1_000, "{relations}");
}
