//! PGN: write → read round trips in each notation, hand-written games in Chinese and WXF, and
//! errors that name the line.

use chariot::board::{movegen, Move, Position};
use chariot::notation::{read_pgn, write_pgn, MoveNotation, NotationError, PgnGame, PgnMove};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn mv(text: &str) -> Move {
    Move::parse_iccs(text).unwrap_or_else(|| panic!("bad ICCS in the test: {text}"))
}

fn moves_of(game: &PgnGame) -> Vec<String> {
    game.moves.iter().map(|m| m.mv.to_string()).collect()
}

/// A long game with comments and suffixes sprinkled on it, from a seeded random walk.
fn annotated_game(start: Position, seed: u64) -> PgnGame {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = PgnGame::new(start.clone());
    game.tags.push(("Event".into(), "Round \"trip\" \\ test".into()));
    game.tags.push(("Red".into(), "甲".into()));
    game.tags.push(("Opening".into(), "中炮".into()));
    game.result = "0-1".into();
    let mut pos = start;
    for ply in 0..150 {
        let moves = movegen::legal_moves(&mut pos);
        if moves.is_empty() {
            break;
        }
        let quiet: Vec<Move> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_empty()).collect();
        let pool = if quiet.is_empty() || rng.gen_bool(0.2) { moves.as_slice().to_vec() } else { quiet };
        let chosen = pool[rng.gen_range(0..pool.len())];
        let mut entry = PgnMove::new(chosen);
        if ply % 10 == 3 {
            entry.comment = Some(format!("note {ply}: a somewhat longer remark, so that lines must wrap"));
        }
        if ply % 7 == 5 {
            entry.suffix = Some("?!".into());
        }
        game.moves.push(entry);
        pos.make_move(chosen);
    }
    game
}

/// Display columns, counting CJK and full-width characters as two.
fn columns(line: &str) -> usize {
    line.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

#[test]
fn write_then_read_gives_the_game_back_in_every_notation() {
    let after_central_cannon = {
        let mut p = Position::startpos();
        p.make_move(mv("h2e2"));
        Position::from_fen(&p.to_fen()).unwrap()
    };
    for (seed, start) in [(1, Position::startpos()), (2, after_central_cannon)] {
        let game = annotated_game(start, seed);
        assert!(game.moves.len() > 60, "the random game is long enough to wrap");
        for notation in MoveNotation::ALL {
            let text = write_pgn(&game, notation).unwrap();
            let movetext = text.split("\n\n").nth(1).expect("a blank line after the tags");
            for line in movetext.lines() {
                assert!(columns(line) < 80, "{notation}: line too long: {line}");
            }
            let read = read_pgn(&text).unwrap_or_else(|e| panic!("{notation}: {e}\n{text}"));
            assert_eq!(read.len(), 1);
            let back = &read[0];
            assert_eq!(back.moves, game.moves, "{notation}");
            assert_eq!(back.start, game.start);
            assert_eq!(back.start.to_fen(), game.start.to_fen());
            assert_eq!(back.result, "0-1");
            assert_eq!(back.tag("Event"), Some("Round \"trip\" \\ test"));
            assert_eq!(back.tag("Red"), Some("甲"));
            assert_eq!(back.tag("Black"), Some("?"));
            assert_eq!(back.tag("Opening"), Some("中炮"));
            assert_eq!(back.tag("Variant"), Some("xiangqi"));
        }
    }
}

#[test]
fn written_text_has_the_expected_shape() {
    let mut game = PgnGame::new(Position::startpos());
    game.tags.push(("Event".into(), "Test".into()));
    game.moves.push(PgnMove { mv: mv("h2e2"), comment: Some("central cannon".into()), suffix: None });
    game.moves.push(PgnMove { mv: mv("h9g7"), comment: None, suffix: Some("!".into()) });
    let expected = "[Event \"Test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[Red \"?\"]\n\
                    [Black \"?\"]\n[Result \"*\"]\n[Variant \"xiangqi\"]\n[Format \"Chinese\"]\n\n\
                    1. 炮二平五 {central cannon} 1... 马８进７! *\n";
    assert_eq!(write_pgn(&game, MoveNotation::Chinese).unwrap(), expected);
    let wxf = write_pgn(&game, MoveNotation::Wxf).unwrap();
    assert!(wxf.ends_with("\n\n1. C2=5 {central cannon} 1... h8+7! *\n"), "{wxf}");
}

#[test]
fn a_black_to_move_start_is_written_with_its_fen() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let mut game = PgnGame::new(Position::from_fen(fen).unwrap());
    game.moves = vec![PgnMove::new(mv("h9g7")), PgnMove::new(mv("h0g2"))];
    game.result = "draw".into(); // not a PGN result: written as "*"
    let text = write_pgn(&game, MoveNotation::Iccs).unwrap();
    assert!(text.contains(&format!("[FEN \"{fen}\"]\n")), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.ends_with("\n\n1... h9g7 2. h0g2 *\n"), "{text}");
    let back = read_pgn(&text).unwrap();
    assert_eq!(moves_of(&back[0]), ["h9g7", "h0g2"]);
}

#[test]
fn writing_an_illegal_move_is_an_error() {
    let mut game = PgnGame::new(Position::startpos());
    game.moves = vec![PgnMove::new(mv("h2e2")), PgnMove::new(mv("h2e2"))];
    assert_eq!(
        write_pgn(&game, MoveNotation::Wxf),
        Err(NotationError::IllegalMove { mv: mv("h2e2"), ply: 2 })
    );
    assert!(game.final_position().is_err());
}

#[test]
fn reads_a_chinese_game() {
    let text =
        "\u{feff}[Event \"测试\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n[Format \"Chinese\"]\n\n\
                1. 炮二平五 马８进７ 2. 马二进三 车９平８\n\
                3. 車一平二 {中炮对屏风马} 馬2進3 4. 兵七进一 卒７进１ 1-0\n";
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(moves_of(g), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"]);
    assert_eq!(g.moves[4].comment.as_deref(), Some("中炮对屏风马"));
    assert_eq!(g.moves[3].comment, None);
    assert_eq!(g.result, "1-0");
    assert_eq!(g.tag("black"), Some("乙"));
    assert_eq!(g.start, Position::startpos());
}

#[test]
fn reads_a_wxf_game_with_variations_nags_and_comments() {
    let text = "[Event \"WXF test\"]\n\
                [FEN \"3k5/9/9/2R6/9/9/6C2/2R6/6C2/4K4 w - - 0 1\"]\n\
                \n\
                1. R+=5 $1 k4+1 (1... k4=5?? (1... K4.5) 2. R-=6 {never played}) 2. C++6!? {check?}\n\
                k4-1 ; back home\n\
                3. C--1 k4+1 4. R7-1 1/2-1/2\n";
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(moves_of(g), ["c6e6", "d9d8", "g3g9", "d8d9", "g1g0", "d9d8", "c2c1"]);
    assert_eq!(g.moves[0].suffix, None);
    assert_eq!(g.moves[2].suffix.as_deref(), Some("!?"));
    assert_eq!(g.moves[2].comment.as_deref(), Some("check?"));
    assert_eq!(g.moves[3].comment.as_deref(), Some("back home"));
    assert_eq!(g.result, "1/2-1/2");
    assert_eq!(g.start.to_fen(), "3k5/9/9/2R6/9/9/6C2/2R6/6C2/4K4 w - - 0 1");
}

#[test]
fn reads_several_games_and_mixed_notations() {
    let text = "[Event \"one\"]\n1. h2e2 h9g7 2. H2+3 车９平８ 0-1\n\n\
                [Event \"two\"]\n1.H2-E2 1...c8=5 *\n\
                1. b2e2 { no tags, and a Chinese move with spaces: } 马 ２ 进 ３";
    let games = read_pgn(text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(moves_of(&games[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(games[0].result, "0-1");
    assert_eq!(moves_of(&games[1]), ["h2e2", "h7e7"]);
    assert_eq!((games[1].tag("Event"), games[1].result.as_str()), (Some("two"), "*"));
    assert_eq!(moves_of(&games[2]), ["b2e2", "b9c7"]);
    assert!(games[2].tags.is_empty());
    assert_eq!(games[2].result, "*");
    assert_eq!(read_pgn("  \n").unwrap(), []);
}

#[test]
fn a_missing_result_token_falls_back_to_the_tag() {
    let games = read_pgn("[Result \"1-0\"]\n1. h2e2\n").unwrap();
    assert_eq!(games[0].result, "1-0");
}

/// The error for `text`, which must fail.
fn error_of(text: &str) -> (usize, String) {
    let e = read_pgn(text).expect_err("the text is malformed");
    (e.line, e.to_string())
}

#[test]
fn an_illegal_move_names_its_line_and_token() {
    let text = "[Event \"x\"]\n[Site \"y\"]\n\n1. C2=5 h8+7\n2. H2+3 r9=8\n{a comment}\n3. C2=9 c8=5\n";
    // The central cannon stands on file 5 now, and no cannon is left on file 2.
    assert_eq!(
        error_of(text),
        (7, "line 7: 'C2=9' is not a legal move: red has no cannon on file 2".to_string())
    );
    let text = "1. h2e2 h9g7\n2. h2e2\n";
    assert_eq!(error_of(text), (2, "line 2: 'h2e2' is not a legal move".to_string()));
    let text = "1. C2=5 h8+7\n\n2. C5=9\n";
    assert_eq!(error_of(text), (3, "line 3: 'C5=9' is not a legal move".to_string()));
}

#[test]
fn malformed_texts_name_the_line() {
    let cases: [(&str, usize, &str); 9] = [
        ("[Event \"x\"]\n[Site \"unclosed]\n1. h2e2 *", 2, "closing quote"),
        ("[Event x]\n", 1, "double quotes"),
        ("[Event \"x\"]\n\n1. h2e2 {never\nclosed\n", 3, "unterminated comment"),
        ("[Event \"x\"]\n[FEN \"rnbakabnr/9/9 w\"]\n1. h2e2 *", 2, "bad FEN tag"),
        ("[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n", 1, "kings face each other"),
        ("1. h2e2\n(1. b2e2 h9g7\n", 2, "unterminated variation"),
        ("1. h2e2 )\n", 1, "closes no variation"),
        ("1. h2e2 h9g7\n2. 炮二平\n", 2, "'炮二平' is not a move"),
        ("\n1. h2e2 $x\n", 2, "NAG"),
    ];
    for (text, line, words) in cases {
        let (got_line, message) = error_of(text);
        assert_eq!(got_line, line, "{text:?}: {message}");
        assert!(message.contains(words), "{text:?}: {message}");
        assert!(message.starts_with(&format!("line {line}: ")), "{message}");
    }
}

#[test]
fn ambiguous_and_missing_pieces_are_reported() {
    let text = "[FEN \"5k3/9/2P6/2P6/2P6/7N1/9/7N1/9/3K5 w - - 0 1\"]\n1. 兵七平八 *\n";
    let (line, message) = error_of(text);
    assert_eq!(line, 2);
    assert!(message.contains("ambiguous"), "{message}");
    let (line, message) = error_of("1. 前炮平五 *");
    assert_eq!(
        (line, message.as_str()),
        (1, "line 1: '前炮平五' is not a legal move: there are no tandem cannons")
    );
    let (_, message) = error_of("!? 1. h2e2");
    assert!(message.contains("follows no move"), "{message}");
}
