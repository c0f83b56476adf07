//! The continuation history: quiet-move success after a given earlier move, `row` the piece type
//! and destination of the earlier move, `column` those of the reply.
//!
//! Between searches every entry fades to a quarter, so old lessons weigh less. The table holds
//! 1,261 rows of 1,260 entries (6.4 MB), and fading all of it at once cost about a millisecond per
//! search: a fifth of a 5,000-node search's time in data generation. So the fading is lazy and
//! exact: each row remembers how many fades it has taken, and a node brings the two rows it reads
//! up to date (`prepare`) before reading them; a write does the same. What a search sees is what
//! fading every entry at once gave (integer division by 4, k times, truncates as one division by
//! 4^k does).

use super::ordering::HISTORY_MAX;

/// Piece types (both colours) times squares: the size of a row, and the number of real rows.
pub const PIECE_SQUARES: usize = 14 * 90;

/// A row of the continuation history: the piece type and destination of an earlier move.
pub type ContRow = usize;

/// The row for "no such move" (the root, a null move): read as zeros, never updated.
pub const NO_CONTINUATION: ContRow = PIECE_SQUARES;

/// After this many fades by 4 every entry is 0: |entry| ≤ `HISTORY_MAX` = 4^10 < 4^11.
const FADES_TO_ZERO: u32 = 11;
const _: () = assert!(HISTORY_MAX <= 4i32.pow(FADES_TO_ZERO - 1));

/// The continuation history of one search thread.
pub struct ContinuationHistory {
    rows: Box<[[i32; PIECE_SQUARES]]>,
    /// The fade count each row has caught up with.
    row_fades: Box<[u32]>,
    /// Fades so far (wrapping: only differences are read).
    fades: u32,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory {
            rows: vec![[0; PIECE_SQUARES]; PIECE_SQUARES + 1].into_boxed_slice(),
            row_fades: vec![0; PIECE_SQUARES + 1].into_boxed_slice(),
            fades: 0,
        }
    }
}

impl ContinuationHistory {
    /// Every entry to a quarter (lazily: see the module's note).
    pub fn fade(&mut self) {
        self.fades = self.fades.wrapping_add(1);
    }

    /// Brings `rows` up to date, so that `get` may read them: a node calls it once for the
    /// rows of the moves one and two plies before.
    #[inline]
    pub fn prepare(&mut self, rows: [ContRow; 2]) {
        for row in rows {
            if self.row_fades[row] != self.fades {
                self.catch_up(row);
            }
        }
    }

    /// The entry for reply `column` after the move of `row`, which `prepare` brought up to date.
    #[inline]
    pub fn get(&self, row: ContRow, column: usize) -> i32 {
        debug_assert_eq!(self.row_fades[row], self.fades, "row {row} read before it was prepared");
        self.rows[row][column]
    }

    /// The entry for reply `column` after the move of `row`, to update.
    #[inline]
    pub fn entry(&mut self, row: ContRow, column: usize) -> &mut i32 {
        self.catch_up(row);
        &mut self.rows[row][column]
    }

    /// Applies to `row` the fades it missed.
    fn catch_up(&mut self, row: ContRow) {
        let missed = self.fades.wrapping_sub(self.row_fades[row]);
        if missed == 0 {
            return;
        }
        self.row_fades[row] = self.fades;
        let entries = &mut self.rows[row];
        if missed >= FADES_TO_ZERO {
            entries.fill(0);
        } else {
            let shift = 2 * missed;
            entries.iter_mut().for_each(|v| *v = divide_by_power_of_two(*v, shift));
        }
    }

    /// Whether every entry of `row` is 0 (once brought up to date).
    pub fn row_is_zero(&mut self, row: ContRow) -> bool {
        self.prepare([row, row]);
        self.rows[row].iter().all(|&v| v == 0)
    }
}

/// `v / 2^shift` truncated towards zero, as `/` does, with shifts that vectorise (an integer
/// division by a value known only at run time does not): a negative `v` is raised by
/// `2^shift − 1` first so that the arithmetic shift's rounding down becomes rounding up.
#[inline]
fn divide_by_power_of_two(v: i32, shift: u32) -> i32 {
    let bias = (v >> 31) & ((1 << shift) - 1);
    (v + bias) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The rows the test writes, as the table was before: every entry faded at once.
    struct Eager(Vec<Vec<i32>>);

    #[test]
    fn lazy_fading_reads_as_fading_every_entry_at_once() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut lazy = ContinuationHistory::default();
        // A few rows written often, searches (fades) between, some long pauses between writes.
        let rows: Vec<ContRow> = (0..12).map(|_| rng.gen_range(0..PIECE_SQUARES)).collect();
        let mut eager = Eager(vec![vec![0; PIECE_SQUARES]; rows.len()]);
        for search in 0..60 {
            if search % 7 != 6 {
                for _ in 0..200 {
                    let (i, column) = (rng.gen_range(0..rows.len()), rng.gen_range(0..PIECE_SQUARES));
                    let value = rng.gen_range(-HISTORY_MAX..=HISTORY_MAX);
                    *lazy.entry(rows[i], column) = value;
                    eager.0[i][column] = value;
                }
            }
            for (i, &row) in rows.iter().enumerate() {
                lazy.prepare([row, row]);
                for column in (0..PIECE_SQUARES).step_by(7) {
                    assert_eq!(lazy.get(row, column), eager.0[i][column], "search {search}");
                }
            }
            // Fade one to twelve times before the next search: past FADES_TO_ZERO too.
            for _ in 0..1 + search % 12 {
                lazy.fade();
                eager.0.iter_mut().flatten().for_each(|v| *v /= 4);
            }
        }
        assert!(lazy.row_is_zero(NO_CONTINUATION));
    }

    #[test]
    fn shifts_divide_as_division_does() {
        for v in [-HISTORY_MAX, -1_000_003, -17, -4, -3, -1, 0, 1, 3, 4, 17, 999_999, HISTORY_MAX] {
            for k in 1..FADES_TO_ZERO {
                assert_eq!(divide_by_power_of_two(v, 2 * k), v / 4i32.pow(k), "{v} / 4^{k}");
            }
        }
    }
}
