//! Quiescence: the search below the horizon, captures (winning or even by exchange) until the
//! position is quiet, every evasion when in check, and with `qs_checks` the quiet checks of the
//! horizon's first ply (as Pikafish's `DEPTH_QS_CHECKS`: in xiangqi a cannon or horse check
//! often wins at once, and a quiet position with a check in hand is not quiet).

use crate::board::{movegen, Move, MoveList};

use super::super::history::NO_CONTINUATION;
use super::super::ordering::ScoredMoves;
use super::super::score::{DRAW, INFINITE, MATE};
use super::super::see::{see_non_negative, value_on};
use super::super::tt::Bound;
use super::{Worker, PLY_LIMIT};

/// Whether a quiescence node also tries the quiet moves that give check (only the first ply
/// below the horizon does, when `qs_checks` is on: a check answered by an evasion then meets
/// quiescence without them, so the line cannot check on forever).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum QuietChecks {
    Tried,
    Skipped,
}

/// The best score and move of a quiescence node so far, and its window's lower edge.
struct Best {
    score: i32,
    mv: Move,
    alpha: i32,
}

impl Best {
    /// Takes `score` of `mv`; whether it raised alpha.
    fn take(&mut self, mv: Move, score: i32) -> bool {
        if score <= self.score {
            return false;
        }
        self.score = score;
        if score <= self.alpha {
            return false;
        }
        self.alpha = score;
        self.mv = mv;
        true
    }
}

impl Worker<'_> {
    /// Whether the quiescence the main search calls at its horizon tries quiet checks.
    pub(super) fn horizon_checks(&self) -> QuietChecks {
        if self.shared.params.qs_checks > 0 {
            QuietChecks::Tried
        } else {
            QuietChecks::Skipped
        }
    }

    /// Quiescence: captures (winning or even by SEE) until quiet; all evasions when in check;
    /// with `checks`, also the quiet checks that lose nothing by exchange.
    pub fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize, checks: QuietChecks) -> i32 {
        self.pv.clear(ply);
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as i32);
        if ply >= PLY_LIMIT {
            return self.eval.evaluate(&self.pos);
        }
        let legality = movegen::LegalityFilter::new(&self.pos);
        let in_check = legality.in_check();
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key, ply as i32);
        // Quiescence keeps the flag of the entry it finds (its nodes are never PV by kind).
        let tt_pv = hit.is_some_and(|h| h.pv);
        if let Some(h) = hit.filter(|h| h.cuts(alpha, beta)) {
            return h.score;
        }
        let original_alpha = alpha;
        let mut best = Best { score: -INFINITE, mv: Move::NONE, alpha };
        let (stand_pat, raw_eval);
        let mut list = MoveList::new();
        if in_check {
            (stand_pat, raw_eval) = (-INFINITE, 0);
            movegen::pseudo_moves(&self.pos, &mut list);
        } else {
            raw_eval = hit.map(|h| h.eval).unwrap_or_else(|| self.eval.evaluate(&self.pos));
            stand_pat = self
                .damped(self.correction.corrected_at(self.correction.slot_if_enabled(&self.pos), raw_eval));
            if stand_pat >= beta {
                if hit.is_none() {
                    self.shared.tt.store(
                        key,
                        ply as i32,
                        Move::NONE,
                        stand_pat,
                        raw_eval,
                        0,
                        Bound::Lower,
                        tt_pv,
                    );
                }
                return stand_pat;
            }
            best.alpha = best.alpha.max(stand_pat);
            best.score = stand_pat;
            movegen::pseudo_captures(&self.pos, &mut list);
        }
        let mut moves = if in_check {
            let (killers, no_conts) = (self.stack[ply].killers, [NO_CONTINUATION; 3]);
            let capture_history = self.shared.params.capture_history_div;
            ScoredMoves::new(
                &mut self.pos,
                list,
                Move::NONE,
                &mut self.tables,
                killers,
                no_conts,
                capture_history,
            )
        } else {
            ScoredMoves::captures(&self.pos, list)
        };
        let mut legal = 0;
        let mut cut = false;
        while let Some((mv, _)) = moves.next_move(&mut self.pos) {
            if !in_check && self.shared.features.quiescence_pruning {
                // Delta pruning: even winning this piece cannot lift us to alpha.
                if stand_pat + value_on(&self.pos, mv.to()) + self.shared.params.delta_margin <= best.alpha {
                    continue;
                }
                if !see_non_negative(&mut self.pos, mv) {
                    continue;
                }
            }
            if !legality.is_legal(&mut self.pos, mv) {
                continue;
            }
            legal += 1;
            let cuts = self.quiesce_move(mv, &mut best, beta, ply);
            if self.stopped {
                return 0;
            }
            if cuts {
                cut = true;
                break;
            }
        }
        if checks == QuietChecks::Tried && !in_check && !cut {
            let mut all = MoveList::new();
            movegen::pseudo_moves(&self.pos, &mut all);
            for &mv in all.as_slice() {
                if self.pos.piece_at(mv.to()).is_piece()
                    || !self.pos.gives_check(mv)
                    || !see_non_negative(&mut self.pos, mv)
                    || !legality.is_legal(&mut self.pos, mv)
                {
                    continue;
                }
                let cuts = self.quiesce_move(mv, &mut best, beta, ply);
                if self.stopped {
                    return 0;
                }
                if cuts {
                    break;
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        if best.score == -INFINITE {
            best.score = DRAW;
        }
        let bound = Bound::of(best.score, original_alpha, beta);
        self.shared.tt.store(key, ply as i32, best.mv, best.score, raw_eval, 0, bound, tt_pv);
        best.score
    }

    /// Searches legal `mv` at a quiescence node of window (`best.alpha`, `beta`) by its
    /// child's quiescence, without quiet checks, and takes its score into `best` (and the PV
    /// when it raised alpha): whether it cut the node off. After a stop it takes nothing.
    fn quiesce_move(&mut self, mv: Move, best: &mut Best, beta: i32, ply: usize) -> bool {
        self.shared.tt.prefetch(self.pos.key_after(mv));
        self.eval.make_move(&mut self.pos, mv);
        let score = -self.quiesce(-beta, -best.alpha, ply + 1, QuietChecks::Skipped);
        self.eval.unmake_move(&mut self.pos);
        if self.stopped || !best.take(mv, score) {
            return false;
        }
        self.pv.update(ply, mv);
        score >= beta
    }
}
