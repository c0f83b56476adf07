//! Retrograde analysis of one signature, its capture children read from their own tables.
//!
//! 1. **Forward pass.** Every index is decoded; impossible placements (two pieces on a square, the
//!    side not to move in check, which includes kings facing) become `NO_POSITION`. A side with no
//!    legal move has lost (stalemate loses). Each position counts its quiet moves (they stay in
//!    the table); its captures are read from the smaller tables at once: a capture into a lost
//!    position is a win, into a draw an escape from losing.
//! 2. **Mates, by distance.** Positions are settled in order of distance to mate, one bucket per
//!    ply: a loss makes every predecessor (found by taking quiet moves back, `unmoves`) a win one
//!    ply longer; a win takes one from each predecessor's count of open moves, and a predecessor
//!    whose moves all lose (and whose captures all lose) is lost, one ply longer than its longest
//!    defence.
//! 3. **Perpetual check.** What is left is drawn by the usual analysis. Among those positions, for
//!    each colour X, the largest set where X, to move, can keep from losing only by checking into
//!    the set, and the other side can always answer with a quiet non-checking move into the set:
//!    X would have to check for ever, which the Asian rules forbid, so X loses there (rank 1, and
//!    the other side wins, rank 0). Those results spread backwards like mates, by rank, and the
//!    search for such sets repeats until none is found.
//!
//! Whatever remains is a draw.

use std::fmt;

use crate::board::{movegen, Color, Move, PieceKind, Position, Square};

use super::format::Table;
use super::index::{Layout, Placement};
use super::probe::{PlacedPiece, Tablebases};
use super::signature::{Signature, ATTACKERS};
use super::unmoves::for_each_unmove;
use super::value::{Value, MAX_MATE, MAX_RANK, NO_POSITION};

/// Why a table could not be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerateError {
    /// A capture leads to material whose table is not loaded (generate it first).
    MissingChild {
        /// The table being generated.
        signature: Signature,
        /// The child material.
        child: Signature,
    },
    /// A distance or rank beyond what a one-byte code holds.
    TooDeep {
        /// The table being generated.
        signature: Signature,
        /// What overflowed.
        what: &'static str,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::MissingChild { signature, child } => {
                write!(f, "{signature} needs the table of {child}, which is not generated")
            }
            GenerateError::TooDeep { signature, what } => {
                write!(f, "{signature} has a {what} beyond what the table format holds")
            }
        }
    }
}

impl std::error::Error for GenerateError {}

/// A capture into a drawn position: the side to move can never lose.
const ESCAPE: u8 = 1;
/// A capture into a position the opponent wins by the rule: not a mate loss, perhaps a rule loss.
const INTO_RULE_WIN: u8 = 2;
/// A capture into a position the opponent loses by the rule: a rule win.
const RULE_WIN_CAPTURE: u8 = 4;
/// A capture into a position the opponent loses by mate: never lost, whatever the quiet moves do.
const WIN_CAPTURE: u8 = 8;
/// Not settled yet (a draw when generation ends).
const OPEN: u8 = 0;

/// Where a move leads: a position of this table, or one of a smaller table, valued.
#[derive(Copy, Clone)]
enum Child {
    Here(u64),
    Elsewhere(Value),
}

/// The generator's state for one table.
struct Generator<'a> {
    layout: Layout,
    slots: Vec<(Color, PieceKind)>,
    children: &'a Tablebases,
    values: Vec<u8>,
    open_moves: Vec<u8>,
    flags: Vec<u8>,
}

/// Settled values waiting to be spread, by distance (or rank).
type Buckets = Vec<Vec<u64>>;

fn push(buckets: &mut Buckets, level: usize, index: u64) {
    if buckets.len() <= level {
        buckets.resize_with(level + 1, Vec::new);
    }
    buckets[level].push(index);
}

impl<'a> Generator<'a> {
    fn signature(&self) -> Signature {
        self.layout.signature()
    }

    fn position(&self, p: &Placement) -> Position {
        let mut pos = Position::empty();
        for (slot, &(color, kind)) in self.slots.iter().enumerate() {
            pos.put(color, kind, p.squares[slot]);
        }
        pos.set_side(p.side);
        pos
    }

    /// Calls `visit` with each legal move of the position and where it leads.
    fn for_each_child(
        &self,
        p: &Placement,
        pos: &mut Position,
        mut visit: impl FnMut(&mut Position, Move, Child),
    ) -> Result<(), GenerateError> {
        let n = self.layout.pieces();
        let slot_of = |sq: Square| (0..n).find(|&s| p.squares[s] == sq);
        for &mv in movegen::legal_moves(pos).iter() {
            let Some(moved) = slot_of(mv.from()) else { continue };
            let child = match slot_of(mv.to()) {
                None => {
                    let mut c = *p;
                    c.squares[moved] = mv.to();
                    c.side = p.side.opponent();
                    match self.layout.index(&c) {
                        Some(i) => Child::Here(i),
                        None => continue,
                    }
                }
                Some(taken) => {
                    let mut pieces: Vec<PlacedPiece> = Vec::with_capacity(n);
                    for s in (0..n).filter(|&s| s != taken) {
                        let sq = if s == moved { mv.to() } else { p.squares[s] };
                        pieces.push((self.slots[s].0, self.slots[s].1, sq));
                    }
                    match self.children.probe_pieces(&pieces, p.side.opponent()) {
                        Some(v) => Child::Elsewhere(v),
                        None => {
                            let (color, kind) = self.slots[taken];
                            let child = self.signature().without(color, kind).map(|s| s.canonical().0);
                            return Err(GenerateError::MissingChild {
                                signature: self.signature(),
                                child: child.unwrap_or(Signature::BARE_KINGS),
                            });
                        }
                    }
                }
            };
            visit(pos, mv, child);
        }
        Ok(())
    }

    fn value_of(&self, child: Child) -> Option<Value> {
        match child {
            Child::Here(i) => match self.values[i as usize] {
                OPEN => None,
                code => Value::from_code(code),
            },
            Child::Elsewhere(v) => Some(v),
        }
    }

    /// Step 1: no positions, mates now, counts of quiet moves, captures read.
    fn forward_pass(&mut self, mates: &mut Buckets, rules: &mut Buckets) -> Result<(), GenerateError> {
        for index in 0..self.layout.size() {
            let p = self.layout.placement(index);
            if self.layout.overlaps(&p) {
                self.values[index as usize] = NO_POSITION;
                continue;
            }
            let mut pos = self.position(&p);
            if pos.king_attacked(p.side.opponent()) {
                self.values[index as usize] = NO_POSITION;
                continue;
            }
            let (mut quiet, mut moves, mut flags) = (0u32, 0u32, 0u8);
            let (mut win, mut rule_win, mut longest) = (None::<u8>, None::<u8>, 0u8);
            self.for_each_child(&p, &mut pos, |_, _, child| {
                moves += 1;
                match child {
                    Child::Here(_) => quiet += 1,
                    Child::Elsewhere(v) => match v {
                        Value::Loss(d) => {
                            flags |= WIN_CAPTURE;
                            win = Some(win.map_or(d, |w| w.min(d)));
                        }
                        Value::Win(d) => longest = longest.max(d),
                        Value::Draw => flags |= ESCAPE,
                        Value::RuleLoss(r) => {
                            flags |= RULE_WIN_CAPTURE;
                            rule_win = Some(rule_win.map_or(r, |w| w.min(r)));
                        }
                        Value::RuleWin(_) => flags |= INTO_RULE_WIN,
                    },
                }
            })?;
            self.open_moves[index as usize] = quiet.min(255) as u8;
            self.flags[index as usize] = flags;
            if moves == 0 {
                push(mates, 0, index);
            } else if let Some(d) = win {
                push(mates, d as usize + 1, index);
            } else if quiet == 0 && flags == 0 {
                push(mates, longest as usize + 1, index);
            }
            if let Some(r) = rule_win {
                push(rules, r as usize + 1, index);
            }
        }
        Ok(())
    }

    /// The predecessors of `index` in this table that are still open.
    fn open_predecessors(&self, index: u64, out: &mut Vec<u64>) {
        out.clear();
        let p = self.layout.placement(index);
        let mover = p.side.opponent();
        for_each_unmove(&self.layout, &self.slots, &p, mover, |slot, from| {
            let mut q = p;
            q.squares[slot] = from;
            q.side = mover;
            if let Some(qi) = self.layout.index(&q) {
                if self.values[qi as usize] == OPEN {
                    out.push(qi);
                }
            }
        });
    }

    /// The level a position all of whose moves lose is settled at: one more than its longest
    /// defence (mate distance for `rule == false`, else the rank, mates counting as 0 and open
    /// children, the cycle's members, as 0).
    fn losing_level(&self, index: u64, rule: bool) -> Result<usize, GenerateError> {
        let p = self.layout.placement(index);
        let mut pos = self.position(&p);
        let mut level = 0usize;
        self.for_each_child(&p, &mut pos, |_, _, child| {
            let longest = match (self.value_of(child), rule) {
                (Some(Value::Win(d)), false) => d as usize,
                (Some(Value::RuleWin(r)), true) => r as usize,
                _ => 0,
            };
            level = level.max(longest);
        })?;
        Ok(level + 1)
    }

    /// Steps 2 and 3's spreading: settles the buckets in order, mates (`rule == false`) or rule
    /// results.
    fn spread(&mut self, buckets: &mut Buckets, rule: bool) -> Result<(), GenerateError> {
        let mut preds = Vec::new();
        let mut level = 0;
        while level < buckets.len() {
            let list = std::mem::take(&mut buckets[level]);
            for index in list {
                if self.values[index as usize] != OPEN {
                    continue;
                }
                let too_deep = |what| GenerateError::TooDeep { signature: self.signature(), what };
                let value = match (rule, level % 2 == 1) {
                    (false, true) => Value::Win(u8::try_from(level).map_err(|_| too_deep("mate distance"))?),
                    (false, false) => {
                        Value::Loss(u8::try_from(level).map_err(|_| too_deep("mate distance"))?)
                    }
                    (true, false) => Value::RuleWin(u8::try_from(level).map_err(|_| too_deep("rule rank"))?),
                    (true, true) => Value::RuleLoss(u8::try_from(level).map_err(|_| too_deep("rule rank"))?),
                };
                if (!rule && level > MAX_MATE as usize) || (rule && level > MAX_RANK as usize) {
                    return Err(too_deep(if rule { "rule rank" } else { "mate distance" }));
                }
                self.values[index as usize] = value.code();
                self.open_predecessors(index, &mut preds);
                for &q in &preds {
                    if value.wdl() < 0 {
                        push(buckets, level + 1, q);
                        continue;
                    }
                    let open = &mut self.open_moves[q as usize];
                    *open = open.saturating_sub(1);
                    let flags = self.flags[q as usize];
                    let blocked =
                        if rule { flags & (ESCAPE | RULE_WIN_CAPTURE | WIN_CAPTURE) } else { flags };
                    if *open == 0 && blocked == 0 {
                        let at = self.losing_level(q, rule)?;
                        push(buckets, at.max(level + 1), q);
                    }
                }
            }
            level += 1;
        }
        Ok(())
    }

    /// Step 3's set for checker `x`: the open positions where `x` can only keep checking.
    fn perpetual_check_set(&self, x: Color) -> Result<Vec<u64>, GenerateError> {
        let size = self.layout.size();
        let mut member: Vec<bool> = self.values.iter().map(|&c| c == OPEN).collect();
        loop {
            let mut changed = false;
            for index in 0..size {
                if !member[index as usize] {
                    continue;
                }
                let p = self.layout.placement(index);
                let mut pos = self.position(&p);
                let checker = p.side == x;
                // The checker stays while it has no way out; the other side needs a way in.
                let mut ok = false;
                let mut escapes = false;
                self.for_each_child(&p, &mut pos, |pos, mv, child| {
                    let open_member = match child {
                        Child::Here(i) => self.values[i as usize] == OPEN && member[i as usize],
                        Child::Elsewhere(_) => false,
                    };
                    // The position is open, so no move wins: a move into a settled position
                    // that is no draw loses.
                    let loses = matches!(self.value_of(child), Some(v) if v.wdl() > 0);
                    if checker {
                        if !(loses || open_member && pos.gives_check(mv)) {
                            escapes = true;
                        }
                    } else if !ok && open_member && !pos.gives_check(mv) {
                        ok = true;
                    }
                })?;
                if checker {
                    ok = !escapes;
                }
                if !ok {
                    member[index as usize] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Ok((0..size).filter(|&i| member[i as usize]).collect())
    }

    /// Step 3.
    fn perpetual_checks(&mut self, rules: &mut Buckets) -> Result<(), GenerateError> {
        // Positions whose quiet moves all lose and whose captures lose, some by the rule.
        for index in 0..self.layout.size() {
            let i = index as usize;
            if self.values[i] == OPEN
                && self.open_moves[i] == 0
                && self.flags[i] & (ESCAPE | RULE_WIN_CAPTURE | WIN_CAPTURE) == 0
            {
                let at = self.losing_level(index, true)?;
                push(rules, at, index);
            }
        }
        self.spread(rules, true)?;
        let sig = self.signature();
        let can_check: Vec<Color> =
            Color::BOTH.into_iter().filter(|&c| ATTACKERS.iter().any(|&k| sig.count(c, k) > 0)).collect();
        loop {
            let mut found = false;
            for &x in &can_check {
                let set = self.perpetual_check_set(x)?;
                if set.is_empty() {
                    continue;
                }
                found = true;
                for &index in &set {
                    if self.layout.placement(index).side == x {
                        let at = self.losing_level(index, true)?;
                        push(rules, at, index);
                    } else {
                        push(rules, 0, index);
                    }
                }
                self.spread(rules, true)?;
            }
            if !found {
                return Ok(());
            }
        }
    }
}

/// Generates the table of the canonical `signature`; `children` must hold the table of every
/// material one capture away.
pub fn generate(signature: Signature, children: &Tablebases) -> Result<Table, GenerateError> {
    let layout = Layout::new(signature);
    let size = layout.size() as usize;
    let mut g = Generator {
        slots: layout.slot_pieces(),
        layout,
        children,
        values: vec![OPEN; size],
        open_moves: vec![0; size],
        flags: vec![0; size],
    };
    let (mut mates, mut rules) = (Buckets::new(), Buckets::new());
    g.forward_pass(&mut mates, &mut rules)?;
    g.spread(&mut mates, false)?;
    g.perpetual_checks(&mut rules)?;
    Ok(Table::new(signature, g.values))
}
