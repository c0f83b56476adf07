//! Search output as each dialect writes it, and the `debug` line of the search's time budget.

use crate::board::Move;
use crate::search::score_scale::ScoreScale;
use crate::search::{Info, ScoreBound, TimeBudget};

use super::dialect::Dialect;

fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// How a search's scores are written: on which scale, and whether with win/draw/loss chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreStyle {
    /// The root position's scale (the evaluation's win-rate model at its material).
    pub scale: ScoreScale,
    /// `showwdl` / `UCI_ShowWDL`: add `wdl W D L` (per mille, side to move's view).
    pub wdl: bool,
}

impl ScoreStyle {
    /// ` wdl W D L` when asked for, else nothing.
    fn wdl_words(&self, score: i32) -> String {
        if !self.wdl {
            return String::new();
        }
        let wdl = self.scale.wdl(score);
        format!(" wdl {} {} {}", wdl.win, wdl.draw, wdl.loss)
    }
}

/// The lines that report `info` in `dialect` (possibly none), scores written in `style`.
pub fn info_lines(dialect: Dialect, info: &Info, style: &ScoreStyle) -> Vec<String> {
    match (dialect, info) {
        (Dialect::Ucci, Info::Iteration(it)) => {
            // UCCI has no bound notation: only exact results are reported.
            if it.bound != ScoreBound::Exact {
                return vec![];
            }
            vec![
                format!(
                    "info depth {} score {}{} pv {}",
                    it.depth,
                    style.scale.shown_cp(it.score),
                    style.wdl_words(it.score),
                    moves_text(&it.pv)
                ),
                format!("info time {} nodes {}", it.time_ms, it.nodes),
            ]
        }
        (Dialect::Uci, Info::Iteration(it)) => {
            let score = style.scale.shown(it.score);
            let bound = match it.bound {
                ScoreBound::Exact => "",
                ScoreBound::Lower => " lowerbound",
                ScoreBound::Upper => " upperbound",
            };
            vec![format!(
                "info depth {} seldepth {} multipv {} score {score}{bound}{} nodes {} nps {} hashfull {} time {} pv {}",
                it.depth,
                it.seldepth,
                it.multipv,
                style.wdl_words(it.score),
                it.nodes,
                it.nps,
                it.hashfull,
                it.time_ms,
                moves_text(&it.pv)
            )]
        }
        (Dialect::Ucci, Info::CurrMove { mv, .. }) => vec![format!("info currmove {mv}")],
        (Dialect::Uci, Info::CurrMove { mv, number, depth }) => {
            vec![format!("info depth {depth} currmove {mv} currmovenumber {number}")]
        }
        (Dialect::Ucci, Info::Progress { nodes, time_ms, .. }) => {
            vec![format!("info time {time_ms} nodes {nodes}")]
        }
        (Dialect::Uci, Info::Progress { nodes, nps, time_ms, hashfull }) => {
            vec![format!("info nodes {nodes} nps {nps} hashfull {hashfull} time {time_ms}")]
        }
        // Neither dialect has a word for it: `budget_line` tells it when `debug` is on.
        (_, Info::TimeBudget(_)) => vec![],
    }
}

/// The `debug` line of the thinking time a search starts with (`None`: no clock limits it);
/// `ponder`: the clock starts at `ponderhit`.
pub fn budget_line(budget: Option<TimeBudget>, ponder: bool) -> String {
    let Some(budget) = budget else {
        return "info string time budget: none, no clock limits this search".to_string();
    };
    let from = if ponder { ", counted from ponderhit" } else { "" };
    format!("info string time budget: soft {} ms, hard {} ms{from}", budget.soft_ms, budget.hard_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::search::score::MATE;
    use crate::search::IterationInfo;
    use crate::winrate::WinRateModel;

    fn iteration(score: i32, bound: ScoreBound) -> Info {
        Info::Iteration(IterationInfo {
            depth: 7,
            seldepth: 12,
            multipv: 1,
            score,
            bound,
            nodes: 5000,
            nps: 100_000,
            time_ms: 50,
            hashfull: 3,
            pv: vec![Move::parse_iccs("h2e2").unwrap(), Move::parse_iccs("h9g7").unwrap()],
        })
    }

    /// A scale on which 50 internal units are +100 at every material.
    fn style(wdl: bool) -> ScoreStyle {
        let scale = ScoreScale::new(WinRateModel::constant(50.0, 40.0), &Position::startpos());
        ScoreStyle { scale, wdl }
    }

    #[test]
    fn dialects_write_their_own_forms_on_the_normalised_scale() {
        let plain = style(false);
        assert_eq!(
            info_lines(Dialect::Ucci, &iteration(35, ScoreBound::Exact), &plain),
            ["info depth 7 score 70 pv h2e2 h9g7", "info time 50 nodes 5000"]
        );
        assert!(info_lines(Dialect::Ucci, &iteration(35, ScoreBound::Lower), &plain).is_empty());
        assert_eq!(
            info_lines(Dialect::Uci, &iteration(MATE - 3, ScoreBound::Exact), &plain),
            ["info depth 7 seldepth 12 multipv 1 score mate 2 nodes 5000 nps 100000 hashfull 3 time 50 pv h2e2 h9g7"]
        );
        assert!(info_lines(Dialect::Uci, &iteration(-20, ScoreBound::Upper), &plain)[0]
            .contains("score cp -40 upperbound nodes"));
    }

    #[test]
    fn wdl_follows_the_score_when_asked_for() {
        let with_wdl = style(true);
        let line = &info_lines(Dialect::Uci, &iteration(50, ScoreBound::Exact), &with_wdl)[0];
        assert!(line.contains("score cp 100 wdl 500 "), "{line}");
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").unwrap();
        let wdl: Vec<u32> = words[at + 1..at + 4].iter().map(|w| w.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        let ucci = info_lines(Dialect::Ucci, &iteration(MATE - 1, ScoreBound::Exact), &with_wdl);
        assert!(ucci[0].contains(" wdl 1000 0 0 pv"), "{ucci:?}");
    }

    #[test]
    fn the_time_budget_is_a_debug_line_of_its_own() {
        let budget = Some(TimeBudget { soft_ms: 18, hard_ms: 90 });
        assert!(info_lines(Dialect::Uci, &Info::TimeBudget(budget), &style(true)).is_empty());
        assert_eq!(budget_line(budget, false), "info string time budget: soft 18 ms, hard 90 ms");
        assert!(budget_line(budget, true).ends_with("hard 90 ms, counted from ponderhit"));
        assert_eq!(budget_line(None, true), "info string time budget: none, no clock limits this search");
    }
}
