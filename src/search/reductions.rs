//! The late-move reduction table: plies to reduce the `m`th move at depth `d` by,
//! `lmr_base/100 + ln(d) ln(m) / (lmr_divisor/100)`, worked out once for the parameters in use
//! rather than at every search (4,000 logarithms a search were 2.7% of the instructions of data
//! generation's short searches). The table keeps 1,024ths of a ply, so that a search that sums
//! reductions finely (`lmr_stat`) keeps the fraction; whole plies are its entries rounded toward
//! zero, as the formula's value is.

use super::params::SearchParams;

/// Depths and move numbers the table has rows and columns for; the last serve beyond it.
pub const REDUCTION_TABLE: usize = 64;

/// Units of a ply in the table's entries.
pub const PLY_FRACTION: i32 = 1024;

/// Late-move reductions by depth and move number, with the two parameters they come from.
#[derive(Clone)]
pub struct Reductions {
    base: i32,
    divisor: i32,
    table: Box<[[i32; REDUCTION_TABLE]; REDUCTION_TABLE]>,
}

impl Reductions {
    /// The table `params`' `lmr_base` and `lmr_divisor` make.
    pub fn new(params: &SearchParams) -> Reductions {
        let mut table = Box::new([[0; REDUCTION_TABLE]; REDUCTION_TABLE]);
        let base = params.lmr_base as f64 / 100.0;
        let divisor = params.lmr_divisor as f64 / 100.0;
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let plies = base + (d as f64).ln() * (m as f64).ln() / divisor;
                *r = (plies * PLY_FRACTION as f64) as i32;
            }
        }
        Reductions { base: params.lmr_base, divisor: params.lmr_divisor, table }
    }

    /// Brings this table up to `params`: it is worked out again only when their reduction
    /// parameters differ from the ones it was made from.
    pub fn update(&mut self, params: &SearchParams) {
        if (self.base, self.divisor) != (params.lmr_base, params.lmr_divisor) {
            *self = Reductions::new(params);
        }
    }

    /// The reduction for the `move_number`th move at `depth`, both at least 1, in whole plies.
    #[inline]
    pub fn get(&self, depth: i32, move_number: i32) -> i32 {
        // Rounding the 1,024ths toward zero rounds the formula's value toward zero.
        self.get_fine(depth, move_number) / PLY_FRACTION
    }

    /// The same reduction in 1,024ths of a ply (`PLY_FRACTION`).
    #[inline]
    pub fn get_fine(&self, depth: i32, move_number: i32) -> i32 {
        let last = REDUCTION_TABLE as i32 - 1;
        self.table[depth.min(last) as usize][move_number.min(last) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(&SearchParams::DEFAULT);
        assert_eq!(r.get(1, 1), 0);
        assert!(r.get(20, 40) > r.get(3, 4));
        assert_eq!(r.get(500, 500), r.get(63, 63), "the last row and column serve beyond the table");
        let deeper = Reductions::new(&SearchParams::with_list("lmr_divisor=100").unwrap());
        assert!(deeper.get(20, 40) > r.get(20, 40));
    }

    #[test]
    fn whole_plies_are_the_formula_rounded_toward_zero_and_the_fine_entries_keep_the_rest() {
        for list in ["", "lmr_base=48,lmr_divisor=239", "lmr_base=-150,lmr_divisor=100", "lmr_base=300"] {
            let params = SearchParams::with_list(list).unwrap();
            let r = Reductions::new(&params);
            for d in 1..REDUCTION_TABLE as i32 {
                for m in 1..REDUCTION_TABLE as i32 {
                    let exact = params.lmr_base as f64 / 100.0
                        + (d as f64).ln() * (m as f64).ln() / (params.lmr_divisor as f64 / 100.0);
                    assert_eq!(r.get(d, m), exact as i32, "{list:?}: depth {d}, move {m}");
                    let fine = r.get_fine(d, m) as f64 / PLY_FRACTION as f64;
                    assert!((fine - exact).abs() < 1.0 / PLY_FRACTION as f64, "{list:?}: {fine} for {exact}");
                }
            }
        }
    }

    #[test]
    fn an_updated_table_is_the_one_its_parameters_make() {
        let mut r = Reductions::new(&SearchParams::DEFAULT);
        for list in ["lmr_divisor=100", "lmr_base=-50,lmr_divisor=100", "rfp_margin=70", ""] {
            let params = SearchParams::with_list(list).unwrap();
            let fresh = Reductions::new(&params);
            r.update(&params);
            for d in 0..REDUCTION_TABLE as i32 {
                for m in 0..REDUCTION_TABLE as i32 {
                    assert_eq!(r.get_fine(d, m), fresh.get_fine(d, m), "after {list:?}: depth {d}, move {m}");
                }
            }
        }
    }
}
