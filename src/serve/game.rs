//! One game: its moves, its seats (each a secret token, the engine, or open for a friend), its
//! clocks, the draw offer and take-back request standing, and how it ended. Nothing here does
//! input or output; `lobby` calls it under the game's lock and tells everyone what changed.

use std::fmt;
use std::time::Instant;

use serde_json::{json, Value};

use super::action::Action;
use super::review::player_name;
use super::strength::Strength;
use crate::board::{movegen, Color, Move, Position};
use crate::notation::{format_move, parse_move, MoveNotation, NotationError, PgnGame};
use crate::rules::{game_result, Termination};

/// Who sits on one side of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Waiting for a friend to join through the share link.
    Open,
    /// A person, known by the secret token handed to them.
    Human {
        /// The secret that proves a message comes from this player.
        token: String,
    },
    /// Chariot, at this strength.
    Engine {
        /// Its skill level or Elo.
        strength: Strength,
    },
    /// A player of a game loaded from a PGN: nobody plays here.
    Recorded {
        /// The name the PGN gives, if any.
        name: Option<String>,
    },
}

/// Why a game ended when the board rules did not end it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The rules ended it (`chariot judge`'s words: checkmate, perpetual check, …).
    Rules(Termination),
    /// The loser resigned.
    Resignation,
    /// Both players agreed to a draw.
    AgreedDraw,
    /// The loser's clock ran out.
    TimeForfeit,
    /// Nobody moved for too long and the server closed the game.
    Abandoned,
    /// A game loaded from a PGN ended so, by its record (when the rules did not end it).
    Recorded,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Rules(t) => write!(f, "{t}"),
            EndReason::Resignation => f.write_str("resignation"),
            EndReason::AgreedDraw => f.write_str("agreed draw"),
            EndReason::TimeForfeit => f.write_str("time forfeit"),
            EndReason::Abandoned => f.write_str("abandoned"),
            EndReason::Recorded => f.write_str("as recorded"),
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner, `None` for a draw (or an abandoned game).
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

impl Ending {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` for an abandoned game.
    pub fn pgn_result(&self) -> &'static str {
        match (self.reason, self.winner) {
            (EndReason::Abandoned, _) => "*",
            (_, Some(Color::Red)) => "1-0",
            (_, Some(Color::Black)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }

    /// For people: `red wins: checkmate`, `draw: repetition`.
    pub fn text(&self) -> String {
        match (self.reason, self.winner) {
            (EndReason::Abandoned, _) => "abandoned".to_string(),
            (reason, Some(winner)) => format!("{} wins: {reason}", winner.name()),
            (reason, None) => format!("draw: {reason}"),
        }
    }
}

/// Both sides' clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Milliseconds added after each move.
    pub increment_ms: u64,
    /// Each side's time left (Red, Black) when its clock last stopped.
    pub left_ms: [u64; 2],
    /// When the side to move's clock started, `None` while stopped.
    pub running_since: Option<Instant>,
}

impl Clock {
    /// `minutes` per side plus `increment_s` per move, both clocks stopped.
    pub fn new(minutes: u32, increment_s: u32) -> Clock {
        let ms = u64::from(minutes) * 60_000;
        Clock { increment_ms: u64::from(increment_s) * 1000, left_ms: [ms, ms], running_since: None }
    }

    /// `side`'s time left at `now`, when `side` is `to_move` (whose clock may be running).
    pub fn left_at(&self, side: Color, to_move: Color, now: Instant) -> u64 {
        let left = self.left_ms[side.index()];
        match self.running_since {
            Some(since) if side == to_move => {
                left.saturating_sub(now.saturating_duration_since(since).as_millis() as u64)
            }
            _ => left,
        }
    }

    /// Stops the running clock of `to_move`, keeping the time it used.
    fn stop(&mut self, to_move: Color, now: Instant) {
        self.left_ms[to_move.index()] = self.left_at(to_move, to_move, now);
        self.running_since = None;
    }
}

/// Why a player's action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The token is no player's of this game.
    WrongToken,
    /// A spectator tried to play.
    Spectator,
    /// The game is over.
    GameOver,
    /// A rematch is offered only once the game has ended.
    NotOver,
    /// It is the other side's turn.
    NotYourTurn,
    /// The move text names no legal move.
    Illegal(NotationError),
    /// There is no offer or request from the opponent to answer.
    NothingToAnswer,
    /// The player already asked and waits for the answer.
    AlreadyAsked,
    /// The opponent asked first; answer that.
    OpponentAsked,
    /// Not enough moves to take back.
    NothingToTakeBack,
    /// The engine does not take draw offers.
    EngineDeclines,
    /// Still waiting for the second player.
    WaitingForOpponent,
    /// A game loaded from a PGN: nobody plays in it.
    Recorded,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::WrongToken => f.write_str("that token is no player's in this game"),
            GameError::Spectator => f.write_str("spectators cannot play"),
            GameError::GameOver => f.write_str("the game is over"),
            GameError::NotOver => f.write_str("a rematch is offered once the game is over"),
            GameError::NotYourTurn => f.write_str("it is not your turn"),
            GameError::Illegal(e) => write!(f, "illegal move: {e}"),
            GameError::NothingToAnswer => f.write_str("there is nothing to answer"),
            GameError::AlreadyAsked => f.write_str("you already asked; wait for the answer"),
            GameError::OpponentAsked => f.write_str("your opponent asked first; answer that"),
            GameError::NothingToTakeBack => f.write_str("there is no move of yours to take back"),
            GameError::EngineDeclines => f.write_str("Chariot plays on: it does not take draw offers"),
            GameError::WaitingForOpponent => f.write_str("waiting for the second player to join"),
            GameError::Recorded => {
                f.write_str("this is an analysis board of a recorded game: nobody plays in it")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A rematch offered after the end: a new friend game the offerer created, waiting for the
/// opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rematch {
    /// The side that offered it.
    pub by: Color,
    /// The new game's id.
    pub game: String,
    /// The new game's invitation, told to the opponent only.
    pub invite: String,
}

/// One game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's id, in its share link.
    pub id: String,
    /// Where it started.
    pub start: Position,
    moves: Vec<Move>,
    position: Position,
    /// Red's seat, then Black's.
    pub seats: [Seat; 2],
    /// The clocks, `None` for an untimed game.
    pub clock: Option<Clock>,
    /// The side that offered a draw, standing until the other side answers or moves.
    pub draw_offer: Option<Color>,
    /// The side that asked to take back, standing until answered or a move is played.
    pub undo_request: Option<Color>,
    /// How it ended, `None` while it goes on.
    pub ending: Option<Ending>,
    /// Counts take-backs, so an engine's answer to a position taken back is dropped.
    pub generation: u64,
    /// When it was created, in seconds since 1970 (for the PGN's date).
    pub created_unix: u64,
    /// For an analysis board (复盘): the PGN game it was loaded from.
    pub record: Option<Box<PgnGame>>,
    /// A friend game's invitation: the secret of the creator's share link, needed to take the
    /// open seat (the spectators' link carries the id only).
    pub invite: Option<String>,
    /// After the end: the rematch a player offered.
    pub rematch: Option<Rematch>,
}

impl Game {
    /// A game from `start` with these seats and clock, nothing played.
    pub fn new(
        id: String,
        start: Position,
        seats: [Seat; 2],
        clock: Option<Clock>,
        created_unix: u64,
    ) -> Game {
        let mut game = Game {
            id,
            position: start.clone(),
            start,
            moves: Vec::new(),
            seats,
            clock,
            draw_offer: None,
            undo_request: None,
            ending: None,
            generation: 0,
            created_unix,
            record: None,
            invite: None,
            rematch: None,
        };
        game.ending = game_result(&game.position)
            .map(|r| Ending { winner: r.winner, reason: EndReason::Rules(r.termination) });
        game
    }

    /// An analysis board of `record` (its moves legal, as `read_pgn` checked them): nobody plays,
    /// and it ends as the rules end its last position, else as the record says.
    pub fn recorded(id: String, record: PgnGame, created_unix: u64) -> Game {
        let seats = ["Red", "Black"].map(|tag| Seat::Recorded { name: player_name(&record, tag) });
        let mut game = Game::new(id, record.start.clone(), seats, None, created_unix);
        for m in &record.moves {
            game.position.make_move(m.mv);
            game.moves.push(m.mv);
        }
        let by_rules = game_result(&game.position)
            .map(|r| Ending { winner: r.winner, reason: EndReason::Rules(r.termination) });
        let recorded = |winner| Some(Ending { winner, reason: EndReason::Recorded });
        game.ending = by_rules.or(match record.result.as_str() {
            "1-0" => recorded(Some(Color::Red)),
            "0-1" => recorded(Some(Color::Black)),
            "1/2-1/2" => recorded(None),
            _ => None,
        });
        game.record = Some(Box::new(record));
        game
    }

    /// Whether this is an analysis board of a recorded game.
    pub fn is_recorded(&self) -> bool {
        self.record.is_some()
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position now, with the game's moves in its history (for repetitions).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side whose seat `token` is.
    pub fn seat_of(&self, token: &str) -> Result<Color, GameError> {
        Color::BOTH
            .into_iter()
            .find(|c| matches!(&self.seats[c.index()], Seat::Human { token: t } if t == token))
            .ok_or(GameError::WrongToken)
    }

    /// The engine's strength when the engine is to move in a game that goes on.
    pub fn engine_to_move(&self) -> Option<Strength> {
        match self.seats[self.position.side_to_move().index()] {
            Seat::Engine { strength } if self.ending.is_none() => Some(strength),
            _ => None,
        }
    }

    /// Whether the engine may help anyone with this game (analysis, evaluation, curve): once it
    /// has ended, or on an analysis board; never while it is played (fair play).
    pub fn engine_help(&self) -> bool {
        self.is_recorded() || self.ending.is_some()
    }

    /// Whether one side is the engine.
    pub fn against_engine(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, Seat::Engine { .. }))
    }

    /// Whether both seats are taken.
    pub fn seats_full(&self) -> bool {
        !self.seats.contains(&Seat::Open)
    }

    /// Starts the side to move's clock, once both players are there, the first move is played
    /// (a player who has not moved yet, or an engine game waiting for its first search, loses
    /// no time) and the game goes on.
    pub fn start_clock(&mut self, now: Instant) {
        let ready = self.seats_full() && self.ending.is_none() && !self.moves.is_empty();
        if let Some(clock) = &mut self.clock {
            if ready && clock.running_since.is_none() {
                clock.running_since = Some(now);
            }
        }
    }

    /// Stops the side to move's clock, keeping the time it used: an engine's search waits for a
    /// free engine thread, and that wait is not the engine's to pay (`start_clock` restarts it
    /// when the search starts).
    pub fn hold_clock(&mut self, now: Instant) {
        let to_move = self.position.side_to_move();
        if let Some(clock) = &mut self.clock {
            if clock.running_since.is_some() {
                clock.stop(to_move, now);
            }
        }
    }

    /// Ends the game on time when the side to move's clock is down to zero; whether it did.
    pub fn check_flag(&mut self, now: Instant) -> bool {
        let to_move = self.position.side_to_move();
        let flagged = self.ending.is_none()
            && self
                .clock
                .as_ref()
                .is_some_and(|c| c.running_since.is_some() && c.left_at(to_move, to_move, now) == 0);
        if flagged {
            self.finish(Ending { winner: Some(to_move.opponent()), reason: EndReason::TimeForfeit }, now);
        }
        flagged
    }

    fn finish(&mut self, ending: Ending, now: Instant) {
        let to_move = self.position.side_to_move();
        if let Some(clock) = &mut self.clock {
            clock.stop(to_move, now);
        }
        self.ending = Some(ending);
        self.draw_offer = None;
        self.undo_request = None;
    }

    /// Plays `mv`, legal here, for the side to move: clocks, offers and the rules' verdict.
    fn play(&mut self, mv: Move, now: Instant) {
        let mover = self.position.side_to_move();
        if let Some(clock) = &mut self.clock {
            if clock.running_since.is_some() {
                clock.stop(mover, now);
                clock.left_ms[mover.index()] += clock.increment_ms;
            }
        }
        self.position.make_move(mv);
        self.moves.push(mv);
        self.undo_request = None;
        // A draw offer stands until the side it was made to moves instead of answering.
        if self.draw_offer == Some(mover.opponent()) {
            self.draw_offer = None;
        }
        if let Some(r) = game_result(&self.position) {
            self.finish(Ending { winner: r.winner, reason: EndReason::Rules(r.termination) }, now);
        } else {
            self.start_clock(now);
        }
    }

    /// Plays the engine's answer when it is still wanted: the game goes on at the same
    /// `generation`, the engine is to move, and `mv` is legal. Whether it was played.
    pub fn engine_move(&mut self, mv: Move, generation: u64, now: Instant) -> bool {
        if generation != self.generation || self.engine_to_move().is_none() || self.check_flag(now) {
            return false;
        }
        if !movegen::is_legal(&mut self.position.clone(), mv) {
            return false;
        }
        self.play(mv, now);
        true
    }

    /// Replays the game from `start` (for loading a saved game): the first move that is not
    /// legal where it stands is refused.
    pub fn replay(&mut self, moves: &[Move]) -> Result<(), NotationError> {
        for (i, &mv) in moves.iter().enumerate() {
            if self.ending.is_some() || !movegen::is_legal(&mut self.position.clone(), mv) {
                return Err(NotationError::IllegalMove { mv, ply: i + 1 });
            }
            let clock = self.clock.take();
            self.play(mv, Instant::now());
            self.clock = clock;
        }
        Ok(())
    }

    /// How many plies `asker` must take back to undo their last move, when there are enough.
    fn plies_to_take_back(&self, asker: Color) -> Option<usize> {
        let plies = if self.position.side_to_move() == asker { 2 } else { 1 };
        (self.moves.len() >= plies).then_some(plies)
    }

    /// Takes back `plies` moves; the clock runs for the new side to move.
    fn take_back(&mut self, plies: usize, now: Instant) {
        let to_move = self.position.side_to_move();
        if let Some(clock) = &mut self.clock {
            if clock.running_since.is_some() {
                clock.stop(to_move, now);
            }
        }
        self.moves.truncate(self.moves.len() - plies);
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        self.position = pos;
        self.ending = None;
        self.draw_offer = None;
        self.undo_request = None;
        self.generation += 1;
        self.start_clock(now);
    }

    /// Does what the player of `color` asks, or says why not (and changes nothing).
    pub fn act(&mut self, color: Color, action: &Action, now: Instant) -> Result<(), GameError> {
        if self.is_recorded() {
            return Err(GameError::Recorded);
        }
        let opponent = color.opponent();
        // Against the engine a lost game can still be taken back, to try again.
        let undo_after_end = matches!(action, Action::AskUndo)
            && self.against_engine()
            && matches!(self.ending, Some(Ending { reason: EndReason::Rules(_), .. }));
        let rematch = matches!(action, Action::OfferRematch { .. });
        if !undo_after_end && !rematch && (self.check_flag(now) || self.ending.is_some()) {
            return Err(GameError::GameOver);
        }
        if !self.seats_full() && !matches!(action, Action::Resign) {
            return Err(GameError::WaitingForOpponent);
        }
        match action {
            Action::Move(text) => {
                if self.position.side_to_move() != color {
                    return Err(GameError::NotYourTurn);
                }
                let mv = parse_move(&self.position, text).map_err(GameError::Illegal)?;
                self.play(mv, now);
            }
            Action::Resign => {
                self.finish(Ending { winner: Some(opponent), reason: EndReason::Resignation }, now)
            }
            Action::OfferDraw => {
                if self.against_engine() {
                    return Err(GameError::EngineDeclines);
                }
                match self.draw_offer {
                    Some(c) if c == opponent => {
                        self.finish(Ending { winner: None, reason: EndReason::AgreedDraw }, now);
                    }
                    Some(_) => return Err(GameError::AlreadyAsked),
                    None => self.draw_offer = Some(color),
                }
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                if self.draw_offer != Some(opponent) {
                    return Err(GameError::NothingToAnswer);
                }
                if matches!(action, Action::AcceptDraw) {
                    self.finish(Ending { winner: None, reason: EndReason::AgreedDraw }, now);
                } else {
                    self.draw_offer = None;
                }
            }
            Action::AskUndo => {
                match self.undo_request {
                    Some(c) if c == color => return Err(GameError::AlreadyAsked),
                    Some(_) => return Err(GameError::OpponentAsked),
                    None => {}
                }
                let plies = self.plies_to_take_back(color).ok_or(GameError::NothingToTakeBack)?;
                if self.against_engine() {
                    self.take_back(plies, now);
                } else {
                    self.undo_request = Some(color);
                }
            }
            Action::AgreeUndo | Action::RefuseUndo => {
                if self.undo_request != Some(opponent) {
                    return Err(GameError::NothingToAnswer);
                }
                if matches!(action, Action::AgreeUndo) {
                    let plies = self.plies_to_take_back(opponent).ok_or(GameError::NothingToTakeBack)?;
                    self.take_back(plies, now);
                } else {
                    self.undo_request = None;
                }
            }
            Action::OfferRematch { game, invite } => {
                if !self.check_flag(now) && self.ending.is_none() {
                    return Err(GameError::NotOver);
                }
                self.rematch = Some(Rematch { by: color, game: game.clone(), invite: invite.clone() });
            }
        }
        Ok(())
    }

    /// Ends the game as abandoned (idle too long).
    pub fn abandon(&mut self, now: Instant) {
        if self.ending.is_none() {
            self.finish(Ending { winner: None, reason: EndReason::Abandoned }, now);
        }
    }

    /// The game as the browsers see it. `online` says which seats have a connection,
    /// `spectators` how many watch, `thinking` whether the engine is searching.
    pub fn view(&self, now: Instant, online: [bool; 2], spectators: usize, thinking: bool) -> Value {
        let mut pos = self.start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            moves.push(json!({
                "iccs": format_move(&pos, mv, MoveNotation::Iccs),
                "wxf": format_move(&pos, mv, MoveNotation::Wxf),
                "chinese": format_move(&pos, mv, MoveNotation::Chinese),
            }));
            pos.make_move(mv);
        }
        let to_move = self.position.side_to_move();
        let legal: Vec<String> = if self.ending.is_none() && !self.is_recorded() {
            movegen::legal_moves(&mut self.position.clone()).iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        };
        let seat = |c: Color| {
            let mut seat = json!({"kind": "human", "level": null, "elo": null, "online": online[c.index()]});
            match &self.seats[c.index()] {
                Seat::Open => seat["kind"] = json!("open"),
                Seat::Recorded { name } => {
                    seat["kind"] = json!("recorded");
                    seat["name"] = json!(name);
                    seat["online"] = json!(false);
                }
                Seat::Human { .. } => {}
                Seat::Engine { strength } => {
                    seat["kind"] = json!("engine");
                    seat["online"] = json!(true);
                    if let (Value::Object(seat), Value::Object(fields)) = (&mut seat, strength.fields()) {
                        seat.extend(fields);
                    }
                }
            }
            seat
        };
        let clock = self.clock.as_ref().map(|c| {
            json!({
                "red_ms": c.left_at(Color::Red, to_move, now),
                "black_ms": c.left_at(Color::Black, to_move, now),
                "running": c.running_since.is_some(),
                "increment_ms": c.increment_ms,
            })
        });
        json!({
            "id": self.id,
            "start_fen": self.start.to_fen(),
            "fen": self.position.to_fen(),
            "turn": to_move.name(),
            "check": self.position.is_check(),
            "moves": moves,
            "last": self.moves.last().map(|m| m.to_string()),
            "legal": legal,
            "red": seat(Color::Red),
            "black": seat(Color::Black),
            "clock": clock,
            "draw_offer": self.draw_offer.map(Color::name),
            "undo_request": self.undo_request.map(Color::name),
            "result": self.ending.map(|e| json!({"score": e.pgn_result(), "reason": e.reason.to_string(), "text": e.text()})),
            "thinking": thinking,
            "engine_help": self.engine_help(),
            "spectators": spectators,
            // The new game's invitation is not here: the room adds it to the opponent's copy alone.
            "rematch": self.rematch.as_ref().map(|r| json!({"by": r.by.name(), "game": r.game})),
            "record": self.record.as_ref().map(|r| json!({
                "event": r.tag("Event").filter(|e| *e != "?"),
                "date": r.tag("Date").filter(|d| !d.contains('?')),
                "result": r.result,
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn human(token: &str) -> Seat {
        Seat::Human { token: token.to_string() }
    }

    fn friends() -> Game {
        Game::new("g".into(), Position::startpos(), [human("r"), human("b")], None, 0)
    }

    fn mv(text: &str) -> Action {
        Action::Move(text.to_string())
    }

    #[test]
    fn moves_are_checked_for_turn_and_legality() {
        let mut g = friends();
        let now = Instant::now();
        assert_eq!(g.seat_of("r"), Ok(Color::Red));
        assert_eq!(g.seat_of("x"), Err(GameError::WrongToken));
        assert_eq!(g.act(Color::Black, &mv("h9g7"), now), Err(GameError::NotYourTurn));
        assert!(matches!(g.act(Color::Red, &mv("h2h8"), now), Err(GameError::Illegal(_))));
        assert!(matches!(g.act(Color::Red, &mv("junk"), now), Err(GameError::Illegal(_))));
        assert_eq!(g.moves().len(), 0);
        g.act(Color::Red, &mv("炮二平五"), now).unwrap();
        g.act(Color::Black, &mv("H8+7"), now).unwrap();
        assert_eq!(g.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["h2e2", "h9g7"]);
    }

    #[test]
    fn a_quick_mate_ends_the_game_in_the_judges_words() {
        // `chariot judge --moves b2b4 d9e8 b4g4 c9a7 g4g9` says: result 1-0 ply 5 reason checkmate.
        let mut g = friends();
        let now = Instant::now();
        for (i, m) in ["b2b4", "d9e8", "b4g4", "c9a7", "g4g9"].iter().enumerate() {
            assert!(g.ending.is_none());
            let side = if i % 2 == 0 { Color::Red } else { Color::Black };
            g.act(side, &mv(m), now).unwrap();
        }
        let ending = g.ending.unwrap();
        assert_eq!(ending.pgn_result(), "1-0");
        assert_eq!(ending.reason.to_string(), "checkmate");
        assert_eq!(ending.text(), "red wins: checkmate");
        assert_eq!(g.act(Color::Black, &mv("e9d9"), now), Err(GameError::GameOver));
        assert!(g.view(now, [true, true], 0, false)["legal"].as_array().unwrap().is_empty());
    }

    #[test]
    fn draw_offers_need_the_other_side() {
        let mut g = friends();
        let now = Instant::now();
        assert_eq!(g.act(Color::Red, &Action::AcceptDraw, now), Err(GameError::NothingToAnswer));
        g.act(Color::Red, &Action::OfferDraw, now).unwrap();
        assert_eq!(g.act(Color::Red, &Action::AcceptDraw, now), Err(GameError::NothingToAnswer));
        assert_eq!(g.act(Color::Red, &Action::OfferDraw, now), Err(GameError::AlreadyAsked));
        g.act(Color::Black, &Action::DeclineDraw, now).unwrap();
        assert_eq!(g.draw_offer, None);
        g.act(Color::Red, &Action::OfferDraw, now).unwrap();
        g.act(Color::Black, &Action::AcceptDraw, now).unwrap();
        let ending = g.ending.unwrap();
        assert_eq!((ending.pgn_result(), ending.text()), ("1/2-1/2", "draw: agreed draw".to_string()));
        assert_eq!(g.act(Color::Red, &mv("h2e2"), now), Err(GameError::GameOver));
    }

    #[test]
    fn a_draw_offer_lapses_when_its_receiver_moves() {
        let mut g = friends();
        let now = Instant::now();
        g.act(Color::Red, &Action::OfferDraw, now).unwrap();
        g.act(Color::Red, &mv("h2e2"), now).unwrap();
        assert_eq!(g.draw_offer, Some(Color::Red), "the offer stands after the offerer's own move");
        g.act(Color::Black, &mv("h9g7"), now).unwrap();
        assert_eq!(g.draw_offer, None);
        assert_eq!(g.act(Color::Black, &Action::AcceptDraw, now), Err(GameError::NothingToAnswer));
    }

    #[test]
    fn undo_needs_agreement_and_takes_back_the_askers_move() {
        let mut g = friends();
        let now = Instant::now();
        assert_eq!(g.act(Color::Red, &Action::AskUndo, now), Err(GameError::NothingToTakeBack));
        g.act(Color::Red, &mv("h2e2"), now).unwrap();
        g.act(Color::Red, &Action::AskUndo, now).unwrap();
        assert_eq!(g.act(Color::Red, &Action::AgreeUndo, now), Err(GameError::NothingToAnswer));
        assert_eq!(g.act(Color::Black, &Action::AskUndo, now), Err(GameError::OpponentAsked));
        g.act(Color::Black, &Action::RefuseUndo, now).unwrap();
        assert_eq!(g.moves().len(), 1);
        g.act(Color::Black, &mv("h9g7"), now).unwrap();
        // Red asks after Black replied: Black's reply and Red's move both go.
        g.act(Color::Red, &Action::AskUndo, now).unwrap();
        g.act(Color::Black, &Action::AgreeUndo, now).unwrap();
        assert_eq!(g.moves().len(), 0);
        assert_eq!(g.position().to_fen(), Position::startpos().to_fen());
        assert_eq!(g.generation, 1);
    }

    #[test]
    fn against_the_engine_undo_is_at_once_and_draws_are_declined() {
        let seats = [human("r"), Seat::Engine { strength: Strength::Level(1) }];
        let mut g = Game::new("g".into(), Position::startpos(), seats, None, 0);
        let now = Instant::now();
        g.act(Color::Red, &mv("h2e2"), now).unwrap();
        assert_eq!(g.engine_to_move(), Some(Strength::Level(1)));
        let v = g.view(now, [true, false], 0, true);
        assert_eq!((v["black"]["kind"].as_str(), v["black"]["level"].as_u64()), (Some("engine"), Some(1)));
        assert_eq!(v["black"]["elo"], json!(Strength::Level(1).elo()));
        assert_eq!((v["black"]["online"].as_bool(), v["red"]["level"].is_null()), (Some(true), true));
        let answer = Move::parse_iccs("h9g7").unwrap();
        // An answer to a position taken back is dropped.
        assert!(!g.engine_move(answer, 7, now));
        assert!(g.engine_move(answer, 0, now));
        assert_eq!(g.act(Color::Red, &Action::OfferDraw, now), Err(GameError::EngineDeclines));
        g.act(Color::Red, &Action::AskUndo, now).unwrap();
        assert_eq!(g.moves().len(), 0);
        assert!(!g.engine_move(answer, 0, now), "stale generation");
    }

    #[test]
    fn an_engine_games_clock_waits_for_the_first_move() {
        let seats = [Seat::Engine { strength: Strength::Level(1) }, human("b")];
        let mut g = Game::new("g".into(), Position::startpos(), seats, Some(Clock::new(1, 0)), 0);
        let t0 = Instant::now();
        g.start_clock(t0);
        let later = t0 + Duration::from_millis(90_000);
        assert!(!g.check_flag(later), "the engine's first search does not run its clock");
        assert!(g.engine_move(Move::parse_iccs("h2e2").unwrap(), 0, later));
        let v = g.view(later + Duration::from_millis(4_000), [true, true], 0, false);
        assert_eq!(
            (v["clock"]["red_ms"].as_u64(), v["clock"]["black_ms"].as_u64()),
            (Some(60_000), Some(56_000))
        );
        assert_eq!(v["clock"]["running"], json!(true));
    }

    #[test]
    fn a_rematch_is_offered_after_the_end_only() {
        let mut g = friends();
        let now = Instant::now();
        let offer = Action::OfferRematch { game: "next".into(), invite: "secret".into() };
        assert_eq!(g.act(Color::Black, &offer, now), Err(GameError::NotOver));
        assert!(g.view(now, [true, true], 0, false)["rematch"].is_null());
        g.act(Color::Red, &Action::Resign, now).unwrap();
        g.act(Color::Black, &offer, now).unwrap();
        let view = g.view(now, [true, true], 0, false);
        assert_eq!(view["rematch"], json!({"by": "black", "game": "next"}), "no invitation in the view");
        assert_eq!(g.act(Color::Red, &mv("h2e2"), now), Err(GameError::GameOver));
    }

    #[test]
    fn the_clock_runs_for_the_side_to_move_and_flags() {
        let mut g =
            Game::new("g".into(), Position::startpos(), [human("r"), human("b")], Some(Clock::new(1, 2)), 0);
        let t0 = Instant::now();
        g.start_clock(t0);
        // The clocks start at the first move: Red's thinking before it costs nothing.
        assert_eq!(g.view(t0, [true, true], 0, false)["clock"]["running"], json!(false));
        g.act(Color::Red, &mv("h2e2"), t0 + Duration::from_millis(10_000)).unwrap();
        assert_eq!(g.clock.as_ref().unwrap().left_ms, [60_000, 60_000]);
        g.act(Color::Black, &mv("h9g7"), t0 + Duration::from_millis(15_000)).unwrap();
        assert_eq!(g.clock.as_ref().unwrap().left_ms, [60_000, 60_000 - 5_000 + 2_000]);
        g.act(Color::Red, &mv("h0g2"), t0 + Duration::from_millis(25_000)).unwrap();
        let clock = g.clock.as_ref().unwrap();
        assert_eq!(clock.left_ms, [60_000 - 10_000 + 2_000, 57_000]);
        let later = t0 + Duration::from_millis(25_000 + 57_001);
        assert_eq!(g.act(Color::Black, &mv("h9g7"), later), Err(GameError::GameOver));
        assert_eq!(g.ending, Some(Ending { winner: Some(Color::Red), reason: EndReason::TimeForfeit }));
    }

    #[test]
    fn a_friend_game_waits_for_the_second_player() {
        let mut g = Game::new("g".into(), Position::startpos(), [human("r"), Seat::Open], None, 0);
        assert_eq!(g.act(Color::Red, &mv("h2e2"), Instant::now()), Err(GameError::WaitingForOpponent));
        g.act(Color::Red, &Action::Resign, Instant::now()).unwrap();
        assert_eq!(g.ending.unwrap().text(), "black wins: resignation");
    }

    #[test]
    fn a_recorded_game_ends_as_recorded_or_by_the_rules_and_nobody_plays() {
        let read = |text: &str| crate::notation::read_pgn(text).unwrap().remove(0);
        let drawn = Game::recorded("r".into(), read("[Red \"Xu\"]\n\n1. h2e2 h9g7 1/2-1/2"), 0);
        assert_eq!(drawn.moves().len(), 2);
        let ending = drawn.ending.unwrap();
        assert_eq!((ending.pgn_result(), ending.text()), ("1/2-1/2", "draw: as recorded".to_string()));
        assert_eq!(drawn.seats[0], Seat::Recorded { name: Some("Xu".into()) });
        assert_eq!(drawn.seats[1], Seat::Recorded { name: None });
        // The rules' verdict on the last position stands before the record's.
        let mated = Game::recorded("m".into(), read("1. b2b4 d9e8 2. b4g4 c9a7 3. g4g9 0-1"), 0);
        assert_eq!(mated.ending.unwrap().text(), "red wins: checkmate");
        let open = Game::recorded("o".into(), read("1. h2e2 *"), 0);
        assert_eq!(open.ending, None);
        let mut g = open.clone();
        assert_eq!(g.act(Color::Black, &mv("h9g7"), Instant::now()), Err(GameError::Recorded));
        assert_eq!(g.act(Color::Red, &Action::Resign, Instant::now()), Err(GameError::Recorded));
        assert_eq!(g.moves(), open.moves());
        let v = open.view(Instant::now(), [false, false], 1, false);
        assert!(v["legal"].as_array().unwrap().is_empty());
        assert_eq!(
            (v["red"]["kind"].as_str(), v["record"]["result"].as_str()),
            (Some("recorded"), Some("*"))
        );
        assert!(v["result"].is_null() && g.engine_to_move().is_none());
    }

    #[test]
    fn the_view_lists_moves_in_three_notations_and_the_legal_moves() {
        let mut g = friends();
        g.act(Color::Red, &mv("h2e2"), Instant::now()).unwrap();
        let v = g.view(Instant::now(), [true, false], 2, false);
        assert_eq!(v["moves"][0], json!({"iccs": "h2e2", "wxf": "C2=5", "chinese": "炮二平五"}));
        assert_eq!(v["turn"], "black");
        // Fairy-Stockfish: `position startpos moves h3e3` (its ranks count from 1), `go perft 1`: 45.
        assert_eq!(v["legal"].as_array().unwrap().len(), 45);
        assert_eq!(v["red"]["online"], true);
        assert_eq!(v["black"]["online"], false);
        assert_eq!(v["spectators"], 2);
        assert!(v["result"].is_null());
    }
}
