//! The combined material + piece-square table the board keeps incrementally.

use super::score::Score;
use super::weights::{MATERIAL, PST_EG, PST_MG};

const fn build() -> [[Score; 256]; 14] {
    let mut table = [[Score::ZERO; 256]; 14];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                // Row in the written table: rank 9 first.
                let red_index = (9 - rank) * 9 + file;
                let black_index = rank * 9 + file;
                let sq = (12 - rank) * 16 + 3 + file;
                let m = MATERIAL[kind];
                table[kind][sq] = Score::new(m.mg + PST_MG[kind][red_index], m.eg + PST_EG[kind][red_index]);
                table[kind + 7][sq] =
                    Score::new(m.mg + PST_MG[kind][black_index], m.eg + PST_EG[kind][black_index]);
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    table
}

/// Material plus placement of a piece, by `Piece::type_index` and mailbox square, from the
/// owner's point of view (Black's values are already mirrored).
pub static PSQ: [[Score; 256]; 14] = build();
