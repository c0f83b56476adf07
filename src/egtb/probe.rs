//! `Tablebases`: the tables of one folder in memory, asked about positions: a position's value,
//! and the moves that keep it. A position whose material has no table gets no verdict.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::binary::FileError;
use crate::board::{movegen, Color, Move, PieceKind, Position, Square};

use super::format::{Table, EXTENSION};
use super::index::{Placement, MAX_PIECES};
use super::signature::Signature;
use super::value::Value;

/// Why a folder of tables could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The folder could not be listed.
    Folder(PathBuf, std::io::Error),
    /// A table file was refused.
    File(FileError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Folder(dir, e) => {
                write!(f, "cannot read the tablebase folder '{}': {e}", dir.display())
            }
            LoadError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// A piece on the board: colour, kind, square.
pub type PlacedPiece = (Color, PieceKind, Square);

/// Tables by canonical signature.
#[derive(Default)]
pub struct Tablebases {
    tables: HashMap<Signature, Table>,
    max_pieces: usize,
}

/// One move and the value it leads to, for the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// The mover's value after it (the child's value seen from the mover).
    pub value: Value,
}

impl Tablebases {
    /// No tables.
    pub fn new() -> Tablebases {
        Tablebases::default()
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.max_pieces = self.max_pieces.max(table.layout().pieces());
        self.tables.insert(table.signature(), table);
    }

    /// The table of a canonical signature.
    pub fn table(&self, signature: &Signature) -> Option<&Table> {
        self.tables.get(signature)
    }

    /// How many tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The signatures held, in order.
    pub fn signatures(&self) -> Vec<Signature> {
        let mut s: Vec<Signature> = self.tables.keys().copied().collect();
        s.sort();
        s
    }

    /// The most pieces any table holds (kings included); 0 when empty.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The signatures of the table files in `dir` (files named `SIGNATURE.egtb`), sorted.
    pub fn files_in(dir: &Path) -> Result<Vec<(Signature, PathBuf)>, LoadError> {
        let entries = std::fs::read_dir(dir).map_err(|e| LoadError::Folder(dir.to_path_buf(), e))?;
        let mut found = Vec::new();
        for entry in entries {
            let path = entry.map_err(|e| LoadError::Folder(dir.to_path_buf(), e))?.path();
            if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
                continue;
            }
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            if let Ok(sig) = stem.parse::<Signature>() {
                found.push((sig, path));
            }
        }
        found.sort();
        Ok(found)
    }

    /// Loads every table file in `dir`; one refused file refuses the folder, naming it.
    pub fn load_dir(dir: &Path) -> Result<Tablebases, LoadError> {
        let mut set = Tablebases::new();
        for (sig, path) in Tablebases::files_in(dir)? {
            set.insert(Table::load(&path, sig).map_err(LoadError::File)?);
        }
        Ok(set)
    }

    /// The value of the position of `pieces` with `side` to move; `None` when no table holds
    /// that material or the placement is no position.
    pub fn probe_pieces(&self, pieces: &[PlacedPiece], side: Color) -> Option<Value> {
        if pieces.len() > self.max_pieces || pieces.len() > MAX_PIECES {
            return None;
        }
        let mut sig = Signature::BARE_KINGS;
        for &(color, kind, _) in pieces {
            if kind != PieceKind::King {
                sig = sig.with(color, kind)?;
            }
        }
        let (canonical, flipped) = sig.canonical();
        let table = self.tables.get(&canonical)?;
        let layout = table.layout();
        let mut placement = Placement { squares: [Square::NONE; MAX_PIECES], side };
        let mut filled = [false; MAX_PIECES];
        for &(color, kind, sq) in pieces {
            let (color, sq) = if flipped { (color.opponent(), sq.flip_ranks()) } else { (color, sq) };
            let slot = layout.slots_of(color, kind).find(|&s| !filled[s])?;
            filled[slot] = true;
            placement.squares[slot] = sq;
        }
        if flipped {
            placement.side = side.opponent();
        }
        table.value(layout.index(&placement)?)
    }

    /// The value of `pos` for its side to move, or `None` without a table for its material.
    /// Cheap when the position has more pieces than any table.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if self.tables.is_empty() {
            return None;
        }
        let mut pieces = [(Color::Red, PieceKind::King, Square::NONE); MAX_PIECES];
        let mut n = 0;
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    if n == self.max_pieces {
                        return None;
                    }
                    pieces[n] = (color, kind, sq);
                    n += 1;
                }
            }
        }
        self.probe_pieces(&pieces[..n], pos.side_to_move())
    }

    /// Every legal move of `pos` with the value it leads to for the mover, best first; `None`
    /// when `pos` or one of its children has no table.
    pub fn scored_moves(&self, pos: &Position) -> Option<Vec<ScoredMove>> {
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for &mv in movegen::legal_moves(&mut pos).iter() {
            pos.make_move(mv);
            let child = self.probe(&pos);
            pos.unmake_move();
            out.push(ScoredMove { mv, value: child?.before() });
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.value.preference()));
        Some(out)
    }

    /// The moves of `pos` that keep its value: for a mate, those on the way to the quickest mate
    /// (or the slowest, when losing); for a rule win, those that make progress towards the
    /// cycle; for a draw, every drawing move; when lost, every move. `None` without a verdict.
    pub fn keeping_moves(&self, pos: &Position) -> Option<(Value, Vec<ScoredMove>)> {
        let value = self.probe(pos)?;
        let moves = self.scored_moves(pos)?;
        let keep: Vec<ScoredMove> = match value {
            Value::Win(_) | Value::Loss(_) | Value::RuleLoss(_) => {
                moves.into_iter().filter(|m| m.value == value).collect()
            }
            Value::RuleWin(0) => {
                let mut pos = pos.clone();
                moves
                    .into_iter()
                    .filter(|m| matches!(m.value, Value::RuleWin(_)) && !pos.gives_check(m.mv))
                    .collect()
            }
            Value::RuleWin(r) => moves
                .into_iter()
                .filter(|m| {
                    matches!(m.value, Value::RuleWin(c) if c <= r) || matches!(m.value, Value::Win(_))
                })
                .collect(),
            Value::Draw => moves.into_iter().filter(|m| m.value == Value::Draw).collect(),
        };
        Some((value, keep))
    }
}
