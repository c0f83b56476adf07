//! A count and its noun in a message, singular or plural as the count asks: `1 rank`, `2 ranks`.

use std::fmt::Display;

/// `count` and then `one` when it is 1, else `many`: `counted(1, "game", "games")` is `1 game`,
/// `counted(0, "game", "games")` is `0 games`.
pub fn counted<T: Copy + Display + PartialEq + From<u8>>(count: T, one: &str, many: &str) -> String {
    let noun = if count == T::from(1) { one } else { many };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1usize, "rank", "ranks"), "1 rank");
        assert_eq!(counted(0u32, "inaccuracy", "inaccuracies"), "0 inaccuracies");
        assert_eq!(counted(2u64, "move", "moves"), "2 moves");
        assert_eq!(counted(11u64, "move", "moves"), "11 moves");
    }
}
