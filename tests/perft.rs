//! Perft against the reference counts in `tests/data/perft.txt`, and symmetry of the counts.

use chariot::board::{movegen, Move, MoveList, Position, Square};

const REFERENCE: &str = "tests/data/perft.txt";

/// (FEN, depth, leaves) for each reference line.
fn reference_lines() -> Vec<(String, u32, u64)> {
    let text = std::fs::read_to_string(REFERENCE).expect("tests/data is in the repository");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split(';').collect();
            assert_eq!(parts.len(), 3, "malformed reference line {line}");
            (parts[0].to_string(), parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .collect()
}

/// Lines whose tree is small enough for a debug build.
fn is_small(leaves: u64) -> bool {
    leaves < 10_000_000
}

#[test]
fn reference_counts_match() {
    let lines = reference_lines();
    assert!(lines.len() >= 40, "the reference file has all its lines");
    for (fen, depth, leaves) in lines.into_iter().filter(|l| is_small(l.2)) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(movegen::perft(&mut pos, depth), leaves, "perft {depth} of {fen}");
        assert_eq!(pos.key(), pos.recomputed_key(), "key restored");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "133M leaves: release test run only")]
fn start_position_depth_5() {
    for (fen, depth, leaves) in reference_lines().into_iter().filter(|l| !is_small(l.2)) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(movegen::perft(&mut pos, depth), leaves, "perft {depth} of {fen}");
    }
}

#[test]
fn mirrored_twins_give_the_same_counts() {
    for (fen, depth, leaves) in reference_lines().into_iter().filter(|l| l.1 == 3) {
        let pos = Position::from_fen(&fen).unwrap();
        let mut flipped = pos.color_flipped();
        let mut mirrored = pos.files_mirrored();
        // The twins must be valid positions in their own right, and round-trip through FEN.
        assert_eq!(Position::from_fen(&flipped.to_fen()).unwrap(), flipped);
        assert_eq!(movegen::perft(&mut flipped, depth), leaves, "colour-flipped twin of {fen}");
        assert_eq!(movegen::perft(&mut mirrored, depth), leaves, "left-right mirror of {fen}");
    }
}

/// Checks one position: the captures are the pseudo-legal moves that capture, the search's
/// legality filter agrees with trying each move, `key_after` with making it and recomputing the
/// key, and `is_pseudo_legal` (which vets hash moves, killers and moves from outside) accepts
/// exactly the pseudo-legal moves.
fn check_moves(pos: &Position, vet_every_square: bool) {
    let (mut all, mut captures) = (MoveList::new(), MoveList::new());
    movegen::pseudo_moves(pos, &mut all);
    movegen::pseudo_captures(pos, &mut captures);
    let fen = pos.to_fen();
    let mut capturing: Vec<Move> = all.iter().copied().filter(|m| pos.piece_at(m.to()).is_piece()).collect();
    let mut generated: Vec<Move> = captures.iter().copied().collect();
    let sort = |list: &mut Vec<Move>| list.sort_by_key(|m| (m.from().index(), m.to().index()));
    sort(&mut capturing);
    sort(&mut generated);
    assert_eq!(generated, capturing, "the captures differ from the capturing moves in {fen}");
    // The filter skips the full test for moves that touch none of the king's lines and legs.
    let filter = movegen::LegalityFilter::new(pos);
    let mut scratch = pos.clone();
    for &mv in all.iter() {
        assert_eq!(
            filter.is_legal(&mut scratch, mv),
            scratch.leaves_king_safe(mv),
            "legality of {mv} in {fen}"
        );
        // The key the search prefetches by is the key the move makes.
        let predicted = scratch.key_after(mv);
        scratch.make_move(mv);
        assert_eq!(predicted, scratch.key(), "key after {mv} in {fen}");
        assert_eq!(scratch.key(), scratch.recomputed_key(), "key after {mv} in {fen}, recomputed");
        scratch.unmake_move();
    }
    if vet_every_square {
        for from in Square::all() {
            for to in Square::all() {
                let mv = Move::new(from, to);
                assert_eq!(movegen::is_pseudo_legal(pos, mv), all.contains(mv), "{mv} in {fen}");
            }
        }
    }
}

#[test]
fn captures_and_the_pseudo_legal_test_agree_with_the_generator() {
    for (fen, _, _) in reference_lines().into_iter().filter(|l| l.1 == 3) {
        let mut pos = Position::from_fen(&fen).unwrap();
        check_moves(&pos, true);
        for &mv in movegen::legal_moves(&mut pos).iter() {
            pos.make_move(mv);
            check_moves(&pos, true);
            for &reply in movegen::legal_moves(&mut pos).iter() {
                pos.make_move(reply);
                check_moves(&pos, false);
                pos.unmake_move();
            }
            pos.unmake_move();
        }
    }
}
