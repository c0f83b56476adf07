//! `chariot serve`: a web board served by the binary itself. People play the engine or each
//! other (one creates a game and shares its link), spectators watch, and every game is saved
//! as it goes. docs/serve.md describes the wire protocol and the limits.
//!
//! One concern a file: `messages` (the wire format, both ways), `action` (what a player can do), `outbox` (a connection's queue
//! of messages), `game` (one game's rules of play), `room` (a game with its followers and its
//! engine search), `lobby` (all games, their followers and limits, the engine's answers sorted
//! to their game or asker), `store` (persistence), `engine_player`
//! (the engine's threads), `strength` (the engine's level or Elo in a game), `requests` (the
//! analyses and curves answered to their asker), `evaluation` (a position's static evaluation
//! piece by piece), `curve` (scoring a game's positions for its curve), `explore` (the
//! board editor's positions and the variations, checked by the rules), `review` (a PGN read
//! for an analysis board, 复盘), `connections` (who may hold a connection, and who gives way
//! when the server is full), `http` (HTTP and WebSocket), `assets` (the embedded page).

pub mod action;
pub mod assets;
pub mod connections;
pub mod curve;
pub mod engine_player;
pub mod evaluation;
pub mod explore;
pub mod game;
pub mod http;
pub mod lobby;
pub mod messages;
pub mod outbox;
pub mod requests;
pub mod review;
pub mod room;
pub mod store;
pub mod strength;

use std::fmt;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::search::HashError;
use lobby::{Lobby, LobbyLimits};
use store::{Store, StoreError};

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address and port to listen on.
    pub bind: SocketAddr,
    /// Where games are saved, `None` to keep them in memory only.
    pub data: Option<PathBuf>,
    /// What clients may make the lobby hold.
    pub limits: LobbyLimits,
    /// Open connections at once.
    pub max_connections: usize,
    /// Open connections at once from one address.
    pub max_connections_per_client: usize,
    /// Host names accepted besides IP addresses and `localhost` (`--host`).
    pub host_names: Vec<String>,
    /// Engine threads (each searches one game's move at a time).
    pub engines: usize,
    /// Each engine thread's hash table, in megabytes.
    pub hash_mb: usize,
    /// Endgame tablebases for the analyses and curves (`--egtb`).
    pub tablebases: crate::search::TablebaseHandle,
}

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    /// The address could not be bound.
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The system's error.
        error: std::io::Error,
    },
    /// The data directory could not be opened.
    Store(StoreError),
    /// An engine's table could not be had.
    Hash(HashError),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Bind { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            ServeError::Store(e) => write!(f, "{e}"),
            ServeError::Hash(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    lobby: Arc<Lobby>,
    limits: http::HttpLimits,
    /// How many unfinished games were read back from the data directory.
    pub loaded: usize,
    /// The saved games that did not read back.
    pub load_errors: Vec<StoreError>,
}

impl Server {
    /// Binds the address and reads back the saved games.
    pub fn bind(config: &ServeConfig) -> Result<Server, ServeError> {
        let store = match &config.data {
            Some(dir) => Some(Store::open(dir).map_err(ServeError::Store)?),
            None => None,
        };
        let listener =
            TcpListener::bind(config.bind).map_err(|error| ServeError::Bind { addr: config.bind, error })?;
        let (lobby, load_errors) = Lobby::with_tablebases(
            config.limits.clone(),
            store,
            config.engines,
            config.hash_mb,
            config.tablebases.0.clone(),
        )
        .map_err(ServeError::Hash)?;
        let loaded = lobby.game_count();
        let limits = http::HttpLimits {
            max_connections: config.max_connections,
            max_connections_per_client: config.max_connections_per_client,
            host_names: config
                .host_names
                .iter()
                .map(|n| n.trim_end_matches('.').to_ascii_lowercase())
                .collect(),
        };
        Ok(Server { listener, lobby, limits, loaded, load_errors })
    }

    /// The address it listens on (the port chosen when 0 was asked for).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves for ever: connections on this thread's loop, the clocks on a thread of their own.
    pub fn run(self) {
        let lobby = self.lobby.clone();
        let _ = std::thread::Builder::new().name("serve-clock".into()).spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            lobby.tick(Instant::now());
        });
        http::serve(self.listener, self.lobby, self.limits);
    }
}
