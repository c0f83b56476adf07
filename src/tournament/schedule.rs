//! Which games a match plays: the pairings (round robin or gauntlet) and, for each game, its
//! number, colours and opening. The order is fixed by the settings alone, so `--resume` can find
//! the games already played by their round number.

/// The most games a match may schedule (all pairings together).
pub const MAX_SCHEDULED_GAMES: u64 = 1_000_000;

/// One game to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The game's number in the match, from 1 (the PGN `Round` tag).
    pub round: u32,
    /// Index into the pairings.
    pub pairing: usize,
    /// The engine (index into the engine list) playing Red.
    pub red: usize,
    /// The engine playing Black.
    pub black: usize,
    /// Index into the openings.
    pub opening: usize,
    /// Which of its pairing's game pairs it belongs to: the two games of one opening, colours
    /// swapped, share a pair.
    pub pair: u32,
}

/// The pairings: every pair of engines, or with `gauntlet` the first against each other one.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                out.push((a, b));
            }
        }
    }
    out
}

/// How many pairings `pairings` makes, without making them.
pub fn pairing_count(engines: usize, gauntlet: bool) -> u64 {
    let n = engines as u64;
    match (n, gauntlet) {
        (0, _) => 0,
        (_, true) => n - 1,
        (_, false) => n * (n - 1) / 2,
    }
}

/// `games` games per pairing, pairings interleaved so every pairing progresses together. Within a
/// pairing, games 2k and 2k+1 play opening k (cycling through the list) with colours swapped.
pub fn jobs(pairings: &[(usize, usize)], games: u32, openings: usize) -> Vec<Job> {
    let mut out = Vec::new();
    for g in 0..games {
        for (p, &(a, b)) in pairings.iter().enumerate() {
            let (red, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
            let round = out.len() as u32 + 1;
            let opening = (g as usize / 2) % openings.max(1);
            out.push(Job { round, pairing: p, red, black, opening, pair: g / 2 });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet() {
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, true), vec![(0, 1), (0, 2)]);
        assert_eq!(pairings(1, false), vec![]);
        for n in 0..6 {
            for gauntlet in [false, true] {
                assert_eq!(pairing_count(n, gauntlet), pairings(n, gauntlet).len() as u64, "{n} {gauntlet}");
            }
        }
    }

    #[test]
    fn colours_swap_per_opening() {
        let j = jobs(&[(0, 1)], 5, 2);
        let summary: Vec<(usize, usize, usize)> = j.iter().map(|j| (j.red, j.black, j.opening)).collect();
        assert_eq!(summary, vec![(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (0, 1, 0)]);
        assert_eq!(j.iter().map(|j| j.round).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
        assert_eq!(j.iter().map(|j| j.pair).collect::<Vec<_>>(), vec![0, 0, 1, 1, 2]);
        // With two pairings interleaved, each pairing's games 2k and 2k+1 still pair.
        let two = jobs(&[(0, 1), (0, 2)], 4, 3);
        let pairs: Vec<(usize, u32)> = two.iter().map(|j| (j.pairing, j.pair)).collect();
        assert_eq!(pairs, vec![(0, 0), (1, 0), (0, 0), (1, 0), (0, 1), (1, 1), (0, 1), (1, 1)]);
    }
}
