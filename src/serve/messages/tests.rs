//! The wire format's tests: messages parsed and written.

use super::*;
use crate::board::Color;
use crate::search::score_scale::ShownScore;
use crate::search::skill::{MAX_ELO, MIN_ELO};
use crate::serve::curve::CurvePoint;
use crate::serve::strength::Strength;
use serde_json::{json, Value};

#[test]
fn positions_and_lines_to_explore_are_bounded() {
    assert_eq!(
        parse(r#"{"type":"explore","fen":"9/9/9/9/9/9/9/9/9/9 w","line":["h2e2"],"ref":3}"#),
        Ok(ClientMessage::Explore {
            fen: "9/9/9/9/9/9/9/9/9/9 w".into(),
            line: vec!["h2e2".into()],
            reference: Some(3)
        })
    );
    assert_eq!(
        parse(r#"{"type":"variation","game":"g1","ply":4}"#),
        Ok(ClientMessage::Variation { game: "g1".into(), ply: 4, line: vec![], reference: None })
    );
    assert_eq!(
        parse(r#"{"type":"analyse","game":"g1","ply":4,"line":["h2e2","h9g7"]}"#),
        Ok(ClientMessage::Analyse {
            game: "g1".into(),
            ply: Some(4),
            line: vec!["h2e2".into(), "h9g7".into()],
            lines: 3
        })
    );
    let bad = ParseError::BadField { field: "line", expected: "a list of at most 400 moves" };
    assert_eq!(parse(r#"{"type":"evaluate","game":"g1","line":"h2e2"}"#), Err(bad.clone()));
    assert_eq!(parse(r#"{"type":"evaluate","game":"g1","line":[7]}"#), Err(bad.clone()));
    let long = format!(r#"{{"type":"variation","game":"g1","ply":0,"line":["{}"]}}"#, "x".repeat(17));
    assert_eq!(parse(&long), Err(bad.clone()));
    let many = format!(r#"{{"type":"explore","fen":"x","line":[{}]}}"#, vec!["1"; 401].join(","));
    assert_eq!(parse(&many), Err(bad));
    assert_eq!(parse(r#"{"type":"variation","game":"g1"}"#), Err(ParseError::Missing { field: "ply" }));
    assert_eq!(parse(r#"{"type":"explore"}"#), Err(ParseError::Missing { field: "fen" }));
}

#[test]
fn a_rematch_offer_names_the_new_game() {
    assert_eq!(
        parse(r#"{"type":"offer_rematch","game":"g1","token":"t1","rematch":"g2","invite":"s3"}"#),
        Ok(ClientMessage::Act {
            game: "g1".into(),
            token: "t1".into(),
            action: Action::OfferRematch { game: "g2".into(), invite: "s3".into() }
        })
    );
    assert_eq!(
        parse(r#"{"type":"offer_rematch","game":"g1","token":"t1","rematch":"g2"}"#),
        Err(ParseError::Missing { field: "invite" })
    );
    assert_eq!(
        parse(r#"{"type":"offer_rematch","game":"g1","token":"t1"}"#),
        Err(ParseError::Missing { field: "rematch" })
    );
    assert_eq!(
        parse(r#"{"type":"offer_rematch","game":"g1","token":"t1","rematch":"../x","invite":"s3"}"#),
        Err(ParseError::BadField { field: "rematch", expected: "letters and digits" })
    );
}

#[test]
fn good_messages_are_read() {
    assert_eq!(parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
    assert_eq!(
        parse(r#"{"type":"join","game":"abc123","invite":"x9"}"#),
        Ok(ClientMessage::Join { game: "abc123".into(), invite: "x9".into() })
    );
    assert_eq!(
        parse(r#"{"type":"move","game":"g1","token":"t1","move":"炮二平五"}"#),
        Ok(ClientMessage::Act {
            game: "g1".into(),
            token: "t1".into(),
            action: Action::Move("炮二平五".into())
        })
    );
    assert_eq!(
        parse(r#"{"type":"agree_undo","game":"g1","token":"t1"}"#),
        Ok(ClientMessage::Act { game: "g1".into(), token: "t1".into(), action: Action::AgreeUndo })
    );
    let create =
        parse(r#"{"type":"create","opponent":"engine","level":7,"side":"black","minutes":5,"increment":3}"#)
            .unwrap();
    assert_eq!(
        create,
        ClientMessage::Create(NewGame {
            opponent: Opponent::Engine { strength: Strength::Level(7) },
            side: SideChoice::Black,
            minutes: 5,
            increment_s: 3,
            fen: None
        })
    );
    assert_eq!(
        parse(r#"{"type":"analyse","game":"g1","ply":4}"#),
        Ok(ClientMessage::Analyse { game: "g1".into(), ply: Some(4), line: vec![], lines: 3 })
    );
    assert_eq!(
        parse(r#"{"type":"analyse","game":"g1","lines":6}"#),
        Err(ParseError::BadField { field: "lines", expected: "a number of lines from 1 to 5" })
    );
    let engine = |text: &str| match parse(text) {
        Ok(ClientMessage::Create(NewGame { opponent: Opponent::Engine { strength }, .. })) => Ok(strength),
        other => Err(other),
    };
    assert_eq!(engine(r#"{"type":"create","opponent":"engine"}"#), Ok(Strength::Level(5)));
    assert_eq!(engine(r#"{"type":"create","opponent":"engine","level":0}"#), Ok(Strength::Level(0)));
    assert_eq!(engine(r#"{"type":"create","opponent":"engine","level":20}"#), Ok(Strength::Level(20)));
    let elo = format!(r#"{{"type":"create","opponent":"engine","elo":{MIN_ELO},"level":null}}"#);
    assert_eq!(engine(&elo), Ok(Strength::Elo(MIN_ELO)));
    let friend = parse(r#"{"type":"create","opponent":"friend"}"#).unwrap();
    assert_eq!(
        friend,
        ClientMessage::Create(NewGame {
            opponent: Opponent::Friend,
            side: SideChoice::Red,
            minutes: 0,
            increment_s: 0,
            fen: None
        })
    );
}

#[test]
fn bad_messages_are_refused_with_the_reason() {
    let cases: [(&str, ParseError); 12] = [
        ("", ParseError::NotJson),
        ("{", ParseError::NotJson),
        ("[1,2]", ParseError::NotObject),
        ("\"move\"", ParseError::NotObject),
        ("{}", ParseError::Missing { field: "type" }),
        (r#"{"type":5}"#, ParseError::BadField { field: "type", expected: "a string" }),
        (r#"{"type":"dance"}"#, ParseError::UnknownType { text: "dance".into() }),
        (r#"{"type":"move","game":"g","token":"t"}"#, ParseError::Missing { field: "move" }),
        (r#"{"type":"move","game":"g","move":"h2e2"}"#, ParseError::Missing { field: "token" }),
        (
            r#"{"type":"join","game":"../etc","invite":"a"}"#,
            ParseError::BadField { field: "game", expected: "letters and digits" },
        ),
        (
            r#"{"type":"create","opponent":"engine","level":21}"#,
            ParseError::OutOfRange { field: "level", min: 0, max: 20 },
        ),
        (
            r#"{"type":"create","opponent":"friend","minutes":-1}"#,
            ParseError::BadField { field: "minutes", expected: "a number of minutes from 0 to 180" },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(parse(text), Err(expected), "{text}");
    }
    let elo_cases = [
        (format!(r#"{{"type":"create","opponent":"engine","elo":{}}}"#, MIN_ELO - 1), "elo"),
        (format!(r#"{{"type":"create","opponent":"engine","elo":{}}}"#, MAX_ELO + 1), "elo"),
        (r#"{"type":"create","opponent":"engine","elo":"strong"}"#.to_string(), "elo"),
        (r#"{"type":"create","opponent":"engine","level":2.5}"#.to_string(), "level"),
        (r#"{"type":"create","opponent":"engine","level":-1}"#.to_string(), "level"),
    ];
    for (text, field) in elo_cases {
        let err = parse(&text).unwrap_err();
        assert!(matches!(err, ParseError::OutOfRange { field: f, .. } if f == field), "{text}: {err:?}");
    }
    let err = parse(&format!(r#"{{"type":"create","opponent":"engine","level":3,"elo":{MIN_ELO}}}"#));
    assert_eq!(err, Err(ParseError::Conflict { field: "level", other: "elo" }));
    assert_eq!(err.unwrap_err().to_string(), "give 'level' or 'elo', not both");
    assert_eq!(
        ParseError::OutOfRange { field: "elo", min: 899, max: 3050 }.to_string(),
        "'elo' must be a whole number from 899 to 3050"
    );
    let long_move = format!(r#"{{"type":"move","game":"g","token":"t","move":"{}"}}"#, "x".repeat(17));
    assert_eq!(parse(&long_move), Err(ParseError::BadField { field: "move", expected: "a shorter string" }));
}

#[test]
fn an_oversized_message_is_refused_unread() {
    let huge = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES));
    let err = parse(&huge).unwrap_err();
    assert_eq!(err, ParseError::TooLong { bytes: huge.len(), limit: MAX_MESSAGE_BYTES });
    // Not JSON, or JSON of the wrong type: too long all the same.
    let junk = "z".repeat(MAX_MESSAGE_BYTES + 1);
    assert_eq!(parse(&junk), Err(ParseError::TooLong { bytes: junk.len(), limit: MAX_MESSAGE_BYTES }));
    assert!(err.to_string().contains("at most 4096"), "{err}");
    let mut just_fits = r#"{"type":"ping","pad":""}"#.to_string();
    just_fits.insert_str(just_fits.len() - 2, &"y".repeat(MAX_MESSAGE_BYTES - just_fits.len()));
    assert_eq!(just_fits.len(), MAX_MESSAGE_BYTES);
    assert_eq!(parse(&just_fits), Ok(ClientMessage::Ping));
}

#[test]
fn only_a_pgn_may_be_longer_and_only_up_to_its_own_limit() {
    let pgn_message = |len: usize| {
        let mut text = r#"{"type":"load_pgn","pgn":""}"#.to_string();
        text.insert_str(text.len() - 2, &"1".repeat(len - text.len()));
        assert_eq!(text.len(), len);
        text
    };
    let longest = pgn_message(MAX_PGN_MESSAGE_BYTES);
    assert!(matches!(parse(&longest), Ok(ClientMessage::LoadPgn { pgn }) if pgn.len() > MAX_MESSAGE_BYTES));
    let past = pgn_message(MAX_PGN_MESSAGE_BYTES + 1);
    let err = parse(&past).unwrap_err();
    assert_eq!(err, ParseError::TooLong { bytes: past.len(), limit: MAX_PGN_MESSAGE_BYTES });
    assert_eq!(err.to_string(), format!("message of {} bytes refused (at most 49152 for a PGN)", past.len()));
    assert_eq!(parse(r#"{"type":"load_pgn"}"#), Err(ParseError::Missing { field: "pgn" }));
    assert_eq!(
        parse(r#"{"type":"load_pgn","pgn":7}"#),
        Err(ParseError::BadField { field: "pgn", expected: "a string" })
    );
    assert_eq!(
        parse(r#"{"type":"evaluate","game":"g1","ply":2}"#),
        Ok(ClientMessage::Evaluate { game: "g1".into(), ply: Some(2), line: vec![] })
    );
    assert_eq!(parse(r#"{"type":"curve","game":"g1"}"#), Ok(ClientMessage::Curve { game: "g1".into() }));
    assert_eq!(parse(r#"{"type":"curve"}"#), Err(ParseError::Missing { field: "game" }));
}

#[test]
fn a_curve_message_rounds_and_says_whose_view() {
    let points = vec![
        CurvePoint { ply: 0, red_expected: 0.51234, red_score: Some(ShownScore::Cp(12)) },
        CurvePoint { ply: 1, red_expected: 0.0, red_score: Some(ShownScore::Mate(-2)) },
        CurvePoint { ply: 2, red_expected: 0.5, red_score: None },
    ];
    let message = ServerMessage::Curve { game: "g".into(), plies: 2, points, done: true };
    let v: Value = serde_json::from_str(&message.text()).unwrap();
    assert_eq!(v["type"], "curve");
    assert_eq!(v["points"][0], json!({"ply": 0, "expected": 0.512, "cp": 12, "mate": null}));
    assert_eq!(v["points"][1]["mate"], -2);
    assert!(v["points"][2]["cp"].is_null() && v["done"] == true && v["plies"] == 2);
}

#[test]
fn joined_says_the_role_by_the_seat() {
    let player = ServerMessage::Joined {
        game: "g".into(),
        token: Some("t".into()),
        color: Some(Color::Black),
        invite: Some("i".into()),
    };
    let v: Value = serde_json::from_str(&player.text()).unwrap();
    assert_eq!(
        v,
        json!({"type": "joined", "game": "g", "token": "t", "color": "black", "role": "player", "invite": "i"})
    );
    let watcher = ServerMessage::Joined { game: "g".into(), token: None, color: None, invite: None };
    let v: Value = serde_json::from_str(&watcher.text()).unwrap();
    assert_eq!((v["role"].as_str(), v["token"].is_null()), (Some("spectator"), true));
    assert_eq!(ServerMessage::error("no").text(), r#"{"message":"no","type":"error"}"#);
    let gone = ServerMessage::Error { message: "gone".into(), code: Some("unknown_token") };
    assert_eq!(gone.text(), r#"{"code":"unknown_token","message":"gone","type":"error"}"#);
}

#[test]
fn an_error_message_quotes_a_long_type_briefly() {
    let err = parse(&format!(r#"{{"type":"{}"}}"#, "z".repeat(30))).unwrap_err();
    assert!(err.to_string().starts_with("unknown message type 'zzz"), "{err}");
    let err = parse(&format!(r#"{{"type":"{}"}}"#, "z".repeat(33))).unwrap_err();
    assert_eq!(err, ParseError::BadField { field: "type", expected: "a shorter string" });
}
