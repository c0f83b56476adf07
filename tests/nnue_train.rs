//! The NNUE trainer (`chariot nnue train`) on small data the tests make: it fits what it can
//! fit, learns a simple material signal, repeats itself byte for byte, resumes from a checkpoint
//! to the net an uninterrupted run makes, exports nets `nnue check` accepts, and refuses damaged
//! data and checkpoints with the place of the damage; `nnue loss` measures finished nets on data.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chariot::board::{movegen, Color, Move, PieceKind, Position};
use chariot::datagen::format::{Header, Record};
use chariot::datagen::games::GameEnd;
use chariot::eval::nnue::format;
use chariot::train::checkpoint::DataIdentity;
use chariot::train::samples::Samples;
use chariot::train::settings::{Schedule, SettingsRequest, TrainSettings};
use chariot::train::trainer::{self, Workspace};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const BIN: &str = env!("CARGO_BIN_EXE_chariot");

fn chariot(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the chariot binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("nnue-train", name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Games of random legal moves from the start position, up to `plies` plies each: the positions
/// with a legal move, each with the move played from it.
fn random_games(games: usize, plies: usize, seed: u64) -> Vec<Vec<(Position, Move)>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..games)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut game = Vec::new();
            for _ in 0..plies {
                let moves: Vec<Move> = movegen::legal_moves(&mut pos).iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                game.push((pos.clone(), mv));
                pos.make_move(mv);
            }
            game
        })
        .collect()
}

/// A data file of `games`, each position scored by `score` (side to move's view); every game is
/// drawn (the tests train on the score alone).
fn write_data(path: &Path, seed: u64, games: &[Vec<(Position, Move)>], score: impl Fn(&Position) -> i32) {
    let mut bytes = Header::whole(seed, 1, 0).to_bytes().to_vec();
    for (number, game) in games.iter().enumerate() {
        // Positions in check are never kept (the rules' view of such a record is refused).
        let kept: Vec<_> = game.iter().filter(|(pos, _)| !pos.is_check()).collect();
        for (i, (pos, best)) in kept.iter().enumerate() {
            let mut rec = Record::new(pos, score(pos), *best);
            rec.finish(number as u32, GameEnd::DrawAdjudicated, None, i + 1 == kept.len());
            bytes.extend_from_slice(rec.as_bytes());
        }
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn the_trainer_fits_a_small_set_it_can_memorise() {
    let mut rng = StdRng::seed_from_u64(1);
    // One position from each of 200 random games: 200 different boards, each with a random score.
    let records: Vec<Record> = random_games(200, 30, 2)
        .into_iter()
        .filter_map(|game| game.last().cloned())
        .map(|(pos, mv)| {
            let mut rec = Record::new(&pos, rng.gen_range(-300..300), mv);
            rec.finish(0, GameEnd::DrawAdjudicated, None, false);
            rec
        })
        .collect();
    assert_eq!(records.len(), 200);
    let request = SettingsRequest {
        width: Some(64),
        epochs: Some(200),
        batch_size: Some(25),
        lr: Some(0.003),
        schedule: Some(Schedule::Cosine { final_factor: 0.01 }),
        lambda: Some(1.0),
        k: Some(100.0),
        validation: Some(0.0),
        threads: Some(2),
        ..SettingsRequest::default()
    };
    let settings: TrainSettings = request.fresh();
    let arch = settings.arch;
    let samples = Samples::from_records(&records, arch.features, arch.output_buckets, 1);
    let identity = DataIdentity { fingerprint: 0, training: 200, validation: 0 };
    let mut state = trainer::fresh_state(settings, identity, &samples, None);
    let blend = trainer::blend(&state);
    let before = trainer::mean_loss(&state.net, &samples, blend, 1);
    let mut work = Workspace::new(&state);
    let empty = Samples::default();
    let mut losses = Vec::new();
    for _ in 0..settings.epochs {
        trainer::run_epoch(&mut state, &mut work, &samples, &empty, &mut |_| {});
        losses.push(trainer::mean_loss(&state.net, &samples, blend, 1));
    }
    let after = *losses.last().unwrap();
    eprintln!(
        "loss {before:.6} -> {after:.8}; every 10 epochs: {:?}",
        losses.iter().step_by(10).collect::<Vec<_>>()
    );
    assert!(before > 0.01, "the targets are spread: {before}");
    assert!(after < before / 100.0 && after < 1e-4, "{before} -> {after}");
}

/// Self-play data from `chariot datagen --scored` at a tiny node count.
fn selfplay_data(dir: &Path, games: u32, seed: u32) -> PathBuf {
    let path = dir.join(format!("selfplay-{seed}.bin"));
    let (games, seed) = (games.to_string(), seed.to_string());
    let out = chariot(&[
        "datagen",
        "--scored",
        "--games",
        &games,
        "--nodes",
        "150",
        "--random-plies",
        "4",
        "--hash",
        "1",
        "--seed",
        &seed,
        "--out",
        s(&path),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

/// `chariot nnue train` with a small net and few epochs from `seed`, plus `extra` options.
fn train(data: &Path, out: &Path, seed: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "nnue",
        "train",
        "--data",
        s(data),
        "--out",
        s(out),
        "--width",
        "32",
        "--output-buckets",
        "2",
        "--epochs",
        "3",
        "--batch-size",
        "128",
        "--lr",
        "0.002",
        "--threads",
        "2",
        "--seed",
        seed,
        "--validation",
        "0.2",
    ];
    args.extend_from_slice(extra);
    chariot(&args)
}

fn succeeded(out: &Output) -> String {
    assert!(out.status.success(), "stdout: {}\nstderr: {}", text(&out.stdout), text(&out.stderr));
    text(&out.stdout)
}

fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}\nstderr: {}", text(&out.stdout), text(&out.stderr));
    text(&out.stderr)
}

#[test]
fn training_repeats_itself_and_a_resumed_run_is_the_uninterrupted_one() {
    let dir = scratch("repeat");
    let data = selfplay_data(&dir, 30, 1);
    let (a, b, c, d) = (dir.join("a.nnue"), dir.join("b.nnue"), dir.join("c.nnue"), dir.join("d.nnue"));
    let log = succeeded(&train(&data, &a, "7", &[]));
    for words in ["split by game", "K ", "epoch   3/3", "exported epoch", "quantised: validation loss"] {
        assert!(log.contains(words), "'{words}' in:\n{log}");
    }
    succeeded(&train(&data, &b, "7", &[]));
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "same data, seed and threads: the same net");
    assert_eq!(
        std::fs::read(dir.join("a.nnue.ckpt/checkpoint.bin")).unwrap(),
        std::fs::read(dir.join("b.nnue.ckpt/checkpoint.bin")).unwrap()
    );
    // Interrupted after each epoch and resumed: the same net as the uninterrupted run.
    let first = succeeded(&train(&data, &c, "7", &["--stop-after", "1"]));
    assert!(first.contains("stopped after epoch 1 of 3: --resume continues"), "{first}");
    assert!(
        dir.join("c.nnue.ckpt/epoch-001.nnue").exists() && !dir.join("c.nnue.ckpt/epoch-002.nnue").exists()
    );
    let second = succeeded(&chariot(&[
        "nnue",
        "train",
        "--data",
        s(&data),
        "--out",
        s(&c),
        "--resume",
        "--stop-after",
        "1",
    ]));
    assert!(second.contains("resuming after epoch 1 of 3") && second.contains("epoch   2/3"), "{second}");
    succeeded(&chariot(&["nnue", "train", "--data", s(&data), "--out", s(&c), "--resume", "--threads", "2"]));
    assert_eq!(std::fs::read(&c).unwrap(), bytes, "resumed twice: the uninterrupted run's net");
    // Another seed, another net.
    succeeded(&train(&data, &d, "8", &[]));
    assert_ne!(std::fs::read(&d).unwrap(), bytes);
    // The exported net passes `nnue check`, which shows how it was made.
    let check = succeeded(&chariot(&["nnue", "check", s(&a)]));
    for words in [
        " ok\n",
        "32 per perspective, screlu",
        "Output buckets: 2",
        "seed 7",
        "threads 2",
        "selfplay-1.bin",
        "epoch",
    ] {
        assert!(check.contains(words), "'{words}' in:\n{check}");
    }
    let net = format::load(&a).unwrap();
    assert_eq!(net.arch().width, 32);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Material, the side to move's view: a pawn 20, an advisor or elephant 40, a horse or cannon
/// 100, a rook 250.
fn material(pos: &Position) -> i32 {
    let value = |kind: PieceKind| match kind {
        PieceKind::King => 0,
        PieceKind::Pawn => 20,
        PieceKind::Advisor | PieceKind::Elephant => 40,
        PieceKind::Horse | PieceKind::Cannon => 100,
        PieceKind::Rook => 250,
    };
    let side = |c: Color| PieceKind::ALL.iter().map(|&k| pos.count(c, k) as i32 * value(k)).sum::<i32>();
    side(pos.side_to_move()) - side(pos.side_to_move().opponent())
}

#[test]
fn a_net_trained_on_material_sees_a_rook_up_from_either_side() {
    let dir = scratch("material");
    let data = dir.join("material.bin");
    write_data(&data, 5, &random_games(400, 160, 5), material);
    let out = dir.join("material.nnue");
    let log = succeeded(&chariot(&[
        "nnue",
        "train",
        "--data",
        s(&data),
        "--out",
        s(&out),
        "--width",
        "32",
        "--king-buckets",
        "single",
        "--epochs",
        "10",
        "--batch-size",
        "256",
        "--lr",
        "0.003",
        "--lambda",
        "1",
        "--k",
        "200",
        "--threads",
        "2",
    ]));
    eprintln!("{log}");
    let net = format::load(&out).unwrap();
    // The start position without Black's a-file rook, and without Red's.
    let black_short = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let red_short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR";
    let eval = |board: &str, side: &str| {
        net.evaluate(&Position::from_fen(&format!("{board} {side} - - 0 1")).unwrap())
    };
    let scores = [eval(black_short, "w"), eval(black_short, "b"), eval(red_short, "w"), eval(red_short, "b")];
    eprintln!(
        "rook up, to move {}; rook down, to move {}; rook down {}; rook up {}",
        scores[0], scores[1], scores[2], scores[3]
    );
    assert!(scores[0] > 100 && scores[3] > 100, "the side a rook up scores well: {scores:?}");
    assert!(scores[1] < -100 && scores[2] < -100, "the side a rook down scores badly: {scores:?}");
    let start = net.evaluate(&Position::startpos());
    assert!(start.abs() < 60, "the start position is level: {start}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The byte offset of record `n` (records counted from 0 after the 40-byte header).
fn record_offset(n: usize) -> usize {
    40 + 40 * n
}

#[test]
fn damaged_data_is_refused_with_its_place_and_an_unfinished_tail_is_left_out() {
    let dir = scratch("data");
    let data = selfplay_data(&dir, 12, 3);
    let bytes = std::fs::read(&data).unwrap();
    let records = (bytes.len() - 40) / 40;
    assert!(records > 300, "{records} records");
    let net = dir.join("net.nnue");

    // A piece code zeroed in record 100: refused, with the record and its offset.
    let mut damaged = bytes.clone();
    damaged[record_offset(100) + 12] = 0;
    let path = dir.join("damaged.bin");
    std::fs::write(&path, &damaged).unwrap();
    let err = refused(&train(&path, &net, "1", &[]));
    assert!(err.contains("damaged.bin: record 100 at byte offset 4040: piece code 0"), "{err}");
    assert!(!net.exists(), "no net from damaged data");
    assert!(!dir.join("net.nnue.ckpt").exists(), "and no checkpoint directory");

    // Cut in the middle of the last game and of a record, as a copy of a growing file is:
    // the unfinished game and the partial record are left out, with a note, and training goes on.
    let last_game = Record::from_bytes(bytes[bytes.len() - 40..].try_into().unwrap()).game();
    let first_of_last = (0..records)
        .find(|&n| {
            Record::from_bytes(bytes[record_offset(n)..record_offset(n) + 40].try_into().unwrap()).game()
                == last_game
        })
        .unwrap();
    let cut_at = record_offset(first_of_last + 2) + 17;
    let growing = dir.join("growing.bin");
    std::fs::write(&growing, &bytes[..cut_at]).unwrap();
    let log = succeeded(&train(&growing, &net, "1", &[]));
    let expected = format!(
        "note: {}: left out the unfinished game {last_game} at its end (2 records from record {first_of_last}, \
         byte offset {}) and a partial record of 17 bytes at byte offset {}",
        growing.display(),
        record_offset(first_of_last),
        record_offset(first_of_last + 2)
    );
    assert!(log.contains(&expected), "wanted:\n{expected}\nin:\n{log}");
    assert!(log.contains(&format!("data: {first_of_last} positions in {last_game} games")), "{log}");

    // The same cut shard followed by another: damage in the middle, refused at the second header.
    let other = selfplay_data(&dir, 2, 4);
    let mut joined = bytes[..record_offset(first_of_last + 2)].to_vec();
    joined.extend_from_slice(&std::fs::read(&other).unwrap());
    let joined_path = dir.join("joined.bin");
    std::fs::write(&joined_path, &joined).unwrap();
    let err = refused(&train(&joined_path, &dir.join("joined.nnue"), "1", &[]));
    let place = format!("record {} at byte offset {}", first_of_last + 2, record_offset(first_of_last + 2));
    assert!(err.contains(&place) && err.contains(&format!("game {last_game} of the shard before")), "{err}");
    // Given as two files, each is read on its own: both count.
    let log = succeeded(&chariot(&[
        "nnue",
        "train",
        "--data",
        s(&growing),
        "--data",
        s(&other),
        "--out",
        s(&dir.join("two.nnue")),
        "--width",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
    ]));
    assert!(log.contains("(growing.bin, selfplay-4.bin)"), "{log}");

    // Not a data file at all, and no file.
    std::fs::write(&path, b"chariot-data but not really, forty bytes").unwrap();
    assert!(refused(&train(&path, &dir.join("fake.nnue"), "1", &[])).contains("byte offset 0"));
    assert!(
        refused(&train(&dir.join("missing.bin"), &dir.join("none.nnue"), "1", &[])).contains("cannot open")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_checkpoints_are_refused_with_their_place() {
    let dir = scratch("checkpoint");
    let data = selfplay_data(&dir, 8, 5);
    let net = dir.join("net.nnue");
    succeeded(&train(&data, &net, "1", &["--stop-after", "1"]));
    let checkpoint = dir.join("net.nnue.ckpt/checkpoint.bin");
    let good = std::fs::read(&checkpoint).unwrap();
    let resume = || chariot(&["nnue", "train", "--data", s(&data), "--out", s(&net), "--resume"]);

    let mut flipped = good.clone();
    let at = good.len() - 100;
    flipped[at] ^= 0x08;
    std::fs::write(&checkpoint, &flipped).unwrap();
    let err = refused(&resume());
    assert!(err.contains("checkpoint.bin' refused at byte") && err.contains("checksum mismatch"), "{err}");

    std::fs::write(&checkpoint, &good[..good.len() / 2]).unwrap();
    let err = refused(&resume());
    assert!(err.contains(&format!("refused at byte {}: the file is truncated", good.len() / 2)), "{err}");

    std::fs::write(&checkpoint, b"CHARNNUE").unwrap();
    assert!(refused(&resume()).contains("refused at byte 0: not a Chariot training checkpoint"));

    // The good checkpoint resumes, and the run finishes.
    std::fs::write(&checkpoint, &good).unwrap();
    assert!(succeeded(&resume()).contains("epoch   3/3"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_run_keeps_its_settings_and_data_and_a_fresh_one_keeps_off_a_checkpoint() {
    let dir = scratch("settings");
    let data = selfplay_data(&dir, 8, 6);
    let net = dir.join("net.nnue");
    succeeded(&train(&data, &net, "1", &["--stop-after", "1"]));
    let err = refused(&train(&data, &net, "1", &[]));
    assert!(err.contains("already holds a checkpoint: add --resume"), "{err}");
    let err = refused(&chariot(&[
        "nnue",
        "train",
        "--data",
        s(&data),
        "--out",
        s(&net),
        "--resume",
        "--width",
        "64",
        "--lr",
        "0.002",
        "--threads",
        "1",
    ]));
    assert!(
        err.contains("--width 64 (the checkpoint's: 32)")
            && err.contains("--threads 1 (the checkpoint's: 2)"),
        "{err}"
    );
    assert!(!err.contains("--lr"), "--lr agrees with the checkpoint: {err}");
    let other = selfplay_data(&dir, 8, 7);
    let err = refused(&chariot(&["nnue", "train", "--data", s(&other), "--out", s(&net), "--resume"]));
    assert!(err.contains("the data is not the checkpoint's"), "{err}");
    let empty = dir.join("empty");
    let err = refused(&chariot(&[
        "nnue",
        "train",
        "--data",
        s(&data),
        "--out",
        s(&net),
        "--resume",
        "--checkpoint-dir",
        s(&empty),
    ]));
    assert!(err.contains("cannot read checkpoint"), "{err}");
    // Bad numbers are refused before any work.
    for (option, value, words) in [
        ("--lambda", "1.5", "--lambda 1.5"),
        ("--width", "100", "width 100"),
        ("--validation", "0.95", "--validation 0.95"),
        ("--k", "0", "--k 0"),
        ("--threads", "0", "--threads 0"),
        ("--schedule", "linear", "unknown schedule 'linear'"),
    ] {
        let out = dir.join("bad.nnue");
        let err = refused(&chariot(&["nnue", "train", "--data", s(&data), "--out", s(&out), option, value]));
        assert!(err.contains(words), "{option} {value}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The payload of a net file: its weights, without the header, description or checksum.
fn weights_of(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let net = format::load(path).unwrap();
    bytes[bytes.len() - format::payload_len(net.arch()) as usize..].to_vec()
}

#[test]
fn a_run_with_init_starts_from_that_nets_weights_and_grows_it_on_demand() {
    let dir = scratch("init");
    let data = selfplay_data(&dir, 30, 3);
    let (base, tuned, random) = (dir.join("base.nnue"), dir.join("tuned.nnue"), dir.join("random.nnue"));
    succeeded(&train(&data, &base, "7", &["--king-buckets", "single"]));
    let base_sum = format::checksum(&format::load(&base).unwrap());
    // A step of 1e-9 moves no weight across a rounding boundary: the tuned net is the base net.
    let tiny = |out: &Path, extra: &[&str]| {
        let mut args =
            vec!["nnue", "train", "--data", s(&data), "--out", s(out), "--epochs", "1", "--lr", "1e-9"];
        args.extend_from_slice(&["--threads", "2", "--validation", "0.2"]);
        args.extend_from_slice(extra);
        chariot(&args)
    };
    let log = succeeded(&tiny(&tuned, &["--init", s(&base)]));
    assert!(
        log.contains(&format!("init: the weights start from the net with checksum {base_sum:016x}")),
        "{log}"
    );
    assert!(!log.contains("grown"), "{log}");
    assert_eq!(weights_of(&tuned), weights_of(&base), "the run starts where the base net left off");
    let check = succeeded(&chariot(&["nnue", "check", s(&tuned)]));
    assert!(check.contains(&format!("started from the net with checksum {base_sum:016x}")), "{check}");
    assert!(check.contains("32 per perspective") && check.contains("Output buckets: 2"), "{check}");
    // The same run from random weights is another net.
    succeeded(&tiny(&random, &["--width", "32", "--output-buckets", "2", "--king-buckets", "single"]));
    assert_ne!(weights_of(&random), weights_of(&base));

    // A wider net with palace buckets grows from it and, before training moves it, scores alike.
    let grown = dir.join("grown.nnue");
    let log = succeeded(&tiny(&grown, &["--init", s(&base), "--width", "48", "--king-buckets", "palace"]));
    assert!(log.contains("init: grown from (single king buckets (1)"), "{log}");
    assert!(succeeded(&chariot(&["nnue", "check", s(&grown)])).contains("48 per perspective"));
    let eval = |net: &Path, moves: &str| {
        let mut args = vec!["eval", "--json", "--evalfile", s(net), "--moves"];
        args.extend(moves.split(' '));
        succeeded(&chariot(&args))
    };
    for moves in ["h2e2 h9g7", "b0c2 h7e7 c3c4 e9e8 e0e1"] {
        assert_eq!(eval(&grown, moves), eval(&base, moves), "after {moves}");
    }
    // Relation inputs added at zero: the same scores too, from a net that says it has them.
    let related = dir.join("related.nnue");
    let log = succeeded(&tiny(&related, &["--init", s(&base), "--relations"]));
    assert!(log.contains("init: grown from"), "{log}");
    let check = succeeded(&chariot(&["nnue", "check", s(&related)]));
    assert!(check.contains("relation inputs, 10620 inputs"), "{check}");
    for moves in ["h2e2 h9g7", "h2e2 h9g7 e2e6 g7e6"] {
        assert_eq!(eval(&related, moves), eval(&base, moves), "after {moves}");
    }
    // Shapes a net cannot grow into are refused, saying why; nothing is written.
    let refused_shape = dir.join("refused.nnue");
    for (options, words) in [
        (&["--width", "16"][..], "--width 16 is narrower than the net's 32"),
        (&["--activation", "crelu"][..], "--activation crelu (the net's: screlu)"),
        (&["--no-mirror"][..], "mirroring off (the net's: on)"),
    ] {
        let mut args = vec!["--init", s(&base)];
        args.extend_from_slice(options);
        let err = refused(&tiny(&refused_shape, &args));
        assert!(err.contains(words) && err.contains(s(&base)), "{err}");
        assert!(!refused_shape.exists() && !dir.join("refused.nnue.ckpt").exists());
    }
    // A damaged or missing init net is refused with its name.
    let mut bytes = std::fs::read(&base).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, bytes).unwrap();
    for init in [&damaged, &dir.join("missing.nnue")] {
        let err = refused(&tiny(&refused_shape, &["--init", s(init)]));
        assert!(err.contains("--init") && err.contains(s(init)), "{err}");
        assert!(!refused_shape.exists());
    }
    // A resumed run keeps its starting net: another one is refused, the same one or none accepted.
    let resumed = dir.join("resumed.nnue");
    let two_epochs = |extra: &[&str]| {
        let mut args = vec!["nnue", "train", "--data", s(&data), "--out", s(&resumed), "--epochs", "2"];
        args.extend_from_slice(&["--threads", "2", "--validation", "0.2", "--stop-after", "1"]);
        args.extend_from_slice(extra);
        chariot(&args)
    };
    succeeded(&two_epochs(&["--init", s(&base)]));
    let err = refused(&two_epochs(&["--resume", "--init", s(&tuned)]));
    assert!(
        err.contains("--init the net with checksum") && err.contains(&format!("{base_sum:016x}")),
        "{err}"
    );
    succeeded(&two_epochs(&["--resume", "--init", s(&base)]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--hidden 16,32`: the run repeats itself byte for byte, a resumed run is the uninterrupted one,
/// the net says what it is and evaluates; `--init` from a one-layer net grows the stack under it;
/// a resumed run refuses other sizes.
#[test]
fn a_run_with_hidden_layers_repeats_resumes_and_starts_from_a_one_layer_net() {
    let dir = scratch("hidden");
    let data = selfplay_data(&dir, 30, 4);
    let (a, b, c) = (dir.join("a.nnue"), dir.join("b.nnue"), dir.join("c.nnue"));
    let hidden = ["--hidden", "16,32"];
    let log = succeeded(&train(&data, &a, "7", &hidden));
    assert!(log.contains("32x2 screlu -> 16 screlu -> 32 crelu -> 1 with 2 output buckets"), "{log}");
    // The trained float net and its quantised form agree on the validation positions: within
    // 2 cp on average and 10 cp at worst (the rounding of the hidden values at 1/4080 and of the
    // weights at 1/1024 and 1/510; measured 0.55 and 1.6 cp on this small net at 1/255).
    let line = log.lines().find(|l| l.starts_with("quantised:")).expect("the quantised check");
    let numbers: Vec<f64> =
        line.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(|t| t.parse().ok()).collect();
    let (mean, max) = (numbers[numbers.len() - 2], numbers[numbers.len() - 1]);
    assert!(mean <= 2.0 && max <= 10.0, "{line}");
    succeeded(&train(&data, &b, "7", &hidden));
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "same data, seed and threads: the same net");
    assert_eq!(bytes[8..10], [5, 0], "a net with hidden layers is format version 5");
    succeeded(&train(&data, &c, "7", &["--hidden", "16,32", "--stop-after", "2"]));
    let resume = |extra: &[&str]| {
        let mut args = vec!["nnue", "train", "--data", s(&data), "--out", s(&c), "--resume"];
        args.extend_from_slice(extra);
        chariot(&args)
    };
    let err = refused(&resume(&["--hidden", "16"]));
    assert!(err.contains("--hidden 16 (the checkpoint's: 16,32)"), "{err}");
    let err = refused(&resume(&["--hidden-activation", "crelu"]));
    assert!(err.contains("--hidden-activation crelu (the checkpoint's: screlu)"), "{err}");
    succeeded(&resume(&["--hidden", "16,32"]));
    assert_eq!(std::fs::read(&c).unwrap(), bytes, "resumed: the uninterrupted run's net");
    let check = succeeded(&chariot(&["nnue", "check", s(&a)]));
    assert!(check.contains("Format: version 5") && check.contains("Hidden layers: 16 -> 32"), "{check}");
    let eval = succeeded(&chariot(&["eval", "--evalfile", s(&a), "--moves", "h2e2", "h9g7"]));
    assert!(!eval.is_empty());
    // Without --hidden, the same run is another net, and a one-layer one.
    let flat = dir.join("flat.nnue");
    succeeded(&train(&data, &flat, "7", &[]));
    assert_eq!(std::fs::read(&flat).unwrap()[8..10], [2, 0]);
    // From the one-layer net: the stack grows under it, and the net trains on.
    let grown = dir.join("grown.nnue");
    let log = succeeded(&train(&data, &grown, "7", &["--init", s(&flat), "--hidden", "16"]));
    assert!(log.contains("init: grown from") && log.contains("-> 16 screlu -> 1"), "{log}");
    let clipped = dir.join("clipped.nnue");
    let args = ["--init", s(&flat), "--hidden", "16", "--hidden-activation", "crelu"];
    let log = succeeded(&train(&data, &clipped, "7", &args));
    assert!(log.contains("-> 16 crelu -> 1"), "{log}");
    assert!(succeeded(&chariot(&["nnue", "check", s(&grown)])).contains("Hidden layers: 16"));
    // A net with hidden layers keeps its shape.
    let err = refused(&train(&data, &dir.join("no.nnue"), "7", &["--init", s(&a), "--hidden", "16"]));
    assert!(err.contains("the shape of a net with hidden layers"), "{err}");
    let err = refused(&train(&data, &dir.join("no.nnue"), "7", &["--hidden", "16,24"]));
    assert!(err.contains("hidden layer 2 of 24 neurons"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `chariot nnue loss` output line of the net at `net`: its float and quantised losses.
fn net_losses(stdout: &str, net: &Path) -> (f64, f64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("{}: float ", net.display())))
        .unwrap_or_else(|| panic!("no line for {} in:\n{stdout}", net.display()));
    let number_after = |word: &str| -> f64 {
        let rest = &line[line.find(word).unwrap() + word.len()..];
        rest.split([',', ' ']).next().unwrap().parse().unwrap()
    };
    (number_after("float "), number_after("quantised "))
}

#[test]
fn nnue_loss_is_zero_for_the_net_that_scored_the_data_and_positive_for_another() {
    let dir = scratch("loss");
    let (scorer, other) = (dir.join("scorer.nnue"), dir.join("other.nnue"));
    for (net, seed) in [(&scorer, "1"), (&other, "2")] {
        succeeded(&chariot(&["nnue", "random", "--width", "32", "--seed", seed, "--out", s(net)]));
    }
    let net = format::load(&scorer).unwrap();
    let data = dir.join("scored.bin");
    // Scored by the scorer's own evaluation: with the score alone as the target (λ = 1) its
    // prediction is the target wherever the score was not clamped.
    write_data(&data, 3, &random_games(30, 40, 5), |pos| net.evaluate(pos));
    let args = |threads: &str| {
        let args = ["nnue", "loss", "--data", s(&data), "--lambda", "1", "--k", "400", "--threads", threads];
        chariot(&[&args[..], &[s(&scorer), s(&other)]].concat())
    };
    let out = succeeded(&args("1"));
    assert!(out.contains("Target: lambda 1, K 400.0 (given)"), "{out}");
    let (float, quantised) = net_losses(&out, &scorer);
    assert_eq!(quantised, 0.0, "{out}");
    assert!(float < 1e-5, "the float net is the quantised one up to rounding: {out}");
    let (other_float, other_quantised) = net_losses(&out, &other);
    assert!(other_float > 1e-3 && other_quantised > 1e-3, "{out}");
    assert_eq!(succeeded(&args("2")), out, "the losses do not depend on the threads");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nnue_loss_refuses_bad_nets_data_and_numbers_before_measuring() {
    let dir = scratch("loss-refused");
    let data = selfplay_data(&dir, 4, 6);
    let loss = |extra: &[&str]| chariot(&[&["nnue", "loss", "--data", s(&data)][..], extra].concat());
    // The built-in net without a net named.
    assert!(succeeded(&loss(&[])).contains("the built-in net: float "));

    let not_a_net = dir.join("not-a-net.nnue");
    std::fs::write(&not_a_net, b"this is not a net").unwrap();
    assert!(refused(&loss(&[s(&not_a_net)])).contains("not-a-net.nnue"));
    assert!(refused(&loss(&["--lambda", "2"])).contains("--lambda 2 (a number in [0, 1])"));
    assert!(refused(&loss(&["--k=-5"])).contains("--k -5 (centipawns, 1 to 100000)"));
    assert!(refused(&loss(&["--threads", "0"])).contains("--threads 0"));

    let mut damaged = std::fs::read(&data).unwrap();
    damaged[record_offset(10) + 12] = 0;
    let damaged_path = dir.join("damaged.bin");
    std::fs::write(&damaged_path, &damaged).unwrap();
    let err = refused(&chariot(&["nnue", "loss", "--data", s(&damaged_path)]));
    assert!(err.contains("damaged.bin: record 10 at byte offset 440: piece code 0"), "{err}");

    // A header and the first two records of an unfinished game: nothing to measure.
    let unfinished = dir.join("unfinished.bin");
    std::fs::write(&unfinished, &std::fs::read(&data).unwrap()[..record_offset(2)]).unwrap();
    let err = refused(&chariot(&["nnue", "loss", "--data", s(&unfinished)]));
    assert!(err.contains("no complete game in") && err.contains("unfinished.bin"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
