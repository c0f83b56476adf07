//! Load test of `chariot serve` on loopback (a benchmark, not a test): `--games` friend games at
//! once, each two WebSocket clients on threads of their own playing random legal moves (seeded)
//! until the game ends or `--plies` are played. Reports the move answer latency (from sending a
//! move to the mover receiving the new state) and, with `--pid`, the server's peak RSS.
//!
//! ```text
//! chariot serve --bind 127.0.0.1:8090 --max-games-per-client 500 --max-connections-per-client 1000 &
//! cargo run --release --example serve_load -- --addr 127.0.0.1:8090 --games 50 --plies 60 --pid $!
//! ```

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

struct Options {
    addr: String,
    games: usize,
    plies: usize,
    pid: Option<u32>,
}

fn options() -> Options {
    let mut o = Options { addr: "127.0.0.1:8088".into(), games: 50, plies: 60, pid: None };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--addr" => o.addr = value,
            "--games" => o.games = value.parse().expect("--games N"),
            "--plies" => o.plies = value.parse().expect("--plies N"),
            "--pid" => o.pid = Some(value.parse().expect("--pid PID")),
            other => panic!("unknown option {other}"),
        }
    }
    o
}

fn connect(addr: &str) -> Socket {
    let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("connect");
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.set_nodelay(true).unwrap();
    }
    ws
}

fn read(ws: &mut Socket) -> Value {
    loop {
        match ws.read().expect("read") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Message::Close(_) => panic!("closed"),
            _ => {}
        }
    }
}

/// Reads until a message of `kind`; an error message fails the run.
fn until(ws: &mut Socket, kind: &str, errors: &AtomicU64) -> Value {
    loop {
        let v = read(ws);
        if v["type"] == "error" {
            errors.fetch_add(1, Ordering::Relaxed);
            eprintln!("error: {}", v["message"]);
        }
        if v["type"] == kind {
            return v;
        }
    }
}

/// One player's side of a game: wait for its turn, play a random legal move, time the answer.
fn play(mut ws: Socket, game: String, token: String, color: &str, seed: u64, plies: usize, shared: &Shared) {
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        let state = until(&mut ws, "state", &shared.errors);
        let g = &state["game"];
        let played = g["moves"].as_array().map_or(0, Vec::len);
        if !g["result"].is_null() || played >= plies {
            return;
        }
        if g["turn"] != color || g["black"]["kind"] == "open" {
            continue;
        }
        let legal = g["legal"].as_array().unwrap();
        let mv = legal[rng.gen_range(0..legal.len())].as_str().unwrap().to_string();
        let sent = Instant::now();
        let text = format!(r#"{{"type":"move","game":"{game}","token":"{token}","move":"{mv}"}}"#);
        ws.send(Message::text(text)).expect("send");
        loop {
            let answer = until(&mut ws, "state", &shared.errors);
            if answer["game"]["moves"].as_array().map_or(0, Vec::len) == played + 1 {
                shared.latencies.lock().unwrap().push(sent.elapsed());
                if !answer["game"]["result"].is_null() || played + 1 >= plies {
                    return;
                }
                break;
            }
        }
    }
}

struct Shared {
    latencies: Mutex<Vec<Duration>>,
    errors: AtomicU64,
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let o = options();
    let shared = Arc::new(Shared { latencies: Mutex::new(Vec::new()), errors: AtomicU64::new(0) });
    let done = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(AtomicU64::new(0));
    let before = o.pid.and_then(rss_kib);
    let sampler = o.pid.map(|pid| {
        let (done, peak) = (done.clone(), peak.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(kib) = rss_kib(pid) {
                    peak.fetch_max(kib, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    });
    let start = Instant::now();
    let mut threads = Vec::new();
    for i in 0..o.games {
        let mut red = connect(&o.addr);
        red.send(Message::text(r#"{"type":"create","opponent":"friend","side":"red","minutes":30}"#))
            .unwrap();
        let joined = until(&mut red, "joined", &shared.errors);
        let game = joined["game"].as_str().unwrap().to_string();
        let red_token = joined["token"].as_str().unwrap().to_string();
        let invite = joined["invite"].as_str().unwrap_or_default().to_string();
        let mut black = connect(&o.addr);
        black
            .send(Message::text(format!(r#"{{"type":"join","game":"{game}","invite":"{invite}"}}"#)))
            .unwrap();
        let joined = until(&mut black, "joined", &shared.errors);
        let black_token = joined["token"].as_str().unwrap().to_string();
        for (ws, token, color, seed) in
            [(red, red_token, "red", 2 * i as u64), (black, black_token, "black", 2 * i as u64 + 1)]
        {
            let (game, shared, plies) = (game.clone(), shared.clone(), o.plies);
            threads.push(std::thread::spawn(move || play(ws, game, token, color, seed, plies, &shared)));
        }
    }
    for t in threads {
        t.join().expect("a player thread failed");
    }
    let elapsed = start.elapsed();
    done.store(true, Ordering::Relaxed);
    if let Some(s) = sampler {
        let _ = s.join();
    }
    let mut latencies = shared.latencies.lock().unwrap().clone();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1000.0;
    println!(
        "games {} moves {} in {:.1} s ({:.0} moves/s)",
        o.games,
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "move answer latency ms: p50 {:.2} p95 {:.2} p99 {:.2} max {:.2}",
        at(0.5),
        at(0.95),
        at(0.99),
        at(1.0)
    );
    println!("errors {}", shared.errors.load(Ordering::Relaxed));
    if let Some(pid) = o.pid {
        println!(
            "server RSS KiB: before {} peak {} after {}",
            before.unwrap_or(0),
            peak.load(Ordering::Relaxed),
            rss_kib(pid).unwrap_or(0)
        );
    }
    if shared.errors.load(Ordering::Relaxed) > 0 {
        std::process::exit(1);
    }
}
