//! FEN validity: one test per rejection rule of docs/rules.md (refused positions), each checking that the
//! message names the problem, then the forms that must be accepted and the print round trip.

use chariot::board::{Position, START_FEN};

/// The start placement, rank 9 first, as rows to edit.
const START_ROWS: [&str; 10] =
    ["rnbakabnr", "9", "1c5c1", "p1p1p1p1p", "9", "9", "P1P1P1P1P", "1C5C1", "9", "RNBAKABNR"];

/// The start position with rank `rank` replaced by `row`, Red to move.
fn start_with(rank: usize, row: &str) -> String {
    let mut rows = START_ROWS;
    rows[9 - rank] = row;
    format!("{} w - - 0 1", rows.join("/"))
}

/// The error message for a FEN that must be refused.
fn refusal(fen: &str) -> String {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("accepted a bad FEN {fen:?} as {}", pos.to_fen()),
        Err(e) => e.to_string(),
    }
}

/// Asserts that `fen` is refused with a message containing `wanted`.
fn assert_refused(fen: &str, wanted: &str) {
    let message = refusal(fen);
    assert!(message.starts_with("bad FEN: "), "{message}");
    assert!(message.contains(wanted), "{fen:?} gave '{message}', wanted '{wanted}'");
}

#[test]
fn start_rows_are_the_start_fen() {
    assert_eq!(format!("{} w - - 0 1", START_ROWS.join("/")), START_FEN);
}

#[test]
fn wrong_row_count() {
    let nine_rows = START_ROWS[..9].join("/");
    assert_refused(&format!("{nine_rows} w"), "9 ranks instead of 10");
    let eleven_rows = format!("{}/9", START_ROWS.join("/"));
    assert_refused(&format!("{eleven_rows} w"), "11 ranks instead of 10");
}

#[test]
fn row_too_wide_or_too_narrow() {
    assert_refused(&start_with(3, "P1P1P1P1P1"), "rank 3 has 10 files");
    assert_refused(&start_with(3, "P1P1P1P1PP"), "rank 3 has 10 files");
    assert_refused(&start_with(3, "P1P1P1P1"), "rank 3 has 8 files");
    assert_refused(&start_with(5, "8"), "rank 5 has 8 files");
    assert_refused(&start_with(4, ""), "rank 4 has 0 files");
    assert_refused(&start_with(5, "405"), "rank 5 has a 0 in it");
}

#[test]
fn unknown_letter() {
    assert_refused(&start_with(5, "4X4"), "unknown piece letter 'X' on rank 5");
    assert_refused(&start_with(4, "4?4"), "unknown piece letter '?' on rank 4");
}

#[test]
fn missing_king() {
    assert_refused(&start_with(0, "RNBA1ABNR"), "no red king");
    assert_refused(&start_with(9, "rnba1abnr"), "no black king");
}

#[test]
fn two_kings() {
    assert_refused(&start_with(1, "4K4"), "more than one red king");
    assert_refused(&start_with(8, "4k4"), "more than one black king");
}

#[test]
fn too_many_of_a_kind() {
    assert_refused(&start_with(1, "R8"), "red has 3 rooks (at most 2)");
    assert_refused(&start_with(5, "p8"), "black has 6 pawns (at most 5)");
    assert_refused(&start_with(1, "4A4"), "red has 3 advisors (at most 2)");
    assert_refused(&start_with(8, "4a4"), "black has 3 advisors (at most 2)");
    assert_refused(&start_with(1, "H8"), "red has 3 horses (at most 2)");
    assert_refused(&start_with(8, "c8"), "black has 3 cannons (at most 2)");
    assert_refused(&start_with(7, "1c1e3c1"), "black has 3 elephants (at most 2)");
}

#[test]
fn king_outside_its_palace() {
    assert_refused("4k4/9/9/9/9/9/9/9/9/2K6 w", "red king on c0 is outside its palace");
    assert_refused("4k4/9/9/9/9/9/4K4/9/9/9 w", "red king on e3 is outside its palace");
    assert_refused("9/9/9/9/4k4/9/9/9/9/3K5 w", "black king on e5 is outside its palace");
    assert_refused("6k2/9/9/9/9/9/9/9/9/3K5 w", "black king on g9 is outside its palace");
}

#[test]
fn advisor_on_a_square_it_never_reaches() {
    // Advisors only ever stand on the palace corners and centre: d0 f0 e1 d2 f2 (d9 f9 e8 d7 f7).
    assert_refused("4k4/9/9/9/9/9/9/9/9/3KA4 w", "red advisor on e0 is off its squares");
    assert_refused("4k4/9/9/9/9/9/9/9/3A5/3K5 w", "red advisor on d1 is off its squares");
    assert_refused("4k4/9/4a4/9/9/9/9/9/9/3K5 w", "black advisor on e7 is off its squares");
    assert_refused("4k4/9/9/9/9/a8/9/9/9/3K5 w", "black advisor on a4 is off its squares");
}

#[test]
fn elephant_on_a_square_it_never_reaches() {
    // Red elephants: c0 g0 a2 e2 i2 c4 g4; Black's mirror those on ranks 9..5.
    assert_refused("4k4/9/9/9/9/9/9/9/4B4/3K5 w", "red elephant on e1 is off its squares");
    assert_refused("4k4/9/9/9/2B6/9/9/9/9/3K5 w", "red elephant on c5 is off its squares");
    assert_refused("4k4/9/9/9/4b4/9/9/9/9/3K5 w", "black elephant on e5 is off its squares");
    assert_refused("4k4/9/9/9/9/2b6/9/9/9/3K5 w", "black elephant on c4 is off its squares");
}

#[test]
fn pawn_behind_its_starting_rank() {
    assert_refused("4k4/9/9/9/9/9/9/P8/9/3K5 w", "red pawn on a2 is behind its starting rank");
    assert_refused("4k4/9/8p/9/9/9/9/9/9/3K5 w", "black pawn on i7 is behind its starting rank");
    assert_refused("4k3p/9/9/9/9/9/9/9/9/3K5 w", "black pawn on i9 is behind its starting rank");
}

#[test]
fn side_not_to_move_in_check() {
    // Red rook e1 attacks the black king on e9 down the open file, with Red to move.
    assert_refused("4k4/9/9/9/9/9/9/9/4R4/3K5 w", "side not to move is in check");
    // Black rook e1 attacks the red king on e0, with Black to move.
    assert_refused("3k5/9/9/9/9/9/9/9/4r4/4K4 b", "side not to move is in check");
}

#[test]
fn kings_facing() {
    assert_refused("4k4/9/9/9/9/9/9/9/9/4K4 w", "the kings face each other");
    assert_refused("5k3/9/9/9/9/9/9/9/5K3/9 b", "the kings face each other");
}

#[test]
fn bad_side_field() {
    let placement = START_ROWS.join("/");
    assert_refused(&format!("{placement} x - - 0 1"), "side to move 'x' is not w or b");
    assert_refused(&placement, "side to move is missing");
}

#[test]
fn bad_numbers() {
    let placement = START_ROWS.join("/");
    assert_refused(&format!("{placement} w - - a 1"), "halfmove clock 'a' is not a number");
    assert_refused(&format!("{placement} w - - -3 1"), "halfmove clock '-3' is not a number");
    assert_refused(&format!("{placement} w - - 0 b"), "move number 'b' is not a number");
    assert_refused(&format!("{placement} w - - 0 1 extra"), "unexpected 'extra' after the move number");
}

#[test]
fn empty_fen() {
    assert_refused("", "empty FEN");
    assert_refused("   ", "empty FEN");
}

#[test]
fn elephant_and_horse_letters_e_and_h() {
    let pos =
        Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1").unwrap();
    assert_eq!(pos.to_fen(), START_FEN);
}

#[test]
fn r_means_red_to_move() {
    let pos = Position::from_fen(&START_FEN.replace(" w ", " r ")).unwrap();
    assert_eq!(pos.to_fen(), START_FEN);
}

#[test]
fn missing_clocks_default_to_0_1() {
    let placement = START_ROWS.join("/");
    assert_eq!(Position::from_fen(&format!("{placement} w")).unwrap().to_fen(), START_FEN);
    assert_eq!(
        Position::from_fen(&format!("{placement} b")).unwrap().to_fen(),
        format!("{placement} b - - 0 1")
    );
    let clocks = format!("{placement} w - - 7 12");
    assert_eq!(Position::from_fen(&clocks).unwrap().to_fen(), clocks);
}

#[test]
fn side_to_move_may_be_in_check() {
    // The black rook on e1 attacks the red king on e0, and it is Red's turn to answer.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4r4/4K4 w").unwrap();
    assert!(pos.is_check());
}

#[test]
fn kings_on_one_file_with_a_piece_between() {
    let pos = Position::from_fen("4k4/9/9/9/4P4/9/9/9/9/4K4 w").unwrap();
    assert!(!pos.is_check());
}

#[test]
fn perft_reference_fens_print_back_unchanged() {
    let text = std::fs::read_to_string("tests/data/perft.txt").expect("tests/data is in the repository");
    let fens: Vec<&str> =
        text.lines().filter_map(|l| l.split(';').next()).filter(|f| !f.is_empty()).collect();
    assert!(fens.len() >= 40, "the reference file has all its lines");
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
    }
}
