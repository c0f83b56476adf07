//! `chariot spsa` with the engine itself under a small node limit: a run plays its pairs and
//! records them, a stopped run resumes where its state file stood, and what the engine or the
//! state file refuses stops the run before a game with a message that says why.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(test: &str) -> PathBuf {
    common::scratch_dir("spsa", test)
}

/// `chariot spsa` tuning two of Chariot's search parameters through its `tune` option, at 1,500
/// nodes a move, with the state file `state` and `extra` arguments.
fn spsa(dir: &Path, iterations: &str, extra: &[&str]) -> Output {
    let bin = common::chariot_bin();
    let engine = format!("cmd={bin},option.usebook=false");
    let mut args = vec![
        "spsa",
        "--engine",
        &engine,
        "--tune-option",
        "tune",
        "--param",
        "rfp_margin=85,0,1000,10",
        "--param",
        "lmr_base=80,-300,500,10",
        "--iterations",
        iterations,
        "--nodes",
        "1500",
        "--random-plies",
        "2",
        "--draw",
        "movenumber=30,movecount=6,score=10",
        "--resign",
        "movecount=3,score=600",
        "--concurrency",
        "2",
    ];
    args.extend_from_slice(extra);
    Command::new(&bin).current_dir(dir).args(&args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The state file's fields: `done`, the games' tally and the values.
fn state_fields(path: &Path) -> (u32, [u64; 3], Vec<(String, f64)>) {
    let state = std::fs::read_to_string(path).unwrap();
    let mut done = None;
    let mut games = None;
    let mut values = Vec::new();
    for line in state.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["done", n] => done = Some(n.parse().unwrap()),
            ["games", w, d, l] => games = Some([w.parse().unwrap(), d.parse().unwrap(), l.parse().unwrap()]),
            ["value", name, v] => values.push((name.to_string(), v.parse().unwrap())),
            _ => {}
        }
    }
    (done.unwrap(), games.unwrap(), values)
}

#[test]
fn a_run_plays_every_pair_records_it_and_prints_the_tuned_values() {
    let dir = scratch("run");
    let out = spsa(&dir, "4", &["--state", "run.spsa", "--log", "run.log"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (done, games, values) = state_fields(&dir.join("run.spsa"));
    assert_eq!(done, 4);
    assert_eq!(games.iter().sum::<u64>(), 8, "two games a pair: {games:?}");
    assert_eq!(values.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["rfp_margin", "lmr_base"]);
    let log = std::fs::read_to_string(dir.join("run.log")).unwrap();
    let mut iterations: Vec<u32> =
        log.lines().map(|l| l.split(' ').next().unwrap().parse().unwrap()).collect();
    iterations.sort();
    assert_eq!(iterations, [0, 1, 2, 3], "{log}");
    // Each pair's result is the + side's wins less its losses, and the tally adds them up.
    let results: i64 = log.lines().map(|l| l.split(' ').nth(1).unwrap().parse::<i64>().unwrap()).sum();
    assert_eq!(results, games[0] as i64 - games[2] as i64, "{log}");
    let stdout = text(&out.stdout);
    let rounded: Vec<String> = values.iter().map(|(n, v)| format!("{n}={}", v.round() as i64)).collect();
    assert!(stdout.contains(&format!("tuned: {}", rounded.join(" "))), "{stdout}");
    assert!(stdout
        .contains(&format!("games of the + side: {} won, {} drawn, {} lost", games[0], games[1], games[2])));

    // A finished run resumed plays nothing more and prints the same values.
    let again = spsa(&dir, "4", &["--state", "run.spsa", "--resume"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(state_fields(&dir.join("run.spsa")), (done, games, values));
    assert!(text(&again.stdout).contains(&format!("tuned: {}", rounded.join(" "))));
}

#[test]
fn a_stopped_run_resumes_from_its_state_file_and_plays_only_the_pairs_left() {
    let dir = scratch("resume");
    let out = spsa(&dir, "3", &["--state", "run.spsa"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The file as a run stopped after its first pair would have left it (its values and tally
    // set by hand, so that the resumed run's start can be seen).
    let state = std::fs::read_to_string(dir.join("run.spsa")).unwrap();
    let stopped: String = state
        .lines()
        .map(|line| match line.split(' ').next() {
            Some("done") => "done 1".to_string(),
            Some("games") => "games 1 0 1".to_string(),
            Some("value") if line.contains("rfp_margin") => "value rfp_margin 300.0".to_string(),
            _ => line.to_string(),
        })
        .map(|l| l + "\n")
        .collect();
    std::fs::write(dir.join("run.spsa"), stopped).unwrap();
    let out = spsa(&dir, "3", &["--state", "run.spsa", "--resume", "--log", "resumed.log"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (done, games, values) = state_fields(&dir.join("run.spsa"));
    assert_eq!(done, 3);
    assert_eq!(games.iter().sum::<u64>(), 2 + 4, "{games:?}");
    let log = std::fs::read_to_string(dir.join("resumed.log")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    // Two pairs move a value by a few units at most: it went on from 300, not from the start.
    assert!((values[0].1 - 300.0).abs() < 20.0, "{values:?}");
}

#[test]
fn refusals_stop_the_run_before_a_game_and_leave_no_state_file() {
    let dir = scratch("refusals");
    let bin = common::chariot_bin();
    let run = |args: &[&str]| {
        let out = Command::new(&bin).current_dir(&dir).arg("spsa").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
        text(&out.stderr)
    };
    let engine = format!("cmd={bin}");
    let base = ["--engine", &engine, "--iterations", "4", "--state", "s.spsa", "--nodes", "1000"];
    let with = |extra: &[&'static str]| -> Vec<String> {
        base.iter().map(|s| s.to_string()).chain(extra.iter().map(|s| s.to_string())).collect()
    };
    let call = |extra: &[&'static str]| {
        let args = with(extra);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let err = call(&["--tune-option", "tune", "--param", "bogus=1,0,10,1"]);
    assert!(
        err.contains("the engine refused the parameters at their least values") && err.contains("bogus"),
        "{err}"
    );
    let err = call(&["--tune-option", "tune", "--param", "rfp_margin=85,0,5000,10"]);
    assert!(err.contains("at their greatest values") && err.contains("5000"), "{err}");
    let err = call(&["--tune-option", "tunes", "--param", "rfp_margin=85,0,500,10"]);
    assert!(err.contains("the engine declares no option 'tunes'"), "{err}");
    let err = call(&["--param", "rfp_margin=85,0,500,10"]);
    assert!(err.contains("the engine declares no option 'rfp_margin'"), "{err}");
    let err = call(&["--param", "rfp_margin=85,0,500"]);
    assert!(err.contains("expected four or five numbers"), "{err}");
    let err = call(&["--tune-option", "tune", "--param", "rfp_margin=85,0,500,10", "--resume"]);
    assert!(err.contains("--resume: s.spsa does not exist"), "{err}");
    assert!(!dir.join("s.spsa").exists());

    std::fs::write(dir.join("s.spsa"), "chariot spsa 1\nsettings 0123456789abcdef\niterations 4\n").unwrap();
    let err = call(&["--tune-option", "tune", "--param", "rfp_margin=85,0,500,10"]);
    assert!(err.contains("s.spsa exists: --resume continues its run"), "{err}");
    let err = call(&["--tune-option", "tune", "--param", "rfp_margin=85,0,500,10", "--resume"]);
    assert!(err.contains("s.spsa is not an spsa state file: no 'done' line"), "{err}");
    std::fs::write(
        dir.join("s.spsa"),
        "chariot spsa 1\nsettings 0123456789abcdef\niterations 4\ndone 1\ngames 0 2 0\nvalue rfp_margin 90\n",
    )
    .unwrap();
    let err = call(&["--tune-option", "tune", "--param", "rfp_margin=85,0,500,10", "--resume"]);
    assert!(err.contains("s.spsa holds another run (settings 0123456789abcdef, not"), "{err}");
    let err = call(&["--tune-option", "tune", "--param", "lmr_base=80,0,500,10", "--resume"]);
    assert!(err.contains("holds another run (its parameters are rfp_margin)"), "{err}");
    // The refused resumes left the file as it was.
    assert!(std::fs::read_to_string(dir.join("s.spsa")).unwrap().contains("value rfp_margin 90\n"));
}

/// `tests/fake_engines/tunable.sh`: two UCI options, and the copy with the larger `Alpha` wins
/// whenever the other's is below 50.
fn tunable(dir: &Path) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/tunable.sh");
    format!("cmd={script},proto=uci,arg={}", dir.join("options.log").display())
}

#[test]
fn each_parameter_goes_to_its_own_option_and_the_values_climb_towards_the_winning_side() {
    let dir = scratch("options");
    let out = Command::new(common::chariot_bin())
        .current_dir(&dir)
        .args(["spsa", "--engine", &tunable(&dir), "--param", "Alpha=50,0,100,5,0.05"])
        .args(["--param", "Beta=50,0,100,5,0.05", "--iterations", "6", "--nodes", "1000"])
        .args(["--concurrency", "2", "--state", "t.spsa", "--log", "t.log"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sent = std::fs::read_to_string(dir.join("options.log")).unwrap();
    // The check at both ends of the ranges, then each side of every pair.
    assert!(sent.contains("setoption name Alpha value 0\nsetoption name Beta value 0\n"), "{sent}");
    assert!(sent.contains("setoption name Alpha value 100\nsetoption name Beta value 100\n"), "{sent}");
    assert_eq!(sent.lines().filter(|l| l.starts_with("setoption name Alpha")).count(), 2 + 6 * 4, "{sent}");
    assert_eq!(sent.lines().filter(|l| l.starts_with("setoption name Beta")).count(), 2 + 6 * 4);
    // Every pair had one side below 50 (each side plays 5 or more from the value): the side
    // above won both games, and the value rose each time, whichever side was `+`.
    let log = std::fs::read_to_string(dir.join("t.log")).unwrap();
    let mut alphas = vec![50.0];
    for line in log.lines() {
        let result: i32 = line.split(' ').nth(1).unwrap().parse().unwrap();
        assert_eq!(result.abs(), 2, "{line}");
        alphas.push(line.rsplit(" | ").next().unwrap().split(' ').next().unwrap().parse::<f64>().unwrap());
    }
    assert_eq!(alphas.len(), 7, "{log}");
    assert!(alphas.windows(2).all(|w| w[1] > w[0]), "Alpha rose at every pair: {alphas:?}");
    let (_, games, values) = state_fields(&dir.join("t.spsa"));
    assert_eq!(games[1], 0, "no draws: {games:?}");
    assert!((values[0].1 - alphas[6]).abs() < 0.001, "{values:?} {alphas:?}");
}

/// Every parameters file of `scripts/spsa/` reads as `scripts/spsa-run.sh` reads it (`#` starts a
/// comment, blank lines skipped), each line is a valid `--param`, no name comes twice, and each
/// names one of the search's parameters with its start and bounds inside that parameter's range:
/// a file that the engine would refuse at its first pair fails here instead.
#[test]
fn every_parameters_file_names_search_parameters_within_their_ranges() {
    use chariot::search::params::SearchParams;
    use chariot::spsa::ParamSpec;

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/spsa");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<String> = text
            .lines()
            .map(|line| {
                line.split('#').next().unwrap().chars().filter(|c| !c.is_whitespace()).collect::<String>()
            })
            .filter(|line| !line.is_empty())
            .collect();
        assert!(!lines.is_empty(), "{} names no parameter", path.display());
        let specs = ParamSpec::parse_all(&lines).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for spec in specs {
            let &(_, min, max) = SearchParams::RANGES
                .iter()
                .find(|(name, _, _)| *name == spec.name)
                .unwrap_or_else(|| panic!("{}: {} is no search parameter", path.display(), spec.name));
            assert!(
                f64::from(min) <= spec.min && spec.max <= f64::from(max),
                "{}: {} tuned over {}..={} but the engine takes {min}..={max}",
                path.display(),
                spec.name,
                spec.min,
                spec.max
            );
        }
    }
    assert!(files >= 3, "only {files} parameters files in {}", dir.display());
}
