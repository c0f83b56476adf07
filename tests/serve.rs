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

    fn http(&self, request: &str) -> String {
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
    let page = server.http("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
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
    black.send(&format!(r#"{{"type":"join","game":"{id}"}}"#));
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
        let mut red = server.client();
        red.send(r#"{"type":"create","opponent":"friend","side":"red"}"#);
        let joined = red.until("joined", |_| true);
        let (id, rt) =
            (joined["game"].as_str().unwrap().to_string(), joined["token"].as_str().unwrap().to_string());
        let mut black = server.client();
        black.send(&format!(r#"{{"type":"join","game":"{id}"}}"#));
        let bt = black.until("joined", |_| true)["token"].as_str().unwrap().to_string();
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
