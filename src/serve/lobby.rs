//! The lobby: every game on the server, each behind its own lock, with the connections that
//! follow it. It reads a message, checks it against the right game, changes the game, saves it,
//! asks the engine when the engine is to move, and sends the new state to everyone following.
//! It bounds what a client can make it hold: games, followers per game, idle time.

use std::collections::HashMap;
use std::fmt;
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Sender, TrySendError};
use rand::distributions::Alphanumeric;
use rand::Rng;
use serde_json::json;

use super::engine_player::{move_limits, EngineAnswer, EngineJob, EnginePool, Outcome, Task};
use super::evaluation::evaluation_message;
use super::explore::{self, ExploreError};
use super::game::{Clock, Game, GameError, Seat};
use super::messages::{
    self, error_message, Action, ClientMessage, NewGame, Opponent, ParseError, SideChoice,
};
use super::requests::{Asker, Busy, Requests};
use super::review::{read_review, ReviewError};
use super::store::{pgn_text, unix_now, Store, StoreError};
use crate::board::{Color, FenError, Position};
use crate::eval::nnue::{embedded, Network};
use crate::search::{HashError, SearchControl};

/// Characters in a game id (in the share link).
const ID_CHARS: usize = 10;
/// Characters in a player's token: 32 letters and digits, about 190 bits.
const TOKEN_CHARS: usize = 32;
/// Messages waiting for a slow connection before it is cut off.
pub const OUTBOX_CAPACITY: usize = 256;

/// What the lobby lets clients make it hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyLimits {
    /// Games in memory at once (finished ones count until they are dropped).
    pub max_games: usize,
    /// Connections following one game (players and spectators).
    pub max_followers: usize,
    /// An unfinished game nobody moved in for this long is closed as abandoned.
    pub idle_expiry: Duration,
    /// A finished game stays this long (for its PGN and a last look) before it is dropped.
    pub finished_linger: Duration,
}

impl Default for LobbyLimits {
    fn default() -> Self {
        LobbyLimits {
            max_games: 500,
            max_followers: 32,
            idle_expiry: Duration::from_secs(24 * 3600),
            finished_linger: Duration::from_secs(600),
        }
    }
}

/// Why a message was refused; the reply is its text, and no game changed.
#[derive(Debug)]
pub enum LobbyError {
    /// The message did not parse.
    Parse(ParseError),
    /// No game has that id.
    NoSuchGame,
    /// The server holds as many games as it may.
    TooManyGames,
    /// The game has as many followers as it may.
    TooManyFollowers,
    /// Both seats are taken.
    NoFreeSeat,
    /// The start position of a new game is not one.
    BadFen(FenError),
    /// The game has fewer moves than the ply asked for.
    NoSuchPly,
    /// This connection's analysis (or curve) is still running, or the engine has too many queued.
    Busy(Busy),
    /// A PGN to load did not read.
    Review(ReviewError),
    /// The game refused the action.
    Game(GameError),
    /// A variation to analyse or evaluate was refused.
    Explore(ExploreError),
}

impl fmt::Display for LobbyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LobbyError::Parse(e) => write!(f, "{e}"),
            LobbyError::NoSuchGame => f.write_str("no such game (it may have ended and been closed)"),
            LobbyError::TooManyGames => f.write_str("the server has as many games as it can hold; try later"),
            LobbyError::TooManyFollowers => f.write_str("this game has as many connections as it can hold"),
            LobbyError::NoFreeSeat => f.write_str("both seats are taken; you can watch"),
            LobbyError::BadFen(e) => write!(f, "{e}"),
            LobbyError::NoSuchPly => f.write_str("the game has not that many moves"),
            LobbyError::Busy(e) => write!(f, "{e}"),
            LobbyError::Review(e) => write!(f, "{e}"),
            LobbyError::Game(e) => write!(f, "{e}"),
            LobbyError::Explore(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LobbyError {}

impl From<GameError> for LobbyError {
    fn from(e: GameError) -> Self {
        LobbyError::Game(e)
    }
}

/// Where the lobby's messages to one connection go: a bounded queue its writer thread empties,
/// and the socket to shut when the queue is full (a client that does not read).
#[derive(Clone, Debug)]
pub struct Outbox {
    sender: Sender<String>,
    socket: Option<Arc<TcpStream>>,
}

impl Outbox {
    /// An outbox for `sender`, cutting `socket` off when it overflows.
    pub fn new(sender: Sender<String>, socket: Option<Arc<TcpStream>>) -> Outbox {
        Outbox { sender, socket }
    }

    /// Queues `text`; false when the connection is gone or cut off for not reading.
    pub fn send(&self, text: String) -> bool {
        match self.sender.try_send(text) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                if let Some(socket) = &self.socket {
                    let _ = socket.shutdown(std::net::Shutdown::Both);
                }
                false
            }
            Err(TrySendError::Disconnected(_)) => false,
        }
    }
}

/// One connection as the lobby sees it.
#[derive(Debug)]
pub struct Connection {
    /// Unique among this server's connections.
    pub id: u64,
    /// Where its messages go.
    pub outbox: Outbox,
    /// The game it follows, and its seat there (`None` for a spectator).
    pub following: Option<(String, Option<Color>)>,
}

struct Follower {
    connection: u64,
    seat: Option<Color>,
    outbox: Outbox,
}

struct RoomState {
    game: Game,
    followers: Vec<Follower>,
    /// The engine's search for this game, with the generation and ply it was asked at.
    thinking: Option<(u64, usize, Arc<SearchControl>)>,
    last_activity: Instant,
}

struct Room {
    state: Mutex<RoomState>,
}

impl Room {
    fn lock(&self) -> MutexGuard<'_, RoomState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Every game on the server.
pub struct Lobby {
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    requests: Requests,
    net: Arc<Network>,
    limits: LobbyLimits,
    store: Option<Store>,
    engines: EnginePool,
    next_connection: AtomicU64,
}

impl Lobby {
    /// A lobby with the games `store` kept (when there is one), and `engine_workers` engine
    /// threads with `hash_mb` tables each. The saved games that did not read are returned.
    pub fn new(
        limits: LobbyLimits,
        store: Option<Store>,
        engine_workers: usize,
        hash_mb: usize,
    ) -> Result<(Arc<Lobby>, Vec<StoreError>), HashError> {
        let (answers, answered) = unbounded::<EngineAnswer>();
        let engines = EnginePool::new(engine_workers, hash_mb, answers)?;
        let (games, errors) = store.as_ref().map(Store::load).unwrap_or_default();
        let now = Instant::now();
        let rooms = games
            .into_iter()
            .map(|mut game| {
                game.start_clock(now);
                let state = RoomState { game, followers: Vec::new(), thinking: None, last_activity: now };
                (state.game.id.clone(), Arc::new(Room { state: Mutex::new(state) }))
            })
            .collect();
        let lobby = Arc::new(Lobby {
            rooms: Mutex::new(rooms),
            requests: Requests::default(),
            net: embedded::network(),
            limits,
            store,
            engines,
            next_connection: AtomicU64::new(1),
        });
        // Answers are applied on a thread of their own, which ends with the lobby.
        let weak: Weak<Lobby> = Arc::downgrade(&lobby);
        let _ = std::thread::Builder::new().name("serve-answers".into()).spawn(move || {
            for answer in answered {
                match weak.upgrade() {
                    Some(lobby) => lobby.engine_answer(answer),
                    None => return,
                }
            }
        });
        // The engine may be to move in games read back.
        for room in lobby.all_rooms() {
            let mut state = room.lock();
            lobby.ask_engine(&mut state);
        }
        Ok((lobby, errors))
    }

    /// A new connection's record, its messages going to `outbox`.
    pub fn connect(&self, outbox: Outbox) -> Connection {
        Connection { id: self.next_connection.fetch_add(1, Ordering::Relaxed), outbox, following: None }
    }

    /// Forgets a connection that closed (its analysis and curve, if any, are stopped).
    pub fn disconnect(&self, connection: &mut Connection) {
        self.unfollow(connection);
        self.requests.forget(connection.id);
    }

    /// How many games are held.
    pub fn game_count(&self) -> usize {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn room(&self, id: &str) -> Result<Arc<Room>, LobbyError> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned().ok_or(LobbyError::NoSuchGame)
    }

    fn all_rooms(&self) -> Vec<Arc<Room>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect()
    }

    /// The PGN of a game held now (finished or not).
    pub fn pgn(&self, id: &str) -> Option<String> {
        self.room(id).ok().map(|room| pgn_text(&room.lock().game))
    }

    /// Handles one message from `connection`: every answer, an error included, goes to its
    /// outbox; what changed goes to every follower of the game.
    pub fn handle(&self, connection: &mut Connection, text: &str) {
        if let Err(e) = self.dispatch(connection, text) {
            connection.outbox.send(error_message(&e.to_string()));
        }
    }

    fn dispatch(&self, connection: &mut Connection, text: &str) -> Result<(), LobbyError> {
        match messages::parse(text).map_err(LobbyError::Parse)? {
            ClientMessage::Ping => {
                connection.outbox.send(messages::pong_message());
                Ok(())
            }
            ClientMessage::Create(settings) => self.create(connection, &settings),
            ClientMessage::LoadPgn { pgn } => self.load_pgn(connection, &pgn),
            ClientMessage::Analyse { game, ply, line, lines } => {
                let (ply, position) = self.position_at(&game, ply, &line)?;
                self.requests
                    .analyse(&self.engines, asker(connection), &game, ply, position, lines)
                    .map_err(LobbyError::Busy)
            }
            ClientMessage::Evaluate { game, ply, line } => {
                let (ply, position) = self.position_at(&game, ply, &line)?;
                connection.outbox.send(evaluation_message(&game, ply, &position, &self.net));
                Ok(())
            }
            ClientMessage::Curve { game } => {
                let (start, moves) = {
                    let room = self.room(&game)?;
                    let state = room.lock();
                    (state.game.start.clone(), state.game.moves().to_vec())
                };
                self.requests
                    .curve(&self.engines, asker(connection), &game, start, moves)
                    .map_err(LobbyError::Busy)
            }
            ClientMessage::Explore { fen, line, reference } => {
                connection.outbox.send(explore::explore_position(&fen, &line, reference));
                Ok(())
            }
            ClientMessage::Variation { game, ply, line, reference } => {
                let answer =
                    explore::explore_variation(&self.room(&game)?.lock().game, ply, &line, reference);
                connection.outbox.send(answer);
                Ok(())
            }
            ClientMessage::Join { game } => self.join(connection, &game),
            ClientMessage::Watch { game } => {
                let room = self.room(&game)?;
                self.follow(connection, &room, None, None)
            }
            ClientMessage::Resume { game, token } => {
                let room = self.room(&game)?;
                let seat = room.lock().game.seat_of(&token)?;
                self.follow(connection, &room, Some(seat), Some(token))
            }
            ClientMessage::Act { game, token, action } => {
                let room = self.room(&game)?;
                let mut state = room.lock();
                if state.game.is_recorded() {
                    return Err(GameError::Recorded.into());
                }
                if connection.following.as_ref().is_some_and(|(id, seat)| *id == game && seat.is_none()) {
                    return Err(GameError::Spectator.into());
                }
                let color = state.game.seat_of(&token)?;
                let now = Instant::now();
                state.game.act(color, &action, now)?;
                state.last_activity = now;
                self.changed(&mut state);
                Ok(())
            }
        }
    }

    fn create(&self, connection: &mut Connection, settings: &NewGame) -> Result<(), LobbyError> {
        let start = match &settings.fen {
            Some(fen) => Position::from_fen(fen).map_err(LobbyError::BadFen)?,
            None => Position::startpos(),
        };
        let mut rng = rand::thread_rng();
        let side = match settings.side {
            SideChoice::Red => Color::Red,
            SideChoice::Black => Color::Black,
            SideChoice::Random => Color::BOTH[rng.gen_range(0..2)],
        };
        let token = random_text(TOKEN_CHARS);
        let other = match settings.opponent {
            Opponent::Engine { strength } => Seat::Engine { strength },
            Opponent::Friend => Seat::Open,
        };
        let mut seats = [other.clone(), other];
        seats[side.index()] = Seat::Human { token: token.clone() };
        let clock = (settings.minutes > 0).then(|| Clock::new(settings.minutes, settings.increment_s));
        let room = self.add_room(|id| {
            let mut game = Game::new(id, start, seats, clock, unix_now());
            game.start_clock(Instant::now());
            game
        })?;
        self.follow(connection, &room, Some(side), Some(token))?;
        let mut state = room.lock();
        self.changed(&mut state);
        Ok(())
    }

    /// Opens an analysis board of the first game of the PGN `text`, followed by `connection`.
    fn load_pgn(&self, connection: &mut Connection, text: &str) -> Result<(), LobbyError> {
        let record = read_review(text).map_err(LobbyError::Review)?;
        let room = self.add_room(|id| Game::recorded(id, record, unix_now()))?;
        self.follow(connection, &room, None, None)
    }

    /// A new room for the game `make` builds with a fresh id, when the lobby has room for it.
    fn add_room(&self, make: impl FnOnce(String) -> Game) -> Result<Arc<Room>, LobbyError> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if rooms.len() >= self.limits.max_games {
            return Err(LobbyError::TooManyGames);
        }
        let id = loop {
            let id = random_text(ID_CHARS);
            if !rooms.contains_key(&id) {
                break id;
            }
        };
        let game = make(id.clone());
        let state = RoomState { game, followers: Vec::new(), thinking: None, last_activity: Instant::now() };
        let room = Arc::new(Room { state: Mutex::new(state) });
        rooms.insert(id, room.clone());
        Ok(room)
    }

    /// The position of the game `id` after `ply` moves (the current one when `None`), with the
    /// moves before it in its history, and its ply.
    fn position_at(
        &self,
        id: &str,
        ply: Option<usize>,
        line: &[String],
    ) -> Result<(usize, Position), LobbyError> {
        let room = self.room(id)?;
        let state = room.lock();
        let game = &state.game;
        let ply = ply.unwrap_or(game.moves().len());
        if !line.is_empty() {
            return Ok((ply, explore::variation_position(game, ply, line).map_err(LobbyError::Explore)?));
        }
        let moves = game.moves().get(..ply).ok_or(LobbyError::NoSuchPly)?;
        let mut position = game.start.clone();
        for &mv in moves {
            position.make_move(mv);
        }
        Ok((ply, position))
    }

    fn join(&self, connection: &mut Connection, id: &str) -> Result<(), LobbyError> {
        let room = self.room(id)?;
        let (side, token) = {
            let mut state = room.lock();
            if state.game.is_recorded() {
                return Err(GameError::Recorded.into());
            }
            let side = Color::BOTH
                .into_iter()
                .find(|c| state.game.seats[c.index()] == Seat::Open)
                .ok_or(LobbyError::NoFreeSeat)?;
            if state.followers.len() >= self.limits.max_followers {
                return Err(LobbyError::TooManyFollowers);
            }
            let token = random_text(TOKEN_CHARS);
            state.game.seats[side.index()] = Seat::Human { token: token.clone() };
            state.game.start_clock(Instant::now());
            state.last_activity = Instant::now();
            (side, token)
        };
        self.follow(connection, &room, Some(side), Some(token))?;
        let mut state = room.lock();
        self.changed(&mut state);
        Ok(())
    }

    /// Makes `connection` follow the game of `room` (leaving the one it followed), tells it its
    /// seat and token (`joined`) and everyone the new state.
    fn follow(
        &self,
        connection: &mut Connection,
        room: &Room,
        seat: Option<Color>,
        token: Option<String>,
    ) -> Result<(), LobbyError> {
        self.unfollow(connection);
        let mut state = room.lock();
        if state.followers.len() >= self.limits.max_followers {
            return Err(LobbyError::TooManyFollowers);
        }
        state.followers.push(Follower { connection: connection.id, seat, outbox: connection.outbox.clone() });
        if state.game.is_recorded() {
            state.last_activity = Instant::now();
        }
        let id = state.game.id.clone();
        connection.following = Some((id.clone(), seat));
        connection.outbox.send(
            json!({
                "type": "joined",
                "game": id,
                "token": token,
                "color": seat.map(Color::name),
                "role": if seat.is_some() { "player" } else { "spectator" },
            })
            .to_string(),
        );
        self.broadcast(&mut state);
        Ok(())
    }

    fn unfollow(&self, connection: &mut Connection) {
        if let Some((id, _)) = connection.following.take() {
            if let Ok(room) = self.room(&id) {
                let mut state = room.lock();
                state.followers.retain(|f| f.connection != connection.id);
                if state.game.is_recorded() {
                    state.last_activity = Instant::now();
                }
                self.broadcast(&mut state);
            }
        }
    }

    /// After a change: save, start or stop the engine, tell everyone.
    fn changed(&self, state: &mut RoomState) {
        if let Some(store) = &self.store {
            if let Err(e) = store.save(&state.game, Instant::now()) {
                eprintln!("chariot serve: {e}");
            }
        }
        self.ask_engine(state);
        self.broadcast(state);
    }

    /// Stops a search whose answer is no longer wanted, and starts one when the engine is to move.
    fn ask_engine(&self, state: &mut RoomState) {
        let game = &state.game;
        if let Some((generation, ply, control)) = &state.thinking {
            if *generation != game.generation || *ply != game.moves().len() || game.engine_to_move().is_none()
            {
                control.request_stop();
                state.thinking = None;
            }
        }
        if state.thinking.is_some() {
            return;
        }
        let Some(strength) = game.engine_to_move() else { return };
        let to_move = game.position().side_to_move();
        let clock =
            game.clock.as_ref().map(|c| (c.left_at(to_move, to_move, Instant::now()), c.increment_ms));
        let control = Arc::new(SearchControl::new());
        self.engines.submit(EngineJob {
            game: game.id.clone(),
            control: control.clone(),
            task: Task::Move {
                generation: game.generation,
                position: game.position().clone(),
                limits: move_limits(clock),
                skill: strength.skill(),
            },
        });
        state.thinking = Some((game.generation, game.moves().len(), control));
    }

    fn engine_answer(&self, answer: EngineAnswer) {
        if self.requests.answered(&self.engines, &answer.outcome) {
            return;
        }
        let Outcome::Move { generation, best } = answer.outcome else { return };
        let Ok(room) = self.room(&answer.game) else { return };
        let mut state = room.lock();
        let wanted = state
            .thinking
            .as_ref()
            .is_some_and(|(asked, ply, _)| *asked == generation && *ply == state.game.moves().len());
        if !wanted {
            return;
        }
        state.thinking = None;
        let now = Instant::now();
        if let Some(mv) = best {
            state.game.engine_move(mv, generation, now);
        }
        state.last_activity = now;
        self.changed(&mut state);
    }

    /// Sends the game's state to every follower; those that are gone or not reading are dropped.
    fn broadcast(&self, state: &mut RoomState) {
        let mut online = [false; 2];
        for f in &state.followers {
            if let Some(c) = f.seat {
                online[c.index()] = true;
            }
        }
        let spectators = state.followers.iter().filter(|f| f.seat.is_none()).count();
        let view = state.game.view(Instant::now(), online, spectators, state.thinking.is_some());
        let text = json!({"type": "state", "game": view}).to_string();
        state.followers.retain(|f| f.outbox.send(text.clone()));
    }

    /// The clock's and the calendar's work, run every fraction of a second: flags fall, idle
    /// games are closed as abandoned, finished games are dropped after a while.
    pub fn tick(&self, now: Instant) {
        let mut dropped = Vec::new();
        for room in self.all_rooms() {
            let mut state = room.lock();
            let idle = now.saturating_duration_since(state.last_activity);
            if state.game.is_recorded() {
                // An analysis board stays while anyone looks at it, and a while after.
                if state.followers.is_empty() && idle >= self.limits.finished_linger {
                    dropped.push(state.game.id.clone());
                }
            } else if state.game.check_flag(now) {
                state.last_activity = now;
                self.changed(&mut state);
            } else if state.game.ending.is_none() && idle >= self.limits.idle_expiry {
                state.game.abandon(now);
                self.changed(&mut state);
            } else if state.game.ending.is_some() && idle >= self.limits.finished_linger {
                dropped.push(state.game.id.clone());
            }
        }
        if !dropped.is_empty() {
            let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
            for id in dropped {
                rooms.remove(&id);
            }
        }
    }
}

/// Who asks, as the engine requests know them.
fn asker(connection: &Connection) -> Asker {
    Asker { connection: connection.id, outbox: connection.outbox.clone() }
}

/// `chars` random letters and digits.
fn random_text(chars: usize) -> String {
    rand::thread_rng().sample_iter(&Alphanumeric).take(chars).map(char::from).collect()
}

/// Messages of an action, for tests and the load generator: `{"type":…,"game":…,"token":…}`.
pub fn action_message(game: &str, token: &str, action: &Action) -> String {
    let mut value = json!({"type": action.name(), "game": game, "token": token});
    match action {
        Action::Move(text) => value["move"] = json!(text),
        Action::OfferRematch(next) => value["rematch"] = json!(next),
        _ => {}
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::{bounded, Receiver};
    use serde_json::Value;

    struct Client {
        connection: Connection,
        inbox: Receiver<String>,
    }

    impl Client {
        fn new(lobby: &Lobby) -> Client {
            let (sender, inbox) = bounded(4096);
            Client { connection: lobby.connect(Outbox::new(sender, None)), inbox }
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
        let mut black = Client::new(lobby);
        let replies = black.send(lobby, &format!(r#"{{"type":"join","game":"{id}"}}"#));
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
            third.refused(&lobby, &format!(r#"{{"type":"join","game":"{id}"}}"#)),
            "both seats are taken; you can watch"
        );
        drop(black);
        let mut again = Client::new(&lobby);
        let replies = again.send(&lobby, &format!(r#"{{"type":"resume","game":"{id}","token":"{rt}"}}"#));
        assert_eq!(
            (replies[0]["type"].as_str(), replies[0]["color"].as_str()),
            (Some("joined"), Some("red"))
        );
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
            let lobby2 = lobby_with(LobbyLimits { max_followers: 3, ..LobbyLimits::default() }, None);
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
        let (mut red, mut black, id, rt, _) = friend_game(&lobby);
        red.send(&lobby, &play(&id, &rt, "h2e2"));
        black.drain();
        let ask = format!(r#"{{"type":"analyse","game":"{id}","ply":1,"lines":2}}"#);
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
        let replies = me.send(
            &lobby,
            &format!(r#"{{"type":"create","opponent":"engine","elo":{MIN_ELO},"side":"black"}}"#),
        );
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
        let (mut red, mut black, id, rt, _) = friend_game(&lobby);
        red.send(&lobby, &play(&id, &rt, "h2e2"));
        black.drain();
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
        let pgn = "[Event \"Club final\"]\n[Red \"Lü Qin\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马8进7 2. 马二进三 1-0\n";
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
        assert_eq!(other.refused(&lobby, &format!(r#"{{"type":"join","game":"{id}"}}"#)), refusal);
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
}
