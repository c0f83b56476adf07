//! Game results: whether a game position is over, who won, and why.

use std::fmt;

use super::repetition::{game_verdict, Verdict};
use crate::board::{movegen, Color, PieceKind, Position};

/// Plies without a capture after which the game is drawn (the 60-move rule).
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move but is not in check (it loses too).
    Stalemate,
    /// The loser gave check with every move of a repetition cycle.
    PerpetualCheck,
    /// The loser chased with every move of a repetition cycle.
    PerpetualChase,
    /// A position occurred for the third time with nobody to blame.
    Repetition,
    /// `MOVE_LIMIT_PLIES` plies went by without a capture.
    MoveLimit,
    /// Neither side has a rook, horse, cannon or pawn.
    InsufficientMaterial,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck => "perpetual check",
            Termination::PerpetualChase => "perpetual chase",
            Termination::Repetition => "repetition",
            Termination::MoveLimit => "120 plies without a capture",
            Termination::InsufficientMaterial => "insufficient material",
        })
    }
}

/// A finished game: the winner (`None` for a draw) and why it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
}

impl GameResult {
    /// The PGN result token: "1-0" (Red won), "0-1" (Black won) or "1/2-1/2".
    pub fn pgn_result(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    /// For example "1-0 (checkmate)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.pgn_result(), self.termination)
    }
}

/// Whether neither side has a piece that can cross the river to attack (rook, horse, cannon or
/// pawn), so neither can ever mate.
pub fn insufficient_material(pos: &Position) -> bool {
    let attackers = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn];
    Color::BOTH.iter().all(|&color| attackers.iter().all(|&kind| pos.count(color, kind) == 0))
}

/// Judges a game position in the order of `docs/rules.md`: no legal move, repetition (third occurrence),
/// the 120-ply rule, then material. `None` while the game goes on.
pub fn game_result(pos: &Position) -> Option<GameResult> {
    let side = pos.side_to_move();
    if !movegen::has_legal_move(&mut pos.clone()) {
        let termination = if pos.is_check() { Termination::Checkmate } else { Termination::Stalemate };
        return Some(GameResult { winner: Some(side.opponent()), termination });
    }
    if let Some(verdict) = game_verdict(pos) {
        let termination = match verdict {
            Verdict::Draw => Termination::Repetition,
            Verdict::PerpetualCheck { .. } => Termination::PerpetualCheck,
            Verdict::PerpetualChase { .. } => Termination::PerpetualChase,
        };
        let winner = verdict.loser().map(Color::opponent);
        return Some(GameResult { winner, termination });
    }
    if pos.halfmove_clock() >= MOVE_LIMIT_PLIES {
        return Some(GameResult { winner: None, termination: Termination::MoveLimit });
    }
    if insufficient_material(pos) {
        return Some(GameResult { winner: None, termination: Termination::InsufficientMaterial });
    }
    None
}
