//! What a player can do in a game (move, resign, offer a draw, …): the one kind of incoming
//! message `game` acts on, kept apart from the wire format so that the game does not depend on
//! the messages that describe it.

/// What a player can do in a game; every one needs the player's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move (ICCS, WXF or Chinese).
    Move(String),
    /// Give up.
    Resign,
    /// Offer a draw (withdrawn by the next move).
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Ask to take back one's last move (against the engine, done at once).
    AskUndo,
    /// Agree to the opponent's request to take back.
    AgreeUndo,
    /// Refuse the opponent's request to take back.
    RefuseUndo,
    /// Once the game is over, offer the opponent a rematch in a new friend game the offerer
    /// created: its id and its invitation (which the opponent alone is told).
    OfferRematch {
        /// The new game's id.
        game: String,
        /// The new game's invitation, as its creator was told it (`joined`'s `invite`).
        invite: String,
    },
}

impl Action {
    /// The `type` that names this action on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::Resign => "resign",
            Action::OfferDraw => "offer_draw",
            Action::AcceptDraw => "accept_draw",
            Action::DeclineDraw => "decline_draw",
            Action::AskUndo => "ask_undo",
            Action::AgreeUndo => "agree_undo",
            Action::RefuseUndo => "refuse_undo",
            Action::OfferRematch { .. } => "offer_rematch",
        }
    }
}
