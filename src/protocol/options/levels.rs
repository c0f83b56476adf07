//! UCCI's four-step combo scale (`none`, `small`, `medium`, `large`) and what each step means for
//! the options that use it: `pruning` (search features), `knowledge` (evaluation term groups)
//! and `randomness` (the choice among book moves).

use crate::eval::TermSet;
use crate::search::SearchFeatures;

/// The four-step scale of UCCI's combo options.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// none
    None,
    /// small
    Small,
    /// medium
    Medium,
    /// large
    Large,
}

/// The levels' names, in the order of `Level` (a combo's choices).
pub(super) const LEVELS: &[&str] = &["none", "small", "medium", "large"];

impl Level {
    /// The level at `index` of `LEVELS` (the last one past the end).
    pub(super) fn at(index: usize) -> Level {
        match index {
            0 => Level::None,
            1 => Level::Small,
            2 => Level::Medium,
            _ => Level::Large,
        }
    }

    /// The level as the option writes it.
    pub fn name(self) -> &'static str {
        LEVELS[self as usize]
    }

    /// The book's `randomness` for this level (see `book::choose`).
    pub fn book_randomness(self) -> f64 {
        match self {
            Level::None => 0.0,
            Level::Small => 0.5,
            Level::Medium => 1.5,
            Level::Large => 4.0,
        }
    }
}

/// UCCI's `knowledge` scale over the evaluation's term groups, the groups measured to be worth the
/// most (docs/strength.md, "What each feature and term is worth") coming on first: none (material
/// and piece-square tables alone), small (the cannon terms and mobility), medium (also attacker
/// pairs near the king and connected pawns), large (everything, also king safety).
pub(super) fn terms_for_knowledge(level: Level) -> TermSet {
    TermSet {
        cannons: level >= Level::Small,
        mobility: level >= Level::Small,
        king_attack: level >= Level::Medium,
        pawns: level >= Level::Medium,
        king_safety: level >= Level::Large,
    }
}

/// The features on in both `a` and `b` (every field named, so a new feature cannot be missed).
pub(super) fn features_in_both(a: SearchFeatures, b: SearchFeatures) -> SearchFeatures {
    let SearchFeatures {
        null_move,
        reverse_futility,
        futility,
        late_move_pruning,
        late_move_reductions,
        check_extension,
        quiescence_pruning,
        mate_distance_pruning,
    } = a;
    SearchFeatures {
        null_move: null_move && b.null_move,
        reverse_futility: reverse_futility && b.reverse_futility,
        futility: futility && b.futility,
        late_move_pruning: late_move_pruning && b.late_move_pruning,
        late_move_reductions: late_move_reductions && b.late_move_reductions,
        check_extension: check_extension && b.check_extension,
        quiescence_pruning: quiescence_pruning && b.quiescence_pruning,
        mate_distance_pruning: mate_distance_pruning && b.mate_distance_pruning,
    }
}

/// The term groups on in both `a` and `b` (every field named, as above).
pub(super) fn terms_in_both(a: TermSet, b: TermSet) -> TermSet {
    let TermSet { king_safety, cannons, mobility, pawns, king_attack } = a;
    TermSet {
        king_safety: king_safety && b.king_safety,
        cannons: cannons && b.cannons,
        mobility: mobility && b.mobility,
        pawns: pawns && b.pawns,
        king_attack: king_attack && b.king_attack,
    }
}
