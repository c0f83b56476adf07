//! Engine options, one table for both dialects, and `setoption`.
//!
//! Each option is one row of `table::ROWS`: its UCCI and UCI names, its type with its default and
//! range or choices, how its value in force is read back, and what setting it does. The code
//! here walks that table, and only that: the handshake's `option` lines, `setoption` in either
//! dialect's form, and the defaults. A value is parsed and checked (`values`) when `setoption`
//! brings it, and what the search needs goes straight into the `EngineOptions` this holds, so
//! `go` hands that over whole and a refused value leaves the last good one in force. The strings
//! the GUI typed are not kept: an announcement writes each value back from its typed form.
//! UCCI's four-step combo scale is in `levels`; the errors and outcomes in `error`.
//!
//! **Adding an option** is one row in `table::ROWS` (where it stands is where it is announced)
//! plus its effect: the setter puts the value where it acts, in `engine` when the search reads
//! it (nothing else to do then), or in a field of `Options` (with its starting value in
//! `Options::default`) that the session reads. A change the session must act on at once, as
//! `Hash` allocating a table, goes in `session/setoption.rs`. The tests then ask for a value
//! other than its default (`tests::another_value`) and a row in docs/protocols.md's table.

mod bounds;
mod error;
mod levels;
mod table;
#[cfg(test)]
mod tests;
mod values;

use std::sync::Arc;

use crate::eval::nnue::{embedded, Network};
use crate::eval::TermSet;
use crate::search::{EngineOptions, SearchFeatures, Skill};

use super::dialect::Dialect;
use table::{Kind, Row, ROWS};
use values::{empty_as, parse_check, parse_combo, parse_spin, parse_text, var_list};

pub use bounds::{SpinRange, MAX_TEXT_BYTES};
pub use error::{OptionError, SetOutcome};
pub use levels::Level;
pub use table::{MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS};

/// The option values a session holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// UCCI `usemillisec`: `go` times are in milliseconds instead of seconds.
    pub use_millisec: bool,
    /// UCCI `batch`: read no commands while thinking.
    pub batch: bool,
    /// UCCI `debug` (and UCI's `debug` command): report the time budget and the book's decision
    /// as `info string` lines.
    pub debug: bool,
    /// `ponder` / `Ponder`: the GUI may ask us to ponder (the engine itself needs no change).
    pub ponder: bool,
    /// `usebook` / `OwnBook`: true by default in UCCI, false in UCI (`take_dialect_defaults`).
    pub use_book: bool,
    /// `bookfiles` / `BookFile`: `;`-separated paths; empty = the embedded book.
    pub book_files: String,
    /// `hashsize` / `Hash`, megabytes.
    pub hash_mb: usize,
    /// UCI `MultiPV`.
    pub multipv: usize,
    /// UCCI `resign`: may the engine resign hopeless games.
    pub resign: bool,
    /// `showwdl` / `UCI_ShowWDL`: info lines carry win, draw and loss chances.
    pub show_wdl: bool,
    /// UCCI `randomness`: flattens the choice among book moves.
    pub randomness: Level,
    /// UCCI `pruning`: how much of the selective search is on (with `without`, the features).
    pruning: Level,
    /// UCCI `knowledge`: how many evaluation term groups are on (with `without_terms`, the terms).
    knowledge: Level,
    /// `without` / `Without`: every search feature but those named.
    without: SearchFeatures,
    /// `withoutterms` / `Without Terms`: every evaluation term group but those named.
    without_terms: TermSet,
    /// `evalfile` / `EvalFile`: the net file loaded (empty: the built-in net).
    eval_file: String,
    /// `egtbpath` / `EgtbPath`: the folder of endgame tables loaded (empty: none).
    egtb_path: String,
    /// `skilllevel` / `Skill Level`: 0 to 19 play weaker (`search::skill`), 20 at full strength.
    skill_level: u8,
    /// `limitstrength` / `UCI_LimitStrength`: play at `elo` instead of `skill_level`.
    limit_strength: bool,
    /// `elo` / `UCI_Elo`: the strength on the measured scale (docs/levels.md), used while
    /// `limit_strength` is on.
    elo: i32,
    /// The net `usennue` switches to: the one `eval_file` holds, loaded when the option was set,
    /// or the built-in one.
    net: Arc<Network>,
    /// What the next search runs with: `threads`, `algorithm`, `moveoverhead`, the features
    /// (`pruning` less `without`), the terms (`knowledge` less `withoutterms`), the parameters
    /// (`tune`), the evaluation (`usennue` with the net of `evalfile`) and the playing strength
    /// (`skilllevel`, or `elo` under `limitstrength`). Kept up to date as each option arrives.
    engine: EngineOptions,
}

impl Default for Options {
    /// Every option at its row's default.
    fn default() -> Self {
        // The values written here are only a start: each row's default is put in force below,
        // through its setter, as a GUI would set it. A text option starts empty, the state
        // written here (no feature or term left out, the search's own parameters, the built-in
        // net, no book file).
        let mut options = Options {
            use_millisec: false,
            batch: false,
            debug: false,
            ponder: false,
            use_book: false,
            book_files: String::new(),
            hash_mb: 0,
            multipv: 0,
            resign: false,
            show_wdl: false,
            randomness: Level::None,
            pruning: Level::None,
            knowledge: Level::None,
            without: SearchFeatures::ALL,
            without_terms: TermSet::ALL,
            eval_file: String::new(),
            egtb_path: String::new(),
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            net: embedded::network(),
            engine: EngineOptions::default(),
        };
        for row in ROWS {
            match row.kind {
                Kind::Check { default, set, .. } => set(&mut options, default),
                Kind::Spin { default, set, .. } => set(&mut options, default),
                Kind::Combo { default, set, .. } => set(&mut options, default),
                Kind::Text { .. } | Kind::Button => {}
            }
        }
        options
    }
}

impl Options {
    /// Sets the defaults that differ by dialect, when the first command picks one: UCI's
    /// `OwnBook` starts off (analysis GUIs expect a search, and Pikafish has no book), UCCI's
    /// `usebook` on (as ElephantEye's users expect). The announcement then gives these defaults.
    pub fn take_dialect_defaults(&mut self, dialect: Dialect) {
        self.use_book = match dialect {
            Dialect::Ucci => true,
            Dialect::Uci => false,
        };
    }

    /// What the next search runs with, as the options set it.
    pub fn engine(&self) -> &EngineOptions {
        &self.engine
    }

    /// The playing strength the three strength options give: the Elo under `limitstrength` (as
    /// UCI has it, `UCI_LimitStrength` overrides `Skill Level`), else the skill level.
    fn skill(&self) -> Skill {
        match self.limit_strength {
            true => Skill::from_elo(self.elo),
            false => Skill::level(self.skill_level),
        }
    }

    /// Parses `value` for the option of `row` (called `display` in messages) and puts it in
    /// force; a value that does not parse, or that the option refuses, changes nothing.
    fn assign(&mut self, row: &Row, display: &str, value: &str) -> Result<SetOutcome, OptionError> {
        match row.kind {
            Kind::Check { set, .. } => set(self, parse_check(display, value)?),
            Kind::Spin { range, set, .. } => set(self, parse_spin(display, range, value)?),
            Kind::Combo { choices, set, .. } => set(self, parse_combo(display, choices, value)?),
            Kind::Text { set, .. } => set(self, parse_text(display, value)?).map_err(|r| r.named(display))?,
            Kind::Button => {
                let value = value.trim();
                let stray_value = (!value.is_empty()).then(|| value.to_string());
                return Ok(SetOutcome::NewGame { stray_value });
            }
        }
        Ok(SetOutcome::Set)
    }

    /// UCCI form: `setoption <name> [<value>]`.
    pub fn set_ucci(&mut self, args: &[&str]) -> Result<SetOutcome, OptionError> {
        let Some((&name, value)) = args.split_first() else {
            return Err(OptionError::MissingName);
        };
        // UCCI GUIs sometimes send the UCI keywords; accept them too.
        if name == "name" {
            return self.set_uci(args);
        }
        let Some(row) = ROWS.iter().find(|r| r.ucci == Some(name)) else {
            return Ok(SetOutcome::Unknown(name.to_string()));
        };
        self.assign(row, name, &value.join(" "))
    }

    /// UCI form: `setoption name <name…> [value <value…>]` (names case-insensitive).
    pub fn set_uci(&mut self, args: &[&str]) -> Result<SetOutcome, OptionError> {
        let ["name", rest @ ..] = args else {
            return Err(OptionError::MissingNameKeyword);
        };
        let name_len = rest.iter().position(|&t| t == "value").unwrap_or(rest.len());
        if name_len == 0 {
            return Err(OptionError::EmptyName);
        }
        let name = rest[..name_len].join(" ");
        let value = rest.get(name_len + 1..).map(|v| v.join(" ")).unwrap_or_default();
        let Some((row, uci_name)) =
            ROWS.iter().find_map(|r| r.uci.filter(|u| u.eq_ignore_ascii_case(&name)).map(|u| (r, u)))
        else {
            return Ok(SetOutcome::Unknown(name));
        };
        let needs_value = matches!(row.kind, Kind::Check { .. } | Kind::Spin { .. } | Kind::Combo { .. });
        if needs_value && name_len == rest.len() {
            return Err(OptionError::MissingValue { name });
        }
        self.assign(row, uci_name, &value)
    }

    /// The `option …` lines announced after `ucci`.
    pub fn ucci_lines(&self) -> Vec<String> {
        ROWS.iter().filter_map(|r| r.ucci.map(|name| self.announce(name, r, Dialect::Ucci))).collect()
    }

    /// The `option name …` lines announced after `uci`.
    pub fn uci_lines(&self) -> Vec<String> {
        ROWS.iter().filter_map(|r| r.uci.map(|name| self.announce(name, r, Dialect::Uci))).collect()
    }

    /// The `option` line of `row`, called `name`, in `dialect`: its type and the value in force
    /// as the default.
    fn announce(&self, name: &str, row: &Row, dialect: Dialect) -> String {
        let head = match dialect {
            Dialect::Ucci => format!("option {name}"),
            Dialect::Uci => format!("option name {name}"),
        };
        let rest = match row.kind {
            Kind::Check { get, .. } => format!("type check default {}", get(self)),
            Kind::Spin { range: SpinRange { min, max }, get, .. } => match dialect {
                Dialect::Ucci => format!("type spin min {min} max {max} default {}", get(self)),
                Dialect::Uci => format!("type spin default {} min {min} max {max}", get(self)),
            },
            Kind::Combo { choices, get, .. } => {
                let current = choices.get(get(self)).copied().unwrap_or_default();
                format!("type combo default {current} {}", var_list(choices, current))
            }
            Kind::Text { get, .. } => format!("type string default {}", empty_as(&get(self))),
            Kind::Button => "type button".to_string(),
        };
        format!("{head} {rest}")
    }
}
