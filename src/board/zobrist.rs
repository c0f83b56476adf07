//! Zobrist keys: one 64-bit key per (colour-and-kind, square) and one for Black to move.
//!
//! Generated at compile time by SplitMix64 from a fixed seed, so hash keys (and with them the
//! search's node counts) are the same on every build and machine.

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> ([[u64; 256]; 14], u64) {
    let mut table = [[0u64; 256]; 14];
    let mut state = 0x0C4A_2107_5EED_u64;
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 256 {
            let (s, key) = splitmix64(state);
            state = s;
            table[p][sq] = key;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (table, side)
}

const KEYS: ([[u64; 256]; 14], u64) = build();

/// Keys by piece type index (`Piece::type_index`) and mailbox square.
pub static PIECE_SQUARE: [[u64; 256]; 14] = KEYS.0;
/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = KEYS.1;
