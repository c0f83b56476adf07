//! What a table says about one position, for the side to move, and its one-byte code.
//!
//! Distances are to mate, in plies (`Win(1)`: mates with this move; `Loss(0)`: mated or
//! stalemated now). A win by the perpetual-check rule has no mate distance; its number is a
//! rank instead: the winner can always move to a position of lower rank, down to the cycle where
//! the loser can only keep checking (rank 0 for the winner to move, 1 for the loser). Wins have
//! odd distances and even ranks, losses even distances and odd ranks.

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Neither side can force a win.
    Draw,
    /// The side to move mates in this many plies (odd).
    Win(u8),
    /// The side to move is mated in this many plies (even; 0: now).
    Loss(u8),
    /// The side to move wins because the opponent can only avoid mate by checking for ever,
    /// which the rules forbid; the rank (even) measures the way to that cycle.
    RuleWin(u8),
    /// The side to move loses because it can only avoid mate by checking for ever; the rank is
    /// odd.
    RuleLoss(u8),
}

/// The code of a placement that is no legal position (two pieces on a square, the side not to
/// move in check).
pub const NO_POSITION: u8 = u8::MAX;
/// The largest mate distance a code holds.
pub const MAX_MATE: u8 = 199;
/// The largest rule rank a code holds.
pub const MAX_RANK: u8 = 53;
const RANK_BASE: u8 = MAX_MATE + 2;

impl Value {
    /// The one-byte code: 0 a draw, 1 + distance a mate (odd distances win), 201 + rank a rule
    /// result (even ranks win), 255 no position.
    pub fn code(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(d) | Value::Loss(d) => d + 1,
            Value::RuleWin(r) | Value::RuleLoss(r) => RANK_BASE + r,
        }
    }

    /// The value of a code; `None` for `NO_POSITION`.
    pub fn from_code(code: u8) -> Option<Value> {
        Some(match code {
            0 => Value::Draw,
            NO_POSITION => return None,
            c if c < RANK_BASE => {
                let d = c - 1;
                if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                }
            }
            c => {
                let r = c - RANK_BASE;
                if r.is_multiple_of(2) {
                    Value::RuleWin(r)
                } else {
                    Value::RuleLoss(r)
                }
            }
        })
    }

    /// +1 won, 0 drawn, −1 lost, for the side to move.
    pub fn wdl(self) -> i32 {
        match self {
            Value::Draw => 0,
            Value::Win(_) | Value::RuleWin(_) => 1,
            Value::Loss(_) | Value::RuleLoss(_) => -1,
        }
    }

    /// How the side to move ranks this value, higher better: quicker mates above slower ones,
    /// mates above rule wins, and the reverse for losses.
    pub fn preference(self) -> i32 {
        match self {
            Value::Win(d) => 2_000 - d as i32,
            Value::RuleWin(r) => 1_000 - r as i32,
            Value::Draw => 0,
            Value::RuleLoss(r) => -1_000 + r as i32,
            Value::Loss(d) => -2_000 + d as i32,
        }
    }

    /// The value one ply earlier, for the player who moves into a position of this value.
    pub fn before(self) -> Value {
        match self {
            Value::Draw => Value::Draw,
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::RuleWin(r) => Value::RuleLoss(r + 1),
            Value::RuleLoss(r) => Value::RuleWin(r + 1),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Draw => write!(f, "draw"),
            Value::Win(d) => write!(f, "win, mate in {d} plies"),
            Value::Loss(0) => write!(f, "loss, mated now"),
            Value::Loss(d) => write!(f, "loss, mated in {d} plies"),
            Value::RuleWin(r) => write!(f, "win by the perpetual-check rule (rank {r})"),
            Value::RuleLoss(r) => write!(f, "loss by the perpetual-check rule (rank {r})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_but_no_position_is_one_value_and_back() {
        for code in 0..=u8::MAX {
            match Value::from_code(code) {
                None => assert_eq!(code, NO_POSITION),
                Some(v) => assert_eq!(v.code(), code, "{v:?}"),
            }
        }
        assert_eq!(Value::from_code(1), Some(Value::Loss(0)));
        assert_eq!(Value::from_code(2), Some(Value::Win(1)));
        assert_eq!(Value::from_code(201), Some(Value::RuleWin(0)));
        assert_eq!(Value::from_code(202), Some(Value::RuleLoss(1)));
    }

    #[test]
    fn preferences_order_results_then_distances() {
        let order = [
            Value::Win(1),
            Value::Win(7),
            Value::RuleWin(0),
            Value::RuleWin(4),
            Value::Draw,
            Value::RuleLoss(9),
            Value::RuleLoss(1),
            Value::Loss(20),
            Value::Loss(0),
        ];
        assert!(order.windows(2).all(|w| w[0].preference() > w[1].preference()));
    }
}
