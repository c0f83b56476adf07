//! The commands answered at once, whether or not a search runs: the handshake, `debug`,
//! `ucinewgame`, `banmoves`, `ponderhit` and `probe`.

use std::io;

use crate::board::{movegen, Move};
use crate::quote::quoted;
use crate::search::tt::Bound;

use super::Session;
use crate::protocol::dialect::Dialect;
use crate::protocol::handshake;
use crate::protocol::output::{report_error, send};
use crate::protocol::position_cmd::parse_position_words;

impl Session {
    /// `ucci` or `uci`: the identity and the options, in the dialect the first command picked.
    pub(super) fn handshake(&mut self, command: &str, dialect: Dialect) -> io::Result<()> {
        if command != dialect.handshake() {
            // Switching dialects mid-conversation would change what earlier replies meant.
            let msg =
                format!("'{command}' after the {} handshake: this session speaks {0}", dialect.handshake());
            return report_error(&self.out, &msg);
        }
        let lines = match dialect {
            Dialect::Ucci => handshake::ucci_reply(&self.options),
            Dialect::Uci => handshake::uci_reply(&self.options),
        };
        for line in lines {
            send(&self.out, &line)?;
        }
        Ok(())
    }

    /// UCI `debug [on | off]`.
    pub(super) fn debug(&mut self, args: &[&str]) -> io::Result<()> {
        match args {
            [] | ["on"] => self.options.debug = true,
            ["off"] => self.options.debug = false,
            _ => {
                let msg = format!("debug wants on or off, not {}", quoted(&args.join(" ")));
                return report_error(&self.out, &msg);
            }
        }
        Ok(())
    }

    /// `ucinewgame` (and the `newgame` / `Clear Hash` buttons): forget what the last game taught.
    pub(super) fn new_game(&mut self) {
        self.engine.clear_hash();
        self.losing_streak = 0;
    }

    /// UCCI `banmoves m1 m2 …`: moves the next searches must not answer with, until the next
    /// `position`. One move that is not legal here refuses the whole list.
    pub(super) fn banmoves(&mut self, args: &[&str]) -> io::Result<()> {
        let mut pos = match self.position_or_error() {
            Ok(pos) => pos.clone(),
            Err(why) => return report_error(&self.out, &format!("banmoves: {why}")),
        };
        let mut banned = Vec::new();
        for &text in args {
            match Move::parse_iccs(text).filter(|&m| movegen::is_legal(&mut pos, m)) {
                Some(mv) => banned.push(mv),
                None => {
                    let msg = format!("banmoves: {} is not a legal move here", quoted(text));
                    return report_error(&self.out, &msg);
                }
            }
        }
        self.ban_moves = banned;
        Ok(())
    }

    /// `ponderhit [draw]`: anything after that is reported, and the ponderhit still counts.
    pub(super) fn ponderhit(&mut self, args: &[&str]) -> io::Result<()> {
        let (draw, rest) = match args {
            ["draw", rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        if !rest.is_empty() {
            let msg = format!("ponderhit takes only 'draw': {} ignored", quoted(&rest.join(" ")));
            report_error(&self.out, &msg)?;
        }
        match &mut self.thinking {
            Some(t) if t.ponder => {
                t.draw_offered |= draw;
                t.ponder = false;
                self.control.ponderhit();
                Ok(())
            }
            _ => report_error(&self.out, "ponderhit while not pondering"),
        }
    }

    /// UCCI `probe <position>`: what the hash table holds for that position, as `pophash`. The
    /// table is shared with a running search, so this answers mid-search too.
    pub(super) fn probe(&mut self, args: &[&str]) -> io::Result<()> {
        let mut pos = match parse_position_words(args) {
            Ok(p) => p,
            Err(e) => return report_error(&self.out, &e.to_string()),
        };
        let mut line = String::from("pophash");
        if let Some(hit) = self.engine.tt().probe(pos.key(), 0) {
            if !hit.mv.is_none() && movegen::is_legal(&mut pos, hit.mv) {
                line.push_str(&format!(" bestmove {}", hit.mv));
            }
            if matches!(hit.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {} depth {}", hit.score, hit.depth));
            }
            if matches!(hit.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {} depth {}", hit.score, hit.depth));
            }
        }
        send(&self.out, &line)
    }
}
