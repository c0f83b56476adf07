//! Property test of `chariot serve`'s message handling: thousands of random and mutated messages
//! go through the parser and the lobby's dispatcher; each is answered or refused, nothing panics,
//! and a game whose id and tokens the messages never name is left exactly as it was. Cases per
//! run and how to run longer: see tests/prop_support/mod.rs.

use crate::prop_support;

use chariot::serve::lobby::{action_message, Lobby, LobbyLimits};
use chariot::serve::messages::{parse, Action};
use chariot::serve::outbox::Outbox;
use crossbeam_channel::bounded;
use std::net::{IpAddr, Ipv4Addr};

const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
use prop_support::{as_text, config, mutate, mutations, random_bytes};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use serde_json::Value;

/// Creates a friend game on a fresh connection and joins it from another: (id, black token).
fn friend_game(lobby: &Lobby) -> (String, String) {
    let (sender, inbox) = bounded(1024);
    let mut red = lobby.connect(Outbox::new(sender, None), LOOPBACK);
    lobby.handle(&mut red, r#"{"type":"create","opponent":"friend","side":"red"}"#);
    let joined: Value = serde_json::from_str(&inbox.recv().unwrap()).unwrap();
    let id = joined["game"].as_str().unwrap().to_string();
    let invite = joined["invite"].as_str().unwrap().to_string();
    let (sender, inbox) = bounded(1024);
    let mut black = lobby.connect(Outbox::new(sender, None), LOOPBACK);
    lobby.handle(&mut black, &format!(r#"{{"type":"join","game":"{id}","invite":"{invite}"}}"#));
    let joined: Value = serde_json::from_str(&inbox.recv().unwrap()).unwrap();
    (id, joined["token"].as_str().unwrap().to_string())
}

#[test]
fn any_message_is_answered_or_refused_and_leaves_other_games_alone() {
    let limits = LobbyLimits { max_games: 8, ..LobbyLimits::default() };
    let (lobby, _) = Lobby::new(limits, None, 1, 1).unwrap();
    // The bystander: a game with a few moves, never named to the fuzzer.
    let (other, other_black) = friend_game(&lobby);
    let (sender, inbox) = bounded(1024);
    let mut owner = lobby.connect(Outbox::new(sender, None), LOOPBACK);
    lobby.handle(&mut owner, &action_message(&other, &other_black, &Action::OfferDraw));
    let before = lobby.pgn(&other).unwrap();
    assert!(inbox.try_iter().all(|t| !t.contains("\"error\"")), "the draw offer was taken");
    // The target: a game whose id and black token the messages use.
    let (game, token) = friend_game(&lobby);
    let templates: Vec<String> = vec![
        r#"{"type":"create","opponent":"friend","side":"random","minutes":1,"increment":2}"#.into(),
        r#"{"type":"create","opponent":"engine","level":1,"side":"black","fen":"3k5/9/9/9/9/9/9/9/9/4K4 w"}"#
            .into(),
        format!(r#"{{"type":"join","game":"{game}","invite":"{game}"}}"#),
        format!(r#"{{"type":"watch","game":"{game}"}}"#),
        format!(r#"{{"type":"resume","game":"{game}","token":"{token}"}}"#),
        action_message(&game, &token, &Action::Move("h9g7".into())),
        action_message(&game, &token, &Action::Move("马8进7".into())),
        action_message(&game, &token, &Action::AskUndo),
        action_message(&game, &token, &Action::AgreeUndo),
        action_message(&game, &token, &Action::OfferDraw),
        action_message(&game, &token, &Action::DeclineDraw),
        format!(r#"{{"type":"analyse","game":"{game}","ply":0,"lines":5}}"#),
        format!(r#"{{"type":"evaluate","game":"{game}","ply":0}}"#),
        format!(r#"{{"type":"curve","game":"{game}"}}"#),
        r#"{"type":"load_pgn","pgn":"[Event \"x\"]\n\n1. 炮二平五 马8进7 2. h0g2 *"}"#.into(),
        r#"{"type":"ping"}"#.into(),
        r#"{"type":"explore","fen":"3k5/9/9/9/9/9/9/9/9/R3K4 w","line":["a0a9","d9d8"],"ref":9}"#.into(),
        format!(r#"{{"type":"variation","game":"{game}","ply":1,"line":["h9g7","h0g2"],"ref":3}}"#),
        format!(r#"{{"type":"analyse","game":"{game}","ply":1,"line":["h9g7"],"lines":1}}"#),
        format!(r#"{{"type":"evaluate","game":"{game}","ply":0,"line":["h2e2","马8进7"]}}"#),
        action_message(&game, &token, &Action::OfferRematch { game: "abc".into(), invite: "def".into() }),
    ];
    let (sender, replies) = bounded(4096);
    let fuzzer = std::cell::RefCell::new(lobby.connect(Outbox::new(sender, None), LOOPBACK));
    let strategy = prop_oneof![
        random_bytes(300).prop_map(|b| as_text(&b)),
        (0..templates.len(), mutations())
            .prop_map(move |(i, m)| as_text(&mutate(templates[i].as_bytes(), &m))),
    ];
    let mut runner = TestRunner::new(config(3000));
    runner
        .run(&strategy, |text| {
            let parsed = parse(&text);
            lobby.handle(&mut fuzzer.borrow_mut(), &text);
            let answers: Vec<Value> =
                replies.try_iter().map(|t| serde_json::from_str(&t).expect("every answer is JSON")).collect();
            // A message that does not parse is refused with exactly one error, and only that.
            // What the engine threads finish meanwhile may arrive at any time: an analysis or a
            // piece of a curve asked for earlier, a state after an engine game's move.
            if parsed.is_err() {
                let errors = answers.iter().filter(|a| a["type"] == "error").count();
                prop_assert_eq!(errors, 1);
                let late = ["analysis", "curve", "state"];
                prop_assert!(answers
                    .iter()
                    .all(|a| a["type"] == "error" || late.contains(&a["type"].as_str().unwrap_or(""))));
            }
            for answer in &answers {
                let kind = answer["type"].as_str().unwrap_or("");
                prop_assert!(
                    ["joined", "state", "error", "pong", "analysis", "evaluation", "curve", "explored"]
                        .contains(&kind),
                    "{}",
                    answer
                );
                if kind == "error" {
                    prop_assert!(answer["message"].as_str().unwrap().len() < 300);
                }
                if kind == "explored" {
                    prop_assert!(answer["error"].is_null() || answer["error"].as_str().unwrap().len() < 300);
                }
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(lobby.pgn(&other).unwrap(), before, "the bystander game changed");
    let (sender, inbox) = bounded(1024);
    let mut watcher = lobby.connect(Outbox::new(sender, None), LOOPBACK);
    lobby.handle(&mut watcher, &format!(r#"{{"type":"watch","game":"{other}"}}"#));
    let state: Value = serde_json::from_str(&inbox.try_iter().last().unwrap()).unwrap();
    assert_eq!(state["game"]["draw_offer"], "black", "the bystander's draw offer was touched");
    assert_eq!(state["game"]["moves"].as_array().unwrap().len(), 0);
    assert!(lobby.game_count() <= 8);
}
