//! `chariot nnue winrate`: fits the win-rate model of an evaluation to scored games
//! (`datagen --scored` files played and scored with that evaluation), prints it with the
//! per-material fits behind it, and writes a net that carries it.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use super::eval_source::EvalSource;
use crate::datagen::format::Wdl;
use crate::datagen::reader::DataReader;
use crate::eval::nnue::{embedded, format};
use crate::eval::EvalChoice;
use crate::winrate::{self, FitOptions, Outcome, Sample, WinRateModel};

/// Arguments of `chariot nnue winrate`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct WinRateArgs {
    /// A scored data file whose games the evaluation played and scored; repeat for several.
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// Write the net (the built-in one, or `--evalfile`'s) with the fitted model to this file.
    #[arg(short, long, value_name = "NET", conflicts_with = "classic")]
    pub out: Option<PathBuf>,
    /// Positions a material level needs before it is fitted.
    #[arg(long, default_value_t = FitOptions::default().min_per_level)]
    pub min_per_level: usize,
    /// The evaluation the data was scored with: the built-in net, `--evalfile NET` or `--classic`.
    #[command(flatten)]
    pub eval: EvalSource,
}

/// Records read at a time.
const CHUNK: usize = 1 << 16;

/// The scored positions of `paths` as fitting samples.
fn samples(paths: &[PathBuf]) -> Result<Vec<Sample>> {
    samples_in_chunks(paths, CHUNK)
}

/// [`samples`], reading `chunk_len` records at a time.
fn samples_in_chunks(paths: &[PathBuf], chunk_len: usize) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    let mut chunk = Vec::new();
    for path in paths {
        let mut reader = DataReader::open(path)?;
        // `read_chunk` appends: each chunk starts empty, or the earlier ones would count again.
        while {
            chunk.clear();
            reader.read_chunk(&mut chunk, chunk_len)? > 0
        } {
            samples.extend(chunk.iter().map(|record| Sample {
                score: record.score() as i32,
                outcome: match record.result() {
                    Wdl::Win => Outcome::Win,
                    Wdl::Draw => Outcome::Draw,
                    Wdl::Loss => Outcome::Loss,
                },
                material: winrate::material_of(record.pieces().map(|(_, _, kind)| kind)),
            }));
        }
    }
    Ok(samples)
}

/// The model as Rust source, for the classic evaluation's `eval/classic/win_rate.rs`.
pub fn as_rust(model: &WinRateModel) -> String {
    let list = |c: &[f64; 4]| c.iter().map(|v| format!("{v:.3}")).collect::<Vec<_>>().join(", ");
    format!("WinRateModel {{ a: [{}], b: [{}] }}", list(&model.a), list(&model.b))
}

/// Runs `chariot nnue winrate`.
pub fn run(args: &WinRateArgs, out: &mut impl Write) -> Result<()> {
    let samples = samples(&args.data)?;
    let options = FitOptions { min_per_level: args.min_per_level, ..FitOptions::default() };
    let fit = winrate::fit(&samples, options).with_context(|| format!("{} positions read", samples.len()))?;
    writeln!(out, "{} positions; {} material levels fitted", samples.len(), fit.levels.len())?;
    writeln!(out, "material  positions        a        b   fitted a   fitted b")?;
    for level in &fit.levels {
        let (a, b) = fit.model.parameters(level.material);
        writeln!(
            out,
            "{:>8} {:>10} {:>8.1} {:>8.1} {:>10.1} {:>10.1}",
            level.material, level.count, level.a, level.b, a, b
        )?;
    }
    writeln!(out, "model: {}", as_rust(&fit.model))?;
    let (a, b) = fit.model.parameters(winrate::MATERIAL_SCALE as u32);
    writeln!(
        out,
        "at the start's material: 50% to win at {a:.0} internal units (that is +100), slope {b:.0}"
    )?;
    let choice = args.eval.choice()?;
    if let Some(path) = &args.out {
        let net = match &choice {
            EvalChoice::Nnue(net) => net.as_ref().clone(),
            EvalChoice::Classic => {
                bail!("--classic has no net to write: paste the model into eval/classic/win_rate.rs")
            }
        };
        format::save(&net.with_win_rate(fit.model), path)?;
        writeln!(out, "Wrote {}", path.display())?;
    } else if let EvalChoice::Nnue(net) = &choice {
        let which = if embedded::is_built_in(net) { "the built-in net" } else { "the net" };
        writeln!(out, "{which} carries: {}", as_rust(net.win_rate()))?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{movegen, Position};
    use crate::datagen::format::{Header, Record};
    use crate::datagen::games::GameEnd;

    #[test]
    fn every_record_is_one_sample_whatever_the_chunk_size() {
        let dir = std::env::temp_dir().join(format!("chariot-winrate-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.bin");
        let mut bytes = Header::whole(1, 1, 0).to_bytes().to_vec();
        // One game along the first legal move, each position not in check kept with a score.
        let mut pos = Position::startpos();
        let mut kept = Vec::new();
        for _ in 0..16 {
            let best = movegen::legal_moves(&mut pos).as_slice()[0];
            if !pos.is_check() {
                kept.push((pos.clone(), best));
            }
            pos.make_move(best);
        }
        let count = kept.len() as i32;
        for (i, (pos, best)) in (0..).zip(&kept) {
            let mut record = Record::new(pos, 10 * i, *best);
            record.finish(0, GameEnd::DrawAdjudicated, None, i + 1 == count);
            bytes.extend_from_slice(record.as_bytes());
        }
        std::fs::write(&path, &bytes).unwrap();
        for chunk_len in [1, 3, 64] {
            let samples = samples_in_chunks(std::slice::from_ref(&path), chunk_len).unwrap();
            let scores: Vec<i32> = samples.iter().map(|s| s.score).collect();
            assert_eq!(scores, (0..count).map(|i| 10 * i).collect::<Vec<_>>(), "chunks of {chunk_len}");
            assert!(samples.iter().all(|s| s.outcome == Outcome::Draw));
            let materials: Vec<u32> = kept.iter().map(|(p, _)| winrate::material(p)).collect();
            assert_eq!(samples.iter().map(|s| s.material).collect::<Vec<_>>(), materials);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
