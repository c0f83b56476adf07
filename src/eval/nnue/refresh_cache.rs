//! The refresh cache (a "Finny table"): for each perspective and each of its frames, the
//! accumulator of the last position refreshed in that frame, and that position's board.
//!
//! A king move into another bucket (or across the centre file of a mirrored net) changes every
//! feature index of its side, so that side's accumulator cannot be updated from the ply below. A
//! full rebuild adds one column per piece on the board. The position last rebuilt in the same
//! frame usually differs from this one by a few pieces, though, so starting from its accumulator
//! costs only those few columns. The cache belongs to one accumulator stack (one search thread).

use super::features::{self, Frame};
use super::network::Network;
use super::simd;
use crate::board::{Color, PieceKind, Position, Square};

/// A board's bytes: the 90 playing squares and padding to whole 64-bit words.
const BOARD_BYTES: usize = 96;

/// A cached board: per playing square (`features::square_90` order), 0 for empty or 1 + the
/// piece's colour-and-kind index.
type Board = [u8; BOARD_BYTES];

/// The board with no piece: the one an entry's bias-only accumulator stands for.
const EMPTY: Board = [0; BOARD_BYTES];

/// The squares (indices into a `Board`) where `old` and `new` differ, and how many there are.
/// Compared a word at a time: most words of two nearby positions are equal.
#[inline]
fn changed_squares(old: &Board, new: &Board) -> ([u8; 90], usize) {
    let mut changed = [0u8; 90];
    let mut count = 0;
    for (w, (a, b)) in old.chunks_exact(8).zip(new.chunks_exact(8)).enumerate() {
        let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("chunks of eight"));
        let mut diff = word(a) ^ word(b);
        while diff != 0 {
            let byte = diff.trailing_zeros() / 8;
            changed[count] = (8 * w) as u8 + byte as u8;
            count += 1;
            diff &= !(0xff << (8 * byte));
        }
    }
    (changed, count)
}

/// How a refresh was done.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refreshed {
    /// From the bias, one column per piece: the frame's first refresh, or a cached position too
    /// different to be worth starting from.
    Full,
    /// From the cached accumulator, adding and taking away this many columns.
    Difference(usize),
}

/// The cached accumulator and board of every frame of both perspectives. An entry not yet
/// used holds the bias and the empty board, so its first refresh adds every piece.
pub struct RefreshCache {
    width: usize,
    frames_per_perspective: usize,
    /// Entry `e`: `values[e * width..][..width]`.
    values: Vec<i16>,
    /// Entry `e`'s board.
    boards: Vec<Board>,
}

impl RefreshCache {
    /// An empty cache for `net`'s accumulators.
    pub fn new(net: &Network) -> RefreshCache {
        let (width, frames_per_perspective) =
            (net.arch().width, net.arch().features.frames_per_perspective());
        let entries = 2 * frames_per_perspective;
        let mut values = vec![0; entries * width];
        for entry in values.chunks_exact_mut(width) {
            net.refresh(&[], entry);
        }
        RefreshCache { width, frames_per_perspective, values, boards: vec![EMPTY; entries] }
    }

    /// Writes to `acc` the accumulator `perspective` has in `pos`, whose own king puts it in
    /// `frame`: from the frame's cached accumulator, adding the columns of the pieces that stand
    /// where they did not and taking away those that left, or from the bias when that is
    /// cheaper. The result is cached for the next refresh in this frame.
    pub fn refresh(
        &mut self,
        net: &Network,
        perspective: Color,
        frame: Frame,
        pos: &Position,
        acc: &mut [i16],
    ) -> Refreshed {
        let entry = perspective.index() * self.frames_per_perspective + frame.slot();
        let values = &mut self.values[entry * self.width..][..self.width];
        let board = &mut self.boards[entry];
        let mut now = EMPTY;
        let mut pieces = 0;
        let mut code = 0;
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                code += 1;
                for sq in pos.pieces(color, kind) {
                    now[features::square_90(sq)] = code;
                    pieces += 1;
                }
            }
        }
        let (mut changed, mut count) = changed_squares(board, &now);
        let columns: usize = changed[..count]
            .iter()
            .map(|&i| (board[i as usize] != 0) as usize + (now[i as usize] != 0) as usize)
            .sum();
        if columns > pieces {
            *board = EMPTY;
            net.refresh(&[], values);
            (changed, count) = changed_squares(board, &now);
        }
        let how = if *board == EMPTY { Refreshed::Full } else { Refreshed::Difference(columns) };
        for &i in &changed[..count] {
            let (old, new, sq) = (board[i as usize], now[i as usize], Square::new(i % 9, i / 9));
            if old != 0 {
                let (color, kind) = decode(old);
                simd::sub_assign(values, net.column(frame.index(color, kind, sq)));
            }
            if new != 0 {
                let (color, kind) = decode(new);
                simd::add_assign(values, net.column(frame.index(color, kind, sq)));
            }
        }
        *board = now;
        acc.copy_from_slice(values);
        how
    }
}

/// The colour and kind a nonzero `Board` code stands for.
#[inline]
fn decode(code: u8) -> (Color, PieceKind) {
    let index = (code - 1) as usize;
    (Color::BOTH[index / 7], PieceKind::ALL[index % 7])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::nnue::architecture::Architecture;
    use crate::eval::nnue::features::{FeatureSet, KingBuckets};

    fn palace_net() -> Network {
        let arch = Architecture {
            features: FeatureSet { king_buckets: KingBuckets::Palace, mirror: true, relations: false },
            width: 48,
            ..Architecture::DEFAULT
        };
        Network::random(arch, 5).unwrap()
    }

    /// The accumulator from scratch, and the cache's answer, for `perspective` in `fen`.
    fn both_ways(
        cache: &mut RefreshCache,
        net: &Network,
        fen: &str,
        perspective: Color,
    ) -> (Vec<i16>, Refreshed) {
        let pos = Position::from_fen(fen).unwrap();
        let set = net.arch().features;
        let mut active = Vec::new();
        set.active_features(&pos, perspective, &mut active);
        let mut full = vec![0; net.arch().width];
        net.refresh(&active, &mut full);
        let mut cached = vec![0; net.arch().width];
        let frame = set.frame(perspective, pos.king_square(perspective));
        let how = cache.refresh(net, perspective, frame, &pos, &mut cached);
        assert_eq!(cached, full, "{perspective:?} in {fen}");
        (full, how)
    }

    #[test]
    fn a_frame_seen_before_costs_only_the_difference() {
        let net = palace_net();
        let mut cache = RefreshCache::new(&net);
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(both_ways(&mut cache, &net, start, Color::Red).1, Refreshed::Full);
        // Black's perspective has its own entries.
        assert_eq!(both_ways(&mut cache, &net, start, Color::Black).1, Refreshed::Full);
        // The same frame (Red's king still on e0) after a horse move: two columns, the horse out
        // of h0 and into g2; then one, the horse gone.
        let later = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 0 1";
        assert_eq!(both_ways(&mut cache, &net, later, Color::Red).1, Refreshed::Difference(2));
        let took = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1";
        assert_eq!(both_ways(&mut cache, &net, took, Color::Red).1, Refreshed::Difference(1));
        // Red's king on e1 is another frame, first seen now; then back on e0 the entry is still
        // the last e0 position's.
        let king_up = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1AB1R w - - 0 1";
        assert_eq!(both_ways(&mut cache, &net, king_up, Color::Red).1, Refreshed::Full);
        assert_eq!(both_ways(&mut cache, &net, took, Color::Red).1, Refreshed::Difference(0));
    }

    #[test]
    fn a_position_far_from_the_cached_one_is_rebuilt() {
        let net = palace_net();
        let mut cache = RefreshCache::new(&net);
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        both_ways(&mut cache, &net, start, Color::Red);
        // Three pieces left: 29 pieces to take away and a king to add cost more than three.
        let bare = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        assert_eq!(both_ways(&mut cache, &net, bare, Color::Red).1, Refreshed::Full);
        let moved = "3k5/9/9/9/9/9/9/9/9/1R2K4 w - - 0 1";
        assert_eq!(both_ways(&mut cache, &net, moved, Color::Red).1, Refreshed::Difference(2));
    }
}
