//! One search thread: PVS (or MTD(f) over the same null-window search), quiescence, pruning
//! and reductions. The iterative-deepening driver in `driver.rs` calls into it.

use crate::board::{movegen, Move, MoveList, PieceKind, Position};
use crate::eval::{EvalChoice, Evaluator};

use super::correction::{CorrectionHistory, CorrectionKeys};
use super::history::{piece_square, Conts, OrderingTables, NO_CONTINUATION};
use super::ordering::{ScoredMoves, LOSING_CAPTURE_MAX, MAX_PLY, REFUTATION};
use super::picker::MovePicker;
use super::reductions::PLY_FRACTION;
use super::root::RootMove;
use super::rules_hook::rule_score;
use super::score::{INFINITE, MATE, MATE_BOUND};
use super::see::{see, value_on};
use super::shared::Shared;
use super::stack::{PvTable, Stack};
use super::tablebase_hook;
use super::thread_state::ThreadState;
use super::timeman::{ClockReading, TimeManager};
use super::tt::Bound;

mod quiescence;

/// Nodes between two looks at the stop flag (and, on the main thread, at the clock and the
/// total node count).
const POLL_INTERVAL: u64 = 1024;

/// Nodes this deep return their static evaluation: the per-ply stacks end at `MAX_PLY`.
const PLY_LIMIT: usize = MAX_PLY - 4;

/// History points per `lmr_history` step: `lmr_history` counts thousands of history points, so
/// that its range stays in small whole numbers.
const HISTORY_PER_LMR_STEP: i32 = 1000;

/// A quiet move's history share of its late-move reduction, in 1,024ths of a ply: a ply per
/// `points_per_ply` points of its order score, bounded so that no score overflows the sum.
fn history_share(order_score: i32, points_per_ply: i32) -> i32 {
    let share = i64::from(order_score) * i64::from(PLY_FRACTION) / i64::from(points_per_ply.max(1));
    share.clamp(-64 * i64::from(PLY_FRACTION), 64 * i64::from(PLY_FRACTION)) as i32
}

/// A node's expected kind: a principal-variation node (full window), or a null-window node
/// expected to fail high (`Cut`: one good move refutes it) or low (`All`: every move is tried).
/// The expectation alternates down the tree, as in Stockfish's `cutNode`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of a null-window child that is not searched first: the opposite expectation
    /// (a PV node's later moves are expected to fail high below it).
    fn opposite(self) -> NodeKind {
        match self {
            NodeKind::Pv | NodeKind::All => NodeKind::Cut,
            NodeKind::Cut => NodeKind::All,
        }
    }

    /// The kind of a singular-extension search of this node (one move left out): a null
    /// window that keeps a non-PV node's expectation.
    fn singular(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::All,
            kind => kind,
        }
    }

    /// The kind of the child searched first: a PV node's stays on the PV.
    fn first_child(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            kind => kind.opposite(),
        }
    }
}

/// Per-thread search state.
pub(crate) struct Worker<'a> {
    pub pos: Position,
    pub shared: &'a Shared<'a>,
    pub id: usize,
    pub nodes: u64,
    pub seldepth: i32,
    pub tables: OrderingTables,
    /// The evaluation, following the line as moves are made and taken back.
    pub eval: Evaluator,
    /// The main thread's clock keeper (`None` on helpers, which stop when the main thread is done).
    pub time: Option<TimeManager>,
    /// How far the static evaluation errs by pawn structure, learned during this search.
    correction: CorrectionHistory,
    /// Per ply of the current line: static evaluation, continuation row, killers.
    stack: Stack,
    /// The principal variations below each ply of the current line.
    pv: PvTable,
    /// The depth of the iteration under way (extensions stop at twice it in plies).
    root_depth: i32,
    /// Set once this thread must unwind.
    pub stopped: bool,
}

impl<'a> Worker<'a> {
    pub fn new(
        pos: Position,
        shared: &'a Shared<'a>,
        id: usize,
        mut state: ThreadState,
        eval: &EvalChoice,
        time: Option<TimeManager>,
    ) -> Worker<'a> {
        let eval = Evaluator::renewed(state.eval, eval, shared.terms, &pos);
        state.pv.forget();
        state.tables.bonus_per_depth_squared = shared.params.history_bonus;
        Worker {
            pos,
            shared,
            id,
            nodes: 0,
            seldepth: 0,
            tables: state.tables,
            eval,
            time,
            correction: CorrectionHistory::new(
                shared.params.corr_weight,
                CorrectionKeys::from_bits(shared.params.corr_keys),
            ),
            stack: Stack::default(),
            pv: state.pv,
            root_depth: 0,
            stopped: false,
        }
    }

    /// What this thread keeps for the next search.
    pub fn into_state(self) -> ThreadState {
        ThreadState { tables: self.tables, pv: self.pv, eval: Some(self.eval) }
    }

    /// The principal variation found by the last search from the root.
    pub fn root_pv(&self) -> Vec<Move> {
        self.pv.root().to_vec()
    }

    /// Counts a node and, every `POLL_INTERVAL` nodes, polls the stop flag, the clock and the
    /// node limit.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if let Some(limit) = self.shared.node_limit_per_thread() {
            if self.nodes >= limit {
                self.stopped = true;
                // Not a stop request: a pondering or infinite search must still hold its answer
                // until the GUI releases it (a weakened level's node limit ends such searches).
                self.shared.finish();
            }
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.shared.publish_nodes(self.id, self.nodes);
            if let Some(time) = &self.time {
                let clock = ClockReading::of(self.shared.control);
                if time.must_abort(clock) {
                    self.shared.control.request_stop();
                }
                self.shared.poll(clock.elapsed_ms);
            }
            if self.shared.must_stop() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Searches the root moves in their order with window (alpha, beta), fail-soft. Each move
    /// searched gets its score; the others keep `-INFINITE`. Returns the best score.
    pub fn search_root(&mut self, moves: &mut [RootMove], mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.pv.clear(0);
        self.root_depth = depth;
        self.stack[2].cutoffs = 0;
        let kind = if beta - alpha > 1 { NodeKind::Pv } else { NodeKind::Cut };
        let mut best = -INFINITE;
        for rm in moves.iter_mut() {
            rm.score = -INFINITE;
        }
        for (i, root_move) in moves.iter_mut().enumerate() {
            let mv = root_move.mv;
            if self.id == 0 {
                self.shared.report_currmove(mv, i + 1, depth);
            }
            self.stack[0].cont_row = piece_square(&self.pos, mv);
            self.stack[0].move_number = (i + 1).min(255) as u8;
            let nodes_before = self.nodes;
            self.eval.make_move(&mut self.pos, mv);
            let new_depth = depth - 1;
            let score = if i == 0 {
                -self.search(-beta, -alpha, new_depth, 1, kind.first_child(), true)
            } else {
                let mut s = -self.search(-alpha - 1, -alpha, new_depth, 1, NodeKind::Cut, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(-beta, -alpha, new_depth, 1, NodeKind::Pv, true);
                }
                s
            };
            self.eval.unmake_move(&mut self.pos);
            root_move.effort += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            root_move.score = score;
            if score > best {
                best = score;
                if score > alpha || i == 0 {
                    self.pv.update(0, mv);
                }
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Alpha-beta with principal variation search: the score of the node at `ply` within
    /// (alpha, beta), fail-soft, searched `depth` plies deep.
    pub fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        kind: NodeKind,
        allow_null: bool,
    ) -> i32 {
        // Step 1. Count the node and poll; the rules' verdict (repetition, dead material); the
        // end of the stacks.
        self.pv.clear(ply);
        if self.tick() {
            return 0;
        }
        let pv_node = kind == NodeKind::Pv;
        if let Some(score) = rule_score(&self.pos, ply as i32, self.shared.params.rep_root_rule > 0) {
            return score;
        }
        if let Some(tables) = self.shared.tablebases.as_deref().filter(|_| ply > 0) {
            if let Some(score) = tablebase_hook::tree_score(tables, &self.pos, ply as i32) {
                return score;
            }
        }
        if ply >= PLY_LIMIT {
            return self.eval.evaluate(&self.pos);
        }

        // Every child (null move, ProbCut, each move) carries this line's double extensions.
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
        // The grandchildren's cutoffs are counted afresh under this node.
        self.stack[ply + 2].cutoffs = 0;

        // Step 2. Mate distance pruning: no line here can beat a mate already found nearer the root.
        let features = self.shared.features;
        if features.mate_distance_pruning {
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. Check extension, and quiescence at the horizon.
        let legality = movegen::LegalityFilter::new(&self.pos);
        let in_check = legality.in_check();
        if in_check && features.check_extension && depth >= self.shared.params.check_ext_depth {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, self.horizon_checks());
        }
        self.seldepth = self.seldepth.max(ply as i32);

        // Step 4. The transposition table: a cut-off outside PV nodes, else the move to try first.
        // A singular-extension search of this node (one move left out) takes no cut-off: the
        // entry speaks for all moves.
        let excluded = self.stack[ply].excluded;
        let singular_search = excluded != Move::NONE;
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key, ply as i32);
        let hash_move = hit.map(|h| h.mv).unwrap_or(Move::NONE);
        // On a principal variation now, or when the table's entry was stored.
        let tt_pv = pv_node || hit.is_some_and(|h| h.pv);
        if let Some(h) = hit {
            if !pv_node && !singular_search && h.depth >= depth && h.cuts(alpha, beta) {
                if self.shared.params.tt_cut_bonus > 0 && h.score >= beta {
                    self.reward_table_cut(h.mv, depth, ply);
                }
                return h.score;
            }
        }

        // Step 4b. Internal iterative reduction: with no move from the table, this node's
        // ordering is a guess, so it is searched a ply shallower (and its entry then speaks for
        // the next visit).
        let params = &self.shared.params;
        // (From depth 2 at least: a node reduced to depth 0 would skip its own quiescence.)
        if params.iir_depth > 0
            && depth >= params.iir_depth.max(2)
            && hash_move == Move::NONE
            && !singular_search
        {
            depth -= 1;
        }

        // Step 5. The static evaluation (the table's when it has one), corrected by what earlier
        // searches of these pawns found, and whether it improved on the one two plies before.
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.eval.evaluate(&self.pos)
        };
        let correction_slot = if in_check { None } else { self.correction.slot_if_enabled(&self.pos) };
        let static_eval = if in_check {
            raw_eval
        } else {
            self.damped(self.correction.corrected_at(correction_slot, raw_eval))
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && self.stack.improving(ply);

        if !pv_node && !in_check && !singular_search && beta.abs() < MATE_BOUND {
            // Step 5b. Razoring: so far below alpha that only a capture could help; if
            // quiescence finds none that does, fail low at once.
            if depth <= params.razor_depth
                && !improving
                && static_eval < alpha - params.razor_base - params.razor_margin * depth * depth
            {
                let score = self.quiesce(alpha - 1, alpha, ply, self.horizon_checks());
                if self.stopped {
                    return 0;
                }
                if score < alpha {
                    return score;
                }
            }

            // Step 6. Reverse futility: far above beta with little depth left.
            if features.reverse_futility
                && depth <= params.rfp_depth
                && static_eval - params.rfp_margin * (depth - improving as i32) >= beta
            {
                return static_eval;
            }

            // Step 7. Null move: give the opponent a free move; if we still beat beta, cut.
            let pieces = self.big_pieces(self.pos.side_to_move());
            if features.null_move
                && allow_null
                && depth >= params.null_depth
                && static_eval >= beta
                && pieces > 0
            {
                let r = params.null_reduction
                    + depth / params.null_depth_div
                    + ((static_eval - beta) / params.null_eval_div).min(params.null_eval_plies);
                self.stack[ply].cont_row = NO_CONTINUATION;
                self.stack[ply].move_number = 0;
                self.eval.make_null_move(&mut self.pos);
                let score = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, kind.opposite(), false);
                self.eval.unmake_null_move(&mut self.pos);
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if pieces > params.null_verify_pieces && depth < params.null_verify_depth {
                        return score;
                    }
                    // Zugzwang is real in xiangqi endgames, and deep cuts cost the most when
                    // wrong: verify with a reduced normal search.
                    let v = self.search(beta - 1, beta, depth - r, ply, NodeKind::All, false);
                    if v >= beta {
                        return score;
                    }
                }
            }
        }

        // Step 7a. ProbCut: a good capture whose reduced search beats beta by a margin very
        // likely beats beta at full depth too. The small form in check trusts the table alone:
        // its capture already held a lower bound well above beta from nearly this depth.
        if !pv_node && !singular_search && beta.abs() < MATE_BOUND {
            if !in_check && params.probcut_depth > 0 && depth >= params.probcut_depth.max(5) {
                let probcut_beta = beta + params.probcut_margin;
                let table_says_no = hit.is_some_and(|h| h.depth >= depth - 3 && h.score < probcut_beta);
                if !table_says_no {
                    if let Some(score) =
                        self.probcut(probcut_beta, depth, ply, &legality, (static_eval, raw_eval))
                    {
                        return score;
                    }
                    if self.stopped {
                        return 0;
                    }
                }
            }
            if in_check && params.probcut_check_margin > 0 {
                let probcut_beta = beta + params.probcut_check_margin;
                let table_cuts = hit.is_some_and(|h| {
                    h.bound == Bound::Lower
                        && h.depth >= depth - 4
                        && h.score >= probcut_beta
                        && h.score.abs() < MATE_BOUND
                        && self.pos.piece_at(h.mv.to()).is_piece()
                });
                if table_cuts {
                    return probcut_beta;
                }
            }
        }

        // Step 7b. Singular extension: when every move but the table's fails well below the
        // table's score, that move is the only good one and is searched a ply deeper; when
        // another move also beats beta, the node cuts (several moves refute it); when the
        // table's score alone beats beta, the table's move is searched a ply shallower (its
        // alternatives held up too, so it is less likely the only answer).
        let mut hash_move_extension = 0;
        let singular_candidate = hit.filter(|h| {
            params.se_depth > 0
                && depth >= params.se_depth
                && !singular_search
                && h.mv != Move::NONE
                && h.depth >= depth - 3
                && h.bound != Bound::Upper
                && h.score.abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth
        });
        if let Some(h) = singular_candidate {
            let singular_beta = h.score - params.se_margin * depth;
            self.stack[ply].excluded = h.mv;
            let v =
                self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, kind.singular(), false);
            self.stack[ply].excluded = Move::NONE;
            if self.stopped {
                return 0;
            }
            if v < singular_beta {
                let double = params.se_double_margin > 0
                    && !pv_node
                    && v < singular_beta - params.se_double_margin
                    && i32::from(self.stack[ply].double_extensions) < params.se_double_limit;
                hash_move_extension = 1 + double as i32;
            } else if !pv_node && singular_beta >= beta {
                return singular_beta;
            } else if params.se_negative > 0 && h.score >= beta {
                hash_move_extension = -params.se_negative;
            }
        }

        // Step 8. Generate and order the moves.
        let conts = self.conts(ply);
        let killers = self.stack[ply].killers;
        let capture_history = params.capture_history_div;
        let mut moves = MovePicker::new(
            &mut self.pos,
            hash_move,
            &mut self.tables,
            (killers, conts),
            capture_history,
            params.staged_picker > 0,
        );

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut legal = 0;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let tt_capture = hash_move != Move::NONE && self.pos.piece_at(hash_move.to()).is_piece();

        // Step 9. The move loop.
        while let Some((mv, order_score)) = moves.next(&mut self.pos, &mut self.tables) {
            if mv == excluded || !legality.is_legal(&mut self.pos, mv) {
                continue;
            }
            self.shared.tt.prefetch(self.pos.key_after(mv));
            legal += 1;
            let capture = self.pos.piece_at(mv.to()).is_piece();
            let may_prune = !pv_node && !in_check && legal > 1 && best_score > -MATE_BOUND;
            let may_reduce = features.late_move_reductions
                && depth >= params.lmr_depth
                && legal > params.lmr_moves + pv_node as i32;
            // Whether a quiet move checks only matters where it could be pruned or reduced.
            let prunable_or_reducible = !capture && (may_prune || may_reduce);
            let checks = prunable_or_reducible && self.pos.gives_check(mv);
            let quiet = prunable_or_reducible && !checks;
            let reducible = may_reduce
                && if capture {
                    params.lmr_captures > 0 && order_score <= LOSING_CAPTURE_MAX
                } else {
                    !checks || params.lmr_checks > 0
                };

            // Step 10. Late move pruning and futility pruning of quiet moves near the leaves.
            if may_prune && quiet {
                let lmp_scale = if improving { params.lmp_scale_improving } else { params.lmp_scale };
                if features.late_move_pruning
                    && depth <= params.lmp_depth
                    && quiets_tried.len() as i32 * 100
                        >= (params.lmp_base + depth * depth * (1 + improving as i32)) * lmp_scale
                {
                    continue;
                }
                // Futility: judged at the depth the move's reduced search would have
                // (`futility_lmr`), or at the node's.
                let futility_depth = if params.futility_lmr > 0 {
                    (depth - 1 - self.shared.reduction(depth, legal)).max(0)
                } else {
                    depth
                };
                if features.futility
                    && futility_depth <= params.futility_depth
                    && static_eval + params.futility_base + params.futility_margin * futility_depth <= alpha
                {
                    continue;
                }
                // History pruning: a quiet move that has failed here again and again (its
                // history, the order score below the refutations, is deep below zero).
                if depth <= params.hist_prune_depth && order_score < -params.hist_prune_margin * depth {
                    continue;
                }
            }

            // Step 10a. Futility pruning of captures: even winning the victim leaves the
            // static evaluation far below alpha at the reduced depth (checks are kept).
            if may_prune && capture && params.capture_futility > 0 {
                let futility_depth = (depth - 1 - self.shared.reduction(depth, legal)).max(0);
                if futility_depth <= params.futility_depth
                    && static_eval
                        + params.futility_base
                        + value_on(&self.pos, mv.to())
                        + params.capture_futility * futility_depth
                        <= alpha
                    && !self.pos.gives_check(mv)
                {
                    continue;
                }
            }

            // Step 10b. Static-exchange pruning: near the leaves, a move that loses material on
            // its square (a capture by more than a margin a ply, a quiet move by more than one a
            // ply squared) is left out.
            if may_prune && depth <= params.see_prune_depth && (capture || quiet) {
                let threshold = if capture {
                    -params.see_capture_margin * depth
                } else {
                    -params.see_quiet_margin * depth * depth
                };
                let cheap = capture && value_on(&self.pos, mv.to()) >= value_on(&self.pos, mv.from());
                if !cheap && see(&mut self.pos, mv) < threshold {
                    continue;
                }
            }

            // Step 11. Search the move: the first with the full window, the others with a null
            // window, reduced when quiet and late, and searched again when they beat alpha.
            self.stack[ply].cont_row = piece_square(&self.pos, mv);
            self.stack[ply].move_number = legal.min(255) as u8;
            self.eval.make_move(&mut self.pos, mv);
            let extension = if mv == hash_move { hash_move_extension } else { 0 };
            let new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + (extension == 2) as u8;
            let score = if legal == 1 {
                -self.search(-beta, -alpha, new_depth, ply + 1, kind.first_child(), true)
            } else {
                let mut r = 0;
                if reducible {
                    // Whole plies, and with `lmr_stat` the formula's fraction and the history's
                    // share in 1,024ths, rounded down once at the end.
                    let fine = params.lmr_stat > 0;
                    let table = self.shared.reduction_fine(depth, legal);
                    let mut plies = table / PLY_FRACTION;
                    let mut fraction = if fine { table % PLY_FRACTION } else { 0 };
                    plies -= pv_node as i32;
                    plies += !improving as i32;
                    plies += params.lmr_tt_capture * tt_capture as i32;
                    // (A losing capture's order score says nothing of its history.)
                    if !capture && order_score >= REFUTATION {
                        plies -= 1;
                    } else if !capture && fine {
                        // A quiet move's order score is its history: reduce good ones less and
                        // bad ones more, in proportion.
                        fraction -= history_share(order_score, params.lmr_stat);
                    } else if !capture && params.lmr_history > 0 {
                        // A quiet move's order score is its history: reduce good ones less.
                        plies -= order_score / (params.lmr_history * HISTORY_PER_LMR_STEP);
                    }
                    // At an expected cut node one good move should refute it: if the first
                    // moves did not, a late one rarely will, so late moves go shallower still.
                    plies += params.lmr_cut * (kind == NodeKind::Cut) as i32;
                    // A node that was on a principal variation may be again: reduce less.
                    plies -= params.lmr_tt_pv * (tt_pv && !pv_node) as i32;
                    // This node answers a late move of its parent: look closer for the refutation.
                    plies -= (params.lmr_parent_moves > 0
                        && i32::from(self.stack[ply - 1].move_number) > params.lmr_parent_moves)
                        as i32;
                    // Children that failed high again and again: this node likely fails low.
                    plies += (params.lmr_cutoffs > 0
                        && i32::from(self.stack[ply + 1].cutoffs) > params.lmr_cutoffs)
                        as i32;
                    r = (plies + fraction.div_euclid(PLY_FRACTION)).clamp(0, new_depth - 1);
                }
                // A reduced search expects to fail low (its child, to fail high).
                let child = if r > 0 { NodeKind::Cut } else { kind.opposite() };
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, child, true);
                if s > alpha && r > 0 && !self.stopped {
                    // How far the reduced search beat alpha says how deep the full one goes.
                    let full_depth = if params.lmr_deeper > 0 {
                        new_depth + (s > alpha + params.lmr_deeper) as i32
                            - (s < best_score + new_depth) as i32
                    } else {
                        new_depth
                    };
                    if full_depth > new_depth - r {
                        s = -self.search(-alpha - 1, -alpha, full_depth, ply + 1, kind.opposite(), true);
                        if params.lmr_cont_bonus > 0 && !capture && !self.stopped {
                            let at = self.stack[ply].cont_row;
                            self.tables.reward_research(at, conts, full_depth, s > alpha);
                        }
                    }
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, NodeKind::Pv, true);
                }
                s
            };
            self.eval.unmake_move(&mut self.pos);
            if self.stopped {
                return 0;
            }
            if !capture {
                quiets_tried.push(mv);
            } else if capture_history > 0 {
                captures_tried.push(mv);
            }

            // Step 12. A new best move; a quiet one that cuts off becomes a killer and gains
            // history over the quiet moves tried before it; a capture that cuts off gains
            // capture history over the captures before it (which any cutoff punishes).
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.pv.update(ply, mv);
                    }
                    alpha = score;
                    if score >= beta {
                        self.stack[ply].cutoffs = self.stack[ply].cutoffs.saturating_add(1);
                        if !capture {
                            self.stack[ply].add_killer(mv);
                            let tried = &quiets_tried.as_slice()[..quiets_tried.len() - 1];
                            self.tables.reward_quiet(&self.pos, mv, tried, depth, conts);
                        }
                        if capture_history > 0 {
                            let cut_by = capture.then_some(mv);
                            self.tables.reward_capture(&self.pos, cut_by, captures_tried.as_slice(), depth);
                        }
                        break;
                    }
                }
            }
        }

        // Step 13. No legal move loses, in check or not; otherwise the result goes into the table.
        // A singular-extension search leaves the table and the correction alone, and with only
        // the left-out move legal, it fails low.
        if singular_search {
            return if legal == 0 { alpha } else { best_score };
        }
        if legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        if bound == Bound::Upper && ply > 0 && self.shared.params.prior_bonus > 0 {
            self.reward_prior_move(depth, ply);
        }
        if let Some(slot) = correction_slot {
            if best_move == Move::NONE || !self.pos.piece_at(best_move.to()).is_piece() {
                self.correction.learn(slot, raw_eval, static_eval, best_score, bound, depth);
            }
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.shared.tt.store(key, ply as i32, best_move, best_score, stored_eval, depth, bound, tt_pv);
        best_score
    }

    /// ProbCut's captures at a node of `depth`: the first capture that wins at least
    /// `probcut_beta - static_eval` by exchange, holds `probcut_beta` in quiescence, and then
    /// in a search four plies shallower gives its score (stored in the table as a lower bound,
    /// with the node's uncorrected evaluation `raw_eval`).
    fn probcut(
        &mut self,
        probcut_beta: i32,
        depth: i32,
        ply: usize,
        legality: &movegen::LegalityFilter,
        (static_eval, raw_eval): (i32, i32),
    ) -> Option<i32> {
        let mut list = MoveList::new();
        movegen::pseudo_captures(&self.pos, &mut list);
        let mut captures = ScoredMoves::captures(&self.pos, list);
        while let Some((mv, _)) = captures.next_move(&mut self.pos) {
            if see(&mut self.pos, mv) < probcut_beta - static_eval || !legality.is_legal(&mut self.pos, mv) {
                continue;
            }
            self.stack[ply].cont_row = piece_square(&self.pos, mv);
            self.stack[ply].move_number = 0;
            self.eval.make_move(&mut self.pos, mv);
            let mut score = -self.quiesce(-probcut_beta, -probcut_beta + 1, ply + 1, self.horizon_checks());
            if score >= probcut_beta && !self.stopped {
                score =
                    -self.search(-probcut_beta, -probcut_beta + 1, depth - 4, ply + 1, NodeKind::All, true);
            }
            self.eval.unmake_move(&mut self.pos);
            if self.stopped {
                return None;
            }
            if score >= probcut_beta {
                self.shared.tt.store(
                    self.pos.key(),
                    ply as i32,
                    mv,
                    score,
                    raw_eval,
                    depth - 3,
                    Bound::Lower,
                    false,
                );
                return Some(score);
            }
        }
        None
    }

    /// A cut-off from the table at `ply` with its move `mv`: a quiet one is rewarded as if it
    /// had been searched and cut at `depth` (a move from another position that shares the key
    /// is left alone when it is not a quiet move of the side to move here).
    fn reward_table_cut(&mut self, mv: Move, depth: i32, ply: usize) {
        if !movegen::is_pseudo_legal(&self.pos, mv) || self.pos.piece_at(mv.to()).is_piece() {
            return;
        }
        let conts = self.conts(ply);
        self.stack[ply].add_killer(mv);
        self.tables.reward_quiet(&self.pos, mv, &[], depth, conts);
    }

    /// A node at `ply` failed low at `depth`: the parent's move refuted every reply, so a quiet
    /// one gains history for its side (`prior_bonus`). Null moves and captures (ProbCut's
    /// among them) are passed over.
    fn reward_prior_move(&mut self, depth: i32, ply: usize) {
        let Some(&last) = self.pos.history().last() else {
            return;
        };
        if last.mv == Move::NONE || last.captured.is_piece() {
            return;
        }
        let to = last.mv.to();
        let conts = self.conts(ply - 1);
        let sixteenths = self.shared.params.prior_bonus;
        self.tables.reward_prior((self.pos.piece_at(to), to), conts, depth, sixteenths);
    }

    /// The continuation rows of the node at `ply` (the fourth ply's with `cont_fourth`).
    #[inline]
    fn conts(&self, ply: usize) -> Conts {
        self.stack.conts(ply, self.shared.params.cont_fourth > 0)
    }

    /// A static evaluation damped toward a draw as the move rule nears: times (N − h) / N for
    /// h plies since the last capture and N = `rule_damping` (0 leaves it), as Stockfish and
    /// Pikafish damp theirs, so that a side ahead prefers the line that makes progress.
    #[inline]
    fn damped(&self, eval: i32) -> i32 {
        let n = self.shared.params.rule_damping;
        if n == 0 {
            return eval;
        }
        let plies = self.pos.halfmove_clock().min(n as u32) as i32;
        eval * (n - plies) / n
    }

    /// Rooks, horses and cannons of `side`, rooks counting two (for null-move safety).
    fn big_pieces(&self, side: crate::board::Color) -> i32 {
        2 * self.pos.count(side, PieceKind::Rook) as i32
            + self.pos.count(side, PieceKind::Horse) as i32
            + self.pos.count(side, PieceKind::Cannon) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_share_is_a_ply_per_step_either_way_and_bounded() {
        assert_eq!(history_share(4000, 4000), PLY_FRACTION);
        assert_eq!(history_share(-2000, 4000), -PLY_FRACTION / 2);
        assert_eq!(history_share(0, 4000), 0);
        // The largest scores do not overflow: they are held to 64 plies.
        assert_eq!(history_share(i32::MAX, 1), 64 * PLY_FRACTION);
        assert_eq!(history_share(i32::MIN, 1), -64 * PLY_FRACTION);
        assert_eq!(history_share(1000, 0), 64 * PLY_FRACTION, "a zero step counts as one point");
    }
}
