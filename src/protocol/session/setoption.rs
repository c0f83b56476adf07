//! `setoption`: the value is parsed and checked by `Options`; what changing it means for the
//! session happens here (a new hash table, the books read again, a note on threads).

use std::io;

use crate::quote::quoted;
use crate::search::usable_threads;

use super::Session;
use crate::protocol::dialect::Dialect;
use crate::protocol::options::SetOutcome;
use crate::protocol::output::{report_error, send};

impl Session {
    /// `setoption` in either dialect's form.
    pub(super) fn setoption(&mut self, dialect: Dialect, args: &[&str]) -> io::Result<()> {
        let hash_before = self.options.hash_mb;
        let threads_before = self.options.engine().threads;
        let books_before = self.options.book_files.clone();
        let outcome = match dialect {
            Dialect::Ucci => self.options.set_ucci(args),
            Dialect::Uci => self.options.set_uci(args),
        };
        match outcome {
            Ok(SetOutcome::Set) => {
                if self.options.book_files != books_before {
                    self.books = None;
                    if self.options.use_book {
                        // Say now, not at the first move, if a named book cannot be read.
                        self.load_books()?;
                    }
                }
                if self.options.hash_mb != hash_before {
                    // A running search keeps its own handle on the old table.
                    if let Err(e) = self.engine.resize_hash(self.options.hash_mb) {
                        self.options.hash_mb = hash_before;
                        return report_error(&self.out, &format!("{e}; the {hash_before} MB table stays"));
                    }
                }
                let threads = self.options.engine().threads;
                if threads != threads_before && usable_threads(threads) < threads {
                    let used = usable_threads(threads);
                    let note = format!("info string {threads} threads asked, {used} used: one per core");
                    send(&self.out, &note)?;
                }
                Ok(())
            }
            Ok(SetOutcome::NewGame { stray_value }) => {
                self.new_game();
                match stray_value {
                    Some(v) => {
                        report_error(&self.out, &format!("a button takes no value: {} ignored", quoted(&v)))
                    }
                    None => Ok(()),
                }
            }
            Ok(SetOutcome::Unknown(name)) => {
                report_error(&self.out, &format!("unknown option {} ignored", quoted(&name)))
            }
            Err(e) => report_error(&self.out, &e.to_string()),
        }
    }
}
