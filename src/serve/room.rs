//! One game as the lobby holds it: the game behind its own lock, the connections following it,
//! and the engine's search for it. A room tells its followers the game's state and asks the
//! engine for a move when the engine is to play.

use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use super::engine_player::{move_limits, EngineJob, EnginePool, Task};
use super::game::Game;
use super::messages::ServerMessage;
use super::outbox::Outbox;
use crate::board::{Color, Position};
use crate::search::SearchControl;

/// A connection following a game.
pub struct Follower {
    /// The connection's number.
    pub connection: u64,
    /// Its seat, `None` for a spectator.
    pub seat: Option<Color>,
    /// Where its messages go.
    pub outbox: Outbox,
}

/// A game and who follows it, under the room's lock.
pub struct RoomState {
    /// The game.
    pub game: Game,
    /// The connections following it.
    pub followers: Vec<Follower>,
    /// The engine's search for this game, with the generation and ply it was asked at.
    pub thinking: Option<(u64, usize, Arc<SearchControl>)>,
    /// When a player last acted (or, for an analysis board, a viewer came or went).
    pub last_activity: Instant,
}

/// One game behind its own lock.
pub struct Room {
    state: Mutex<RoomState>,
    /// The address that created it (`None` for a game read back from the data directory); kept
    /// outside the lock, so that counting a client's games locks no game.
    pub creator: Option<IpAddr>,
}

impl Room {
    /// A room for `game`, created by `creator`, nobody following it yet.
    pub fn new(game: Game, now: Instant, creator: Option<IpAddr>) -> Room {
        let state = RoomState { game, followers: Vec::new(), thinking: None, last_activity: now };
        Room { state: Mutex::new(state), creator }
    }

    /// The room's state, locked (a thread that panicked holding it leaves it usable).
    pub fn lock(&self) -> MutexGuard<'_, RoomState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl RoomState {
    /// The position after `ply` moves (the current one when `None`), with the moves before it
    /// in its history, and its ply; `None` when the game is shorter.
    pub fn position_at(&self, ply: Option<usize>) -> Option<(usize, Position)> {
        let ply = ply.unwrap_or(self.game.moves().len());
        let moves = self.game.moves().get(..ply)?;
        let mut position = self.game.start.clone();
        for &mv in moves {
            position.make_move(mv);
        }
        Some((ply, position))
    }

    /// Which seats have a connection, and how many spectators watch.
    fn attendance(&self) -> ([bool; 2], usize) {
        let mut online = [false; 2];
        for f in &self.followers {
            if let Some(c) = f.seat {
                online[c.index()] = true;
            }
        }
        (online, self.followers.iter().filter(|f| f.seat.is_none()).count())
    }

    /// Sends the game's state to every follower; those that are gone or not reading are dropped.
    pub fn broadcast(&mut self) {
        self.send_state(None);
    }

    /// After `newcomer` began following: the whole state to it, and to everyone else only who
    /// follows now (`followers`), so that a crowd coming and going costs the others little.
    pub fn welcome(&mut self, newcomer: u64) {
        self.send_state(Some(newcomer));
        self.announce_followers(Some(newcomer));
    }

    /// Tells every follower (but `except`) who follows the game now; those that are gone or not
    /// reading are dropped.
    pub fn announce_followers(&mut self, except: Option<u64>) {
        let (online, spectators) = self.attendance();
        let text = ServerMessage::Followers { game: self.game.id.clone(), spectators, online }.text();
        self.followers.retain(|f| Some(f.connection) == except || f.outbox.send_text(text.clone()));
    }

    /// The state to every follower, or to the connection `only`.
    fn send_state(&mut self, only: Option<u64>) {
        let (online, spectators) = self.attendance();
        let view = self.game.view(Instant::now(), online, spectators, self.thinking.is_some());
        // A rematch's invitation goes to the opponent of the player who offered it, and to nobody
        // else: a spectator given it could take the new game's seat.
        let invited = self.game.rematch.as_ref().map(|r| {
            let mut view = view.clone();
            view["rematch"]["invite"] = r.invite.clone().into();
            (r.by.opponent(), ServerMessage::State { view }.text())
        });
        let text = ServerMessage::State { view }.text();
        self.followers.retain(|f| match &invited {
            _ if only.is_some_and(|c| c != f.connection) => true,
            Some((opponent, invited)) if f.seat == Some(*opponent) => f.outbox.send_text(invited.clone()),
            _ => f.outbox.send_text(text.clone()),
        });
    }

    /// Stops a search whose answer is no longer wanted, and queues one on `engines` when the
    /// engine is to move: the engine's clock is held until the search leaves the queue.
    pub fn ask_engine(&mut self, engines: &EnginePool) {
        let game = &self.game;
        if let Some((generation, ply, control)) = &self.thinking {
            if *generation != game.generation || *ply != game.moves().len() || game.engine_to_move().is_none()
            {
                control.request_stop();
                self.thinking = None;
            }
        }
        if self.thinking.is_some() {
            return;
        }
        let Some(strength) = game.engine_to_move() else { return };
        let to_move = game.position().side_to_move();
        let clock =
            game.clock.as_ref().map(|c| (c.left_at(to_move, to_move, Instant::now()), c.increment_ms));
        let control = Arc::new(SearchControl::new());
        let generation = game.generation;
        self.game.hold_clock(Instant::now());
        let game = &self.game;
        engines.submit(EngineJob {
            game: game.id.clone(),
            control: control.clone(),
            task: Task::Move {
                generation,
                position: game.position().clone(),
                limits: move_limits(clock),
                skill: strength.skill(),
            },
        });
        self.thinking = Some((game.generation, game.moves().len(), control));
    }

    /// Whether an engine answer for `generation` is the one this game waits for.
    pub fn wants_answer(&self, generation: u64) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|(asked, ply, _)| *asked == generation && *ply == self.game.moves().len())
    }
}
