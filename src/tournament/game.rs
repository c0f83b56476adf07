//! One game between two engine processes started for it: the runner keeps the clocks, checks
//! every move, and asks the rules module (then the adjudication rules) whether the game is over.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::coords;
use super::engine::{EngineProcess, Failure};
use super::shown::shown;
use super::spec::{DrawRule, EngineSpec, Limit, Protocol, ResignRule};
use crate::board::{movegen, Color, Move, Position};
use crate::notation::Opening;
use crate::rules;

/// How games are played and judged.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSettings {
    /// The search limit per move.
    pub limit: Limit,
    /// Milliseconds an engine may overrun its clock or move time before losing on time.
    pub tolerance_ms: u64,
    /// How long to wait for a move under a node or depth limit before the engine loses.
    pub move_timeout: Duration,
    /// How long an engine may take to start: the handshake, its options, `isready`.
    pub handshake_timeout: Duration,
    /// Draw adjudication by both engines' scores.
    pub draw: Option<DrawRule>,
    /// Resignation adjudication by both engines' scores.
    pub resign: Option<ResignRule>,
}

/// One move an engine played, with what it said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The mover's last reported score in centipawns, its own view.
    pub score: Option<i32>,
    /// The last reported depth.
    pub depth: Option<u32>,
    /// Thinking time in milliseconds.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The opening it was played from.
    pub opening: Opening,
    /// The engines' moves after the book moves.
    pub moves: Vec<PlayedMove>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended, e.g. "checkmate", "time forfeit", "illegal move 'a0a5'".
    pub termination: String,
}

/// Which of the two array slots a colour uses.
fn slot(color: Color) -> usize {
    match color {
        Color::Red => 0,
        Color::Black => 1,
    }
}

/// Plays one game, `specs[0]` with Red. Returns `None` if `stop` was raised before the end (the
/// game is then abandoned and not counted).
pub fn play_game(
    specs: [&EngineSpec; 2],
    opening: &Opening,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut pos = opening.end();
    let mut record =
        GameRecord { opening: opening.clone(), moves: Vec::new(), winner: None, termination: String::new() };
    let finish = |mut record: GameRecord, loser: Option<Color>, winner: Option<Color>, why: String| {
        record.winner = loser.map(Color::opponent).or(winner);
        record.termination = why;
        Some(record)
    };
    // Each game gets fresh processes, so nothing carries over between games or threads.
    let mut engines = Vec::with_capacity(2);
    for (i, spec) in specs.iter().enumerate() {
        match EngineProcess::start(spec, settings.handshake_timeout) {
            Ok(engine) => engines.push(engine),
            Err(why) => {
                return finish(record, Some(Color::BOTH[i]), None, format!("engine failed to start: {why}"))
            }
        }
    }
    let (mut clocks, inc) = match settings.limit {
        Limit::Clock { base_ms, inc_ms } => ([base_ms as i64; 2], inc_ms as i64),
        _ => ([0; 2], 0),
    };
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let mut all_moves: Vec<Move> = opening.moves.clone();
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(result) = rules::game_result(&pos) {
            return finish(record, None, result.winner, result.termination.to_string());
        }
        if let Some((loser, why)) = adjudicate(&pos, &scores, settings) {
            return finish(record, loser, None, why);
        }
        let side = pos.side_to_move();
        let me = slot(side);
        let engine = &mut engines[me];
        let ranks = engine.spec().ranks_from_one;
        let mut position = format!("position fen {}", opening.start.to_fen());
        if !all_moves.is_empty() {
            position.push_str(" moves");
            for &mv in &all_moves {
                position.push(' ');
                position.push_str(&coords::to_engine(mv, ranks));
            }
        }
        let (go, wait) = go_command(engine.spec().proto, settings, &clocks, me, inc);
        let answer = match engine.think(&position, &go, wait) {
            Ok(answer) => answer,
            Err(Failure::Timeout) => {
                engine.kill();
                let why = match settings.limit {
                    Limit::Clock { .. } | Limit::MoveTime(_) => "time forfeit".to_string(),
                    _ => format!("no answer within {} s", settings.move_timeout.as_secs_f64()),
                };
                return finish(record, Some(side), None, why);
            }
            Err(Failure::Crash(why)) => {
                engine.kill();
                return finish(record, Some(side), None, format!("crash: {why}"));
            }
            Err(Failure::Misbehaved(why)) => {
                engine.kill();
                return finish(record, Some(side), None, why);
            }
        };
        let elapsed_ms = answer.elapsed.as_millis() as i64;
        if let Limit::Clock { .. } = settings.limit {
            clocks[me] -= elapsed_ms;
            if clocks[me] < -(settings.tolerance_ms as i64) {
                engine.kill();
                return finish(record, Some(side), None, "time forfeit".to_string());
            }
            clocks[me] = clocks[me].max(0) + inc;
        }
        let Some(text) = answer.best else {
            return finish(
                record,
                Some(side),
                None,
                "resignation (no move while legal moves remain)".to_string(),
            );
        };
        let mv = match coords::from_engine(&text, ranks) {
            Some(mv) if movegen::is_legal(&mut pos, mv) => mv,
            _ => {
                engine.kill();
                // Quoted short: the move text is whatever the engine sent, up to a whole line.
                return finish(record, Some(side), None, format!("illegal move {}", shown(&text)));
            }
        };
        pos.make_move(mv);
        all_moves.push(mv);
        scores[me].push(answer.score);
        record.moves.push(PlayedMove {
            mv,
            score: answer.score,
            depth: answer.depth,
            time_ms: elapsed_ms as u64,
        });
    }
}

/// The `go` command for the side in `me` and how long to wait for its answer.
fn go_command(
    proto: Protocol,
    settings: &GameSettings,
    clocks: &[i64; 2],
    me: usize,
    inc: i64,
) -> (String, Duration) {
    let tolerance = Duration::from_millis(settings.tolerance_ms);
    match (settings.limit, proto) {
        (Limit::Clock { .. }, _) => {
            let (mine, opp) = (clocks[me].max(0), clocks[1 - me].max(0));
            let go = match proto {
                Protocol::Ucci => format!("go time {mine} increment {inc} opptime {opp} oppincrement {inc}"),
                Protocol::Uci => {
                    format!("go wtime {} btime {} winc {inc} binc {inc}", clocks[0].max(0), clocks[1].max(0))
                }
            };
            (go, Duration::from_millis(mine as u64) + tolerance)
        }
        (Limit::Nodes(n), _) => (format!("go nodes {n}"), settings.move_timeout),
        (Limit::Depth(d), _) => (format!("go depth {d}"), settings.move_timeout),
        // UCCI has no movetime: the whole remaining time for the one move to go says the same.
        (Limit::MoveTime(ms), Protocol::Ucci) => {
            (format!("go time {ms} movestogo 1"), Duration::from_millis(ms) + tolerance)
        }
        (Limit::MoveTime(ms), Protocol::Uci) => {
            (format!("go movetime {ms}"), Duration::from_millis(ms) + tolerance)
        }
    }
}

/// Whether the score rules end the game: `Some((loser, why))`, the loser `None` for a draw.
fn adjudicate(
    pos: &Position,
    scores: &[Vec<Option<i32>>; 2],
    settings: &GameSettings,
) -> Option<(Option<Color>, String)> {
    // The last `n` scores of a side, if it has that many and all are known.
    let last = |side: usize, n: u32| -> Option<Vec<i32>> {
        let s = &scores[side];
        let n = n as usize;
        (s.len() >= n).then(|| s[s.len() - n..].iter().copied().collect::<Option<Vec<i32>>>()).flatten()
    };
    if let Some(rule) = settings.resign {
        for color in Color::BOTH {
            let (me, them) = (slot(color), slot(color.opponent()));
            if let (Some(mine), Some(theirs)) = (last(me, rule.move_count), last(them, rule.move_count)) {
                if mine.iter().all(|&s| s <= -rule.score) && theirs.iter().all(|&s| s >= rule.score) {
                    return Some((Some(color), "adjudication: resignation by scores".to_string()));
                }
            }
        }
    }
    if let Some(rule) = settings.draw {
        if pos.fullmove_number() >= rule.move_number {
            if let (Some(a), Some(b)) = (last(0, rule.move_count), last(1, rule.move_count)) {
                if a.iter().chain(&b).all(|s| s.abs() <= rule.score) {
                    return Some((None, "adjudication: draw by scores".to_string()));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(draw: Option<DrawRule>, resign: Option<ResignRule>) -> GameSettings {
        GameSettings {
            limit: Limit::Depth(1),
            tolerance_ms: 0,
            move_timeout: Duration::from_secs(1),
            handshake_timeout: Duration::from_secs(1),
            draw,
            resign,
        }
    }

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let rule = Some(ResignRule { move_count: 2, score: 500 });
        let pos = Position::startpos();
        // Black's last two scores are -600 and -700 and Red's +550 and +900: Black loses.
        let scores = [vec![Some(10), Some(550), Some(900)], vec![Some(0), Some(-600), Some(-700)]];
        let verdict = adjudicate(&pos, &scores, &settings(None, rule));
        assert_eq!(verdict.map(|v| v.0), Some(Some(Color::Black)));
        // Red at +450 once is not sure enough.
        let scores = [vec![Some(450), Some(900)], vec![Some(-600), Some(-700)]];
        assert_eq!(adjudicate(&pos, &scores, &settings(None, rule)), None);
        // An unknown score breaks the run.
        let scores = [vec![None, Some(900)], vec![Some(-600), Some(-700)]];
        assert_eq!(adjudicate(&pos, &scores, &settings(None, rule)), None);
    }

    #[test]
    fn draw_waits_for_the_move_number() {
        let rule = Some(DrawRule { move_number: 30, move_count: 2, score: 10 });
        let scores = [vec![Some(5), Some(-10)], vec![Some(0), Some(3)]];
        let early = Position::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 29").unwrap();
        assert_eq!(adjudicate(&early, &scores, &settings(rule, None)), None);
        let late = Position::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 30").unwrap();
        assert_eq!(adjudicate(&late, &scores, &settings(rule, None)).map(|v| v.0), Some(None));
        let wide = [vec![Some(5), Some(-11)], vec![Some(0), Some(3)]];
        assert_eq!(adjudicate(&late, &wide, &settings(rule, None)), None);
    }
}
