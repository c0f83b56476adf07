//! The lobby: every game on the server, each in its `Room`, with the connections that follow
//! it. It reads a message, checks it against the right game, changes the game, saves it, asks
//! the engine when the engine is to move, and sends the new state to everyone following. The
//! engine's answers come back here, all three kinds sorted in one place (`engine_answer`).
//! It bounds what a client can make it hold: games, followers per game, idle time.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;
use rand::distributions::Alphanumeric;
use rand::Rng;
use serde_json::json;

use super::engine_player::{EngineAnswer, EnginePool, Outcome};
use super::evaluation::evaluate;
use super::explore::{self, ExploreError};
use super::game::{Clock, Game, GameError, Seat};
use super::messages::{
    self, Action, ClientMessage, NewGame, Opponent, ParseError, ServerMessage, SideChoice,
};
use super::outbox::Outbox;
use super::requests::{Asker, Busy, Requests};
use super::review::{read_review, ReviewError};
use super::room::{Follower, Room, RoomState};
use super::store::{pgn_text, unix_now, Store, StoreError};
use crate::board::{Color, FenError, Move, Position};
use crate::egtb::Tablebases;
use crate::eval::nnue::{embedded, Network};
use crate::search::HashError;

/// Characters in a game id (in the share link).
const ID_CHARS: usize = 10;
/// Characters in a player's token: 32 letters and digits, about 190 bits.
const TOKEN_CHARS: usize = 32;
/// Characters in a friend game's invitation (the share link's secret): about 95 bits.
const INVITE_CHARS: usize = 16;
/// Connections one seat may have on its game at once (tabs, a reconnect before the old
/// connection timed out); past it the oldest stops following. Kept apart from the spectators'
/// `max_followers`, so that watchers can never take a player's place.
pub const SEAT_CONNECTIONS: usize = 4;

/// What the lobby lets clients make it hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyLimits {
    /// Games in memory at once (finished ones count until they are dropped).
    pub max_games: usize,
    /// Games one address may hold at once (created or loaded; finished ones count until they
    /// are dropped), so that one client cannot fill the server.
    pub max_games_per_client: usize,
    /// Spectators following one game (each seat has `SEAT_CONNECTIONS` more of its own).
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
            max_games_per_client: 20,
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
    /// The asker's address holds as many games as one may.
    TooManyGamesForClient(usize),
    /// The game has as many followers as it may.
    TooManyFollowers,
    /// Both seats are taken.
    NoFreeSeat,
    /// A join without the game's invitation (the spectators' link, or a made-up one).
    NotInvited,
    /// The start position of a new game is not one.
    BadFen(FenError),
    /// The game has fewer moves than the ply asked for.
    NoSuchPly,
    /// Engine help (analysis, evaluation, curve) was asked for a game still being played.
    LiveGame,
    /// Engine help was asked at a position a game being played stands at now.
    LivePosition,
    /// A variation to analyse or evaluate was refused.
    Explore(ExploreError),
    /// A rematch offer named no new friend game waiting for its opponent, or not its invitation.
    BadRematch,
    /// This connection's analysis (or curve) is still running, or the engine has too many queued.
    Busy(Busy),
    /// A PGN to load did not read.
    Review(ReviewError),
    /// The game refused the action.
    Game(GameError),
}

impl fmt::Display for LobbyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LobbyError::Parse(e) => write!(f, "{e}"),
            LobbyError::NoSuchGame => f.write_str("no such game (it may have ended and been closed)"),
            LobbyError::TooManyGames => f.write_str("the server has as many games as it can hold; try later"),
            LobbyError::TooManyGamesForClient(n) => write!(
                f,
                "your address holds {n} games, as many as one may; finish one (a finished game is closed 10 minutes after its end)"
            ),
            LobbyError::TooManyFollowers => f.write_str("this game has as many connections as it can hold"),
            LobbyError::NoFreeSeat => f.write_str("both seats are taken; you can watch"),
            LobbyError::NotInvited => {
                f.write_str("this link does not invite you to play; ask the game's creator for the join link")
            }
            LobbyError::BadFen(e) => write!(f, "{e}"),
            LobbyError::NoSuchPly => f.write_str("the game has not that many moves"),
            LobbyError::LiveGame => f.write_str(
                "no engine help while the game is played: analysis, evaluation and the curve open when it ends",
            ),
            LobbyError::LivePosition => f.write_str(
                "no engine help at this position: a game being played stands there now",
            ),
            LobbyError::Explore(e) => write!(f, "{e}"),
            LobbyError::BadRematch => {
                f.write_str("a rematch names a new game of yours that waits for its opponent, with its invitation")
            }
            LobbyError::Busy(e) => write!(f, "{e}"),
            LobbyError::Review(e) => write!(f, "{e}"),
            LobbyError::Game(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LobbyError {}

impl LobbyError {
    /// The code the page acts on: a seat it remembers (`unknown_token`) or a game
    /// (`no_such_game`) that is gone for good; `None` for every other refusal.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            LobbyError::NoSuchGame => Some("no_such_game"),
            LobbyError::Game(GameError::WrongToken) => Some("unknown_token"),
            _ => None,
        }
    }
}

impl From<GameError> for LobbyError {
    fn from(e: GameError) -> Self {
        LobbyError::Game(e)
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
    /// Its address: what the per-client limits count by.
    pub client: IpAddr,
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
        Lobby::with_tablebases(limits, store, engine_workers, hash_mb, None)
    }

    /// As `new`, the analyses and curves using `tables` (`--egtb`) and saying their verdict.
    pub fn with_tablebases(
        limits: LobbyLimits,
        store: Option<Store>,
        engine_workers: usize,
        hash_mb: usize,
        tables: Option<Arc<Tablebases>>,
    ) -> Result<(Arc<Lobby>, Vec<StoreError>), HashError> {
        let (answers, answered) = unbounded::<EngineAnswer>();
        let engines = EnginePool::with_tablebases(engine_workers, hash_mb, tables, answers)?;
        let (games, errors) = store.as_ref().map(Store::load).unwrap_or_default();
        let now = Instant::now();
        let rooms = games
            .into_iter()
            .map(|mut game| {
                game.start_clock(now);
                if game.invite.is_none() && !game.seats_full() && !game.is_recorded() {
                    game.invite = Some(random_text(INVITE_CHARS));
                }
                (game.id.clone(), Arc::new(Room::new(game, now, None)))
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
            room.lock().ask_engine(&lobby.engines);
        }
        Ok((lobby, errors))
    }

    /// A new connection's record, from `client`, its messages going to `outbox`.
    pub fn connect(&self, outbox: Outbox, client: IpAddr) -> Connection {
        Connection {
            id: self.next_connection.fetch_add(1, Ordering::Relaxed),
            outbox,
            following: None,
            client,
        }
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
            connection.outbox.send(&ServerMessage::Error { message: e.to_string(), code: e.code() });
        }
    }

    fn dispatch(&self, connection: &mut Connection, text: &str) -> Result<(), LobbyError> {
        match messages::parse(text).map_err(LobbyError::Parse)? {
            ClientMessage::Ping => {
                connection.outbox.send(&ServerMessage::Pong);
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
                let evaluation = evaluate(&position, &self.net);
                connection.outbox.send(&ServerMessage::Evaluation { game, ply, position, evaluation });
                Ok(())
            }
            ClientMessage::Curve { game } => {
                let (start, moves) = {
                    let room = self.room(&game)?;
                    let state = room.lock();
                    if !state.game.engine_help() {
                        return Err(LobbyError::LiveGame);
                    }
                    (state.game.start.clone(), state.game.moves().to_vec())
                };
                let mut position = start.clone();
                let mut positions = vec![position.clone()];
                for &mv in &moves {
                    position.make_move(mv);
                    positions.push(position.clone());
                }
                self.refuse_live_positions(&positions)?;
                self.requests
                    .curve(&self.engines, asker(connection), &game, start, moves)
                    .map_err(LobbyError::Busy)
            }
            ClientMessage::Explore { fen, line, reference } => {
                let outcome = explore::explore_position(&fen, &line);
                connection.outbox.send(&ServerMessage::Explored { reference, outcome });
                Ok(())
            }
            ClientMessage::Variation { game, ply, line, reference } => {
                let outcome = explore::explore_variation(&self.room(&game)?.lock().game, ply, &line);
                connection.outbox.send(&ServerMessage::Explored { reference, outcome });
                Ok(())
            }
            ClientMessage::Join { game, invite } => self.join(connection, &game, &invite),
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
                if let Action::OfferRematch { game: next, invite } = &action {
                    self.check_rematch(&game, next, invite)?;
                }
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
        let invite = matches!(settings.opponent, Opponent::Friend).then(|| random_text(INVITE_CHARS));
        let room = self.add_room(connection.client, |id| {
            let mut game = Game::new(id, start, seats, clock, unix_now());
            game.invite = invite;
            game.start_clock(Instant::now());
            game
        })?;
        self.follow(connection, &room, Some(side), Some(token))?;
        self.changed(&mut room.lock());
        Ok(())
    }

    /// Opens an analysis board of the first game of the PGN `text`, followed by `connection`.
    fn load_pgn(&self, connection: &mut Connection, text: &str) -> Result<(), LobbyError> {
        let record = read_review(text).map_err(LobbyError::Review)?;
        let room = self.add_room(connection.client, |id| Game::recorded(id, record, unix_now()))?;
        self.follow(connection, &room, None, None)
    }

    /// A new room for the game `make` builds with a fresh id, created by `client`, when the
    /// lobby has room for it and the client is within its share.
    fn add_room(&self, client: IpAddr, make: impl FnOnce(String) -> Game) -> Result<Arc<Room>, LobbyError> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if rooms.len() >= self.limits.max_games {
            return Err(LobbyError::TooManyGames);
        }
        let held = rooms.values().filter(|room| room.creator == Some(client)).count();
        if held >= self.limits.max_games_per_client {
            return Err(LobbyError::TooManyGamesForClient(held));
        }
        let id = loop {
            let id = random_text(ID_CHARS);
            if !rooms.contains_key(&id) {
                break id;
            }
        };
        let room = Arc::new(Room::new(make(id.clone()), Instant::now(), Some(client)));
        rooms.insert(id, room.clone());
        Ok(room)
    }

    /// The position of the game `id` after `ply` moves (the current one when `None`), with the
    /// moves before it in its history, then `line` (a variation's moves) when there is one, and
    /// its ply, for the engine's help: refused while the game is played, and at a position a
    /// game being played stands at now (fair play).
    fn position_at(
        &self,
        id: &str,
        ply: Option<usize>,
        line: &[String],
    ) -> Result<(usize, Position), LobbyError> {
        let (ply, position) = {
            let room = self.room(id)?;
            let state = room.lock();
            if !state.game.engine_help() {
                return Err(LobbyError::LiveGame);
            }
            if line.is_empty() {
                state.position_at(ply).ok_or(LobbyError::NoSuchPly)?
            } else {
                let ply = ply.unwrap_or(state.game.moves().len());
                (ply, explore::variation_position(&state.game, ply, line).map_err(LobbyError::Explore)?)
            }
        };
        self.refuse_live_positions(std::slice::from_ref(&position))?;
        Ok((ply, position))
    }

    /// Fair play past the game itself: an analysis board, the editor's board or a finished
    /// game's variation can be set to the position of a game being played, so the engine helps
    /// with none of `positions` that such a game stands at now (mirrored or seen from the other
    /// side too). A game's start, before its first move, is left open: it tells nothing of how
    /// the game goes, and every game in the lobby starts there.
    fn refuse_live_positions(&self, positions: &[Position]) -> Result<(), LobbyError> {
        let mut live = HashSet::new();
        for room in self.all_rooms() {
            let state = room.lock();
            let game = &state.game;
            if !game.engine_help() && !game.moves().is_empty() {
                let now = game.position();
                for seen in [now.clone(), now.color_flipped()] {
                    live.insert(seen.key());
                    live.insert(seen.files_mirrored().key());
                }
            }
        }
        if positions.iter().any(|p| live.contains(&p.key())) {
            return Err(LobbyError::LivePosition);
        }
        Ok(())
    }

    /// A rematch of the game `old` names `next`, a friend game waiting for its opponent, with
    /// its invitation: whoever offers it shows the secret the new game's creator was told, so the
    /// offer cannot hand the opponent someone else's seat. (The two games are locked one after
    /// the other, never together.)
    fn check_rematch(&self, old: &str, next: &str, invite: &str) -> Result<(), LobbyError> {
        let room = self.room(next).map_err(|_| LobbyError::BadRematch)?;
        let state = room.lock();
        let game = &state.game;
        let waiting = game.invite.as_deref() == Some(invite) && !game.seats_full() && game.ending.is_none();
        if next == old || !waiting {
            return Err(LobbyError::BadRematch);
        }
        Ok(())
    }

    fn join(&self, connection: &mut Connection, id: &str, invite: &str) -> Result<(), LobbyError> {
        let room = self.room(id)?;
        let (side, token) = {
            let mut state = room.lock();
            if state.game.is_recorded() {
                return Err(GameError::Recorded.into());
            }
            if state.game.invite.as_deref() != Some(invite) {
                return Err(LobbyError::NotInvited);
            }
            let side = Color::BOTH
                .into_iter()
                .find(|c| state.game.seats[c.index()] == Seat::Open)
                .ok_or(LobbyError::NoFreeSeat)?;
            let token = random_text(TOKEN_CHARS);
            state.game.seats[side.index()] = Seat::Human { token: token.clone() };
            state.game.start_clock(Instant::now());
            state.last_activity = Instant::now();
            (side, token)
        };
        self.follow(connection, &room, Some(side), Some(token))?;
        self.changed(&mut room.lock());
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
        match seat {
            None => {
                let spectators = state.followers.iter().filter(|f| f.seat.is_none()).count();
                if spectators >= self.limits.max_followers {
                    return Err(LobbyError::TooManyFollowers);
                }
            }
            Some(color) => {
                // A seat's own connections: the oldest gives way (it is likely a dead one).
                let mine: Vec<u64> =
                    state.followers.iter().filter(|f| f.seat == seat).map(|f| f.connection).collect();
                if mine.len() >= SEAT_CONNECTIONS {
                    let oldest = mine[0];
                    state.followers.retain(|f| f.connection != oldest || f.seat != Some(color));
                }
            }
        }
        state.followers.push(Follower { connection: connection.id, seat, outbox: connection.outbox.clone() });
        if state.game.is_recorded() {
            state.last_activity = Instant::now();
        }
        let id = state.game.id.clone();
        connection.following = Some((id.clone(), seat));
        // Only a player is told the invitation, and only while a seat is open.
        let invite = state.game.invite.clone().filter(|_| seat.is_some() && !state.game.seats_full());
        connection.outbox.send(&ServerMessage::Joined { game: id, token, color: seat, invite });
        state.welcome(connection.id);
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
                state.announce_followers(None);
            }
        }
    }

    /// After a change: save, start or stop the engine, tell everyone.
    fn changed(&self, state: &mut RoomState) {
        if let Some(store) = &self.store {
            if let Err(e) = store.save(&state.game, Instant::now()) {
                eprintln!("chariot serve: {e}");
                let warning = ServerMessage::Warning {
                    message: "this game could not be saved (the server's disk refused); it goes on, but a restart of the server would lose the moves since".into(),
                };
                let text = warning.text();
                for follower in &state.followers {
                    follower.outbox.send_text(text.clone());
                }
            }
        }
        state.ask_engine(&self.engines);
        state.broadcast();
    }

    /// Where every answer of the engine threads goes: a move to its game, an analysis and a
    /// piece of a curve to the one who asked.
    fn engine_answer(&self, answer: EngineAnswer) {
        match answer.outcome {
            Outcome::Started { generation } => self.engine_started(&answer.game, generation),
            Outcome::Move { generation, best } => self.engine_moved(&answer.game, generation, best),
            Outcome::Analysis { request, lines, tablebase } => {
                self.requests.analysis_answered(request, lines, tablebase)
            }
            Outcome::Curve { request, points } => {
                self.requests.curve_answered(&self.engines, request, points)
            }
        }
    }

    /// The engine's search for the game `id` has left the queue: its clock runs from now.
    fn engine_started(&self, id: &str, generation: u64) {
        let Ok(room) = self.room(id) else { return };
        let mut state = room.lock();
        if state.wants_answer(generation) {
            state.game.start_clock(Instant::now());
            state.broadcast();
        }
    }

    /// Plays the engine's move `best`, found for the game `id` at `generation`, unless the game
    /// has moved on since.
    fn engine_moved(&self, id: &str, generation: u64, best: Option<Move>) {
        let Ok(room) = self.room(id) else { return };
        let mut state = room.lock();
        if !state.wants_answer(generation) {
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
    Asker { connection: connection.id, client: connection.client, outbox: connection.outbox.clone() }
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
        Action::OfferRematch { game, invite } => {
            value["rematch"] = json!(game);
            value["invite"] = json!(invite);
        }
        _ => {}
    }
    value.to_string()
}

#[cfg(test)]
mod tests;
