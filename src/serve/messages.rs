//! The wire format: what a browser sends (`ClientMessage`, parsed from one JSON text with every
//! field checked and every length bounded) and every message the server sends (`ServerMessage`:
//! `joined`, `state`, `analysis`, `evaluation`, `curve`, `explored`, `error`, `pong`). docs/serve.md
//! describes it for people.

use std::fmt;

use serde_json::{json, Map, Value};

pub use super::action::Action;
use super::curve::CurvePoint;
use super::engine_player::AnalysisLine;
use super::evaluation::Evaluation;
use super::explore::{Exploration, ExploreError, MAX_LINE_MOVES};
use super::strength::Strength;
use crate::board::{Color, Position};
use crate::egtb::Value as TableValue;
use crate::eval::relations::json::relations_json;
use crate::notation::{format_line, format_move, MoveNotation};
use crate::quote::quoted;
use crate::search::score_scale::ShownScore;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};

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

/// One message from the server to a browser; `text` is what goes on the wire.
#[derive(Clone, Debug)]
pub enum ServerMessage {
    /// The connection follows a game: `{type: "joined", game, token, color, role, invite}` (a
    /// player's token and colour, or a spectator's nulls; the invitation for the open seat, told
    /// to a player only).
    Joined {
        /// The game's id.
        game: String,
        /// The player's secret, `None` for a spectator.
        token: Option<String>,
        /// The player's side, `None` for a spectator.
        color: Option<Color>,
        /// The secret of the share link while a seat is open, `None` otherwise and to spectators.
        invite: Option<String>,
    },
    /// A game as its followers see it now: `{type: "state", game}` (`Game::view`).
    State {
        /// The game's view.
        view: Value,
    },
    /// Who follows a game, after a connection came or went: `{type: "followers", game,
    /// spectators, online: {red, black}}` (whether each human seat has a connection). Small on
    /// purpose: a crowd of watchers coming and going must not send each follower a whole state
    /// (up to 72 KB) apiece.
    Followers {
        /// The game's id.
        game: String,
        /// Spectators watching.
        spectators: usize,
        /// Whether Red's and Black's seats have a connection.
        online: [bool; 2],
    },
    /// A finished analysis: `{type: "analysis", game, ply, fen, turn, lines}`.
    Analysis {
        /// The game's id.
        game: String,
        /// The position's ply.
        ply: usize,
        /// The position analysed.
        position: Position,
        /// Its lines, best first.
        lines: Vec<AnalysisLine>,
        /// The tablebases' verdict for the side to move (`--egtb`), when they hold the position.
        tablebase: Option<TableValue>,
    },
    /// 局面评估: `{type: "evaluation", game, ply, fen, turn, cp, wdl, pieces, relations}`, each
    /// piece `{square, piece, share}`; `relations` has every piece's
    /// `{square, piece, attackers, protectors, hangs, exchange}` (`eval::relations::json`).
    Evaluation {
        /// The game's id.
        game: String,
        /// The position's ply.
        ply: usize,
        /// The position evaluated.
        position: Position,
        /// The score and each piece's share.
        evaluation: Evaluation,
    },
    /// A piece of a curve: `{type: "curve", game, plies, points, done}`, each point
    /// `{ply, expected, cp, mate}` (Red's view; `cp` and `mate` null where the rules ended it).
    Curve {
        /// The game's id.
        game: String,
        /// The game's length when the curve was asked.
        plies: usize,
        /// The points of this piece, in ply order.
        points: Vec<CurvePoint>,
        /// Whether this is the last piece.
        done: bool,
    },
    /// The board editor's or a variation's answer: `{type: "explored", ref, error}` and, when
    /// `error` is null, `moves` (the line's, each `{iccs, wxf, chinese}`), `fen` (where the line
    /// ends), `turn`, `check`, `legal` (ICCS, empty where the rules end the game) and `result`
    /// (null, or `{score, reason}`).
    Explored {
        /// The number the page sent with its question.
        reference: Option<u64>,
        /// The line explored, or why the position or a move of it was refused.
        outcome: Result<Exploration, ExploreError>,
    },
    /// A refusal: `{type: "error", message}`, with a `code` where the page must act on it.
    Error {
        /// Why, in words.
        message: String,
        /// `unknown_token` or `no_such_game`: a seat the page remembers is gone for good.
        code: Option<&'static str>,
    },
    /// The answer to a ping: `{type: "pong"}`.
    Pong,
    /// Something the players should know that refuses nothing: `{type: "warning", message}`
    /// (their game could not be saved).
    Warning {
        /// What, in words.
        message: String,
    },
}

impl ServerMessage {
    /// An `error` saying `message`.
    pub fn error(message: impl fmt::Display) -> ServerMessage {
        ServerMessage::Error { message: message.to_string(), code: None }
    }

    /// The JSON text sent.
    pub fn text(&self) -> String {
        match self {
            ServerMessage::Joined { game, token, color, invite } => json!({
                "type": "joined",
                "game": game,
                "token": token,
                "color": color.map(Color::name),
                "role": if color.is_some() { "player" } else { "spectator" },
                "invite": invite,
            }),
            ServerMessage::State { view } => json!({"type": "state", "game": view}),
            ServerMessage::Followers { game, spectators, online } => json!({
                "type": "followers",
                "game": game,
                "spectators": spectators,
                "online": {"red": online[0], "black": online[1]},
            }),
            ServerMessage::Analysis { game, ply, position, lines, tablebase } => json!({
                "tablebase": tablebase.map(table_json),
                "type": "analysis",
                "game": game,
                "ply": ply,
                "fen": position.to_fen(),
                "turn": position.side_to_move().name(),
                "lines": lines.iter().map(|line| analysis_line(position, line)).collect::<Vec<_>>(),
            }),
            ServerMessage::Evaluation { game, ply, position, evaluation } => json!({
                "type": "evaluation",
                "game": game,
                "ply": ply,
                "fen": position.to_fen(),
                "turn": position.side_to_move().name(),
                "cp": evaluation.cp,
                "wdl": [evaluation.wdl.win, evaluation.wdl.draw, evaluation.wdl.loss],
                "pieces": evaluation.pieces.iter().map(|p| json!({
                    "square": p.square.to_string(),
                    "piece": p.piece.to_string(),
                    "share": p.share,
                })).collect::<Vec<_>>(),
                "relations": relations_json(position),
            }),
            ServerMessage::Curve { game, plies, points, done } => json!({
                "type": "curve",
                "game": game,
                "plies": plies,
                "points": points.iter().map(curve_point).collect::<Vec<_>>(),
                "done": done,
            }),
            ServerMessage::Explored { reference, outcome: Err(e) } => {
                json!({"type": "explored", "ref": reference, "error": e.to_string()})
            }
            ServerMessage::Explored { reference, outcome: Ok(exploration) } => {
                explored(*reference, exploration)
            }
            ServerMessage::Error { message, code: None } => json!({"type": "error", "message": message}),
            ServerMessage::Error { message, code: Some(code) } => {
                json!({"type": "error", "message": message, "code": code})
            }
            ServerMessage::Pong => json!({"type": "pong"}),
            ServerMessage::Warning { message } => json!({"type": "warning", "message": message}),
        }
        .to_string()
    }
}

/// A line explored, as the page gets it.
fn explored(reference: Option<u64>, exploration: &Exploration) -> Value {
    let Exploration { played, position, legal, result } = exploration;
    let moves: Vec<Value> = played
        .iter()
        .map(|(before, mv)| {
            json!({
                "iccs": format_move(before, *mv, MoveNotation::Iccs),
                "wxf": format_move(before, *mv, MoveNotation::Wxf),
                "chinese": format_move(before, *mv, MoveNotation::Chinese),
            })
        })
        .collect();
    json!({
        "type": "explored",
        "ref": reference,
        "error": null,
        "moves": moves,
        "fen": position.to_fen(),
        "turn": position.side_to_move().name(),
        "check": position.is_check(),
        "legal": legal.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "result": result.map(|r| json!({"score": r.pgn_result(), "reason": r.termination.to_string()})),
    })
}

/// Splits a shown score into the wire's `cp` and `mate` fields (one of them null).
fn cp_and_mate(score: Option<ShownScore>) -> (Option<i32>, Option<i32>) {
    match score {
        Some(ShownScore::Cp(cp)) => (Some(cp), None),
        Some(ShownScore::Mate(moves)) => (None, Some(moves)),
        None => (None, None),
    }
}

/// One analysis line: its moves in the three notations, its score and its chances.
fn analysis_line(position: &Position, line: &AnalysisLine) -> Value {
    let (cp, mate) = cp_and_mate(Some(line.score));
    json!({
        "iccs": format_line(position, &line.pv, MoveNotation::Iccs),
        "wxf": format_line(position, &line.pv, MoveNotation::Wxf),
        "chinese": format_line(position, &line.pv, MoveNotation::Chinese),
        "cp": cp,
        "mate": mate,
        "wdl": [line.wdl.win, line.wdl.draw, line.wdl.loss],
    })
}

/// One point of a curve, its expected score rounded to thousandths.
fn curve_point(point: &CurvePoint) -> Value {
    let (cp, mate) = cp_and_mate(point.red_score);
    let expected = (point.red_expected * 1000.0).round() / 1000.0;
    json!({"ply": point.ply, "expected": expected, "cp": cp, "mate": mate})
}

/// A tablebase verdict for the page: `result` (`win`, `draw`, `loss`, the side to move's),
/// `plies` (the mate's distance; null for a draw or a result by the perpetual-check rule),
/// `rule` (won or lost by that rule) and the English `text`.
fn table_json(value: TableValue) -> Value {
    let (result, plies, rule) = match value {
        TableValue::Draw => ("draw", None, false),
        TableValue::Win(d) => ("win", Some(d), false),
        TableValue::Loss(d) => ("loss", Some(d), false),
        TableValue::RuleWin(_) => ("win", None, true),
        TableValue::RuleLoss(_) => ("loss", None, true),
    };
    json!({"result": result, "plies": plies, "rule": rule, "text": value.to_string()})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_lines_to_explore_are_bounded() {
        assert_eq!(
            parse(r#"{"type":"explore","fen":"9/9/9/9/9/9/9/9/9/9 w","line":["h2e2"],"ref":3}"#),
            Ok(ClientMessage::Explore {
                fen: "9/9/9/9/9/9/9/9/9/9 w".into(),
                line: vec!["h2e2".into()],
                reference: Some(3)
            })
        );
        assert_eq!(
            parse(r#"{"type":"variation","game":"g1","ply":4}"#),
            Ok(ClientMessage::Variation { game: "g1".into(), ply: 4, line: vec![], reference: None })
        );
        assert_eq!(
            parse(r#"{"type":"analyse","game":"g1","ply":4,"line":["h2e2","h9g7"]}"#),
            Ok(ClientMessage::Analyse {
                game: "g1".into(),
                ply: Some(4),
                line: vec!["h2e2".into(), "h9g7".into()],
                lines: 3
            })
        );
        let bad = ParseError::BadField { field: "line", expected: "a list of at most 400 moves" };
        assert_eq!(parse(r#"{"type":"evaluate","game":"g1","line":"h2e2"}"#), Err(bad.clone()));
        assert_eq!(parse(r#"{"type":"evaluate","game":"g1","line":[7]}"#), Err(bad.clone()));
        let long = format!(r#"{{"type":"variation","game":"g1","ply":0,"line":["{}"]}}"#, "x".repeat(17));
        assert_eq!(parse(&long), Err(bad.clone()));
        let many = format!(r#"{{"type":"explore","fen":"x","line":[{}]}}"#, vec!["1"; 401].join(","));
        assert_eq!(parse(&many), Err(bad));
        assert_eq!(parse(r#"{"type":"variation","game":"g1"}"#), Err(ParseError::Missing { field: "ply" }));
        assert_eq!(parse(r#"{"type":"explore"}"#), Err(ParseError::Missing { field: "fen" }));
    }

    #[test]
    fn a_rematch_offer_names_the_new_game() {
        assert_eq!(
            parse(r#"{"type":"offer_rematch","game":"g1","token":"t1","rematch":"g2","invite":"s3"}"#),
            Ok(ClientMessage::Act {
                game: "g1".into(),
                token: "t1".into(),
                action: Action::OfferRematch { game: "g2".into(), invite: "s3".into() }
            })
        );
        assert_eq!(
            parse(r#"{"type":"offer_rematch","game":"g1","token":"t1","rematch":"g2"}"#),
            Err(ParseError::Missing { field: "invite" })
        );
        assert_eq!(
            parse(r#"{"type":"offer_rematch","game":"g1","token":"t1"}"#),
            Err(ParseError::Missing { field: "rematch" })
        );
        assert_eq!(
            parse(r#"{"type":"offer_rematch","game":"g1","token":"t1","rematch":"../x","invite":"s3"}"#),
            Err(ParseError::BadField { field: "rematch", expected: "letters and digits" })
        );
    }

    #[test]
    fn good_messages_are_read() {
        assert_eq!(parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
        assert_eq!(
            parse(r#"{"type":"join","game":"abc123","invite":"x9"}"#),
            Ok(ClientMessage::Join { game: "abc123".into(), invite: "x9".into() })
        );
        assert_eq!(
            parse(r#"{"type":"move","game":"g1","token":"t1","move":"炮二平五"}"#),
            Ok(ClientMessage::Act {
                game: "g1".into(),
                token: "t1".into(),
                action: Action::Move("炮二平五".into())
            })
        );
        assert_eq!(
            parse(r#"{"type":"agree_undo","game":"g1","token":"t1"}"#),
            Ok(ClientMessage::Act { game: "g1".into(), token: "t1".into(), action: Action::AgreeUndo })
        );
        let create = parse(
            r#"{"type":"create","opponent":"engine","level":7,"side":"black","minutes":5,"increment":3}"#,
        )
        .unwrap();
        assert_eq!(
            create,
            ClientMessage::Create(NewGame {
                opponent: Opponent::Engine { strength: Strength::Level(7) },
                side: SideChoice::Black,
                minutes: 5,
                increment_s: 3,
                fen: None
            })
        );
        assert_eq!(
            parse(r#"{"type":"analyse","game":"g1","ply":4}"#),
            Ok(ClientMessage::Analyse { game: "g1".into(), ply: Some(4), line: vec![], lines: 3 })
        );
        assert_eq!(
            parse(r#"{"type":"analyse","game":"g1","lines":6}"#),
            Err(ParseError::BadField { field: "lines", expected: "a number of lines from 1 to 5" })
        );
        let engine = |text: &str| match parse(text) {
            Ok(ClientMessage::Create(NewGame { opponent: Opponent::Engine { strength }, .. })) => {
                Ok(strength)
            }
            other => Err(other),
        };
        assert_eq!(engine(r#"{"type":"create","opponent":"engine"}"#), Ok(Strength::Level(5)));
        assert_eq!(engine(r#"{"type":"create","opponent":"engine","level":0}"#), Ok(Strength::Level(0)));
        assert_eq!(engine(r#"{"type":"create","opponent":"engine","level":20}"#), Ok(Strength::Level(20)));
        let elo = format!(r#"{{"type":"create","opponent":"engine","elo":{MIN_ELO},"level":null}}"#);
        assert_eq!(engine(&elo), Ok(Strength::Elo(MIN_ELO)));
        let friend = parse(r#"{"type":"create","opponent":"friend"}"#).unwrap();
        assert_eq!(
            friend,
            ClientMessage::Create(NewGame {
                opponent: Opponent::Friend,
                side: SideChoice::Red,
                minutes: 0,
                increment_s: 0,
                fen: None
            })
        );
    }

    #[test]
    fn bad_messages_are_refused_with_the_reason() {
        let cases: [(&str, ParseError); 12] = [
            ("", ParseError::NotJson),
            ("{", ParseError::NotJson),
            ("[1,2]", ParseError::NotObject),
            ("\"move\"", ParseError::NotObject),
            ("{}", ParseError::Missing { field: "type" }),
            (r#"{"type":5}"#, ParseError::BadField { field: "type", expected: "a string" }),
            (r#"{"type":"dance"}"#, ParseError::UnknownType { text: "dance".into() }),
            (r#"{"type":"move","game":"g","token":"t"}"#, ParseError::Missing { field: "move" }),
            (r#"{"type":"move","game":"g","move":"h2e2"}"#, ParseError::Missing { field: "token" }),
            (
                r#"{"type":"join","game":"../etc","invite":"a"}"#,
                ParseError::BadField { field: "game", expected: "letters and digits" },
            ),
            (
                r#"{"type":"create","opponent":"engine","level":21}"#,
                ParseError::OutOfRange { field: "level", min: 0, max: 20 },
            ),
            (
                r#"{"type":"create","opponent":"friend","minutes":-1}"#,
                ParseError::BadField { field: "minutes", expected: "a number of minutes from 0 to 180" },
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text), Err(expected), "{text}");
        }
        let elo_cases = [
            (format!(r#"{{"type":"create","opponent":"engine","elo":{}}}"#, MIN_ELO - 1), "elo"),
            (format!(r#"{{"type":"create","opponent":"engine","elo":{}}}"#, MAX_ELO + 1), "elo"),
            (r#"{"type":"create","opponent":"engine","elo":"strong"}"#.to_string(), "elo"),
            (r#"{"type":"create","opponent":"engine","level":2.5}"#.to_string(), "level"),
            (r#"{"type":"create","opponent":"engine","level":-1}"#.to_string(), "level"),
        ];
        for (text, field) in elo_cases {
            let err = parse(&text).unwrap_err();
            assert!(matches!(err, ParseError::OutOfRange { field: f, .. } if f == field), "{text}: {err:?}");
        }
        let err = parse(&format!(r#"{{"type":"create","opponent":"engine","level":3,"elo":{MIN_ELO}}}"#));
        assert_eq!(err, Err(ParseError::Conflict { field: "level", other: "elo" }));
        assert_eq!(err.unwrap_err().to_string(), "give 'level' or 'elo', not both");
        assert_eq!(
            ParseError::OutOfRange { field: "elo", min: 899, max: 3050 }.to_string(),
            "'elo' must be a whole number from 899 to 3050"
        );
        let long_move = format!(r#"{{"type":"move","game":"g","token":"t","move":"{}"}}"#, "x".repeat(17));
        assert_eq!(
            parse(&long_move),
            Err(ParseError::BadField { field: "move", expected: "a shorter string" })
        );
    }

    #[test]
    fn an_oversized_message_is_refused_unread() {
        let huge = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES));
        let err = parse(&huge).unwrap_err();
        assert_eq!(err, ParseError::TooLong { bytes: huge.len(), limit: MAX_MESSAGE_BYTES });
        // Not JSON, or JSON of the wrong type: too long all the same.
        let junk = "z".repeat(MAX_MESSAGE_BYTES + 1);
        assert_eq!(parse(&junk), Err(ParseError::TooLong { bytes: junk.len(), limit: MAX_MESSAGE_BYTES }));
        assert!(err.to_string().contains("at most 4096"), "{err}");
        let mut just_fits = r#"{"type":"ping","pad":""}"#.to_string();
        just_fits.insert_str(just_fits.len() - 2, &"y".repeat(MAX_MESSAGE_BYTES - just_fits.len()));
        assert_eq!(just_fits.len(), MAX_MESSAGE_BYTES);
        assert_eq!(parse(&just_fits), Ok(ClientMessage::Ping));
    }

    #[test]
    fn only_a_pgn_may_be_longer_and_only_up_to_its_own_limit() {
        let pgn_message = |len: usize| {
            let mut text = r#"{"type":"load_pgn","pgn":""}"#.to_string();
            text.insert_str(text.len() - 2, &"1".repeat(len - text.len()));
            assert_eq!(text.len(), len);
            text
        };
        let longest = pgn_message(MAX_PGN_MESSAGE_BYTES);
        assert!(
            matches!(parse(&longest), Ok(ClientMessage::LoadPgn { pgn }) if pgn.len() > MAX_MESSAGE_BYTES)
        );
        let past = pgn_message(MAX_PGN_MESSAGE_BYTES + 1);
        let err = parse(&past).unwrap_err();
        assert_eq!(err, ParseError::TooLong { bytes: past.len(), limit: MAX_PGN_MESSAGE_BYTES });
        assert_eq!(
            err.to_string(),
            format!("message of {} bytes refused (at most 49152 for a PGN)", past.len())
        );
        assert_eq!(parse(r#"{"type":"load_pgn"}"#), Err(ParseError::Missing { field: "pgn" }));
        assert_eq!(
            parse(r#"{"type":"load_pgn","pgn":7}"#),
            Err(ParseError::BadField { field: "pgn", expected: "a string" })
        );
        assert_eq!(
            parse(r#"{"type":"evaluate","game":"g1","ply":2}"#),
            Ok(ClientMessage::Evaluate { game: "g1".into(), ply: Some(2), line: vec![] })
        );
        assert_eq!(parse(r#"{"type":"curve","game":"g1"}"#), Ok(ClientMessage::Curve { game: "g1".into() }));
        assert_eq!(parse(r#"{"type":"curve"}"#), Err(ParseError::Missing { field: "game" }));
    }

    #[test]
    fn a_curve_message_rounds_and_says_whose_view() {
        let points = vec![
            CurvePoint { ply: 0, red_expected: 0.51234, red_score: Some(ShownScore::Cp(12)) },
            CurvePoint { ply: 1, red_expected: 0.0, red_score: Some(ShownScore::Mate(-2)) },
            CurvePoint { ply: 2, red_expected: 0.5, red_score: None },
        ];
        let message = ServerMessage::Curve { game: "g".into(), plies: 2, points, done: true };
        let v: Value = serde_json::from_str(&message.text()).unwrap();
        assert_eq!(v["type"], "curve");
        assert_eq!(v["points"][0], json!({"ply": 0, "expected": 0.512, "cp": 12, "mate": null}));
        assert_eq!(v["points"][1]["mate"], -2);
        assert!(v["points"][2]["cp"].is_null() && v["done"] == true && v["plies"] == 2);
    }

    #[test]
    fn joined_says_the_role_by_the_seat() {
        let player = ServerMessage::Joined {
            game: "g".into(),
            token: Some("t".into()),
            color: Some(Color::Black),
            invite: Some("i".into()),
        };
        let v: Value = serde_json::from_str(&player.text()).unwrap();
        assert_eq!(
            v,
            json!({"type": "joined", "game": "g", "token": "t", "color": "black", "role": "player", "invite": "i"})
        );
        let watcher = ServerMessage::Joined { game: "g".into(), token: None, color: None, invite: None };
        let v: Value = serde_json::from_str(&watcher.text()).unwrap();
        assert_eq!((v["role"].as_str(), v["token"].is_null()), (Some("spectator"), true));
        assert_eq!(ServerMessage::error("no").text(), r#"{"message":"no","type":"error"}"#);
        let gone = ServerMessage::Error { message: "gone".into(), code: Some("unknown_token") };
        assert_eq!(gone.text(), r#"{"code":"unknown_token","message":"gone","type":"error"}"#);
    }

    #[test]
    fn an_error_message_quotes_a_long_type_briefly() {
        let err = parse(&format!(r#"{{"type":"{}"}}"#, "z".repeat(30))).unwrap_err();
        assert!(err.to_string().starts_with("unknown message type 'zzz"), "{err}");
        let err = parse(&format!(r#"{{"type":"{}"}}"#, "z".repeat(33))).unwrap_err();
        assert_eq!(err, ParseError::BadField { field: "type", expected: "a shorter string" });
    }
}
