//! Move notation: hand-derived ICCS/WXF/Chinese names of moves, tandem pieces for both colours,
//! parse-of-format round trips over many positions, and the errors for bad text.

use chariot::board::{movegen, Move, Position};
use chariot::notation::{self, chinese, iccs, wxf, MoveNotation, NotationError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn mv(text: &str) -> Move {
    Move::parse_iccs(text).unwrap_or_else(|| panic!("bad ICCS in the test: {text}"))
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("bad FEN in the test: {e}"))
}

/// The same position seen from the other side: colours swapped and the board turned half round,
/// so that Black's file numbers equal Red's in the original.
fn turned(pos: &Position) -> Position {
    pos.color_flipped().files_mirrored()
}

fn turned_move(m: Move) -> Move {
    m.flip_ranks().mirror_files()
}

/// Checks that `iccs_text` in `pos` is written `wxf_text` and `chinese_text`, and that each of the
/// three texts parses back to the move.
fn check(pos: &Position, iccs_text: &str, wxf_text: &str, chinese_text: &str) {
    let m = mv(iccs_text);
    assert_eq!(wxf::format(pos, m), wxf_text, "WXF of {iccs_text} in {pos:?}");
    assert_eq!(chinese::format(pos, m), chinese_text, "Chinese of {iccs_text} in {pos:?}");
    for text in [iccs_text, wxf_text, chinese_text] {
        assert_eq!(notation::parse_move(pos, text), Ok(m), "parse {text} in {pos:?}");
    }
}

/// A case for Red in `pos`, and the same move for Black in the turned position.
struct Case {
    iccs: &'static str,
    red_wxf: &'static str,
    red_chinese: &'static str,
    black_wxf: &'static str,
    black_chinese: &'static str,
}

fn check_both_colours(fen_text: &str, cases: &[Case]) {
    let red = fen(fen_text);
    let black = turned(&red);
    for c in cases {
        check(&red, c.iccs, c.red_wxf, c.red_chinese);
        let black_iccs = turned_move(mv(c.iccs)).to_string();
        check(&black, &black_iccs, c.black_wxf, c.black_chinese);
    }
}

macro_rules! case {
    ($iccs:expr, $rw:expr, $rc:expr, $bw:expr, $bc:expr) => {
        Case { iccs: $iccs, red_wxf: $rw, red_chinese: $rc, black_wxf: $bw, black_chinese: $bc }
    };
}

#[test]
fn well_known_moves_from_the_start() {
    let start = Position::startpos();
    check(&start, "h2e2", "C2=5", "炮二平五");
    check(&start, "b2e2", "C8=5", "炮八平五");
    check(&start, "b0c2", "H8+7", "马八进七");
    check(&start, "h0g2", "H2+3", "马二进三");
    check(&start, "a0a1", "R9+1", "车九进一");
    check(&start, "i0i2", "R1+2", "车一进二");
    check(&start, "e3e4", "P5+1", "兵五进一");
    check(&start, "f0e1", "A4+5", "仕四进五");
    check(&start, "d0e1", "A6+5", "仕六进五");
    check(&start, "c0e2", "E7+5", "相七进五");
    check(&start, "g0e2", "E3+5", "相三进五");
    check(&start, "e0e1", "K5+1", "帅五进一");
    check(&start, "h2h9", "C2+7", "炮二进七");
    check(&start, "h2h1", "C2-1", "炮二退一");
}

#[test]
fn well_known_black_replies() {
    let mut pos = Position::startpos();
    pos.make_move(mv("h2e2"));
    check(&pos, "h9g7", "h8+7", "马８进７");
    check(&pos, "b9c7", "h2+3", "马２进３");
    check(&pos, "h7e7", "c8=5", "炮８平５");
    check(&pos, "b7e7", "c2=5", "炮２平５");
    check(&pos, "c6c5", "p3+1", "卒３进１");
    check(&pos, "a9a8", "r1+1", "车１进１");
    check(&pos, "d9e8", "a4+5", "士４进５");
    check(&pos, "g9e7", "e7+5", "象７进５");
    check(&pos, "e9e8", "k5+1", "将５进１");
    check(&pos, "b7b0", "c2+7", "炮２进７");
}

#[test]
fn other_spellings_are_read() {
    let start = Position::startpos();
    let central_cannon = mv("h2e2");
    for text in [
        "H2-E2",
        "h2-e2",
        "H2E2",
        "c2.5",
        "C2=5",
        " C2=5 ",
        "砲二平五",
        "炮2平5",
        "炮 二 平 五",
        "炮２平５",
        "包二平五",
    ] {
        assert_eq!(notation::parse_move(&start, text), Ok(central_cannon), "{text}");
    }
    assert_eq!(notation::parse_move(&start, "N8+7"), Ok(mv("b0c2")));
    assert_eq!(notation::parse_move(&start, "B3+5"), Ok(mv("g0e2")));
    assert_eq!(notation::parse_move(&start, "傌八進七"), Ok(mv("b0c2")));
    assert_eq!(notation::parse_move(&start, "俥九进一"), Ok(mv("a0a1")));
    assert_eq!(notation::parse_move(&start, "帥五進一"), Ok(mv("e0e1")));
    let mut pos = start.clone();
    pos.make_move(central_cannon);
    assert_eq!(notation::parse_move(&pos, "馬8進7"), Ok(mv("h9g7")));
    assert_eq!(notation::parse_move(&pos, "馬八進七"), Ok(mv("h9g7")));
    assert_eq!(notation::parse_move(&pos, "H8+7"), Ok(mv("h9g7")));
    assert_eq!(notation::parse_move(&pos, "將5進1"), Ok(mv("e9e8")));
    assert_eq!(notation::parse_move(&pos, "象7進5"), Ok(mv("g9e7")));
    assert_eq!(iccs::parse(&pos, "H9-G7"), Ok(mv("h9g7")));
}

#[test]
fn tandem_rooks_and_cannons() {
    // Red rooks c6 (front) and c2 on Red's file 7, cannons g3 (front) and g1 on file 3.
    check_both_colours(
        "3k5/9/9/2R6/9/9/6C2/2R6/6C2/4K4 w - - 0 1",
        &[
            case!("c6e6", "R+=5", "前车平五", "r+=5", "前车平５"),
            case!("c6c8", "R++2", "前车进二", "r++2", "前车进２"),
            case!("c6c3", "R+-3", "前车退三", "r+-3", "前车退３"),
            case!("c2c5", "R-+3", "后车进三", "r-+3", "后车进３"),
            case!("c2c1", "R--1", "后车退一", "r--1", "后车退１"),
            case!("c2a2", "R-=9", "后车平九", "r-=9", "后车平９"),
            case!("g3i3", "C+=1", "前炮平一", "c+=1", "前炮平１"),
            case!("g3g9", "C++6", "前炮进六", "c++6", "前炮进６"),
            case!("g3g2", "C+-1", "前炮退一", "c+-1", "前炮退１"),
            case!("g1g0", "C--1", "后炮退一", "c--1", "后炮退１"),
            case!("g1g2", "C-+1", "后炮进一", "c-+1", "后炮进１"),
            case!("e0e1", "K5+1", "帅五进一", "k5+1", "将５进１"),
        ],
    );
}

#[test]
fn tandem_horses_and_three_pawns() {
    // Red horses h4 (front) and h2 on file 2; pawns c7, c6, c5 on file 7.
    check_both_colours(
        "5k3/9/2P6/2P6/2P6/7N1/9/7N1/9/3K5 w - - 0 1",
        &[
            case!("h4g6", "H++3", "前马进三", "h++3", "前马进３"),
            case!("h4f5", "H++4", "前马进四", "h++4", "前马进４"),
            case!("h4f3", "H+-4", "前马退四", "h+-4", "前马退４"),
            case!("h4i2", "H+-1", "前马退一", "h+-1", "前马退１"),
            case!("h2g4", "H-+3", "后马进三", "h-+3", "后马进３"),
            case!("h2f3", "H-+4", "后马进四", "h-+4", "后马进４"),
            case!("h2g0", "H--3", "后马退三", "h--3", "后马退３"),
            case!("c7c8", "P++1", "前兵进一", "p++1", "前卒进１"),
            case!("c7b7", "P+=8", "前兵平八", "p+=8", "前卒平８"),
            case!("c6b6", "P7=8", "中兵平八", "p7=8", "中卒平８"),
            case!("c6d6", "P7=6", "中兵平六", "p7=6", "中卒平６"),
            case!("c5d5", "P-=6", "后兵平六", "p-=6", "后卒平６"),
        ],
    );
}

#[test]
fn five_and_four_pawns_on_one_file() {
    // Pawns c9..c5 on Red's file 7: 一兵 is c9, 五兵 is c5.
    check_both_colours(
        "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        &[
            case!("c9b9", "++=8", "一兵平八", "++=8", "一卒平８"),
            case!("c9d9", "++=6", "一兵平六", "++=6", "一卒平６"),
            case!("c8b8", "+=8", "二兵平八", "+=8", "二卒平８"),
            case!("c7b7", "7=8", "三兵平八", "7=8", "三卒平８"),
            case!("c6b6", "-=8", "四兵平八", "-=8", "四卒平８"),
            case!("c5b5", "--=8", "五兵平八", "--=8", "五卒平８"),
            case!("c5d5", "--=6", "五兵平六", "--=6", "五卒平６"),
        ],
    );
    check_both_colours(
        "4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        &[
            case!("c8c9", "+++1", "一兵进一", "+++1", "一卒进１"),
            case!("c8b8", "++=8", "一兵平八", "++=8", "一卒平８"),
            case!("c7b7", "+=8", "二兵平八", "+=8", "二卒平８"),
            case!("c6b6", "-=8", "三兵平八", "-=8", "三卒平８"),
            case!("c5b5", "--=8", "四兵平八", "--=8", "四卒平８"),
        ],
    );
}

#[test]
fn tandem_pawns_on_two_files() {
    // Two pawns on file 7 (c6, c5), two on file 3 (g6, g5), one alone on file 5 (e5).
    check_both_colours(
        "5k3/9/9/2P3P2/2P1P1P2/9/9/9/9/3K5 w - - 0 1",
        &[
            case!("c6d6", "7+=6", "前七平六", "7+=6", "前７平６"),
            case!("c6c7", "7++1", "前七进一", "7++1", "前７进１"),
            case!("c5d5", "7-=6", "后七平六", "7-=6", "后７平６"),
            case!("c5b5", "7-=8", "后七平八", "7-=8", "后７平８"),
            case!("g6g7", "3++1", "前三进一", "3++1", "前３进１"),
            case!("g5h5", "3-=2", "后三平二", "3-=2", "后３平２"),
            case!("e5e6", "P5+1", "兵五进一", "p5+1", "卒５进１"),
            case!("e5d5", "P5=6", "兵五平六", "p5=6", "卒５平６"),
        ],
    );
    // Three pawns on file 7 (c7, c6, c5) and two on file 3 (g6, g5).
    check_both_colours(
        "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
        &[
            case!("c7d7", "7+=6", "前七平六", "7+=6", "前７平６"),
            case!("c6d6", "P7=6", "中七平六", "p7=6", "中７平６"),
            case!("c5d5", "7-=6", "后七平六", "7-=6", "后７平６"),
            case!("g6f6", "3+=4", "前三平四", "3+=4", "前３平４"),
            case!("g5h5", "3-=2", "后三平二", "3-=2", "后３平２"),
        ],
    );
}

#[test]
fn advisors_and_elephants_on_one_file_need_no_marks() {
    // Advisors d0 and d2 share Red's file 6, elephants c0 and c4 file 7: the direction tells them
    // apart, so the notation names the file as usual.
    check_both_colours(
        "4k4/9/9/9/9/2B6/9/3A5/9/2BA1K3 w - - 0 1",
        &[
            case!("d0e1", "A6+5", "仕六进五", "a6+5", "士６进５"),
            case!("d2e1", "A6-5", "仕六退五", "a6-5", "士６退５"),
            case!("c0a2", "E7+9", "相七进九", "e7+9", "象７进９"),
            case!("c0e2", "E7+5", "相七进五", "e7+5", "象７进５"),
            case!("c4a2", "E7-9", "相七退九", "e7-9", "象７退９"),
            case!("c4e2", "E7-5", "相七退五", "e7-5", "象７退５"),
            case!("f0f1", "K4+1", "帅四进一", "k4+1", "将４进１"),
        ],
    );
    // Marks are still understood for them.
    let pos = fen("4k4/9/9/9/9/2B6/9/3A5/9/2BA1K3 w - - 0 1");
    assert_eq!(notation::parse_move(&pos, "前仕退五"), Ok(mv("d2e1")));
    assert_eq!(notation::parse_move(&pos, "E-+5"), Ok(mv("c0e2")));
}

/// Every legal move of `pos` must come back from its own text in each notation.
fn assert_round_trip(pos: &Position) {
    let mut scratch = pos.clone();
    for &m in movegen::legal_moves(&mut scratch).iter() {
        for notation in MoveNotation::ALL {
            let text = notation::format_move(pos, m, notation);
            let back = notation::parse_move(pos, &text);
            assert_eq!(back, Ok(m), "{notation} '{text}' of {m} in {}", pos.to_fen());
        }
    }
}

#[test]
fn round_trip_in_every_reference_position() {
    let text = std::fs::read_to_string("tests/data/perft.txt").expect("tests/data is in the repository");
    let mut seen = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen_text = line.split(';').next().unwrap_or_default();
        let pos = fen(fen_text);
        assert_round_trip(&pos);
        assert_round_trip(&turned(&pos));
        seen += 1;
    }
    assert!(seen >= 40, "read the reference positions");
}

#[test]
fn round_trip_along_the_opening_lines() {
    let text = std::fs::read_to_string("tests/data/openings.txt").expect("tests/data is in the repository");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut pos = Position::startpos();
        for word in line.split_whitespace() {
            assert_round_trip(&pos);
            let m = iccs::parse(&pos, word).unwrap_or_else(|e| panic!("{e} in line {line}"));
            pos.make_move(m);
        }
        assert_round_trip(&pos);
    }
}

#[test]
fn round_trip_along_random_games() {
    // Long random games crowd pawns and pieces onto shared files, which the opening never does.
    let mut rng = StdRng::seed_from_u64(20240611);
    let plies = if cfg!(debug_assertions) { 60 } else { 200 };
    for _ in 0..12 {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            assert_round_trip(&pos);
            let moves = movegen::legal_moves(&mut pos);
            if moves.is_empty() {
                break;
            }
            // Favour quiet moves so the games last and the pieces pile up.
            let quiet: Vec<Move> =
                moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_empty()).collect();
            let pool = if quiet.is_empty() || rng.gen_bool(0.2) { moves.as_slice().to_vec() } else { quiet };
            pos.make_move(pool[rng.gen_range(0..pool.len())]);
        }
    }
}

#[test]
fn garbage_is_unreadable() {
    let start = Position::startpos();
    for text in [
        "",
        "   ",
        "xyz",
        "C2=",
        "C2=0",
        "Z9+1",
        "C2*5",
        "h2e2e2",
        "炮二平",
        "炮二走五",
        "猫二平五",
        "hello world",
        "1-0",
    ] {
        match notation::parse_move(&start, text) {
            Err(NotationError::Unreadable { .. }) => {}
            other => panic!("'{text}' gave {other:?}"),
        }
    }
    let e = notation::parse_move(&start, "C2*5").unwrap_err();
    assert!(e.to_string().contains("'C2*5'") && e.to_string().contains("operator"), "{e}");
}

#[test]
fn illegal_moves_are_refused_with_their_text() {
    let start = Position::startpos();
    // The cannon on h2 cannot slide through the one on b2 to file a.
    let e = notation::parse_move(&start, "C2=9").unwrap_err();
    assert_eq!(e, NotationError::NoLegalMatch { text: "C2=9".into() });
    assert_eq!(e.to_string(), "no legal move matches 'C2=9'");
    assert!(matches!(notation::parse_move(&start, "炮二平九"), Err(NotationError::NoLegalMatch { .. })));
    assert!(matches!(notation::parse_move(&start, "h2e3"), Err(NotationError::NoLegalMatch { .. })));
    // Black's horse cannot move on Red's turn.
    assert!(matches!(notation::parse_move(&start, "h9g7"), Err(NotationError::NoLegalMatch { .. })));
    // An advisor never goes sideways.
    assert!(matches!(notation::parse_move(&start, "A4=5"), Err(NotationError::NoLegalMatch { .. })));
    // Black's king stands on d9 with file d open: the Red king may not step to d0 (flying general).
    let facing = fen("3k5/9/9/2R6/9/9/6C2/2R6/6C2/4K4 w - - 0 1");
    assert!(matches!(notation::parse_move(&facing, "K5=6"), Err(NotationError::NoLegalMatch { .. })));
    assert!(matches!(notation::parse_move(&facing, "帅五平六"), Err(NotationError::NoLegalMatch { .. })));
}

#[test]
fn missing_pieces_are_named() {
    let start = Position::startpos();
    let e = notation::parse_move(&start, "前炮平五").unwrap_err();
    assert!(matches!(e, NotationError::NoSuchPiece { .. }), "{e:?}");
    assert_eq!(e.to_string(), "'前炮平五': there are no tandem cannons");
    let e = notation::parse_move(&start, "R5+1").unwrap_err();
    assert_eq!(e.to_string(), "'R5+1': red has no rook on file 5");
    let e = notation::parse_move(&start, "中兵平四").unwrap_err();
    assert!(e.to_string().contains("three or five pawns"), "{e}");
    let e = notation::parse_move(&start, "++=4").unwrap_err();
    assert!(e.to_string().contains("4 pawns"), "{e}");
    let e = notation::parse_move(&start, "7+=6").unwrap_err();
    assert!(e.to_string().contains("no tandem pawns on file 7"), "{e}");
}

#[test]
fn ambiguous_text_lists_the_candidates() {
    // Three pawns on file 7: Chinese without a mark fits each of them.
    let pos = fen("5k3/9/2P6/2P6/2P6/7N1/9/7N1/9/3K5 w - - 0 1");
    match notation::parse_move(&pos, "兵七平八") {
        Err(NotationError::Ambiguous { matches, .. }) => {
            let mut names: Vec<String> = matches.iter().map(|m| m.to_string()).collect();
            names.sort();
            assert_eq!(names, ["c5b5", "c6b6", "c7b7"]);
        }
        other => panic!("{other:?}"),
    }
    // Pawns stacked on two files: 前兵 alone does not say which file.
    let two_files = fen("5k3/9/9/2P3P2/2P1P1P2/9/9/9/9/3K5 w - - 0 1");
    let e = notation::parse_move(&two_files, "前兵进一").unwrap_err();
    assert!(e.to_string().contains("ambiguous") && e.to_string().contains("c6c7"), "{e}");
    // ...unless only one of them can make the move.
    assert_eq!(notation::parse_move(&two_files, "前兵平六"), Ok(mv("c6d6")));
}

#[test]
fn formatting_a_move_from_an_empty_square_falls_back_to_iccs() {
    let start = Position::startpos();
    assert_eq!(wxf::format(&start, mv("e5e6")), "e5e6");
    assert_eq!(chinese::format(&start, mv("e5e6")), "e5e6");
    assert_eq!(wxf::format(&start, Move::NONE), "0000");
}

#[test]
fn lines_and_notation_names() {
    let start = Position::startpos();
    let line = [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")];
    assert_eq!(
        notation::format_line(&start, &line, MoveNotation::Chinese),
        ["炮二平五", "马８进７", "马二进三", "车９平８"]
    );
    assert_eq!(notation::format_line(&start, &line, MoveNotation::Wxf), ["C2=5", "h8+7", "H2+3", "r9=8"]);
    // An illegal move ends the line.
    assert_eq!(notation::format_line(&start, &[mv("h2e2"), mv("h2e2")], MoveNotation::Iccs), ["h2e2"]);
    for n in MoveNotation::ALL {
        assert_eq!(n.name().parse::<MoveNotation>(), Ok(n));
    }
    assert_eq!("WXF".parse::<MoveNotation>(), Ok(MoveNotation::Wxf));
    assert!("fen".parse::<MoveNotation>().is_err());
}
