//! UCCI and UCI front ends over one engine core.
//!
//! The loop reads one command per line, dispatches it to a `Session`, and flushes after every
//! line it writes so a GUI never waits on a buffer. The first meaningful command picks the
//! dialect (`ucci` → UCCI, anything else → UCI); both share the command handlers below.

pub mod go_cmd;
pub mod handshake;
pub mod options;
pub mod position_cmd;

use std::io::{self, BufRead, Write};

use crate::board::{movegen, Position};
use go_cmd::{parse_go, GoCommand};
use options::{Options, SetOutcome};
use position_cmd::parse_position;

/// The protocol a GUI speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCCI 3.0 (XQWizard, BHGUI).
    Ucci,
    /// UCI in the Pikafish dialect (Sharkchess).
    Uci,
}

impl Dialect {
    /// The handshake command that selects this dialect.
    pub fn handshake(self) -> &'static str {
        match self {
            Dialect::Ucci => "ucci",
            Dialect::Uci => "uci",
        }
    }
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The engine state one protocol conversation holds.
pub struct Session {
    dialect: Option<Dialect>,
    position: Position,
    options: Options,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

/// Writes one line and flushes it at once.
fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

impl Session {
    /// A fresh session: no dialect yet, the start position, default options.
    pub fn new() -> Session {
        Session { dialect: None, position: Position::startpos(), options: Options::default() }
    }

    /// The dialect picked by the first command, if any command came yet.
    pub fn dialect(&self) -> Option<Dialect> {
        self.dialect
    }

    /// The current position (set by `position`).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Handles one input line, writing the replies to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let args: Vec<&str> = words.collect();
        let dialect =
            *self.dialect.get_or_insert(if command == "ucci" { Dialect::Ucci } else { Dialect::Uci });
        match command {
            "ucci" | "uci" => self.handshake(command, dialect, out)?,
            "isready" => send(out, "readyok")?,
            "position" => match parse_position(&args.join(" ")) {
                Ok(position) => self.position = position,
                Err(e) => report(out, &e.to_string())?,
            },
            "setoption" => self.setoption(dialect, &args, out)?,
            "go" => match parse_go(&args) {
                Ok(GoCommand::Perft(depth)) => {
                    let nodes = movegen::perft(&mut self.position, depth);
                    send(out, &format!("Nodes searched: {nodes}"))?;
                }
                Err(e) => report(out, &e)?,
            },
            "quit" => {
                if dialect == Dialect::Ucci {
                    send(out, "bye")?;
                }
                return Ok(Flow::Quit);
            }
            other => report(out, &format!("unknown command '{other}'"))?,
        }
        Ok(Flow::Continue)
    }

    fn handshake(&mut self, command: &str, dialect: Dialect, out: &mut impl Write) -> io::Result<()> {
        if command != dialect.handshake() {
            // Switching dialects mid-conversation would change what earlier replies meant.
            let msg =
                format!("'{command}' after the {} handshake: this session speaks {0}", dialect.handshake());
            return report(out, &msg);
        }
        let lines = match dialect {
            Dialect::Ucci => handshake::ucci_reply(&self.options),
            Dialect::Uci => handshake::uci_reply(),
        };
        for line in lines {
            send(out, &line)?;
        }
        Ok(())
    }

    fn setoption(&mut self, dialect: Dialect, args: &[&str], out: &mut impl Write) -> io::Result<()> {
        let outcome = match dialect {
            Dialect::Ucci => self.options.set_ucci(args),
            Dialect::Uci => self.options.set_uci(args),
        };
        match outcome {
            Ok(SetOutcome::Set) => Ok(()),
            Ok(SetOutcome::Unknown(name)) => {
                send(out, &format!("info string unknown option '{name}' ignored"))
            }
            Err(e) => report(out, &e),
        }
    }
}

/// One `info string error: …` line: the protocols' way to refuse a command.
fn report(out: &mut impl Write, message: &str) -> io::Result<()> {
    send(out, &format!("info string error: {message}"))
}

/// Runs the command loop until `quit` or the end of the input. Lines that are not UTF-8 are read
/// lossily rather than ending the loop: bad input must never stop the engine.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut session = Session::new();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buffer);
        if session.handle_line(&line, &mut output)? == Flow::Quit {
            return Ok(());
        }
    }
}

/// Runs the command loop on standard input and output.
pub fn run_stdio() -> io::Result<()> {
    run(io::stdin().lock(), io::stdout().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `script` through a fresh loop and returns the output lines.
    fn replies(script: &str) -> Vec<String> {
        let mut out = Vec::new();
        run(script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap().lines().map(str::to_string).collect()
    }

    #[test]
    fn ucci_handshake_and_quit() {
        let lines = replies("ucci\nisready\nquit\nisready\n");
        assert!(lines[0].starts_with("id name Chariot"), "{lines:?}");
        assert!(lines.contains(&"option usemillisec type check default false".to_string()));
        let ok = lines.iter().position(|l| l == "ucciok").expect("ucciok");
        // Nothing is read after quit, so only one readyok.
        assert_eq!(lines[ok + 1..], ["readyok", "bye"]);
    }

    #[test]
    fn uci_dialect_has_no_bye_and_refuses_a_switch() {
        let lines = replies("uci\nucci\nquit\n");
        assert_eq!(
            lines.last().map(String::as_str),
            Some("info string error: 'ucci' after the uci handshake: this session speaks uci")
        );
        assert!(lines.contains(&"uciok".to_string()));
        assert!(!lines.contains(&"bye".to_string()));
    }

    #[test]
    fn first_command_other_than_ucci_means_uci() {
        let mut session = Session::new();
        session.handle_line("isready", &mut Vec::new()).unwrap();
        assert_eq!(session.dialect(), Some(Dialect::Uci));
        let mut session = Session::new();
        session.handle_line("   ", &mut Vec::new()).unwrap();
        assert_eq!(session.dialect(), None, "blank lines are not commands");
        session.handle_line("ucci", &mut Vec::new()).unwrap();
        assert_eq!(session.dialect(), Some(Dialect::Ucci));
    }

    #[test]
    fn position_and_perft() {
        // Start position: 44 legal moves (rules.md reference numbers).
        let lines = replies("position startpos\ngo perft 1\nposition startpos moves h2e2 x\ngo perft 1\n");
        assert_eq!(lines[0], "Nodes searched: 44");
        assert!(lines[1].starts_with("info string error: move 2 'x'"), "{lines:?}");
        assert_eq!(lines[2], "Nodes searched: 44");
    }

    #[test]
    fn setoption_in_ucci() {
        let mut session = Session::new();
        let mut out = Vec::new();
        for line in ["ucci", "setoption usemillisec true", "setoption hashsize 16"] {
            session.handle_line(line, &mut out).unwrap();
        }
        assert!(session.options().use_millisec);
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("ucciok\ninfo string unknown option 'hashsize' ignored\n"), "{text}");
    }

    #[test]
    fn invalid_utf8_is_an_unknown_command_not_an_exit() {
        let mut out = Vec::new();
        run(&b"\xff\xfe\nisready\n"[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("info string error: unknown command"));
        assert_eq!(lines[1], "readyok");
    }
}
