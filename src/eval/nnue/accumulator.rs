//! The accumulators of the current search line, one pair per ply, kept up to date lazily.
//!
//! Making a move only records what changed (the piece that moved, the piece it took) and each
//! side's frame after it; nothing is computed. When a node is evaluated, each perspective walks
//! back to the nearest ply whose accumulator is computed and replays the changes forward (one
//! column added and one or two taken away per move), unless one of those moves changed that
//! perspective's frame (its king moved to another bucket or across the centre file with
//! mirroring): then it is rebuilt from the current board, starting from the last accumulator
//! rebuilt in the same frame (`refresh_cache`). Taking a move back is just a pop.
//!
//! A net with relation inputs also keeps the relation list of every ply whose accumulators are
//! computed. Relations are not replayed move by move: after the pieces' changes are replayed,
//! the difference between the base ply's relations and the current ones is applied to the top
//! ply alone (the plies in between are left uncomputed, since their relation part is stale).

use std::sync::Arc;

use super::features::relations::{Delta, Relation, Relations, MAX_RELATIONS};
use super::features::{self, Frame};
use super::network::Network;
use super::refresh_cache::RefreshCache;
use super::simd;
use crate::board::{Color, Move, PieceKind, Position, Square};

/// Scores are clamped to this, well inside the search's rule-win and mate ranges.
pub const SCORE_LIMIT: i32 = 10_000;

/// Plies the stack holds before it grows (the search's deepest line and a margin).
const INITIAL_PLIES: usize = 136;

/// What a move changed on the board, in the terms the features need.
#[derive(Copy, Clone, Debug)]
enum Change {
    /// Nothing (the root, or a null move).
    None,
    /// `color`'s `kind` went from `from` to `to`, taking `captured` there if any.
    Move { color: Color, kind: PieceKind, from: Square, to: Square, captured: Option<(Color, PieceKind)> },
}

/// One ply of the line.
#[derive(Copy, Clone, Debug)]
struct Ply {
    /// The move that led here from the ply below.
    change: Change,
    /// Each perspective's frame here (by colour index).
    frames: [Frame; 2],
    /// Whether the move changed that perspective's frame (its accumulator must be rebuilt).
    refresh: [bool; 2],
    /// Whether that perspective's accumulator holds this ply's values.
    computed: [bool; 2],
    /// Pieces other than the kings (for the output bucket).
    non_kings: u8,
    /// Whether this ply's relation list is computed (nets with relation inputs).
    relations_known: bool,
}

/// A stack of accumulator pairs by ply, for one search thread and one net.
pub struct AccumulatorStack {
    net: Arc<Network>,
    width: usize,
    /// Ply `p`, perspective `c`: `values[(2 * p + c) * width..][..width]`.
    values: Vec<i16>,
    plies: Vec<Ply>,
    top: usize,
    /// Each frame's last refreshed accumulator, so that a refresh costs a difference.
    cache: RefreshCache,
    /// Whether the net has relation inputs.
    has_relations: bool,
    /// Ply `p`'s relations, where `plies[p].relations_known` (empty unless `has_relations`).
    relation_lists: Vec<Relations>,
    /// Room for a relation difference, and the inputs it adds and takes away (kept to spare
    /// the allocation and the zeroing on every update).
    changes: Vec<(Relation, Delta)>,
    added: Vec<u32>,
    removed: Vec<u32>,
}

impl AccumulatorStack {
    /// A stack for `net` whose root is `pos`.
    pub fn new(net: Arc<Network>, pos: &Position) -> AccumulatorStack {
        let width = net.arch().width;
        let root = Self::root_ply(&net, pos);
        let cache = RefreshCache::new(&net);
        let has_relations = net.arch().features.relations;
        let mut stack = AccumulatorStack {
            net,
            width,
            values: vec![0; INITIAL_PLIES * 2 * width],
            plies: vec![root; INITIAL_PLIES],
            top: 0,
            cache,
            has_relations,
            relation_lists: if has_relations { vec![Relations::EMPTY; INITIAL_PLIES] } else { Vec::new() },
            changes: Vec::with_capacity(2 * MAX_RELATIONS),
            added: Vec::with_capacity(MAX_RELATIONS),
            removed: Vec::with_capacity(MAX_RELATIONS),
        };
        for color in Color::BOTH {
            stack.refresh(color, pos);
        }
        stack
    }

    /// The stack rooted at `pos` again, for another search: the buffers and the refresh cache
    /// stay (the cache holds accumulators of this net, good for any position), so this costs two
    /// refreshes, not an allocation.
    pub fn reset(&mut self, pos: &Position) {
        self.plies[0] = Self::root_ply(&self.net, pos);
        self.top = 0;
        for color in Color::BOTH {
            self.refresh(color, pos);
        }
    }

    /// The net this stack evaluates with.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn root_ply(net: &Network, pos: &Position) -> Ply {
        Ply {
            change: Change::None,
            frames: Self::frames_of(net, pos),
            refresh: [false; 2],
            computed: [false; 2],
            non_kings: features::non_king_pieces(pos) as u8,
            relations_known: false,
        }
    }

    fn frames_of(net: &Network, pos: &Position) -> [Frame; 2] {
        Color::BOTH.map(|c| net.arch().features.frame(c, pos.king_square(c)))
    }

    fn push(&mut self, ply: Ply) {
        self.top += 1;
        if self.top == self.plies.len() {
            self.plies.push(ply);
            self.values.resize(self.plies.len() * 2 * self.width, 0);
            if self.has_relations {
                self.relation_lists.push(Relations::EMPTY);
            }
        } else {
            self.plies[self.top] = ply;
        }
    }

    /// Records `mv`, about to be played on `pos` (call before `pos.make_move(mv)`).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.piece_at(from);
        let target = pos.piece_at(to);
        let captured = target.is_piece().then(|| (target.color(), target.kind()));
        let (color, kind) = (piece.color(), piece.kind());
        let below = self.plies[self.top];
        let mut frames = below.frames;
        let mut refresh = [false; 2];
        if kind == PieceKind::King {
            let frame = self.net.arch().features.frame(color, to);
            refresh[color.index()] = frame != frames[color.index()];
            frames[color.index()] = frame;
        }
        self.push(Ply {
            change: Change::Move { color, kind, from, to, captured },
            frames,
            refresh,
            computed: [false; 2],
            non_kings: below.non_kings.saturating_sub(captured.is_some() as u8),
            relations_known: false,
        });
    }

    /// Records a null move (nothing changes but the side to move).
    #[inline]
    pub fn push_null(&mut self) {
        let below = self.plies[self.top];
        self.push(Ply {
            change: Change::None,
            refresh: [false; 2],
            computed: [false; 2],
            relations_known: false,
            ..below
        });
    }

    /// Forgets the last move or null move.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// The score of `pos` (the position after every recorded move) in centipawns, from the side
    /// to move's view, within ±`SCORE_LIMIT`.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.update(pos);
        let w = self.width;
        let us = pos.side_to_move().index();
        let base = 2 * self.top * w;
        let pair = &self.values[base..base + 2 * w];
        let (us, them) = (&pair[us * w..(us + 1) * w], &pair[(1 - us) * w..(2 - us) * w]);
        let bucket =
            features::output_bucket(self.plies[self.top].non_kings as usize, self.net.arch().output_buckets);
        self.net.output(us, them, bucket).clamp(-SCORE_LIMIT, SCORE_LIMIT)
    }

    /// Brings both accumulators of the top ply up to date with `pos`.
    pub fn update(&mut self, pos: &Position) {
        let mut replayed_from = [None; 2];
        for color in Color::BOTH {
            let c = color.index();
            if self.plies[self.top].computed[c] {
                continue;
            }
            let mut base = self.top;
            loop {
                if self.plies[base].refresh[c] {
                    self.refresh(color, pos);
                    break;
                }
                base -= 1;
                if self.plies[base].computed[c] {
                    for ply in base + 1..=self.top {
                        self.apply(ply, color);
                    }
                    replayed_from[c] = Some(base);
                    break;
                }
            }
        }
        if self.has_relations && replayed_from != [None; 2] {
            self.apply_relations(replayed_from, pos);
        }
    }

    /// The top ply's accumulator of `color`, as last computed (for tests).
    #[cfg(test)]
    fn top_values(&self, color: Color) -> &[i16] {
        let at = (2 * self.top + color.index()) * self.width;
        &self.values[at..at + self.width]
    }

    /// Rebuilds `color`'s accumulator at the top ply from the board.
    fn refresh(&mut self, color: Color, pos: &Position) {
        let at = (2 * self.top + color.index()) * self.width;
        let frame = self.plies[self.top].frames[color.index()];
        let acc = &mut self.values[at..at + self.width];
        self.cache.refresh(&self.net, color, frame, pos, acc);
        if self.has_relations {
            let top = self.top;
            self.know_top_relations(pos);
            let acc = &mut self.values[at..at + self.width];
            for r in self.relation_lists[top].iter() {
                simd::add_assign(acc, self.net.column(frame.relation_index(r)));
            }
        }
        self.plies[self.top].computed[color.index()] = true;
    }

    /// Computes the top ply's relation table from `pos`, unless it is already known.
    fn know_top_relations(&mut self, pos: &Position) {
        if !self.plies[self.top].relations_known {
            self.relation_lists[self.top].set_to(pos);
            self.plies[self.top].relations_known = true;
        }
    }

    /// After the pieces' changes were replayed from ply `bases[c]` to the top for the colours
    /// that have one: brings the top's relation part from that ply's relations to `pos`'s, and
    /// marks the plies in between uncomputed for that colour (their relation part is the base's).
    /// Both colours usually replay from the same ply: the tables are compared once.
    fn apply_relations(&mut self, bases: [Option<usize>; 2], pos: &Position) {
        let top = self.top;
        self.know_top_relations(pos);
        let mut compared = None;
        for color in Color::BOTH {
            let Some(base) = bases[color.index()] else { continue };
            if compared != Some(base) {
                let changes = &mut self.changes;
                changes.clear();
                self.relation_lists[base]
                    .diff(&self.relation_lists[top], |r, delta| changes.push((r, delta)));
                compared = Some(base);
            }
            let frame = self.plies[top].frames[color.index()];
            let (added, removed) = (&mut self.added, &mut self.removed);
            added.clear();
            removed.clear();
            for &(r, delta) in &self.changes {
                let feature = frame.relation_index(r) as u32;
                match delta {
                    Delta::Removed => removed.push(feature),
                    Delta::Added => added.push(feature),
                }
            }
            let at = (2 * top + color.index()) * self.width;
            simd::add_sub_rows(
                &mut self.values[at..at + self.width],
                self.net.feature_weights(),
                added,
                removed,
            );
            for ply in base + 1..top {
                self.plies[ply].computed[color.index()] = false;
            }
        }
    }

    /// Computes `color`'s accumulator at `ply` from the one below and the move between them.
    #[inline]
    fn apply(&mut self, ply: usize, color: Color) {
        let w = self.width;
        let (below, here) = self.values.split_at_mut((2 * ply + color.index()) * w);
        let src = &below[(2 * (ply - 1) + color.index()) * w..][..w];
        let dst = &mut here[..w];
        let p = self.plies[ply];
        match p.change {
            Change::None => dst.copy_from_slice(src),
            Change::Move { color: mover, kind, from, to, captured } => {
                let frame = p.frames[color.index()];
                let net = &self.net;
                let add = net.column(frame.index(mover, kind, to));
                let sub = net.column(frame.index(mover, kind, from));
                match captured {
                    None => simd::copy_add_sub(dst, src, add, sub),
                    Some((c, k)) => {
                        simd::copy_add_sub_sub(dst, src, add, sub, net.column(frame.index(c, k, to)))
                    }
                }
            }
        }
        self.plies[ply].computed[color.index()] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;
    use crate::eval::nnue::architecture::Architecture;
    use crate::eval::nnue::features::{FeatureSet, KingBuckets};
    use rand::{Rng, SeedableRng};

    fn net(king_buckets: KingBuckets, mirror: bool) -> Arc<Network> {
        net_with(FeatureSet { king_buckets, mirror, relations: false })
    }

    fn net_with(features: FeatureSet) -> Arc<Network> {
        let arch = Architecture { features, width: 32, ..Architecture::DEFAULT };
        Arc::new(Network::random(arch, 17).unwrap())
    }

    /// Checks the top ply against a fresh stack built on `pos`: both accumulators and the score.
    fn assert_fresh(stack: &mut AccumulatorStack, pos: &Position) {
        let score = stack.evaluate(pos);
        let fresh = AccumulatorStack::new(stack.net.clone(), pos);
        for color in Color::BOTH {
            assert_eq!(stack.top_values(color), fresh.top_values(color), "{color:?} at {pos:?}");
        }
        assert_eq!(score, stack.net.evaluate(pos).clamp(-SCORE_LIMIT, SCORE_LIMIT), "{pos:?}");
    }

    /// Random walks of moves, null moves and take-backs, evaluating at random moments (so that
    /// several plies are often replayed at once) and comparing with a full refresh each time.
    #[test]
    fn incremental_equals_refresh_along_random_lines() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        for (buckets, mirror, relations) in [
            (KingBuckets::Palace, true, false),
            (KingBuckets::Palace, false, false),
            (KingBuckets::Single, true, false),
            (KingBuckets::Rank, false, false),
            (KingBuckets::Single, true, true),
            (KingBuckets::Palace, true, true),
        ] {
            let net = net_with(FeatureSet { king_buckets: buckets, mirror, relations });
            // Endgames too, so that king moves (and bucket and mirror changes) are common.
            let mut refreshes = 0;
            for fen in [
                crate::board::START_FEN,
                "3k5/4a4/4b4/9/2p6/6P2/9/4B4/4A4/2R1K1N2 w - - 0 1",
                "3k5/4a4/9/9/9/9/9/9/4A4/5K3 w - - 0 1",
            ] {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut stack = AccumulatorStack::new(net.clone(), &pos);
                let mut line: Vec<Option<Move>> = Vec::new();
                for _ in 0..400 {
                    let moves = movegen::legal_moves(&mut pos);
                    let back = !line.is_empty() && (moves.is_empty() || line.len() > 30 || rng.gen_bool(0.3));
                    if back {
                        match line.pop().unwrap() {
                            Some(_) => pos.unmake_move(),
                            None => pos.unmake_null_move(),
                        }
                        stack.pop();
                    } else if rng.gen_bool(0.05) && !pos.is_check() {
                        stack.push_null();
                        pos.make_null_move();
                        line.push(None);
                    } else {
                        let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                        stack.push_move(&pos, mv);
                        refreshes += stack.plies[stack.top].refresh.iter().filter(|&&r| r).count();
                        pos.make_move(mv);
                        line.push(Some(mv));
                    }
                    if rng.gen_bool(0.4) {
                        assert_fresh(&mut stack, &pos);
                    }
                }
            }
            if buckets != KingBuckets::Single || mirror {
                assert!(refreshes > 10, "{buckets:?} {mirror}: the walks must cross frames ({refreshes})");
            }
        }
    }

    #[test]
    fn a_king_move_refreshes_only_its_own_side() {
        let net = net(KingBuckets::Palace, true);
        let mut pos = Position::from_fen("5k3/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(net, &pos);
        let mv = Move::parse_iccs("d0e0").unwrap();
        stack.push_move(&pos, mv);
        pos.make_move(mv);
        assert_eq!(stack.plies[1].refresh, [true, false]);
        assert_fresh(&mut stack, &pos);
        // Black's king from f9 (mirrored: d9) to e9 changes Black's frame; Red's rook move does not.
        for text in ["f9e9", "a0a5"] {
            let mv = Move::parse_iccs(text).unwrap();
            stack.push_move(&pos, mv);
            pos.make_move(mv);
        }
        assert_eq!(stack.plies[2].refresh, [false, true]);
        assert_eq!(stack.plies[3].refresh, [false, false]);
        assert_fresh(&mut stack, &pos);
        for _ in 0..3 {
            stack.pop();
            pos.unmake_move();
        }
        assert_fresh(&mut stack, &pos);
    }

    /// A stack reset in the middle of a line (as a search thread's, kept for the next search)
    /// is a fresh stack at the new root, and follows moves from there as one.
    #[test]
    fn a_reset_stack_is_a_new_stack_at_its_new_root() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(22);
        for (buckets, relations) in [(KingBuckets::Palace, false), (KingBuckets::Single, true)] {
            let net = net_with(FeatureSet { king_buckets: buckets, mirror: true, relations });
            let mut pos = Position::startpos();
            let mut stack = AccumulatorStack::new(net.clone(), &pos);
            for search in 0..12 {
                // A search: a line down from the root, evaluated at its end, left where it stops.
                for _ in 0..rng.gen_range(1..40) {
                    let moves = movegen::legal_moves(&mut pos);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                    stack.push_move(&pos, mv);
                    pos.make_move(mv);
                }
                stack.evaluate(&pos);
                // The next search's root: a position of its own, whatever the stack was showing.
                let mut root = Position::startpos();
                for _ in 0..(search * 7) % 50 {
                    let moves = movegen::legal_moves(&mut root);
                    if moves.is_empty() {
                        break;
                    }
                    root.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
                }
                stack.reset(&root);
                assert_eq!(stack.top, 0);
                assert_fresh(&mut stack, &root);
                pos = root;
            }
        }
    }

    #[test]
    fn the_stack_grows_past_its_first_size() {
        let net = net(KingBuckets::Single, false);
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(net, &pos);
        let shuffle = ["g0g1", "d9d8", "g1g0", "d8d9"];
        for i in 0..INITIAL_PLIES + 20 {
            let mv = Move::parse_iccs(shuffle[i % 4]).unwrap();
            stack.push_move(&pos, mv);
            pos.make_move(mv);
        }
        assert_fresh(&mut stack, &pos);
    }
}
