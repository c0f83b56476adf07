//! The packed format: every field kept, any chunk size, each kind of damage refused with its
//! place, the byte layout as documented, impossible boards refused, concatenated shards.

use super::*;

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
