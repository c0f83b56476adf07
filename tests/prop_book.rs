//! Property tests of the opening-book readers: Chariot's `.cbk` (`ChariotBook::from_bytes`,
//! `Book::open`) and ElephantEye's `BOOK.DAT` (`EleeyeBook::from_bytes`, `Book::open`, the import
//! `builder::from_eleeye`). Books of random games written and read back hold the same entries and
//! probe to the same moves and weights; any bytes are read or refused with a short message, never
//! a panic, a hang or a runaway allocation, and a book read offers only legal moves. Cases per run
//! and how to run longer: see tests/prop_support/mod.rs.

use crate::prop_support;

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::PathBuf;

use chariot::binary::fnv1a64;
use chariot::board::{movegen, Move, Position};
use chariot::book::chariot_format::{canonical_move, ChariotBook, HEADER_LEN, MAGIC};
use chariot::book::eleeye::{lock, EleeyeBook, RECORD_LEN};
use chariot::book::{builder, Book, BookEntry};
use prop_support::{
    config, memory_bound, moves_of_choices, mutate, mutations, random_bytes, read_guarded, MAX_MESSAGE_LEN,
};
use proptest::prelude::*;

/// A position of a book, a move played there and its weight.
type Ply = (Position, Move, u16);

/// The plies of a few random games from the start, each with a weight.
fn book_plies() -> impl Strategy<Value = Vec<Ply>> {
    prop::collection::vec(prop::collection::vec((any::<u16>(), 1u16..=u16::MAX), 1..40), 1..8).prop_map(
        |games| {
            let mut plies = Vec::new();
            for game in games {
                let choices: Vec<u16> = game.iter().map(|g| g.0).collect();
                let mut pos = Position::startpos();
                for (mv, (_, weight)) in moves_of_choices(&pos.clone(), &choices).into_iter().zip(game) {
                    let mut at = pos.clone();
                    at.clear_history();
                    plies.push((at, mv, weight));
                    pos.make_move(mv);
                }
            }
            plies
        },
    )
}

/// The Chariot book entries of `plies`: canonical (key, move) with the first weight given for it.
fn chariot_entries(plies: &[Ply]) -> HashMap<(u64, u16), u16> {
    let mut entries = HashMap::new();
    for (pos, mv, weight) in plies {
        entries.entry(canonical_move(pos, *mv)).or_insert(*weight);
    }
    entries
}

/// The BOOK.DAT image of `plies` as the format spec (docs/book-formats.md) lays it out:
/// 8-byte little-endian records (lock, move, weight) sorted by lock, one per (lock, move), the
/// first weight given for it.
fn book_dat_of(plies: &[Ply]) -> (Vec<u8>, HashMap<(u32, u16), u16>) {
    let mut records: Vec<(u32, u16, u16)> = Vec::new();
    let mut weights = HashMap::new();
    for (pos, mv, weight) in plies {
        let key = (lock(pos), mv.bits());
        if let Entry::Vacant(slot) = weights.entry(key) {
            slot.insert(*weight);
            records.push((key.0, key.1, *weight));
        }
    }
    records.sort_by_key(|r| r.0);
    let mut bytes = Vec::with_capacity(records.len() * RECORD_LEN);
    for (lock, mv, weight) in records {
        bytes.extend_from_slice(&lock.to_le_bytes());
        bytes.extend_from_slice(&mv.to_le_bytes());
        bytes.extend_from_slice(&weight.to_le_bytes());
    }
    (bytes, weights)
}

/// What `book` offers in `pos` is legal, weighted above zero, heaviest first, each move once.
fn check_probe(book: &Book, pos: &Position) -> Result<Vec<BookEntry>, TestCaseError> {
    let entries = book.probe(pos);
    for e in &entries {
        prop_assert!(
            movegen::is_legal(&mut pos.clone(), e.mv),
            "{} offers the illegal {} in {}",
            book.name(),
            e.mv,
            pos.to_fen()
        );
        prop_assert!(e.weight > 0);
    }
    prop_assert!(entries.windows(2).all(|w| w[0].weight >= w[1].weight), "not heaviest first: {entries:?}");
    prop_assert!(
        entries.windows(2).all(|w| w[0].mv != w[1].mv) && all_distinct(&entries),
        "a move twice: {entries:?}"
    );
    Ok(entries)
}

fn all_distinct(entries: &[BookEntry]) -> bool {
    entries.iter().enumerate().all(|(i, e)| entries[..i].iter().all(|o| o.mv != e.mv))
}

/// A Chariot book of `plies` probes, in each of their positions, to exactly the moves stored for
/// it or its mirror image, with their weights.
fn check_chariot_probes(book: &Book, plies: &[Ply]) -> Result<(), TestCaseError> {
    let stored = chariot_entries(plies);
    for (pos, mv, _) in plies {
        let entries = check_probe(book, pos)?;
        let wanted = stored[&canonical_move(pos, *mv)];
        prop_assert!(
            entries.contains(&BookEntry { mv: *mv, weight: wanted as u32 }),
            "{mv} {wanted} not in {entries:?}"
        );
        for e in entries {
            prop_assert_eq!(
                stored.get(&canonical_move(pos, e.mv)).copied(),
                Some(e.weight as u16),
                "{} offered",
                e.mv
            );
        }
    }
    Ok(())
}

/// A file in the system's temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        TempFile(std::env::temp_dir().join(format!("chariot-prop-book-{}-{n}-{name}", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Positions to probe a book read from arbitrary bytes in: the start and a few after it.
fn probe_positions() -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    for line in [&["h2e2"][..], &["h2e2", "h9g7"], &["c3c4"], &["b2e2", "b9c7", "b0c2"]] {
        let mut pos = Position::startpos();
        for m in line {
            pos.make_move(Move::parse_iccs(m).unwrap());
        }
        out.push(pos);
    }
    out
}

/// Reads `bytes` with both readers and through a file with `Book::open`, and checks everything a
/// read must satisfy; `plies` are positions worth probing what is read in.
fn check_book_bytes(bytes: &[u8], plies: &[Ply]) -> Result<(), TestCaseError> {
    check_book_bytes_unquoted(bytes, plies).map_err(|e| {
        let head = &bytes[..bytes.len().min(200)];
        TestCaseError::fail(format!("{e}\n  on {} bytes of book starting {head:02x?}", bytes.len()))
    })
}

fn check_book_bytes_unquoted(bytes: &[u8], plies: &[Ply]) -> Result<(), TestCaseError> {
    let mut positions = probe_positions();
    positions.extend(plies.iter().take(20).map(|p| p.0.clone()));
    let short = |message: &str| -> Result<(), TestCaseError> {
        prop_assert!(message.len() <= MAX_MESSAGE_LEN, "a {}-byte message: {message:.200}", message.len());
        Ok(())
    };

    let g = read_guarded("Chariot book", bytes, || ChariotBook::from_bytes(bytes, "fuzz"));
    prop_assert!(g.peak_bytes <= memory_bound(bytes.len()), "{} bytes allocated", g.peak_bytes);
    match g.value {
        Err(message) => short(&message.to_string())?,
        Ok(book) => {
            let again = ChariotBook::from_bytes(&book.to_bytes(), "again");
            prop_assert_eq!(again.as_ref().map(ChariotBook::entries), Ok(book.entries()));
            let book = Book::Chariot(book);
            for pos in &positions {
                check_probe(&book, pos)?;
            }
        }
    }

    let g = read_guarded("BOOK.DAT", bytes, || EleeyeBook::from_bytes(bytes, "fuzz"));
    prop_assert!(g.peak_bytes <= memory_bound(bytes.len()), "{} bytes allocated", g.peak_bytes);
    match g.value {
        Err(message) => short(&message.to_string())?,
        Ok(book) => {
            let written: Vec<u8> = book
                .records()
                .iter()
                .flat_map(|r| {
                    [&r.lock.to_le_bytes()[..], &r.mv.to_le_bytes(), &r.weight.to_le_bytes()].concat()
                })
                .collect();
            prop_assert_eq!(&written[..], bytes, "records do not write back to the bytes read");
            let g = read_guarded("BOOK.DAT import", bytes, || builder::from_eleeye(&book, 12, "import"));
            prop_assert!(
                g.peak_bytes <= memory_bound(bytes.len()),
                "the import allocated {} bytes",
                g.peak_bytes
            );
            let imported = Book::Chariot(g.value.0);
            let book = Book::Eleeye(book);
            for pos in &positions {
                check_probe(&book, pos)?;
                check_probe(&imported, pos)?;
            }
        }
    }

    let file = TempFile::new("book");
    std::fs::write(&file.0, bytes).expect("the temporary directory takes a file");
    let g = read_guarded("Book::open", bytes, || Book::open(&file.0));
    prop_assert!(g.peak_bytes <= memory_bound(bytes.len()), "{} bytes allocated", g.peak_bytes);
    match g.value {
        Err(e) => short(&e.to_string().replace(&file.0.display().to_string(), "PATH"))?,
        Ok(book) => {
            for pos in &positions {
                check_probe(&book, pos)?;
            }
        }
    }
    Ok(())
}

/// `bytes` with the Chariot header's entry count and checksum made to fit its body (when the body
/// is whole entries), so that what a mutation did to the entries gets past the checksum.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() >= HEADER_LEN && bytes.starts_with(MAGIC) {
        let body = bytes.len() - HEADER_LEN;
        let count = (body / 12) as u32;
        bytes[12..16].copy_from_slice(&count.to_le_bytes());
        let sum = fnv1a64(&bytes[HEADER_LEN..]);
        bytes[16..24].copy_from_slice(&sum.to_le_bytes());
    }
    bytes
}

proptest! {
    #![proptest_config(config(2000))]

    /// A Chariot book of random games, written and read back, holds the same entries and offers in
    /// each position the moves stored for it, with their weights.
    #[test]
    fn chariot_books_read_back_the_same(plies in book_plies()) {
        let book = ChariotBook::from_entries("t", chariot_entries(&plies).into_iter().map(|((k, m), w)| (k, m, w as u64)));
        let bytes = book.to_bytes();
        let back = ChariotBook::from_bytes(&bytes, "back").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.entries(), book.entries());
        check_chariot_probes(&Book::Chariot(back), &plies)?;
    }

    /// The same through the file: `write` then `Book::open`.
    #[test]
    fn chariot_book_files_open_the_same(plies in book_plies()) {
        let book = ChariotBook::from_entries("t", chariot_entries(&plies).into_iter().map(|((k, m), w)| (k, m, w as u64)));
        let file = TempFile::new("t.cbk");
        book.write(&file.0).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = Book::open(&file.0).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let Book::Chariot(ref read) = back else {
            return Err(TestCaseError::fail("a .cbk file opened as a BOOK.DAT"));
        };
        prop_assert_eq!(read.entries(), book.entries());
        check_chariot_probes(&back, &plies)?;
    }

    /// A BOOK.DAT of random games, laid out as its spec says, reads back record for record, and
    /// offers in each position the moves stored for it, with their weights.
    #[test]
    fn book_dat_files_read_back_the_same(plies in book_plies()) {
        let (bytes, weights) = book_dat_of(&plies);
        let back = EleeyeBook::from_bytes(&bytes, "back").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.records().len(), weights.len());
        for r in back.records() {
            prop_assert_eq!(weights.get(&(r.lock, r.mv)), Some(&r.weight));
        }
        let book = Book::Eleeye(back);
        for (pos, mv, _) in &plies {
            let entries = check_probe(&book, pos)?;
            let wanted = weights[&(lock(pos), mv.bits())];
            prop_assert!(entries.contains(&BookEntry { mv: *mv, weight: wanted as u32 }), "{mv} {wanted} not in {entries:?}");
            for e in entries {
                prop_assert_eq!(weights.get(&(lock(pos), e.mv.bits())).copied(), Some(e.weight as u16));
            }
        }
    }

    /// Valid books of both formats, truncated, flipped, padded, with huge counts, and resealed
    /// (count and checksum fixed) or not, are read or refused; what is read offers legal moves.
    #[test]
    fn mutated_books_are_read_or_refused(plies in book_plies(), changes in mutations(), reseal in any::<bool>()) {
        let chariot = ChariotBook::from_entries("t", chariot_entries(&plies).into_iter().map(|((k, m), w)| (k, m, w as u64)));
        let mut bytes = mutate(&chariot.to_bytes(), &changes);
        if reseal {
            bytes = resealed(bytes);
        }
        check_book_bytes(&bytes, &plies)?;
        check_book_bytes(&mutate(&book_dat_of(&plies).0, &changes), &plies)?;
    }
}

proptest! {
    #![proptest_config(config(6000))]

    /// Arbitrary bytes are read or refused by both readers and by `Book::open`.
    #[test]
    fn random_bytes_are_read_or_refused(bytes in random_bytes(200)) {
        check_book_bytes(&bytes, &[])?;
    }

    /// Arbitrary bytes behind a Chariot header, with or without the right count and checksum,
    /// are read or refused.
    #[test]
    fn random_chariot_bodies_are_read_or_refused(
        body in prop::collection::vec(any::<u8>(), 0..240),
        version in prop_oneof![Just(1u8), any::<u8>()],
        reseal in any::<bool>(),
    ) {
        let mut bytes = MAGIC.to_vec();
        bytes.push(version);
        bytes.extend_from_slice(&[0; 14]);
        bytes.extend_from_slice(&body);
        check_book_bytes(&if reseal { resealed(bytes) } else { bytes }, &[])?;
    }

    /// Records with locks of real positions, sorted, and arbitrary moves and weights (so garbage
    /// moves reach the legality check) are read and offer only legal moves.
    #[test]
    fn book_dat_records_with_garbage_moves_offer_legal_moves(
        picks in prop::collection::vec((0usize..5, any::<u16>(), any::<u16>()), 0..30),
    ) {
        let positions = probe_positions();
        let mut records: Vec<(u32, u16, u16)> = picks.iter().map(|&(p, mv, w)| (lock(&positions[p]), mv, w)).collect();
        records.sort_by_key(|r| r.0);
        let bytes: Vec<u8> = records
            .iter()
            .flat_map(|(l, m, w)| [&l.to_le_bytes()[..], &m.to_le_bytes(), &w.to_le_bytes()].concat())
            .collect();
        check_book_bytes(&bytes, &[])?;
    }
}

#[test]
fn the_allocation_counter_counts() {
    prop_support::check_the_allocation_counter();
}
