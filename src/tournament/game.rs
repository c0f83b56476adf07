//! One game between two engine processes started for it: the runner keeps the clocks, checks
//! every move, and asks the rules module (then the adjudication rules) whether the game is over.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::adjudication::{DrawRule, ResignRule, Threshold};
use super::coords;
use super::engine::{EngineProcess, Failure};
use super::shown::shown;
use super::spec::{EngineSpec, Limit, Protocol};
use crate::board::{movegen, Color, Move, Position};
use crate::notation::Opening;
use crate::rules;
use crate::winrate::WdlPerMille;

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
    /// Draw adjudication by both engines' scores or win/draw/loss chances.
    pub draw: Option<DrawRule>,
    /// Resignation adjudication by both engines' scores or win/draw/loss chances.
    pub resign: Option<ResignRule>,
}

impl GameSettings {
    /// Whether a rule judges by the engines' win/draw/loss chances, so that engines are asked to
    /// print them.
    pub fn uses_wdl(&self) -> bool {
        let by_wdl = |t: Threshold| matches!(t, Threshold::Wdl(_));
        self.draw.is_some_and(|r| by_wdl(r.threshold)) || self.resign.is_some_and(|r| by_wdl(r.threshold))
    }
}

/// One move an engine played, with what it said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The mover's last reported score in centipawns, its own view.
    pub score: Option<i32>,
    /// The win/draw/loss chances reported with that score (per mille, its own view), if any.
    pub wdl: Option<WdlPerMille>,
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
        match EngineProcess::start(spec, settings.handshake_timeout, settings.uses_wdl()) {
            Ok(engine) => engines.push(engine),
            Err(why) => {
                return finish(record, Some(Color::BOTH[i]), None, format!("engine failed to start: {why}"))
            }
        }
    }
    // Each side plays under its engine's own limit, or else the match's.
    let limits = [specs[0].limit_or(settings.limit), specs[1].limit_or(settings.limit)];
    let clock_of = |limit: Limit| match limit {
        Limit::Clock { base_ms, inc_ms } => (base_ms as i64, inc_ms as i64),
        _ => (0, 0),
    };
    let mut clocks = [clock_of(limits[0]).0, clock_of(limits[1]).0];
    let increments = [clock_of(limits[0]).1, clock_of(limits[1]).1];
    let mut reports: [Vec<Report>; 2] = [Vec::new(), Vec::new()];
    let mut all_moves: Vec<Move> = opening.moves.clone();
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(result) = rules::game_result(&pos) {
            return finish(record, None, result.winner, result.termination.to_string());
        }
        if let Some((loser, why)) = adjudicate(&pos, &reports, settings) {
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
        let (go, wait) = go_command(engine.spec().proto, limits, settings, &clocks, me, &increments);
        let answer = match engine.think(&position, &go, wait) {
            Ok(answer) => answer,
            Err(Failure::Timeout) => {
                engine.kill();
                let why = match limits[me] {
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
        if let Limit::Clock { .. } = limits[me] {
            clocks[me] -= elapsed_ms;
            if clocks[me] < -(settings.tolerance_ms as i64) {
                engine.kill();
                return finish(record, Some(side), None, "time forfeit".to_string());
            }
            clocks[me] = clocks[me].max(0) + increments[me];
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
        reports[me].push(Report { score: answer.score, wdl: answer.wdl });
        record.moves.push(PlayedMove {
            mv,
            score: answer.score,
            wdl: answer.wdl,
            depth: answer.depth,
            time_ms: elapsed_ms as u64,
        });
    }
}

/// The `go` command for the side in `me` and how long to wait for its answer; `limits` are both
/// sides' own. An opponent without a clock (at a fixed depth, say) is shown the mover's clock, so
/// an engine that budgets by both clocks sees an even game rather than a flagged opponent.
fn go_command(
    proto: Protocol,
    limits: [Limit; 2],
    settings: &GameSettings,
    clocks: &[i64; 2],
    me: usize,
    increments: &[i64; 2],
) -> (String, Duration) {
    let tolerance = Duration::from_millis(settings.tolerance_ms);
    match (limits[me], proto) {
        (Limit::Clock { .. }, _) => {
            let mut shown = [clocks[0].max(0), clocks[1].max(0)];
            let mut inc = *increments;
            if !matches!(limits[1 - me], Limit::Clock { .. }) {
                (shown[1 - me], inc[1 - me]) = (shown[me], inc[me]);
            }
            let (mine, opp) = (shown[me], shown[1 - me]);
            let go = match proto {
                Protocol::Ucci => {
                    format!("go time {mine} increment {} opptime {opp} oppincrement {}", inc[me], inc[1 - me])
                }
                Protocol::Uci => {
                    format!("go wtime {} btime {} winc {} binc {}", shown[0], shown[1], inc[0], inc[1])
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

/// What an engine said of the position it moved from: its last score and the win/draw/loss
/// chances of the same line, its own side's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Report {
    score: Option<i32>,
    wdl: Option<WdlPerMille>,
}

/// What a report says of the mover's game, judged by a rule's threshold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Claim {
    /// The mover is winning.
    Won,
    /// The mover is losing.
    Lost,
    /// The game is drawn.
    Drawn,
}

impl Threshold {
    /// Whether `report` makes `claim` by this threshold; `false` when it lacks what the threshold
    /// reads (no score, or no win/draw/loss).
    fn holds(self, claim: Claim, report: &Report) -> bool {
        match self {
            Threshold::Score(cp) => report.score.is_some_and(|s| match claim {
                Claim::Won => s >= cp,
                Claim::Lost => s <= -cp,
                Claim::Drawn => s.abs() <= cp,
            }),
            Threshold::Wdl(per_mille) => report.wdl.is_some_and(|w| match claim {
                Claim::Won => w.win >= per_mille,
                Claim::Lost => w.loss >= per_mille,
                Claim::Drawn => w.draw >= per_mille,
            }),
        }
    }

    /// How an adjudication by this threshold reads in the termination.
    fn basis(self) -> &'static str {
        match self {
            Threshold::Score(_) => "scores",
            Threshold::Wdl(_) => "win/draw/loss",
        }
    }
}

/// Whether the adjudication rules end the game: `Some((loser, why))`, the loser `None` for a
/// draw.
fn adjudicate(
    pos: &Position,
    reports: &[Vec<Report>; 2],
    settings: &GameSettings,
) -> Option<(Option<Color>, String)> {
    // Whether a side's last `n` reports all make the claim (it needs `n` of them).
    let all = |side: usize, n: u32, threshold: Threshold, claim: Claim| {
        let r = &reports[side];
        let n = n as usize;
        r.len() >= n && r[r.len() - n..].iter().all(|report| threshold.holds(claim, report))
    };
    if let Some(rule) = settings.resign {
        let (n, t) = (rule.move_count, rule.threshold);
        for color in Color::BOTH {
            let (me, them) = (slot(color), slot(color.opponent()));
            if all(me, n, t, Claim::Lost) && all(them, n, t, Claim::Won) {
                return Some((Some(color), format!("adjudication: resignation by {}", t.basis())));
            }
        }
    }
    if let Some(rule) = settings.draw {
        let (n, t) = (rule.move_count, rule.threshold);
        if pos.fullmove_number() >= rule.move_number
            && all(0, n, t, Claim::Drawn)
            && all(1, n, t, Claim::Drawn)
        {
            return Some((None, format!("adjudication: draw by {}", t.basis())));
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

    /// Reports with these scores and no win/draw/loss.
    fn scored(scores: &[Option<i32>]) -> Vec<Report> {
        scores.iter().map(|&score| Report { score, wdl: None }).collect()
    }

    /// Reports with these win/draw/loss chances (`None`: none reported) and a score of 0.
    fn chances(wdl: &[Option<(u32, u32, u32)>]) -> Vec<Report> {
        wdl.iter()
            .map(|w| Report {
                score: Some(0),
                wdl: w.map(|(win, draw, loss)| WdlPerMille { win, draw, loss }),
            })
            .collect()
    }

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let rule = Some(ResignRule { move_count: 2, threshold: Threshold::Score(500) });
        let pos = Position::startpos();
        // Black's last two scores are -600 and -700 and Red's +550 and +900: Black loses.
        let scores = [scored(&[Some(10), Some(550), Some(900)]), scored(&[Some(0), Some(-600), Some(-700)])];
        let verdict = adjudicate(&pos, &scores, &settings(None, rule));
        assert_eq!(verdict, Some((Some(Color::Black), "adjudication: resignation by scores".to_string())));
        // Red at +450 once is not sure enough.
        let scores = [scored(&[Some(450), Some(900)]), scored(&[Some(-600), Some(-700)])];
        assert_eq!(adjudicate(&pos, &scores, &settings(None, rule)), None);
        // An unknown score breaks the run.
        let scores = [scored(&[None, Some(900)]), scored(&[Some(-600), Some(-700)])];
        assert_eq!(adjudicate(&pos, &scores, &settings(None, rule)), None);
    }

    #[test]
    fn draw_waits_for_the_move_number() {
        let rule = Some(DrawRule { move_number: 30, move_count: 2, threshold: Threshold::Score(10) });
        let scores = [scored(&[Some(5), Some(-10)]), scored(&[Some(0), Some(3)])];
        let early = Position::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 29").unwrap();
        assert_eq!(adjudicate(&early, &scores, &settings(rule, None)), None);
        let late = Position::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 30").unwrap();
        assert_eq!(adjudicate(&late, &scores, &settings(rule, None)).map(|v| v.0), Some(None));
        let wide = [scored(&[Some(5), Some(-11)]), scored(&[Some(0), Some(3)])];
        assert_eq!(adjudicate(&late, &wide, &settings(rule, None)), None);
    }

    #[test]
    fn resign_by_wdl_needs_both_engines_to_agree() {
        let rule = Some(ResignRule { move_count: 2, threshold: Threshold::Wdl(950) });
        let resign = settings(None, rule);
        let pos = Position::startpos();
        // Red claims the win twice (960, 950 per mille) and Black concedes it twice: Black loses.
        let agreeing = [
            chances(&[Some((500, 300, 200)), Some((960, 30, 10)), Some((950, 50, 0))]),
            chances(&[Some((10, 20, 970)), Some((0, 0, 1000))]),
        ];
        let verdict = adjudicate(&pos, &agreeing, &resign);
        assert_eq!(
            verdict,
            Some((Some(Color::Black), "adjudication: resignation by win/draw/loss".to_string()))
        );
        // The same from the other side: Red loses.
        let mirrored = [agreeing[1].clone(), agreeing[0].clone()];
        assert_eq!(adjudicate(&pos, &mirrored, &resign).map(|v| v.0), Some(Some(Color::Red)));
        // Black thinks it holds (loss 940 once): no verdict.
        let disagreeing = [
            chances(&[Some((960, 30, 10)), Some((950, 50, 0))]),
            chances(&[Some((10, 50, 940)), Some((0, 0, 1000))]),
        ];
        assert_eq!(adjudicate(&pos, &disagreeing, &resign), None);
        // A move without chances breaks the run, however sure the rest are.
        let missing =
            [chances(&[None, Some((990, 10, 0))]), chances(&[Some((0, 0, 1000)), Some((0, 0, 1000))])];
        assert_eq!(adjudicate(&pos, &missing, &resign), None);
        // Only one move of Black's so far: too few.
        let short = [chances(&[Some((990, 10, 0)), Some((990, 10, 0))]), chances(&[Some((0, 0, 1000))])];
        assert_eq!(adjudicate(&pos, &short, &resign), None);
        // Scores alone say nothing to a wdl rule, even a mate.
        let scores_only = [scored(&[Some(29_990), Some(29_992)]), scored(&[Some(-29_991), Some(-29_993)])];
        assert_eq!(adjudicate(&pos, &scores_only, &resign), None);
        // And chances say nothing to a score rule (their scores here are 0).
        let by_score = settings(None, Some(ResignRule { move_count: 2, threshold: Threshold::Score(500) }));
        assert_eq!(adjudicate(&pos, &agreeing, &by_score), None);
    }

    #[test]
    fn draw_by_wdl() {
        let rule = Some(DrawRule { move_number: 30, move_count: 2, threshold: Threshold::Wdl(800) });
        let late = Position::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 30").unwrap();
        let early = Position::from_fen("4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 29").unwrap();
        let drawn =
            [chances(&[Some((100, 800, 100)), Some((0, 900, 100))]), chances(&[Some((50, 850, 100)); 2])];
        let verdict = adjudicate(&late, &drawn, &settings(rule, None));
        assert_eq!(verdict, Some((None, "adjudication: draw by win/draw/loss".to_string())));
        assert_eq!(adjudicate(&early, &drawn, &settings(rule, None)), None);
        // One engine sees 799 per mille once: not drawn enough.
        let unsure = [
            chances(&[Some((100, 800, 100)), Some((0, 900, 100))]),
            chances(&[Some((101, 799, 100)), Some((50, 850, 100))]),
        ];
        assert_eq!(adjudicate(&late, &unsure, &settings(rule, None)), None);
        // An engine that reports no chances never agrees to a draw by them.
        let silent = [chances(&[Some((0, 1000, 0)); 2]), chances(&[None, None])];
        assert_eq!(adjudicate(&late, &silent, &settings(rule, None)), None);
    }

    #[test]
    fn engines_are_asked_for_wdl_only_under_a_wdl_rule() {
        assert!(!settings(None, None).uses_wdl());
        let by_score = Threshold::Score(600);
        let by_wdl = Threshold::Wdl(900);
        let resign = |threshold| Some(ResignRule { move_count: 3, threshold });
        let draw = |threshold| Some(DrawRule { move_number: 30, move_count: 3, threshold });
        assert!(!settings(draw(by_score), resign(by_score)).uses_wdl());
        assert!(settings(None, resign(by_wdl)).uses_wdl());
        assert!(settings(draw(by_wdl), resign(by_score)).uses_wdl());
    }
}
