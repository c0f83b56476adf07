//! What the property tests of the readers (tests/prop_*.rs) share: their proptest configuration,
//! random legal positions, mutations of valid inputs, and `read_guarded`, which turns a hang into
//! a failure naming the input and measures what a read allocated.
//!
//! Runs are reproducible: every property has a fixed case count and a fixed seed, and a failure
//! prints the minimal input proptest shrank it to (no regression files are written). For a longer
//! run by hand, raise the count and change the seed, for example
//!
//! ```text
//! PROPTEST_CASES=50000 PROPTEST_RNG_SEED=7 cargo test --release --test prop_pgn
//! ```
//!
//! (`PROPTEST_CASES` applies to every property of the run. The defaults, 1,500 to 10,000 cases a
//! property, keep each to under two seconds in a release build; a debug build, which also catches
//! arithmetic overflow, takes ten to thirty times as long, so give it fewer cases there, e.g.
//! `PROPTEST_CASES=300 cargo test --test prop_fen`.)

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use chariot::board::{movegen, Move, Position};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;

/// The seed of every property's random stream unless `PROPTEST_RNG_SEED` says otherwise.
const SEED: u64 = 0x0c4a_7107;

/// The configuration of a property: `cases` cases (or `PROPTEST_CASES`), the fixed seed (or
/// `PROPTEST_RNG_SEED`), no regression files, shrinking bounded so a failure reports in seconds.
pub fn config(cases: u32) -> ProptestConfig {
    // `default()` has already read every PROPTEST_* variable; keep what the user set.
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(SEED);
    }
    config.failure_persistence = None;
    if std::env::var_os("PROPTEST_MAX_SHRINK_TIME").is_none() {
        config.max_shrink_time = 60_000;
    }
    config
}

// ----- hangs and memory -----

/// How long one read may run before the watchdog calls it a hang. Reads take microseconds to a
/// few milliseconds; this is far beyond any of them even on a loaded machine or a debug build.
const HANG_LIMIT: Duration = Duration::from_secs(20);

/// The read in progress on each test thread: what reader, since when, on what input.
type InFlight = HashMap<ThreadId, (&'static str, Instant, Vec<u8>)>;

fn in_flight() -> &'static Mutex<InFlight> {
    static IN_FLIGHT: OnceLock<Mutex<InFlight>> = OnceLock::new();
    IN_FLIGHT.get_or_init(|| {
        std::thread::spawn(watch);
        Mutex::new(HashMap::new())
    })
}

/// The watchdog: a read that outlives `HANG_LIMIT` would hang the test run forever, so it ends
/// the process instead, after printing the reader and its input.
fn watch() {
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let reads = in_flight().lock().unwrap_or_else(|e| e.into_inner());
        for (reader, since, input) in reads.values() {
            if since.elapsed() > HANG_LIMIT {
                // Straight to stderr: `eprintln!` here would go to the test harness's capture,
                // which the exit below throws away.
                let _ = writeln!(
                    std::io::stderr(),
                    "HANG: the {reader} reader ran for more than {HANG_LIMIT:?} on this input ({} bytes): {:?}",
                    input.len(),
                    String::from_utf8_lossy(&input[..input.len().min(4096)])
                );
                std::process::exit(3);
            }
        }
    }
}

/// Clears this thread's entry when the read ends, even by a panic.
struct InFlightEntry;

impl Drop for InFlightEntry {
    fn drop(&mut self) {
        in_flight().lock().unwrap_or_else(|e| e.into_inner()).remove(&std::thread::current().id());
    }
}

/// What a guarded read returned and the most bytes it had allocated at once.
pub struct Guarded<R> {
    pub value: R,
    pub peak_bytes: usize,
}

/// Runs `read` (the `reader` reader on `input`) under the watchdog and measures its peak
/// allocation on this thread.
pub fn read_guarded<R>(reader: &'static str, input: &[u8], read: impl FnOnce() -> R) -> Guarded<R> {
    in_flight()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(std::thread::current().id(), (reader, Instant::now(), input.to_vec()));
    let _entry = InFlightEntry;
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let value = read();
    let peak = PEAK.with(Cell::get);
    Guarded { value, peak_bytes: (peak - start).max(0) as usize }
}

/// The most a read of `input_len` bytes may allocate: a generous linear bound (a reader may copy
/// its input as `char`s and build tokens and records from it), never more.
pub fn memory_bound(input_len: usize) -> usize {
    64 * input_len + (1 << 20)
}

thread_local! {
    /// Bytes this thread has allocated and not freed (negative when it frees another's).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The highest `LIVE` since `read_guarded` last reset it.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note_allocation(change: isize) {
    // `try_with`: the allocator also runs while a thread's locals are being torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + change;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// The system allocator, counting what each thread holds so properties can bound a reader's
/// memory.
struct CountingAllocator;

// SAFETY: every call goes to the system allocator with its arguments unchanged and its result is
// returned as is; the counting only reads the sizes and touches thread-local cells that never
// allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are passed on unchanged.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            note_allocation(layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            note_allocation(layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        note_allocation(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout`; the caller vouches for `new_size`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            note_allocation(new_size as isize - layout.size() as isize);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The counter sees what a read allocates and forgets what it freed: checks the measuring
/// itself, which every memory bound relies on.
pub fn check_the_allocation_counter() {
    let g = read_guarded("test", b"", || {
        let big = vec![1u8; 3 << 20];
        drop(big);
        vec![2u8; 1 << 20].len()
    });
    assert_eq!(g.value, 1 << 20);
    assert!((3 << 20..4 << 20).contains(&g.peak_bytes), "peak {}", g.peak_bytes);
    let g = read_guarded("test", b"", || 1 + 1);
    assert!(g.peak_bytes < 1024, "peak {}", g.peak_bytes);
}

// ----- errors -----

/// The longest error message any reader may give: it quotes a few dozen characters of the
/// offending text at most (`chariot::quote`), whatever the input.
pub const MAX_MESSAGE_LEN: usize = 400;

// ----- positions -----

/// A position reached from the start by playing, at each ply, the legal move that `choice` picks
/// (modulo the number of legal moves); stops early at a position without legal moves. Shrinks
/// towards shorter games and first moves.
pub fn play_choices(choices: &[u16]) -> Position {
    let mut pos = Position::startpos();
    for &c in choices {
        let moves = movegen::legal_moves(&mut pos);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves.as_slice()[c as usize % moves.len()]);
    }
    pos
}

/// The moves `play_choices` plays.
pub fn moves_of_choices(start: &Position, choices: &[u16]) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &c in choices {
        let moves = movegen::legal_moves(&mut pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves.as_slice()[c as usize % moves.len()];
        out.push(mv);
        pos.make_move(mv);
    }
    out
}

/// Positions of random games up to `max_plies` plies from the start.
pub fn played_position(max_plies: usize) -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<u16>(), 0..=max_plies).prop_map(|c| play_choices(&c))
}

/// A square (ICCS file, rank) for a piece of one side, in Red's frame: `palace` squares, the
/// five advisor points, the seven elephant points, anywhere past the own third rank (pawns, with
/// a pull towards a few files so that files crowd), or anywhere.
fn spot(kind: char) -> BoxedStrategy<(u8, u8)> {
    match kind {
        'k' => (3u8..=5, 0u8..=2).boxed(),
        'a' => prop::sample::select(vec![(3u8, 0u8), (5, 0), (4, 1), (3, 2), (5, 2)]).boxed(),
        'b' => prop::sample::select(vec![(2u8, 0u8), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]).boxed(),
        'p' => (prop_oneof![0u8..9, 3u8..5], 3u8..10).boxed(),
        _ => (prop_oneof![0u8..9, 3u8..5], 0u8..10).boxed(),
    }
}

/// Pieces as FEN letters with squares (ICCS file, rank) in their side's own frame.
type Pieces = Vec<(char, (u8, u8))>;

/// One side's pieces: letters with squares in that side's own frame.
fn army() -> impl Strategy<Value = Pieces> {
    let kinds = [
        ('k', 1..=1usize),
        ('a', 0..=2),
        ('b', 0..=2),
        ('n', 0..=2),
        ('r', 0..=2),
        ('c', 0..=2),
        ('p', 0..=5),
    ];
    let parts: Vec<BoxedStrategy<Pieces>> = kinds
        .into_iter()
        .map(|(k, n)| {
            prop::collection::vec(spot(k), n)
                .prop_map(move |v| v.into_iter().map(|s| (k, s)).collect())
                .boxed()
        })
        .collect();
    parts.prop_map(|v| v.into_iter().flatten().collect())
}

/// The FEN placing both armies (Black's squares flipped top to bottom); a piece whose square is
/// taken is left out.
fn placement_fen(red: &[(char, (u8, u8))], black: &[(char, (u8, u8))], black_to_move: bool) -> String {
    let mut board = [[None::<char>; 9]; 10];
    for (letter, (file, rank)) in red.iter().map(|&(k, s)| (k.to_ascii_uppercase(), s)) {
        board[rank as usize][file as usize].get_or_insert(letter);
    }
    for &(letter, (file, rank)) in black {
        board[9 - rank as usize][file as usize].get_or_insert(letter);
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for cell in board[rank] {
                match cell {
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    format!("{} {} - - 0 1", rows.join("/"), if black_to_move { 'b' } else { 'w' })
}

/// Legal positions with pieces placed at random (crowded pawn files, tandem pieces, bare kings),
/// which random games from the start seldom reach.
pub fn placed_position() -> impl Strategy<Value = Position> {
    (army(), army(), any::<bool>()).prop_filter_map("not a legal position", |(red, black, b)| {
        Position::from_fen(&placement_fen(&red, &black, b)).ok()
    })
}

/// Either kind of random legal position.
pub fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![played_position(120), placed_position()]
}

// ----- mutations -----

/// One change to a valid input, of the kinds careless files and hostile users make.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Cut the input at this point.
    Truncate(Index),
    /// XOR one byte with a non-zero mask.
    Flip(Index, u8),
    /// Insert these bytes.
    Insert(Index, Vec<u8>),
    /// Remove up to this many bytes.
    Delete(Index, usize),
    /// Copy a stretch of the input to another place.
    Duplicate(Index, usize, Index),
    /// Insert a number far outside any range a field accepts, as text.
    HugeNumber(Index, String),
    /// Overwrite with an extreme binary value (all ones, the top bit, zero).
    Overwrite(Index, Vec<u8>),
    /// Insert bytes that are not UTF-8.
    NotUtf8(Index, Vec<u8>),
    /// Insert a byte or a short pattern repeated this many times (up to a megabyte).
    LongRun(Index, Vec<u8>, usize),
}

/// Numbers that overflow 32-bit, 64-bit or any fields, negative ones, and exponent forms.
fn huge_number() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "-1",
            "-2147483648",
            "999999999999999999999999999999",
            "1e99",
            "0",
            "00000000000000000000000001",
        ])
        .prop_map(str::to_string),
        "[1-9][0-9]{9,40}",
    ]
}

/// What a long run repeats: one byte (a megabyte line), or a short pattern that makes many tokens,
/// records or games.
fn run_pattern() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        any::<u8>().prop_map(|b| vec![b; 8]),
        prop::sample::select(vec!["* ", "(", "{", "[A \"\"]\n", "h2e2 ", "\n", "1. ", "$1 ", "/9"])
            .prop_map(|p| p.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 1..=8),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let extreme = prop::sample::select(vec![
        vec![0xff, 0xff, 0xff, 0xff],
        vec![0xff; 8],
        vec![0, 0, 0, 0x80],
        vec![0; 4],
        vec![0xff, 0xff],
        vec![1, 0, 0, 0],
    ]);
    prop_oneof![
        3 => any::<Index>().prop_map(Mutation::Truncate),
        4 => (any::<Index>(), 1u8..=255).prop_map(|(i, m)| Mutation::Flip(i, m)),
        3 => (any::<Index>(), prop::collection::vec(any::<u8>(), 1..8)).prop_map(|(i, b)| Mutation::Insert(i, b)),
        2 => (any::<Index>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        1 => (any::<Index>(), 1usize..64, any::<Index>()).prop_map(|(i, n, j)| Mutation::Duplicate(i, n, j)),
        2 => (any::<Index>(), huge_number()).prop_map(|(i, s)| Mutation::HugeNumber(i, s)),
        1 => (any::<Index>(), extreme).prop_map(|(i, b)| Mutation::Overwrite(i, b)),
        1 => (any::<Index>(), prop::collection::vec(0x80u8..=0xff, 1..4)).prop_map(|(i, b)| Mutation::NotUtf8(i, b)),
        1 => (any::<Index>(), run_pattern(), prop_oneof![9 => 1usize..2000, 1 => 20_000usize..(1 << 17)])
            .prop_map(|(i, b, n)| Mutation::LongRun(i, b, n)),
    ]
}

/// One to four mutations, applied in order.
pub fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..=4)
}

/// `input` with `mutations` applied in order.
pub fn mutate(input: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut out = input.to_vec();
    for m in mutations {
        // Positions index the input as it stands, one past the end included.
        let at = |i: &Index, len: usize| i.index(len + 1);
        match m {
            Mutation::Truncate(i) => {
                let cut = at(i, out.len());
                out.truncate(cut);
            }
            Mutation::Flip(i, mask) => {
                if !out.is_empty() {
                    let k = i.index(out.len());
                    out[k] ^= mask;
                }
            }
            Mutation::Insert(i, bytes) | Mutation::NotUtf8(i, bytes) => {
                let k = at(i, out.len());
                out.splice(k..k, bytes.iter().copied());
            }
            Mutation::HugeNumber(i, text) => {
                let k = at(i, out.len());
                out.splice(k..k, text.bytes());
            }
            Mutation::Delete(i, n) => {
                let k = at(i, out.len());
                let end = (k + n).min(out.len());
                out.drain(k..end);
            }
            Mutation::Duplicate(i, n, j) => {
                let k = at(i, out.len());
                let piece: Vec<u8> = out[k..(k + n).min(out.len())].to_vec();
                let to = at(j, out.len());
                out.splice(to..to, piece);
            }
            Mutation::Overwrite(i, bytes) => {
                let k = at(i, out.len());
                for (o, b) in out[k..].iter_mut().zip(bytes) {
                    *o = *b;
                }
            }
            Mutation::LongRun(i, pattern, n) => {
                let k = at(i, out.len());
                out.splice(k..k, pattern.iter().copied().cycle().take(n * pattern.len()));
            }
        }
    }
    out
}

/// Random bytes, up to `max` of them.
pub fn random_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..=max)
}

/// Text as a reader taking `&str` sees bytes: invalid UTF-8 replaced (its callers decode so).
pub fn as_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One to three characters of a text to replace, each with a character of `alphabet`: near misses
/// of a valid input, which a reader accepts far more often than bytes mutated at random.
pub fn char_edits(alphabet: &str) -> impl Strategy<Value = Vec<(Index, char)>> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop::collection::vec((any::<Index>(), prop::sample::select(chars)), 1..=3)
}

/// `text` with the characters `edits` name replaced.
pub fn edit_chars(text: &str, edits: &[(Index, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, c) in edits {
        if !chars.is_empty() {
            let k = at.index(chars.len());
            chars[k] = *c;
        }
    }
    chars.into_iter().collect()
}
