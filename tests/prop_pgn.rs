//! Property tests of the PGN reader and writer: random annotated games written in each notation
//! read back with the same moves, comments, suffixes, tags, start and result; any text is read or
//! refused with a short message naming a line, never a panic, a hang or a runaway allocation; and
//! every game read is written and re-read to the same game. Cases per run and how to run longer:
//! see tests/prop_support/mod.rs.

use crate::prop_support;

use chariot::board::Position;
use chariot::notation::{format_move, read_pgn, write_pgn, MoveNotation, PgnError, PgnGame, PgnMove};
use prop_support::{
    any_position, as_text, config, memory_bound, moves_of_choices, mutate, mutations, random_bytes,
    read_guarded, MAX_MESSAGE_LEN,
};
use proptest::prelude::*;

/// Tags the writer makes itself from the game (its result, start, variant and notation).
const GENERATED: [&str; 4] = ["Result", "Variant", "FEN", "Format"];

/// What reading `len` bytes into `games` games may allocate: a kilobyte for each game (a game
/// holds its start position, about 400 bytes, even the empty game a lone `*` makes) and 160 bytes
/// for each byte of text, as the lexer keeps every token (64 bytes, doubled while its vector
/// grows) and a text can be all one-character tokens such as `(`. Linear, that is: a 100 MB file
/// of `(` would still take some 13 GB, which a streaming lexer would avoid.
fn pgn_memory_bound(len: usize, games: usize) -> usize {
    memory_bound(len) + 96 * len + 1024 * games
}

/// `text` with whitespace runs made single spaces, as comments come back.
fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The game as it must read back after `write_pgn`: comments with `}` made `)` and whitespace
/// collapsed, suffixes other than `!`/`?` runs dropped, a result other than the four tokens made
/// `*`. Tags are compared separately.
fn as_written(game: &PgnGame) -> (Position, Vec<PgnMove>, String) {
    let moves = game
        .moves
        .iter()
        .map(|m| PgnMove {
            mv: m.mv,
            comment: m.comment.as_ref().map(|c| collapsed(&c.replace('}', ")"))),
            suffix: m.suffix.clone().filter(|s| !s.is_empty() && s.chars().all(|c| c == '!' || c == '?')),
        })
        .collect();
    let result = if chariot::notation::pgn::RESULTS.contains(&game.result.as_str()) {
        game.result.clone()
    } else {
        "*".into()
    };
    (game.start.clone(), moves, result)
}

/// The tags `write_pgn` promises to write for `game`, but for those it makes itself: the roster
/// with its defaults, then the game's others, their names without characters other than letters,
/// digits and `_`, their values with line breaks made spaces. For each name, the first value.
fn written_tags(game: &PgnGame) -> Vec<(String, String)> {
    let roster =
        [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"), ("Red", "?"), ("Black", "?")];
    let mut out: Vec<(String, String)> = roster
        .iter()
        .map(|&(n, default)| (n.to_string(), game.tag(n).unwrap_or(default).to_string()))
        .collect();
    for (name, value) in &game.tags {
        let name: String = name.chars().filter(|c| c.is_alphanumeric() || *c == '_').collect();
        let known = roster.iter().map(|r| r.0).chain(GENERATED).any(|k| k.eq_ignore_ascii_case(&name));
        if !name.is_empty() && !known {
            out.push((name, value.clone()));
        }
    }
    let mut first: Vec<(String, String)> = Vec::new();
    for (name, value) in out {
        if !first.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)) {
            first.push((name, value.replace(['\n', '\r'], " ")));
        }
    }
    first
}

/// `game` written in `notation` reads back as one game equal to it as written, with every tag
/// the writer keeps (line breaks in values made spaces).
fn check_write_read(game: &PgnGame, notation: MoveNotation) -> Result<(), TestCaseError> {
    let text = write_pgn(game, notation).map_err(|e| TestCaseError::fail(format!("write_pgn: {e}")))?;
    let back = read_pgn(&text).map_err(|e| TestCaseError::fail(format!("{e}\n  reading back:\n{text}")))?;
    prop_assert_eq!(back.len(), 1, "{} games read back from\n{}", back.len(), text);
    let back = &back[0];
    let (start, moves, result) = as_written(game);
    prop_assert_eq!(&back.start, &start, "start, from\n{}", text);
    prop_assert_eq!(&back.moves, &moves, "moves, from\n{}", text);
    prop_assert_eq!(&back.result, &result, "result, from\n{}", text);
    for (name, value) in written_tags(game) {
        prop_assert_eq!(back.tag(&name), Some(value.as_str()), "tag {:?}, from\n{}", name, text);
    }
    prop_assert_eq!(back.tag("Format"), Some(["ICCS", "WXF", "Chinese"][notation as usize]));
    Ok(())
}

/// Reads `text` as PGN and checks everything a read must satisfy; a failure quotes the input.
fn check_pgn(text: &str) -> Result<(), TestCaseError> {
    check_pgn_unquoted(text).map_err(|e| TestCaseError::fail(format!("{e}\n  on the PGN {text:.400?}")))
}

fn check_pgn_unquoted(text: &str) -> Result<(), TestCaseError> {
    let g = read_guarded("PGN", text.as_bytes(), || read_pgn(text));
    let games = g.value.as_ref().map_or(0, Vec::len);
    prop_assert!(
        g.peak_bytes <= pgn_memory_bound(text.len(), games),
        "reading {} bytes into {games} games allocated {} bytes",
        text.len(),
        g.peak_bytes
    );
    match g.value {
        Err(PgnError { line, message }) => {
            let lines = text.split('\n').count();
            prop_assert!((1..=lines).contains(&line), "line {line} of a {lines}-line text: {message:.200}");
            prop_assert!(
                message.len() <= MAX_MESSAGE_LEN,
                "a {}-byte message: {message:.200}",
                message.len()
            );
        }
        Ok(games) => {
            for game in &games {
                prop_assert!(game.final_position().is_ok(), "a game read has an illegal move");
                for notation in MoveNotation::ALL {
                    check_write_read(game, notation)?;
                }
            }
        }
    }
    Ok(())
}

/// A tag name: ASCII or CJK letters, digits, `_`, sometimes one the writer fills in itself, or
/// one that loses characters when written.
fn tag_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Za-z0-9_]{1,10}",
        1 => "[A-Za-z\u{4e00}-\u{4e20}]{1,4}",
        1 => prop::sample::select(vec!["Event", "red", "BLACK", "Date", "result", "fen", "Variant", "Format", "Opening"])
            .prop_map(str::to_string),
        1 => "[A-Za-z][-. \"]?[a-z]{0,4}",
    ]
}

/// A comment: anything, braces, semicolons, percent signs and line breaks included.
fn comment() -> impl Strategy<Value = String> {
    prop_oneof!["(?s).{0,40}", "[ a-z{};%\\[\\]()\"\n\t]{0,30}", "[炮马车兵一二三四五六七八九进退平]{1,10}",]
}

/// One game: a random legal start, up to 100 random moves with comments and suffixes sprinkled
/// on them, random tags and a result (sometimes not one of the four tokens).
fn game() -> impl Strategy<Value = PgnGame> {
    let annotation = (
        prop::option::weighted(0.15, comment()),
        prop::option::weighted(0.1, prop::sample::select(vec!["!", "?", "!!", "??", "!?", "?!", "", "x"])),
    );
    let tags = prop::collection::vec((tag_name(), "(?s).{0,24}"), 0..6);
    let result = prop::sample::select(vec!["1-0", "0-1", "1/2-1/2", "*", "draw"]);
    (any_position(), prop::collection::vec((any::<u16>(), annotation), 0..100), tags, result).prop_map(
        |(start, plies, tags, result)| {
            let start = Position::from_fen(&start.to_fen()).expect("a position prints back");
            let choices: Vec<u16> = plies.iter().map(|p| p.0).collect();
            let moves = moves_of_choices(&start, &choices)
                .into_iter()
                .zip(plies)
                .map(|(mv, (_, (comment, suffix)))| PgnMove {
                    mv,
                    comment,
                    suffix: suffix.map(str::to_string),
                })
                .collect();
            PgnGame { tags, start, moves, result: result.to_string() }
        },
    )
}

/// Tokens that leave a game readable wherever they stand between its moves.
const HARMLESS: [&str; 15] = [
    "{a comment}",
    "{多 行\n注释}",
    "(h2e2 h9g7)",
    "((1. h0g2) (c3c4))",
    ";rest of line\n",
    "\n%escape line\n",
    "$1",
    "$123",
    "1.",
    "12...",
    "...",
    "\u{feff}",
    "\n",
    "\r\n",
    "\t",
];

/// Tokens that end a game or make it unreadable in the middle of its moves.
const FATAL: [&str; 21] = [
    "{",
    "}",
    "(",
    ")",
    "$",
    "$x",
    "[Bad",
    "[A \"",
    "]",
    "炮",
    "二平",
    "h2",
    "e2",
    "C2=",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "[Event \"x\"]",
    "\n[Red \"a \\\"b\\\"\"]\n",
    "[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w\"]",
];

/// A game's FEN tag and moves written one by one in random notations, with harmless noise between them
/// (comments, variations, move numbers, NAGs, escape lines, and suffixes after a move), and
/// sometimes one token that ends the game or breaks it (a result, a tag, a stray bracket, half a
/// move).
fn token_soup() -> impl Strategy<Value = String> {
    let harmless = prop::sample::select(HARMLESS.to_vec());
    let suffix = prop::sample::select(vec!["!", "?", "!?", "??"]);
    (
        game(),
        prop::collection::vec(prop::sample::select(MoveNotation::ALL.to_vec()), 100),
        prop::collection::vec(
            (prop::option::weighted(0.2, harmless), prop::option::weighted(0.05, suffix)),
            101,
        ),
        prop::option::weighted(0.3, (0usize..=100, prop::sample::select(FATAL.to_vec()))),
    )
        .prop_map(|(game, notations, noise, fatal)| {
            let mut pos = game.start.clone();
            let mut words: Vec<String> = vec![format!("[FEN \"{}\"]\n", game.start.to_fen())];
            for i in 0..=game.moves.len() {
                if let Some((at, token)) = fatal {
                    if at == i {
                        words.push(token.to_string());
                    }
                }
                let (harmless, suffix) = noise[i];
                if i > 0 {
                    words.extend(suffix.map(str::to_string));
                }
                words.extend(harmless.map(str::to_string));
                if let Some(m) = game.moves.get(i) {
                    words.push(format_move(&pos, m.mv, notations[i]));
                    pos.make_move(m.mv);
                }
            }
            words.join(" ")
        })
}

proptest! {
    #![proptest_config(config(1500))]

    /// Random annotated games, written in each notation, read back the same.
    #[test]
    fn written_games_read_back_the_same(game in game()) {
        for notation in MoveNotation::ALL {
            check_write_read(&game, notation)?;
        }
    }

    /// Written games, truncated, flipped, padded with huge numbers, repeated and stretched, are
    /// read or refused; what is read is written and re-read the same.
    #[test]
    fn mutated_pgns_are_read_or_refused(
        game in game(),
        notation in prop::sample::select(MoveNotation::ALL.to_vec()),
        changes in mutations(),
    ) {
        let text = write_pgn(&game, notation).expect("a legal game is written");
        check_pgn(&as_text(&mutate(text.as_bytes(), &changes)))?;
    }

    /// Moves in mixed notations amid comments, variations, numbers and junk are read or refused;
    /// what is read is written and re-read the same.
    #[test]
    fn token_soup_is_read_or_refused(text in token_soup()) {
        check_pgn(&text)?;
    }
}

proptest! {
    #![proptest_config(config(10000))]

    /// Arbitrary bytes (invalid UTF-8 replaced) are read or refused.
    #[test]
    fn random_bytes_are_read_or_refused(bytes in random_bytes(400)) {
        check_pgn(&as_text(&bytes))?;
    }

    /// Text over PGN's own characters is read or refused.
    #[test]
    fn pgn_alphabet_text_is_read_or_refused(text in "[\\[\\]{}();%$!?.*\"\\\\ \n0-9a-iA-Z/=+-]{0,200}") {
        check_pgn(&text)?;
    }
}

#[test]
fn the_allocation_counter_counts() {
    prop_support::check_the_allocation_counter();
}

// ----- regressions: what the properties found -----

/// Found by `mutated_pgns_are_read_or_refused`: a FEN tag of a megabyte came back whole in the
/// error message; so did a NAG, a lone suffix, a move and a tag name.
#[test]
fn huge_tokens_are_quoted_not_echoed() {
    let junk = "\0".repeat(1 << 20);
    let bangs = "!".repeat(1 << 20);
    let texts = [
        format!("[FEN \"{junk}\"]\n*"),
        format!("1. h2e2 ${junk}"),
        format!("{bangs} 1. h2e2"),
        format!("1. h2e2{junk}"),
        format!("1. 炮二平五{}", "五".repeat(1 << 18)),
        format!("[{} x]", "E".repeat(1 << 20)),
        format!("[{} \"x\"", "E".repeat(1 << 20)),
    ];
    for text in texts {
        let message = read_pgn(&text).unwrap_err().to_string();
        assert!(message.len() < 300, "{} bytes: {message:.300}", message.len());
        assert!(message.contains(" bytes)"), "{message}");
    }
}

/// Found by measuring what `read_pgn` allocates: each game kept a position with room reserved
/// for a search's history, about 4.7 KB, so a text of `*` results took 2,400 times its size (a
/// megabyte of them, 2.4 GB).
#[test]
fn many_empty_games_take_memory_in_proportion() {
    let text = "* ".repeat(100_000);
    let g = read_guarded("PGN", text.as_bytes(), || read_pgn(&text).map(|games| games.len()));
    assert_eq!(g.value, Ok(100_000));
    assert!(g.peak_bytes <= pgn_memory_bound(text.len(), 100_000), "{} bytes", g.peak_bytes);
}
