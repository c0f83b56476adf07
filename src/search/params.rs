//! The search's numeric parameters (margins, depth limits, the reduction formula), in one place
//! so that tuning can change them at run time: the `tune` / `Tune` option and
//! `chariot bench --tune` take `name=value` pairs, and `scripts/sprt.sh` tests a candidate
//! against the defaults without a rebuild.

use std::fmt;

/// Declares the parameters once: the struct, its defaults, and each one's name and range.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident: $default:literal in $min:literal..=$max:literal,)*) => {
        /// Numeric parameters of the search. The defaults are the landed, SPRT-tested values.
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl SearchParams {
            /// The landed values.
            pub const DEFAULT: SearchParams = SearchParams { $($field: $default,)* };

            /// Each parameter's name and allowed range.
            pub const RANGES: &'static [(&'static str, i32, i32)] = &[$((stringify!($field), $min, $max),)*];

            /// The parameter called `name` and its allowed range.
            fn slot(&mut self, name: &str) -> Option<(&mut i32, i32, i32)> {
                match name {
                    $(stringify!($field) => Some((&mut self.$field, $min, $max)),)*
                    _ => None,
                }
            }

            /// `name=value` pairs, as the `tune` option prints and takes them.
            pub fn pairs(&self) -> Vec<(&'static str, i32)> {
                vec![$((stringify!($field), self.$field),)*]
            }
        }
    };
}

search_params! {
    /// Reverse futility: centipawns above beta per ply of depth left.
    rfp_margin: 55 in 0..=1000,
    /// Reverse futility applies up to this depth.
    rfp_depth: 6 in 0..=32,
    /// Futility pruning: the margin at depth 0.
    futility_base: 112 in 0..=2000,
    /// Futility pruning: the margin added per ply of depth.
    futility_margin: 76 in 0..=1000,
    /// Futility pruning applies up to this depth.
    futility_depth: 4 in 0..=32,
    /// Late move pruning: quiet moves tried before pruning, plus depth squared.
    lmp_base: 3 in 0..=64,
    /// Late move pruning applies up to this depth.
    lmp_depth: 4 in 0..=32,
    /// Late move pruning: the count of quiet moves tried before pruning (`lmp_base` plus depth
    /// squared) scaled by this percent when the static evaluation is not improving (100 keeps
    /// it; Stockfish's count is about half of it, Pikafish-HCE's about a fifth: a candidate).
    lmp_scale: 100 in 1..=1000,
    /// See `lmp_scale`: the count when improving (`lmp_base` plus twice the depth squared)
    /// scaled by this percent (Pikafish-HCE's is about half of it: a candidate).
    lmp_scale_improving: 100 in 1..=1000,
    /// Null move: tried from this depth on.
    null_depth: 2 in 1..=32,
    /// Null move: the base reduction.
    null_reduction: 3 in 1..=10,
    /// Null move: one more ply of reduction per this much depth.
    null_depth_div: 4 in 1..=64,
    /// Null move: one more ply of reduction per this much static eval above beta (at most
    /// `null_eval_plies`).
    null_eval_div: 208 in 1..=5000,
    /// See `null_eval_div`.
    null_eval_plies: 2 in 0..=10,
    /// Null move: a cut stands unverified below this depth when the side to move has more than
    /// `null_verify_pieces` big pieces; otherwise a reduced normal search must confirm it.
    null_verify_depth: 10 in 0..=128,
    /// Null move: see `null_verify_depth`; rooks count two, horses and cannons one.
    null_verify_pieces: 2 in 0..=20,
    /// Late move reductions apply from this depth on.
    lmr_depth: 3 in 1..=32,
    /// Late move reductions: moves searched in full before any is reduced (one more at PV nodes).
    lmr_moves: 2 in 0..=64,
    /// Late move reductions: `base/100 + ln(depth) ln(move number) / (divisor/100)` plies.
    lmr_base: 48 in -300..=500,
    /// See `lmr_base`.
    lmr_divisor: 239 in 50..=2000,
    /// Late move reductions: one ply less per this many thousand points of history (0: off).
    lmr_history: 0 in 0..=100000,
    /// Late move reductions summed in 1,024ths of a ply (a candidate; 0 keeps whole plies): the
    /// formula's fraction is kept, and a quiet move's history (its ordering score) moves its
    /// reduction by a ply per this many points, up or down, before the sum is rounded down to
    /// whole plies (as Stockfish's `statScore` does; it replaces `lmr_history`).
    lmr_stat: 0 in 0..=1000000,
    /// Late move reductions: this many plies more at an expected cut node (0 leaves cut nodes
    /// as the others; 1 passed its gate, docs/strength.md).
    lmr_cut: 1 in 0..=4,
    /// Late move reductions: one ply more when the nodes one ply below have cut off more than
    /// this many times since this node's parent began (its earlier moves were refuted, so it
    /// likely fails low; a candidate, 0 switches it off).
    lmr_cutoffs: 0 in 0..=255,
    /// Late move reductions: this many plies less at a non-PV node that the table says was
    /// on a principal variation (Stockfish's `ttPv`; 1 passed its gate, docs/strength.md; 0
    /// reduces those nodes as the others).
    lmr_tt_pv: 1 in 0..=4,
    /// Late move reductions: quiet moves that give check are reduced as the other quiet moves
    /// (1, with `futility_lmr`, passed its gate, docs/strength.md; 0 searches every check at full
    /// depth, as before).
    lmr_checks: 1 in 0..=1,
    /// Late move reductions: late captures that lose material by exchange are reduced as quiet
    /// moves are (a candidate: 1; 0 never reduces a capture).
    lmr_captures: 0 in 0..=1,
    /// Late move reductions: this many plies more when the table's move is a capture (the
    /// quiet alternatives are then less likely to matter; a candidate, 0 leaves it).
    lmr_tt_capture: 0 in 0..=4,
    /// Late move reductions: when a reduced search beats alpha, the full-depth search goes a
    /// ply deeper if it beat alpha by this margin, and a ply shallower if its score was not above
    /// the best one so far by the new depth (a candidate; 0 switches it off).
    lmr_deeper: 0 in 0..=2000,
    /// Late move reductions: a ply less when the node one ply up had tried more than this many
    /// moves before the one that led here (a late move's refutation gets a closer look, as
    /// Stockfish's "opponent's move count is high"; a candidate, 0 switches it off).
    lmr_parent_moves: 0 in 0..=255,
    /// Late move reductions: when a reduced quiet move beat alpha and was searched again, its
    /// continuation histories learn at once whether the full search held (a candidate: 1, as
    /// Stockfish after its re-searches; 0 leaves them to the cutoffs).
    lmr_cont_bonus: 0 in 0..=1,
    /// Futility pruning judges a late quiet move by the depth its reduced search would have
    /// (the late-move reduction taken off) rather than the node's (1, with `lmr_checks`, passed
    /// its gate; 0 judges by the node's depth, as before).
    futility_lmr: 1 in 0..=1,
    /// Correction history (`correction.rs`): the most weight, out of 256, one search result has
    /// in its entry (a result of depth d weighs d + 1 up to this); 0 switches correction off.
    corr_weight: 0 in 0..=256,
    /// Correction history: which keys it learns and corrects by, a bit each: 1 the pawns, 2 each
    /// side's other pieces (an entry for Red's and one for Black's); the correction is their mean.
    corr_keys: 1 in 1..=3,
    /// Check extension: a node in check is searched a ply deeper only at this depth or more
    /// (a candidate; 0 extends every check, as before. Pikafish extends checks only past depth
    /// 10: in xiangqi checks are frequent, and a check at the horizon is answered by
    /// quiescence's evasions anyway).
    check_ext_depth: 0 in 0..=64,
    /// Singular extensions: a move from the table is searched one ply deeper when every other
    /// move fails well below its stored score, at this depth and deeper; 0 switches them off.
    se_depth: 6 in 0..=64,
    /// Singular extensions: how far below the table's score the other moves must all fail, in
    /// centipawns per ply of depth.
    se_margin: 2 in 0..=200,
    /// Singular extensions: the table's move is searched this many plies shallower when it is
    /// not singular but its stored score beats beta; 0 leaves it.
    se_negative: 0 in 0..=2,
    /// Singular extensions: at non-PV nodes, a table's move whose alternatives all fail this
    /// far below the singular bound is searched two plies deeper, not one (a candidate; 0
    /// switches double extensions off).
    se_double_margin: 0 in 0..=1000,
    /// Singular extensions: at most this many double extensions on one line from the root.
    se_double_limit: 10 in 0..=64,
    /// Internal iterative reduction: a node with no move from the table is searched a ply
    /// shallower from this depth on (a candidate; 0 switches it off).
    iir_depth: 0 in 0..=64,
    /// Static-exchange pruning at non-PV nodes up to this depth: a capture that loses more than
    /// `see_capture_margin` per ply, or a quiet move that loses more than `see_quiet_margin` per
    /// ply squared, is skipped (a candidate; 0 switches it off).
    see_prune_depth: 0 in 0..=32,
    /// See `see_prune_depth` (exchange units: a pawn is 15, a rook 200).
    see_capture_margin: 40 in 0..=1000,
    /// See `see_prune_depth`.
    see_quiet_margin: 5 in 0..=1000,
    /// Razoring at non-PV nodes up to this depth: a static evaluation below alpha by
    /// `razor_base` plus `razor_margin` per ply squared asks quiescence whether anything lifts
    /// it to alpha, and fails low if not (a candidate; 0 switches it off).
    razor_depth: 0 in 0..=32,
    /// See `razor_depth`.
    razor_base: 60 in 0..=5000,
    /// See `razor_depth`.
    razor_margin: 60 in 0..=5000,
    /// ProbCut at non-PV nodes from this depth on: a capture whose reduced search (four plies
    /// shallower) beats beta by `probcut_margin` cuts the node (a candidate; 0 switches it off).
    probcut_depth: 0 in 0..=64,
    /// See `probcut_depth`.
    probcut_margin: 200 in 0..=5000,
    /// ProbCut's small form in check: a non-PV node in check cuts when the table's capture
    /// holds a lower bound `probcut_check_margin` above beta from nearly this depth (a
    /// candidate; 0 switches it off).
    probcut_check_margin: 0 in 0..=5000,
    /// History pruning at non-PV nodes up to this depth: a late quiet move whose history (its
    /// ordering score: a cut-off at depth d earns 16 d² points) is below minus
    /// `hist_prune_margin` points a ply is skipped (a candidate; 0 switches it off).
    hist_prune_depth: 0 in 0..=32,
    /// See `hist_prune_depth`.
    hist_prune_margin: 300 in 0..=1000000,
    /// History points per unit of depth squared in a cutoff's bonus (capped at depth 20) and
    /// in the malus of the moves tried before it. The tables' gravity pulls an entry back by
    /// its share of ±2^20 times the bonus, so at 15 or 16 it barely bites; more lets recent cutoffs
    /// outweigh old ones sooner (15 is the landed value, from the first SPSA).
    history_bonus: 15 in 1..=1024,
    /// Capture history (a candidate; 0 switches it off): captures are ordered within their
    /// class (winning or losing by exchange) by MVV-LVA plus their history divided by this. A
    /// rook as victim weighs 3,200 in MVV-LVA and a history reaches ±1,048,576, so 256 lets
    /// history move a capture by up to about a rook; values below 2 count as 2.
    capture_history_div: 0 in 0..=1000000,
    /// A cut-off taken from the table at a non-PV node teaches the history too: the table's
    /// move, when quiet, earns a cutoff's bonus and becomes a killer, as if it had been
    /// searched and cut (Stockfish's update on a table cut-off; a candidate; 0 switches it off).
    tt_cut_bonus: 0 in 0..=1,
    /// Quiet moves are also ordered and taught by a third continuation history, after the
    /// side's own move two moves before (four plies), as Stockfish reads one (a candidate; 0
    /// reads only the moves one and two plies before).
    cont_fourth: 0 in 0..=1,
    /// A node's moves are generated and scored in stages as they are needed (`picker.rs`: the
    /// table's move, captures, killers and counter move, other quiet moves, losing captures),
    /// as Stockfish's move picker does (a speed candidate; 0 generates and scores every move at
    /// once).
    staged_picker: 0 in 0..=1,
    /// A repetition of a position from before the root (the game's history) gets the rules'
    /// verdict at its third occurrence, as the game gives it, not at its second: the opponent
    /// may still leave the cycle (a candidate; 0 judges every repetition at its second).
    rep_root_rule: 0 in 0..=1,
    /// A node where every move failed low rewards the quiet move that led to it: the parent's
    /// move earns this many sixteenths of a cutoff's bonus at the node's depth in its side's
    /// history and continuation histories, since it refuted everything here (Stockfish's
    /// bonus for the prior move of a fail-low node; a candidate; 0 switches it off).
    prior_bonus: 0 in 0..=64,
    /// Futility pruning of captures at non-PV nodes: with the reduced depth d at most
    /// `futility_depth`, a capture that gives no check is skipped when the static evaluation
    /// plus `futility_base`, the captured piece's value and this many centipawns a ply of d
    /// stays at or below alpha (as Stockfish prunes captures; a candidate; 0 switches it off).
    capture_futility: 0 in 0..=2000,
    /// Quiescence at the horizon's first ply also tries the quiet moves that give check and
    /// lose nothing by exchange (a candidate, as Pikafish's `DEPTH_QS_CHECKS`; 0 tries captures
    /// only).
    qs_checks: 0 in 0..=1,
    /// The static evaluation is damped toward a draw as the move rule (120 plies without a
    /// capture) nears: times (N − h) / N after h plies without a capture, N this value (240
    /// halves it when the rule strikes, as Stockfish's 50-move damping does; a candidate; 0
    /// leaves the evaluation alone).
    rule_damping: 0 in 0..=10000,
    /// Quiescence delta pruning: the margin over the captured piece's value.
    delta_margin: 135 in 0..=2000,
    /// Aspiration window: the first half-width, doubled at each fail.
    aspiration_delta: 19 in 1..=1000,
    /// Aspiration window: used from this depth on (the shallower iterations search the full window).
    aspiration_depth: 4 in 1..=64,
    /// Time use: moves assumed left in the game when the clock says nothing (and at most).
    time_moves: 32 in 1..=200,
    /// Time use: the soft budget (start no new iteration past it), percent of a move's share.
    time_soft: 60 in 1..=1000,
    /// Time use: the hard budget (abort), percent of a move's share.
    time_hard: 300 in 1..=2000,
    /// Time use: percent of the increment added to a move's share.
    time_increment: 75 in 0..=200,
    /// Time use: a move's share grows by this percent of itself for every ten plies the game
    /// has gone (up to `time_ply_max`), since long games are played on what is left (5 passed
    /// its gate, docs/strength.md: a move at ply 100 gets 1.5 times the first's share; 0 keeps
    /// the share flat).
    time_ply_growth: 5 in 0..=100,
    /// See `time_ply_growth`: the most the share grows to, percent.
    time_ply_max: 250 in 100..=1000,
    /// Time use: no budget exceeds this percent of the usable clock (`time_cap_last` on the
    /// last move before the time control).
    time_cap: 50 in 1..=100,
    /// Time use: no budget exceeds this percent of the usable clock on the last move before
    /// the time control.
    time_cap_last: 90 in 1..=100,
    /// Time use: when an iteration's best move differs from the last one's, the soft budget's
    /// scale grows to this percent of itself (up to `time_scale_max`).
    time_best_changed: 150 in 100..=1000,
    /// Time use: when an iteration's best move is the last one's, the soft budget's scale
    /// shrinks to this percent of itself (never below `time_scale_min`).
    time_best_stable: 85 in 1..=100,
    /// Time use: the least the soft budget's scale shrinks to, percent, when the best move
    /// holds (100 never cuts the budget; less saves time on moves that look easy, as Stockfish's
    /// time reduction does: a candidate).
    time_scale_min: 100 in 10..=100,
    /// Time use: when the score drops by more than `time_drop_margin` centipawns in an
    /// iteration, the soft budget's scale grows to this percent of itself (up to `time_scale_max`).
    time_score_dropped: 130 in 100..=1000,
    /// See `time_score_dropped`.
    time_drop_margin: 30 in 0..=1000,
    /// Time use: the soft budget stretches to at most this percent of itself (and never past
    /// the hard budget).
    time_scale_max: 300 in 100..=1000,
    /// Time use: no new iteration starts once the time used, times this percent, reaches the
    /// hard budget (the next iteration would take longer than all before it and be cut off).
    time_next_iteration: 250 in 100..=1000,
    /// Time use: on a clock, a mate is not searched more than this many plies past its distance.
    time_mate_plies: 4 in 0..=64,
    /// Time use: when the best move has taken at least this percent of the root's nodes over
    /// the whole search (it alone needed looking at), no iteration starts past `time_effort_soft`
    /// percent of the soft budget (a candidate, as Stockfish's node effort; 0 switches it off).
    time_effort: 0 in 0..=100,
    /// See `time_effort`.
    time_effort_soft: 70 in 1..=100,
}

/// Why a `name=value` list was refused; `Display` names the pair at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// A pair without `=`.
    NotPair(String),
    /// A name that is no parameter.
    UnknownName(String),
    /// A value that is not a whole number.
    NotNumber {
        /// The parameter.
        name: String,
        /// The value as given.
        value: String,
    },
    /// A value outside the parameter's range.
    OutOfRange {
        /// The parameter.
        name: String,
        /// Its least value.
        min: i32,
        /// Its greatest value.
        max: i32,
        /// The value given.
        value: i32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::NotPair(pair) => write!(f, "'{pair}' is not name=value"),
            ParamError::UnknownName(name) => {
                let names: Vec<&str> = SearchParams::RANGES.iter().map(|r| r.0).collect();
                write!(f, "unknown search parameter '{name}' ({})", names.join(", "))
            }
            ParamError::NotNumber { name, value } => write!(f, "{name} wants a whole number, not '{value}'"),
            ParamError::OutOfRange { name, min, max, value } => {
                write!(f, "{name} must be between {min} and {max}, not {value}")
            }
        }
    }
}

impl std::error::Error for ParamError {}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

impl SearchParams {
    /// The defaults with each `name=value` of `list` (separated by commas or spaces, may be
    /// empty) applied. An unknown name, a value that is not a whole number or one out of range
    /// is an error naming it.
    pub fn with_list(list: &str) -> Result<SearchParams, ParamError> {
        let mut params = SearchParams::DEFAULT;
        for pair in list.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').ok_or_else(|| ParamError::NotPair(pair.to_string()))?;
            let (slot, min, max) =
                params.slot(name).ok_or_else(|| ParamError::UnknownName(name.to_string()))?;
            let value: i32 = value
                .parse()
                .map_err(|_| ParamError::NotNumber { name: name.to_string(), value: value.to_string() })?;
            if !(min..=max).contains(&value) {
                return Err(ParamError::OutOfRange { name: name.to_string(), min, max, value });
            }
            *slot = value;
        }
        Ok(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_sets_the_named_parameters_and_keeps_the_rest() {
        let p = SearchParams::with_list("rfp_margin=70, lmr_history=8 delta_margin=150").unwrap();
        assert_eq!(p.rfp_margin, 70);
        assert_eq!(p.lmr_history, 8);
        assert_eq!(p.delta_margin, 150);
        assert_eq!(p.futility_margin, SearchParams::DEFAULT.futility_margin);
        assert_eq!(SearchParams::with_list("").unwrap(), SearchParams::DEFAULT);
    }

    #[test]
    fn bad_lists_are_refused_with_the_reason() {
        let err = SearchParams::with_list("rfp_margn=70").unwrap_err().to_string();
        assert!(err.contains("rfp_margn") && err.contains("rfp_margin"), "{err}");
        let err = SearchParams::with_list("rfp_margin").unwrap_err();
        assert_eq!(err.to_string(), "'rfp_margin' is not name=value");
        let err = SearchParams::with_list("rfp_margin=abc").unwrap_err();
        assert_eq!(err.to_string(), "rfp_margin wants a whole number, not 'abc'");
        let err = SearchParams::with_list("null_reduction=0").unwrap_err();
        assert_eq!(err, ParamError::OutOfRange { name: "null_reduction".into(), min: 1, max: 10, value: 0 });
        assert_eq!(err.to_string(), "null_reduction must be between 1 and 10, not 0");
    }

    #[test]
    fn every_default_lies_in_its_range_and_every_name_can_be_set() {
        for (name, value) in SearchParams::DEFAULT.pairs() {
            let &(_, min, max) = SearchParams::RANGES.iter().find(|r| r.0 == name).unwrap();
            assert!((min..=max).contains(&value), "{name}={value} outside {min}..={max}");
            let p = SearchParams::with_list(&format!("{name}={min}")).unwrap();
            assert!(p.pairs().contains(&(name, min)), "{name} was not set");
        }
    }
}
