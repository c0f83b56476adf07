//! The command words of both dialects, and what the loop does after one.

/// Whether the command loop reads another command after the one just handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterCommand {
    /// Read the next command.
    Continue,
    /// `quit` was received: the loop ends.
    Quit,
}

/// The commands of both dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Ucci,
    Uci,
    IsReady,
    Position,
    BanMoves,
    SetOption,
    Go,
    Stop,
    PonderHit,
    Probe,
    UciNewGame,
    Debug,
    Quit,
    /// `d`: the board, the FEN and the key (Stockfish's and Pikafish's convenience).
    Display,
    /// `eval`: the static evaluation explained.
    Eval,
    /// `flip`: the position seen from the other side.
    Flip,
}

impl Command {
    /// The command a word names, if any. Only commands pick the dialect: junk first (a
    /// byte-order mark, a stray word) must not lock a UCCI GUI out with UCI.
    pub(super) fn parse(word: &str) -> Option<Command> {
        Some(match word {
            "ucci" => Command::Ucci,
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "position" => Command::Position,
            "banmoves" => Command::BanMoves,
            "setoption" => Command::SetOption,
            "go" => Command::Go,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "probe" => Command::Probe,
            "ucinewgame" => Command::UciNewGame,
            "debug" => Command::Debug,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "flip" => Command::Flip,
            _ => return None,
        })
    }

    /// The conveniences a person types at a console (`d`, `eval`, `flip`): they belong to no
    /// dialect, so they do not pick one.
    pub(super) fn is_console(self) -> bool {
        matches!(self, Command::Display | Command::Eval | Command::Flip)
    }
}
