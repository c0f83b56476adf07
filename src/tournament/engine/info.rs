//! What an engine's lines say: the options its handshake declares, and the score, depth and
//! win/draw/loss chances of its `info` lines.

use crate::winrate::WdlPerMille;

/// The names of the option that makes an engine print `wdl W D L`: UCI's `UCI_ShowWDL`, and
/// Chariot's UCCI `showwdl`. Either is recognised in either protocol, regardless of case (UCI
/// option names are not case-sensitive).
pub const WDL_OPTIONS: [&str; 2] = ["UCI_ShowWDL", "showwdl"];

/// Whether `name` names the option that turns on `wdl` in info lines.
pub fn is_wdl_option(name: &str) -> bool {
    WDL_OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(name))
}

/// The name an `option` line declares: UCI `option name N… type …`, UCCI `option N type …`.
pub(super) fn option_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("option") {
        return None;
    }
    match words.next()? {
        "name" => {
            let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
            (!name.is_empty()).then(|| name.join(" "))
        }
        name => Some(name.to_string()),
    }
}

/// The words of an `info` line up to `string`, whose free text runs to the end of the line and
/// may hold any word.
fn info_words(line: &str) -> Vec<&str> {
    line.split_whitespace().take_while(|w| *w != "string").collect()
}

/// The score and depth of an `info` line: UCI `score cp X` / `score mate N`, UCCI `score X`.
pub fn parse_info(line: &str) -> (Option<i32>, Option<u32>) {
    let words = info_words(line);
    let after = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1..));
    let depth = after("depth").and_then(|rest| rest.first()?.parse().ok());
    let score = after("score").and_then(|rest| match rest {
        ["cp", v, ..] => v.parse().ok(),
        ["mate", n, ..] => {
            let n: i32 = n.parse().ok()?;
            Some(if n > 0 { 30_000 - n } else { -30_000 - n })
        }
        [v, ..] => v.parse().ok(),
        [] => None,
    });
    (score, depth)
}

/// The `wdl W D L` of an `info` line (per mille, the engine's own side's view), the same in UCI
/// and UCCI. Anything but three whole numbers that add up to 1000 is not a win/draw/loss: `None`.
pub fn parse_wdl(line: &str) -> Option<WdlPerMille> {
    let words = info_words(line);
    let at = words.iter().position(|w| *w == "wdl")?;
    let numbers: [&str; 3] = words.get(at + 1..at + 4)?.try_into().ok()?;
    let [win, draw, loss] = numbers.map(|n| n.parse::<u32>().ok());
    let (win, draw, loss) = (win?, draw?, loss?);
    (u64::from(win) + u64::from(draw) + u64::from(loss) == 1000).then_some(WdlPerMille { win, draw, loss })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::winrate::WdlPerMille;

    #[test]
    fn info_lines() {
        assert_eq!(
            parse_info("info depth 6 seldepth 6 multipv 1 score cp -134 upperbound nodes 2000"),
            (Some(-134), Some(6))
        );
        assert_eq!(parse_info("info depth 9 score 35 pv h2e2"), (Some(35), Some(9)));
        assert_eq!(parse_info("info depth 3 score mate 2 pv a0a1"), (Some(29_998), Some(3)));
        assert_eq!(parse_info("info depth 3 score mate -1"), (Some(-29_999), Some(3)));
        assert_eq!(parse_info("info string hello"), (None, None));
        assert_eq!(parse_info("info depth x score cp y"), (None, None));
    }

    #[test]
    fn wdl_on_info_lines() {
        let wdl = |win, draw, loss| Some(WdlPerMille { win, draw, loss });
        // UCI (Chariot, Pikafish, Stockfish): after the score and its bound.
        let uci =
            "info depth 12 seldepth 18 multipv 1 score cp 250 lowerbound wdl 900 80 20 nodes 5000 pv h2e2";
        assert_eq!(parse_wdl(uci), wdl(900, 80, 20));
        assert_eq!(parse_info(uci), (Some(250), Some(12)));
        // UCCI (Chariot with `showwdl`): after the bare score.
        let ucci = "info depth 9 score -35 wdl 120 500 380 pv h2e2 h9g7";
        assert_eq!(parse_wdl(ucci), wdl(120, 500, 380));
        assert_eq!(parse_info(ucci), (Some(-35), Some(9)));
        assert_eq!(parse_wdl("info depth 3 score mate 2 wdl 1000 0 0 pv a0a1"), wdl(1000, 0, 0));
        // Malformed: ignored, not a guess.
        for bad in [
            "info depth 9 score 35 pv h2e2",
            "info depth 9 score 35 wdl 900 80 pv h2e2",
            "info depth 9 score 35 wdl 900 80",
            "info depth 9 score 35 wdl 900 80 21 pv h2e2",
            "info depth 9 score 35 wdl 90.0 8.0 2.0",
            "info depth 9 score 35 wdl -100 1000 100",
            "info depth 9 score 35 wdl 4294967295 1 1000",
            "info depth 9 score 35 wdl 4294967296 0 0",
            "info depth 9 score 35 wdl win draw loss",
            "info depth 9 score 35 wdl",
        ] {
            assert_eq!(parse_wdl(bad), None, "{bad}");
        }
        // Free text after `string` is no report.
        assert_eq!(parse_wdl("info string wdl 900 80 20"), None);
        assert_eq!(parse_info("info string depth 5 score 300"), (None, None));
        assert_eq!(
            parse_wdl("info depth 2 score 10 wdl 400 300 300 string wdl 1000 0 0"),
            wdl(400, 300, 300)
        );
    }

    #[test]
    fn options_offered_in_the_handshake() {
        assert_eq!(
            option_name("option name UCI_ShowWDL type check default false").as_deref(),
            Some("UCI_ShowWDL")
        );
        assert_eq!(option_name("option showwdl type check default false").as_deref(), Some("showwdl"));
        assert_eq!(option_name("option name Clear Hash type button").as_deref(), Some("Clear Hash"));
        assert_eq!(option_name("id name option"), None);
        assert_eq!(option_name("option name type check"), None);
        assert!(is_wdl_option("uci_showwdl") && is_wdl_option("ShowWDL") && is_wdl_option("showwdl"));
        assert!(!is_wdl_option("UCI_ShowWDL2") && !is_wdl_option("Clear Hash"));
    }
}
