//! The network side: one thread per connection reads an HTTP request (parsed by `httparse`),
//! answers it with an embedded file, a game's PGN, or a WebSocket (`tungstenite`) to the lobby.
//! A WebSocket connection has two threads: the reader hands messages to the lobby, the writer
//! sends what the lobby queued for it; their frames never interleave (one lock for writing).

use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::bounded;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::assets;
use super::connections::{ConnectionLimits, OpenConnections};
use super::lobby::Lobby;
use super::messages::ServerMessage;
use super::outbox::{Outbox, OUTBOX_CAPACITY};
use super::strength;

/// The largest request head read (request line and headers).
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Headers parsed at most.
const MAX_HEADERS: usize = 48;
/// How long a request head may take to arrive, all of it (not each byte), and a write to a
/// client.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// A WebSocket silent this long is closed (browsers ping every 25 seconds).
const IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// Frames larger than this end the connection; messages past `messages::MAX_MESSAGE_BYTES` (or
/// `MAX_PGN_MESSAGE_BYTES`) but within this get an error reply and the connection goes on.
const MAX_FRAME_BYTES: usize = 64 * 1024;

/// Connections one client (one address) may have open at once, by default: a household behind
/// one address has a few browsers, each page one WebSocket.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 100;

/// What the network side lets clients hold.
#[derive(Clone, Debug)]
pub struct HttpLimits {
    /// Open connections at once (each WebSocket holds two threads).
    pub max_connections: usize,
    /// Open connections at once from one address.
    pub max_connections_per_client: usize,
    /// Host names accepted besides IP addresses and `localhost` (`--host NAME`), lower case.
    pub host_names: Vec<String>,
}

/// Whether a request's `Host` header names this server: an IP address (which no DNS rebinding
/// can bring), `localhost`, or one of `names`; the port is not looked at.
pub fn host_allowed(host: &str, names: &[String]) -> bool {
    let host = host.trim();
    let name =
        if let Some(rest) = host.strip_prefix('[') {
            // An IPv6 literal: `[::1]:8088`.
            match rest.split_once(']') {
                Some((inside, _)) => return inside.parse::<std::net::Ipv6Addr>().is_ok(),
                None => return false,
            }
        } else {
            host.rsplit_once(':').map_or(host, |(name, port)| {
                if port.chars().all(|c| c.is_ascii_digit()) {
                    name
                } else {
                    host
                }
            })
        };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name.parse::<std::net::Ipv4Addr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
        || names.contains(&name)
}

/// Accepts connections on `listener` for ever, each on a thread of its own.
/// A full server makes the address holding the most connections give way to a newcomer
/// (`connections.rs`), so a few addresses at their own limit cannot keep everyone else out.
pub fn serve(listener: TcpListener, lobby: Arc<Lobby>, limits: HttpLimits) {
    let open = Arc::new(OpenConnections::default());
    let counted = ConnectionLimits {
        max_connections: limits.max_connections,
        max_connections_per_client: limits.max_connections_per_client,
    };
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let Ok(peer) = stream.peer_addr() else { continue };
        let client = peer.ip();
        let ticket = match open.admit(client, stream.try_clone().ok(), counted) {
            Ok(ticket) => ticket,
            Err(why) => {
                let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
                let _ = respond(&mut stream, 503, "text/plain; charset=utf-8", why.words().as_bytes(), &[]);
                continue;
            }
        };
        let (lobby, open2, limits2) = (lobby.clone(), open.clone(), limits.clone());
        let spawned = std::thread::Builder::new().name("serve-conn".into()).spawn(move || {
            handle(stream, client, &lobby, &limits2.host_names);
            open2.release(ticket);
        });
        if spawned.is_err() {
            open.release(ticket);
        }
    }
}

/// A parsed request head: what the router needs.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Why a request head was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum HeadError {
    /// The connection closed or timed out first.
    Incomplete,
    /// Longer than `MAX_HEAD_BYTES`, or too many headers.
    TooLarge,
    /// Not HTTP.
    Malformed,
}

/// Parses a request head from `bytes`: the request and where the head ends, or `None` when more
/// bytes are needed.
pub fn parse_head(bytes: &[u8]) -> Result<Option<(Request, usize)>, HeadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(bytes) {
        Ok(httparse::Status::Partial) => Ok(None),
        Ok(httparse::Status::Complete(len)) => {
            let target = request.path.unwrap_or("/");
            let path = target.split(['?', '#']).next().unwrap_or("/").to_string();
            let headers = request
                .headers
                .iter()
                .map(|h| (h.name.to_ascii_lowercase(), String::from_utf8_lossy(h.value).into_owned()))
                .collect();
            Ok(Some((Request { method: request.method.unwrap_or("").to_string(), path, headers }, len)))
        }
        Err(httparse::Error::TooManyHeaders) => Err(HeadError::TooLarge),
        Err(_) => Err(HeadError::Malformed),
    }
}

/// Reads a request head, keeping any bytes after it. The whole head must come within
/// `deadline`: a client sending a byte now and then does not hold the connection longer.
fn read_head(stream: &mut TcpStream, deadline: Duration) -> Result<(Request, Vec<u8>), HeadError> {
    let until = Instant::now() + deadline;
    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(HeadError::Incomplete);
        }
        stream.set_read_timeout(Some(left)).map_err(|_| HeadError::Incomplete)?;
        let n = stream.read(&mut chunk).map_err(|_| HeadError::Incomplete)?;
        if n == 0 {
            return Err(HeadError::Incomplete);
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some((request, len)) = parse_head(&buffer)? {
            return Ok((request, buffer.split_off(len)));
        }
        if buffer.len() > MAX_HEAD_BYTES {
            return Err(HeadError::TooLarge);
        }
    }
}

fn handle(mut stream: TcpStream, client: IpAddr, lobby: &Arc<Lobby>, host_names: &[String]) {
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_nodelay(true);
    let (request, rest) = match read_head(&mut stream, IO_TIMEOUT) {
        Ok(head) => head,
        Err(HeadError::Incomplete) => return,
        Err(HeadError::TooLarge) => {
            let _ = respond(&mut stream, 431, "text/plain; charset=utf-8", b"request head too large\n", &[]);
            return;
        }
        Err(HeadError::Malformed) => {
            let _ = respond(&mut stream, 400, "text/plain; charset=utf-8", b"bad request\n", &[]);
            return;
        }
    };
    // DNS rebinding: a page of another site whose name now points here sends its own name.
    if !request.header("host").is_some_and(|host| host_allowed(host, host_names)) {
        let body = b"unknown host name: this server answers to IP addresses, localhost and the names given with --host\n";
        let _ = respond(&mut stream, 421, "text/plain; charset=utf-8", body, &[]);
        return;
    }
    if request.path == "/ws" && request.method == "GET" {
        match upgrade(&mut stream, &request) {
            Ok(()) => websocket(stream, rest, client, lobby),
            Err(status) => {
                let _ = respond(
                    &mut stream,
                    status,
                    "text/plain; charset=utf-8",
                    b"not a WebSocket request\n",
                    &[],
                );
            }
        }
        return;
    }
    let _ = route(&mut stream, &request, lobby);
}

/// Answers a plain HTTP request.
fn route(stream: &mut TcpStream, request: &Request, lobby: &Lobby) -> io::Result<()> {
    if request.method != "GET" && request.method != "HEAD" {
        return respond(stream, 405, "text/plain; charset=utf-8", b"only GET\n", &[("Allow", "GET, HEAD")]);
    }
    let head_only = request.method == "HEAD";
    let body = |b: &'static [u8]| if head_only { &b[..0] } else { b };
    if let Some((content_type, bytes)) = assets::asset(&request.path) {
        return respond(stream, 200, content_type, body(bytes), &[]);
    }
    if request.path == "/levels.json" {
        let bytes = if head_only { Vec::new() } else { strength::levels_json().to_string().into_bytes() };
        return respond(stream, 200, "application/json", &bytes, &[]);
    }
    if let Some(id) = request.path.strip_prefix("/pgn/").and_then(|p| p.strip_suffix(".pgn")) {
        if !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric()) {
            if let Some(pgn) = lobby.pgn(id) {
                let bytes = if head_only { Vec::new() } else { pgn.into_bytes() };
                return respond(stream, 200, "application/x-chess-pgn; charset=utf-8", &bytes, &[]);
            }
        }
    }
    respond(stream, 404, "text/plain; charset=utf-8", b"not found\n", &[])
}

/// Writes a whole response and closes the exchange.
fn respond(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
    extra: &[(&str, &str)],
) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        421 => "Misdirected Request",
        426 => "Upgrade Required",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'\r\n\
         X-Frame-Options: DENY\r\n",
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// Checks a WebSocket handshake and answers it with `101`; the status to refuse it with otherwise.
fn upgrade(stream: &mut TcpStream, request: &Request) -> Result<(), u16> {
    let upgrade = request.header("upgrade").is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let version = request.header("sec-websocket-version") == Some("13");
    let Some(key) = request.header("sec-websocket-key").filter(|_| upgrade && version) else {
        return Err(426);
    };
    // A page on another site must not play in a visitor's name (cross-site WebSocket hijacking).
    if let (Some(origin), Some(host)) = (request.header("origin"), request.header("host")) {
        let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
        if !origin_host.eq_ignore_ascii_case(host) {
            return Err(403);
        }
    }
    let accept = tungstenite::handshake::derive_accept_key(key.trim().as_bytes());
    let answer = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(answer.as_bytes()).map_err(|_| 400)
}

/// One end of a WebSocket's socket: reads go straight to it; every write holds the socket's
/// write lock and writes its bytes whole, so the reader's replies (pong, close) and the writer's
/// messages never interleave.
struct Half {
    socket: Arc<TcpStream>,
    write_lock: Arc<Mutex<()>>,
}

impl Read for Half {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self.socket).read(buf)
    }
}

impl Write for Half {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _guard = self.write_lock.lock().unwrap_or_else(|e| e.into_inner());
        (&*self.socket).write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        (&*self.socket).flush()
    }
}

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_FRAME_BYTES))
        .max_frame_size(Some(MAX_FRAME_BYTES))
}

/// Runs a WebSocket connection from `client` until either side closes it.
fn websocket(stream: TcpStream, rest: Vec<u8>, client: IpAddr, lobby: &Arc<Lobby>) {
    let _ = stream.set_read_timeout(Some(IDLE_TIMEOUT));
    let socket = Arc::new(stream);
    let write_lock = Arc::new(Mutex::new(()));
    let half = || Half { socket: socket.clone(), write_lock: write_lock.clone() };
    let (sender, queue) = bounded::<String>(OUTBOX_CAPACITY);
    let outbox = Outbox::new(sender, Some(socket.clone()));
    let queued = outbox.queued_bytes();
    let mut writer_ws = WebSocket::from_raw_socket(half(), Role::Server, Some(config()));
    let writer_socket = socket.clone();
    let writer = std::thread::Builder::new().name("serve-write".into()).spawn(move || {
        for text in queue {
            queued.sent(&text);
            if writer_ws.send(Message::text(text)).is_err() {
                let _ = writer_socket.shutdown(Shutdown::Both);
                return;
            }
        }
    });
    if writer.is_err() {
        return;
    }
    let mut connection = lobby.connect(outbox, client);
    let mut reader = WebSocket::from_partially_read(half(), rest, Role::Server, Some(config()));
    loop {
        match reader.read() {
            Ok(Message::Text(text)) => lobby.handle(&mut connection, text.as_str()),
            Ok(Message::Binary(_)) => {
                connection
                    .outbox
                    .send(&ServerMessage::error("binary messages are not understood; send JSON text"));
            }
            Ok(Message::Close(_)) => {
                let _ = reader.flush();
                break;
            }
            Ok(_) => {}
            Err(tungstenite::Error::Capacity(_)) => {
                connection.outbox.send(&ServerMessage::error(format!(
                    "message too large (at most {MAX_FRAME_BYTES} bytes in a frame); closing the connection"
                )));
                // Give the writer a moment to send the reason before the socket goes.
                std::thread::sleep(Duration::from_millis(100));
                close_with(&mut reader, CloseCode::Size, "message too large");
                break;
            }
            Err(tungstenite::Error::Protocol(e)) => {
                close_with(&mut reader, CloseCode::Protocol, &e.to_string());
                break;
            }
            Err(tungstenite::Error::Utf8(_)) => {
                close_with(&mut reader, CloseCode::Invalid, "a text message that is not UTF-8");
                break;
            }
            Err(_) => break,
        }
    }
    lobby.disconnect(&mut connection);
    drop(connection);
    let _ = socket.shutdown(Shutdown::Both);
}

/// Ends a WebSocket the client broke the protocol of with a Close frame: its code and `reason`
/// (cut to the 123 bytes a Close frame holds).
fn close_with(ws: &mut WebSocket<Half>, code: CloseCode, reason: &str) {
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let frame = CloseFrame { code, reason: reason[..end].to_string().into() };
    let _ = ws.close(Some(frame));
    let _ = ws.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ip_addresses_localhost_and_the_names_given_are_hosts() {
        let names = vec!["board.lan".to_string()];
        for good in [
            "127.0.0.1:8088",
            "192.168.1.20",
            "[::1]:8088",
            "localhost:8088",
            "LOCALHOST",
            "board.lan:80",
            "board.lan.",
        ] {
            assert!(host_allowed(good, &names), "{good}");
        }
        for bad in
            ["rebind.attacker.example:8088", "board.lan.evil.com", "evil.com", "", "[::1", "127.0.0.1.nip.io"]
        {
            assert!(!host_allowed(bad, &names), "{bad}");
        }
        assert!(!host_allowed("board.lan", &[]));
    }

    #[test]
    fn a_head_trickled_byte_by_byte_is_dropped_at_its_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        // One byte every 100 ms, each well within a per-read timeout, for at most 3 seconds.
        let trickler = std::thread::spawn(move || {
            let mut stream = TcpStream::connect(addr).unwrap();
            for byte in b"GET / HTTP/1.1\r\nX: abcdefghijklmnopqrstuvwxyz" {
                if stream.write_all(&[*byte]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let (mut stream, _) = listener.accept().unwrap();
        let started = Instant::now();
        assert_eq!(read_head(&mut stream, Duration::from_millis(500)).unwrap_err(), HeadError::Incomplete);
        let took = started.elapsed();
        assert!(took < Duration::from_millis(1500), "the head was read for {took:?}");
        drop(stream);
        let _ = trickler.join();
    }

    #[test]
    fn request_heads_are_parsed_or_refused() {
        let (request, len) =
            parse_head(b"GET /app.js?x=1 HTTP/1.1\r\nHost: a:1\r\nUpgrade: WebSocket\r\n\r\nrest")
                .unwrap()
                .unwrap();
        assert_eq!((request.method.as_str(), request.path.as_str(), len), ("GET", "/app.js", 59));
        assert_eq!(request.header("upgrade"), Some("WebSocket"));
        assert_eq!(parse_head(b"GET / HTTP/1.1\r\nHost: a"), Ok(None));
        assert_eq!(parse_head(b"\x00\x01garbage\r\n\r\n"), Err(HeadError::Malformed));
        let many: String = (0..100).map(|i| format!("X-{i}: y\r\n")).collect();
        let text = format!("GET / HTTP/1.1\r\n{many}\r\n");
        assert_eq!(parse_head(text.as_bytes()), Err(HeadError::TooLarge));
    }
}
