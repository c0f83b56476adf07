//! The session and the command loop end to end, in process: what each command answers, in
//! both dialects, and how searches, perfts and the end of the input interact.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver};

use super::Session;
use crate::board::{movegen, Move};
use crate::protocol::dialect::Dialect;
use crate::protocol::input::MAX_LINE_BYTES;
use crate::protocol::options;
use crate::protocol::output::output;
use crate::protocol::position_cmd::parse_position;
use crate::protocol::run;

/// A writer whose bytes the test can read back; it fails every write after `lines_ok` lines
/// when that is set, as a closed pipe does.
#[derive(Clone, Default)]
struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
    lines_ok: Option<usize>,
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = self.bytes.lock().unwrap();
        if self.lines_ok.is_some_and(|n| bytes.iter().filter(|&&b| b == b'\n').count() >= n) {
            return Err(io::Error::from(io::ErrorKind::BrokenPipe));
        }
        bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.bytes.lock().unwrap().clone()).unwrap().lines().map(str::to_string).collect()
    }
}

/// Input that gives `script` and then neither ends nor gives more: a GUI that is alive but
/// silent (or one whose output side alone has gone).
struct SilentAfter {
    script: io::Cursor<Vec<u8>>,
    _never: Receiver<u8>,
}

impl io::Read for SilentAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.script.read(buf)? {
            0 => {
                let _ = self._never.recv();
                Ok(0)
            }
            n => Ok(n),
        }
    }
}

/// Runs `script` through a fresh loop and returns the output lines.
fn replies(script: &'static str) -> Vec<String> {
    let capture = Capture::default();
    run(script.as_bytes(), output(capture.clone())).unwrap();
    capture.lines()
}

/// Runs the loop on `input` in a thread; its result and output if it ended within `limit`.
fn run_within(
    input: impl BufRead + Send + 'static,
    capture: Capture,
    limit: Duration,
) -> Result<(io::Result<()>, Vec<String>), Vec<String>> {
    let (tx, rx) = bounded(1);
    let out = output(capture.clone());
    thread::spawn(move || {
        let _ = tx.send(run(input, out));
    });
    match rx.recv_timeout(limit) {
        Ok(result) => Ok((result, capture.lines())),
        Err(_) => Err(capture.lines()),
    }
}

fn new_session() -> (Session, Capture) {
    let capture = Capture::default();
    (Session::new(output(capture.clone())), capture)
}

/// Feeds `script` to a session line by line, letting each search end by itself before the
/// next line (as a GUI waits for `bestmove`), and returns the output lines.
fn replies_in_turn(script: &str) -> Vec<String> {
    let (mut session, capture) = new_session();
    in_turn(&mut session, script);
    capture.lines()
}

/// Feeds `script` to `session` as `replies_in_turn` does.
fn in_turn(session: &mut Session, script: &str) {
    for line in script.lines() {
        session.handle_line(line).unwrap();
        if session.is_thinking() {
            let finished = session.done.recv();
            session.receive(finished).unwrap();
        }
    }
}

fn legal_answer(position: &str, line: &str) -> bool {
    let Some(mv) = line.strip_prefix("bestmove ").and_then(|rest| rest.split(' ').next()) else {
        return false;
    };
    let mut pos = parse_position(position).unwrap();
    Move::parse_iccs(mv).is_some_and(|m| movegen::is_legal(&mut pos, m))
}

#[test]
fn ucci_handshake_and_quit() {
    let lines = replies("ucci\nisready\nquit\nisready\n");
    assert!(lines[0].starts_with("id name Chariot"), "{lines:?}");
    assert!(lines.contains(&"option usemillisec type check default false".to_string()));
    let ok = lines.iter().position(|l| l == "ucciok").expect("ucciok");
    // Nothing is read after quit, so only one readyok.
    assert_eq!(lines[ok + 1..], ["readyok", "bye"]);
}

#[test]
fn uci_dialect_has_no_bye_and_refuses_a_switch() {
    let lines = replies("uci\nucci\nquit\n");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string error: 'ucci' after the uci handshake: this session speaks uci")
    );
    assert!(lines.contains(&"uciok".to_string()));
    assert!(!lines.contains(&"bye".to_string()));
}

#[test]
fn the_first_known_command_picks_the_dialect() {
    let (mut session, _) = new_session();
    session.handle_line("isready").unwrap();
    assert_eq!(session.dialect(), Some(Dialect::Uci));
    let (mut session, capture) = new_session();
    session.handle_line("   ").unwrap();
    assert_eq!(session.dialect(), None, "blank lines are not commands");
    // A byte-order mark glued to the handshake, or any junk, picks nothing: UCCI still can.
    session.handle_line("\u{feff}ucci").unwrap();
    session.handle_line("hello").unwrap();
    assert_eq!(session.dialect(), None);
    session.handle_line("ucci").unwrap();
    assert_eq!(session.dialect(), Some(Dialect::Ucci));
    assert_eq!(capture.lines()[0], "info string error: unknown command '\u{feff}ucci'");
}

#[test]
fn position_and_perft() {
    // Start position: 44 legal moves (`docs/rules.md`, reference counts).
    // In turn: each perft answers before the next line is read (the loop would race them).
    let lines =
        replies_in_turn("position startpos\ngo perft 1\nposition startpos moves h2e2 x\ngo perft 1\n");
    assert_eq!(lines[0], "Nodes searched: 44");
    // The bad position is refused, and the start position does not stay: there is no position.
    assert!(lines[1].starts_with("info string error: move 2 'x'"), "{lines:?}");
    assert!(lines[2].starts_with("info string error: no position: "), "{lines:?}");
    assert_eq!(lines.len(), 3, "{lines:?}");
}

/// The error every command needing a position gets after `position` refused `why`.
fn no_position(why: &str) -> String {
    format!("info string error: no position: the last position command was refused ({why}); send a valid one")
}

#[test]
fn after_a_refused_position_nothing_is_played_or_shown_until_a_valid_one_comes() {
    // The kings face each other on the e-file: refused, as a real client once sent it. Before,
    // the next `go` answered with a move of the position before.
    let facing = "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let fen_error = "bad FEN: the kings face each other";
    for (handshake, no_move) in [("ucci", "nobestmove"), ("uci", "bestmove (none)")] {
        let script = format!(
            "{handshake}\nposition startpos moves h2e2\n{facing}\ngo depth 3\nd\neval\nflip\nbanmoves h9g7\n\
             go perft 1\ngo ponder depth 3\nposition startpos moves h2e2 h9h2\ngo depth 3\n\
             position startpos moves h2e2\ngo depth 2\n"
        );
        let lines = replies_in_turn(&script);
        let ok = lines.iter().position(|l| l == &format!("{handshake}ok")).unwrap();
        let answers: Vec<&str> = lines[ok + 1..]
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
            .collect();
        let illegal = "move 2 'h9h2' is illegal";
        let moves_error = answers.get(10).copied().unwrap_or_default();
        assert!(moves_error.starts_with(&format!("info string error: {illegal}")), "{answers:?}");
        let moves_why = moves_error.trim_start_matches("info string error: ");
        assert_eq!(
            answers[..13],
            [
                format!("info string error: {fen_error}"),
                no_position(fen_error),
                no_move.to_string(),
                no_position(fen_error),
                no_position(fen_error),
                no_position(fen_error),
                format!(
                    "info string error: banmoves: {}",
                    &no_position(fen_error)["info string error: ".len()..]
                ),
                no_position(fen_error),
                no_position(fen_error),
                no_move.to_string(),
                moves_error.to_string(),
                no_position(moves_why),
                no_move.to_string(),
            ],
            "{handshake}"
        );
        // A valid position ends it: the search plays in it.
        assert_eq!(answers.len(), 14, "{answers:?}");
        assert!(legal_answer("startpos moves h2e2", answers[13]), "{answers:?}");
    }
}

#[test]
fn perft_runs_on_the_engine_thread_and_stops() {
    let (mut session, capture) = new_session();
    // About 10^15 leaves: only a stop ends this.
    session.handle_line("go perft 12").unwrap();
    assert!(session.is_thinking());
    session.handle_line("isready").unwrap();
    session.handle_line("go depth 1").unwrap();
    session.handle_line("stop").unwrap();
    let finished = session.done.recv_timeout(Duration::from_secs(2)).expect("perft stops");
    session.receive(Ok(finished)).unwrap();
    assert_eq!(
        capture.lines(),
        [
            "readyok",
            "info string error: already thinking: send stop first",
            "info string perft 12 stopped before it was done"
        ]
    );
    // Quit in the middle of one, through the whole loop.
    let script = &b"uci\ngo perft 12\nisready\nquit\n"[..];
    let (result, lines) = run_within(script, Capture::default(), Duration::from_secs(5)).expect("ends");
    assert!(result.is_ok());
    let ok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[ok + 1..], ["readyok", "info string perft 12 stopped before it was done"]);
    // The example: refused with the range, and the loop goes on.
    let script = &b"uci\ngo perft 2971\nisready\nstop\nquit\n"[..];
    let (_, lines) = run_within(script, Capture::default(), Duration::from_secs(5)).expect("ends");
    assert_eq!(
        lines[lines.len() - 2..],
        ["info string error: perft depth '2971' is too large: at most 64", "readyok"]
    );
}

#[test]
fn setoption_in_ucci() {
    let (mut session, capture) = new_session();
    for line in ["ucci", "setoption usemillisec true", "setoption nosuch 16"] {
        session.handle_line(line).unwrap();
    }
    assert!(session.options().use_millisec);
    let lines = capture.lines();
    assert_eq!(lines.last().unwrap(), "info string error: unknown option 'nosuch' ignored");
}

#[test]
fn a_hash_size_that_cannot_be_had_keeps_the_old_table() {
    let Some(free) = crate::search::memory::available_bytes() else { return };
    let mb = (free >> 20) as usize + 1;
    if mb > options::MAX_HASH_MB {
        eprintln!("skipped: {mb} MB free, more than the largest Hash");
        return;
    }
    let (mut session, capture) = new_session();
    session.handle_line("uci").unwrap();
    session.handle_line("position fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1").unwrap();
    session.handle_line("go depth 5").unwrap();
    let finished = session.done.recv();
    session.receive(finished).unwrap();
    session.handle_line(&format!("setoption name Hash value {mb}")).unwrap();
    let error = capture.lines().pop().unwrap();
    assert!(
        error.starts_with(&format!("info string error: a hash table of {mb} MB cannot be allocated"))
            && error.ends_with("the 64 MB table stays"),
        "{error}"
    );
    assert_eq!(session.options().hash_mb, 64);
    // The old table, contents and all: the root's result is still there.
    session.handle_line("probe fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1").unwrap();
    let pophash = capture.lines().pop().unwrap();
    assert!(pophash.starts_with("pophash bestmove "), "{pophash}");
}

#[test]
fn lines_that_are_not_text_or_too_long_are_one_error_each() {
    let capture = Capture::default();
    run(&b"\xff\xfe\nisready\n"[..], output(capture.clone())).unwrap();
    assert_eq!(
        capture.lines(),
        ["info string error: the line is not UTF-8 text (byte 0xff at offset 0): ignored", "readyok"]
    );
    let mut input = vec![b'x'; MAX_LINE_BYTES + 7];
    input.extend_from_slice(b"\n");
    input.extend(std::iter::repeat_n(b'y', 1 << 19));
    input.extend_from_slice(b"\nisready\n");
    let capture = Capture::default();
    run(io::Cursor::new(input), output(capture.clone())).unwrap();
    let lines = capture.lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        lines[0],
        format!(
            "info string error: the line is {} bytes long; at most {MAX_LINE_BYTES} are read: ignored",
            MAX_LINE_BYTES + 7
        )
    );
    assert_eq!(lines[1], format!("info string error: unknown command '{}…' (524288 bytes)", "y".repeat(40)));
    assert_eq!(lines[2], "readyok");
}

#[test]
fn errors_quote_a_few_dozen_characters_of_junk() {
    let (mut session, capture) = new_session();
    let junk = "w".repeat(1 << 20);
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    for line in [
        // First, while there is a position to search.
        format!("go depth {junk}"),
        format!("position startpos moves {junk}"),
        format!("setoption name Hash value {junk}"),
        format!("setoption name {junk} value 1"),
        format!("banmoves {junk}"),
        format!("isready {junk}"),
        // The FEN reader's own message repeats its field whole: the loop cuts it.
        format!("position fen {start} {junk}"),
    ] {
        session.handle_line(&line).unwrap();
    }
    let lines = capture.lines();
    assert_eq!(lines.len(), 8, "{lines:?}");
    for line in &lines {
        assert!(line.len() < 1200, "{} bytes: {}…", line.len(), &line[..200]);
    }
    assert!(lines.iter().filter(|l| l.contains("(1048576 bytes)")).count() >= 6, "{lines:?}");
    assert_eq!(lines[6], "readyok");
}

#[test]
fn control_characters_in_an_error_are_escaped() {
    let (mut session, capture) = new_session();
    session.handle_line("\u{1b}[2J\0go").unwrap();
    // The FEN reader's own message repeats the field, bell and all.
    session.handle_line("position fen 4k4/9/9/9/9/9/9/9/9/4K4 \u{7}").unwrap();
    let lines = capture.lines();
    assert_eq!(lines[0], "info string error: unknown command '\\u{1b}[2J\\0go'");
    assert!(lines[1].contains("'\\u{7}'") && !lines[1].contains('\u{7}'), "{}", lines[1]);
}

#[test]
fn malformed_lines_get_one_error_and_are_still_done() {
    let lines = replies_in_turn(
        "ucci extra\nisready now\nucinewgame 1\ndebug maybe\nsetoption newgame please\nstop it\n\
         go searchmoves depth 1\nquit now\n",
    );
    let ok = lines.iter().position(|l| l == "ucciok").unwrap();
    assert_eq!(lines[0], "info string error: ucci takes no arguments: 'extra' ignored");
    let rest: Vec<&str> = lines[ok + 1..]
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
        .collect();
    assert_eq!(
        rest[..8],
        [
            "info string error: isready takes no arguments: 'now' ignored",
            "readyok",
            "info string error: ucinewgame takes no arguments: '1' ignored",
            "info string error: debug wants on or off, not 'maybe'",
            "info string error: a button takes no value: 'please' ignored",
            "info string error: stop takes no arguments: 'it' ignored",
            "nobestmove",
            "info string error: searchmoves names no move: all moves are searched",
        ]
    );
    assert!(legal_answer("startpos", rest[8]), "{rest:?}");
    assert_eq!(rest[9..], ["info string error: quit takes no arguments: 'now' ignored", "bye"]);
}

#[test]
fn ponderhit_draw_draw_is_reported_and_the_draw_offer_kept() {
    // Bare kings and advisors: a dead draw, so an offer is accepted.
    let (mut session, capture) = new_session();
    session.handle_line("ucci").unwrap();
    session.handle_line("position fen 3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
    session.handle_line("go ponder depth 3").unwrap();
    session.handle_line("ponderhit draw draw").unwrap();
    let finished = session.done.recv();
    session.receive(finished).unwrap();
    let lines = capture.lines();
    assert!(lines.contains(&"info string error: ponderhit takes only 'draw': 'draw' ignored".to_string()));
    assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
}

#[test]
fn end_of_input_stops_every_search_and_answers() {
    for go in [
        "go depth 60",
        "go movetime 600000",
        "go nodes 100000000000",
        "go wtime 600000 btime 600000",
        "go ponder wtime 600000 btime 600000",
        "go infinite",
        "go mate 40",
    ] {
        let script = format!("uci\nsetoption name OwnBook value false\nposition startpos\n{go}\n");
        let started = Instant::now();
        let (result, lines) =
            run_within(io::Cursor::new(script.into_bytes()), Capture::default(), Duration::from_secs(5))
                .unwrap_or_else(|lines| panic!("{go}: still searching after the end of input: {lines:?}"));
        assert!(result.is_ok());
        assert!(legal_answer("startpos", lines.last().unwrap()), "{go}: {lines:?}");
        assert!(started.elapsed() < Duration::from_secs(2), "{go}: {:?}", started.elapsed());
    }
}

#[test]
fn an_output_nobody_reads_stops_the_search_and_the_loop() {
    for go in ["go infinite", "go depth 60", "go ponder wtime 600000 btime 600000"] {
        let (_keep_open, never) = bounded(0);
        let script = io::Cursor::new(format!("uci\nposition startpos\n{go}\n").into_bytes());
        let input = io::BufReader::new(SilentAfter { script, _never: never });
        // The handshake is read; everything after it fails, as a closed pipe does.
        let capture = Capture { lines_ok: Some(30), ..Capture::default() };
        let (result, _) = run_within(input, capture, Duration::from_secs(5))
            .unwrap_or_else(|lines| panic!("{go}: still running with a broken output: {lines:?}"));
        assert_eq!(result.unwrap_err().kind(), io::ErrorKind::BrokenPipe, "{go}");
    }
}

#[test]
fn depth_zero_and_idle_stop_in_ucci() {
    let lines = replies("ucci\nstop\ngo depth 0\nquit\n");
    let ok = lines.iter().position(|l| l == "ucciok").unwrap();
    assert_eq!(lines[ok + 1..], ["nobestmove", "nobestmove", "bye"]);
}

#[test]
fn a_search_ends_with_a_legal_bestmove() {
    let lines = replies_in_turn("uci\nposition startpos moves h2e2\ngo depth 4\n");
    assert!(legal_answer("startpos moves h2e2", lines.last().unwrap()), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")), "{lines:?}");
}

#[test]
fn a_draw_offer_is_accepted_only_when_not_better() {
    // Bare kings and advisors: a dead draw (score about 0): accepted.
    let lines =
        replies_in_turn("ucci\nposition fen 3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\ngo draw depth 3\n");
    assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    // An extra rook: declined.
    let lines =
        replies_in_turn("ucci\nposition fen 3ak4/4a4/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1\ngo draw depth 3\n");
    assert!(!lines.last().unwrap().ends_with(" draw"), "{lines:?}");
}

#[test]
fn options_are_parsed_when_set_and_handed_to_the_search_whole() {
    let (mut session, capture) = new_session();
    in_turn(
        &mut session,
        "ucci\nsetoption tune rfp_margin=70\nsetoption without lmr\nsetoption knowledge small\n\
         setoption threads 2\nsetoption moveoverhead 50\nsetoption algorithm mtdf\n",
    );
    let typed = session.options().engine().clone();
    assert_eq!(typed.params.rfp_margin, 70);
    assert!(!typed.features.late_move_reductions && typed.features.null_move);
    assert!(typed.terms.cannons && !typed.terms.pawns && !typed.terms.king_safety);
    assert_eq!((typed.threads, typed.move_overhead_ms), (2, 50));
    assert_eq!(typed.algorithm, crate::search::Algorithm::Mtdf);
    // Bad values mid-game are refused when they arrive; the values in force stay.
    let before = capture.lines().len();
    in_turn(
        &mut session,
        "setoption tune rfp_margin=7000\nsetoption without lmr,nullmove\nsetoption knowledge all\n\
         setoption threads 0\nsetoption algorithm alphabeta\n",
    );
    let errors = &capture.lines()[before..];
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(errors.iter().all(|l| l.starts_with("info string error: ")), "{errors:?}");
    assert_eq!(session.options().engine(), &typed);
    // The search gets them at the next `go`, in one piece.
    assert_eq!(session.engine.options, crate::search::EngineOptions::default());
    in_turn(&mut session, "position startpos\ngo depth 2\n");
    assert_eq!(session.engine.options, typed);
    assert!(capture.lines().last().unwrap().starts_with("bestmove "));
}

/// A session with a seeded book choice, in `dialect`, after `script`.
fn seeded_session(script: &str) -> (Session, Capture) {
    let (mut session, capture) = new_session();
    session.rng = rand::SeedableRng::seed_from_u64(17);
    in_turn(&mut session, script);
    (session, capture)
}

/// The `info string` lines that are not errors.
fn notes(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("info string ") && !l.contains("error"))
        .collect()
}

#[test]
fn debug_tells_the_book_decision_the_evaluation_and_the_time_budget() {
    let script = "ucci\nsetoption usemillisec true\nposition startpos\ngo time 60000 increment 0\n\
                  go depth 1\nposition fen 3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1\n\
                  go time 2000 increment 0\nsetoption usebook false\ngo time 2000 increment 0\n";
    let (_, quiet) = seeded_session(script);
    let quiet = quiet.lines();
    assert_eq!(notes(&quiet), Vec::<&str>::new(), "{quiet:?}");
    let (_, told) = seeded_session(&format!("ucci\nsetoption debug true\n{}", &script[5..]));
    let told = told.lines();
    let book_line = told.iter().find(|l| l.starts_with("info message book move ")).unwrap();
    let mv = book_line.split(' ').nth(4).unwrap();
    // The same move as without debug: debug only tells.
    assert!(quiet.contains(book_line), "{book_line} {quiet:?}");
    let notes = notes(&told);
    assert_eq!(notes.len(), 10, "{told:?}");
    assert!(notes[0].starts_with(&format!("info string book: {mv} drawn from ")), "{notes:?}");
    assert!(notes[0].contains(" moves of embedded (weight ") && notes[0].ends_with(", randomness none)"));
    assert_eq!(notes[1], "info string no book move: the book is not asked for a 'go depth'");
    // Each search says which evaluation it runs with: the built-in net by default.
    assert!(notes[2].starts_with("info string evaluation: NNUE ") && notes[2].ends_with(" (built in)"));
    assert_eq!(notes[3], "info string time budget: none, no clock limits this search");
    assert_eq!(notes[4], "info string no book move: no book has this position");
    assert_eq!(notes[5], notes[2]);
    assert!(notes[6].starts_with("info string time budget: soft "), "{notes:?}");
    assert_eq!(notes[7], "info string no book move: the book is switched off");
    assert_eq!(notes[5..7], notes[8..10], "the same clock, the same budget");
    // The budget line comes before the search it is for.
    let at = told.iter().position(|l| l == notes[6]).unwrap();
    assert!(told[at + 1..].iter().any(|l| l.starts_with("info depth")), "{told:?}");
}

#[test]
fn debug_names_a_banned_book_move_and_an_unreadable_book() {
    let (_, first) = seeded_session("ucci\nposition startpos\ngo time 600 increment 0\n");
    let first = first.lines();
    let mv = first.iter().find_map(|l| l.strip_prefix("info message book move ")).unwrap();
    let mv = mv.split(' ').next().unwrap();
    let (_, banned) = seeded_session(&format!(
        "ucci\nsetoption debug\nsetoption usemillisec\nposition startpos\nbanmoves {mv}\n\
         go time 1000 increment 0\n"
    ));
    let banned = banned.lines();
    assert_eq!(notes(&banned)[0], format!("info string no book move: {mv} drawn from embedded is banned"));
    let answer = banned.last().unwrap();
    assert!(legal_answer("startpos", answer) && answer.split(' ').nth(1) != Some(mv), "{answer}");
    let (_, unread) = seeded_session(
        "uci\ndebug on\nsetoption name OwnBook value true\nsetoption name BookFile value /no/such/book.cbk\n\
         go wtime 1000 btime 1000\n\
         debug off\ngo wtime 1000 btime 1000\n",
    );
    let unread = unread.lines();
    let notes = notes(&unread);
    assert_eq!(notes[0], "info string no book move: no book could be read", "{unread:?}");
    assert!(notes[1].starts_with("info string evaluation: NNUE "), "{unread:?}");
    assert_eq!(notes[2], "info string time budget: soft 18 ms, hard 90 ms", "{unread:?}");
    assert_eq!(notes.len(), 3, "nothing after debug off: {unread:?}");
}

#[test]
fn debug_gives_the_movetime_budget_less_the_overhead() {
    let (mut session, lines) = seeded_session(
        "uci\ndebug on\nsetoption name OwnBook value false\nsetoption name Move Overhead value 50\n\
         go movetime 300\n",
    );
    // Pondering ends only with a stop (or a ponderhit).
    session.handle_line("go ponder movetime 300").unwrap();
    session.handle_line("stop").unwrap();
    let finished = session.done.recv();
    session.receive(finished).unwrap();
    let lines = lines.lines();
    // The evaluation lines between are `debug_tells_the_book_decision_the_evaluation_…`'s.
    let notes: Vec<&str> =
        notes(&lines).into_iter().filter(|l| !l.starts_with("info string evaluation: ")).collect();
    assert_eq!(
        notes,
        [
            "info string no book move: the book is switched off",
            "info string time budget: soft 250 ms, hard 250 ms",
            "info string no book move: the book is switched off",
            "info string time budget: soft 250 ms, hard 250 ms, counted from ponderhit",
        ]
    );
}

// --- Issue 24: analysis GUIs get analysis; d, eval and flip. ---

/// Whether the lines hold a search's `info depth` before their `bestmove`, and no book move.
fn searched(lines: &[String]) -> bool {
    let Some(answer) = lines.iter().position(|l| l.starts_with("bestmove ")) else { return false };
    lines[..answer].iter().any(|l| l.starts_with("info depth"))
        && !lines.iter().any(|l| l.contains(" book move "))
}

#[test]
fn d_prints_the_board_the_fen_and_the_key() {
    let lines = replies_in_turn("uci\nposition startpos moves h2e2\nd\n");
    let pos = parse_position("startpos moves h2e2").unwrap();
    assert!(lines.contains(&"2   ＋  炮  ＋  ＋ [炮] ＋  ＋ (＋) ＋".to_string()), "{lines:?}");
    assert!(lines.contains(&"Black (黑) to move".to_string()), "{lines:?}");
    assert!(lines.contains(&"Last move: h2e2 炮二平五".to_string()), "{lines:?}");
    let fen = "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    assert_eq!(lines[lines.len() - 2], fen, "{lines:?}");
    assert_eq!(lines[lines.len() - 1], format!("Key: {:016X}", pos.key()));
    // After the handshake: numbers, ten ranks, the river, numbers, letters; two lines under; Fen; Key.
    let after = lines.iter().position(|l| l == "uciok").unwrap() + 1;
    assert_eq!(lines.len() - after, 14 + 2 + 2, "{lines:?}");
}

#[test]
fn the_console_commands_pick_no_dialect_and_take_no_arguments() {
    let lines = replies_in_turn("d\neval\nflip\nucci\nd extra\n");
    assert!(
        lines.contains(&"ucciok".to_string()),
        "d, eval and flip first must not lock UCCI out: {lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("this session speaks")), "{lines:?}");
    assert!(lines.contains(&"info string error: d takes no arguments: 'extra' ignored".to_string()));
    // The flip before ucci took effect: Black to move in the start position seen from Black.
    let fen = lines.iter().rev().find(|l| l.starts_with("Fen: ")).unwrap();
    assert_eq!(fen, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
}

#[test]
fn flip_swaps_the_side_to_move_for_the_next_go() {
    let (mut session, capture) = new_session();
    in_turn(&mut session, "uci\nposition startpos moves h2e2\nbanmoves h9g7\nflip\nd\n");
    let flipped = parse_position("startpos moves h2e2").unwrap().color_flipped();
    assert_eq!(session.position(), Some(&flipped));
    let lines = capture.lines();
    assert!(lines.contains(&format!("Fen: {}", flipped.to_fen())), "{lines:?}");
    assert!(lines.contains(&"Red (红) to move".to_string()), "{lines:?}");
    assert!(session.ban_moves.is_empty(), "the bans named moves of the old position");
    // Flipping twice gives the position back (its history is gone).
    in_turn(&mut session, "flip\n");
    assert_eq!(session.position(), Some(&parse_position("startpos moves h2e2").unwrap()));
    // The next search plays for Red in the flipped position.
    in_turn(&mut session, "flip\nsetoption name OwnBook value false\ngo depth 2\n");
    let answer = capture.lines().last().unwrap().clone();
    let mv = Move::parse_iccs(answer.split(' ').nth(1).unwrap()).unwrap();
    assert!(movegen::is_legal(&mut flipped.clone(), mv), "{answer}");
}

#[test]
fn eval_ends_with_the_final_evaluation_from_the_side_to_moves_view() {
    let lines = replies_in_turn("uci\nposition startpos moves h2e2\neval\n");
    assert!(lines.iter().any(|l| l.starts_with("Pieces (material + placement")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("NNUE (built in): ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("NNUE total: ") && l.ends_with("(black to move's view)")));
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("Final evaluation: ")
            && last.contains(" internal (Black's view, the side to move): win ")
    );
    let chances = last.split("): ").nth(1).unwrap();
    let per_cents: u32 =
        chances.split(' ').skip(1).step_by(2).map(|c| c.trim_end_matches('%').parse::<u32>().unwrap()).sum();
    assert!((99..=101).contains(&per_cents), "win, draw and loss add up to 100% (rounded): {last}");
    // With the classic evaluation: its breakdown alone, and its own total.
    let classic = replies_in_turn("uci\nsetoption name Use NNUE value false\neval\n");
    assert!(!classic.iter().any(|l| l.starts_with("NNUE")), "{classic:?}");
    let total = classic.iter().find(|l| l.starts_with("Total: ")).unwrap();
    let score = total.split(' ').nth(1).unwrap();
    assert!(
        classic.last().unwrap().contains(&format!(", {score} internal (Red's view, the side to move)")),
        "{classic:?}"
    );
}

#[test]
fn d_and_eval_are_answered_during_a_search_without_stopping_it() {
    let (mut session, capture) = new_session();
    in_turn(&mut session, "uci\nposition startpos moves h2e2\n");
    session.handle_line("go infinite").unwrap();
    // Let the search report, so that its lines and the answers could mix.
    let start = Instant::now();
    while !capture.lines().iter().any(|l| l.starts_with("info depth")) {
        assert!(start.elapsed() < Duration::from_secs(10), "the search reports nothing");
        thread::sleep(Duration::from_millis(5));
    }
    session.handle_line("d").unwrap();
    session.handle_line("eval").unwrap();
    session.handle_line("flip").unwrap();
    assert!(session.is_thinking(), "still searching");
    let lines = capture.lines();
    assert!(lines.iter().any(|l| l.starts_with("Fen: ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("Final evaluation: ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "answered before any stop: {lines:?}");
    // Each answer is one block: no info line falls inside it.
    let first = lines.iter().position(|l| l.starts_with("Pieces (")).unwrap();
    let last = lines.iter().position(|l| l.starts_with("Final evaluation: ")).unwrap();
    assert!(lines[first..last].iter().all(|l| !l.starts_with("info ")), "{lines:?}");
    session.handle_line("stop").unwrap();
    let finished = session.done.recv();
    session.receive(finished).unwrap();
    // The search was on the position before the flip, and its answer is a move there.
    let answer = capture.lines().last().unwrap().clone();
    assert!(legal_answer("startpos moves h2e2", &answer), "{answer}");
}

#[test]
fn uci_searches_by_default_and_ucci_answers_from_the_book() {
    // UCI: OwnBook starts off, announced so, and a game move is searched.
    let uci = replies_in_turn("uci\nposition startpos\ngo movetime 100\ngo depth 1\n");
    assert!(uci.contains(&"option name OwnBook type check default false".to_string()), "{uci:?}");
    let second = uci.iter().position(|l| l.starts_with("bestmove")).unwrap() + 1;
    assert!(searched(&uci[..second]) && searched(&uci[second..]), "{uci:?}");
    // UCCI: usebook starts on, and a game move comes from the book.
    let ucci = replies_in_turn("ucci\nposition startpos\ngo time 100 increment 0\n");
    assert!(ucci.contains(&"option usebook type check default true".to_string()), "{ucci:?}");
    assert!(ucci.iter().any(|l| l.starts_with("info message book move ")), "{ucci:?}");
    assert!(!ucci.iter().any(|l| l.starts_with("info depth")), "{ucci:?}");
}

#[test]
fn go_infinite_and_multipv_never_answer_from_the_book() {
    // UCCI with its book on: `go infinite` searches until stopped.
    let (mut session, capture) = new_session();
    in_turn(&mut session, "ucci\nsetoption debug true\nposition startpos\n");
    session.handle_line("go infinite").unwrap();
    let start = Instant::now();
    while !capture.lines().iter().any(|l| l.starts_with("info depth")) {
        assert!(start.elapsed() < Duration::from_secs(10), "no search: {:?}", capture.lines());
        thread::sleep(Duration::from_millis(5));
    }
    session.handle_line("stop").unwrap();
    let finished = session.done.recv();
    session.receive(finished).unwrap();
    let lines = capture.lines();
    assert!(searched(&lines), "{lines:?}");
    assert!(
        lines.contains(&"info string no book move: the book is not asked for a 'go infinite'".to_string())
    );
    // UCI with the book switched on, and two lines asked for: a search, not the book.
    let lines = replies_in_turn(
        "uci\nsetoption name OwnBook value true\nsetoption name MultiPV value 2\ndebug on\n\
         position startpos\ngo movetime 100\n",
    );
    assert!(searched(&lines), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth") && l.contains(" multipv 2 ")), "{lines:?}");
    assert!(lines.contains(&"info string no book move: the book is not asked with MultiPV 2".to_string()));
    // And with one line again, the book answers.
    let lines = replies_in_turn(
        "uci\nsetoption name OwnBook value true\nsetoption name MultiPV value 2\n\
         setoption name MultiPV value 1\nposition startpos\ngo movetime 100\n",
    );
    assert!(lines.iter().any(|l| l.starts_with("info string book move ")), "{lines:?}");
}
