//! Opening books: BOOK.DAT probe values (ElephantEye's book when it is at hand, else a
//! BOOK.DAT-format file the test writes from docs/book-formats.md), Chariot-format round trips
//! from PGN games written here, refusal of damaged files, weighted choice and the repetition rule,
//! the CLI.

use crate::common;

use std::path::{Path, PathBuf};

use chariot::board::{Move, Position};
use chariot::book::builder::{self, PgnBuildOptions};
use chariot::book::chariot_format::{canonical_move, ChariotBook};
use chariot::book::{choose, eleeye, embedded, Book, BookSet};
use chariot::cli::book::{run, BookAction, BookArgs, BuildArgs, DumpArgs, ImportArgs, MergeArgs, ProbeArgs};
use chariot::notation::read_pgn;
use chariot::protocol::position_cmd::play_moves;
use common::book_dat::{self, book_dat, Origin, AFTER_H2E2, AFTER_H2E2_H9G7, START};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn mv(text: &str) -> Move {
    Move::parse_iccs(text).unwrap_or_else(|| panic!("bad ICCS in the test: {text}"))
}

fn after(moves: &[&str]) -> Position {
    play_moves(Position::startpos(), moves).expect("legal test moves")
}

fn probe_text(book: &Book, pos: &Position) -> Vec<(String, u32)> {
    book.probe(pos).iter().map(|e| (e.mv.to_string(), e.weight)).collect()
}

/// The same (move, weight) pairs in any order, and the weights never increasing.
fn assert_same_moves(got: &[(String, u32)], expected: &[(&str, u16)]) {
    assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "not best first: {got:?}");
    let mut g: Vec<(String, u32)> = got.to_vec();
    let mut e = owned(expected);
    g.sort();
    e.sort();
    assert_eq!(g, e);
}

fn owned(moves: &[(&str, u16)]) -> Vec<(String, u32)> {
    moves.iter().map(|&(m, w)| (m.to_string(), w as u32)).collect()
}

/// The positions whose BOOK.DAT moves docs/book-formats.md lists, probed in `book`: the start
/// (16 moves, ties in any order), after `h2e2` (stored only as its mirror image), after `b2e2`
/// (that mirror image itself), after `h2e2 h9g7` (where the built file also holds a colliding
/// record with an illegal move).
fn assert_elephanteye_values(book: &Book) {
    assert_same_moves(&probe_text(book, &Position::startpos()), &START);
    assert_eq!(probe_text(book, &after(&["h2e2"])), owned(&AFTER_H2E2));
    let mirrored: Vec<(String, u32)> =
        AFTER_H2E2.iter().map(|&(m, w)| (book_dat::mirror_move(m), w as u32)).collect();
    assert_eq!(probe_text(book, &after(&["b2e2"])), mirrored);
    assert_eq!(probe_text(book, &after(&["h2e2", "h9g7"])), owned(&AFTER_H2E2_H9G7));
}

/// A fresh directory under the system temp dir for one test, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("chariot-book-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Scratch(dir)
}

fn run_cli(action: BookAction) -> Result<(String, String), String> {
    let (mut out, mut diag) = (Vec::new(), Vec::new());
    run(&BookArgs { action }, &mut out, &mut diag).map_err(|e| format!("{e:#}"))?;
    Ok((String::from_utf8(out).unwrap(), String::from_utf8(diag).unwrap()))
}

// ----- BOOK.DAT -----

#[test]
fn book_dat_gives_the_documented_moves_and_weights() {
    let file = book_dat("book_dat_gives_the_documented_moves_and_weights");
    let book = Book::open(&file.path).unwrap();
    assert!(matches!(book, Book::Eleeye(_)));
    assert_eq!(book.name(), "BOOK.DAT");
    assert_elephanteye_values(&book);
    let Book::Eleeye(b) = &book else { unreachable!() };
    let records = match file.origin {
        // docs/book-formats.md: ElephantEye's book has 12,081 records.
        Origin::ElephantEye => 12_081,
        Origin::Built => book_dat::records().len(),
    };
    assert_eq!(b.records().len(), records);
}

#[test]
fn book_dat_locks_match_the_documented_values() {
    // docs/book-formats.md gives these; the reader and the test's own implementation must agree.
    let cases: [(&[&str], u32); 3] =
        [(&[], 0x0526_56D5), (&["h2e2"], 0xEB50_5D7D), (&["h2e2", "h9g7"], 0xDF3A_D30D)];
    for (line, expected) in cases {
        assert_eq!(eleeye::lock(&after(line)), expected, "reader, after {line:?}");
        let mut board = book_dat::Board::start();
        for m in line {
            board.play(m);
        }
        assert_eq!(board.lock(line.len() % 2 == 1), expected, "test's own locks, after {line:?}");
    }
    let table = book_dat::LockTable::new();
    assert_eq!(table.side, 0x671E_068A);
    assert_eq!(table.pieces[0][199], 0xFFA2_BED5, "lock1 of the Red king on e0");
    // The documented example record, and the packing of h2e2.
    assert_eq!(book_dat::pack("h2e2"), 0xA7AA);
    assert_eq!(
        book_dat::record_bytes((0x0526_56D5, 0xA7AA, 1473)),
        [0xD5, 0x56, 0x26, 0x05, 0xAA, 0xA7, 0xC1, 0x05]
    );
}

#[test]
fn a_book_dat_written_from_the_format_definition_is_read_as_written() {
    // Runs whether or not ElephantEye's file is at hand, so this path is checked in CI too.
    let file = book_dat::built_book_dat("written");
    let book = Book::open(&file.path).unwrap();
    let Book::Eleeye(raw) = &book else { panic!("not read as a BOOK.DAT") };
    let records = book_dat::records();
    assert_eq!(raw.records().len(), records.len());
    let got: Vec<(u32, u16, u16)> = raw.records().iter().map(|r| (r.lock, r.mv, r.weight)).collect();
    assert_eq!(got, records);
    // No filler record shares a lock with the positions the tests probe.
    let known = [0x0526_56D5, 0xEB50_5D7D, 0xDF3A_D30D, eleeye::lock(&after(&["b2e2"]))];
    let filler = records.iter().filter(|r| r.1 == book_dat::pack("a0a1"));
    assert!(filler.clone().count() == 200 && filler.clone().all(|r| !known.contains(&r.0)));
    // The off-board and weight-0 records at the start and the colliding a0a5 are left out.
    assert_elephanteye_values(&book);
    let (colliding, weight) = book_dat::COLLIDING;
    assert!(records.iter().any(|r| r.0 == 0xDF3A_D30D && r.1 == book_dat::pack(colliding) && r.2 == weight));
    // A record out of lock order makes it no BOOK.DAT.
    let mut bytes = book_dat::book_dat_bytes();
    let (first, rest) = bytes.split_at_mut(8);
    first.swap_with_slice(&mut rest[8 * 99..8 * 100]);
    match chariot::book::EleeyeBook::from_bytes(&bytes, "shuffled") {
        Err(e) => assert!(e.to_string().contains("records 1 and 2 are not sorted by lock"), "{e}"),
        Ok(_) => panic!("records out of order were accepted"),
    }
}

#[test]
fn cli_probe_prints_best_first_with_ties_in_iccs_order() {
    let file = book_dat("cli_probe_prints_best_first_with_ties_in_iccs_order");
    let (out, _) =
        run_cli(BookAction::Probe(ProbeArgs { file: Some(file.path.clone()), ..ProbeArgs::default() }))
            .unwrap();
    // The documented values, equal weights put in ICCS order by hand.
    let expected = "b2e2 1473\nh2e2 1473\nc3c4 546\ng3g4 546\nc0e2 311\ng0e2 311\nb0c2 89\nh0g2 89\n\
                    b2f2 42\nh2d2 42\nb2d2 37\nh2f2 37\nb0a2 18\nh0i2 18\nb2g2 2\nh2c2 2\n";
    assert_eq!(out, expected);
    let (out, _) = run_cli(BookAction::Probe(ProbeArgs {
        file: Some(file.path.clone()),
        fen: None,
        moves: vec!["h2e2 h9g7".into()],
    }))
    .unwrap();
    assert_eq!(out, "h0g2 955\ng3g4 61\nc3c4 3\n");
}

#[test]
fn import_keeps_the_book_dat_values() {
    let file = book_dat("import_keeps_the_book_dat_values");
    let dir = scratch("import");
    let out = dir.join("imported.cbk");
    let (_, diag) = run_cli(BookAction::Import(ImportArgs {
        eleeye: file.path.clone(),
        output: out.clone(),
        max_ply: 60,
    }))
    .unwrap();
    assert!(diag.contains("wrote"), "{diag}");
    let book = Book::open(&out).unwrap();
    assert!(matches!(book, Book::Chariot(_)));
    // The walk reaches h2e2 h9g7 through the position BOOK.DAT stores only mirrored.
    assert_elephanteye_values(&book);
}

// ----- Chariot format from PGN -----

/// Four short games: ICCS, WXF, Chinese and ICCS again, with every kind of result.
const GAMES: &str = r#"[Event "one"]
[Result "1-0"]
1. h2e2 h9g7 2. h0g2 i9h9 1-0

[Event "two"]
[Result "0-1"]
1. C2.5 H2+3 0-1

[Event "three"]
[Result "1/2-1/2"]
1. 炮二平五 马8进7 1/2-1/2

[Event "four"]
[Result "1-0"]
1. c3c4 1-0
"#;

fn build_from_games(dir: &Path, extra: &[&str]) -> PathBuf {
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let out = dir.join("games.cbk");
    let mut argv =
        vec!["chariot", "book", "build", "--pgn", pgn.to_str().unwrap(), "-o", out.to_str().unwrap()];
    argv.extend_from_slice(extra);
    let cli = <chariot::cli::Cli as clap::Parser>::try_parse_from(argv).unwrap();
    let Some(chariot::cli::Command::Book(args)) = cli.command else { panic!("not a book command") };
    let (mut o, mut d) = (Vec::new(), Vec::new());
    run(&args, &mut o, &mut d).unwrap();
    out
}

#[test]
fn pgn_games_round_trip_through_the_book_file() {
    let dir = scratch("pgn");
    let book = Book::open(&build_from_games(&dir, &[])).unwrap();
    // Points: 2 for the winner's moves, 1 for a draw, 0 for the loser's.
    // Start: h2e2 = 2 (game one) + 0 (two) + 1 (three); c3c4 = 2 (four).
    assert_eq!(probe_text(&book, &Position::startpos()), vec![("h2e2".into(), 3), ("c3c4".into(), 2)]);
    // After h2e2: b9c7 = 2 (Black won two); h9g7 = 0 (one) + 1 (three).
    assert_eq!(probe_text(&book, &after(&["h2e2"])), vec![("b9c7".into(), 2), ("h9g7".into(), 1)]);
    // The mirror image (b2e2) shares the entries, mirrored.
    assert_eq!(probe_text(&book, &after(&["b2e2"])), vec![("h9g7".into(), 2), ("b9c7".into(), 1)]);
    // h0g2 was Red's move in the won game; i9h9 Black's in the lost one (0 points: left out).
    assert_eq!(probe_text(&book, &after(&["h2e2", "h9g7"])), vec![("h0g2".into(), 2)]);
    assert!(probe_text(&book, &after(&["h2e2", "h9g7", "h0g2"])).is_empty());
}

#[test]
fn pgn_build_honours_min_games_and_max_ply() {
    let dir = scratch("pgn-options");
    let book = Book::open(&build_from_games(&dir, &["--min-games", "2"])).unwrap();
    // Only h2e2 (3 games) and h9g7 after it (2 games) were played twice or more.
    assert_eq!(probe_text(&book, &Position::startpos()), vec![("h2e2".into(), 3)]);
    assert_eq!(probe_text(&book, &after(&["h2e2"])), vec![("h9g7".into(), 1)]);
    let book = Book::open(&build_from_games(&dir, &["--max-ply", "1"])).unwrap();
    assert_eq!(probe_text(&book, &Position::startpos()), vec![("h2e2".into(), 3), ("c3c4".into(), 2)]);
    assert!(probe_text(&book, &after(&["h2e2"])).is_empty());
}

#[test]
fn dump_and_merge() {
    let dir = scratch("merge");
    let path = build_from_games(&dir, &["--max-ply", "1"]);
    let (out, _) = run_cli(BookAction::Dump(DumpArgs { file: path.clone() })).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "# Chariot book: 1 positions, 2 entries (key move weight)");
    assert_eq!(lines.len(), 3);
    // The start position is symmetric, so its moves are stored as played.
    assert!(lines[1..].iter().any(|l| l.ends_with(" h2e2 3")), "{out}");
    assert!(lines[1..].iter().any(|l| l.ends_with(" c3c4 2")), "{out}");
    let merged = dir.join("merged.cbk");
    run_cli(BookAction::Merge(MergeArgs { inputs: vec![path.clone(), path], output: merged.clone() }))
        .unwrap();
    let book = Book::open(&merged).unwrap();
    assert_eq!(probe_text(&book, &Position::startpos()), vec![("h2e2".into(), 6), ("c3c4".into(), 4)]);
    let eleeye = book_dat("dump_and_merge");
    let err = run_cli(BookAction::Merge(MergeArgs {
        inputs: vec![eleeye.path.clone()],
        output: dir.join("x.cbk"),
    }))
    .unwrap_err();
    assert!(err.contains("import"), "{err}");
    assert!(!dir.join("x.cbk").exists());
}

// ----- damaged files -----

fn small_book_bytes() -> Vec<u8> {
    let games = read_pgn(GAMES).unwrap();
    builder::from_games(&games, PgnBuildOptions { max_ply: 10, min_games: 1 }, "t").to_bytes()
}

fn open_bytes(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    Book::open(&path).unwrap_err().0
}

#[test]
fn corrupted_truncated_and_foreign_files_are_refused() {
    let dir = scratch("damaged");
    let good = small_book_bytes();
    assert!(ChariotBook::from_bytes(&good, "good").is_ok());

    let mut corrupted = good.clone();
    let last = corrupted.len() - 1;
    corrupted[last] ^= 0x40;
    let err = open_bytes(&dir, "corrupted.cbk", &corrupted);
    assert!(err.contains("corrupted.cbk") && err.contains("checksum"), "{err}");

    let err = open_bytes(&dir, "truncated.cbk", &good[..good.len() - 5]);
    assert!(err.contains("truncated.cbk") && err.contains("truncated"), "{err}");
    let err = open_bytes(&dir, "stub.cbk", &good[..12]);
    assert!(err.contains("truncated"), "{err}");

    let mut future = good.clone();
    future[9] = 7;
    let err = open_bytes(&dir, "future.cbk", &future);
    assert!(err.contains("version 7"), "{err}");

    let err = open_bytes(&dir, "notes.txt", b"just some notes\n");
    assert!(err.contains("not a Chariot book"), "{err}");
    let err = open_bytes(&dir, "empty.dat", b"");
    assert!(err.contains("empty"), "{err}");
    let err = Book::open(&dir.join("missing.cbk")).unwrap_err().0;
    assert!(err.contains("missing.cbk") && err.contains("cannot read"), "{err}");
    let eleeye = book_dat("corrupted_truncated_and_foreign_files_are_refused");
    let option = format!("{};{}", eleeye.path_text(), dir.join("missing.cbk").display());
    let err = BookSet::from_option(&option).unwrap_err().0;
    assert!(err.contains("missing.cbk"), "{err}");
}

// ----- choosing -----

fn book_of(pos: &Position, moves: &[(&str, u64)]) -> BookSet {
    let entries = moves.iter().map(|&(m, w)| {
        let (key, cmv) = canonical_move(pos, mv(m));
        (key, cmv, w)
    });
    BookSet::new(vec![Book::Chariot(ChariotBook::from_entries("test", entries))])
}

#[test]
fn a_book_move_that_repeats_is_not_played() {
    // After h0g2 h9g7 g2h0, Black's g7h9 would bring back the start position.
    let pos = after(&["h0g2", "h9g7", "g2h0"]);
    let set = book_of(&pos, &[("g7h9", 1000), ("a9a8", 1)]);
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..50 {
        assert_eq!(choose(&set, &pos, 0.0, &mut rng).unwrap().mv, mv("a9a8"));
    }
    let only_repeat = book_of(&pos, &[("g7h9", 1000)]);
    assert_eq!(choose(&only_repeat, &pos, 0.0, &mut rng), None);
    // The same placement without that history: g7h9 is a fine move there.
    let fresh = Position::from_fen(&pos.to_fen()).unwrap();
    let picked = choose(&only_repeat, &fresh, 0.0, &mut rng).unwrap();
    assert_eq!((picked.mv, picked.weight, picked.source.as_str()), (mv("g7h9"), 1000, "test"));
}

#[test]
fn choice_is_proportional_to_weight_and_randomness_flattens_it() {
    let pos = Position::startpos();
    let set = book_of(&pos, &[("h2e2", 300), ("c3c4", 100)]);
    let mut rng = StdRng::seed_from_u64(42);
    let share = |randomness: f64, rng: &mut StdRng| {
        let hits =
            (0..4000).filter(|_| choose(&set, &pos, randomness, rng).unwrap().mv == mv("h2e2")).count();
        hits as f64 / 4000.0
    };
    let proportional = share(0.0, &mut rng);
    assert!((0.72..0.78).contains(&proportional), "{proportional}");
    // randomness 1: weights ^ 1/2, so sqrt(3) : 1 = 0.634.
    let flatter = share(1.0, &mut rng);
    assert!((0.60..0.67).contains(&flatter), "{flatter}");
    let uniform = share(1e9, &mut rng);
    assert!((0.47..0.53).contains(&uniform), "{uniform}");
}

#[test]
fn the_set_asks_its_books_in_order() {
    let pos = after(&["h2e2"]);
    let empty_here = book_of(&Position::startpos(), &[("h2e2", 5)]);
    let knows = book_of(&pos, &[("h9g7", 5)]);
    let set = BookSet::new(vec![empty_here.books[0].clone(), knows.books[0].clone()]);
    let (name, moves) = set.probe(&pos).unwrap();
    assert_eq!((name, moves[0].mv), ("test", mv("h9g7")));
    let eleeye = book_dat("the_set_asks_its_books_in_order");
    let set = BookSet::from_option(&format!(" {} ; embedded ", eleeye.path_text())).unwrap();
    assert_eq!(set.books.len(), 2);
    assert_eq!(set.probe(&Position::startpos()).unwrap().0, "BOOK.DAT");
}

// ----- the embedded book -----

#[test]
fn the_embedded_book_loads_and_offers_legal_moves_at_the_start() {
    let set = BookSet::from_option("").unwrap();
    assert_eq!(set.books.len(), 1);
    let book = embedded::book().unwrap();
    let moves = book.probe(&Position::startpos());
    assert!(!moves.is_empty());
    let mut rng = StdRng::seed_from_u64(1);
    let picked = choose(&set, &Position::startpos(), 0.0, &mut rng).unwrap();
    assert_eq!(picked.source, "embedded");
    assert!(moves.iter().any(|e| e.mv == picked.mv));
}

#[test]
fn build_arguments_are_checked() {
    let dir = scratch("args");
    let err = run_cli(BookAction::Build(BuildArgs {
        pgn: vec![dir.join("nothing-here")],
        search: false,
        output: dir.join("out.cbk"),
        max_ply: None,
        min_games: 1,
        depth: 8,
        margin: 25,
        max_moves: 4,
        hash: 16,
        threads: 1,
    }))
    .unwrap_err();
    assert!(err.contains("nothing-here"), "{err}");
    std::fs::write(dir.join("bad.pgn"), "1. h2e2 h2h9 *\n").unwrap();
    let err = run_cli(BookAction::Build(BuildArgs {
        pgn: vec![dir.to_path_buf()],
        search: false,
        output: dir.join("out.cbk"),
        max_ply: None,
        min_games: 1,
        depth: 8,
        margin: 25,
        max_moves: 4,
        hash: 16,
        threads: 1,
    }))
    .unwrap_err();
    assert!(err.contains("bad.pgn"), "{err}");
    assert!(!dir.join("out.cbk").exists());
}

#[test]
fn search_build_keeps_near_best_moves_and_follows_them() {
    let dir = scratch("search");
    let out = dir.join("search.cbk");
    let (_, diag) = run_cli(BookAction::Build(BuildArgs {
        pgn: vec![],
        search: true,
        output: out.clone(),
        max_ply: Some(2),
        min_games: 1,
        depth: 4,
        margin: 30,
        max_moves: 1,
        hash: 16,
        threads: 1,
    }))
    .unwrap();
    assert!(diag.contains("wrote"), "{diag}");
    let book = Book::open(&out).unwrap();
    let root = book.probe(&Position::startpos());
    // One line of MultiPV: the best move, and its mirror twin unless it is its own mirror.
    assert!((1..=2).contains(&root.len()), "{root:?}");
    assert!(root.iter().all(|e| e.weight == 100), "{root:?}");
    // The start is symmetric: every move is booked with its mirror twin, at the same weight.
    for e in &root {
        let twin = e.mv.mirror_files();
        assert!(root.iter().any(|o| o.mv == twin && o.weight == e.weight), "{} without its twin", e.mv);
    }
    for e in &root {
        let mut child = Position::startpos();
        child.make_move(e.mv);
        assert!(!book.probe(&child).is_empty(), "no reply to {}", e.mv);
        for reply in book.probe(&child) {
            child.make_move(reply.mv);
            assert!(book.probe(&child).is_empty(), "ply 2 is past --max-ply 2");
            child.unmake_move();
        }
    }
}

#[test]
fn the_binary_refuses_a_truncated_book_with_status_2() {
    let dir = scratch("binary");
    let path = dir.join("cut.cbk");
    let good = small_book_bytes();
    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["book", "probe", "--file", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("error: book '") && stderr.contains("cut.cbk': truncated"), "{stderr}");
}
