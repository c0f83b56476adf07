//! The lobby's own tests: messages handled as a connection sends them, answers read back.

use super::*;
use crossbeam_channel::{bounded, Receiver};
use serde_json::Value;
use std::net::{IpAddr, Ipv4Addr};

const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

struct Client {
    connection: Connection,
    inbox: Receiver<String>,
}

impl Client {
    fn new(lobby: &Lobby) -> Client {
        let (sender, inbox) = bounded(4096);
        Client::from(lobby, LOOPBACK, sender, inbox)
    }

    fn from(
        lobby: &Lobby,
        client: IpAddr,
        sender: crossbeam_channel::Sender<String>,
        inbox: Receiver<String>,
    ) -> Client {
        Client { connection: lobby.connect(Outbox::new(sender, None), client), inbox }
    }

    fn send(&mut self, lobby: &Lobby, text: &str) -> Vec<Value> {
        lobby.handle(&mut self.connection, text);
        self.inbox.try_iter().map(|t| serde_json::from_str(&t).unwrap()).collect()
    }

    /// Sends and returns the one error the reply must hold.
    fn refused(&mut self, lobby: &Lobby, text: &str) -> String {
        let replies = self.send(lobby, text);
        let errors: Vec<&Value> = replies.iter().filter(|v| v["type"] == "error").collect();
        assert_eq!(errors.len(), 1, "{text}: {replies:?}");
        errors[0]["message"].as_str().unwrap().to_string()
    }

    fn drain(&mut self) -> Vec<Value> {
        self.inbox.try_iter().map(|t| serde_json::from_str(&t).unwrap()).collect()
    }
}

fn last_state(replies: &[Value]) -> Value {
    replies.iter().rev().find(|v| v["type"] == "state").expect("a state").clone()
}

fn lobby_with(limits: LobbyLimits, store: Option<Store>) -> Arc<Lobby> {
    Lobby::new(limits, store, 1, 1).unwrap().0
}

/// A friend game with both seats taken: (red, black, game id, red token, black token).
fn friend_game(lobby: &Lobby) -> (Client, Client, String, String, String) {
    let mut red = Client::new(lobby);
    let replies = red.send(lobby, r#"{"type":"create","opponent":"friend","side":"red"}"#);
    let joined = &replies[0];
    assert_eq!((joined["type"].as_str(), joined["color"].as_str()), (Some("joined"), Some("red")));
    let id = joined["game"].as_str().unwrap().to_string();
    let red_token = joined["token"].as_str().unwrap().to_string();
    let invite = joined["invite"].as_str().unwrap().to_string();
    let mut black = Client::new(lobby);
    let replies = black.send(lobby, &format!(r#"{{"type":"join","game":"{id}","invite":"{invite}"}}"#));
    assert!(replies[0]["invite"].is_null(), "the seats are full: no invitation to show");
    assert_eq!(replies[0]["color"], "black");
    let black_token = replies[0]["token"].as_str().unwrap().to_string();
    assert_ne!(red_token, black_token);
    red.drain();
    (red, black, id, red_token, black_token)
}

fn play(id: &str, token: &str, mv: &str) -> String {
    action_message(id, token, &Action::Move(mv.to_string()))
}

#[test]
fn moves_are_checked_for_token_seat_turn_and_legality() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
    let mut watcher = Client::new(&lobby);
    let replies = watcher.send(&lobby, &format!(r#"{{"type":"watch","game":"{id}"}}"#));
    assert_eq!(replies[0]["role"], "spectator");
    assert!(replies[0]["token"].is_null());
    assert_eq!(last_state(&replies)["game"]["spectators"], 1);
    red.drain();
    black.drain();
    assert_eq!(
        red.refused(&lobby, &play(&id, "nottherighttoken", "h2e2")),
        "that token is no player's in this game"
    );
    assert_eq!(watcher.refused(&lobby, &play(&id, &rt, "h2e2")), "spectators cannot play");
    assert_eq!(black.refused(&lobby, &play(&id, &bt, "h9g7")), "it is not your turn");
    assert!(red.refused(&lobby, &play(&id, &rt, "h2h8")).starts_with("illegal move"));
    assert_eq!(red.refused(&lobby, &play("nosuchgame", &rt, "h2e2")), LobbyError::NoSuchGame.to_string());
    // Nothing was played by all that: nobody was sent a new state.
    assert!(watcher.drain().is_empty());
    assert!(black.drain().iter().all(|v| v["type"] == "error"));
    // A good move reaches all three.
    red.send(&lobby, &play(&id, &rt, "h2e2"));
    for client in [&mut black, &mut watcher] {
        let state = last_state(&client.drain());
        assert_eq!(state["game"]["moves"][0]["chinese"], "炮二平五");
        assert_eq!(state["game"]["turn"], "black");
    }
}

#[test]
fn draws_and_take_backs_need_both_players() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
    let act = |token: &str, action: Action| action_message(&id, token, &action);
    red.send(&lobby, &play(&id, &rt, "h2e2"));
    black.send(&lobby, &play(&id, &bt, "h9g7"));
    red.send(&lobby, &act(&rt, Action::AskUndo));
    assert_eq!(last_state(&black.drain())["game"]["undo_request"], "red");
    assert_eq!(red.refused(&lobby, &act(&rt, Action::AgreeUndo)), "there is nothing to answer");
    let state = last_state(&black.send(&lobby, &act(&bt, Action::AgreeUndo)));
    assert_eq!(state["game"]["moves"].as_array().unwrap().len(), 0);
    assert!(state["game"]["undo_request"].is_null());
    red.send(&lobby, &act(&rt, Action::OfferDraw));
    assert_eq!(red.refused(&lobby, &act(&rt, Action::AcceptDraw)), "there is nothing to answer");
    let state = last_state(&black.send(&lobby, &act(&bt, Action::AcceptDraw)));
    assert_eq!(state["game"]["result"]["text"], "draw: agreed draw");
    assert_eq!(red.refused(&lobby, &play(&id, &rt, "h2e2")), "the game is over");
}

#[test]
fn a_third_person_cannot_take_a_seat_and_a_reconnect_gets_it_back() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (_red, black, id, rt, _bt) = friend_game(&lobby);
    let mut third = Client::new(&lobby);
    assert_eq!(
        third.refused(&lobby, &format!(r#"{{"type":"join","game":"{id}","invite":"x"}}"#)),
        LobbyError::NotInvited.to_string()
    );
    drop(black);
    let mut again = Client::new(&lobby);
    let replies = again.send(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
    assert_eq!((replies[0]["type"].as_str(), replies[0]["color"].as_str()), (Some("joined"), Some("red")));
    again.send(&lobby, &play(&id, &rt, "h2e2"));
    assert!(again
        .refused(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"wrong"}}"#))
        .contains("token"));
}

#[test]
fn limits_refuse_more_games_and_followers_and_big_messages() {
    let limits = LobbyLimits { max_games: 2, max_followers: 3, ..LobbyLimits::default() };
    let lobby = lobby_with(limits, None);
    let mut client = Client::new(&lobby);
    let create = r#"{"type":"create","opponent":"friend"}"#;
    client.send(&lobby, create);
    client.send(&lobby, create);
    assert_eq!(client.refused(&lobby, create), LobbyError::TooManyGames.to_string());
    assert_eq!(lobby.game_count(), 2);
    let (_r, _b, id, _, _) = {
        // A third game is refused, so free one: a finished game is dropped after its linger.
        let lobby2 = lobby_with(LobbyLimits { max_followers: 1, ..LobbyLimits::default() }, None);
        let game = friend_game(&lobby2);
        let mut watchers: Vec<Client> = (0..1).map(|_| Client::new(&lobby2)).collect();
        watchers[0].send(&lobby2, &format!(r#"{{"type":"watch","game":"{}"}}"#, game.2));
        let mut fourth = Client::new(&lobby2);
        assert_eq!(
            fourth.refused(&lobby2, &format!(r#"{{"type":"watch","game":"{}"}}"#, game.2)),
            LobbyError::TooManyFollowers.to_string()
        );
        game
    };
    assert!(!id.is_empty());
    let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(10_000));
    assert!(client.refused(&lobby, &big).contains("at most 4096"));
}

#[test]
fn idle_games_expire_and_finished_ones_are_dropped() {
    let limits = LobbyLimits {
        idle_expiry: Duration::from_secs(60),
        finished_linger: Duration::from_secs(30),
        ..LobbyLimits::default()
    };
    let lobby = lobby_with(limits, None);
    let (mut red, _black, _id, _, _) = friend_game(&lobby);
    let now = Instant::now();
    lobby.tick(now + Duration::from_secs(59));
    assert!(red.drain().iter().all(|v| v["game"]["result"].is_null()));
    lobby.tick(now + Duration::from_secs(61));
    assert_eq!(last_state(&red.drain())["game"]["result"]["reason"], "abandoned");
    assert_eq!(lobby.game_count(), 1);
    lobby.tick(now + Duration::from_secs(61 + 31));
    assert_eq!(lobby.game_count(), 0);
}

#[test]
fn a_game_survives_a_restart_from_its_data_directory() {
    let dir = std::env::temp_dir().join(format!("chariot-lobby-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (id, rt, bt) = {
        let lobby = lobby_with(LobbyLimits::default(), Some(Store::open(&dir).unwrap()));
        let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
        red.send(&lobby, &play(&id, &rt, "h2e2"));
        black.send(&lobby, &play(&id, &bt, "h9g7"));
        assert!(dir.join("games").join(format!("{id}.jsonl")).exists());
        (id, rt, bt)
    };
    // A new server on the same directory: the game, its seats and its moves are back.
    let lobby = lobby_with(LobbyLimits::default(), Some(Store::open(&dir).unwrap()));
    assert_eq!(lobby.game_count(), 1);
    let mut red = Client::new(&lobby);
    let replies = red.send(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
    let state = last_state(&replies);
    let moves: Vec<&str> =
        state["game"]["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(moves, ["h2e2", "h9g7"]);
    red.send(&lobby, &play(&id, &rt, "b2b4"));
    let mut black = Client::new(&lobby);
    black.send(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"{bt}"}}"#));
    black.send(&lobby, &action_message(&id, &bt, &Action::Resign));
    let pgn = std::fs::read_to_string(dir.join("pgn").join(format!("{id}.pgn"))).unwrap();
    let games = crate::notation::read_pgn(&pgn).unwrap();
    let line: Vec<String> = games[0].moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(line, ["h2e2", "h9g7", "b2b4"]);
    assert_eq!(games[0].result, "1-0");
    assert!(!dir.join("games").join(format!("{id}.jsonl")).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_analysis_answers_the_asker_only_one_at_a_time() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
    red.send(&lobby, &play(&id, &rt, "h2e2"));
    let ask = format!(r#"{{"type":"analyse","game":"{id}","ply":1,"lines":2}}"#);
    // No engine help while the game is played; once it has ended, anyone may ask.
    assert_eq!(black.refused(&lobby, &ask), LobbyError::LiveGame.to_string());
    black.send(&lobby, &action_message(&id, &bt, &Action::Resign));
    black.drain();
    red.drain();
    assert!(black.send(&lobby, &ask).is_empty());
    assert_eq!(black.refused(&lobby, &ask), "an analysis is still running; try again when it ends");
    let answer: Value =
        serde_json::from_str(&black.inbox.recv_timeout(Duration::from_secs(60)).unwrap()).unwrap();
    assert_eq!(
        (answer["type"].as_str(), answer["ply"].as_u64(), answer["turn"].as_str()),
        (Some("analysis"), Some(1), Some("black"))
    );
    let lines = answer["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    for line in lines {
        let wdl: u64 = line["wdl"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum();
        assert_eq!(wdl, 1000, "{line}");
        assert!(line["cp"].is_i64() != line["mate"].is_i64());
        assert_eq!(line["chinese"].as_array().unwrap().len(), line["iccs"].as_array().unwrap().len());
    }
    assert_ne!(lines[0]["iccs"][0], lines[1]["iccs"][0]);
    assert!(red.drain().is_empty(), "only the asker hears the analysis");
    let too_far = format!(r#"{{"type":"analyse","game":"{id}","ply":2}}"#);
    assert_eq!(black.refused(&lobby, &too_far), LobbyError::NoSuchPly.to_string());
}

#[test]
fn an_engine_game_at_an_elo_shows_it_and_bad_strengths_change_nothing() {
    use crate::search::skill::{MAX_ELO, MIN_ELO};
    let lobby = lobby_with(LobbyLimits::default(), None);
    let mut me = Client::new(&lobby);
    for bad in [
        format!(r#"{{"type":"create","opponent":"engine","elo":{}}}"#, MAX_ELO + 1),
        r#"{"type":"create","opponent":"engine","level":21}"#.to_string(),
        format!(r#"{{"type":"create","opponent":"engine","level":4,"elo":{MIN_ELO}}}"#),
    ] {
        me.refused(&lobby, &bad);
    }
    assert_eq!(lobby.game_count(), 0);
    let replies = me
        .send(&lobby, &format!(r#"{{"type":"create","opponent":"engine","elo":{MIN_ELO},"side":"black"}}"#));
    let red = &last_state(&replies)["game"]["red"];
    assert_eq!(
        (red["kind"].as_str(), red["elo"].as_i64(), red["asked"].as_str()),
        (Some("engine"), Some(MIN_ELO.into()), Some("elo"))
    );
    assert!(red["level"].is_number());
}

#[test]
fn an_evaluation_answers_the_asker_at_once_with_each_pieces_share() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
    red.send(&lobby, &play(&id, &rt, "h2e2"));
    let live = format!(r#"{{"type":"evaluate","game":"{id}","ply":0}}"#);
    assert_eq!(red.refused(&lobby, &live), LobbyError::LiveGame.to_string());
    black.send(&lobby, &action_message(&id, &bt, &Action::Resign));
    black.drain();
    red.drain();
    let answers = black.send(&lobby, &format!(r#"{{"type":"evaluate","game":"{id}","ply":1}}"#));
    assert_eq!(answers.len(), 1, "{answers:?}");
    let v = &answers[0];
    assert_eq!(
        (v["type"].as_str(), v["ply"].as_u64(), v["turn"].as_str()),
        (Some("evaluation"), Some(1), Some("black"))
    );
    assert_eq!(v["pieces"].as_array().unwrap().len(), 30);
    // The cannon moved: its share is on e2, none is on h2.
    let on = |sq: &str| v["pieces"].as_array().unwrap().iter().any(|p| p["square"] == sq);
    assert!(on("e2") && !on("h2"));
    // Without a ply: the position now; the start: 32 pieces less the kings, Red to move.
    let now = &black.send(&lobby, &format!(r#"{{"type":"evaluate","game":"{id}"}}"#))[0];
    assert_eq!(now["ply"], 1);
    let start = &black.send(&lobby, &format!(r#"{{"type":"evaluate","game":"{id}","ply":0}}"#))[0];
    assert_eq!(start["turn"], "red");
    assert!(red.drain().is_empty(), "only the asker hears the evaluation");
    // Bad requests: one error each, and the game is as it was.
    let before = lobby.pgn(&id).unwrap();
    for (text, error) in [
        (
            format!(r#"{{"type":"evaluate","game":"{id}","ply":2}}"#),
            "the game has not that many moves".to_string(),
        ),
        (r#"{"type":"evaluate","game":"nosuchgame"}"#.to_string(), LobbyError::NoSuchGame.to_string()),
        (
            format!(r#"{{"type":"evaluate","game":"{id}","ply":-1}}"#),
            "'ply' must be a ply from 0 to 10000".to_string(),
        ),
        (r#"{"type":"evaluate"}"#.to_string(), "the message has no 'game'".to_string()),
    ] {
        assert_eq!(black.refused(&lobby, &text), error, "{text}");
    }
    assert_eq!(lobby.pgn(&id).unwrap(), before);
    assert!(red.drain().is_empty());
}

/// Reads `client`'s curve messages until the last piece: the points in order.
fn curve_points(client: &mut Client) -> Vec<Value> {
    let mut points = Vec::new();
    loop {
        let text = client.inbox.recv_timeout(Duration::from_secs(120)).expect("a piece of the curve");
        let v: Value = serde_json::from_str(&text).unwrap();
        if v["type"] != "curve" {
            continue;
        }
        points.extend(v["points"].as_array().unwrap().iter().cloned());
        if v["done"] == true {
            return points;
        }
    }
}

#[test]
fn a_curve_scores_every_position_for_the_asker_alone() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
    // Red mates at ply 5 (`chariot judge`: 1-0 checkmate); Black hangs its elephant first.
    for (i, m) in ["b2b4", "d9e8", "b4g4", "c9a7", "g4g9"].iter().enumerate() {
        let (client, token) = if i % 2 == 0 { (&mut red, &rt) } else { (&mut black, &bt) };
        client.send(&lobby, &play(&id, token, m));
    }
    red.drain();
    black.drain();
    let ask = format!(r#"{{"type":"curve","game":"{id}"}}"#);
    assert!(black.send(&lobby, &ask).is_empty());
    assert_eq!(black.refused(&lobby, &ask), "a curve is still being drawn; try again when it ends");
    let points = curve_points(&mut black);
    let plies: Vec<u64> = points.iter().map(|p| p["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, [0, 1, 2, 3, 4, 5]);
    for p in &points {
        let e = p["expected"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&e), "{p}");
    }
    // The start is near even; the mate is Red's whole point, scored by the rules.
    assert!((points[0]["expected"].as_f64().unwrap() - 0.5).abs() < 0.2, "{}", points[0]);
    assert_eq!(points[5], json!({"ply": 5, "expected": 1.0, "cp": null, "mate": null}));
    assert!(points[4]["expected"].as_f64().unwrap() > 0.9, "mate in one for Red: {}", points[4]);
    assert!(red.drain().is_empty(), "only the asker hears the curve");
    // Done: another may be asked; a closed connection's curve is stopped and forgotten.
    assert!(black.send(&lobby, &ask).is_empty());
    lobby.disconnect(&mut black.connection);
    assert!(lobby.requests.is_empty());
    assert_eq!(
        red.refused(&lobby, r#"{"type":"curve","game":"nosuchgame"}"#),
        LobbyError::NoSuchGame.to_string()
    );
}

#[test]
fn a_pgn_becomes_an_analysis_board_nobody_plays_on() {
    let limits = LobbyLimits { finished_linger: Duration::from_secs(30), ..LobbyLimits::default() };
    let lobby = lobby_with(limits, None);
    let mut viewer = Client::new(&lobby);
    let pgn =
        "[Event \"Club final\"]\n[Red \"Lü Qin\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马8进7 2. 马二进三 1-0\n";
    let load = json!({"type": "load_pgn", "pgn": pgn}).to_string();
    let replies = viewer.send(&lobby, &load);
    assert_eq!(
        (replies[0]["type"].as_str(), replies[0]["role"].as_str()),
        (Some("joined"), Some("spectator"))
    );
    assert!(replies[0]["token"].is_null());
    let game = &last_state(&replies)["game"];
    let id = game["id"].as_str().unwrap().to_string();
    let moves: Vec<&str> =
        game["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(
        (game["red"]["kind"].as_str(), game["red"]["name"].as_str()),
        (Some("recorded"), Some("Lü Qin"))
    );
    assert_eq!(game["result"]["text"], "red wins: as recorded");
    assert_eq!(game["record"]["event"], "Club final");
    assert!(game["legal"].as_array().unwrap().is_empty());
    // Its PGN is the one loaded; its positions can be evaluated.
    assert!(lobby.pgn(&id).unwrap().contains("[Event \"Club final\"]"));
    let evaluation = viewer.send(&lobby, &format!(r#"{{"type":"evaluate","game":"{id}","ply":2}}"#));
    assert_eq!(
        (evaluation[0]["type"].as_str(), evaluation[0]["turn"].as_str()),
        (Some("evaluation"), Some("red"))
    );
    // Nobody plays on it or joins it.
    let mut other = Client::new(&lobby);
    let refusal = "this is an analysis board of a recorded game: nobody plays in it";
    assert_eq!(other.refused(&lobby, &play(&id, "sometoken", "h9g7")), refusal);
    assert_eq!(other.refused(&lobby, &format!(r#"{{"type":"join","game":"{id}","invite":"x"}}"#)), refusal);
    assert_eq!(other.refused(&lobby, &action_message(&id, "x", &Action::Resign)), refusal);
    assert!(viewer.drain().is_empty());
    // It stays while it is looked at, and goes a while after the last viewer left.
    let now = Instant::now();
    lobby.tick(now + Duration::from_secs(3600));
    assert_eq!(lobby.game_count(), 1);
    lobby.disconnect(&mut viewer.connection);
    lobby.tick(Instant::now() + Duration::from_secs(29));
    assert_eq!(lobby.game_count(), 1);
    lobby.tick(Instant::now() + Duration::from_secs(31));
    assert_eq!(lobby.game_count(), 0);
}

#[test]
fn a_bad_pgn_gets_one_error_naming_the_fault_and_opens_nothing() {
    let lobby = lobby_with(LobbyLimits { max_games: 1, ..LobbyLimits::default() }, None);
    let mut viewer = Client::new(&lobby);
    for (pgn, error) in [
        ("1. h2e2 h9g7 2. h2h8 *", "cannot read the PGN: line 1: 'h2h8' is not a legal move"),
        ("", "the PGN holds no game (no tags and no moves)"),
        ("[FEN \"rubbish\"]\n*", "cannot read the PGN: line 1: bad FEN tag 'rubbish'"),
    ] {
        let message = viewer.refused(&lobby, &json!({"type": "load_pgn", "pgn": pgn}).to_string());
        assert!(message.starts_with(error), "{pgn}: {message}");
    }
    assert_eq!(lobby.game_count(), 0);
    let big = json!({"type": "load_pgn", "pgn": "1. h2e2 ".repeat(7000)}).to_string();
    assert!(viewer.refused(&lobby, &big).contains("for a PGN"));
    // The board counts among the games held.
    viewer.send(&lobby, &json!({"type": "load_pgn", "pgn": "1. h2e2 *"}).to_string());
    assert_eq!(
        viewer.refused(&lobby, &json!({"type": "load_pgn", "pgn": "1. h2e2 *"}).to_string()),
        LobbyError::TooManyGames.to_string()
    );
}

#[test]
fn the_engine_answers_and_undo_takes_back_to_the_players_turn() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let mut me = Client::new(&lobby);
    let replies = me.send(&lobby, r#"{"type":"create","opponent":"engine","level":1,"side":"red"}"#);
    let id = replies[0]["game"].as_str().unwrap().to_string();
    let token = replies[0]["token"].as_str().unwrap().to_string();
    me.send(&lobby, &play(&id, &token, "h2e2"));
    let deadline = Instant::now() + Duration::from_secs(60);
    let answered = loop {
        let text = me.inbox.recv_timeout(Duration::from_secs(60)).expect("the engine answers");
        let value: Value = serde_json::from_str(&text).unwrap();
        if value["type"] == "state" && value["game"]["moves"].as_array().unwrap().len() == 2 {
            break value;
        }
        assert!(Instant::now() < deadline);
    };
    assert_eq!(answered["game"]["turn"], "red");
    assert_eq!(answered["game"]["thinking"], false);
    let black = &answered["game"]["black"];
    assert_eq!((black["kind"].as_str(), black["level"].as_u64()), (Some("engine"), Some(1)));
    assert_eq!(black["elo"], json!(crate::serve::strength::Strength::Level(1).elo()));
    let state = last_state(&me.send(&lobby, &action_message(&id, &token, &Action::AskUndo)));
    assert_eq!(state["game"]["moves"].as_array().unwrap().len(), 0);
    assert_eq!(state["game"]["turn"], "red");
}

#[test]
fn only_the_invitation_takes_the_open_seat_and_watchers_never_take_a_players_place() {
    let lobby = lobby_with(LobbyLimits { max_followers: 2, ..LobbyLimits::default() }, None);
    let mut red = Client::new(&lobby);
    let joined = red.send(&lobby, r#"{"type":"create","opponent":"friend","side":"red"}"#)[0].clone();
    let id = joined["game"].as_str().unwrap().to_string();
    let (rt, invite) =
        (joined["token"].as_str().unwrap().to_string(), joined["invite"].as_str().unwrap().to_string());
    // Spectators fill their places; what they are shown names no invitation.
    let mut watchers: Vec<Client> = (0..2).map(|_| Client::new(&lobby)).collect();
    for w in &mut watchers {
        let replies = w.send(&lobby, &format!(r#"{{"type":"watch","game":"{id}"}}"#));
        assert!(replies.iter().all(|v| !v.to_string().contains(&invite)), "{replies:?}");
        let refused = w.refused(&lobby, &format!(r#"{{"type":"join","game":"{id}","invite":"{id}"}}"#));
        assert_eq!(refused, LobbyError::NotInvited.to_string());
    }
    let mut late = Client::new(&lobby);
    assert_eq!(
        late.refused(&lobby, &format!(r#"{{"type":"watch","game":"{id}"}}"#)),
        LobbyError::TooManyFollowers.to_string()
    );
    // The creator reconnects and is told the invitation again; the friend joins with it.
    let mut again = Client::new(&lobby);
    let replies = again.send(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
    assert_eq!(
        (replies[0]["color"].as_str(), replies[0]["invite"].as_str()),
        (Some("red"), Some(invite.as_str()))
    );
    let mut friend = Client::new(&lobby);
    let replies = friend.send(&lobby, &format!(r#"{{"type":"join","game":"{id}","invite":"{invite}"}}"#));
    assert_eq!(replies[0]["color"], "black");
    // A seat's connections beyond its own few push out its oldest, never a refusal.
    for _ in 0..SEAT_CONNECTIONS + 2 {
        let replies =
            Client::new(&lobby).send(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
        assert_eq!(replies[0]["type"], "joined");
    }
    // Only a wrong token is said to be unknown: the page forgets a token on that code alone.
    let wrong = format!(r#"{{"type":"resume","game":"{id}","token":"nosuchtoken"}}"#);
    lobby.handle(&mut late.connection, &wrong);
    let error: Value = serde_json::from_str(&late.inbox.try_recv().unwrap()).unwrap();
    assert_eq!(error["code"], "unknown_token");
    lobby.handle(&mut late.connection, &format!(r#"{{"type":"watch","game":"{id}"}}"#));
    let error: Value = serde_json::from_str(&late.inbox.try_recv().unwrap()).unwrap();
    assert!(error["code"].is_null(), "{error}");
}

/// A client at another address.
fn client_at(lobby: &Lobby, address: [u8; 4]) -> Client {
    let (sender, inbox) = bounded(4096);
    Client::from(lobby, IpAddr::from(address), sender, inbox)
}

#[test]
fn one_address_cannot_fill_the_server_with_games() {
    let limits = LobbyLimits { max_games: 10, max_games_per_client: 3, ..LobbyLimits::default() };
    let lobby = lobby_with(limits, None);
    let mut flooder = client_at(&lobby, [10, 0, 0, 66]);
    let mut second_tab = client_at(&lobby, [10, 0, 0, 66]);
    let create = r#"{"type":"create","opponent":"friend"}"#;
    for _ in 0..3 {
        assert_eq!(flooder.send(&lobby, create)[0]["type"], "joined");
    }
    // Every further game from that address is refused, from any of its connections, PGNs too.
    for _ in 0..100 {
        assert!(flooder.refused(&lobby, create).starts_with("your address holds 3 games"));
    }
    let pgn = json!({"type": "load_pgn", "pgn": "1. h2e2 *"}).to_string();
    assert!(second_tab.refused(&lobby, &pgn).starts_with("your address holds 3 games"));
    assert_eq!(lobby.game_count(), 3);
    // Someone else still gets a game.
    let mut victim = client_at(&lobby, [10, 0, 0, 7]);
    assert_eq!(victim.send(&lobby, create)[0]["type"], "joined");
}

#[test]
fn an_engine_games_clock_waits_while_its_search_waits_for_an_engine() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    // Two full-strength searches queued first, from another address, keep the one engine busy.
    let mut flooder = client_at(&lobby, [10, 0, 0, 66]);
    for _ in 0..2 {
        flooder.send(&lobby, r#"{"type":"create","opponent":"engine","level":20,"side":"black"}"#);
    }
    // The victim plays Red: clocks start at the first move, so the engine's answer is timed.
    let mut victim = client_at(&lobby, [10, 0, 0, 7]);
    let replies =
        victim.send(&lobby, r#"{"type":"create","opponent":"engine","level":20,"side":"red","minutes":1}"#);
    let joined = replies.iter().find(|v| v["type"] == "joined").expect("joined");
    let (id, token) =
        (joined["game"].as_str().unwrap().to_string(), joined["token"].as_str().unwrap().to_string());
    let replies = victim.send(&lobby, &play(&id, &token, "h2e2"));
    let clock = &last_state(&replies)["game"]["clock"];
    assert_eq!(
        (clock["running"].as_bool(), clock["black_ms"].as_u64()),
        (Some(false), Some(60_000)),
        "Black's clock waits while its search waits for the engine: {clock}"
    );
    // The clock starts with the search, and what the engine used is its search's time alone.
    let mut started = None;
    let deadline = Instant::now() + Duration::from_secs(120);
    let moved = loop {
        assert!(Instant::now() < deadline, "the engine never moved");
        let Ok(text) = victim.inbox.recv_timeout(Duration::from_secs(120)) else { continue };
        let v: Value = serde_json::from_str(&text).unwrap();
        if v["type"] != "state" {
            continue;
        }
        if v["game"]["moves"].as_array().unwrap().len() == 2 {
            break v;
        }
        if v["game"]["clock"]["running"] == true && started.is_none() {
            started = Some(Instant::now());
        }
    };
    let searched = started.expect("a state with the engine's clock running").elapsed();
    let used = 60_000 - moved["game"]["clock"]["black_ms"].as_u64().unwrap();
    assert!(used <= searched.as_millis() as u64 + 1000, "used {used} ms in a search of {searched:?}");
}

#[test]
fn players_are_warned_when_their_game_cannot_be_saved() {
    fn full_disk(_: &mut std::fs::File, _: &[u8]) -> std::io::Result<()> {
        Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "No space left on device"))
    }
    let dir = std::env::temp_dir().join(format!("chariot-lobby-full-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let lobby = lobby_with(LobbyLimits::default(), Some(Store::open(&dir).unwrap().with_append(full_disk)));
    let mut red = Client::new(&lobby);
    let replies = red.send(&lobby, r#"{"type":"create","opponent":"friend","side":"red"}"#);
    let warning = replies.iter().find(|v| v["type"] == "warning").expect("a warning");
    assert!(warning["message"].as_str().unwrap().starts_with("this game could not be saved"), "{warning}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rematchs_invitation_goes_to_the_opponent_alone() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, bt) = friend_game(&lobby);
    let mut watcher = Client::new(&lobby);
    watcher.send(&lobby, &format!(r#"{{"type":"watch","game":"{id}"}}"#));
    black.send(&lobby, &action_message(&id, &bt, &Action::Resign));
    red.drain();
    watcher.drain();
    // Red makes the new game (sides swapped) and offers it through the finished one.
    let mut red_next = Client::new(&lobby);
    let created = red_next.send(&lobby, r#"{"type":"create","opponent":"friend","side":"black"}"#);
    let next = created[0]["game"].as_str().unwrap().to_string();
    let invite = created[0]["invite"].as_str().unwrap().to_string();
    let offer = |game: &str, invite: &str| {
        action_message(&id, &rt, &Action::OfferRematch { game: game.into(), invite: invite.into() })
    };
    let bad = "a rematch names a new game of yours that waits for its opponent, with its invitation";
    // Someone else's game (its secret unknown to Red), a made-up invitation, the finished game
    // itself, no game: refused, and nothing shown.
    let mut stranger = Client::new(&lobby);
    let theirs = stranger.send(&lobby, r#"{"type":"create","opponent":"friend"}"#)[0]["game"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(red.refused(&lobby, &offer(&theirs, &invite)), bad);
    assert_eq!(red.refused(&lobby, &offer(&next, "madeup")), bad);
    assert_eq!(red.refused(&lobby, &offer(&id, &invite)), bad);
    assert_eq!(red.refused(&lobby, &offer("nosuchgame", &invite)), bad);
    assert!(black.drain().iter().all(|v| v["type"] != "state"), "nothing changed");
    // The real offer: Black's state carries the invitation; Red's and the spectator's do not.
    let replies = red.send(&lobby, &offer(&next, &invite));
    let mine = last_state(&replies);
    assert_eq!(mine["game"]["rematch"], serde_json::json!({"by": "red", "game": next}));
    let theirs = last_state(&black.drain());
    assert_eq!(theirs["game"]["rematch"], serde_json::json!({"by": "red", "game": next, "invite": invite}));
    let watched = last_state(&watcher.drain());
    assert!(watched["game"]["rematch"]["invite"].is_null(), "{watched}");
    assert!(!watched.to_string().contains(&invite), "the secret is nowhere in a spectator's state");
    // Black takes the new game's seat with it.
    let mut black_next = Client::new(&lobby);
    let joined =
        black_next.send(&lobby, &format!(r#"{{"type":"join","game":"{next}","invite":"{invite}"}}"#));
    assert_eq!(joined[0]["color"], "red");
}

#[test]
fn no_board_gives_engine_help_at_a_position_a_live_game_stands_at() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, _black, id, rt, _bt) = friend_game(&lobby);
    red.send(&lobby, &play(&id, &rt, "h2e2"));
    // An analysis board of the live game's moves, another set up mirrored, a finished game's
    // variation reaching it: none is analysed, evaluated or curved there.
    let mut helper = Client::new(&lobby);
    let mut board = |pgn: &str| {
        let load = serde_json::json!({"type": "load_pgn", "pgn": pgn}).to_string();
        helper.send(&lobby, &load)[0]["game"].as_str().unwrap().to_string()
    };
    let copy = board("1. h2e2 *\n");
    let mirrored = board("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b\"]\n\n*\n");
    let (_f_red, mut f_black, finished, _frt, fbt) = friend_game(&lobby);
    f_black.send(&lobby, &action_message(&finished, &fbt, &Action::Resign));
    let refusal = "no engine help at this position: a game being played stands there now";
    let asks = [
        format!(r#"{{"type":"analyse","game":"{copy}","ply":1}}"#),
        format!(r#"{{"type":"evaluate","game":"{copy}"}}"#),
        format!(r#"{{"type":"curve","game":"{copy}"}}"#),
        format!(r#"{{"type":"evaluate","game":"{mirrored}"}}"#),
        format!(r#"{{"type":"analyse","game":"{finished}","ply":0,"line":["h2e2"]}}"#),
    ];
    for ask in &asks {
        assert_eq!(helper.refused(&lobby, ask), refusal, "{ask}");
    }
    // Elsewhere the help is open: the board's start, another line of the finished game.
    let start = helper.send(&lobby, &format!(r#"{{"type":"evaluate","game":"{copy}","ply":0}}"#));
    assert_eq!(start[0]["type"], "evaluation", "{start:?}");
    let other = helper.send(&lobby, &format!(r#"{{"type":"evaluate","game":"{finished}","line":["h0g2"]}}"#));
    assert_eq!(other[0]["type"], "evaluation", "{other:?}");
    // The live game ends: its position is open again.
    red.send(&lobby, &action_message(&id, &rt, &Action::Resign));
    let freed = helper.send(&lobby, &asks[3]);
    assert_eq!(freed[0]["type"], "evaluation", "{freed:?}");
}

#[test]
fn watchers_coming_and_going_send_the_others_a_small_followers_message_not_a_state() {
    let lobby = lobby_with(LobbyLimits::default(), None);
    let (mut red, mut black, id, rt, _) = friend_game(&lobby);
    red.send(&lobby, &play(&id, &rt, "h2e2"));
    black.drain();
    red.drain();
    let mut watcher = Client::new(&lobby);
    let replies = watcher.send(&lobby, &format!(r#"{{"type":"watch","game":"{id}"}}"#));
    // The newcomer gets the whole state, with itself counted.
    assert_eq!(last_state(&replies)["game"]["spectators"], 1);
    assert_eq!(last_state(&replies)["game"]["moves"][0]["iccs"], "h2e2");
    // The players get who follows now, and no state.
    for player in [&mut red, &mut black] {
        let got = player.drain();
        assert!(got.iter().all(|v| v["type"] != "state"), "{got:?}");
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0]["type"], "followers");
        assert_eq!((got[0]["game"].as_str(), got[0]["spectators"].as_u64()), (Some(id.as_str()), Some(1)));
        assert_eq!(
            (got[0]["online"]["red"].as_bool(), got[0]["online"]["black"].as_bool()),
            (Some(true), Some(true))
        );
        assert!(got[0].to_string().len() < 200);
    }
    // Black's page closes: the others are told Black is offline, in a small message again.
    lobby.disconnect(&mut black.connection);
    for client in [&mut red, &mut watcher] {
        let got = client.drain();
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0]["type"], "followers");
        assert_eq!(got[0]["online"]["black"], false);
        assert_eq!(got[0]["spectators"], 1);
    }
    // The watcher leaves: Red is told there is nobody watching.
    lobby.disconnect(&mut watcher.connection);
    let got = red.drain();
    assert_eq!(
        (got.len(), got[0]["type"].as_str(), got[0]["spectators"].as_u64()),
        (1, Some("followers"), Some(0))
    );
}

#[test]
fn an_analysis_says_the_tablebases_verdict_where_they_hold_the_position() {
    let dir = std::env::temp_dir().join(format!("chariot-lobby-egtb-{}", std::process::id()));
    let wanted: Vec<crate::egtb::Signature> = vec!["KRK".parse().unwrap()];
    let tables = crate::egtb::build::build(&wanted, &dir, u64::MAX, |_, _| {}).unwrap();
    let lobby = Lobby::with_tablebases(LobbyLimits::default(), None, 1, 1, Some(Arc::new(tables))).unwrap().0;
    let mut viewer = Client::new(&lobby);
    let ask_at = |viewer: &mut Client, fen: &str| -> Value {
        let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n*\n");
        let replies = viewer.send(&lobby, &serde_json::json!({"type": "load_pgn", "pgn": pgn}).to_string());
        let id = replies[0]["game"].as_str().unwrap().to_string();
        assert!(viewer.send(&lobby, &format!(r#"{{"type":"analyse","game":"{id}","ply":0}}"#)).is_empty());
        serde_json::from_str(&viewer.inbox.recv_timeout(Duration::from_secs(60)).unwrap()).unwrap()
    };
    // King and rook against the bare king: a win for Red, to move, with its mate distance.
    let answer = ask_at(&mut viewer, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    assert_eq!(answer["type"], "analysis");
    let table = &answer["tablebase"];
    assert_eq!((table["result"].as_str(), table["rule"].as_bool()), (Some("win"), Some(false)), "{answer}");
    assert!(table["plies"].as_u64().unwrap() % 2 == 1, "{answer}");
    assert!(table["text"].as_str().unwrap().starts_with("win, mate in"), "{answer}");
    // The start position: no table holds it, and the analysis says nothing of one.
    let answer = ask_at(&mut viewer, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert!(answer["tablebase"].is_null(), "{answer}");
    let _ = std::fs::remove_dir_all(&dir);
}
