//! Building Chariot books: from game records (the result weighs the moves) and from Chariot's own
//! analysis (a tree of near-best moves at a fixed depth).

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use crate::board::{Color, Move, Position};
use crate::input_file;
use crate::notation::pgn::{self, read_pgn, PgnGame};
use crate::rules;
use crate::search::{Engine, HashError, Info, Limits, ScoreBound, SearchControl};

use super::chariot_format::{canonical, canonical_move};
use super::{legal_sorted, BookError, ChariotBook, EleeyeBook};

/// What `from_games` keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PgnBuildOptions {
    /// Moves from the first `max_ply` plies of each game.
    pub max_ply: usize,
    /// Only moves played (in that position) in at least this many games.
    pub min_games: u32,
}

/// Points a move earns from its game's result: 2 if the mover won, 1 for a draw or an unknown
/// result, 0 if the mover lost (a move only ever played in lost games stays out of the book).
fn result_points(result: &str, mover: Color) -> u64 {
    match (result, mover) {
        ("1-0", Color::Red) | ("0-1", Color::Black) => 2,
        ("1-0", Color::Black) | ("0-1", Color::Red) => 0,
        _ => 1,
    }
}

/// A book from `games`: each move's weight is the sum of its result points over the games that
/// played it in that position (a position and its mirror image count as one).
pub fn from_games(games: &[PgnGame], opts: PgnBuildOptions, name: &str) -> ChariotBook {
    // (canonical key, canonical move) -> (games, points)
    let mut tally: HashMap<(u64, u16), (u32, u64)> = HashMap::new();
    for game in games {
        let mut pos = game.start.clone();
        let mut seen_in_game = HashSet::new();
        for m in game.moves.iter().take(opts.max_ply) {
            let key = canonical_move(&pos, m.mv);
            if seen_in_game.insert(key) {
                let t = tally.entry(key).or_insert((0, 0));
                t.0 += 1;
                t.1 += result_points(&game.result, pos.side_to_move());
            }
            pos.make_move(m.mv);
        }
    }
    let entries = tally
        .into_iter()
        .filter(|(_, (n, _))| *n >= opts.min_games.max(1))
        .map(|((key, mv), (_, points))| (key, mv, points));
    ChariotBook::from_entries(name, entries)
}

/// The PGN files `paths` name: files as given, directories for their `*.pgn` files (sorted).
pub fn pgn_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, BookError> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let listing = std::fs::read_dir(p).map_err(|e| BookError(format!("'{}': {e}", p.display())))?;
            let mut found: Vec<PathBuf> = listing
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x.eq_ignore_ascii_case("pgn")))
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(BookError(format!("'{}' holds no .pgn file", p.display())));
            }
            files.extend(found);
        } else if p.exists() {
            // Not only regular files: reading a device or a FIFO is refused with what it is.
            files.push(p.clone());
        } else {
            return Err(BookError(format!("'{}': no such file or directory", p.display())));
        }
    }
    Ok(files)
}

/// Reads every game of every file; an error names the file and the line.
pub fn read_games(files: &[PathBuf]) -> Result<Vec<PgnGame>, BookError> {
    let mut games = Vec::new();
    for f in files {
        let text = read_text(f)?;
        let read = read_pgn(&text).map_err(|e| BookError(format!("'{}': {e}", f.display())))?;
        games.extend(read);
    }
    Ok(games)
}

fn read_text(path: &Path) -> Result<String, BookError> {
    input_file::read_text(path, pgn::FILE_LIMIT).map_err(|e| BookError(format!("'{}': {e}", path.display())))
}

/// What `from_search` explores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchBuildOptions {
    /// Search depth for every position.
    pub depth: i32,
    /// Positions up to this many plies from the start get book moves.
    pub max_ply: usize,
    /// Moves scoring within this many centipawns of the best are kept.
    pub margin: i32,
    /// At most this many moves per position (the MultiPV width).
    pub max_moves: usize,
    /// Transposition table size.
    pub hash_mb: usize,
    /// Search threads (1 keeps the build reproducible).
    pub threads: usize,
}

/// Weight of a move `diff` centipawns below the best: 100 for the best, falling linearly to 20 at
/// the margin, so near-equal moves are all played but the best most often.
fn search_weight(diff: i32, margin: i32) -> u64 {
    if margin <= 0 {
        return 100;
    }
    (100 - 80 * diff.clamp(0, margin) / margin) as u64
}

/// The moves of `pos` scoring within `margin` of the best at `depth`, best first, with their scores.
pub fn near_best_moves(engine: &mut Engine, pos: &Position, opts: &SearchBuildOptions) -> Vec<(Move, i32)> {
    let limits = Limits { depth: Some(opts.depth), multipv: opts.max_moves.max(1), ..Limits::default() };
    let control = SearchControl::new();
    control.start(false);
    let mut lines: Vec<Option<(Move, i32)>> = vec![None; opts.max_moves.max(1)];
    let mut on_info = |info: &Info| {
        if let Info::Iteration(it) = info {
            if it.depth == opts.depth && it.bound == ScoreBound::Exact {
                if let (Some(&mv), Some(slot)) = (it.pv.first(), lines.get_mut(it.multipv - 1)) {
                    *slot = Some((mv, it.score));
                }
            }
        }
    };
    let result = engine.search(pos, &limits, &control, &mut on_info);
    let mut found: Vec<(Move, i32)> = lines.into_iter().flatten().collect();
    if found.is_empty() {
        // Fewer plies were searched than asked (a forced line); trust the result alone.
        found.extend(result.best.map(|mv| (mv, result.score)));
    }
    found.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    let best = found.first().map_or(0, |&(_, s)| s);
    found.retain(|&(_, s)| s >= best - opts.margin);
    found
}

/// A book from Chariot's own analysis: from the start position, breadth first, every position up
/// to `max_ply` gets the moves within `margin` of the best, and each of those is followed in turn.
/// `progress(searched, total_so_far)` is called after each position. Fails only when the hash
/// table of `opts.hash_mb` cannot be allocated.
pub fn from_search(
    opts: &SearchBuildOptions,
    name: &str,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ChariotBook, HashError> {
    let mut engine = Engine::try_new(opts.hash_mb.max(1))?;
    engine.options.threads = opts.threads.max(1);
    let mut queue: VecDeque<(Position, usize)> = VecDeque::from([(Position::startpos(), 0)]);
    let mut visited: HashSet<u64> = HashSet::new();
    let mut entries = Vec::new();
    let mut searched = 0;
    while let Some((pos, ply)) = queue.pop_front() {
        if ply >= opts.max_ply || !visited.insert(canonical(&pos).0) || rules::game_result(&pos).is_some() {
            continue;
        }
        let moves = near_best_moves(&mut engine, &pos, opts);
        let best = moves.first().map_or(0, |&(_, s)| s);
        // In a symmetric position (the start, say) a move and its mirror twin are equally good,
        // but MultiPV lists only the first it meets: book both.
        let symmetric = pos.key() == pos.files_mirrored().key();
        for &(mv, score) in &moves {
            let (key, cmv) = canonical_move(&pos, mv);
            let weight = search_weight(best - score, opts.margin);
            entries.push((key, cmv, weight));
            let twin = mv.mirror_files();
            if symmetric && twin != mv && !moves.iter().any(|&(m, _)| m == twin) {
                entries.push((key, twin.bits(), weight));
            }
            let mut child = pos.clone();
            child.make_move(mv);
            if ply + 1 < opts.max_ply {
                queue.push_back((child, ply + 1));
            }
        }
        searched += 1;
        progress(searched, searched + queue.len());
    }
    Ok(ChariotBook::from_entries(name, entries))
}

/// Converts a BOOK.DAT into a Chariot book. BOOK.DAT keeps only position locks, so the positions
/// are found by walking its moves from the start position (up to `max_ply` plies); records no such
/// walk reaches are left out. Returns the book and how many positions with moves the walk found.
pub fn from_eleeye(book: &EleeyeBook, max_ply: usize, name: &str) -> (ChariotBook, usize) {
    let mut stack: Vec<(Position, usize)> = vec![(Position::startpos(), 0)];
    let mut visited: HashSet<u64> = HashSet::new();
    let mut entries = Vec::new();
    let mut found = 0;
    while let Some((pos, ply)) = stack.pop() {
        if ply >= max_ply || !visited.insert(canonical(&pos).0) {
            continue;
        }
        let moves = legal_sorted(&pos, book.probe_raw(&pos));
        found += usize::from(!moves.is_empty());
        for e in moves {
            let (key, cmv) = canonical_move(&pos, e.mv);
            entries.push((key, cmv, e.weight as u64));
            let mut child = pos.clone();
            child.make_move(e.mv);
            child.clear_history();
            stack.push((child, ply + 1));
        }
    }
    (ChariotBook::from_entries(name, entries), found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_points_follow_the_mover() {
        assert_eq!(result_points("1-0", Color::Red), 2);
        assert_eq!(result_points("1-0", Color::Black), 0);
        assert_eq!(result_points("0-1", Color::Black), 2);
        assert_eq!(result_points("1/2-1/2", Color::Red), 1);
        assert_eq!(result_points("*", Color::Black), 1);
    }

    #[test]
    fn search_weights_fall_with_the_gap() {
        assert_eq!(search_weight(0, 25), 100);
        assert_eq!(search_weight(25, 25), 20);
        assert_eq!(search_weight(10, 20), 60);
        assert_eq!(search_weight(5, 0), 100);
    }
}
