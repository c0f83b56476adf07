//! The options through their public forms: `setoption` in both dialects and the announcements.

use std::sync::Arc;

use super::table::{Row, ROWS, THREADS_RANGE};
use super::*;
use crate::eval::nnue::format;
use crate::eval::EvalChoice;
use crate::search::skill::{MAX_ELO, MIN_ELO};
use crate::search::{Algorithm, SearchParams};

#[test]
fn usemillisec_switches() {
    let mut options = Options::default();
    assert_eq!(options.set_ucci(&["usemillisec", "true"]), Ok(SetOutcome::Set));
    assert!(options.use_millisec);
    assert!(options.ucci_lines().contains(&"option usemillisec type check default true".to_string()));
    assert_eq!(options.set_ucci(&["usemillisec", "false"]), Ok(SetOutcome::Set));
    assert!(!options.use_millisec);
    // uci2wb (XBoard's adapter) writes checks as 1 and 0.
    assert_eq!(options.set_ucci(&["ponder", "1"]), Ok(SetOutcome::Set));
    assert!(options.ponder);
    assert_eq!(options.set_ucci(&["ponder", "0"]), Ok(SetOutcome::Set));
    assert!(!options.ponder);
    let err = options.set_ucci(&["usemillisec", "maybe"]).unwrap_err().to_string();
    assert!(err.contains("'maybe'"), "{err}");
}

#[test]
fn spins_combos_and_buttons_in_both_dialects() {
    let mut o = Options::default();
    assert_eq!(o.set_ucci(&["hashsize", "16"]), Ok(SetOutcome::Set));
    assert_eq!(o.hash_mb, 16);
    assert_eq!(o.set_uci(&["name", "hash", "value", "32"]), Ok(SetOutcome::Set));
    assert_eq!(o.hash_mb, 32);
    assert_eq!(o.set_uci(&["name", "Move", "Overhead", "value", "10"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().move_overhead_ms, 10);
    assert_eq!(o.set_uci(&["name", "MultiPV", "value", "3"]), Ok(SetOutcome::Set));
    assert_eq!(o.multipv, 3);
    assert_eq!(o.set_ucci(&["threads", "2"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().threads, 2);
    assert_eq!(o.set_ucci(&["algorithm", "mtdf"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().algorithm, Algorithm::Mtdf);
    assert_eq!(o.set_ucci(&["bookfiles", "a.dat;b.dat"]), Ok(SetOutcome::Set));
    assert_eq!(o.book_files, "a.dat;b.dat");
    assert_eq!(o.set_ucci(&["bookfiles", "<empty>"]), Ok(SetOutcome::Set));
    assert_eq!(o.book_files, "");
    assert_eq!(o.set_ucci(&["newgame"]), Ok(SetOutcome::NewGame { stray_value: None }));
    assert_eq!(o.set_uci(&["name", "Clear", "Hash"]), Ok(SetOutcome::NewGame { stray_value: None }));
    // A value after a button is handed back to be reported; the button is pressed all the same.
    assert_eq!(
        o.set_uci(&["name", "Clear", "Hash", "value", "now"]),
        Ok(SetOutcome::NewGame { stray_value: Some("now".into()) })
    );
    assert_eq!(o.set_ucci(&["randomness", "small"]), Ok(SetOutcome::Set));
    assert_eq!(o.randomness, Level::Small);
}

#[test]
fn without_and_pruning_give_the_search_features_when_set() {
    let mut o = Options::default();
    assert_eq!(o.engine().features, SearchFeatures::ALL);
    assert_eq!(o.set_ucci(&["without", "null,", "lmr"]), Ok(SetOutcome::Set));
    let f = o.engine().features;
    assert!(!f.null_move && !f.late_move_reductions, "{f:?}");
    assert!(f.futility && f.late_move_pruning && f.reverse_futility && f.check_extension, "{f:?}");
    // Written back in one canonical form.
    assert!(o.uci_lines().contains(&"option name Without type string default null,lmr".to_string()));
    // `pruning small` keeps null move and check extension; `without null` still takes null move.
    assert_eq!(o.set_ucci(&["pruning", "small"]), Ok(SetOutcome::Set));
    let f = o.engine().features;
    assert!(!f.null_move && f.check_extension && f.mate_distance_pruning, "{f:?}");
    assert!(!f.futility && !f.late_move_pruning && !f.late_move_reductions && !f.reverse_futility);
    assert_eq!(o.set_uci(&["name", "Without", "value", "<empty>"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().features, SearchFeatures::for_level(1));
    assert!(o.engine().features.null_move);
    assert_eq!(o.set_ucci(&["pruning", "none"]), Ok(SetOutcome::Set));
    assert!(!o.engine().features.null_move);
    assert_eq!(o.set_ucci(&["pruning", "large"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().features, SearchFeatures::ALL);
}

#[test]
fn knowledge_and_withoutterms_give_the_evaluation_terms_when_set() {
    let mut o = Options::default();
    assert_eq!(o.engine().terms, TermSet::ALL);
    let levels: Vec<TermSet> = ["none", "small", "medium", "large"]
        .iter()
        .map(|level| {
            assert_eq!(o.set_ucci(&["knowledge", level]), Ok(SetOutcome::Set));
            o.engine().terms
        })
        .collect();
    let none =
        TermSet { king_safety: false, cannons: false, mobility: false, pawns: false, king_attack: false };
    assert_eq!(levels[0], none);
    assert_eq!(levels[1], TermSet { cannons: true, mobility: true, ..none });
    assert_eq!(levels[2], TermSet { king_safety: false, ..TermSet::ALL });
    assert_eq!(levels[3], TermSet::ALL);
    assert_eq!(o.set_uci(&["name", "Without", "Terms", "value", "cannons,pawns"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().terms, TermSet { cannons: false, pawns: false, ..TermSet::ALL });
    assert!(o.ucci_lines().contains(&"option withoutterms type string default cannons,pawns".to_string()));
    assert_eq!(o.set_ucci(&["knowledge", "small"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().terms, TermSet { mobility: true, ..none });
    assert!(o
        .ucci_lines()
        .iter()
        .any(|l| l.starts_with("option knowledge type combo default small var small")));
}

#[test]
fn tune_gives_the_search_parameters_when_set() {
    let mut o = Options::default();
    assert_eq!(o.set_uci(&["name", "Tune", "value", "rfp_margin=70", "lmr_history=8"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().params.rfp_margin, 70);
    assert_eq!(o.engine().params.lmr_history, 8);
    assert_eq!(o.engine().params.lmr_base, SearchParams::DEFAULT.lmr_base);
    assert!(o
        .ucci_lines()
        .contains(&"option tune type string default rfp_margin=70,lmr_history=8".to_string()));
    // Each setting replaces the whole list.
    assert_eq!(o.set_ucci(&["tune", "lmr_base=0"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().params, SearchParams { lmr_base: 0, ..SearchParams::DEFAULT });
    assert_eq!(o.set_ucci(&["tune", "<empty>"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine(), &EngineOptions::default());
}

#[test]
fn a_refused_value_keeps_the_typed_value_in_force() {
    let mut o = Options::default();
    for good in [
        &["without", "lmr"][..],
        &["withoutterms", "mobility"],
        &["tune", "rfp_margin=70"],
        &["pruning", "medium"],
        &["knowledge", "small"],
        &["threads", "2"],
        &["algorithm", "mtdf"],
        &["moveoverhead", "50"],
    ] {
        assert_eq!(o.set_ucci(good), Ok(SetOutcome::Set), "{good:?}");
    }
    let in_force = o.clone();
    for bad in [
        &["without", "lmr,nullmove"][..],
        &["withoutterms", "tempo"],
        &["tune", "rfp_margin=70,null_reduction=0"],
        &["pruning", "huge"],
        &["knowledge", "all"],
        &["threads", "0"],
        &["algorithm", "negascout"],
        &["moveoverhead", "-1"],
        &["evalfile", "/nonexistent/net.nnue"],
    ] {
        assert!(o.set_ucci(bad).is_err(), "{bad:?}");
        assert_eq!(o, in_force, "{bad:?}");
    }
}

#[test]
fn bad_values_change_nothing() {
    let mut o = Options::default();
    for (ucci, wanted) in [
        (&["hashsize", "0"][..], "between 1 and"),
        (&["hashsize", "lots"], "whole number"),
        (&["threads", "-2"], "between 1 and"),
        (&["pruning", "huge"], "none/small/medium/large"),
        (&["algorithm", "alphabeta"], "pvs/mtdf"),
        (&["without", "null,nullmove"], "unknown search feature 'nullmove'"),
        (&["withoutterms", "tempo"], "unknown evaluation term 'tempo'"),
    ] {
        let err = o.set_ucci(ucci).unwrap_err().to_string();
        assert!(err.contains(wanted), "{ucci:?}: {err}");
    }
    assert!(o.set_uci(&["name", "Hash"]).unwrap_err().to_string().contains("needs 'value"));
    assert!(o.set_uci(&["Hash", "16"]).unwrap_err().to_string().contains("'name <option>'"));
    assert!(o.set_uci(&["name", "value", "3"]).unwrap_err().to_string().contains("empty"));
    assert_eq!(o, Options::default());
    assert_eq!(
        o.set_ucci(&["threads", "0"]),
        Err(OptionError::OutOfRange { name: "threads".into(), range: THREADS_RANGE, value: 0 })
    );
    assert_eq!(o.set_ucci(&[]), Err(OptionError::MissingName));
    assert_eq!(o.set_ucci(&["nosuchoption", "1"]), Ok(SetOutcome::Unknown("nosuchoption".into())));
    assert_eq!(
        o.set_uci(&["name", "Knowledge", "value", "none"]),
        Ok(SetOutcome::Unknown("Knowledge".into()))
    );
}

#[test]
fn evalfile_loads_a_net_and_usennue_switches_to_it() {
    let dir = std::env::temp_dir().join(format!("chariot-options-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (good, other, bad) = (dir.join("good.nnue"), dir.join("other.nnue"), dir.join("bad.nnue"));
    let arch = crate::eval::nnue::Architecture { width: 16, ..crate::eval::nnue::Architecture::DEFAULT };
    let net = crate::train::FloatNetwork::random(arch, 1).quantise().unwrap();
    let other_net = crate::train::FloatNetwork::random(arch, 2).quantise().unwrap();
    format::save(&net, &good).unwrap();
    format::save(&other_net, &other).unwrap();
    std::fs::write(&bad, b"CHARNNUE\x07\x00").unwrap();
    let (good, other, bad) = (good.to_str().unwrap(), other.to_str().unwrap(), bad.to_str().unwrap());

    let mut o = Options::default();
    assert_eq!(o.engine().eval, EvalChoice::Nnue(embedded::network()), "the built-in net by default");
    assert!(o.ucci_lines().contains(&"option usennue type check default true".to_string()));
    assert!(o.uci_lines().contains(&"option name EvalFile type string default <empty>".to_string()));
    assert_eq!(o.set_uci(&["name", "Use", "NNUE", "value", "false"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().eval, EvalChoice::Classic);
    assert_eq!(o.set_uci(&["name", "EvalFile", "value", good]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().eval, EvalChoice::Classic, "loading a net does not switch to it");
    assert_eq!(o.set_uci(&["name", "Use", "NNUE", "value", "true"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().eval, EvalChoice::Nnue(Arc::new(net.clone())));
    // A damaged file is refused, with where and what, and the loaded net stays.
    let err = o.set_ucci(&["evalfile", bad]).unwrap_err().to_string();
    assert!(err.starts_with("evalfile: net file") && err.contains("byte 8: format version 7"), "{err}");
    assert_eq!(o.eval_file, good);
    assert_eq!(o.engine().eval, EvalChoice::Nnue(Arc::new(net)));
    assert!(o.uci_lines().contains(&format!("option name EvalFile type string default {good}")));
    assert!(o.ucci_lines().contains(&"option usennue type check default true".to_string()));
    // Another net while the net is in use: the search uses the new one.
    assert_eq!(o.set_ucci(&["evalfile", other]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().eval, EvalChoice::Nnue(Arc::new(other_net)));
    // Emptying the file name goes back to the built-in net.
    assert_eq!(o.set_ucci(&["evalfile", "<empty>"]), Ok(SetOutcome::Set));
    assert!(o.eval_file.is_empty());
    assert_eq!(o, Options::default());
    assert_eq!(o.set_ucci(&["usennue", "false"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().eval, EvalChoice::Classic);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_strength_options_set_a_level_or_an_elo_and_refuse_what_is_out_of_range() {
    let mut o = Options::default();
    assert!(o.engine().skill.is_full());
    assert_eq!(o.set_uci(&["name", "Skill", "Level", "value", "5"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().skill, Skill::level(5));
    // Out of range, or not a number: refused with the range, and level 5 stays.
    let err = o.set_uci(&["name", "Skill", "Level", "value", "21"]).unwrap_err().to_string();
    assert_eq!(err, "Skill Level must be between 0 and 20, not 21");
    let err = o.set_ucci(&["skilllevel", "-1"]).unwrap_err().to_string();
    assert_eq!(err, "skilllevel must be between 0 and 20, not -1");
    let err = o.set_ucci(&["skilllevel", "strong"]).unwrap_err().to_string();
    assert_eq!(err, "skilllevel wants a whole number from 0 to 20, not 'strong'");
    assert_eq!(o.engine().skill, Skill::level(5));
    // The Elo counts only while UCI_LimitStrength is on, and then it overrides the level.
    let top = MAX_ELO.to_string();
    assert_eq!(o.set_uci(&["name", "UCI_Elo", "value", &top]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().skill, Skill::level(5));
    assert_eq!(o.set_uci(&["name", "UCI_LimitStrength", "value", "true"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().skill, Skill::from_elo(MAX_ELO));
    assert!(o.engine().skill.centi_level() > Skill::level(5).centi_level());
    assert_eq!(o.set_ucci(&["elo", &MIN_ELO.to_string()]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().skill, Skill::from_elo(MIN_ELO));
    for (name, value) in [("elo", MIN_ELO - 1), ("elo", MAX_ELO + 1), ("elo", 0)] {
        let err = o.set_ucci(&[name, &value.to_string()]).unwrap_err().to_string();
        assert_eq!(err, format!("elo must be between {MIN_ELO} and {MAX_ELO}, not {value}"));
    }
    assert_eq!(o.engine().skill, Skill::from_elo(MIN_ELO));
    assert_eq!(o.set_ucci(&["limitstrength", "false"]), Ok(SetOutcome::Set));
    assert_eq!(o.engine().skill, Skill::level(5));
    assert_eq!(o.set_ucci(&["skilllevel", "20"]), Ok(SetOutcome::Set));
    assert!(o.engine().skill.is_full());
}

#[test]
fn numbers_too_large_give_the_range_and_junk_is_quoted_short() {
    let mut o = Options::default();
    let err = o.set_uci(&["name", "Hash", "value", "99999999999999999999"]).unwrap_err().to_string();
    assert_eq!(err, "Hash must be between 1 and 65536, not '99999999999999999999'");
    let err = o.set_ucci(&["threads", "-99999999999999999999"]).unwrap_err().to_string();
    assert_eq!(err, "threads must be between 1 and 256, not '-99999999999999999999'");
    let junk = "j".repeat(1 << 20);
    for args in [["hashsize", junk.as_str()], ["pruning", junk.as_str()], ["ponder", junk.as_str()]] {
        let err = o.set_ucci(&args).unwrap_err().to_string();
        assert!(err.len() < 200 && err.contains("(1048576 bytes)"), "{err}");
    }
    let err = o.set_ucci(&["bookfiles", &junk]).unwrap_err().to_string();
    assert_eq!(err, "bookfiles is 1048576 bytes long: at most 4096");
    assert_eq!(o, Options::default());
}

/// A value for each option other than its default (a button has none). A new option fails
/// the tests below until it has one here.
fn another_value(row: &Row) -> Option<String> {
    let name = row.ucci.or(row.uci).unwrap_or_default();
    Some(String::from(match name {
        "usemillisec" | "batch" | "debug" | "ponder" | "showwdl" => "true",
        "usebook" | "resign" => "false",
        "bookfiles" => "a.cbk",
        "hashsize" => "8",
        "threads" => "2",
        "MultiPV" => "3",
        "moveoverhead" => "0",
        "algorithm" => "mtdf",
        "pruning" | "knowledge" | "randomness" => "medium",
        "without" => "lmp",
        "withoutterms" => "pawns",
        "tune" => "rfp_margin=70",
        "skilllevel" => "10",
        "limitstrength" => "true",
        // The scale's top, whatever the measurements made it.
        "elo" => return Some(MAX_ELO.to_string()),
        // Needs a net file: the test above covers it.
        "evalfile" | "usennue" | "newgame" => return None,
        // Needs a folder of tables: tests/egtb.rs covers it.
        "egtbpath" => return None,
        other => panic!("no other value for the option {other}: give it one here"),
    }))
}

/// Checks that `after` differs from `before` in one line, the one announcing `value`.
fn one_line_changed(before: &[String], after: &[String], value: &str, set: &str) {
    let changed: Vec<(&String, &String)> = before.iter().zip(after).filter(|(b, a)| b != a).collect();
    assert_eq!(changed.len(), 1, "{set} changed {changed:?}");
    assert!(changed[0].1.contains(&format!("default {value}")), "{set}: {:?}", changed[0]);
}

#[test]
fn each_name_sets_its_own_option_and_no_other() {
    let default = Options::default();
    for row in ROWS {
        let Some(value) = another_value(row) else { continue };
        let value = value.as_str();
        if let Some(name) = row.ucci {
            let mut o = Options::default();
            assert_eq!(o.set_ucci(&[name, value]), Ok(SetOutcome::Set), "{name}");
            one_line_changed(&default.ucci_lines(), &o.ucci_lines(), value, name);
        }
        if let Some(name) = row.uci {
            let line = format!("name {name} value {value}");
            let mut o = Options::default();
            assert_eq!(o.set_uci(&line.split(' ').collect::<Vec<_>>()), Ok(SetOutcome::Set), "{line}");
            one_line_changed(&default.uci_lines(), &o.uci_lines(), value, &line);
        }
    }
}

#[test]
fn the_options_take_back_their_announced_defaults() {
    let mut o = Options::default();
    for row in ROWS {
        if let (Some(name), Some(value)) = (row.ucci, another_value(row)) {
            assert_eq!(o.set_ucci(&[name, &value]), Ok(SetOutcome::Set), "{name}");
        }
    }
    assert_eq!(o.set_uci(&["name", "MultiPV", "value", "2"]), Ok(SetOutcome::Set));
    assert_ne!(o.engine(), &EngineOptions::default());
    // Setting each option to the default it was announced with (at the start) undoes it all.
    for line in Options::default().ucci_lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let (name, kind) = (words[1], words[3]);
        let default = words.iter().position(|&w| w == "default").map(|at| words[at + 1]);
        let outcome = o.set_ucci(&[name, default.unwrap_or("")]);
        let wanted =
            if kind == "button" { SetOutcome::NewGame { stray_value: None } } else { SetOutcome::Set };
        assert_eq!(outcome, Ok(wanted), "{line}");
    }
    let line = Options::default().uci_lines().into_iter().find(|l| l.contains("MultiPV")).unwrap();
    let default = line.split(' ').skip_while(|&w| w != "default").nth(1).unwrap().to_string();
    assert_eq!(o.set_uci(&["name", "MultiPV", "value", &default]), Ok(SetOutcome::Set));
    assert_eq!(o, Options::default());
}

#[test]
fn the_default_options_search_as_the_engine_does_by_default() {
    assert_eq!(Options::default().engine(), &EngineOptions::default());
}

#[test]
fn announcements() {
    let o = Options::default();
    // The option table of docs/protocols.md, in both dialects.
    assert_eq!(
        o.ucci_lines(),
        [
            "option usemillisec type check default false",
            "option batch type check default false",
            "option debug type check default false",
            "option ponder type check default false",
            "option usebook type check default true",
            "option bookfiles type string default <empty>",
            "option hashsize type spin min 1 max 65536 default 64",
            "option threads type spin min 1 max 256 default 1",
            "option moveoverhead type spin min 0 max 5000 default 30",
            "option algorithm type combo default pvs var pvs var mtdf",
            "option resign type check default true",
            // The value in force comes first among the vars (for uci2wb and XBoard), then the rest.
            "option pruning type combo default large var large var none var small var medium",
            "option knowledge type combo default large var large var none var small var medium",
            "option randomness type combo default none var none var small var medium var large",
            "option without type string default <empty>",
            "option withoutterms type string default <empty>",
            "option tune type string default <empty>",
            "option evalfile type string default <empty>",
            "option egtbpath type string default <empty>",
            "option usennue type check default true",
            "option showwdl type check default false",
            "option skilllevel type spin min 0 max 20 default 20",
            "option limitstrength type check default false",
            "option elo type spin min 899 max 3050 default 899",
            "option newgame type button",
        ]
    );
    // A UCI session starts without its book: the first command took the dialect's defaults.
    let mut uci = o.clone();
    uci.take_dialect_defaults(Dialect::Uci);
    assert_eq!(
        uci.uci_lines(),
        [
            "option name Ponder type check default false",
            "option name OwnBook type check default false",
            "option name BookFile type string default <empty>",
            "option name Hash type spin default 64 min 1 max 65536",
            "option name Threads type spin default 1 min 1 max 256",
            "option name MultiPV type spin default 1 min 1 max 128",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name Algorithm type combo default pvs var pvs var mtdf",
            "option name Without type string default <empty>",
            "option name Without Terms type string default <empty>",
            "option name Tune type string default <empty>",
            "option name EvalFile type string default <empty>",
            "option name EgtbPath type string default <empty>",
            "option name Use NNUE type check default true",
            "option name UCI_ShowWDL type check default false",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 899 min 899 max 3050",
            "option name Clear Hash type button",
        ]
    );
}

#[test]
fn every_option_has_its_row_in_the_documented_table() {
    let doc = include_str!("../../../docs/protocols.md");
    let cell = |name: Option<&str>| name.map_or("—".to_string(), |n| format!("`{n}`"));
    for row in ROWS {
        let start = format!("| {} | {} |", cell(row.ucci), cell(row.uci));
        assert!(doc.lines().any(|l| l.starts_with(&start)), "docs/protocols.md has no row {start}");
    }
}
