//! `chariot judge [--fen FEN] [--moves M1 M2 …] [--json]`: replays a game and reports the first
//! ply at which the rules end it, and for a repetition the judged cycle move by move.
//!
//! Nothing here judges: the verdicts are the rules module's (`game_result`, `game_cycle`), the
//! same ones `match`, `play` and the search use.

use std::io::Write;

use anyhow::{anyhow, Result};
use clap::Args;
use serde_json::{json, Value};

use super::common::{move_words, starting_position};
use crate::board::{Color, Position};
use crate::notation::{parse_move, NotationError};
use crate::quote::quoted;
use crate::rules::{game_cycle, game_result, CycleMove, CycleReport, GameResult, Termination};

/// Arguments of `chariot judge`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct JudgeArgs {
    /// Position the game starts from, as one quoted argument (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// The game's moves, in ICCS, WXF or Chinese notation (e.g. `--moves h2e2 马8进7`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What the rules say of a game: where it ended (or stands), why, and what was left unplayed.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The position at the end of the game, or after the last move when it goes on.
    pub position: Position,
    /// How many moves were played from the starting position.
    pub plies: usize,
    /// The rules' result, `None` while the game goes on.
    pub result: Option<GameResult>,
    /// The judged cycle, for a result by repetition (perpetual check or chase, or a draw).
    pub cycle: Option<CycleReport>,
    /// The moves given after the end of the game, as written; they are neither played nor read.
    pub not_played: Vec<String>,
}

/// Replays `moves` from `fen` (or the start) until the rules end the game.
pub fn judge(fen: Option<&str>, moves: &[String]) -> Result<Judgement> {
    let mut pos = starting_position(fen)?;
    let words = move_words(moves);
    let mut result = game_result(&pos);
    let mut plies = 0;
    while result.is_none() && plies < words.len() {
        let word = words[plies];
        let mv = parse_move(&pos, word).map_err(|e| move_error(plies + 1, word, &pos, &e))?;
        pos.make_move(mv);
        plies += 1;
        result = game_result(&pos);
    }
    let by_repetition = result.is_some_and(|r| {
        matches!(
            r.termination,
            Termination::PerpetualCheck | Termination::PerpetualChase | Termination::Repetition
        )
    });
    let cycle = if by_repetition { game_cycle(&pos) } else { None };
    let not_played = words[plies..].iter().map(|w| w.to_string()).collect();
    Ok(Judgement { position: pos, plies, result, cycle, not_played })
}

/// The refusal of the `number`th move, `word`, in `pos`.
fn move_error(number: usize, word: &str, pos: &Position, error: &NotationError) -> anyhow::Error {
    let text = quoted(word);
    let side = pos.side_to_move().name();
    anyhow!(match error {
        NotationError::Unreadable { reason, .. } => format!("move {number} {text} is not a move: {reason}"),
        NotationError::Ambiguous { matches, .. } => {
            let fits: Vec<String> = matches.iter().map(|m| m.to_string()).collect();
            format!("move {number} {text} is ambiguous: it fits {}", fits.join(", "))
        }
        NotationError::NoSuchPiece { reason, .. } => {
            format!("move {number} {text} is illegal ({side} to move): {reason}")
        }
        _ => format!("move {number} {text} is illegal ({side} to move in {})", pos.to_fen()),
    })
}

/// Runs `chariot judge`: the judgement as text or JSON on `out`.
pub fn run(args: &JudgeArgs, out: &mut impl Write) -> Result<()> {
    let judgement = judge(args.fen.as_deref(), &args.moves)?;
    if args.json {
        writeln!(out, "{}", to_json(&judgement))?;
    } else {
        write!(out, "{}", to_text(&judgement))?;
    }
    out.flush()?;
    Ok(())
}

/// The first ply (1-based, from the starting position) of a report's cycle.
fn first_ply(cycle: &CycleReport) -> usize {
    cycle.start + 1
}

/// The text report; its last line is `result <1-0|0-1|1/2-1/2> ply <N> reason <reason>` or
/// `result none`.
pub fn to_text(judgement: &Judgement) -> String {
    let mut out = format!("position after ply {}: {}\n", judgement.plies, judgement.position.to_fen());
    if let Some(cycle) = &judgement.cycle {
        out.push_str(&format!(
            "the position occurred for the third time; the cycle since its first occurrence, plies {}-{}:\n",
            first_ply(cycle),
            judgement.plies
        ));
        for (i, entry) in cycle.moves.iter().enumerate() {
            out.push_str(&format!("ply {} {}\n", first_ply(cycle) + i, describe_move(entry)));
        }
        for side in Color::BOTH {
            let chased = cycle.chased[side.index()];
            let enemy = side.opponent();
            for slot in chased.slots() {
                let square = judgement.position.slot_square(enemy, slot);
                let piece = judgement.position.piece_at(square);
                out.push_str(&format!(
                    "{} chased the {} {} (on {square} now) with every one of its moves\n",
                    side.name(),
                    enemy.name(),
                    piece.kind().name()
                ));
            }
            if cycle.checked[side.index()] {
                out.push_str(&format!("{} gave check with every one of its moves\n", side.name()));
            }
        }
    }
    if !judgement.not_played.is_empty() {
        let words: Vec<String> = judgement.not_played.iter().map(|w| quoted(w)).collect();
        out.push_str(&format!(
            "not played: {} move{} after the end: {}\n",
            words.len(),
            if words.len() == 1 { "" } else { "s" },
            words.join(" ")
        ));
    }
    match &judgement.result {
        Some(result) => out.push_str(&format!(
            "result {} ply {} reason {}\n",
            result.pgn_result(),
            judgement.plies,
            result.termination
        )),
        None => out.push_str("result none\n"),
    }
    out
}

/// `red c5a5 chases a7 (from a5)`, `black e9e8`, `red a8a9 check`, `red b5a5 offers to exchange
/// a7 (from a5)`.
fn describe_move(entry: &CycleMove) -> String {
    let mut text = format!("{} {}", entry.mover.name(), entry.mv);
    if entry.check {
        text.push_str(" check");
    }
    if !entry.chases.is_empty() {
        let listed: Vec<String> =
            entry.chases.chases.iter().map(|c| format!("{} (from {})", c.victim, c.attacker)).collect();
        text.push_str(&format!(" chases {}", listed.join(", ")));
    }
    if !entry.chases.offers.is_empty() {
        let listed: Vec<String> =
            entry.chases.offers.iter().map(|c| format!("{} (from {})", c.victim, c.attacker)).collect();
        text.push_str(&format!(" offers to exchange {}", listed.join(", ")));
    }
    text
}

/// The JSON report: `result`, `ply`, `reason` (all null while the game goes on), `cycle` (null
/// unless the game ended by repetition) and `not_played`.
pub fn to_json(judgement: &Judgement) -> Value {
    let cycle = judgement.cycle.as_ref().map(|cycle| {
        cycle
            .moves
            .iter()
            .map(|entry| {
                let chases: Vec<Value> = entry
                    .chases
                    .chases
                    .iter()
                    .map(|c| json!({"attacker": c.attacker.to_string(), "victim": c.victim.to_string()}))
                    .collect();
                json!({"move": entry.mv.to_string(), "check": entry.check, "chases": chases})
            })
            .collect::<Vec<Value>>()
    });
    let result = judgement.result.as_ref();
    json!({
        "result": result.map(|r| r.pgn_result()),
        "ply": result.map(|_| judgement.plies),
        "reason": result.map(|r| r.termination.to_string()),
        "cycle": cycle,
        "not_played": judgement.not_played,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_start_position_goes_on() {
        let j = judge(None, &words("h2e2 h9g7")).unwrap();
        assert_eq!((j.plies, j.result, j.cycle.is_none()), (2, None, true));
        assert!(to_text(&j).ends_with("\nresult none\n"));
        let value = to_json(&j);
        assert!(value["result"].is_null() && value["ply"].is_null() && value["cycle"].is_null());
    }

    #[test]
    fn errors_name_the_move_and_quote_it() {
        let err = format!("{:#}", judge(None, &words("h2e2 h9g7 h2h9")).unwrap_err());
        assert!(err.starts_with("move 3 'h2h9' is illegal (red to move in "), "{err}");
        let err = format!("{:#}", judge(None, &words("h2e2 zz9")).unwrap_err());
        assert!(err.starts_with("move 2 'zz9' is not a move: "), "{err}");
        let junk = "x".repeat(1000);
        let err = format!("{:#}", judge(None, &[junk]).unwrap_err());
        assert!(err.len() < 200, "{err}");
        let err = format!("{:#}", judge(Some("9/9 w"), &[]).unwrap_err());
        assert!(err.starts_with("bad FEN"), "{err}");
    }
}
