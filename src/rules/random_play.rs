//! Random legal plies, as datagen and matches play them after an opening line so that games
//! start apart.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::board::{movegen, Position};

use super::outcome::game_result;

/// Plays up to `plies` random legal moves on `pos`, each drawn from `rng` among the legal moves,
/// and stops as soon as the game is over. Returns whether the game still goes on.
pub fn play_random_plies(pos: &mut Position, plies: usize, rng: &mut impl Rng) -> bool {
    for _ in 0..plies {
        if game_result(pos).is_some() {
            return false;
        }
        let moves = movegen::legal_moves(pos);
        match moves.iter().collect::<Vec<_>>().choose(rng) {
            Some(&&mv) => pos.make_move(mv),
            None => return false,
        }
    }
    game_result(pos).is_none()
}
