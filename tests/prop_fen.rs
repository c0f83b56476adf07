//! Property tests of the FEN reader (`Position::from_fen`) and printer (`to_fen`): any text is
//! read or refused with a short message, never a panic, a hang or a runaway allocation; what is
//! read prints back and re-reads to the same position, and plays on. Cases per run and how to run
//! longer: see tests/prop_support/mod.rs.

use crate::prop_support;

use chariot::board::fen::MAX_CLOCK;
use chariot::board::{movegen, Color, Position, START_FEN};
use prop_support::{
    any_position, as_text, char_edits, config, edit_chars, memory_bound, mutate, mutations, random_bytes,
    read_guarded, MAX_MESSAGE_LEN,
};
use proptest::prelude::*;

/// Reads `text` as a FEN and checks everything a read must satisfy; a failure quotes the input.
fn check_fen(text: &str) -> Result<(), TestCaseError> {
    check_fen_unquoted(text).map_err(|e| TestCaseError::fail(format!("{e}\n  on the FEN {text:.300?}")))
}

fn check_fen_unquoted(text: &str) -> Result<(), TestCaseError> {
    let g = read_guarded("FEN", text.as_bytes(), || Position::from_fen(text));
    prop_assert!(
        g.peak_bytes <= memory_bound(text.len()),
        "reading {} bytes of FEN allocated {} bytes",
        text.len(),
        g.peak_bytes
    );
    match g.value {
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.starts_with("bad FEN: "), "{message}");
            prop_assert!(
                message.len() <= MAX_MESSAGE_LEN,
                "a {}-byte message: {message:.200}",
                message.len()
            );
        }
        Ok(pos) => check_prints_back(&pos)?,
    }
    Ok(())
}

/// `pos` printed as FEN re-reads to the same placement, side, clocks and key, the printed text is
/// a fixed point, and every legal move from it plays on with clocks that count on.
fn check_prints_back(pos: &Position) -> Result<(), TestCaseError> {
    let fen = pos.to_fen();
    let back =
        Position::from_fen(&fen).map_err(|e| TestCaseError::fail(format!("{fen} printed, then {e}")))?;
    prop_assert_eq!(&back, pos, "{}", fen);
    prop_assert_eq!(back.key(), pos.key(), "{}", fen);
    prop_assert_eq!(
        (back.halfmove_clock(), back.fullmove_number()),
        (pos.halfmove_clock(), pos.fullmove_number()),
        "{}",
        fen
    );
    prop_assert_eq!(back.to_fen(), fen.clone());
    let mut play = back;
    for mv in movegen::legal_moves(&mut play.clone()).iter().copied() {
        let capture = play.piece_at(mv.to()).is_piece();
        play.make_move(mv);
        let halfmove = if capture { Some(0) } else { pos.halfmove_clock().checked_add(1) };
        let fullmove = pos.fullmove_number().checked_add(u32::from(pos.side_to_move() == Color::Black));
        prop_assert_eq!(
            (Some(play.halfmove_clock()), Some(play.fullmove_number())),
            (halfmove, fullmove),
            "clocks after {} from {}",
            mv,
            fen
        );
        let after = play.to_fen();
        // A clock pushed past what a FEN may give (no game gets there) is the one exception.
        if play.halfmove_clock() <= MAX_CLOCK && play.fullmove_number() <= MAX_CLOCK {
            let reread = Position::from_fen(&after).ok();
            prop_assert_eq!(reread.as_ref(), Some(&play), "{} after {} from {}", after, mv, fen);
        }
        play.unmake_move();
    }
    Ok(())
}

/// The FEN of `pos` with the clock fields set to `halfmove` and `fullmove`.
fn with_clocks(pos: &Position, halfmove: u32, fullmove: u32) -> String {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    format!("{} {} - - {halfmove} {fullmove}", fields[0], fields[1])
}

/// A FEN-shaped text: nine to eleven rows over the placement alphabet, then the other fields
/// drawn from what GUIs send and what they should not.
fn fen_shaped() -> impl Strategy<Value = String> {
    let row = "[rnbakcpehRNBAKCPEH1-9]{0,11}";
    let side = prop::sample::select(vec!["w", "b", "r", "R", "B", "W", "x", "", "wb"]);
    let number = prop_oneof!["[0-9]{1,3}", "[0-9]{9,12}", "-[0-9]{1,3}", Just(String::new())];
    (
        prop::collection::vec(row, 9..=11),
        side,
        "[-a-z]{0,2}",
        "[-a-z0-9]{0,2}",
        number.clone(),
        number,
        "( x)?",
    )
        .prop_map(|(rows, side, castle, ep, half, full, extra)| {
            format!("{} {side} {castle} {ep} {half} {full}{extra}", rows.join("/"))
        })
}

/// A clock value: small, anywhere in `u32`, or at its very top.
fn clock_value() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..300, any::<u32>(), (u32::MAX - 2)..=u32::MAX, Just(MAX_CLOCK), Just(MAX_CLOCK + 1)]
}

proptest! {
    #![proptest_config(config(10000))]

    /// Arbitrary bytes (decoded as a caller would, invalid UTF-8 replaced) are read or refused.
    #[test]
    fn random_bytes_are_read_or_refused(bytes in random_bytes(300)) {
        check_fen(&as_text(&bytes))?;
    }

    /// Arbitrary Unicode text is read or refused.
    #[test]
    fn random_text_is_read_or_refused(text in "(?s).{0,200}") {
        check_fen(&text)?;
    }

    /// Text over the FEN alphabet, shaped like a FEN, is read or refused.
    #[test]
    fn fen_shaped_text_is_read_or_refused(text in fen_shaped()) {
        check_fen(&text)?;
    }
}

proptest! {
    #![proptest_config(config(5000))]

    /// Valid FENs of random positions, truncated, flipped, stretched and padded with huge numbers,
    /// are read or refused; what is read prints back.
    #[test]
    fn mutated_fens_are_read_or_refused(pos in any_position(), changes in mutations()) {
        let text = as_text(&mutate(pos.to_fen().as_bytes(), &changes));
        check_fen(&text)?;
    }

    /// Valid FENs with one to three characters replaced by others of the FEN alphabet (a piece
    /// moved, a letter changed, a digit off by some, the side swapped) are read or refused; what
    /// is read prints back.
    #[test]
    fn edited_fens_are_read_or_refused(pos in any_position(), edits in char_edits("rnbakcpehRNBAKCPEH0123456789/ wb-")) {
        check_fen(&edit_chars(&pos.to_fen(), &edits))?;
    }

    /// Every position of random games and random placements prints as a FEN that re-reads to it.
    #[test]
    fn positions_print_back_unchanged(pos in any_position()) {
        check_prints_back(&pos)?;
        check_prints_back(&pos.files_mirrored())?;
        check_prints_back(&pos.color_flipped())?;
    }

    /// Any clock values the reader accepts print back and play on; those it refuses are refused
    /// with a message naming the field.
    #[test]
    fn clocks_print_back_or_are_refused(pos in any_position(), halfmove in clock_value(), fullmove in clock_value()) {
        let fen = with_clocks(&pos, halfmove, fullmove);
        match Position::from_fen(&fen) {
            Ok(read) => {
                // Move number 0, which some GUIs send, means the first move.
                prop_assert_eq!((read.halfmove_clock(), read.fullmove_number()), (halfmove, fullmove.max(1)));
                check_prints_back(&read)?;
            }
            Err(e) => {
                let message = e.to_string();
                prop_assert!(message.contains("halfmove clock") || message.contains("move number"), "{}", message);
            }
        }
    }
}

#[test]
fn the_allocation_counter_counts() {
    prop_support::check_the_allocation_counter();
}

#[test]
fn the_start_position_prints_back() {
    let pos = Position::from_fen(START_FEN).unwrap();
    assert_eq!(pos.to_fen(), START_FEN);
}

// ----- regressions: what the properties found -----

/// The start placement followed by `rest`.
fn start_with_fields(rest: &str) -> String {
    format!("{} {rest}", START_FEN.split(' ').next().unwrap())
}

/// Found by `mutated_fens_are_read_or_refused`: a side field of a megabyte came back whole in the
/// error message (and so in an `info string`).
#[test]
fn a_huge_field_is_quoted_not_echoed() {
    let junk = "\u{fffd}".repeat(1 << 18);
    for fen in [
        start_with_fields(&junk),
        start_with_fields(&format!("w - - {junk} 1")),
        start_with_fields(&format!("w - - 0 {junk}")),
        start_with_fields(&format!("w - - 0 1 {junk}")),
    ] {
        let message = Position::from_fen(&fen).unwrap_err().to_string();
        assert!(message.len() < 300, "{} bytes: {message:.300}", message.len());
        assert!(message.contains("(786432 bytes)"), "{message}");
    }
}

/// Found by `clocks_print_back_or_are_refused`: a halfmove clock of 4294967295 was accepted and
/// wrapped to 0 on the next quiet move (a panic in a debug build); so did a move number of
/// 4294967295 after Black's move.
#[test]
fn clocks_that_would_overflow_are_refused_with_the_range() {
    for fen in [start_with_fields("w - - 4294967295 1"), start_with_fields("b - - 0 4294967295")] {
        let message = Position::from_fen(&fen).unwrap_err().to_string();
        assert!(message.contains("'4294967295' is not a number from 0 to 999999999"), "{message}");
    }
    let mut pos = Position::from_fen(&start_with_fields("b - - 999999999 999999999")).unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (MAX_CLOCK, MAX_CLOCK));
    pos.make_move(chariot::board::Move::parse_iccs("h7e7").unwrap());
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (MAX_CLOCK + 1, MAX_CLOCK + 1));
}
