//! `chariot show [--fen FEN] [--moves M1 M2 …] [--flip]`: the board drawn in the terminal with
//! Chinese piece characters, both sides' file numbers and the last move marked.
//!
//! The drawing (`draw_board`, in `notation::diagram`) is shared with `chariot play` and the
//! protocol's `d`.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use super::common::{setup_position, write_file};
pub use crate::notation::diagram::{describe_position, draw_board};
use crate::notation::parse_move;
use crate::svg::{board_svg, BoardPicture};

/// Arguments of `chariot show`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct ShowArgs {
    /// Position to draw, as one quoted argument (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, in ICCS, WXF or Chinese notation (e.g. `--moves h2e2 马8进7`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Draw the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Also write the board as an SVG picture to this file (any browser opens it).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// With `--svg`: draw an arrow for this move (any notation), for example the best move.
    #[arg(long, value_name = "MOVE", requires = "svg")]
    pub arrow: Option<String>,
}

/// Draws the position `args` describe on `out`, in colour when `color`.
pub fn run(args: &ShowArgs, out: &mut impl Write, color: bool) -> Result<()> {
    let pos = setup_position(args.fen.as_deref(), &args.moves)?;
    if let Some(path) = &args.svg {
        let arrow = match &args.arrow {
            Some(text) => Some(
                parse_move(&pos, text)
                    .map_err(|e| anyhow::anyhow!("--arrow '{text}' is not a legal move here: {e}"))?,
            ),
            None => None,
        };
        let picture = BoardPicture { flipped: args.flip, arrow, caption: None };
        write_file(path, &board_svg(&pos, &picture))?;
    }
    write!(out, "{}", draw_board(&pos, args.flip, color))?;
    write!(out, "{}", describe_position(&pos))?;
    out.flush()?;
    Ok(())
}
