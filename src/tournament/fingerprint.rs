//! The settings fingerprint every match game carries in its PGN (`MatchSettings`): a hash of
//! everything that decides which games are played and how, so that `chariot match report` can
//! refuse to merge shards of different matches. What only decides where and how fast the games
//! are played (the shard, `--concurrency`, the PGN file and notation) or how many and when to
//! stop (`--games`, `--sprt`, `--resume`) is left out, so that every shard of one match, and
//! every game of a match extended by a larger `--games`, has the same fingerprint.
//!
//! An engine's program counts by its contents, not by where it lies: a copy of the same program
//! elsewhere (another machine, a node of a cluster) plays the same match, and a program rebuilt
//! in place does not continue the old one's. So does an option's value that names a file (a net
//! for `EvalFile`, a book): the same net copied to another folder is the same setting.

use std::path::{Path, PathBuf};

use super::adjudication::{DrawRule, ResignRule, Threshold};
use super::game::GameSettings;
use super::match_config::MatchConfig;
use super::random_plies::RandomPlies;
use super::spec::{EngineSpec, Limit, Protocol};
use crate::binary::{fnv1a64, fnv1a64_words, FNV64_OFFSET};
use crate::notation::Opening;

/// The fields are written one after another, each with its length in front, so that no two
/// different settings run together into the same bytes.
struct Fields(Vec<u8>);

impl Fields {
    fn text(&mut self, text: &str) {
        self.0.extend_from_slice(&(text.len() as u64).to_le_bytes());
        self.0.extend_from_slice(text.as_bytes());
    }

    fn number(&mut self, n: u64) {
        self.text(&n.to_string());
    }
}

/// The limits, deadlines and adjudication rules.
fn game_settings(fields: &mut Fields, settings: &GameSettings) {
    // Every field named, none passed over with `..`: a new setting does not compile until it is
    // hashed here or left out with a reason.
    let GameSettings { limit, tolerance_ms, move_timeout, handshake_timeout, draw, resign } = settings;
    match *limit {
        Limit::Clock { base_ms, inc_ms } => {
            fields.text("clock");
            fields.number(base_ms);
            fields.number(inc_ms);
        }
        Limit::Nodes(n) => {
            fields.text("nodes");
            fields.number(n);
        }
        Limit::Depth(d) => {
            fields.text("depth");
            fields.number(u64::from(d));
        }
        Limit::MoveTime(ms) => {
            fields.text("movetime");
            fields.number(ms);
        }
    }
    fields.number(*tolerance_ms);
    fields.number(move_timeout.as_millis() as u64);
    fields.number(handshake_timeout.as_millis() as u64);
    match draw {
        Some(DrawRule { move_number, move_count, threshold }) => {
            fields.text("draw");
            fields.number(u64::from(*move_number));
            fields.number(u64::from(*move_count));
            fields.text(&threshold_text(*threshold));
        }
        None => fields.text("no draw"),
    }
    match resign {
        Some(ResignRule { move_count, threshold }) => {
            fields.text("resign");
            fields.number(u64::from(*move_count));
            fields.text(&threshold_text(*threshold));
        }
        None => fields.text("no resign"),
    }
}

/// An adjudication threshold as hashed: a score as its number (as before `wdl=` existed, so
/// score rules keep their fingerprints), a win/draw/loss bound as `wdl=P`.
fn threshold_text(threshold: Threshold) -> String {
    match threshold {
        Threshold::Score(cp) => cp.to_string(),
        Threshold::Wdl(per_mille) => format!("wdl={per_mille}"),
    }
}

/// What stands for an engine's program in the fingerprint: the hash and length of its file when
/// the command names a file that can be read (found on `PATH`, as it is started, when the
/// command has no folder), else the command as written. A wrapper script counts by its own text.
fn program_identity(cmd: &Path) -> String {
    match program_file(cmd).and_then(|file| std::fs::read(file).ok()) {
        Some(bytes) => format!("program {}", contents_identity(&bytes)),
        None => format!("command {}", cmd.to_string_lossy()),
    }
}

/// What stands for an option's value in the fingerprint: the hash and length of the file it
/// names when it names a readable regular file (never a pipe or a device, which reading could
/// block on or change), else the value as written.
fn option_value_identity(value: &str) -> String {
    let path = Path::new(value);
    match path.is_file().then(|| std::fs::read(path).ok()).flatten() {
        Some(bytes) => format!("file {}", contents_identity(&bytes)),
        None => format!("value {value}"),
    }
}

/// A file's contents as the fingerprint takes them: their hash and their length.
fn contents_identity(bytes: &[u8]) -> String {
    format!("{:016x} {}", fnv1a64_words(FNV64_OFFSET, bytes), bytes.len())
}

/// The file `cmd` starts: itself when it names a folder, else the first file of that name on
/// `PATH`.
fn program_file(cmd: &Path) -> Option<PathBuf> {
    if cmd.components().count() > 1 {
        return cmd.is_file().then(|| cmd.to_path_buf());
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|folder| folder.join(cmd)).find(|file| file.is_file())
}

/// The fingerprint of a match's settings, as the 16 hex digits of a 64-bit FNV-1a hash. The
/// number of games is no part of it: a round's game does not depend on how many follow it, so a
/// match extended by a larger `--games` keeps its fingerprint, and every game of it can be checked
/// against it (the `MatchGames` tag records the count).
pub fn fingerprint(config: &MatchConfig) -> String {
    // Every field named, none passed over with `..`: a new setting does not compile until it is
    // hashed here or left out below with the reason.
    let MatchConfig {
        engines,
        gauntlet,
        openings,
        random_plies,
        settings,
        // How many games: see above.
        games: _,
        // Where and how fast the games are played, and how they are written.
        concurrency: _,
        pgn: _,
        notation: _,
        shard: _,
        // When to stop.
        sprt: _,
        resume: _,
    } = config;
    let mut fields = Fields(Vec::new());
    // A version of this layout: a change to what is hashed changes every fingerprint (2: the
    // programs by their contents rather than their paths, and the games left out; 3: option
    // values that name files by the files' contents).
    fields.text("chariot match settings 3");
    fields.number(engines.len() as u64);
    for engine in engines {
        engine_settings(&mut fields, engine);
    }
    fields.number(u64::from(*gauntlet));
    fields.number(openings.len() as u64);
    for Opening { start, moves } in openings {
        fields.text(&start.to_fen());
        fields.number(moves.len() as u64);
        for mv in moves {
            fields.text(&mv.to_string());
        }
    }
    // Hashed only when given, so that matches without random plies keep their fingerprints.
    if let Some(RandomPlies { plies, seed }) = random_plies {
        fields.text("random plies");
        fields.number(u64::from(*plies));
        fields.number(*seed);
    }
    game_settings(&mut fields, settings);
    format!("{:016x}", fnv1a64(&fields.0))
}

/// One engine: its name, program, arguments, protocol, ranks, options and own limit.
fn engine_settings(fields: &mut Fields, engine: &EngineSpec) {
    let EngineSpec { name, cmd, args, proto, ranks_from_one, options, limit } = engine;
    fields.text(name);
    fields.text(&program_identity(cmd));
    fields.number(args.len() as u64);
    for arg in args {
        fields.text(arg);
    }
    fields.text(match proto {
        Protocol::Ucci => "ucci",
        Protocol::Uci => "uci",
    });
    fields.number(u64::from(*ranks_from_one));
    fields.number(options.len() as u64);
    for (name, value) in options {
        fields.text(name);
        fields.text(&option_value_identity(value));
    }
    // Hashed only when given, so that matches without own limits keep their fingerprints.
    if let Some(own) = limit {
        fields.text("own limit");
        fields.text(&own.describe());
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::notation::MoveNotation;
    use crate::tournament::spec::SprtSpec;
    use crate::tournament::Shard;

    fn config() -> MatchConfig {
        MatchConfig {
            engines: vec![
                EngineSpec::parse("name=a,cmd=/bin/a,arg=x,option.Hash=16").unwrap(),
                EngineSpec::parse("name=b,cmd=/bin/b,proto=uci").unwrap(),
            ],
            gauntlet: false,
            games: 4,
            openings: vec![Opening::startpos()],
            random_plies: None,
            concurrency: 1,
            pgn: None,
            notation: MoveNotation::Iccs,
            sprt: None,
            resume: false,
            shard: None,
            settings: GameSettings {
                limit: Limit::Nodes(1000),
                tolerance_ms: 100,
                move_timeout: Duration::from_secs(60),
                handshake_timeout: Duration::from_secs(10),
                draw: None,
                resign: None,
            },
        }
    }

    /// A change to the settings.
    type Change = fn(&mut MatchConfig);

    #[test]
    fn what_decides_the_games_changes_the_fingerprint() {
        let base = fingerprint(&config());
        assert_eq!(base.len(), 16);
        assert!(base.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()), "{base}");
        assert_eq!(fingerprint(&config()), base, "the same settings, the same fingerprint");
        let changes: [(&str, Change); 23] = [
            ("name", |c| c.engines[0].name = "c".into()),
            ("cmd", |c| c.engines[0].cmd = PathBuf::from("/bin/c")),
            ("args", |c| c.engines[0].args.push("y".into())),
            ("arg split", |c| c.engines[0].args = vec!["".into(), "x".into()]),
            ("proto", |c| c.engines[0].proto = Protocol::Uci),
            ("ranks", |c| c.engines[1].ranks_from_one = true),
            ("option", |c| c.engines[0].options[0].1 = "32".into()),
            ("order", |c| c.engines.swap(0, 1)),
            ("gauntlet", |c| c.gauntlet = true),
            ("openings", |c| c.openings.push(Opening::startpos())),
            ("random plies", |c| c.random_plies = Some(RandomPlies { plies: 2, seed: 1 })),
            ("random seed", |c| c.random_plies = Some(RandomPlies { plies: 1, seed: 2 })),
            ("own limit", |c| c.engines[1].limit = Some(Limit::Depth(3))),
            ("own limit value", |c| c.engines[1].limit = Some(Limit::Depth(4))),
            ("limit", |c| c.settings.limit = Limit::Nodes(1001)),
            ("limit kind", |c| c.settings.limit = Limit::MoveTime(1000)),
            ("tolerance", |c| c.settings.tolerance_ms = 0),
            ("timeout", |c| c.settings.move_timeout = Duration::from_secs(61)),
            ("handshake", |c| c.settings.handshake_timeout = Duration::from_secs(11)),
            ("draw", |c| {
                c.settings.draw =
                    Some(DrawRule { move_number: 40, move_count: 8, threshold: Threshold::Score(10) })
            }),
            ("resign", |c| {
                c.settings.resign = Some(ResignRule { move_count: 3, threshold: Threshold::Score(600) })
            }),
            // The same number as a win/draw/loss bound is another rule.
            ("draw by wdl", |c| {
                c.settings.draw =
                    Some(DrawRule { move_number: 40, move_count: 8, threshold: Threshold::Wdl(10) })
            }),
            ("resign by wdl", |c| {
                c.settings.resign = Some(ResignRule { move_count: 3, threshold: Threshold::Wdl(600) })
            }),
        ];
        let mut seen = vec![base.clone()];
        for (what, change) in changes {
            let mut c = config();
            change(&mut c);
            let f = fingerprint(&c);
            assert!(!seen.contains(&f), "{what} did not change the fingerprint");
            seen.push(f);
        }
        // An opening's moves count, not only how many there are.
        let line = |text: &str| Opening::parse(text).unwrap();
        let (mut one, mut other) = (config(), config());
        one.openings = vec![line("h2e2 h9g7")];
        other.openings = vec![line("h2e2 b9c7")];
        assert_ne!(fingerprint(&one), fingerprint(&other));
    }

    /// Fingerprints already written into PGNs must not move: `match --resume` and `match report`
    /// compare them with the fingerprints of new runs. The values were computed by the code before
    /// the settings were destructured field by field; a change to the layout must raise its
    /// version instead.
    #[test]
    fn fingerprints_of_existing_matches_stay_the_same() {
        let mut every_rule = config();
        every_rule.gauntlet = true;
        every_rule.engines[1].limit = Some(Limit::Depth(3));
        every_rule.openings = vec![Opening::parse("h2e2 h9g7").unwrap(), Opening::startpos()];
        every_rule.random_plies = Some(RandomPlies { plies: 2, seed: 7 });
        every_rule.settings.limit = Limit::Clock { base_ms: 5000, inc_ms: 50 };
        every_rule.settings.draw =
            Some(DrawRule { move_number: 40, move_count: 8, threshold: Threshold::Score(10) });
        every_rule.settings.resign = Some(ResignRule { move_count: 3, threshold: Threshold::Wdl(950) });
        let mut by_time = config();
        by_time.settings.limit = Limit::MoveTime(250);
        by_time.settings.draw =
            Some(DrawRule { move_number: 0, move_count: 5, threshold: Threshold::Wdl(900) });
        by_time.settings.resign = Some(ResignRule { move_count: 2, threshold: Threshold::Score(600) });
        let found = [fingerprint(&config()), fingerprint(&every_rule), fingerprint(&by_time)];
        assert_eq!(found, ["54175115810d29d2", "5c45d5ea0ac83abf", "c99fb94b47c29e1e"]);
    }

    /// A fresh folder holding a file `name` with `bytes` and a copy of it: (folder, file, copy).
    fn file_and_copy(tag: &str, name: &str, bytes: &[u8]) -> (PathBuf, PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("chariot-fingerprint-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (here, there) = (dir.join(name), dir.join(format!("copy-of-{name}")));
        std::fs::write(&here, bytes).unwrap();
        std::fs::copy(&here, &there).unwrap();
        (dir, here, there)
    }

    #[test]
    fn a_program_counts_by_its_contents_not_by_its_place() {
        let (dir, here, there) = file_and_copy("program", "engine", b"#!/bin/sh\necho one\n");
        let with_cmd = |cmd: &Path| {
            let mut c = config();
            c.engines[0].cmd = cmd.to_path_buf();
            fingerprint(&c)
        };
        let first = with_cmd(&here);
        assert_eq!(with_cmd(&there), first, "a copy elsewhere plays the same match");
        std::fs::write(&here, b"#!/bin/sh\necho two\n").unwrap();
        let rebuilt = with_cmd(&here);
        assert_ne!(rebuilt, first, "a program rebuilt in place is another engine");
        assert_ne!(with_cmd(&dir.join("no-such-engine")), first);
        std::fs::remove_dir_all(&dir).unwrap();

        // A bare name is the file on PATH that would be started; an unknown one stays a name.
        let sh = program_file(Path::new("sh")).expect("sh on PATH");
        assert!(sh.is_absolute() || sh.components().count() > 1, "{}", sh.display());
        assert!(program_identity(Path::new("sh")).starts_with("program "));
        let unknown = "chariot-no-such-program-on-path";
        assert_eq!(program_identity(Path::new(unknown)), format!("command {unknown}"));
    }

    #[test]
    fn an_option_naming_a_file_counts_by_the_file() {
        let (dir, here, there) = file_and_copy("option", "net.nnue", b"a net");
        let with_net = |net: &Path| {
            let mut c = config();
            c.engines[0].options.push(("EvalFile".to_string(), net.to_string_lossy().into_owned()));
            fingerprint(&c)
        };
        let first = with_net(&here);
        assert_eq!(with_net(&there), first, "a copy of the net under another name is the same setting");
        std::fs::write(&there, b"another net").unwrap();
        assert_ne!(with_net(&there), first, "another net at a path is another setting");
        assert_ne!(with_net(&dir.join("missing.nnue")), first, "a missing file counts by its name");
        std::fs::remove_dir_all(&dir).unwrap();
        // Values that name no file count as written.
        assert_eq!(option_value_identity("16"), "value 16");
        assert_ne!(option_value_identity("16"), option_value_identity("32"));
    }

    #[test]
    fn where_and_how_fast_the_games_are_played_does_not() {
        let base = fingerprint(&config());
        let mut c = config();
        c.concurrency = 8;
        c.pgn = Some(PathBuf::from("/tmp/shard-3.pgn"));
        c.notation = MoveNotation::Wxf;
        c.sprt = Some(SprtSpec { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 });
        c.resume = true;
        c.shard = Some(Shard::new(3, 8).unwrap());
        // Nor how many games there are: a match extended by a larger `--games` is the same match.
        c.games = 6;
        assert_eq!(fingerprint(&c), base);
    }
}
