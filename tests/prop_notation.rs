//! Property tests of the move notation readers and writers (ICCS, WXF, Chinese): every legal move
//! of random positions, written in each notation, reads back as that move; any text, in any
//! position, reads as a legal move (which then round-trips) or is refused with a short message,
//! never a panic or a hang. Cases per run and how to run longer: see tests/prop_support/mod.rs.

use crate::prop_support;

use chariot::board::{movegen, Move, Position};
use chariot::notation::{chinese, format_move, iccs, parse_move, wxf, MoveNotation, NotationError};
use prop_support::{
    any_position, as_text, config, edit_chars, memory_bound, mutate, mutations, random_bytes, read_guarded,
    MAX_MESSAGE_LEN,
};
use proptest::prelude::*;

/// A move reader: `parse_move` or one notation's own.
type Reader = fn(&Position, &str) -> Result<Move, NotationError>;

/// The reader of one notation alone.
fn parse_in(notation: MoveNotation, pos: &Position, text: &str) -> Result<Move, NotationError> {
    match notation {
        MoveNotation::Iccs => iccs::parse(pos, text),
        MoveNotation::Wxf => wxf::parse(pos, text),
        MoveNotation::Chinese => chinese::parse(pos, text),
    }
}

/// `mv`, legal in `pos`, written in every notation, reads back as `mv` with `parse_move` and with
/// that notation's own reader.
fn check_round_trip(pos: &Position, mv: Move) -> Result<(), TestCaseError> {
    for notation in MoveNotation::ALL {
        let text = format_move(pos, mv, notation);
        prop_assert_eq!(
            parse_move(pos, &text),
            Ok(mv),
            "{} {} written {:?} in {:?}",
            pos.to_fen(),
            mv,
            text,
            notation
        );
        prop_assert_eq!(parse_in(notation, pos, &text), Ok(mv), "{} {} written {:?}", pos.to_fen(), mv, text);
    }
    Ok(())
}

/// Reads `text` in `pos` with every reader: a move read is legal and round-trips, a refusal has a
/// short message; and the notation-name reader likewise.
fn check_text(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    check_text_unquoted(pos, text)
        .map_err(|e| TestCaseError::fail(format!("{e}\n  on the text {text:.300?} in {}", pos.to_fen())))
}

fn check_text_unquoted(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    let readers: [(&'static str, Reader); 4] =
        [("parse_move", parse_move), ("ICCS", iccs::parse), ("WXF", wxf::parse), ("Chinese", chinese::parse)];
    for (name, read) in readers {
        let g = read_guarded(name, text.as_bytes(), || read(pos, text));
        prop_assert!(g.peak_bytes <= memory_bound(text.len()), "{name} allocated {} bytes", g.peak_bytes);
        match g.value {
            Ok(mv) => {
                prop_assert!(movegen::is_legal(&mut pos.clone(), mv), "{name} read the illegal move {mv}");
                check_round_trip(pos, mv)?;
            }
            Err(e) => {
                let message = e.to_string();
                prop_assert!(
                    message.len() <= MAX_MESSAGE_LEN,
                    "{name}: a {}-byte message: {message:.200}",
                    message.len()
                );
            }
        }
    }
    match text.parse::<MoveNotation>() {
        Ok(notation) => prop_assert_eq!(notation.name().parse::<MoveNotation>(), Ok(notation)),
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.len() <= MAX_MESSAGE_LEN, "a {}-byte message: {message:.200}", message.len())
        }
    }
    Ok(())
}

/// The characters the three notations are written in, and a few near misses.
const ALPHABET: &str = "abcdefghiABCDEFGHI0123456789-+=.KAEHRCPBNkaehrcpbn \
    帅帥将將仕士相象马馬傌车車俥炮砲包兵卒一二三四五六七八九十１２３４５６７８９０进進退平前后後中";

/// Text of up to eight characters over `ALPHABET`.
fn alphabet_text() -> impl Strategy<Value = String> {
    let chars: Vec<char> = ALPHABET.chars().collect();
    prop::collection::vec(prop::sample::select(chars), 0..=8).prop_map(|v| v.into_iter().collect())
}

/// Text with the shape of a WXF or Chinese move (piece, file or mark, direction, number), which
/// often names a legal move and often an ambiguous or impossible one.
fn move_shaped_text() -> impl Strategy<Value = String> {
    let pick = |s: &str| prop::sample::select(s.chars().collect::<Vec<char>>());
    let wxf = (pick("KAEHRCPBNkaehrcp123456789+-"), pick("123456789+-"), pick("+-=."), pick("123456789"))
        .prop_map(|(a, b, c, d)| format!("{a}{b}{c}{d}"));
    let crowded = (pick("+-"), pick("+-"), pick("+-="), pick("123456789"))
        .prop_map(|(a, b, c, d)| format!("{a}{b}{c}{d}"));
    let chinese = (
        pick("帅将仕士相象马车炮兵卒前后中一二三四五"),
        pick("一二三四五六七八九１２３４５６７８９马车炮兵卒相象仕士"),
        pick("进退平"),
        pick("一二三四五六七八九１２３４５６７８９"),
    )
        .prop_map(|(a, b, c, d)| format!("{a}{b}{c}{d}"));
    prop_oneof![wxf, crowded, chinese]
}

proptest! {
    #![proptest_config(config(5000))]

    /// Every legal move of positions from random games reads back from each notation.
    #[test]
    fn every_legal_move_of_random_games_round_trips(pos in prop_support::played_position(150)) {
        for mv in movegen::legal_moves(&mut pos.clone()).iter().copied() {
            check_round_trip(&pos, mv)?;
        }
    }

    /// Every legal move of positions with pieces placed at random (crowded pawn files, tandem
    /// pieces of every kind, either side to move) reads back from each notation.
    #[test]
    fn every_legal_move_of_random_placements_round_trips(pos in prop_support::placed_position()) {
        for mv in movegen::legal_moves(&mut pos.clone()).iter().copied() {
            check_round_trip(&pos, mv)?;
        }
    }
}

proptest! {
    #![proptest_config(config(10000))]

    /// Arbitrary bytes (invalid UTF-8 replaced) are read as a legal move or refused.
    #[test]
    fn random_bytes_are_read_or_refused(pos in any_position(), bytes in random_bytes(24)) {
        check_text(&pos, &as_text(&bytes))?;
    }

    /// Short text over the notations' alphabets is read as a legal move or refused.
    #[test]
    fn alphabet_text_is_read_or_refused(pos in any_position(), text in alphabet_text()) {
        check_text(&pos, &text)?;
    }

    /// Text shaped like a WXF or Chinese move is read as a legal move or refused.
    #[test]
    fn move_shaped_text_is_read_or_refused(pos in any_position(), text in move_shaped_text()) {
        check_text(&pos, &text)?;
    }

    /// A legal move's text in some notation, truncated, flipped, padded, stretched to a megabyte,
    /// is read as a legal move or refused.
    #[test]
    fn mutated_moves_are_read_or_refused(
        pos in any_position(),
        pick in any::<prop::sample::Index>(),
        notation in prop::sample::select(MoveNotation::ALL.to_vec()),
        changes in mutations(),
    ) {
        let moves = movegen::legal_moves(&mut pos.clone());
        prop_assume!(!moves.is_empty());
        let mv = moves.as_slice()[pick.index(moves.len())];
        let text = as_text(&mutate(format_move(&pos, mv, notation).as_bytes(), &changes));
        check_text(&pos, &text)?;
    }

    /// A legal move's text with one or two characters replaced by others of its notation's
    /// alphabet (another piece, file, mark, direction or distance: often another legal move, an
    /// ambiguous one or none) is read as a legal move or refused.
    #[test]
    fn edited_moves_are_read_or_refused(
        pos in any_position(),
        pick in any::<prop::sample::Index>(),
        notation in prop::sample::select(MoveNotation::ALL.to_vec()),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..=2),
    ) {
        let moves = movegen::legal_moves(&mut pos.clone());
        prop_assume!(!moves.is_empty());
        let mv = moves.as_slice()[pick.index(moves.len())];
        let alphabet: Vec<char> = match notation {
            MoveNotation::Iccs => "abcdefghi0123456789-",
            MoveNotation::Wxf => "KAEHRCPkaehrcp123456789+-=.",
            MoveNotation::Chinese => "帅将仕士相象马车炮兵卒前后中一二三四五六七八九１２３４５６７８９进退平",
        }
        .chars()
        .collect();
        let edits: Vec<_> = edits.into_iter().map(|(at, c)| (at, alphabet[c.index(alphabet.len())])).collect();
        check_text(&pos, &edit_chars(&format_move(&pos, mv, notation), &edits))?;
    }
}

#[test]
fn the_allocation_counter_counts() {
    prop_support::check_the_allocation_counter();
}

// ----- regressions: what the properties found -----

/// Found by `mutated_moves_are_read_or_refused`: a move text of a megabyte (an ICCS move with a
/// run of NUL bytes) came back whole in the error message, and so in an `info string`.
#[test]
fn a_huge_move_text_is_quoted_not_echoed() {
    let pos = Position::startpos();
    let huge = format!("h2e2{}", "\0".repeat(1 << 20));
    for message in [
        parse_move(&pos, &huge).unwrap_err().to_string(),
        wxf::parse(&pos, &huge).unwrap_err().to_string(),
        chinese::parse(&pos, &"炮".repeat(1 << 18)).unwrap_err().to_string(),
        "x".repeat(1 << 20).parse::<MoveNotation>().unwrap_err().to_string(),
    ] {
        assert!(message.len() < 300, "{} bytes: {message:.300}", message.len());
        assert!(message.contains(" bytes)"), "{message}");
    }
    // Short texts are still quoted whole.
    assert_eq!(parse_move(&pos, "a0a5").unwrap_err().to_string(), "no legal move matches 'a0a5'");
}
