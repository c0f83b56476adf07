//! What the server sends: `ServerMessage`, each one JSON text.

use std::fmt;

use serde_json::{json, Value};

use crate::board::{Color, Position};
use crate::egtb::Value as TableValue;
use crate::eval::relations::json::relations_json;
use crate::notation::{format_line, format_move, MoveNotation};
use crate::search::score_scale::ShownScore;
use crate::serve::curve::CurvePoint;
use crate::serve::engine_player::AnalysisLine;
use crate::serve::evaluation::Evaluation;
use crate::serve::explore::{Exploration, ExploreError};

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
