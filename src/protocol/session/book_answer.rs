//! The opening book's answer to a `go`: asked only for ordinary game moves, never for analysis
//! (`go infinite`, `ponder`, `mate`, `depth`, `nodes`, `searchmoves`, or MultiPV above 1);
//! a move that is banned or would repeat the game is not played; with `debug` on, why there is
//! no book move.

use std::io;

use crate::board::{Move, Position};
use crate::book::{self, BookSet};
use crate::protocol::dialect::Dialect;
use crate::protocol::output::{report_error, send};
use crate::search::Limits;

use super::Session;

impl Session {
    /// The book's answer to this `go`, if it has one; with `debug` on, why it has none.
    pub(super) fn book_answer(&mut self, pos: &Position, limits: &Limits) -> io::Result<Option<Move>> {
        if !self.options.use_book {
            self.debug_line("no book move: the book is switched off")?;
            return Ok(None);
        }
        // Book moves answer ordinary game moves, not analysis.
        let analysis = [
            (limits.infinite, "infinite"),
            (limits.ponder, "ponder"),
            (limits.mate.is_some(), "mate"),
            (limits.depth.is_some(), "depth"),
            (limits.nodes.is_some(), "nodes"),
            (!limits.search_moves.is_empty(), "searchmoves"),
        ];
        if let Some((_, word)) = analysis.iter().find(|(asked, _)| *asked) {
            self.debug_line(&format!("no book move: the book is not asked for a 'go {word}'"))?;
            return Ok(None);
        }
        // Several lines asked for are analysis too, whatever the `go` says.
        if limits.multipv > 1 {
            let msg = format!("no book move: the book is not asked with MultiPV {}", limits.multipv);
            self.debug_line(&msg)?;
            return Ok(None);
        }
        self.book_move(pos)
    }

    /// Reads the books `bookfiles` names (the embedded one when it names none). One that cannot
    /// be read is reported once, and the engine plays on without a book.
    pub(super) fn load_books(&mut self) -> io::Result<()> {
        match BookSet::from_option(&self.options.book_files) {
            Ok(set) => self.books = Some(set),
            Err(e) => {
                self.books = Some(BookSet::default());
                report_error(&self.out, &e.to_string())?;
            }
        }
        Ok(())
    }

    /// A book move for `pos` (announced with an info line), if the books have one that is neither
    /// banned nor repeating.
    fn book_move(&mut self, pos: &Position) -> io::Result<Option<Move>> {
        if self.books.is_none() {
            self.load_books()?;
        }
        let Some(set) = &self.books else { return Ok(None) };
        let randomness = self.options.randomness.book_randomness();
        let Some(choice) = book::choose(set, pos, randomness, &mut self.rng) else {
            let why = if set.books.is_empty() {
                "no book could be read"
            } else if set.probe(pos).is_none() {
                "no book has this position"
            } else {
                "every book move here would bring back a position of the game"
            };
            self.debug_line(&format!("no book move: {why}"))?;
            return Ok(None);
        };
        if self.ban_moves.contains(&choice.mv) {
            self.debug_line(&format!("no book move: {} drawn from {} is banned", choice.mv, choice.source))?;
            return Ok(None);
        }
        if self.options.debug {
            let book = set.books.iter().find(|b| b.name() == choice.source);
            let drawn_from: Vec<_> = book.map(|b| b.probe(pos)).unwrap_or_default();
            let drawn_from: Vec<_> = drawn_from.into_iter().filter(|e| !book::repeats(pos, e.mv)).collect();
            let total: u64 = drawn_from.iter().map(|e| u64::from(e.weight)).sum();
            let line = format!(
                "book: {} drawn from {} moves of {} (weight {} of {total}, randomness {})",
                choice.mv,
                drawn_from.len(),
                choice.source,
                choice.weight,
                self.options.randomness.name()
            );
            self.debug_line(&line)?;
        }
        let word = match self.dialect {
            Some(Dialect::Ucci) => "info message",
            _ => "info string",
        };
        send(
            &self.out,
            &format!("{word} book move {} weight {} from {}", choice.mv, choice.weight, choice.source),
        )?;
        Ok(Some(choice.mv))
    }
}
