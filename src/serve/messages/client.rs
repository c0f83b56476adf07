//! What a browser sends: `ClientMessage`, parsed from one JSON text with every field checked and
//! every length bounded.

use std::fmt;

use serde_json::{Map, Value};

use crate::quote::quoted;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::serve::action::Action;
use crate::serve::explore::MAX_LINE_MOVES;
use crate::serve::strength::Strength;

/// The longest message a client may send, in bytes, but for a PGN to load. The longest real one
/// (a `create` with a start FEN) is under 300 bytes; anything near this is junk or an attack.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The longest `load_pgn` message, in bytes: a game of 300 moves in Chinese with a comment on
/// each is about 20 KiB. It stays below the WebSocket frame limit (64 KiB), so a longer one is
/// answered with an error and the connection goes on.
pub const MAX_PGN_MESSAGE_BYTES: usize = 48 * 1024;

/// The longest game id or token accepted; longer ones name no game, so they are refused unread.
const MAX_ID_CHARS: usize = 64;

/// The longest move text accepted (a Chinese move is four characters, WXF four, ICCS four).
const MAX_MOVE_CHARS: usize = 16;

/// The longest FEN accepted (a full board with every field is under 100 characters).
const MAX_FEN_CHARS: usize = 120;

/// The longest time control offered, in minutes per side.
pub const MAX_MINUTES: u32 = 180;

/// The largest increment offered, in seconds per move.
pub const MAX_INCREMENT_S: u32 = 60;

/// Who plays the other side of a new game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Chariot, at this strength.
    Engine {
        /// A skill level or an Elo.
        strength: Strength,
    },
    /// A person who joins through the share link.
    Friend,
}

/// Which side the creator of a game takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SideChoice {
    /// Red, who moves first.
    Red,
    /// Black.
    Black,
    /// Drawn by lot.
    Random,
}

/// The settings of a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The engine (and its level) or a friend.
    pub opponent: Opponent,
    /// The creator's side.
    pub side: SideChoice,
    /// Minutes on each clock; 0 for an untimed game.
    pub minutes: u32,
    /// Seconds added after each move.
    pub increment_s: u32,
    /// The starting position, when not the standard one.
    pub fen: Option<String>,
}

/// One message from a browser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// Start a game and take a seat in it.
    Create(NewGame),
    /// Take the open seat of a friend's game, with the invitation of the creator's share link.
    Join {
        /// The game's id.
        game: String,
        /// The game's invitation secret (only the creator is told it).
        invite: String,
    },
    /// Follow a game without playing.
    Watch {
        /// The game's id.
        game: String,
    },
    /// Take one's seat again (after a reload or a reconnect).
    Resume {
        /// The game's id.
        game: String,
        /// The seat's secret.
        token: String,
    },
    /// A player's action.
    Act {
        /// The game's id.
        game: String,
        /// The player's secret.
        token: String,
        /// What to do.
        action: Action,
    },
    /// Ask the engine about a position of a game: the best lines with their scores and chances.
    Analyse {
        /// The game's id.
        game: String,
        /// The position after this many moves (the current one when absent).
        ply: Option<usize>,
        /// A variation's moves played from there (a finished game or an analysis board only).
        line: Vec<String>,
        /// How many lines, 1 to 5.
        lines: usize,
    },
    /// Ask for the static evaluation of a position of a game, with each piece's share of it.
    Evaluate {
        /// The game's id.
        game: String,
        /// The position after this many moves (the current one when absent).
        ply: Option<usize>,
        /// A variation's moves played from there (a finished game or an analysis board only).
        line: Vec<String>,
    },
    /// The board editor (打谱): check a position set up, then a line of moves from it.
    Explore {
        /// The position, as a FEN.
        fen: String,
        /// Moves played from it.
        line: Vec<String>,
        /// A number the page chose, sent back with the answer.
        reference: Option<u64>,
    },
    /// A variation (中盘研究): a line of moves from a position of a finished game or an analysis
    /// board, checked move by move.
    Variation {
        /// The game's id.
        game: String,
        /// The line starts after this many of the game's moves.
        ply: usize,
        /// Its moves.
        line: Vec<String>,
        /// A number the page chose, sent back with the answer.
        reference: Option<u64>,
    },
    /// Ask for the game's curve: Red's expected score at every position, from small searches.
    Curve {
        /// The game's id.
        game: String,
    },
    /// Load a game from PGN text as an analysis board (复盘).
    LoadPgn {
        /// The PGN text (its first game is taken).
        pgn: String,
    },
    /// Keeps an idle connection alive; answered with `pong`.
    Ping,
}

/// Why a message was refused before it reached any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Longer than `MAX_MESSAGE_BYTES` (`MAX_PGN_MESSAGE_BYTES` for a PGN to load).
    TooLong {
        /// Its length in bytes.
        bytes: usize,
        /// The limit it broke.
        limit: usize,
    },
    /// Not JSON at all.
    NotJson,
    /// JSON, but not an object.
    NotObject,
    /// A field the message needs is not there.
    Missing {
        /// The field's name.
        field: &'static str,
    },
    /// A field is there but its value is not acceptable.
    BadField {
        /// The field's name.
        field: &'static str,
        /// What is expected of it.
        expected: &'static str,
    },
    /// A number outside the range the field takes.
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// The least value taken.
        min: i64,
        /// The greatest value taken.
        max: i64,
    },
    /// Two fields that exclude each other were both given.
    Conflict {
        /// The first field.
        field: &'static str,
        /// The one it excludes.
        other: &'static str,
    },
    /// The `type` names no message.
    UnknownType {
        /// The type as sent.
        text: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::TooLong { bytes, limit } if *limit == MAX_PGN_MESSAGE_BYTES => {
                write!(f, "message of {bytes} bytes refused (at most {limit} for a PGN)")
            }
            ParseError::TooLong { bytes, limit } => {
                write!(f, "message of {bytes} bytes refused (at most {limit})")
            }
            ParseError::NotJson => f.write_str("the message is not JSON"),
            ParseError::NotObject => f.write_str("the message is not a JSON object"),
            ParseError::Missing { field } => write!(f, "the message has no '{field}'"),
            ParseError::BadField { field, expected } => write!(f, "'{field}' must be {expected}"),
            ParseError::OutOfRange { field, min, max } => {
                write!(f, "'{field}' must be a whole number from {min} to {max}")
            }
            ParseError::Conflict { field, other } => write!(f, "give '{field}' or '{other}', not both"),
            ParseError::UnknownType { text } => write!(f, "unknown message type {}", quoted(text)),
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads one message. Every refusal is a `ParseError`; nothing here panics on any input.
pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
    let bytes = text.len();
    if bytes > MAX_PGN_MESSAGE_BYTES {
        return Err(ParseError::TooLong { bytes, limit: MAX_PGN_MESSAGE_BYTES });
    }
    let too_long = ParseError::TooLong { bytes, limit: MAX_MESSAGE_BYTES };
    let value: Value = serde_json::from_str(text).map_err(|_| {
        if bytes > MAX_MESSAGE_BYTES {
            too_long.clone()
        } else {
            ParseError::NotJson
        }
    })?;
    let object = match value.as_object() {
        Some(object) => object,
        None if bytes > MAX_MESSAGE_BYTES => return Err(too_long),
        None => return Err(ParseError::NotObject),
    };
    let kind = string(object, "type", 32);
    // Only a PGN to load may be longer than the general limit.
    if bytes > MAX_MESSAGE_BYTES && kind.as_deref() != Ok("load_pgn") {
        return Err(too_long);
    }
    let kind = kind?;
    let game = || id(object, "game");
    let token = || id(object, "token");
    let act = |action: Action| Ok(ClientMessage::Act { game: game()?, token: token()?, action });
    let ply = || -> Result<Option<usize>, ParseError> {
        Ok(optional_number(object, "ply", 0, 10_000, "a ply from 0 to 10000")?.map(|n| n as usize))
    };
    let reference =
        || optional_number(object, "ref", 0, u64::from(u32::MAX), "a number from 0 to 4294967295");
    match kind.as_str() {
        "create" => Ok(ClientMessage::Create(new_game(object)?)),
        "join" => Ok(ClientMessage::Join { game: game()?, invite: id(object, "invite")? }),
        "watch" => Ok(ClientMessage::Watch { game: game()? }),
        "resume" => Ok(ClientMessage::Resume { game: game()?, token: token()? }),
        "move" => act(Action::Move(string(object, "move", MAX_MOVE_CHARS)?)),
        "resign" => act(Action::Resign),
        "offer_draw" => act(Action::OfferDraw),
        "accept_draw" => act(Action::AcceptDraw),
        "decline_draw" => act(Action::DeclineDraw),
        "ask_undo" => act(Action::AskUndo),
        "agree_undo" => act(Action::AgreeUndo),
        "refuse_undo" => act(Action::RefuseUndo),
        "offer_rematch" => {
            act(Action::OfferRematch { game: id(object, "rematch")?, invite: id(object, "invite")? })
        }
        "analyse" => Ok(ClientMessage::Analyse {
            game: game()?,
            ply: ply()?,
            line: line(object)?,
            lines: optional_number(object, "lines", 1, 5, "a number of lines from 1 to 5")?.unwrap_or(3)
                as usize,
        }),
        "evaluate" => Ok(ClientMessage::Evaluate { game: game()?, ply: ply()?, line: line(object)? }),
        "explore" => Ok(ClientMessage::Explore {
            fen: string(object, "fen", MAX_FEN_CHARS)?,
            line: line(object)?,
            reference: reference()?,
        }),
        "variation" => Ok(ClientMessage::Variation {
            game: game()?,
            ply: ply()?.ok_or(ParseError::Missing { field: "ply" })?,
            line: line(object)?,
            reference: reference()?,
        }),
        "curve" => Ok(ClientMessage::Curve { game: game()? }),
        "load_pgn" => Ok(ClientMessage::LoadPgn { pgn: string(object, "pgn", MAX_PGN_MESSAGE_BYTES)? }),
        "ping" => Ok(ClientMessage::Ping),
        _ => Err(ParseError::UnknownType { text: kind }),
    }
}

/// The settings of a `create` message; every field but `opponent` has a default.
fn new_game(object: &Map<String, Value>) -> Result<NewGame, ParseError> {
    let opponent = match string(object, "opponent", 16)?.as_str() {
        "engine" => Opponent::Engine { strength: strength(object)? },
        "friend" => Opponent::Friend,
        _ => return Err(ParseError::BadField { field: "opponent", expected: "'engine' or 'friend'" }),
    };
    let side = match object.get("side") {
        None => SideChoice::Red,
        Some(Value::String(s)) if s == "red" => SideChoice::Red,
        Some(Value::String(s)) if s == "black" => SideChoice::Black,
        Some(Value::String(s)) if s == "random" => SideChoice::Random,
        Some(_) => {
            return Err(ParseError::BadField { field: "side", expected: "'red', 'black' or 'random'" })
        }
    };
    let minutes =
        optional_number(object, "minutes", 0, MAX_MINUTES as u64, "a number of minutes from 0 to 180")?;
    let increment =
        optional_number(object, "increment", 0, MAX_INCREMENT_S as u64, "a number of seconds from 0 to 60")?;
    let fen = match object.get("fen") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.chars().count() <= MAX_FEN_CHARS => Some(s.clone()),
        Some(_) => {
            return Err(ParseError::BadField { field: "fen", expected: "a FEN of at most 120 characters" })
        }
    };
    Ok(NewGame {
        opponent,
        side,
        minutes: minutes.unwrap_or(0) as u32,
        increment_s: increment.unwrap_or(0) as u32,
        fen,
    })
}

/// The engine's strength of a `create`: `level` (0 to 20; the first version's levels 1 to 10 are
/// read as skill levels too) or `elo` (on the measured scale), the default level when neither.
fn strength(object: &Map<String, Value>) -> Result<Strength, ParseError> {
    let level = ranged(object, "level", 0, i64::from(MAX_LEVEL))?;
    let elo = ranged(object, "elo", i64::from(MIN_ELO), i64::from(MAX_ELO))?;
    match (level, elo) {
        (Some(_), Some(_)) => Err(ParseError::Conflict { field: "level", other: "elo" }),
        (Some(level), None) => Ok(Strength::Level(level as u8)),
        (None, Some(elo)) => Ok(Strength::Elo(elo as i32)),
        (None, None) => Ok(Strength::default()),
    }
}

/// The whole-number field `field` within `min..=max`, or `None` when absent or null.
fn ranged(
    object: &Map<String, Value>,
    field: &'static str,
    min: i64,
    max: i64,
) -> Result<Option<i64>, ParseError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_i64() {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ParseError::OutOfRange { field, min, max }),
        },
    }
}

/// The string field `field`, at most `max_chars` characters.
fn string(object: &Map<String, Value>, field: &'static str, max_chars: usize) -> Result<String, ParseError> {
    match object.get(field) {
        None => Err(ParseError::Missing { field }),
        Some(Value::String(s)) if s.chars().count() <= max_chars => Ok(s.clone()),
        Some(Value::String(_)) => Err(ParseError::BadField { field, expected: "a shorter string" }),
        Some(_) => Err(ParseError::BadField { field, expected: "a string" }),
    }
}

/// The moves of `line` (absent: none): at most `MAX_LINE_MOVES` strings of a move's length.
fn line(object: &Map<String, Value>) -> Result<Vec<String>, ParseError> {
    let expected = "a list of at most 400 moves";
    match object.get("line") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(moves)) if moves.len() <= MAX_LINE_MOVES => moves
            .iter()
            .map(|m| match m {
                Value::String(s) if s.chars().count() <= MAX_MOVE_CHARS => Ok(s.clone()),
                _ => Err(ParseError::BadField { field: "line", expected }),
            })
            .collect(),
        Some(_) => Err(ParseError::BadField { field: "line", expected }),
    }
}

/// A game id or token: a non-empty string of letters and digits.
fn id(object: &Map<String, Value>, field: &'static str) -> Result<String, ParseError> {
    let text = string(object, field, MAX_ID_CHARS)?;
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(ParseError::BadField { field, expected: "letters and digits" });
    }
    Ok(text)
}

/// The whole-number field `field` within `min..=max`, or `None` when absent.
fn optional_number(
    object: &Map<String, Value>,
    field: &'static str,
    min: u64,
    max: u64,
    expected: &'static str,
) -> Result<Option<u64>, ParseError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_u64() {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ParseError::BadField { field, expected }),
        },
    }
}
