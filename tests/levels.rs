//! The skill levels through the library: a low level plays other moves than full strength, a
//! fixed seed repeats them, and a middle level never gives a rook away where most moves would.
//! (The options and `Skill Level 20` against no option: tests/protocol/options.rs; `play --level`:
//! tests/play.rs; the tables themselves: `search::skill`'s unit tests.)

use chariot::board::{movegen, Move, Position};
use chariot::protocol::position_cmd::parse_position;
use chariot::search::{Engine, Limits, SearchControl, SearchResult, Skill};

fn search(pos: &Position, skill: Skill, limits: &Limits) -> SearchResult {
    let mut engine = Engine::new(16);
    engine.options.skill = skill;
    let control = SearchControl::new();
    control.start(false);
    engine.search(pos, limits, &control, &mut |_| {})
}

/// Positions six plies into the first openings of the match set.
fn opening_positions(count: usize) -> Vec<Position> {
    let openings =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.txt")).unwrap();
    openings
        .lines()
        .take(count)
        .map(|line| parse_position(&format!("startpos moves {line}")).unwrap())
        .collect()
}

#[test]
fn a_low_level_plays_other_moves_than_full_strength_and_a_seed_repeats_them() {
    let positions = opening_positions(12);
    let full: Vec<Option<Move>> =
        positions.iter().map(|p| search(p, Skill::FULL, &Limits::depth(7)).best).collect();
    let low = |seed| -> Vec<Option<Move>> {
        let skill = Skill::level(0).with_seed(seed);
        positions.iter().map(|p| search(p, skill, &Limits::depth(7)).best).collect()
    };
    let first = low(1);
    let differ = full.iter().zip(&first).filter(|(f, l)| f != l).count();
    assert!(differ >= 4, "level 0 played the full-strength move in {} of 12 positions", 12 - differ);
    for (pos, mv) in positions.iter().zip(&first) {
        assert!(movegen::is_legal(&mut pos.clone(), mv.unwrap()));
    }
    // One seed, one game: the same moves again. Another seed varies some of them.
    assert_eq!(low(1), first);
    assert_ne!(low(2), first);
}

/// Red's rook on c5 is attacked by the horse on d7. It has safe squares (c6, c7, c8, b5, d5, f5,
/// h5, c4), but on c9, a5, e5, g5 and i5 it is taken for nothing, and every other move leaves it
/// where it stands. Built by hand; the test checks the blunders with a full-strength search.
const ROOK_ATTACKED: &str = "3aka3/9/3n5/p5p1p/2R6/9/P1P1P1P1P/9/9/3AKA3 w - - 0 1";
/// The same with colours swapped: Black's rook on c4, Red's horse on d2.
const ROOK_ATTACKED_BLACK: &str = "3aka3/9/9/p1p1p1p1p/9/2r6/P5P1P/3N5/9/3AKA3 b - - 0 1";

/// The legal moves of `pos` that lose at least `margin` against the best one, each searched at
/// full strength to `depth` on its own.
fn blunders(pos: &Position, depth: i32, margin: i32) -> (Vec<Move>, usize) {
    let moves = movegen::legal_moves(&mut pos.clone());
    let scored: Vec<(Move, i32)> = moves
        .iter()
        .map(|&mv| {
            let limits = Limits { search_moves: vec![mv], ..Limits::depth(depth) };
            (mv, search(pos, Skill::FULL, &limits).score)
        })
        .collect();
    let best = scored.iter().map(|&(_, s)| s).max().unwrap();
    (scored.iter().filter(|&&(_, s)| s <= best - margin).map(|&(mv, _)| mv).collect(), moves.len())
}

#[test]
fn a_middle_level_never_hangs_a_rook() {
    for (fen, safe) in [(ROOK_ATTACKED, "c5c6"), (ROOK_ATTACKED_BLACK, "c4c3")] {
        let pos = Position::from_fen(fen).unwrap();
        // A rook is worth about 250 and the horse that takes it about 100: the blunders lose
        // at least 150 whatever else the line holds. Most moves are blunders here.
        let (hanging, all) = blunders(&pos, 6, 150);
        assert!(hanging.len() * 2 > all, "{fen}: only {} of {all} moves lose the rook", hanging.len());
        let into_capture = ["c5c9", "c5a5", "c5e5", "c5g5", "c5i5", "c4c0", "c4a4", "c4e4", "c4g4", "c4i4"];
        let named = hanging.iter().filter(|mv| into_capture.contains(&mv.to_string().as_str())).count();
        assert_eq!(named, 5, "{fen}: the rook's moves into capture are blunders: {hanging:?}");
        // The root narrowed to one safe move and three of the blunders, so that the four lines
        // chosen among hold them: then the level's bounded weakness alone keeps it from them.
        let three = ["c5e5", "c5a5", "c5i5", "c4e4", "c4a4", "c4i4"];
        let narrowed: Vec<Move> =
            std::iter::once(&safe).chain(&three).filter_map(|m| Move::parse_iccs(m)).collect();
        let narrowed: Vec<Move> =
            narrowed.into_iter().filter(|&m| movegen::is_legal(&mut pos.clone(), m)).collect();
        assert_eq!(narrowed.len(), 4, "{fen}");
        // The middle levels, with many seeds: never a blunder, on the whole board or the narrowed one.
        for level in 6..=14 {
            for seed in 0..12 {
                let skill = Skill::level(level).with_seed(seed);
                let mv = search(&pos, skill, &Limits::movetime(10_000)).best.unwrap();
                assert!(
                    !hanging.contains(&mv),
                    "{fen}: level {level} (seed {seed}) played {mv}, losing the rook"
                );
                let limits = Limits { search_moves: narrowed.clone(), ..Limits::movetime(10_000) };
                let mv = search(&pos, skill, &limits).best.unwrap();
                assert_eq!(mv.to_string(), safe, "{fen}: level {level} (seed {seed}), among {narrowed:?}");
            }
        }
    }
}
