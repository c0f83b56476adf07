//! `read_pgn`: PGN text to games, replaying and checking every move; `PgnGames` reads them one
//! at a time, holding one game's lexemes and moves however large the text.

use std::collections::VecDeque;

use crate::board::Position;
use crate::notation::{parse_move, NotationError};
use crate::quote::quoted;

use super::lexer::{Lexeme, Lexer, Token};
use super::{PgnError, PgnGame, PgnMove, RESULTS};

/// Reads every game in `text` (none for a text without tags or moves).
///
/// Moves may be in ICCS, WXF or Chinese notation, mixed freely. Comments attach to the move before
/// them (those before the first move are dropped), variations are skipped, NAGs are ignored,
/// `!`/`?` suffixes are kept. A game ends at its result token or where the next game's tags begin;
/// without a result token, the `Result` tag (or `*`) is its result.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    PgnGames::new(text).collect()
}

/// The games of a PGN text, read as `read_pgn` reads them but one at a time: the first error
/// (a lexical one, or a move that is not legal) ends the games.
pub struct PgnGames<'a> {
    lexer: Lexer<'a>,
    /// Lexemes read ahead of the game: a Chinese move written with spaces inside, or the first
    /// lexeme of the next game.
    ahead: VecDeque<Lexeme>,
    /// Whether the games have ended, at the end of the text or at an error.
    ended: bool,
}

impl<'a> PgnGames<'a> {
    /// The games of `text`, from its first.
    pub fn new(text: &'a str) -> PgnGames<'a> {
        PgnGames { lexer: Lexer::new(text), ahead: VecDeque::new(), ended: false }
    }

    fn next_lexeme(&mut self) -> Result<Option<Lexeme>, PgnError> {
        match self.ahead.pop_front() {
            Some(lexeme) => Ok(Some(lexeme)),
            None => self.lexer.next().transpose(),
        }
    }

    /// Reads lexemes ahead until `count` wait (or the text ends).
    fn look_ahead(&mut self, count: usize) -> Result<(), PgnError> {
        while self.ahead.len() < count {
            match self.lexer.next().transpose()? {
                Some(lexeme) => self.ahead.push_back(lexeme),
                None => break,
            }
        }
        Ok(())
    }

    /// The next game, `None` after the last.
    fn game(&mut self) -> Result<Option<PgnGame>, PgnError> {
        let mut current: Option<GameReader> = None;
        while let Some(lexeme) = self.next_lexeme()? {
            let line = lexeme.line;
            match &lexeme.token {
                Token::Tag { name, value } => {
                    if current.as_ref().is_some_and(|g| g.in_movetext()) {
                        // The next game's first tag.
                        self.ahead.push_front(lexeme);
                        return Ok(current.map(GameReader::finish));
                    }
                    current.get_or_insert_with(GameReader::new).tag(name, value, line)?;
                }
                Token::Open => self.skip_variation(line)?,
                Token::Close => return Err(PgnError::new(line, "')' closes no variation")),
                Token::Comment(text) => {
                    if let Some(game) = current.as_mut() {
                        game.comment(text);
                    }
                }
                Token::Word(word) => {
                    if current.as_ref().is_some_and(|g| g.result.is_some()) {
                        // A word after the result starts the next game.
                        self.ahead.push_front(lexeme);
                        return Ok(current.map(GameReader::finish));
                    }
                    let game = current.get_or_insert_with(GameReader::new);
                    if word.is_ascii() {
                        game.word(std::slice::from_ref(&lexeme))?;
                    } else {
                        // A Chinese move may be split over as many as four words.
                        self.look_ahead(3)?;
                        let mut words = vec![lexeme];
                        words.extend(self.ahead.iter().take(3).cloned());
                        let used = game.word(&words)?;
                        self.ahead.drain(..used - 1);
                    }
                }
            }
        }
        Ok(current.map(GameReader::finish))
    }

    /// Skips the lexemes up to the `)` that closes the `(` just read on `open_line`.
    fn skip_variation(&mut self, open_line: usize) -> Result<(), PgnError> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.next_lexeme()?.map(|l| l.token) {
                Some(Token::Open) => depth += 1,
                Some(Token::Close) => depth -= 1,
                Some(_) => {}
                None => {
                    return Err(PgnError::new(open_line, "unterminated variation: '(' has no closing ')'"));
                }
            }
        }
        Ok(())
    }
}

impl Iterator for PgnGames<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        let game = self.game().transpose();
        self.ended = !matches!(game, Some(Ok(_)));
        game
    }
}

/// A game being read: its tags so far and the position its moves have reached.
struct GameReader {
    tags: Vec<(String, String)>,
    start: Position,
    pos: Position,
    moves: Vec<PgnMove>,
    result: Option<String>,
}

impl GameReader {
    fn new() -> GameReader {
        let pos = Position::startpos();
        // `start` is a clone because a clone reserves no room for history: a game then costs its
        // position, not the kilobytes a fresh one reserves for a search, and a text of a million
        // `*` results (a million games) does not take gigabytes.
        GameReader { tags: Vec::new(), start: pos.clone(), pos, moves: Vec::new(), result: None }
    }

    fn in_movetext(&self) -> bool {
        !self.moves.is_empty() || self.result.is_some()
    }

    fn tag(&mut self, name: &str, value: &str, line: usize) -> Result<(), PgnError> {
        if name.eq_ignore_ascii_case("FEN") {
            let start = Position::from_fen(value)
                .map_err(|e| PgnError::new(line, format!("bad FEN tag {}: {}", quoted(value), e.0)))?;
            self.start = start.clone();
            self.pos = start;
        }
        self.tags.push((name.to_string(), value.to_string()));
        Ok(())
    }

    fn comment(&mut self, text: &str) {
        let Some(last) = self.moves.last_mut() else {
            return;
        };
        last.comment = Some(match last.comment.take() {
            Some(before) if !text.is_empty() => format!("{before} {text}"),
            Some(before) => before,
            None => text.to_string(),
        });
    }

    /// Takes in the word at the head of `lexemes` (and, for a Chinese move written with spaces
    /// inside, the words that complete it); returns how many lexemes it used.
    fn word(&mut self, lexemes: &[Lexeme]) -> Result<usize, PgnError> {
        let Token::Word(word) = &lexemes[0].token else {
            return Ok(1);
        };
        let line = lexemes[0].line;
        if RESULTS.contains(&word.as_str()) {
            self.result = Some(word.clone());
            return Ok(1);
        }
        if let Some(number) = word.strip_prefix('$') {
            if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
                return Err(PgnError::new(line, format!("{} is not a NAG ($ and a number)", quoted(word))));
            }
            return Ok(1);
        }
        if is_suffix(word) {
            let Some(last) = self.moves.last_mut() else {
                return Err(PgnError::new(line, format!("{} follows no move", quoted(word))));
            };
            last.suffix = Some(word.clone());
            return Ok(1);
        }
        let mut text = without_move_number(word).to_string();
        if text.is_empty() {
            return Ok(1);
        }
        let mut used = 1;
        if !text.is_ascii() {
            while text.chars().count() < 4 {
                let Some(Lexeme { token: Token::Word(more), .. }) = lexemes.get(used) else {
                    break;
                };
                text.push_str(more);
                used += 1;
            }
        }
        let (text, suffix) = split_suffix(&text);
        let mv = parse_move(&self.pos, text).map_err(|e| {
            PgnError::new(
                line,
                match e {
                    NotationError::NoLegalMatch { .. } => format!("{} is not a legal move", quoted(text)),
                    NotationError::NoSuchPiece { reason, .. } => {
                        format!("{} is not a legal move: {reason}", quoted(text))
                    }
                    other => other.to_string(),
                },
            )
        })?;
        self.pos.make_move(mv);
        self.moves.push(PgnMove { mv, comment: None, suffix: suffix.map(str::to_string) });
        Ok(used)
    }

    fn finish(self) -> PgnGame {
        let from_tag = self
            .tags
            .iter()
            .find(|(n, v)| n.eq_ignore_ascii_case("Result") && RESULTS.contains(&v.as_str()))
            .map(|(_, v)| v.clone());
        let result = self.result.or(from_tag).unwrap_or_else(|| "*".to_string());
        PgnGame { tags: self.tags, start: self.start, moves: self.moves, result }
    }
}

/// Whether `word` is only an annotation such as `!?`.
fn is_suffix(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c == '!' || c == '?')
}

/// `word` without a leading move number (`12.`, `3...`); a bare `...` is all number.
fn without_move_number(word: &str) -> &str {
    let after_digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = after_digits.trim_start_matches('.');
    let (digits, dots) = (word.len() - after_digits.len(), after_digits.len() - rest.len());
    // WXF writes the middle pawn of five going sideways as "3.4": that is a move, not a number.
    let wxf_sideways =
        digits == 1 && dots == 1 && rest.len() == 1 && rest.chars().all(|c| c.is_ascii_digit());
    if dots == 0 || wxf_sideways {
        word
    } else {
        rest
    }
}

/// The move text and its trailing `!`/`?` annotation, if any.
fn split_suffix(text: &str) -> (&str, Option<&str>) {
    let bare = text.trim_end_matches(['!', '?']);
    let suffix = &text[bare.len()..];
    (bare, (!suffix.is_empty()).then_some(suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_come_one_at_a_time_and_stop_at_the_first_error() {
        let text = "[Event \"1\"]\n1. h2e2 h9g7 *\n\n1. 炮二平五 马 8 进 7 1-0\n[Event \"3\"]\n1. a0a5 *\n[Event \"4\"]\n*\n";
        let mut games = PgnGames::new(text);
        let first = games.next().unwrap().unwrap();
        assert_eq!((first.tag("Event"), first.moves.len(), first.result.as_str()), (Some("1"), 2, "*"));
        // A Chinese move written with spaces inside, and the result ending the game.
        let second = games.next().unwrap().unwrap();
        assert_eq!((second.moves.len(), second.result.as_str()), (2, "1-0"));
        assert_eq!(second.moves[1].mv.to_string(), "h9g7");
        let third = games.next().unwrap().unwrap_err();
        assert_eq!(third.line, 6);
        assert!(third.message.contains("'a0a5' is not a legal move"), "{}", third.message);
        assert!(games.next().is_none(), "nothing after an error");
        // `read_pgn` refuses the text whole; without the bad game it reads the same games.
        assert!(read_pgn(text).is_err());
        let good = text.replace("1. a0a5 *", "*");
        let all = read_pgn(&good).unwrap();
        assert_eq!(all.len(), 4);
        assert_eq!(PgnGames::new(&good).collect::<Result<Vec<_>, _>>().unwrap(), all);
    }

    #[test]
    fn move_numbers_come_off() {
        assert_eq!(without_move_number("12.h2e2"), "h2e2");
        assert_eq!(without_move_number("3..."), "");
        assert_eq!(without_move_number("..."), "");
        assert_eq!(without_move_number("1.炮二平五"), "炮二平五");
        assert_eq!(without_move_number("3+=4"), "3+=4");
        assert_eq!(without_move_number("3.4"), "3.4");
        assert_eq!(without_move_number("h2e2"), "h2e2");
    }

    #[test]
    fn suffixes_come_off() {
        assert_eq!(split_suffix("C2=5?!"), ("C2=5", Some("?!")));
        assert_eq!(split_suffix("炮二平五"), ("炮二平五", None));
        assert!(is_suffix("!!") && !is_suffix("") && !is_suffix("!x"));
    }
}
