//! The scored data pipeline: the packed format keeps every field, damaged files are refused
//! with the place of the fault, runs are reproducible, appending and resuming after an
//! interruption give the data an uninterrupted run gives, and the labels mean what they say.
//!
//! This module keeps the helpers the tests share; `format` holds the packed format and its
//! refusals, `runs` the scored runs (reproducing, resuming, labels, the commands), `merge` the
//! shards of a run and their merge.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use chariot::board::{movegen, Color, Position};
use chariot::datagen::format::{square_index, Header, Record, Wdl, BLOCK, MAX_SCORE};
use chariot::datagen::games::{play, DatagenConfig, GameEnd, Played};
use chariot::datagen::merge::{merge, MergeError};
use chariot::datagen::reader::{read_all, scan_for_append, DataError, DataReader};
use chariot::datagen::scored::{self, Target};
use chariot::datagen::shard::Shard;
use chariot::datagen::stats;
use chariot::eval::nnue::Architecture;
use chariot::eval::EvalChoice;
use chariot::rules::{game_result, Termination};
use chariot::search::Engine;
use chariot::tournament::Opening;
use chariot::train::FloatNetwork;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

mod format;
mod merge;
mod rescore;
mod runs;

fn test_data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file)
}

fn scratch(test: &str) -> PathBuf {
    common::scratch_dir("datagen", test)
}

/// The perft FENs and every position of a seeded random walk of `plies` plies from each.
fn varied_positions(plies: usize, seed: u64) -> Vec<Position> {
    let text = std::fs::read_to_string(test_data("perft.txt")).unwrap();
    let mut fens: Vec<&str> =
        text.lines().filter_map(|l| l.split(';').next()).filter(|f| !f.is_empty()).collect();
    fens.dedup();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap();
        for _ in 0..plies {
            out.push(pos.clone());
            let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
            let Some(&mv) = moves.choose(&mut rng) else { break };
            pos.make_move(mv);
        }
    }
    out
}

/// The board and side fields of a FEN (the format keeps no clocks).
fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A labelled record of `pos` with a random score, a random legal best move and random game
/// fields; also returns what was put in.
fn random_record(
    pos: &Position,
    rng: &mut StdRng,
) -> Option<(Record, i32, GameEnd, Option<Color>, u32, bool)> {
    let moves: Vec<_> = movegen::legal_moves(&mut pos.clone()).iter().copied().collect();
    let &best = moves.choose(rng)?;
    let score = rng.gen_range(-MAX_SCORE..=MAX_SCORE);
    let end = *GameEnd::ALL.choose(rng).unwrap();
    let winner = if end.is_draw() { None } else { Some(*Color::BOTH.choose(rng).unwrap()) };
    let game = rng.gen::<u32>();
    let last = rng.gen_bool(0.5);
    let mut rec = Record::new(pos, score, best);
    rec.finish(game, end, winner, last);
    Some((rec, score, end, winner, game, last))
}

/// A data file of `games` games of three records each (starting with game `first`), made from
/// random walks, plus the records.
fn write_small_file(path: &Path, seed: u64, first: u32, games: u32) -> Vec<Record> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = Header::whole(seed, 100, 42).to_bytes().to_vec();
    let mut records = Vec::new();
    for game in first..first + games {
        let mut pos = Position::startpos();
        let winner = *[None, Some(Color::Red), Some(Color::Black)].choose(&mut rng).unwrap();
        let end = if winner.is_some() { GameEnd::Resigned } else { GameEnd::DrawAdjudicated };
        for i in 0..3 {
            for _ in 0..rng.gen_range(1..4) {
                let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
                pos.make_move(*moves.choose(&mut rng).unwrap());
            }
            let moves: Vec<_> = movegen::legal_moves(&mut pos).iter().copied().collect();
            let quiet: Vec<_> = moves.iter().copied().filter(|m| !pos.piece_at(m.to()).is_piece()).collect();
            let mut rec = Record::new(&pos, rng.gen_range(-500..500), *quiet.choose(&mut rng).unwrap());
            rec.finish(game, end, winner, i == 2);
            bytes.extend_from_slice(rec.as_bytes());
            records.push(rec);
        }
    }
    std::fs::write(path, bytes).unwrap();
    records
}

fn refusal(path: &Path) -> DataError {
    read_all(path).expect_err("a damaged file is refused")
}

/// The offset of record `n` in a single-shard file.
fn offset(n: u64) -> u64 {
    BLOCK as u64 * (n + 1)
}

/// Square number of an ICCS square name, as the format numbers squares (rank * 9 + file).
fn sq(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'0') as usize * 9 + (b[0] - b'a') as usize
}

/// A record built byte by byte as docs/datagen.md lays it out: `pieces` as (square, 4-bit
/// code), Black to move or not, the best move as two square names, score 0, a draw by the ply
/// limit (end code 9), ply 0, game 0, the last record of its game.
fn raw(pieces: &[(&str, u8)], black_to_move: bool, best: (&str, &str)) -> Record {
    let mut b = [0u8; BLOCK];
    let mut sorted: Vec<(usize, u8)> = pieces.iter().map(|&(s, c)| (sq(s), c)).collect();
    sorted.sort();
    for (k, &(square, code)) in sorted.iter().enumerate() {
        b[square / 8] |= 1 << (square % 8);
        b[12 + k / 2] |= if k.is_multiple_of(2) { code } else { code << 4 };
    }
    b[30] = 1;
    b[31] = black_to_move as u8 | 2 | (9 << 2);
    b[34] = sq(best.0) as u8;
    b[35] = sq(best.1) as u8;
    Record::from_bytes(b)
}

// Piece codes: Red 1..=7 king, advisor, elephant, horse, rook, cannon, pawn; Black 9..=15.
const RK: u8 = 1;

const RR: u8 = 5;

const RP: u8 = 7;

const BK: u8 = 9;

/// Tiny, fast scored settings: few nodes, few random plies, short games.
fn tiny(seed: u64) -> DatagenConfig {
    let mut cfg = DatagenConfig::scored(150, 4, seed);
    cfg.max_plies = 70;
    cfg.hash_mb = 1;
    cfg
}

fn run(path: &Path, cfg: &DatagenConfig, target: Target) -> (scored::Summary, Vec<String>) {
    let mut notes = Vec::new();
    let summary = scored::run(path, cfg, target, &mut |n| notes.push(n.to_string()), &mut |_| {}).unwrap();
    (summary, notes)
}

/// The byte offset where game `game` ends in a file.
fn end_of_game(bytes: &[u8], game: u32) -> usize {
    let mut end = BLOCK;
    for (i, rec) in bytes[BLOCK..].chunks(BLOCK).enumerate() {
        let rec = Record::from_bytes(rec.try_into().unwrap());
        if rec.game() <= game {
            end = BLOCK * (i + 2);
        }
    }
    end
}

/// Plays game 0 of `cfg` keeping records.
fn play_records(cfg: &DatagenConfig, game: u64) -> Played<Record> {
    let mut engine = Engine::new(cfg.hash_mb);
    play(&mut engine, cfg, game, &AtomicBool::new(false), Record::new).unwrap()
}

fn chariot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().unwrap()
}

/// `cfg` as shard `k` of `n`.
fn shard_of(cfg: &DatagenConfig, k: u64, n: u64) -> DatagenConfig {
    DatagenConfig { shard: Shard::new(k, n).unwrap(), ..cfg.clone() }
}

/// The names of the files in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
