//! The scored data pipeline: the packed format keeps every field, damaged files are refused
//! with the place of the fault, runs are reproducible, appending and resuming after an
//! interruption give the data an uninterrupted run gives, and the labels mean what they say.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use chariot::board::{movegen, Color, Position};
use chariot::datagen::format::{square_index, Header, Record, Wdl, BLOCK, MAX_SCORE};
use chariot::datagen::games::{play, DatagenConfig, GameEnd, Played};
use chariot::datagen::merge::{merge, MergeError};
use chariot::datagen::reader::{read_all, scan_for_append, DataError, DataReader};
use chariot::datagen::scored::{self, Target};
use chariot::datagen::shard::Shard;
use chariot::datagen::stats;
use chariot::eval::nnue::Architecture;
use chariot::eval::EvalChoice;
use chariot::rules::{game_result, Termination};
use chariot::search::Engine;
use chariot::tournament::Opening;
use chariot::train::FloatNetwork;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn test_data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file)
}

fn scratch(test: &str) -> PathBuf {
    common::scratch_dir("datagen", test)
}

/// The perft FENs and every position of a seeded random walk of `plies` plies from each.
fn varied_positions(plies: usize, seed: u64) -> Vec<Position> {
    let text = std::fs::read_to_string(test_data("perft.txt")).unwrap();
    let mut fens: Vec<&str> =
        text.lines().filter_map(|l| l.split(';').next()).filter(|f| !f.is_empty()).collect();
    fens.dedup();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap();
        for _ in 0..plies {
            out.push(pos.clone());
            let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
            let Some(&mv) = moves.choose(&mut rng) else { break };
            pos.make_move(mv);
        }
    }
    out
}

/// The board and side fields of a FEN (the format keeps no clocks).
fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A labelled record of `pos` with a random score, a random legal best move and random game
/// fields; also returns what was put in.
fn random_record(
    pos: &Position,
    rng: &mut StdRng,
) -> Option<(Record, i32, GameEnd, Option<Color>, u32, bool)> {
    let moves: Vec<_> = movegen::legal_moves(&mut pos.clone()).iter().copied().collect();
    let &best = moves.choose(rng)?;
    let score = rng.gen_range(-MAX_SCORE..=MAX_SCORE);
    let end = *GameEnd::ALL.choose(rng).unwrap();
    let winner = if end.is_draw() { None } else { Some(*Color::BOTH.choose(rng).unwrap()) };
    let game = rng.gen::<u32>();
    let last = rng.gen_bool(0.5);
    let mut rec = Record::new(pos, score, best);
    rec.finish(game, end, winner, last);
    Some((rec, score, end, winner, game, last))
}

#[test]
fn the_format_keeps_every_field_of_random_legal_positions() {
    let positions = varied_positions(60, 7);
    assert!(positions.len() > 500, "{}", positions.len());
    let mut rng = StdRng::seed_from_u64(8);
    let mut sides = [0; 2];
    for pos in &positions {
        let Some((rec, score, end, winner, game, last)) = random_record(pos, &mut rng) else { continue };
        let rec = Record::from_bytes(*rec.as_bytes());
        rec.validate().unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
        assert_eq!(board_and_side(&rec.to_fen()), board_and_side(&pos.to_fen()));
        let back = rec.to_position().unwrap();
        assert_eq!(back.key(), pos.key(), "{}", pos.to_fen());
        let side = pos.side_to_move();
        sides[side.index()] += 1;
        assert_eq!(rec.side_to_move(), side);
        assert_eq!(rec.score() as i32, score);
        assert_eq!(rec.red_score(), if side == Color::Red { score } else { -score });
        assert_eq!(rec.result(), Wdl::for_side(side, winner));
        assert_eq!(rec.red_result(), Wdl::for_side(Color::Red, winner));
        assert_eq!((rec.game(), rec.game_end(), rec.last_of_game()), (game, Some(end), last));
        assert_eq!(rec.ply() as usize, pos.game_ply());
        let mut expected: Vec<(usize, Color, chariot::board::PieceKind)> = Vec::new();
        for color in Color::BOTH {
            for kind in chariot::board::PieceKind::ALL {
                expected.extend(pos.pieces(color, kind).map(|sq| (square_index(sq), color, kind)));
            }
        }
        expected.sort_by_key(|p| p.0);
        assert_eq!(rec.pieces().collect::<Vec<_>>(), expected);
    }
    assert!(sides[0] > 100 && sides[1] > 100, "{sides:?}");
    // Scores beyond the format's range are clamped to it.
    let start = Position::startpos();
    let best = movegen::legal_moves(&mut start.clone()).as_slice()[0];
    assert_eq!(Record::new(&start, 29_990, best).score() as i32, MAX_SCORE);
}

/// A data file of `games` games of three records each (starting with game `first`), made from
/// random walks, plus the records.
fn write_small_file(path: &Path, seed: u64, first: u32, games: u32) -> Vec<Record> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = Header::whole(seed, 100, 42).to_bytes().to_vec();
    let mut records = Vec::new();
    for game in first..first + games {
        let mut pos = Position::startpos();
        let winner = *[None, Some(Color::Red), Some(Color::Black)].choose(&mut rng).unwrap();
        let end = if winner.is_some() { GameEnd::Resigned } else { GameEnd::DrawAdjudicated };
        for i in 0..3 {
            for _ in 0..rng.gen_range(1..4) {
                let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
                pos.make_move(*moves.choose(&mut rng).unwrap());
            }
            let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
            let quiet: Vec<_> = moves.iter().copied().filter(|m| !pos.piece_at(m.to()).is_piece()).collect();
            let mut rec = Record::new(&pos, rng.gen_range(-500..500), *quiet.choose(&mut rng).unwrap());
            rec.finish(game, end, winner, i == 2);
            bytes.extend_from_slice(rec.as_bytes());
            records.push(rec);
        }
    }
    std::fs::write(path, bytes).unwrap();
    records
}

fn refusal(path: &Path) -> DataError {
    read_all(path).expect_err("a damaged file is refused")
}

/// The offset of record `n` in a single-shard file.
fn offset(n: u64) -> u64 {
    BLOCK as u64 * (n + 1)
}

#[test]
fn a_file_reads_back_in_chunks_of_any_size() {
    let dir = scratch("chunks");
    let path = dir.join("d.bin");
    let records = write_small_file(&path, 3, 0, 5);
    assert_eq!(read_all(&path).unwrap(), records);
    for max in [1, 2, 7, 1000] {
        let mut reader = DataReader::open(&path).unwrap();
        let mut all = Vec::new();
        while reader.read_chunk(&mut all, max).unwrap() > 0 {}
        assert_eq!(all, records);
        assert_eq!(reader.header(), Header::whole(3, 100, 42));
        assert!(reader.last_game_complete());
    }
}

#[test]
fn each_kind_of_damage_is_refused_with_its_place() {
    let dir = scratch("damage");
    let good = dir.join("good.bin");
    let records = write_small_file(&good, 5, 0, 3);
    let bytes = std::fs::read(&good).unwrap();
    assert!(read_all(&good).is_ok());
    let bad = dir.join("bad.bin");
    // Applies `damage` to a copy of the good file and returns the refusal.
    let damaged = |damage: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        damage(&mut b);
        std::fs::write(&bad, &b).unwrap();
        refusal(&bad)
    };
    let at = |e: &DataError| (e.record, e.offset);

    let e = damaged(&|b| b[0] = b'C');
    assert_eq!(at(&e), (None, 0));
    assert!(e.message.starts_with("bad magic"), "{e}");
    assert!(
        e.to_string().starts_with(&format!("data file {}: byte offset 0: bad magic", bad.display())),
        "{e}"
    );

    let e = damaged(&|b| b[12] = 3);
    assert_eq!(
        (at(&e), e.message.as_str()),
        ((None, 0), "unknown format version 3 (this build reads versions 1 to 2)")
    );
    // A version 1 header relabelled version 2 (a shard's layout) no longer sums up.
    let e = damaged(&|b| b[12] = 2);
    assert_eq!((at(&e), e.message.as_str()), ((None, 0), "header checksum mismatch (the header is damaged)"));

    let e = damaged(&|b| b[16] ^= 1);
    assert_eq!((at(&e), e.message.as_str()), ((None, 0), "header checksum mismatch (the header is damaged)"));

    let e = damaged(&|b| b.truncate(b.len() - 15));
    assert_eq!((at(&e), e.message.as_str()), ((Some(8), offset(8)), "truncated last record: 25 of 40 bytes"));
    assert_eq!(
        e.to_string(),
        format!(
            "data file {}: record 8 at byte offset 360: truncated last record: 25 of 40 bytes",
            bad.display()
        )
    );

    let e = damaged(&|b| b.truncate(30));
    assert_eq!((at(&e), e.message.as_str()), ((None, 0), "truncated header: 30 of 40 bytes"));

    // Record 4's black king turned into a second red king.
    let black_king =
        records[4].pieces().position(|(_, c, k)| (c, k) == (Color::Black, chariot::board::PieceKind::King));
    let nibble = black_king.unwrap();
    let e = damaged(&|b| {
        let byte = &mut b[offset(4) as usize + 12 + nibble / 2];
        *byte = if nibble.is_multiple_of(2) { (*byte & 0xF0) | 1 } else { (*byte & 0x0F) | 0x10 };
    });
    assert_eq!((at(&e), e.message.as_str()), ((Some(4), offset(4)), "two red kings"));

    // A piece code that names no piece (8), on record 2's first occupied square.
    let e = damaged(&|b| b[offset(2) as usize + 12] = (b[offset(2) as usize + 12] & 0xF0) | 8);
    assert_eq!(at(&e), (Some(2), offset(2)));
    assert!(e.message.starts_with("piece code 8 on ") && e.message.ends_with(" is no piece"), "{e}");

    let e = damaged(&|b| b[offset(1) as usize + 11] |= 0x80);
    assert_eq!((at(&e), e.message.as_str()), ((Some(1), offset(1)), "occupancy bits past square 89 are set"));

    let e = damaged(&|b| {
        b[offset(3) as usize + 28..offset(3) as usize + 30].copy_from_slice(&20_000i16.to_le_bytes())
    });
    assert_eq!((at(&e), e.message.as_str()), ((Some(3), offset(3)), "score 20000 is beyond ±10000"));

    let e = damaged(&|b| b[offset(5) as usize + 30] = 3);
    assert_eq!(
        (at(&e), e.message.as_str()),
        ((Some(5), offset(5)), "result code 3 is not 0 (loss), 1 (draw) or 2 (win)")
    );

    let e = damaged(&|b| b[offset(6) as usize + 31] |= 0x80);
    assert_eq!(at(&e), (Some(6), offset(6)));
    assert!(e.message.starts_with("reserved flag bits are set"), "{e}");

    let e = damaged(&|b| b[offset(6) as usize + 31] |= 0b0011_1100);
    assert_eq!((at(&e), e.message.as_str()), ((Some(6), offset(6)), "game end code 15 is unknown"));

    // A drawn ending with a decisive result: the end code of record 7 set to repetition (4),
    // its result to a win.
    let e = damaged(&|b| {
        let r = offset(7) as usize;
        b[r + 31] = (b[r + 31] & 0b11) | (4 << 2);
        b[r + 30] = 2;
    });
    assert_eq!(
        (at(&e), e.message.as_str()),
        ((Some(7), offset(7)), "result a win contradicts the game's end (repetition)")
    );

    // A best move from an empty square (e5 is empty in these games' first positions? choose one
    // that is): the first empty square of record 0.
    let empty = (0..90).find(|sq| !records[0].pieces().any(|(s, _, _)| s == *sq)).unwrap();
    let e = damaged(&|b| b[offset(0) as usize + 34] = empty as u8);
    assert_eq!(at(&e), (Some(0), offset(0)));
    assert!(e.message.contains("does not start from a piece of the side to move"), "{e}");

    let e = damaged(&|b| b[offset(0) as usize + 35] = 90);
    assert_eq!(at(&e), (Some(0), offset(0)));
    assert!(e.message.starts_with("best move squares"), "{e}");

    // Order within a shard: record 4 (game 1, second record) given game 0's number.
    let e = damaged(&|b| {
        b[offset(4) as usize + 36..offset(4) as usize + 40].copy_from_slice(&0u32.to_le_bytes())
    });
    assert_eq!((at(&e), e.message.as_str()), ((Some(4), offset(4)), "game 0 follows game 1"));
    // Game 0's last record unflagged: game 1 starts before game 0 ended.
    let e = damaged(&|b| b[offset(2) as usize + 31] &= !2);
    assert_eq!(
        (at(&e), e.message.as_str()),
        ((Some(3), offset(3)), "game 1 starts before game 0 has its last record")
    );
    // Record 1 given record 0's ply.
    let e = damaged(&|b| {
        let ply = [b[offset(0) as usize + 32], b[offset(0) as usize + 33]];
        b[offset(1) as usize + 32..offset(1) as usize + 34].copy_from_slice(&ply);
    });
    assert_eq!(at(&e), (Some(1), offset(1)));
    assert!(e.message.starts_with("ply ") && e.message.contains(" of game 0 follows ply "), "{e}");
}

/// Square number of an ICCS square name, as the format numbers squares (rank * 9 + file).
fn sq(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'0') as usize * 9 + (b[0] - b'a') as usize
}

/// A record built byte by byte as docs/datagen.md lays it out: `pieces` as (square, 4-bit
/// code), Black to move or not, the best move as two square names, score 0, a draw by the ply
/// limit (end code 9), ply 0, game 0, the last record of its game.
fn raw(pieces: &[(&str, u8)], black_to_move: bool, best: (&str, &str)) -> Record {
    let mut b = [0u8; BLOCK];
    let mut sorted: Vec<(usize, u8)> = pieces.iter().map(|&(s, c)| (sq(s), c)).collect();
    sorted.sort();
    for (k, &(square, code)) in sorted.iter().enumerate() {
        b[square / 8] |= 1 << (square % 8);
        b[12 + k / 2] |= if k.is_multiple_of(2) { code } else { code << 4 };
    }
    b[30] = 1;
    b[31] = black_to_move as u8 | 2 | (9 << 2);
    b[34] = sq(best.0) as u8;
    b[35] = sq(best.1) as u8;
    Record::from_bytes(b)
}

// Piece codes: Red 1..=7 king, advisor, elephant, horse, rook, cannon, pawn; Black 9..=15.
const RK: u8 = 1;
const RR: u8 = 5;
const RP: u8 = 7;
const BK: u8 = 9;

#[test]
fn a_record_is_laid_out_byte_by_byte_as_documented() {
    // Two red rooks a0 b0, red king e0, black king d9; Red to move, best move a0a9.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1").unwrap();
    let best = chariot::board::Move::parse_iccs("a0a9").unwrap();
    let mut rec = Record::new(&pos, -1234, best);
    rec.finish(0x0102_0304, GameEnd::Resigned, Some(Color::Black), true);
    let mut expected = [0u8; BLOCK];
    // Occupancy: squares 0 (a0), 1 (b0), 4 (e0), 84 (d9).
    expected[0] = 0b0001_0011;
    expected[84 / 8] = 1 << (84 % 8);
    // Codes in square order: rook 5, rook 5, king 1, black king 9.
    expected[12] = 5 | (5 << 4);
    expected[13] = 1 | (9 << 4);
    expected[28..30].copy_from_slice(&(-1234i16).to_le_bytes());
    expected[30] = 0; // Red to move, Black won: a loss
    expected[31] = 2 | (7 << 2); // Red to move, last of its game, adjudicated win (code 7)
    expected[34] = 0; // a0
    expected[35] = 81; // a9
    expected[36..40].copy_from_slice(&[4, 3, 2, 1]);
    assert_eq!(rec.as_bytes(), &expected);
    assert_eq!(
        raw(&[("a0", RR), ("b0", RR), ("e0", RK), ("d9", BK)], false, ("a0", "a9")).as_bytes()[..28],
        expected[..28]
    );
}

#[test]
fn impossible_boards_are_refused_by_the_record_check() {
    let kings = [("e0", RK), ("d9", BK)];
    let ok = raw(&[kings[0], kings[1], ("a0", RR)], false, ("a0", "a1"));
    assert_eq!(ok.validate(), Ok(()));
    assert!(ok.to_position().is_ok());
    let refused = |pieces: &[(&str, u8)], best: (&str, &str)| {
        raw(pieces, false, best).validate().unwrap_err().to_string()
    };
    assert_eq!(refused(&[("e0", RK), ("d0", RK), ("d9", BK)], ("e0", "e1")), "two red kings");
    assert_eq!(refused(&[("e0", RK), ("a0", RR)], ("e0", "e1")), "no black king");
    assert_eq!(refused(&[("e0", RK), ("e9", BK), ("a0", RR)], ("a0", "a1")), "the kings face each other");
    assert_eq!(refused(&[kings[0], kings[1], ("a1", RP)], ("e0", "e1")), "red pawn on a1 is off its squares");
    assert_eq!(refused(&[("g0", RK), kings[1]], ("g0", "g1")), "red king on g0 is off its squares");
    let six_pawns = [("a5", RP), ("b5", RP), ("c5", RP), ("d5", RP), ("e5", RP), ("f5", RP)];
    assert_eq!(refused(&[&kings[..], &six_pawns[..]].concat(), ("a5", "a6")), "red has 6 pawns (at most 5)");
    let rooks = [("a0", RR), ("b0", RR), ("c0", RR)];
    assert_eq!(refused(&[&kings[..], &rooks[..]].concat(), ("a0", "a1")), "red has 3 rooks (at most 2)");
    assert_eq!(
        refused(&[kings[0], kings[1], ("a0", RR)], ("a1", "a2")),
        "best move a1a2 does not start from a piece of the side to move"
    );
    assert_eq!(
        refused(&[kings[0], kings[1], ("a0", RR), ("a1", RR)], ("a0", "a1")),
        "best move a0a1 lands on a piece of the side to move"
    );
    // Black to move with a Red piece's move.
    assert!(raw(&[kings[0], kings[1], ("a0", RR)], true, ("a0", "a1")).validate().is_err());
}

#[test]
fn positions_only_the_rules_refuse_are_caught_by_the_full_check() {
    // Red to move while Black's king d9 stands in the red rook's file: the side not to move is
    // in check. Every piece on its squares, one king a side: the record alone looks fine.
    let rec = raw(&[("e0", RK), ("d9", BK), ("d1", RR)], false, ("e0", "e1"));
    assert_eq!(rec.validate(), Ok(()));
    assert_eq!(rec.to_position().unwrap_err().to_string(), "side not to move is in check");
    // A best move that is no move: the king two steps at once.
    let rec = raw(&[("e0", RK), ("d9", BK), ("a0", RR)], false, ("e0", "e2"));
    assert_eq!(rec.validate(), Ok(()));
    assert_eq!(rec.to_position().unwrap_err().to_string(), "best move e0e2 is illegal");
    // The statistics' full check refuses it with its place; the quick one lets it through.
    let dir = scratch("full-check");
    let path = dir.join("d.bin");
    let mut bytes = Header::whole(1, 1, 0).to_bytes().to_vec();
    bytes.extend_from_slice(raw(&[("e0", RK), ("d9", BK), ("a0", RR)], false, ("a0", "a1")).as_bytes());
    let mut second = *rec.as_bytes();
    second[36] = 1; // game 1
    bytes.extend_from_slice(&second);
    std::fs::write(&path, &bytes).unwrap();
    let e = stats::collect(&path, true).unwrap_err();
    assert_eq!((e.record, e.offset, e.message.as_str()), (Some(1), 80, "best move e0e2 is illegal"));
    assert_eq!(stats::collect(&path, false).unwrap().records, 2);
}

#[test]
fn concatenated_shards_read_as_one_but_take_no_appending() {
    let dir = scratch("shards");
    let (a, b, both) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("both.bin"));
    let ra = write_small_file(&a, 1, 0, 2);
    let rb = write_small_file(&b, 2, 0, 3);
    let mut bytes = std::fs::read(&a).unwrap();
    bytes.extend(std::fs::read(&b).unwrap());
    std::fs::write(&both, bytes).unwrap();
    let mut reader = DataReader::open(&both).unwrap();
    let mut chunks = Vec::new();
    loop {
        let mut chunk = Vec::new();
        if reader.read_chunk(&mut chunk, 4).unwrap() == 0 {
            break;
        }
        chunks.push((reader.header().seed, reader.shard(), chunk));
    }
    // Chunks of at most 4 never span the two shards: 4+2 records of seed 1, 4+4+1 of seed 2.
    let sizes: Vec<(u64, usize, usize)> = chunks.iter().map(|(s, i, c)| (*s, *i, c.len())).collect();
    assert_eq!(sizes, vec![(1, 0, 4), (1, 0, 2), (2, 1, 4), (2, 1, 4), (2, 1, 1)]);
    let all: Vec<Record> = chunks.into_iter().flat_map(|(_, _, c)| c).collect();
    assert_eq!(all, [ra, rb].concat());
    assert_eq!(reader.headers().len(), 2);
    let e = scan_for_append(&both).unwrap_err();
    assert!(e.message.contains("several shards"), "{e}");
    // The statistics see both shards and every game.
    let stats = stats::collect(&both, true).unwrap();
    assert_eq!((stats.shards.len(), stats.records, stats.games, stats.unfinished_games), (2, 15, 5, 0));
}

/// Tiny, fast scored settings: few nodes, few random plies, short games.
fn tiny(seed: u64) -> DatagenConfig {
    let mut cfg = DatagenConfig::scored(150, 4, seed);
    cfg.max_plies = 70;
    cfg.hash_mb = 1;
    cfg
}

fn run(path: &Path, cfg: &DatagenConfig, target: Target) -> (scored::Summary, Vec<String>) {
    let mut notes = Vec::new();
    let summary = scored::run(path, cfg, target, &mut |n| notes.push(n.to_string()), &mut |_| {}).unwrap();
    (summary, notes)
}

/// The byte offset where game `game` ends in a file.
fn end_of_game(bytes: &[u8], game: u32) -> usize {
    let mut end = BLOCK;
    for (i, rec) in bytes[BLOCK..].chunks(BLOCK).enumerate() {
        let rec = Record::from_bytes(rec.try_into().unwrap());
        if rec.game() <= game {
            end = BLOCK * (i + 2);
        }
    }
    end
}

#[test]
fn runs_are_reproducible_and_resume_where_an_interruption_left_off() {
    let dir = scratch("resume");
    let cfg = tiny(5);
    let whole = dir.join("whole.bin");
    let (summary, notes) = run(&whole, &cfg, Target::Games(5));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(summary.progress.file_games, 5);
    let reference = std::fs::read(&whole).unwrap();
    let records = read_all(&whole).unwrap();
    assert_eq!(records.len() as u64, summary.progress.positions);
    assert_eq!(records.iter().map(|r| r.game()).max(), Some(4));
    assert!(records.len() > 20, "{}", records.len());
    assert_eq!(summary.progress.red_wins + summary.progress.draws + summary.progress.black_wins, 5);

    // The same seed again, two games at once: the same bytes.
    let mut two = cfg.clone();
    two.concurrency = 2;
    let again = dir.join("again.bin");
    run(&again, &two, Target::Games(5));
    assert_eq!(std::fs::read(&again).unwrap(), reference);

    // Another seed: another header and other games.
    let other = dir.join("other.bin");
    run(&other, &tiny(6), Target::Games(2));
    let other_bytes = std::fs::read(&other).unwrap();
    assert_ne!(other_bytes[..BLOCK], reference[..BLOCK]);
    assert_ne!(other_bytes[BLOCK..2 * BLOCK], reference[BLOCK..2 * BLOCK]);

    // Appending: two games, then up to five.
    let appended = dir.join("appended.bin");
    run(&appended, &cfg, Target::Games(2));
    assert_eq!(std::fs::read(&appended).unwrap(), reference[..end_of_game(&reference, 1)]);
    let (summary, notes) = run(&appended, &two, Target::Games(5));
    assert_eq!(
        notes,
        vec![format!("resuming {}: 2 games played, {} positions already there", appended.display(), {
            end_of_game(&reference, 1) / BLOCK - 1
        })]
    );
    assert_eq!(summary.progress.games, 3);
    assert_eq!(std::fs::read(&appended).unwrap(), reference);
    // The target already met: nothing is played, nothing changes.
    let (summary, _) = run(&appended, &cfg, Target::Games(3));
    assert_eq!(summary.progress.games, 0);
    assert_eq!(std::fs::read(&appended).unwrap(), reference);

    // Interrupted in the middle of writing game 2: its first records and half a record.
    let start_of_2 = end_of_game(&reference, 1);
    let end_of_2 = end_of_game(&reference, 2);
    assert!(end_of_2 - start_of_2 >= 2 * BLOCK, "game 2 has at least two records");
    let cut = start_of_2 + BLOCK + BLOCK / 2;
    let interrupted = dir.join("interrupted.bin");
    std::fs::write(&interrupted, &reference[..cut]).unwrap();
    let point = scan_for_append(&interrupted).unwrap();
    assert_eq!(
        (point.next_game, point.keep_bytes, point.cut_bytes),
        (2, start_of_2 as u64, (cut - start_of_2) as u64)
    );
    let (_, notes) = run(&interrupted, &cfg, Target::Games(5));
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(
        notes[0],
        format!(
            "note: {}: cut off {} bytes an interrupted run left (1 records of unfinished game 2 and a partial record); \
             it is played again",
            interrupted.display(),
            cut - start_of_2
        )
    );
    assert_eq!(std::fs::read(&interrupted).unwrap(), reference);

    // Interrupted right after the header, and inside a record of game 0.
    for cut in [BLOCK, BLOCK + 17] {
        std::fs::write(&interrupted, &reference[..cut]).unwrap();
        run(&interrupted, &cfg, Target::Games(5));
        assert_eq!(std::fs::read(&interrupted).unwrap(), reference, "cut at {cut}");
    }

    // A positions target stops after the game that reaches it.
    let positions = dir.join("positions.bin");
    let in_two_games = (end_of_game(&reference, 1) / BLOCK - 1) as u64;
    let (summary, _) = run(&positions, &two, Target::Positions(in_two_games + 1));
    assert_eq!(summary.progress.file_games, 3);
    assert_eq!(std::fs::read(&positions).unwrap(), reference[..end_of_game(&reference, 2)]);

    // Other settings are refused, and the file is left as it was.
    for (changed, what) in [
        (tiny(9), "seed"),
        (DatagenConfig { nodes: 151, ..tiny(5) }, "nodes"),
        (DatagenConfig { random_plies: 3, ..tiny(5) }, "settings"),
    ] {
        let e = scored::run(&appended, &changed, Target::Games(9), &mut |_| {}, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("was made with other settings"), "{what}: {e}");
        assert_eq!(std::fs::read(&appended).unwrap(), reference, "{what}");
    }
    // A damaged file is not appended to.
    let mut damaged = reference.clone();
    damaged[BLOCK + 30] = 7;
    std::fs::write(&interrupted, &damaged).unwrap();
    let e =
        scored::run(&interrupted, &cfg, Target::Games(9), &mut |_| {}, &mut |_| {}).unwrap_err().to_string();
    assert!(
        e.contains("record 0 at byte offset 40: result code 7") && e.ends_with("refusing to append to it"),
        "{e}"
    );
    assert_eq!(std::fs::read(&interrupted).unwrap(), damaged);
}

/// Plays game 0 of `cfg` keeping records.
fn play_records(cfg: &DatagenConfig, game: u64) -> Played<Record> {
    let mut engine = Engine::new(cfg.hash_mb);
    play(&mut engine, cfg, game, &AtomicBool::new(false), Record::new).unwrap()
}

#[test]
fn scores_and_results_have_the_right_sign() {
    // Black's rook a9 is missing: Red is a rook up, whoever is to move.
    let red_up = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for (fen, ahead) in [
        (red_up.to_string(), Color::Red),
        (Position::from_fen(red_up).unwrap().color_flipped().to_fen(), Color::Black),
    ] {
        let mut cfg = DatagenConfig::scored(2000, 0, 1);
        cfg.openings = vec![Opening::parse(&fen).unwrap()];
        cfg.skip_plies = 0;
        cfg.max_plies = 12;
        // The win-rate model gives a rook up a win at once: no adjudication, to reach the cap.
        cfg.adjudicate_plies = 0;
        let played = play_records(&cfg, 0);
        assert!(played.kept.len() >= 4, "{fen}: {} kept", played.kept.len());
        for rec in &played.kept {
            let to_move_is_ahead = rec.side_to_move() == ahead;
            assert_eq!(rec.score() > 0, to_move_is_ahead, "{fen}: {rec:?}");
            assert_eq!(rec.red_score() > 0, ahead == Color::Red, "{fen}: {rec:?}");
        }
        assert!(played.kept.iter().any(|r| r.side_to_move() == Color::Red));
        assert!(played.kept.iter().any(|r| r.side_to_move() == Color::Black));
        // Capped at 12 plies: a draw, every label a draw.
        assert_eq!((played.end, played.winner), (GameEnd::PlyLimit, None));
    }
    // Played out, the rook up wins, by the model's verdict; the labels say so for each side.
    let mut cfg = DatagenConfig::scored(2000, 0, 1);
    cfg.openings = vec![Opening::parse(red_up).unwrap()];
    // The verdict comes within the plies skipped by default.
    cfg.skip_plies = 0;
    let mut played = play_records(&cfg, 0);
    assert_eq!((played.end, played.winner), (GameEnd::Resigned, Some(Color::Red)));
    let n = played.kept.len();
    assert!(n > 0);
    for (i, rec) in played.kept.iter_mut().enumerate() {
        rec.finish(0, played.end, played.winner, i + 1 == n);
    }
    for rec in &played.kept {
        assert_eq!(rec.result(), if rec.side_to_move() == Color::Red { Wdl::Win } else { Wdl::Loss });
        assert_eq!(rec.red_result(), Wdl::Win);
        assert!(rec.red_score() > 0, "{rec:?}");
    }
}

#[test]
fn results_agree_with_the_rules_on_games_the_rules_end() {
    // No adjudication: every game ends by the rules module (or the generous ply cap).
    let mut cfg = DatagenConfig::scored(200, 6, 21);
    cfg.adjudicate_plies = 0;
    cfg.draw_plies = 0;
    cfg.max_plies = 600;
    cfg.hash_mb = 1;
    let mut ends = Vec::new();
    for game in 0..4 {
        let played = play_records(&cfg, game);
        let GameEnd::Rules(termination) = played.end else { panic!("game {game} ended by {}", played.end) };
        let verdict = game_result(&played.end_position).expect("the rules say the game is over");
        assert_eq!((verdict.winner, verdict.termination), (played.winner, termination), "game {game}");
        ends.push(termination);
    }
    // A mate the rules see, with every label following from it.
    let mut cfg = DatagenConfig::scored(2000, 0, 1);
    cfg.adjudicate_plies = 0;
    cfg.openings = vec![Opening::parse("3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1").unwrap()];
    let played = play_records(&cfg, 0);
    assert_eq!(played.end, GameEnd::Rules(Termination::Checkmate));
    let verdict = game_result(&played.end_position).unwrap();
    assert_eq!(verdict.winner, Some(Color::Red));
    // Through a data file: each record's result is the rules' verdict for its side to move.
    let dir = scratch("rules");
    let path = dir.join("d.bin");
    let mut cfg = DatagenConfig::scored(200, 6, 21);
    cfg.adjudicate_plies = 0;
    cfg.draw_plies = 0;
    cfg.max_plies = 600;
    cfg.hash_mb = 1;
    run(&path, &cfg, Target::Games(4));
    let records = read_all(&path).unwrap();
    for game in 0..4u32 {
        let played = play_records(&cfg, game as u64);
        let verdict = game_result(&played.end_position).unwrap();
        let of_game: Vec<&Record> = records.iter().filter(|r| r.game() == game).collect();
        assert_eq!(of_game.len(), played.kept.len());
        for rec in of_game {
            assert_eq!(rec.result(), Wdl::for_side(rec.side_to_move(), verdict.winner));
            assert_eq!(rec.game_end(), Some(GameEnd::Rules(verdict.termination)));
        }
    }
}

fn chariot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().unwrap()
}

#[test]
fn the_scored_and_stats_commands_end_to_end() {
    let dir = scratch("cli");
    // In a folder that does not exist yet: datagen makes it.
    let data = dir.join("new").join("d.bin");
    let d = data.to_str().unwrap();
    let openings = test_data("openings.txt");
    let args =
        ["datagen", "--scored", "--games", "2", "--nodes", "150", "--random-plies", "2", "--hash", "1"];
    let out = chariot(&[&args[..], &["--openings", openings.to_str().unwrap(), "--out", d]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    let records = read_all(&data).unwrap();
    assert!(summary.starts_with("games 2 (red wins "), "{summary}");
    assert!(summary.contains(&format!("), {} positions in ", records.len())), "{summary}");
    assert!(
        summary.contains(" positions/s; ")
            && summary.trim_end().ends_with(&format!("now holds 2 games, {} positions", records.len())),
        "{summary}"
    );

    let out = chariot(&["datagen", "--stats", d]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats = String::from_utf8(out.stdout).unwrap();
    assert!(
        stats.starts_with(&format!("{d}: format version 1, 1 shard (seed 1, nodes 150, settings ")),
        "{stats}"
    );
    assert!(stats.contains(&format!("\nrecords {}, games 2, ", records.len())), "{stats}");
    assert!(stats.contains("check: every record valid"), "{stats}");
    let histogram: u64 = stats
        .lines()
        .skip_while(|l| !l.starts_with("score for the side to move"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let percent = words.iter().position(|w| w.ends_with('%')).unwrap();
            words[percent - 1].parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(histogram, records.len() as u64, "{stats}");

    // The file twice over: two shards, flagged as the same games twice.
    let twice = dir.join("twice.bin");
    std::fs::write(&twice, [std::fs::read(&data).unwrap(), std::fs::read(&data).unwrap()].concat()).unwrap();
    let out = chariot(&["datagen", "--stats", twice.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats = String::from_utf8(out.stdout).unwrap();
    assert!(stats.contains(": format version 1, 2 shards (seed 1, nodes 150, settings "), "{stats}");
    assert!(stats.contains("\nwarning: 1 shard repeats the seed and settings of an earlier one"), "{stats}");
    assert!(stats.contains(&format!("\nrecords {}, games 4, ", 2 * records.len())), "{stats}");

    // A damaged file: refused with the record and offset, exit status 2.
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[2 * BLOCK + 30] = 9;
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let out = chariot(&["datagen", "--stats", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!("error: data file {}: record 1 at byte offset 80: result code 9 is not 0 (loss), 1 (draw) or 2 (win)", bad.display())
    );

    // A truncated trailing write: the next run cuts it off with a note on stderr and goes on.
    let full = std::fs::read(&data).unwrap();
    std::fs::write(&data, &full[..full.len() - 7]).unwrap();
    let out = chariot(&[&args[..], &["--openings", openings.to_str().unwrap(), "--out", d]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("note: {d}: cut off ")) && err.contains("unfinished game 1"), "{err}");
    assert_eq!(std::fs::read(&data).unwrap(), full);

    // Usage errors.
    let out = chariot(&["datagen", "--scored", "--out", d]);
    assert_eq!(out.status.code(), Some(2));
    let out = chariot(&["datagen", "--positions", "5", "--out", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--scored"));
    let out = chariot(&[
        "datagen",
        "--scored",
        "--games",
        "1",
        "--soft-nodes",
        "600",
        "--nodes",
        "500",
        "--out",
        d,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--soft-nodes must not be above --nodes"));
    let out = chariot(&["datagen", "--games", "1", "--soft-nodes", "600", "--out", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--scored"));
    let out = chariot(&["datagen", "--stats", "/nonexistent/d.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("error: data file /nonexistent/d.bin: byte offset 0: cannot open"));
    // Not a data file at all.
    let out = chariot(&["datagen", "--stats", openings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("bad magic"));
}

#[test]
fn the_evaluation_searched_with_is_part_of_the_settings() {
    let mut cfg = DatagenConfig::scored(5000, 8, 1);
    cfg.openings = chariot::tournament::openings::load(&test_data("openings.txt")).unwrap();
    cfg.eval = EvalChoice::Classic;
    // The settings field of the header this build writes for `datagen --scored --classic --nodes
    // 5000 --random-plies 8 --openings tests/data/openings.txt`: pinned so that a change to what
    // the settings hold, which makes every earlier file unresumable, is made on purpose.
    assert_eq!(scored::fingerprint(&cfg), 0xb58b_7b91_7fd8_b18d);
    // The builds before adjudication went by the win-rate model (01642fd to 353e025) wrote this
    // for the same command; their games were adjudicated otherwise, so their files are refused.
    assert_ne!(scored::fingerprint(&cfg), 0x0135_e7e4_5df7_9a77);
    let classic = scored::fingerprint(&cfg);
    // The adjudication thresholds are settings.
    let resign = DatagenConfig { adjudicate_win_per_mille: 990, ..cfg.clone() };
    let draw = DatagenConfig { draw_cp: 10, ..cfg.clone() };
    assert!(scored::fingerprint(&resign) != classic && scored::fingerprint(&draw) != classic);
    // So is a soft node limit (and its value); without one the fingerprint is the pinned one.
    let soft = DatagenConfig { soft_nodes: Some(2_000), ..cfg.clone() };
    let softer = DatagenConfig { soft_nodes: Some(1_500), ..cfg.clone() };
    assert!(
        scored::fingerprint(&soft) != classic && scored::fingerprint(&soft) != scored::fingerprint(&softer)
    );
    cfg.eval = EvalChoice::default();
    let built_in = scored::fingerprint(&cfg);
    let arch = Architecture { width: 16, ..Architecture::DEFAULT };
    cfg.eval = EvalChoice::Nnue(Arc::new(FloatNetwork::random(arch, 1).quantise().unwrap()));
    let other = scored::fingerprint(&cfg);
    assert!(classic != built_in && built_in != other && other != classic, "{classic} {built_in} {other}");
}

/// `cfg` as shard `k` of `n`.
fn shard_of(cfg: &DatagenConfig, k: u64, n: u64) -> DatagenConfig {
    DatagenConfig { shard: Shard::new(k, n).unwrap(), ..cfg.clone() }
}

/// The names of the files in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_shards_of_a_run_play_its_games_once_and_merge_into_one_processs_file() {
    let dir = scratch("shards-split");
    let cfg = tiny(5);
    // One process: games 0..6.
    let whole = dir.join("whole.bin");
    run(&whole, &cfg, Target::Games(6));
    let reference = std::fs::read(&whole).unwrap();
    let all = read_all(&whole).unwrap();
    let games_of = |records: &[Record]| {
        let mut games: Vec<u32> = records.iter().map(|r| r.game()).collect();
        games.dedup();
        games
    };
    // Every game keeps positions, so each shard's games show in its file.
    assert_eq!(games_of(&all), (0..6).collect::<Vec<u32>>());

    // Two shards of 3 games each: the even and the odd games of the same run, record for record.
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let (sa, notes) = run(&a, &shard_of(&cfg, 1, 2), Target::Games(3));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((sa.progress.games, sa.progress.file_games), (3, 3));
    let mut two = shard_of(&cfg, 2, 2);
    two.concurrency = 2;
    run(&b, &two, Target::Games(3));
    let (ra, rb) = (read_all(&a).unwrap(), read_all(&b).unwrap());
    let even: Vec<Record> = all.iter().filter(|r| r.game() % 2 == 0).copied().collect();
    let odd: Vec<Record> = all.iter().filter(|r| r.game() % 2 == 1).copied().collect();
    assert_eq!((ra.clone(), rb.clone()), (even, odd));
    assert_eq!(DataReader::open(&a).unwrap().header().shard, Shard::new(1, 2).unwrap());
    assert_eq!(DataReader::open(&b).unwrap().header().shard, Shard::new(2, 2).unwrap());
    // A shard's header is version 2; the whole run's stays version 1.
    assert_eq!((std::fs::read(&a).unwrap()[12], reference[12]), (2, 1));

    // Merged (in any order of the inputs): the one process's file, byte for byte.
    let merged = dir.join("merged.bin");
    let summary = merge(&[b.clone(), a.clone()], &merged).unwrap();
    assert_eq!(std::fs::read(&merged).unwrap(), reference);
    assert_eq!((summary.files, summary.shards, summary.records), (2, 2, all.len() as u64));
    assert_eq!(summary.games, games_of(&all).len() as u64);
    // Three shards of two games: the same run again.
    let thirds: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("t{k}.bin"))).collect();
    for (k, path) in thirds.iter().enumerate() {
        run(path, &shard_of(&cfg, k as u64 + 1, 3), Target::Games(2));
        assert!(read_all(path).unwrap().iter().all(|r| r.game() % 3 == k as u32), "shard {}", k + 1);
    }
    let merged3 = dir.join("merged3.bin");
    merge(&thirds, &merged3).unwrap();
    assert_eq!(std::fs::read(&merged3).unwrap(), reference);

    // The merged file's statistics are the sum of the shards'.
    let (s1, s2, sm) = (
        stats::collect(&a, true).unwrap(),
        stats::collect(&b, true).unwrap(),
        stats::collect(&merged, true).unwrap(),
    );
    assert_eq!(sm.records, s1.records + s2.records);
    assert_eq!(sm.games, s1.games + s2.games);
    assert_eq!(sm.unfinished_games, 0);
    for i in 0..3 {
        assert_eq!(sm.game_results[i], s1.game_results[i] + s2.game_results[i]);
        assert_eq!(sm.position_results[i], s1.position_results[i] + s2.position_results[i]);
    }
    for (i, n) in sm.game_ends.iter().enumerate() {
        assert_eq!(*n, s1.game_ends[i] + s2.game_ends[i]);
    }
    for (i, n) in sm.score_histogram.iter().enumerate() {
        assert_eq!(*n, s1.score_histogram[i] + s2.score_histogram[i]);
    }
    assert_eq!(sm.shards, vec![Header::whole(5, 150, scored::fingerprint(&cfg))]);

    // Resuming a shard: two games, then three; and after an interruption inside its last game.
    let b_bytes = std::fs::read(&b).unwrap();
    let resumed = dir.join("resumed.bin");
    run(&resumed, &shard_of(&cfg, 2, 2), Target::Games(2));
    let (summary, notes) = run(&resumed, &shard_of(&cfg, 2, 2), Target::Games(3));
    assert_eq!(summary.progress.games, 1);
    assert!(
        notes[0].starts_with(&format!("resuming {} (shard 2/2): 2 games played, ", resumed.display())),
        "{notes:?}"
    );
    assert_eq!(std::fs::read(&resumed).unwrap(), b_bytes);
    let last_game = rb.last().unwrap().game();
    let start_of_last = end_of_game(&b_bytes, last_game - 2);
    std::fs::write(&resumed, &b_bytes[..start_of_last + BLOCK + 9]).unwrap();
    let point = scan_for_append(&resumed).unwrap();
    assert_eq!(point.next_game, last_game as u64, "the shard's next game is its last one, played again");
    run(&resumed, &shard_of(&cfg, 2, 2), Target::Games(3));
    assert_eq!(std::fs::read(&resumed).unwrap(), b_bytes);
    // A shard file is resumed only as the same shard.
    for other in [shard_of(&cfg, 1, 2), shard_of(&cfg, 2, 3), cfg.clone()] {
        let e = scored::run(&resumed, &other, Target::Games(4), &mut |_| {}, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("was made with other settings") && e.contains(", shard 2/2;"), "{e}");
        assert_eq!(std::fs::read(&resumed).unwrap(), b_bytes);
    }
}

#[test]
fn a_game_of_another_shard_is_refused_by_the_reader() {
    let dir = scratch("shards-foreign");
    let path = dir.join("s.bin");
    // Games 0..3 of a whole run, relabelled shard 2 of 3 (which holds games 1, 4, 7, …).
    write_small_file(&path, 3, 0, 3);
    let mut bytes = std::fs::read(&path).unwrap();
    let header = Header { shard: Shard::new(2, 3).unwrap(), ..Header::whole(3, 100, 42) };
    bytes[..BLOCK].copy_from_slice(&header.to_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let e = refusal(&path);
    assert_eq!(
        (e.record, e.offset, e.message.as_str()),
        (Some(0), offset(0), "game 0 is not one of shard 2/3's (its games are numbered 1 mod 3)")
    );
}

#[test]
fn a_merge_refuses_what_is_not_the_whole_of_one_run() {
    let dir = scratch("shards-merge");
    let cfg = tiny(7);
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    run(&a, &shard_of(&cfg, 1, 2), Target::Games(2));
    run(&b, &shard_of(&cfg, 2, 2), Target::Games(2));
    let (a_bytes, b_bytes) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let out = dir.join("out.bin");
    let before = names_in(&dir);
    // Each refusal leaves no output, no temporary, and the inputs as they were.
    let refused = |inputs: &[&Path], output: &Path| -> MergeError {
        let inputs: Vec<PathBuf> = inputs.iter().map(|p| p.to_path_buf()).collect();
        let e = merge(&inputs, output).expect_err("refused");
        assert_eq!(std::fs::read(&a).unwrap(), a_bytes);
        assert_eq!(std::fs::read(&b).unwrap(), b_bytes);
        e
    };
    let name = |p: &Path| p.display().to_string();

    // Another fingerprint, seed, node count or number of shards: not the same run.
    let others = [
        (DatagenConfig { random_plies: 3, ..shard_of(&cfg, 2, 2) }, "settings"),
        (shard_of(&tiny(8), 2, 2), "seed"),
        (DatagenConfig { nodes: 151, ..shard_of(&cfg, 2, 2) }, "nodes"),
        (shard_of(&cfg, 2, 3), "shards"),
    ];
    for (i, (other_cfg, what)) in others.iter().enumerate() {
        let other = dir.join(format!("other{i}.bin"));
        run(&other, other_cfg, Target::Games(1));
        let e = refused(&[&a, &other], &out);
        let MergeError::OtherRun { first, file, .. } = &e else { panic!("{what}: {e}") };
        assert_eq!((first.as_str(), file.as_str()), (name(&a).as_str(), name(&other).as_str()), "{what}");
        assert!(e.to_string().contains("is not a shard of the run"), "{what}: {e}");
        std::fs::remove_file(&other).unwrap();
    }
    assert_eq!(names_in(&dir), before);

    // A shard twice (a copy): its games twice, naming both files.
    let copy = dir.join("copy.bin");
    std::fs::copy(&b, &copy).unwrap();
    let e = refused(&[&a, &b, &copy], &out);
    let first_of_b = read_all(&b).unwrap()[0].game();
    assert_eq!(
        e.to_string(),
        format!("game {first_of_b} is in both {} and {}: the same games twice", name(&b), name(&copy))
    );
    std::fs::remove_file(&copy).unwrap();

    // A shard missing.
    let e = refused(&[&b], &out);
    assert!(
        matches!(&e, MergeError::MissingShards { missing } if missing == &[Shard::new(1, 2).unwrap()]),
        "{e}"
    );
    assert!(e.to_string().starts_with("shard 1/2 of the run is missing"), "{e}");

    // Truncated inside a record, and cut inside a game (an interrupted run): refused, naming the
    // file and the fault.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &b_bytes[..b_bytes.len() - 7]).unwrap();
    let e = refused(&[&a, &cut], &out);
    assert!(
        matches!(&e, MergeError::Read(d) if d.file == name(&cut) && d.message.starts_with("truncated last record")),
        "{e}"
    );
    let rb = read_all(&b).unwrap();
    let last_of_b = rb.last().unwrap().game();
    assert_eq!(rb[rb.len() - 2].game(), last_of_b, "the last game has two records at least");
    std::fs::write(&cut, &b_bytes[..b_bytes.len() - BLOCK]).unwrap();
    let e = refused(&[&a, &cut], &out);
    assert!(
        e.to_string().starts_with(&format!("data file {} ends in unfinished game {last_of_b} ", name(&cut))),
        "{e}"
    );
    // A damaged record.
    let mut damaged = b_bytes.clone();
    damaged[BLOCK + 30] = 7;
    std::fs::write(&cut, &damaged).unwrap();
    let e = refused(&[&a, &cut], &out);
    assert!(e.to_string().contains("record 0 at byte offset 40: result code 7"), "{e}");
    // Two files concatenated.
    std::fs::write(&cut, [a_bytes.clone(), b_bytes.clone()].concat()).unwrap();
    let e = refused(&[&cut, &b], &out);
    assert!(e.to_string().contains("holds several shards"), "{e}");
    std::fs::remove_file(&cut).unwrap();
    assert_eq!(names_in(&dir), before);

    // The output one of the inputs, however it is spelled: refused before anything is written.
    for output in [b.clone(), dir.join(".").join("b.bin")] {
        let e = refused(&[&a, &b], &output);
        assert!(matches!(e, MergeError::OutputIsInput { .. }), "{e}");
    }
    // An output that exists and is no input is replaced whole.
    std::fs::write(&out, "old").unwrap();
    merge(&[a.clone(), b.clone()], &out).unwrap();
    assert_eq!(read_all(&out).unwrap().len(), (a_bytes.len() + b_bytes.len()) / BLOCK - 2);
    assert_eq!(names_in(&dir), [before, vec!["out.bin".to_string()]].concat());
}

#[test]
fn shard_and_merge_on_the_command_line() {
    let dir = scratch("shards-cli");
    let args =
        ["datagen", "--scored", "--games", "2", "--nodes", "150", "--random-plies", "2", "--hash", "1"];
    let with = |extra: &[&str]| chariot(&[&args[..], extra].concat());
    // Bad shards are refused with what is wrong, exit status 2, and no file.
    let d = dir.join("d.bin");
    for (bad, says) in
        [("0/4", "between 1 and N"), ("5/4", "between 1 and N"), ("x/y", "expected K/N"), ("1/0", "N is 0")]
    {
        let out = with(&["--shard", bad, "--out", d.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("invalid value '{bad}' for '--shard <K/N>'")) && err.contains(says),
            "{bad}: {err}"
        );
    }
    let out = chariot(&["datagen", "--games", "2", "--shard", "1/2", "--out", d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--scored"));
    assert!(!d.exists());

    let (a, b, m) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("m.bin"));
    for (shard, path) in [("1/2", &a), ("2/2", &b)] {
        let out = with(&["--shard", shard, "--out", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = chariot(&["datagen", "--stats", a.to_str().unwrap()]);
    let stats_a = String::from_utf8(out.stdout).unwrap();
    assert!(
        stats_a.starts_with(&format!(
            "{}: format version 2, 1 shard (seed 1, nodes 150, settings ",
            a.display()
        )),
        "{stats_a}"
    );
    assert!(stats_a.lines().next().unwrap().ends_with(", shard 1/2)"), "{stats_a}");

    let out =
        chariot(&["datagen", "merge", "-o", m.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8(out.stdout).unwrap();
    let records = read_all(&a).unwrap().len() + read_all(&b).unwrap().len();
    assert!(said.starts_with("merged 2 files (2 shards of seed 1, nodes 150, settings "), "{said}");
    assert!(
        said.trim_end().ends_with(&format!("games, {records} positions written to {}", m.display())),
        "{said}"
    );
    // `--stats` of the merge: a whole run's file holding what the two shards held.
    let count = |file: &Path, what: &str| -> u64 {
        let out = chariot(&["datagen", "--stats", file.to_str().unwrap()]);
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text.lines().find(|l| l.starts_with("records ")).unwrap().to_string();
        let at = line.find(what).unwrap() + what.len();
        line[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
    };
    for what in ["records ", "games "] {
        assert_eq!(count(&m, what), count(&a, what) + count(&b, what), "{what}");
    }
    assert_eq!(count(&m, "games "), 4);
    let out = chariot(&["datagen", "--stats", m.to_str().unwrap()]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with(&format!("{}: format version 1, 1 shard (seed 1, ", m.display())));

    // Refusals: exit status 2, the reason on stderr, the output left alone.
    let m_bytes = std::fs::read(&m).unwrap();
    let out =
        chariot(&["datagen", "merge", "-o", a.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with(&format!("error: the output {} is the input", a.display())));
    let out = chariot(&["datagen", "merge", "-o", m.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("shard 2/2 of the run is missing"));
    assert_eq!(std::fs::read(&m).unwrap(), m_bytes);
    let out = chariot(&["datagen", "merge", "-o", m.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = chariot(&["datagen", "merge", a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
