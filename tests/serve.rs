//! `chariot serve` as browsers use it, over real sockets: the page and its files over HTTP, two
//! players and a spectator over WebSockets playing to mate with an agreed take-back, the PGN it
//! saves replayed by `chariot judge`, a restart that loses nothing, and hostile input refused.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::{Message, WebSocket};

/// A `chariot serve` process on a free port, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(data: &Path) -> Server {
        let mut child = Command::new(common::chariot_bin())
            .args(["serve", "--bind", "127.0.0.1:0", "--engines", "1", "--hash", "1", "--data"])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let port = loop {
            let line = lines.next().expect("the server prints its address").unwrap();
            if let Some(rest) = line.strip_prefix("chariot serve: open http://127.0.0.1:") {
                break rest.trim_end_matches('/').parse().unwrap();
            }
        };
        Server { child, port }
    }

    /// Sends `request` (with `Host: 127.0.0.1` when it names none) and reads the answer.
    fn http(&self, request: &str) -> String {
        let request = if request.to_ascii_lowercase().contains("\r\nhost:") || !request.contains("\r\n") {
            request.to_string()
        } else {
            request.replacen("\r\n", "\r\nHost: 127.0.0.1\r\n", 1)
        };
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    }

    fn client(&self) -> Client {
        let (ws, _) = tungstenite::connect(format!("ws://127.0.0.1:{}/ws", self.port)).unwrap();
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
        Client { ws }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    ws: WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
}

impl Client {
    fn send(&mut self, text: &str) {
        self.ws.send(Message::text(text)).unwrap();
    }

    fn next(&mut self) -> Value {
        loop {
            match self.ws.read().expect("a message") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("closed"),
                _ => {}
            }
        }
    }

    /// Reads until a message of `kind` that `wanted` accepts.
    fn until(&mut self, kind: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            assert!(Instant::now() < deadline, "no {kind} came");
            let v = self.next();
            if v["type"] == kind && wanted(&v) {
                return v;
            }
        }
    }

    fn plies(&mut self, n: usize) -> Value {
        self.until("state", |v| v["game"]["moves"].as_array().unwrap().len() == n)
    }
}

/// The join message of the creator's share link, from the creator's `joined`.
fn join(created: &Value) -> String {
    format!(
        r#"{{"type":"join","game":"{}","invite":"{}"}}"#,
        created["game"].as_str().unwrap(),
        created["invite"].as_str().unwrap()
    )
}

/// A friend game with both seats taken: (red, black, game id, Red's token, Black's token).
fn friend_game(server: &Server) -> (Client, Client, String, String, String) {
    let mut red = server.client();
    red.send(r#"{"type":"create","opponent":"friend","side":"red"}"#);
    let created = red.until("joined", |_| true);
    let id = created["game"].as_str().unwrap().to_string();
    let red_token = created["token"].as_str().unwrap().to_string();
    let mut black = server.client();
    black.send(&join(&created));
    let black_token = black.until("joined", |_| true)["token"].as_str().unwrap().to_string();
    (red, black, id, red_token, black_token)
}

fn act(kind: &str, game: &str, token: &str) -> String {
    format!(r#"{{"type":"{kind}","game":"{game}","token":"{token}"}}"#)
}

fn mv(game: &str, token: &str, m: &str) -> String {
    format!(r#"{{"type":"move","game":"{game}","token":"{token}","move":"{m}"}}"#)
}

#[test]
fn two_players_and_a_spectator_play_to_mate_and_the_pgn_replays() {
    let dir = common::scratch_dir("serve", "mate");
    let server = Server::start(&dir);
    let page = server.http("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert!(page.starts_with("HTTP/1.1 200 OK") && page.contains("<svg id=\"board\""), "{page}");
    assert!(server.http("GET /board.js HTTP/1.1\r\n\r\n").contains("ChariotBoard"));
    assert!(server.http("GET /nothing HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
    assert!(server.http("\x16\x03\x01garbage\r\n\r\n").starts_with("HTTP/1.1 400"));

    let mut red = server.client();
    red.send(r#"{"type":"create","opponent":"friend","side":"red","minutes":10,"increment":5}"#);
    let joined = red.until("joined", |_| true);
    let id = joined["game"].as_str().unwrap().to_string();
    let rt = joined["token"].as_str().unwrap().to_string();
    let mut black = server.client();
    black.send(&join(&joined));
    let joined = black.until("joined", |_| true);
    assert_eq!(joined["color"], "black");
    let bt = joined["token"].as_str().unwrap().to_string();
    let mut watcher = server.client();
    watcher.send(&format!(r#"{{"type":"watch","game":"{id}"}}"#));
    assert_eq!(watcher.until("joined", |_| true)["role"], "spectator");

    // A wrong move, then the first two moves; Black takes back a poor reply with Red's consent.
    red.send(&mv(&id, &rt, "h2h8"));
    assert!(red.until("error", |_| true)["message"].as_str().unwrap().starts_with("illegal move"));
    watcher.send(&mv(&id, &rt, "b2b4"));
    assert_eq!(watcher.until("error", |_| true)["message"], "spectators cannot play");
    red.send(&mv(&id, &rt, "b2b4"));
    black.plies(1);
    black.send(&mv(&id, &bt, "h9g7"));
    red.plies(2);
    black.send(&act("ask_undo", &id, &bt));
    red.until("state", |v| v["game"]["undo_request"] == "black");
    red.send(&act("agree_undo", &id, &rt));
    black.until("state", |v| {
        v["game"]["moves"].as_array().unwrap().len() == 1 && v["game"]["undo_request"].is_null()
    });
    for (i, m) in ["d9e8", "b4g4", "c9a7", "g4g9"].iter().enumerate() {
        let (client, token) = if i % 2 == 0 { (&mut black, &bt) } else { (&mut red, &rt) };
        client.send(&mv(&id, token, m));
        client.plies(i + 2);
    }
    let end = watcher.plies(5);
    assert_eq!(end["game"]["result"]["text"], "red wins: checkmate");
    assert_eq!(end["game"]["result"]["score"], "1-0");

    // The saved PGN, over HTTP and on disk, replays to the same verdict in `chariot judge`.
    let pgn_path = dir.join("pgn").join(format!("{id}.pgn"));
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    assert!(server.http(&format!("GET /pgn/{id}.pgn HTTP/1.1\r\n\r\n")).ends_with(&pgn));
    let games = chariot::notation::read_pgn(&pgn).unwrap();
    let moves: Vec<String> = games[0].moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves, ["b2b4", "d9e8", "b4g4", "c9a7", "g4g9"]);
    let judged =
        Command::new(common::chariot_bin()).arg("judge").arg("--moves").args(&moves).output().unwrap();
    let text = String::from_utf8(judged.stdout).unwrap();
    assert!(text.ends_with("result 1-0 ply 5 reason checkmate\n"), "{text}");
    assert!(pgn.contains("[Termination \"checkmate\"]") && pgn.contains("[Result \"1-0\"]"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_restarted_server_gives_the_players_their_game_back() {
    let dir = common::scratch_dir("serve", "restart");
    let (id, rt, bt) = {
        let server = Server::start(&dir);
        let (mut red, mut black, id, rt, bt) = friend_game(&server);
        red.send(&mv(&id, &rt, "h2e2"));
        black.plies(1);
        (id, rt, bt)
    };
    let server = Server::start(&dir);
    let mut black = server.client();
    black.send(&format!(r#"{{"type":"resume","game":"{id}","token":"{bt}"}}"#));
    assert_eq!(black.until("joined", |_| true)["color"], "black");
    let state = black.plies(1);
    assert_eq!(state["game"]["moves"][0]["chinese"], "炮二平五");
    black.send(&mv(&id, &bt, "马8进7"));
    black.plies(2);
    let mut red = server.client();
    red.send(&format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
    assert_eq!(red.plies(2)["game"]["turn"], "red");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hostile_input_is_refused_and_the_server_goes_on() {
    let dir = common::scratch_dir("serve", "hostile");
    let server = Server::start(&dir);
    let mut client = server.client();
    client.send("not json at all");
    assert_eq!(client.until("error", |_| true)["message"], "the message is not JSON");
    client.send(&format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(5000)));
    assert!(client.until("error", |_| true)["message"].as_str().unwrap().contains("at most 4096"));
    client.send(r#"{"type":"ping"}"#);
    client.until("pong", |_| true);
    // A message past the frame limit closes that connection only.
    let mut big = server.client();
    let _ = big.ws.send(Message::text("y".repeat(200_000)));
    let mut closed = false;
    for _ in 0..5 {
        match big.ws.read() {
            Ok(Message::Text(t)) => assert!(t.as_str().contains("too large"), "{}", t.as_str()),
            Ok(_) => {}
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert!(closed, "the connection stayed open");
    // A head that never ends, and a WebSocket from another site, are refused.
    let huge_head = format!("GET / HTTP/1.1\r\nX: {}\r\n", "z".repeat(40_000));
    assert!(server.http(&huge_head).starts_with("HTTP/1.1 431"));
    let foreign = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                   Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://evil.example\r\n\r\n";
    assert!(server.http(foreign).starts_with("HTTP/1.1 403"));
    client.send(r#"{"type":"ping"}"#);
    client.until("pong", |_| true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pasted_pgn_is_stepped_evaluated_analysed_and_curved() {
    let dir = common::scratch_dir("serve", "review");
    let server = Server::start(&dir);
    let levels: Value = {
        let answer = server.http("GET /levels.json HTTP/1.1\r\n\r\n");
        serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap()
    };
    assert_eq!(levels["levels"].as_array().unwrap().len(), 21);
    assert_eq!(levels["default"], 5);

    let mut viewer = server.client();
    // A malformed PGN: one error naming the move, and no board.
    let bad = serde_json::json!({"type": "load_pgn", "pgn": "1. h2e2 h9g7\n2. h2h8 *"}).to_string();
    viewer.send(&bad);
    assert_eq!(
        viewer.until("error", |_| true)["message"],
        "cannot read the PGN: line 2: 'h2h8' is not a legal move"
    );
    // Past the PGN's own limit (but within a frame): refused, and the connection goes on.
    let big = serde_json::json!({"type": "load_pgn", "pgn": "x".repeat(50_000)}).to_string();
    viewer.send(&big);
    assert!(viewer.until("error", |_| true)["message"]
        .as_str()
        .unwrap()
        .ends_with("(at most 49152 for a PGN)"));
    // Red mates at ply 5 (`chariot judge`: result 1-0 ply 5 reason checkmate), with a long
    // comment so that the message is past the general 4 KiB limit.
    let comment = "好".repeat(2000);
    let pgn = format!(
        "[Event \"Lesson\"]\n[Red \"Teacher\"]\n\n1. b2b4 {{{comment}}} d9e8 2. b4g4 c9a7 3. g4g9 1-0\n"
    );
    let load = serde_json::json!({"type": "load_pgn", "pgn": pgn}).to_string();
    assert!(load.len() > 4096);
    viewer.send(&load);
    let joined = viewer.until("joined", |_| true);
    assert_eq!(joined["role"], "spectator");
    let id = joined["game"].as_str().unwrap().to_string();
    let state = viewer.plies(5);
    assert_eq!(state["game"]["result"]["text"], "red wins: checkmate");
    assert_eq!(state["game"]["red"]["name"], "Teacher");
    // A second browser opens the board's link and watches it; nobody may play on it.
    let mut other = server.client();
    other.send(&format!(r#"{{"type":"watch","game":"{id}"}}"#));
    other.plies(5);
    other.send(&mv(&id, "token", "e9d9"));
    assert_eq!(
        other.until("error", |_| true)["message"],
        "this is an analysis board of a recorded game: nobody plays in it"
    );
    // 局面评估 at move 3: Black to move, each piece's share.
    viewer.send(&format!(r#"{{"type":"evaluate","game":"{id}","ply":3}}"#));
    let evaluation = viewer.until("evaluation", |_| true);
    assert_eq!((evaluation["ply"].as_u64(), evaluation["turn"].as_str()), (Some(3), Some("black")));
    assert_eq!(evaluation["pieces"].as_array().unwrap().len(), 30);
    // An analysis of the position before the mate finds it.
    viewer.send(&format!(r#"{{"type":"analyse","game":"{id}","ply":4,"lines":1}}"#));
    let analysis = viewer.until("analysis", |_| true);
    assert_eq!(analysis["lines"][0]["iccs"][0], "g4g9");
    assert_eq!(analysis["lines"][0]["mate"], 1);
    // The curve: every ply 0 to 5, the mate scored 1-0 by the rules.
    viewer.send(&format!(r#"{{"type":"curve","game":"{id}"}}"#));
    let mut points = Vec::new();
    loop {
        let piece = viewer.until("curve", |_| true);
        points.extend(piece["points"].as_array().unwrap().iter().cloned());
        if piece["done"] == true {
            break;
        }
    }
    let plies: Vec<u64> = points.iter().map(|p| p["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, [0, 1, 2, 3, 4, 5]);
    assert_eq!(points[5]["expected"], 1.0);
    assert!(points[4]["expected"].as_f64().unwrap() > 0.9, "{}", points[4]);
    // Its PGN is the game loaded, and nothing of it was saved in --data.
    let served = server.http(&format!("GET /pgn/{id}.pgn HTTP/1.1\r\n\r\n"));
    assert!(served.contains("[Event \"Lesson\"]") && served.contains(&comment), "{served}");
    assert!(std::fs::read_dir(dir.join("games")).unwrap().next().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_game_at_a_level_and_its_evaluation() {
    let dir = common::scratch_dir("serve", "level");
    let server = Server::start(&dir);
    let mut me = server.client();
    me.send(r#"{"type":"create","opponent":"engine","level":21}"#);
    assert_eq!(me.until("error", |_| true)["message"], "'level' must be a whole number from 0 to 20");
    me.send(r#"{"type":"create","opponent":"engine","level":2,"side":"black","minutes":1}"#);
    let joined = me.until("joined", |_| true);
    assert_eq!(joined["color"], "black");
    let id = joined["game"].as_str().unwrap().to_string();
    // Chariot (Red, level 2) moves first, well inside its minute.
    let state = me.plies(1);
    let red = &state["game"]["red"];
    assert_eq!((red["kind"].as_str(), red["level"].as_u64()), (Some("engine"), Some(2)));
    assert!(red["elo"].is_i64());
    assert!(state["game"]["clock"]["red_ms"].as_u64().unwrap() > 50_000);
    let token = joined["token"].as_str().unwrap().to_string();
    me.send(&act("resign", &id, &token));
    me.until("state", |v| v["game"]["engine_help"] == true);
    me.send(&format!(r#"{{"type":"evaluate","game":"{id}"}}"#));
    let evaluation = me.until("evaluation", |_| true);
    assert_eq!((evaluation["ply"].as_u64(), evaluation["turn"].as_str()), (Some(1), Some("black")));
    let wdl: u64 = evaluation["wdl"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(wdl, 1000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nobody_gets_engine_help_in_a_live_game_and_everyone_after_its_end() {
    let dir = common::scratch_dir("serve", "fairplay");
    let server = Server::start(&dir);
    let (mut red, mut black, id, rt, bt) = friend_game(&server);
    let mut watcher = server.client();
    watcher.send(&format!(r#"{{"type":"watch","game":"{id}"}}"#));
    watcher.until("joined", |_| true);
    red.send(&mv(&id, &rt, "h2e2"));
    assert_eq!(black.plies(1)["game"]["engine_help"], false);
    // A player and a spectator ask for each kind of help: each is refused, and nothing else comes.
    let asks = [
        format!(r#"{{"type":"analyse","game":"{id}","lines":3}}"#),
        format!(r#"{{"type":"evaluate","game":"{id}","ply":1}}"#),
        format!(r#"{{"type":"curve","game":"{id}"}}"#),
    ];
    for client in [&mut black, &mut watcher] {
        for ask in &asks {
            client.send(ask);
            let refusal = client.until("error", |_| true);
            assert!(refusal["message"]
                .as_str()
                .unwrap()
                .starts_with("no engine help while the game is played"));
        }
        client.send(r#"{"type":"ping"}"#);
        loop {
            let next = client.next();
            assert!(!["analysis", "evaluation", "curve"].contains(&next["type"].as_str().unwrap()), "{next}");
            if next["type"] == "pong" {
                break;
            }
        }
    }
    // The game ends: the player and the spectator both get their answers.
    black.send(&act("resign", &id, &bt));
    assert_eq!(watcher.until("state", |v| !v["game"]["result"].is_null())["game"]["engine_help"], true);
    black.send(&asks[0]);
    assert_eq!(black.until("analysis", |_| true)["ply"], 1);
    watcher.send(&asks[1]);
    assert_eq!(watcher.until("evaluation", |_| true)["ply"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_spectators_link_takes_no_seat_and_watchers_cannot_crowd_a_player_out() {
    let dir = common::scratch_dir("serve", "seats");
    let server = Server::start(&dir);
    let mut red = server.client();
    red.send(r#"{"type":"create","opponent":"friend","side":"red"}"#);
    let created = red.until("joined", |_| true);
    let id = created["game"].as_str().unwrap().to_string();
    let rt = created["token"].as_str().unwrap().to_string();
    // 32 spectators (the default limit) and one more that keeps asking.
    let mut watchers: Vec<Client> = (0..32).map(|_| server.client()).collect();
    for w in &mut watchers {
        w.send(&format!(r#"{{"type":"watch","game":"{id}"}}"#));
        let joined = w.until("joined", |_| true);
        assert!(joined["invite"].is_null() && joined["token"].is_null(), "{joined}");
    }
    let mut grabber = server.client();
    grabber.send(&format!(r#"{{"type":"watch","game":"{id}"}}"#));
    assert_eq!(
        grabber.until("error", |_| true)["message"],
        "this game has as many connections as it can hold"
    );
    // The spectators' link carries the id only: joining with it (or a guess) takes no seat.
    for invite in [id.as_str(), "0", rt.as_str()] {
        watchers[0].send(&format!(r#"{{"type":"join","game":"{id}","invite":"{invite}"}}"#));
        let refusal = watchers[0].until("error", |_| true);
        assert!(
            refusal["message"].as_str().unwrap().starts_with("this link does not invite you"),
            "{refusal}"
        );
        assert!(refusal["code"].is_null());
    }
    watchers[0].send(&format!(r#"{{"type":"join","game":"{id}"}}"#));
    assert_eq!(watchers[0].until("error", |_| true)["message"], "the message has no 'invite'");
    // The player reloads while the game is full of watchers: the seat comes back.
    drop(red);
    let mut red = server.client();
    red.send(&format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
    let back = red.until("joined", |_| true);
    assert_eq!((back["color"].as_str(), back["invite"].as_str()), (Some("red"), created["invite"].as_str()));
    // An error after the resume names no code; only an unknown token is said to be one.
    red.send(&act("offer_draw", &id, &rt));
    red.send(&act("offer_draw", &id, &rt));
    red.send(r#"{"type":"ping"}"#);
    let mut refusals = 0;
    loop {
        let next = red.next();
        if next["type"] == "pong" {
            break;
        }
        if next["type"] == "error" {
            assert!(next["code"].is_null(), "{next}");
            refusals += 1;
        }
    }
    assert!(refusals >= 1);
    red.send(&format!(r#"{{"type":"resume","game":"{id}","token":"wrongtoken"}}"#));
    assert_eq!(red.until("error", |_| true)["code"], "unknown_token");
    // The invited friend takes the seat.
    let mut black = server.client();
    black.send(&join(&created));
    assert_eq!(black.until("joined", |_| true)["color"], "black");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A legal game of up to `plies` moves in ICCS (a fixed pseudo-random walk), as PGN.
fn long_pgn(plies: usize) -> (String, usize) {
    use chariot::board::{movegen, Position};
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    while moves.len() < plies && chariot::rules::game_result(&position).is_none() {
        let legal = movegen::legal_moves(&mut position.clone());
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mv = legal.as_slice()[(seed >> 33) as usize % legal.len()];
        position.make_move(mv);
        moves.push(mv.to_string());
    }
    (format!("{} *\n", moves.join(" ")), moves.len())
}

/// The server's resident memory in KiB (Linux).
fn rss_kib(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn watchers_that_do_not_read_are_dropped_not_buffered_for() {
    let dir = common::scratch_dir("serve", "slowreaders");
    let server = Server::start(&dir);
    let (pgn, plies) = long_pgn(1000);
    let line: Vec<String> = pgn.split_whitespace().filter(|m| *m != "*").map(String::from).collect();
    assert_eq!(line.len(), plies);
    let (mut red, mut black, game, red_token, black_token) = friend_game(&server);
    // 30 watchers of the game that never read again (32 may watch a game).
    let mut sleepers: Vec<Client> = (0..30).map(|_| server.client()).collect();
    for s in &mut sleepers {
        s.send(&format!(r#"{{"type":"watch","game":"{game}"}}"#));
        s.until("joined", |_| true);
    }
    let before = rss_kib(&server);
    // The players play the long game, reading every state as a browser does: each move is a
    // state (the whole move list) for every watcher.
    let mut sent_each = 0;
    for (i, m) in line.iter().enumerate() {
        let (mover, token) = if i % 2 == 0 { (&mut red, &red_token) } else { (&mut black, &black_token) };
        mover.send(&mv(&game, token, m));
        sent_each += red.plies(i + 1).to_string().len();
        black.plies(i + 1);
    }
    let grown = rss_kib(&server).saturating_sub(before);
    // Were they all kept, each watcher would hold every state.
    assert!(sent_each * 30 > 100 << 20, "the states are too small to tell: {sent_each} bytes each");
    assert!(grown < 40 << 10, "the server grew by {grown} KiB for 30 watchers that do not read");
    // They were cut off: reading one finds the end of its stream soon, not after 10 s.
    let started = Instant::now();
    let sleeper = &mut sleepers[0];
    loop {
        match sleeper.ws.read() {
            Ok(_) => assert!(started.elapsed() < Duration::from_secs(8), "still connected"),
            Err(_) => {
                assert!(
                    started.elapsed() < Duration::from_secs(8),
                    "cut off only after {:?}",
                    started.elapsed()
                );
                break;
            }
        }
    }
    // The server goes on for everyone else.
    let mut newcomer = server.client();
    newcomer.send(r#"{"type":"ping"}"#);
    newcomer.until("pong", |_| true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rebinding_framing_and_broken_frames_are_refused_and_files_are_private() {
    let dir = common::scratch_dir("serve", "defences");
    let server = Server::start(&dir);
    // DNS rebinding: a name pointing here that the server was not given, even with a matching Origin.
    let rebound = "GET /ws HTTP/1.1\r\nHost: rebind.attacker.example:8088\r\nUpgrade: websocket\r\n\
                   Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                   Origin: http://rebind.attacker.example:8088\r\n\r\n";
    assert!(server.http(rebound).starts_with("HTTP/1.1 421"), "{}", server.http(rebound));
    assert!(server
        .http("GET / HTTP/1.1\r\nHost: rebind.attacker.example\r\n\r\n")
        .starts_with("HTTP/1.1 421"));
    for host in ["127.0.0.1", "localhost:1", "[::1]:2"] {
        let page = server.http(&format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"));
        assert!(page.starts_with("HTTP/1.1 200"), "{host}: {page}");
        // Framing: no page of another origin may frame the board.
        assert!(
            page.contains("X-Frame-Options: DENY\r\n") && page.contains("frame-ancestors 'none'"),
            "{page}"
        );
    }
    // A WebSocket frame from the client that is not masked breaks the protocol: a Close with 1002.
    let mut broken = server.client();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = broken.ws.get_mut() {
        s.write_all(&[0x81, 0x02, b'h', b'i']).unwrap();
    }
    let mut closed = None;
    for _ in 0..5 {
        match broken.ws.read() {
            Ok(Message::Close(frame)) => {
                closed = frame;
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("no Close frame, but {e}"),
        }
    }
    let frame = closed.expect("a Close frame with a reason");
    assert_eq!(u16::from(frame.code), 1002);
    assert!(!frame.reason.is_empty());
    // Saved files hold the players' tokens: this user's alone.
    let (mut red, _black, id, rt, _) = friend_game(&server);
    red.send(&mv(&id, &rt, "h2e2"));
    red.plies(1);
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir.join("games").join(format!("{id}.jsonl"))), 0o600);
    assert_eq!(mode(&dir.join("games")), 0o700);
    red.send(&act("resign", &id, &rt));
    red.until("state", |v| !v["game"]["result"].is_null());
    assert_eq!(mode(&dir.join("pgn").join(format!("{id}.pgn"))), 0o600);
    assert_eq!(mode(&dir.join("pgn")), 0o700);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_editor_and_variations_are_checked_by_the_rules() {
    let dir = common::scratch_dir("serve", "explore");
    let server = Server::start(&dir);
    let mut page = server.client();
    // 打谱: a position set up is checked by the FEN rules and answered with its legal moves.
    page.send(r#"{"type":"explore","fen":"3k5/9/9/9/9/9/9/9/9/R3K4 w","ref":1}"#);
    let legal = page.until("explored", |v| v["ref"] == 1);
    assert_eq!((legal["error"].is_null(), legal["legal"].as_array().unwrap().len()), (true, 14));
    page.send(r#"{"type":"explore","fen":"4k4/9/9/9/9/9/9/9/9/4K4 w","ref":2}"#);
    let facing = page.until("explored", |v| v["ref"] == 2);
    assert!(facing["error"].as_str().unwrap().starts_with("not a legal position: "), "{facing}");
    // A game still played has no variations.
    page.send(r#"{"type":"create","opponent":"friend"}"#);
    let live = page.until("joined", |_| true)["game"].as_str().unwrap().to_string();
    page.send(&format!(r#"{{"type":"variation","game":"{live}","ply":0,"line":["h2e2"],"ref":3}}"#));
    let refused = page.until("explored", |v| v["ref"] == 3);
    assert_eq!(refused["error"], "variations are explored once the game is over (or on an analysis board)");
    // Nor engine help (fair play), with a line or without.
    page.send(&format!(r#"{{"type":"analyse","game":"{live}","ply":0,"line":["h2e2"]}}"#));
    assert!(page.until("error", |_| true)["message"]
        .as_str()
        .unwrap()
        .starts_with("no engine help while the game is played"));
    // 中盘研究 on an analysis board: from ply 2 another line, checked move by move, then analysed
    // (its mate found) and evaluated there.
    let load = serde_json::json!({"type": "load_pgn", "pgn": "1. b2b4 d9e8 2. h2e2 h9g7 *\n"}).to_string();
    page.send(&load);
    let id = page.until("joined", |_| true)["game"].as_str().unwrap().to_string();
    page.send(&format!(r#"{{"type":"variation","game":"{id}","ply":2,"line":["b4g4","c9a7"],"ref":4}}"#));
    let line = page.until("explored", |v| v["ref"] == 4);
    let chinese: Vec<&str> =
        line["moves"].as_array().unwrap().iter().map(|m| m["chinese"].as_str().unwrap()).collect();
    assert_eq!(chinese, ["炮八平三", "象３进１"]);
    assert!(line["legal"].as_array().unwrap().iter().any(|m| m == "g4g9"));
    page.send(&format!(r#"{{"type":"variation","game":"{id}","ply":2,"line":["b4g4","c9c7"],"ref":5}}"#));
    let bad = page.until("explored", |v| v["ref"] == 5);
    assert!(bad["error"].as_str().unwrap().starts_with("move 2 of the line: "), "{bad}");
    page.send(&format!(r#"{{"type":"analyse","game":"{id}","ply":2,"line":["b4g4","c9a7"],"lines":1}}"#));
    let analysis = page.until("analysis", |_| true);
    assert_eq!(
        (analysis["fen"].clone(), analysis["lines"][0]["mate"].as_i64()),
        (line["fen"].clone(), Some(1))
    );
    assert_eq!(analysis["lines"][0]["iccs"][0], "g4g9");
    page.send(&format!(r#"{{"type":"evaluate","game":"{id}","ply":2,"line":["b4g4","c9a7"]}}"#));
    let evaluation = page.until("evaluation", |_| true);
    assert_eq!((evaluation["fen"].clone(), evaluation["turn"].as_str()), (line["fen"].clone(), Some("red")));
}
