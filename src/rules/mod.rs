//! Rules: repetition verdicts (perpetual check and chase), the 120-ply rule, material and game
//! results. The one authority on how a game ends; see `docs/rules.md`.

pub mod chase;
pub mod outcome;
pub mod random_play;
pub mod repetition;

pub use chase::{chases, is_chasing_move, Chase, MoveChases, Victims};
pub use outcome::{game_result, insufficient_material, GameResult, Termination, MOVE_LIMIT_PLIES};
pub use random_play::play_random_plies;
pub use repetition::{
    explain_cycle, find_repetition, game_cycle, game_verdict, judge_cycle, search_verdict, CycleMove,
    CycleReport, Verdict,
};
