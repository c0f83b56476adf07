//! Writes a weight vector as the Rust source of `src/eval/classic/weights.rs`: the same public names and
//! types, so the crate compiles unchanged with tuned values. Weights are rounded to integers; the
//! fixed constants (phase, attack force, rook mobility base, tempo) are copied as they are now.

use std::fmt::Write;

use crate::board::PieceKind;
use crate::eval::classic::weights::{
    ATTACK_FORCE, CANNON_MOBILITY_BASE, HORSE_MOBILITY_BASE, MAX_PHASE, PHASE, ROOK_MOBILITY_BASE, TEMPO,
};

use super::layout::{self, Term};

/// The weight pair `pair` of `w`, rounded.
fn pair(w: &[f64], pair: usize) -> (i32, i32) {
    (w[2 * pair].round() as i32, w[2 * pair + 1].round() as i32)
}

/// The table constant's name, e.g. `HORSE_MG`.
fn table_name(kind: PieceKind, eg: bool) -> String {
    format!("{}_{}", kind.name().to_ascii_uppercase(), if eg { "EG" } else { "MG" })
}

/// One 90-entry table (rank 9 row first), unfolded so it is left-right symmetric.
fn table(w: &[f64], kind: PieceKind, eg: bool) -> [i32; 90] {
    let mut t = [0; 90];
    for row in 0..10 {
        for file in 0..9 {
            let (mg, egv) = pair(w, layout::pst(kind, row, file));
            t[row * 9 + file] = if eg { egv } else { mg };
        }
    }
    t
}

/// The source text of a `weights.rs` holding `w` (a vector in `layout`'s order).
pub fn weights_source(w: &[f64]) -> String {
    assert_eq!(w.len(), layout::WEIGHTS, "weight vector of the wrong length");
    let mut s = String::new();
    s.push_str(
        "//! Every evaluation weight, in one place, so that tuning can rewrite this file whole.\n\
         //! Written by `chariot tune` (Texel's method on self-play results).\n\
         //!\n\
         //! Piece-square tables are written as the board looks from Red's side: the first row is rank 9\n\
         //! (Black's back rank), the last row rank 0 (Red's back rank), files `a`..`i` left to right.\n\
         //! Black uses the same tables flipped top to bottom. Values are centipawn-like.\n\n\
         use super::score::Score;\n\n\
         /// Material per kind (king, advisor, elephant, horse, rook, cannon, pawn).\n\
         pub const MATERIAL: [Score; 7] = [\n",
    );
    for kind in PieceKind::ALL {
        let (mg, eg) = pair(w, layout::material(kind));
        let _ = writeln!(s, "    Score::new({mg}, {eg}),");
    }
    s.push_str("];\n\n");
    let _ = writeln!(
        s,
        "/// Phase weight per kind: the sum over the pieces on the board, over `MAX_PHASE`, is the\n\
         /// middlegame share of the tapered evaluation.\n\
         pub const PHASE: [i32; 7] = {PHASE:?};\n\
         /// The phase of the full starting material.\n\
         pub const MAX_PHASE: i32 = {MAX_PHASE};\n"
    );
    for kind in PieceKind::ALL {
        for eg in [false, true] {
            let t = table(w, kind, eg);
            let _ = writeln!(s, "#[rustfmt::skip]\nconst {}: [i32; 90] = [", table_name(kind, eg));
            for row in t.chunks(9) {
                let cells: Vec<String> = row.iter().map(|v| format!("{v:>4},")).collect();
                let _ = writeln!(s, "   {}", cells.join(""));
            }
            s.push_str("];\n");
        }
    }
    for (eg, phase) in [(false, "Middlegame"), (true, "Endgame")] {
        let names: Vec<String> = PieceKind::ALL.iter().map(|&k| table_name(k, eg)).collect();
        let _ = writeln!(
            s,
            "\n/// {phase} piece-square tables, by kind, Red's view.\n\
             pub const PST_{}: [[i32; 90]; 7] = [{}];",
            if eg { "EG" } else { "MG" },
            names.join(", ")
        );
    }
    let doc = |t: Term| match t {
        Term::MissingAdvisor => "Per missing advisor, per unit of enemy attacking force (`ATTACK_FORCE`).",
        Term::MissingElephant => "Per missing elephant, per unit of enemy attacking force.",
        Term::EmptyScreenCannon => "A cannon facing the enemy king on an open file with no screen (空头炮).",
        Term::BottomCannon => "A cannon on the enemy back rank, on the king's rank (沉底炮).",
        Term::TrappedHorse => "A horse with no square to go to (leg blocked or own pieces on all targets).",
        Term::CrampedHorse => "A horse with exactly one square to go to.",
        Term::RookMobility => "Per square a rook can reach (moves and captures).",
        Term::HorseMobility => "Per square a horse can reach.",
        Term::CannonMobility => "Per square a cannon can reach (moves, and captures over a screen).",
        Term::ConnectedPawns => "Per pair of crossed pawns side by side.",
        Term::ScreenedCannon => {
            "A cannon on the enemy king's file with two pieces between: one moving away gives check (中炮)."
        }
        Term::KingAttack => {
            "Per pair of attackers (rooks, horses, cannons, crossed pawns) in the enemy king's zone."
        }
    };
    s.push('\n');
    for t in Term::ALL {
        let (mg, eg) = pair(w, layout::term(t));
        let _ = writeln!(s, "/// {}\npub const {}: Score = Score::new({mg}, {eg});", doc(t), t.name());
        if t == Term::MissingElephant {
            let _ = writeln!(
                s,
                "/// Attacking force of an enemy rook, horse and cannon (other kinds: 0), by kind index.\n\
                 pub const ATTACK_FORCE: [i32; 7] = {ATTACK_FORCE:?};"
            );
        }
    }
    let _ = writeln!(
        s,
        "/// Rook mobility is counted relative to this typical value.\n\
         pub const ROOK_MOBILITY_BASE: i32 = {ROOK_MOBILITY_BASE};\n\
         /// Horse mobility is counted relative to this typical value.\n\
         pub const HORSE_MOBILITY_BASE: i32 = {HORSE_MOBILITY_BASE};\n\
         /// Cannon mobility is counted relative to this typical value.\n\
         pub const CANNON_MOBILITY_BASE: i32 = {CANNON_MOBILITY_BASE};\n\
         /// For the side to move.\n\
         pub const TEMPO: i32 = {TEMPO};"
    );
    s
}
