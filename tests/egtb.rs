//! Endgame tablebases: generated here into temporary folders (never committed), checked against
//! themselves, against a deep search, against the endgame literature, and refused when damaged.

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, OnceLock};

use chariot::board::Position;
use chariot::egtb::build::{self, Step};
use chariot::egtb::{verify, Signature, Table, Tablebases, Value};
use chariot::search::score::MATE;
use chariot::search::{Engine, Limits, SearchControl, TablebaseHandle};

use crate::common::{chariot_bin, scratch_dir};

fn sigs(list: &[&str]) -> Vec<Signature> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

/// The small set most tests read, generated once per test run.
fn small_set() -> &'static (std::path::PathBuf, Tablebases) {
    static SET: OnceLock<(std::path::PathBuf, Tablebases)> = OnceLock::new();
    SET.get_or_init(|| {
        let dir = scratch_dir("egtb", "small-set");
        let wanted = sigs(&["KRK", "KNK", "KCK", "KPK", "KRKA", "KRKAABB", "KRKN"]);
        let tables = build::build(&wanted, &dir, u64::MAX, |_, _| {}).unwrap();
        (dir, tables)
    })
}

fn probe(fen: &str) -> Option<Value> {
    small_set().1.probe(&Position::from_fen(fen).unwrap())
}

#[test]
fn every_position_agrees_with_its_children() {
    let tables = &small_set().1;
    assert!(tables.len() >= 15, "{:?}", tables.signatures());
    for sig in tables.signatures() {
        let report = verify::verify(tables, sig).unwrap();
        assert!(report.positions > 0);
        assert_eq!(report.fault_count, 0, "{sig}: {:?}", report.faults);
    }
}

#[test]
fn a_wrong_value_is_caught_by_the_check() {
    let (_, tables) = small_set();
    let sig: Signature = "KRK".parse().unwrap();
    let table = tables.table(&sig).unwrap();
    // Turn the first win into a draw: the position, and the parents that counted on it, disagree.
    let mut codes = table.codes().to_vec();
    let at = codes.iter().position(|&c| matches!(Value::from_code(c), Some(Value::Win(_)))).unwrap();
    codes[at] = Value::Draw.code();
    let mut damaged = Tablebases::new();
    for s in tables.signatures().into_iter().filter(|s| *s != sig) {
        let path = Table::path_in(&small_set().0, &s);
        damaged.insert(Table::load(&path, s).unwrap());
    }
    damaged.insert(Table::new(sig, codes));
    let report = verify::verify(&damaged, sig).unwrap();
    assert!(report.fault_count >= 1, "{report:?}");
}

#[test]
fn verdicts_from_the_endgame_literature() {
    // 单车难胜士象全: a lone rook does not beat advisors and elephants all at home.
    assert_eq!(probe("2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"), Some(Value::Draw));
    assert_eq!(probe("2bakab2/9/9/9/9/9/9/9/9/R2K5 b - - 0 1"), Some(Value::Draw));
    // A lone cannon has no screen to mate with.
    assert_eq!(probe("4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1"), Some(Value::Draw));
    // A rook (with the kings' file rule) and a horse each mate a bare king.
    assert!(matches!(probe("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"), Some(Value::Win(_))));
    assert!(matches!(probe("4k4/9/9/9/9/9/9/9/4N4/3K5 w - - 0 1"), Some(Value::Win(_))));
    // A pawn across the river wins; one that reached the last rank (老兵) cannot.
    assert!(matches!(probe("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1"), Some(Value::Win(_))));
    assert_eq!(probe("P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), Some(Value::Draw));
    // A rook against one advisor: won.
    assert!(matches!(probe("4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1"), Some(Value::Win(_))));
}

#[test]
fn a_perpetual_check_to_save_a_lost_ending_loses() {
    // Rook against horse: positions where the horse side escapes mate only by checking for
    // ever are lost by the rule, and each such loss follows from its children (checked above).
    let tables = &small_set().1;
    let krkn = tables.table(&"KRKN".parse().unwrap()).unwrap();
    let rule =
        krkn.codes().iter().filter(|&&c| matches!(Value::from_code(c), Some(Value::RuleLoss(_)))).count();
    assert!(rule > 0, "no perpetual-check loss in KRKN");
    // A side that cannot check (a bare king, advisors) never loses by the rule.
    for sig in ["KRK", "KRKAABB", "KCK"] {
        let t = tables.table(&sig.parse().unwrap()).unwrap();
        let by_rule = t
            .codes()
            .iter()
            .filter(|&&c| matches!(Value::from_code(c), Some(Value::RuleLoss(_) | Value::RuleWin(_))));
        assert_eq!(by_rule.count(), 0, "{sig}");
    }
}

#[test]
fn a_deep_search_agrees_with_the_tables_mates() {
    let tables = &small_set().1;
    let mut checked = 0;
    for sig in ["KRK", "KNK", "KPK", "KRKA"] {
        let table = tables.table(&sig.parse().unwrap()).unwrap();
        let layout = table.layout();
        let step = (layout.size() / 30).max(1);
        for index in (0..layout.size()).step_by(step as usize) {
            let Some(value) = table.value(index) else { continue };
            let pos = layout.position(&layout.placement(index)).unwrap();
            // Through FEN text, so that the position is checked as a user's would be.
            let fen_pos = Position::from_fen(&pos.to_fen()).unwrap();
            assert_eq!(tables.probe(&fen_pos), Some(value), "{}", fen_pos.to_fen());
            let control = SearchControl::new();
            control.start(false);
            let result = Engine::new(4).search(&fen_pos, &Limits::depth(7), &control, &mut |_| {});
            let plies = MATE - result.score.abs();
            if result.score >= MATE - 100 {
                assert!(
                    matches!(value, Value::Win(d) if i32::from(d) <= plies),
                    "{value:?} {plies} {}",
                    fen_pos.to_fen()
                );
                checked += 1;
            } else if result.score <= -(MATE - 100) {
                assert!(
                    matches!(value, Value::Loss(d) if i32::from(d) <= plies),
                    "{value:?} {plies} {}",
                    fen_pos.to_fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} mates found by the search");
}

#[test]
fn the_engine_plays_and_scores_by_the_tables() {
    let (dir, _) = small_set();
    let mut engine = Engine::new(4);
    engine.options.tablebases = TablebaseHandle(Some(Arc::new(Tablebases::load_dir(dir).unwrap())));
    let search = |engine: &mut Engine, fen: &str| {
        let control = SearchControl::new();
        control.start(false);
        engine.search(&Position::from_fen(fen).unwrap(), &Limits::depth(6), &control, &mut |_| {})
    };
    // The rook against the full defence: a draw, scored 0, and the move keeps it.
    let fen = "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let r = search(&mut engine, fen);
    assert_eq!(r.score, 0);
    let mut pos = Position::from_fen(fen).unwrap();
    pos.make_move(r.best.unwrap());
    assert_eq!(small_set().1.probe(&pos), Some(Value::Draw));
    // A rook against a bare king: the table's mate, exactly.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    let Some(Value::Win(d)) = probe(fen) else { panic!("not a win") };
    assert_eq!(search(&mut engine, fen).score, MATE - i32::from(d));
}

#[test]
fn generation_resumes_and_keeps_what_is_done() {
    let dir = scratch_dir("egtb", "resume");
    let wanted = sigs(&["KNKA"]);
    let mut first = Vec::new();
    build::build(&wanted, &dir, u64::MAX, |s, step| first.push((s, matches!(step, Step::Generated(_)))))
        .unwrap();
    assert!(first.iter().all(|&(_, generated)| generated), "{first:?}");
    // An interrupted run: the last table never written.
    std::fs::remove_file(Table::path_in(&dir, &"KNKA".parse().unwrap())).unwrap();
    let mut second = Vec::new();
    build::build(&wanted, &dir, u64::MAX, |s, step| second.push((s.to_string(), step.clone()))).unwrap();
    for (sig, step) in &second {
        let regenerated = matches!(step, Step::Generated(_));
        assert_eq!(regenerated, sig == "KNKA", "{sig}: {step:?}");
    }
}

fn chariot(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(chariot_bin()).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn copy_set(to: &Path, names: &[&str]) {
    for name in names {
        let file = format!("{name}.egtb");
        std::fs::copy(small_set().0.join(&file), to.join(&file)).unwrap();
    }
}

#[test]
fn probe_and_verify_from_the_command_line() {
    let dir = small_set().0.to_str().unwrap();
    let (ok, out, err) =
        chariot(&["egtb", "probe", "--dir", dir, "--fen", "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("tablebase: draw (Red to move)"), "{out}");
    let (ok, out, _) =
        chariot(&["egtb", "probe", "--dir", dir, "--fen", "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "--json"]);
    assert!(ok);
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json["result"], "win");
    assert!(json["mate_plies"].as_u64().unwrap() % 2 == 1);
    assert!(!json["moves"].as_array().unwrap().is_empty());
    // Material without a table: no verdict, never a wrong one.
    let (ok, out, _) =
        chariot(&["egtb", "probe", "--dir", dir, "--fen", "4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1"]);
    assert!(ok);
    assert!(out.starts_with("no verdict"), "{out}");
    let small = scratch_dir("egtb", "cli-verify");
    copy_set(&small, &["KK", "KRK"]);
    let (ok, out, err) = chariot(&["egtb", "verify", "--dir", small.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("KRK: checksum ok") && out.contains("all 2 tables consistent"), "{out}");
}

#[test]
fn damaged_truncated_and_foreign_table_files_are_refused() {
    let dir = scratch_dir("egtb", "damaged");
    copy_set(&dir, &["KK", "KRK"]);
    let path = dir.join("KRK.egtb");
    let good = std::fs::read(&path).unwrap();
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            {
                let mut b = good.clone();
                let n = b.len();
                b[n - 100] ^= 0x10;
                b
            },
            "damaged",
        ),
        (good[..good.len() - 7].to_vec(), "truncated"),
        (b"<html>not a table</html>".to_vec(), "not a Chariot tablebase"),
    ];
    for (bytes, reason) in cases {
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            vec!["egtb", "probe", "--dir", dir.to_str().unwrap(), "--fen", fen],
            vec!["egtb", "verify", "--dir", dir.to_str().unwrap()],
        ] {
            let (ok, _, err) = chariot(&args);
            assert!(!ok, "{reason}");
            assert!(err.contains("KRK.egtb") && err.contains(reason), "{reason}: {err}");
        }
    }
    // A table under another table's name.
    std::fs::write(&path, std::fs::read(dir.join("KK.egtb")).unwrap()).unwrap();
    let (ok, _, err) = chariot(&["egtb", "probe", "--dir", dir.to_str().unwrap(), "--fen", fen]);
    assert!(!ok && err.contains("its name says KRK"), "{err}");
}

#[test]
fn the_engine_option_loads_tables_and_refuses_a_bad_folder() {
    let dir = small_set().0.to_str().unwrap().to_string();
    let script = format!(
        "uci\nsetoption name EgtbPath value /no/such/folder\nsetoption name EgtbPath value {dir}\n\
         position fen 2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\ngo depth 4\nquit\n"
    );
    let mut child = Command::new(chariot_bin())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(out.contains("option name EgtbPath type string"), "{out}");
    assert!(out.contains("EgtbPath") && out.contains("/no/such/folder"), "{out}");
    let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains("score cp 0"), "{last_info}");
    assert!(out.contains("bestmove"));
}

#[test]
fn annotate_judges_a_tables_ending_by_the_tables() {
    // The rook can go next to the bare king, where it is taken: f1f9.
    let fen = "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let tables = &small_set().1;
    let Some(Value::Win(_)) = tables.probe(&pos) else { panic!("not a win") };
    let moves = tables.scored_moves(&pos).unwrap();
    let keeps = moves.iter().find(|m| m.value.wdl() == 1).unwrap().mv;
    // A rook move the bare king can take: the win thrown away.
    let throws = moves.iter().find(|m| m.value.wdl() == 0).expect("a move that draws").mv;
    let dir = scratch_dir("egtb", "annotate");
    let pgn = dir.join("games.pgn");
    let game = |mv: chariot::board::Move| format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. {mv} *\n\n");
    std::fs::write(&pgn, format!("{}{}", game(keeps), game(throws))).unwrap();
    let tables_dir = small_set().0.to_str().unwrap();
    let args = ["annotate", pgn.to_str().unwrap(), "--depth", "2", "--no-book", "--egtb", tables_dir];
    let (ok, out, err) = chariot(&[&args[..], &["--json"]].concat());
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["ply"] == 1)
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let (kept, thrown) = (&lines[0], &lines[1]);
    assert!(kept["tablebase"]["before"].as_str().unwrap().starts_with("win, mate in"), "{kept}");
    assert!(kept["tablebase"]["after"].as_str().unwrap().starts_with("win, mate in"), "{kept}");
    assert!(kept["mark"].is_null(), "{kept}");
    assert_eq!(thrown["tablebase"]["after"], "draw", "{thrown}");
    assert_eq!(thrown["mark"], "??", "{thrown}");
    assert_eq!(thrown["expected_loss"], 0.5, "{thrown}");
    // The annotated PGN says so in the comment.
    let (ok, out, err) = chariot(&args);
    assert!(ok, "{err}");
    assert!(out.contains("tablebase: win, mate in") && out.contains("→ draw"), "{out}");
    // Without tables there is no verdict.
    let (ok, out, _) = chariot(&["annotate", pgn.to_str().unwrap(), "--depth", "2", "--no-book", "--json"]);
    assert!(
        ok && out.lines().filter(|l| l.contains("\"ply\":1")).all(|l| l.contains("\"tablebase\":null")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endings_picks_where_each_game_enters_the_tables() {
    let dir = scratch_dir("egtb", "endings");
    // Game 1 begins in KRKN (held); game 2 at the start (never held); game 3 with two rooks
    // against a bare king (KRRK, not in the set), one given away to the king: KRK from then on.
    let games = "[FEN \"4k4/9/9/9/9/4n4/9/9/R8/3K5 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a1a2 *\n\n\
                 1. h2e2 h9g7 *\n\n\
                 [FEN \"4k4/9/9/9/9/9/9/9/R4R3/3K5 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. f1f9 e9f9 2. a1a2 *\n\n";
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, games).unwrap();
    let out_file = dir.join("endings.txt");
    let tables_dir = small_set().0.to_str().unwrap();
    let endings = |extra: &[&str]| {
        let base = [
            "egtb",
            "endings",
            "--dir",
            tables_dir,
            "--pgn",
            pgn.to_str().unwrap(),
            "-o",
            out_file.to_str().unwrap(),
        ];
        let (ok, out, err) = chariot(&[&base[..], extra].concat());
        assert!(ok, "{err}");
        let fens: Vec<String> =
            std::fs::read_to_string(&out_file).unwrap().lines().map(String::from).collect();
        (out, fens)
    };
    let (out, fens) = endings(&[]);
    assert!(out.starts_with("2 positions from 3 games"), "{out}");
    assert_eq!(fens[0], "4k4/9/9/9/9/4n4/9/9/R8/3K5 w - - 0 1");
    // After f1f9 e9f9: the king took the rook, Red to move with one rook.
    assert!(fens[1].starts_with("5k3/9/9/9/9/9/9/9/R8/3K5 w"), "{fens:?}");
    // With --attackers 2: the first position with at most two attackers, held or not.
    let (_, fens) = endings(&["--attackers", "2"]);
    assert_eq!(fens.len(), 2, "{fens:?}");
    assert!(fens[1].starts_with("4k4/9/9/9/9/9/9/9/R4R3/3K5 w"), "{fens:?}");
    // No games: refused, and the file is left as it was.
    let (ok, _, err) = chariot(&["egtb", "endings", "--dir", tables_dir, "-o", out_file.to_str().unwrap()]);
    assert!(!ok && err.contains("--data FILE or --pgn FILE"), "{err}");
    assert_eq!(std::fs::read_to_string(&out_file).unwrap().lines().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_searches_with_tables_and_refuses_a_missing_folder() {
    let tables_dir = small_set().0.to_str().unwrap();
    // The bench's first 18 positions are middlegames: no table holds a position of their trees,
    // and their node counts must not change. The endgames after them may reach the tables.
    let middlegames = |out: &str| out.lines().take(18).map(String::from).collect::<Vec<_>>();
    let (ok, plain, err) = chariot(&["bench", "--depth", "3"]);
    assert!(ok, "{err}");
    let (ok, with, err) = chariot(&["bench", "--depth", "3", "--egtb", tables_dir]);
    assert!(ok, "{err}");
    assert_eq!(middlegames(&plain), middlegames(&with));
    let total = |out: &str| out.lines().find(|l| l.starts_with("Nodes searched")).unwrap().to_string();
    assert_ne!(total(&plain), total(&with), "the endgames searched the same without the tables");
    let (ok, _, err) = chariot(&["bench", "--depth", "3", "--egtb", "/nonexistent/tables"]);
    assert!(!ok && err.contains("cannot load the tablebases in /nonexistent/tables"), "{err}");
}

#[test]
fn a_mapped_table_reads_as_the_table_read_into_memory() {
    let dir = &small_set().0;
    let mut checked = 0;
    for (sig, path) in Tablebases::files_in(dir).unwrap() {
        let mapped = Table::load(&path, sig).unwrap();
        assert!(mapped.is_mapped(), "{sig}");
        let read = Table::decode(&std::fs::read(&path).unwrap(), Some(sig)).unwrap();
        assert!(!read.is_mapped());
        assert!(mapped.codes() == read.codes(), "{sig}: the mapping differs from the file");
        assert_eq!(mapped.encode(), std::fs::read(&path).unwrap(), "{sig}");
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} tables");
}
