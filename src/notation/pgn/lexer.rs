//! Splits PGN text into tags, words, comments and variation brackets, each with its line, one
//! at a time: a reader of a large file holds the lexemes of one game, not of the whole file.

use super::PgnError;
use crate::quote::quoted;

/// One lexical element of a PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: String, value: String },
    /// Anything else between delimiters: move numbers, moves, NAGs, suffixes, results.
    Word(String),
    /// The text of a `{…}` or `;…` comment, whitespace collapsed.
    Comment(String),
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
}

/// A token and the line (1-based) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Lexeme {
    pub token: Token,
    pub line: usize,
}

/// Characters that end a word.
fn is_delimiter(c: char) -> bool {
    is_space(c) || matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']')
}

/// Whitespace, counting the byte-order mark that editors put at the head of Chinese files.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// The tokens of `text`, or the first lexical error (an unterminated comment, a malformed tag).
#[cfg(test)]
fn lex(text: &str) -> Result<Vec<Lexeme>, PgnError> {
    Lexer::new(text).collect()
}

/// The lexemes of a text, in order; after an error, nothing more.
pub(super) struct Lexer<'a> {
    text: &'a str,
    /// The byte where the next lexeme may start.
    at: usize,
    line: usize,
}

impl Iterator for Lexer<'_> {
    type Item = Result<Lexeme, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.lexeme().transpose();
        if matches!(next, Some(Err(_))) {
            self.at = self.text.len();
        }
        next
    }
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub(super) fn new(text: &'a str) -> Lexer<'a> {
        Lexer { text, at: 0, line: 1 }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.text.as_bytes()[self.at - 1] == b'\n'
    }

    /// The next lexeme, `None` at the end of the text.
    fn lexeme(&mut self) -> Result<Option<Lexeme>, PgnError> {
        while let Some(c) = self.peek() {
            let line = self.line;
            let token = match c {
                c if is_space(c) => {
                    self.bump();
                    continue;
                }
                '%' if self.at_line_start() => {
                    // PGN's escape: the whole line belongs to some other program.
                    self.rest_of_line();
                    continue;
                }
                '{' => {
                    self.bump();
                    Token::Comment(self.brace_comment(line)?)
                }
                ';' => {
                    self.bump();
                    Token::Comment(collapse(&self.rest_of_line()))
                }
                '[' => {
                    self.bump();
                    self.tag(line)?
                }
                '(' => {
                    self.bump();
                    Token::Open
                }
                ')' => {
                    self.bump();
                    Token::Close
                }
                '}' | ']' => return Err(PgnError::new(line, format!("'{c}' closes nothing"))),
                _ => Token::Word(self.word()),
            };
            return Ok(Some(Lexeme { token, line }));
        }
        Ok(None)
    }

    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    fn brace_comment(&mut self, line: usize) -> Result<String, PgnError> {
        let mut s = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(collapse(&s)),
                Some(c) => s.push(c),
                None => return Err(PgnError::new(line, "unterminated comment: '{' has no closing '}'")),
            }
        }
    }

    fn word(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(|&c| !is_delimiter(c)) {
            s.push(c);
            self.bump();
        }
        s
    }

    /// The rest of a tag after its `[`: `Name "value"]` on one line.
    fn tag(&mut self, line: usize) -> Result<Token, PgnError> {
        let bad = |what: String| PgnError::new(line, format!("bad tag: {what}"));
        self.skip_blanks();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            let found = self.peek().map_or("the end of the line".to_string(), |c| format!("'{c}'"));
            return Err(bad(format!("expected a tag name after '[', found {found}")));
        }
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(bad(format!("the value of tag {} must be in double quotes", quoted(&name))));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    return Err(bad(format!("the value of tag {} has no closing quote", quoted(&name))));
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            value.push(c);
                            self.bump();
                        }
                        _ => value.push('\\'),
                    }
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        self.skip_blanks();
        if self.peek() != Some(']') {
            return Err(bad(format!("tag {} has no closing ']'", quoted(&name))));
        }
        self.bump();
        Ok(Token::Tag { name, value })
    }

    /// Skips spaces and tabs but not line ends (a tag stays on one line).
    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| is_space(c) && c != '\n') {
            self.bump();
        }
    }
}

/// `text` with runs of whitespace (line breaks included) turned into single spaces, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token> {
        lex(text).unwrap().into_iter().map(|l| l.token).collect()
    }

    #[test]
    fn splits_words_comments_and_brackets() {
        let t = tokens("1.h2e2{a\n b}(1...b9c7)h9g7;end of line\n*");
        let word = |s: &str| Token::Word(s.to_string());
        let comment = |s: &str| Token::Comment(s.to_string());
        assert_eq!(
            t,
            [
                word("1.h2e2"),
                comment("a b"),
                Token::Open,
                word("1...b9c7"),
                Token::Close,
                word("h9g7"),
                comment("end of line"),
                word("*"),
            ]
        );
    }

    #[test]
    fn tags_unescape_and_lines_count() {
        let lexemes = lex("\u{feff}[Event \"a \\\"b\\\" ]\"]\n\n%skip me\nh2e2").unwrap();
        assert_eq!(lexemes[0].token, Token::Tag { name: "Event".into(), value: "a \"b\" ]".into() });
        assert_eq!(lexemes[1], Lexeme { token: Token::Word("h2e2".into()), line: 4 });
        assert_eq!(lexemes.len(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("h2e2\n{never closed\n", 2, "unterminated comment"),
            ("\n[Event \"x]\n", 2, "no closing quote"),
            ("[Event x]", 1, "double quotes"),
            ("[Event \"x\"", 1, "no closing ']'"),
            ("[ \"x\"]", 1, "tag name"),
            ("\n\nh2e2 }", 3, "closes nothing"),
        ];
        for (text, line, words) in cases {
            let e = lex(text).unwrap_err();
            assert_eq!(e.line, line, "{text}");
            assert!(e.message.contains(words), "{text}: {}", e.message);
        }
    }
}
