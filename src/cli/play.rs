//! `chariot play [--fen FEN] [--red human|engine] [--black human|engine] [--movetime MS]
//! [--level N | --elo E] [--evalfile NET | --classic]`: a game against the engine in the terminal. Commands come from
//! stdin line by line, so a script can drive a session as well as a person can.

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};

use super::common::{load_games, shown_score_text, starting_position, view_text, wdl_text, write_file};
use super::show::{describe_position, draw_board};
use crate::board::{Color, Move, Position};
use crate::counted::counted;
use crate::notation::pgn::today_tag;
use crate::notation::{format_move, parse_move, write_pgn, MoveNotation, PgnGame, PgnMove};
use crate::protocol::input::{read_line, MAX_LINE_BYTES};
use crate::quote::quoted;
use crate::rules::game_result;
use crate::search::score_scale::ScoreScale;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::search::{Engine, Limits, SearchControl, Skill};

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    /// Moves typed on stdin.
    Human,
    /// The engine.
    Engine,
}

/// Arguments of `chariot play`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct PlayArgs {
    /// Start from this position (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Who plays Red.
    #[arg(long, value_enum, default_value_t = Player::Human)]
    pub red: Player,
    /// Who plays Black (default: whoever does not play Red).
    #[arg(long, value_enum)]
    pub black: Option<Player>,
    /// The engine's time per move in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: u64,
    /// Search this many plies per move instead of by time (repeatable games).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=127))]
    pub depth: Option<i32>,
    /// Play weaker: skill level 0 (weakest) to 20 (full strength, the default); docs/levels.md
    /// gives each level's measured Elo.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=MAX_LEVEL as i64), conflicts_with = "elo")]
    pub level: Option<u8>,
    /// Play at about this Elo on the measured scale of docs/levels.md (its range: the weakest to
    /// the strongest level measured).
    #[arg(long, value_parser = clap::value_parser!(i32).range(MIN_ELO as i64..=MAX_ELO as i64))]
    pub elo: Option<i32>,
    /// Hash table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The evaluation: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: super::eval_source::EvalSource,
}

const HELP: &str = "\
moves: ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五)
undo / redo    take back / replay a move pair
prev / next    step one move back / forward (to replay a loaded game)
hint           the engine's suggestion (at full strength, whatever --level)
go             the engine plays the side to move now
flip           turn the board around
save FILE.pgn  write the game up to the current move
load FILE.pgn  read a game and go to its start (then next/prev)
fen            print the current FEN
new            start again
quit           leave";

/// More characters than any move in any notation has (`炮二平五`, `C2=5`, `h2e2`, with room
/// for spaces and marks): a longer line is refused without repeating it whole.
const LONGEST_MOVE_TEXT: usize = 40;

/// A game in progress: where it started, the moves (some perhaps undone) and who plays.
struct Session {
    /// The position `new` returns to (from `--fen`, or the standard start).
    initial: Position,
    start: Position,
    line: Vec<Move>,
    /// How many of `line`'s moves are on the board; the rest can be redone.
    current: usize,
    players: [Player; 2],
    flipped: bool,
    color: bool,
    engine: Engine,
    limits: Limits,
}

/// What a command asks of the loop.
enum Flow {
    Continue,
    Quit,
}

impl Session {
    /// The current position, with its moves in the history (for repetitions and the last-move mark).
    fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.line[..self.current] {
            pos.make_move(mv);
        }
        pos
    }

    fn show(&self, out: &mut impl Write) -> Result<()> {
        let pos = self.position();
        write!(out, "{}{}", draw_board(&pos, self.flipped, self.color), describe_position(&pos))?;
        if let Some(result) = game_result(&pos) {
            writeln!(out, "game over: {result}")?;
        }
        Ok(())
    }

    fn search(&mut self) -> Result<(Move, i32)> {
        self.search_as(self.engine.options.skill)
    }

    /// A search at `skill` (the engine's own strength stays as it was).
    fn search_as(&mut self, skill: Skill) -> Result<(Move, i32)> {
        let own = std::mem::replace(&mut self.engine.options.skill, skill);
        let pos = self.position();
        let control = SearchControl::new();
        control.start(false);
        let result = self.engine.search(&pos, &self.limits, &control, &mut |_| {});
        self.engine.options.skill = own;
        let best = result.best.ok_or_else(|| anyhow!("there is no legal move here"))?;
        Ok((best, result.score))
    }

    /// A search score at `pos` for people: normalised, whose view, and the chances.
    fn score_words(&self, pos: &Position, score: i32) -> String {
        let scale = ScoreScale::of(&self.engine.options.eval, pos);
        format!(
            "{}, {}: {}",
            shown_score_text(&scale, score),
            view_text(pos.side_to_move()),
            wdl_text(scale.wdl(score))
        )
    }

    /// Plays `mv` (legal in the current position), forgetting the moves that could be redone.
    fn play(&mut self, mv: Move) {
        self.line.truncate(self.current);
        self.line.push(mv);
        self.current += 1;
    }

    /// Lets the engine move while it is its turn and the game goes on.
    fn engine_turns(&mut self, out: &mut impl Write) -> Result<()> {
        loop {
            let pos = self.position();
            if game_result(&pos).is_some() || self.players[pos.side_to_move().index()] != Player::Engine {
                return Ok(());
            }
            self.engine_move(out)?;
        }
    }

    fn engine_move(&mut self, out: &mut impl Write) -> Result<()> {
        let pos = self.position();
        let (mv, score) = self.search()?;
        writeln!(
            out,
            "Chariot plays {mv} {} (score {})",
            format_move(&pos, mv, MoveNotation::Chinese),
            self.score_words(&pos, score)
        )?;
        self.play(mv);
        self.show(out)
    }

    fn save(&self, path: &str) -> Result<()> {
        let mut game = PgnGame::new(self.start.clone());
        game.moves = self.line[..self.current].iter().map(|&mv| PgnMove::new(mv)).collect();
        game.result = game_result(&self.position()).map(|r| r.pgn_result().to_string()).unwrap_or("*".into());
        game.tags.push(("Date".to_string(), today_tag()));
        for (color, name) in [(Color::Red, "Red"), (Color::Black, "Black")] {
            let who = match self.players[color.index()] {
                Player::Human => "Human",
                Player::Engine => "Chariot",
            };
            game.tags.push((name.to_string(), who.to_string()));
        }
        let text = write_pgn(&game, MoveNotation::Chinese).context("cannot save")?;
        write_file(Path::new(path), &text)
    }

    /// Runs one command line; an error is the user's and leaves the game as it was.
    fn command(&mut self, line: &str, out: &mut impl Write) -> Result<Flow> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let needs_no_argument = |name: &str| {
            if rest.is_empty() {
                Ok(())
            } else {
                Err(anyhow!("'{name}' takes no argument, not {}", quoted(rest)))
            }
        };
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Ok(Flow::Quit),
            "help" => writeln!(out, "{HELP}")?,
            "fen" => {
                needs_no_argument("fen")?;
                writeln!(out, "{}", self.position().to_fen())?;
            }
            "flip" => {
                self.flipped = !self.flipped;
                self.show(out)?;
            }
            "undo" | "redo" | "prev" | "next" => {
                needs_no_argument(word)?;
                let lower = word.to_ascii_lowercase();
                let plies = if lower == "undo" || lower == "redo" { 2 } else { 1 };
                if lower == "undo" || lower == "prev" {
                    if self.current == 0 {
                        bail!("nothing to take back");
                    }
                    self.current = self.current.saturating_sub(plies);
                } else {
                    if self.current == self.line.len() {
                        bail!("nothing to replay");
                    }
                    self.current = (self.current + plies).min(self.line.len());
                }
                self.show(out)?;
            }
            "hint" => {
                let pos = self.position();
                if let Some(result) = game_result(&pos) {
                    bail!("the game is over: {result}");
                }
                // A hint is worth having only at full strength, whatever level the engine plays.
                let (mv, score) = self.search_as(Skill::FULL)?;
                writeln!(
                    out,
                    "hint: {mv} {} (score {})",
                    format_move(&pos, mv, MoveNotation::Chinese),
                    self.score_words(&pos, score)
                )?;
            }
            "go" => {
                if let Some(result) = game_result(&self.position()) {
                    bail!("the game is over: {result}");
                }
                self.engine_move(out)?;
                self.engine_turns(out)?;
            }
            "save" => {
                if rest.is_empty() {
                    bail!("save needs a file name: save FILE.pgn");
                }
                self.save(rest)?;
                writeln!(out, "saved {} to {rest}", counted(self.current, "move", "moves"))?;
            }
            "load" => {
                if rest.is_empty() {
                    bail!("load needs a file name: load FILE.pgn");
                }
                let game = load_games(Path::new(rest))?.swap_remove(0);
                self.start = game.start.clone();
                self.line = game.moves.iter().map(|m| m.mv).collect();
                self.current = 0;
                writeln!(
                    out,
                    "loaded {} from {rest}; next/prev step through them",
                    counted(self.line.len(), "move", "moves")
                )?;
                self.show(out)?;
            }
            "new" => {
                needs_no_argument("new")?;
                self.start = self.initial.clone();
                self.line.clear();
                self.current = 0;
                self.engine.clear_hash();
                self.show(out)?;
                self.engine_turns(out)?;
            }
            _ => {
                let pos = self.position();
                if let Some(result) = game_result(&pos) {
                    bail!("the game is over: {result}; undo, new or quit");
                }
                if line.chars().count() > LONGEST_MOVE_TEXT {
                    bail!("{} is neither a command nor a move", quoted(line));
                }
                let mv = parse_move(&pos, line)?;
                self.play(mv);
                self.show(out)?;
                self.engine_turns(out)?;
            }
        }
        Ok(Flow::Continue)
    }
}

/// Runs a session: commands from `input`, boards and replies to `out`, user errors to `diag`
/// (the game goes on after them). `color` draws in colour, `prompt` shows a `> ` prompt.
pub fn run(
    args: &PlayArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
    diag: &mut impl Write,
    color: bool,
    prompt: bool,
) -> Result<()> {
    let start = starting_position(args.fen.as_deref())?;
    let black = args.black.unwrap_or(match args.red {
        Player::Human => Player::Engine,
        Player::Engine => Player::Human,
    });
    let mut limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(args.movetime),
    };
    limits.multipv = 1;
    let mut engine = Engine::try_new(args.hash as usize)?;
    engine.options.eval = args.eval.choice()?;
    // A person waits for the engine; the overhead meant for GUIs and pipes is not needed here.
    engine.options.move_overhead_ms = 0;
    engine.options.skill = match (args.level, args.elo) {
        (Some(level), _) => Skill::level(level),
        (None, Some(elo)) => Skill::from_elo(elo),
        (None, None) => Skill::FULL,
    };
    if let (Some(elo), Some(nodes)) = (engine.options.skill.elo(), engine.options.skill.node_limit()) {
        let level = f64::from(engine.options.skill.centi_level()) / 100.0;
        writeln!(
            out,
            "Chariot plays at level {level:.2}: about {elo} Elo (docs/levels.md), {nodes} nodes a move"
        )?;
    }
    let mut session = Session {
        initial: start.clone(),
        start,
        line: Vec::new(),
        current: 0,
        players: [args.red, black],
        flipped: args.red == Player::Engine && black == Player::Human,
        color,
        engine,
        limits,
    };
    session.show(out)?;
    session.engine_turns(out)?;
    loop {
        if prompt {
            write!(out, "> ")?;
        }
        out.flush()?;
        let Some(line) = read_line(input, MAX_LINE_BYTES).context("cannot read stdin")? else {
            return Ok(());
        };
        // A line that is not text is one mistyped command: the game goes on.
        let line = match line.into_text() {
            Ok(text) => text,
            Err(why) => {
                writeln!(diag, "error: {why}")?;
                continue;
            }
        };
        let command = line.trim();
        if command.is_empty() {
            continue;
        }
        match session.command(command, out) {
            Ok(Flow::Quit) => return Ok(()),
            Ok(Flow::Continue) => {}
            Err(e) => writeln!(diag, "error: {e:#}")?,
        }
    }
}
