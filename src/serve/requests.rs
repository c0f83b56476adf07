//! The engine requests answered to the asker alone: analyses (`analysis`) and curves (`curve`).
//! A connection may have one of each running, an address `MAX_REQUESTS_PER_CLIENT`, the server
//! `MAX_REQUESTS` in all; a closed
//! connection's requests are stopped. A curve is scored `CURVE_CHUNK` positions at a time: each
//! piece is sent as it comes and the next one queued behind whatever came meanwhile, so a long
//! game's curve never holds an engine thread for long.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::curve::{CurvePoint, CURVE_CHUNK};
use super::engine_player::{AnalysisLine, EngineJob, EnginePool, Task};
use super::messages::ServerMessage;
use super::outbox::Outbox;
use crate::board::{Move, Position};
use crate::egtb::Value as TableValue;
use crate::search::SearchControl;

/// Requests queued or running at once, over all connections.
pub const MAX_REQUESTS: usize = 8;

/// What kind of request.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// The best lines of one position.
    Analysis,
    /// Red's expected score at every position of a game.
    Curve,
}

/// Requests queued or running at once from one address: a quarter of the server's, so that one
/// client with many connections cannot hold every slot.
pub const MAX_REQUESTS_PER_CLIENT: usize = 2;

/// Why a request was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Busy {
    /// One of its kind from the same connection still runs.
    Mine(RequestKind),
    /// The asker's address has `MAX_REQUESTS_PER_CLIENT` running.
    Client,
    /// The server has `MAX_REQUESTS` running, other people's.
    Server,
}

impl fmt::Display for Busy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Busy::Mine(RequestKind::Analysis) => f.write_str("an analysis is still running; try again when it ends"),
            Busy::Mine(RequestKind::Curve) => f.write_str("a curve is still being drawn; try again when it ends"),
            Busy::Client => write!(
                f,
                "your address has {MAX_REQUESTS_PER_CLIENT} analyses or curves running; try again when one ends"
            ),
            Busy::Server => f.write_str("the engine is busy with other people's analyses; try again in a moment"),
        }
    }
}

impl std::error::Error for Busy {}

/// Who asked, and where the answer goes.
#[derive(Clone, Debug)]
pub struct Asker {
    /// The connection's number.
    pub connection: u64,
    /// Its address.
    pub client: IpAddr,
    /// Its outbox.
    pub outbox: Outbox,
}

enum Detail {
    Analysis {
        ply: usize,
        position: Position,
    },
    Curve {
        /// The position to score next (after `next` moves), with the moves before it in its history.
        position: Position,
        /// The game's moves.
        moves: Vec<Move>,
        /// The ply of `position`.
        next: usize,
    },
}

struct Pending {
    asker: Asker,
    game: String,
    control: Arc<SearchControl>,
    detail: Detail,
}

impl Pending {
    fn kind(&self) -> RequestKind {
        match self.detail {
            Detail::Analysis { .. } => RequestKind::Analysis,
            Detail::Curve { .. } => RequestKind::Curve,
        }
    }
}

/// The requests queued or running.
#[derive(Default)]
pub struct Requests {
    pending: Mutex<HashMap<u64, Pending>>,
    next: AtomicU64,
}

impl Requests {
    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Files a request, or says why not.
    fn open(&self, asker: Asker, game: &str, detail: Detail) -> Result<(u64, Arc<SearchControl>), Busy> {
        let mut pending = self.lock();
        let kind = match detail {
            Detail::Analysis { .. } => RequestKind::Analysis,
            Detail::Curve { .. } => RequestKind::Curve,
        };
        if pending.values().any(|p| p.asker.connection == asker.connection && p.kind() == kind) {
            return Err(Busy::Mine(kind));
        }
        if pending.values().filter(|p| p.asker.client == asker.client).count() >= MAX_REQUESTS_PER_CLIENT {
            return Err(Busy::Client);
        }
        if pending.len() >= MAX_REQUESTS {
            return Err(Busy::Server);
        }
        let request = self.next.fetch_add(1, Ordering::Relaxed);
        let control = Arc::new(SearchControl::new());
        pending.insert(request, Pending { asker, game: game.to_string(), control: control.clone(), detail });
        Ok((request, control))
    }

    /// Queues an analysis of `position` (after `ply` moves of `game`) in `lines` lines.
    pub fn analyse(
        &self,
        engines: &EnginePool,
        asker: Asker,
        game: &str,
        ply: usize,
        position: Position,
        lines: usize,
    ) -> Result<(), Busy> {
        let detail = Detail::Analysis { ply, position: position.clone() };
        let (request, control) = self.open(asker, game, detail)?;
        engines.submit(EngineJob {
            game: game.to_string(),
            control,
            task: Task::Analysis { request, position, lines },
        });
        Ok(())
    }

    /// Queues the curve of the game `game`: its positions from `start` through `moves`.
    pub fn curve(
        &self,
        engines: &EnginePool,
        asker: Asker,
        game: &str,
        start: Position,
        moves: Vec<Move>,
    ) -> Result<(), Busy> {
        let detail = Detail::Curve { position: start, moves, next: 0 };
        let (request, _) = self.open(asker, game, detail)?;
        self.queue_chunk(engines, request);
        Ok(())
    }

    /// Queues the next piece of the curve `request`.
    fn queue_chunk(&self, engines: &EnginePool, request: u64) {
        let mut pending = self.lock();
        let Some(p) = pending.get_mut(&request) else { return };
        let Detail::Curve { position, moves, next } = &mut p.detail else { return };
        let first_ply = *next;
        let mut positions = Vec::with_capacity(CURVE_CHUNK);
        while positions.len() < CURVE_CHUNK && *next <= moves.len() {
            positions.push(position.clone());
            if let Some(&mv) = moves.get(*next) {
                position.make_move(mv);
            }
            *next += 1;
        }
        let job = EngineJob {
            game: p.game.clone(),
            control: p.control.clone(),
            task: Task::Curve { request, first_ply, positions },
        };
        drop(pending);
        engines.submit(job);
    }

    /// Sends a finished analysis to its asker.
    pub fn analysis_answered(&self, request: u64, lines: Vec<AnalysisLine>, tablebase: Option<TableValue>) {
        let Some(p) = self.lock().remove(&request) else { return };
        if let Detail::Analysis { ply, position } = p.detail {
            p.asker.outbox.send(&ServerMessage::Analysis { game: p.game, ply, position, lines, tablebase });
        }
    }

    /// Sends a piece of a curve to its asker and queues the next one.
    pub fn curve_answered(&self, engines: &EnginePool, request: u64, points: Vec<CurvePoint>) {
        let mut pending = self.lock();
        let Some(p) = pending.get(&request) else { return };
        let Detail::Curve { moves, next, .. } = &p.detail else { return };
        let done = *next > moves.len();
        let message = ServerMessage::Curve { game: p.game.clone(), plies: moves.len(), points, done };
        let delivered = p.asker.outbox.send(&message);
        if done || !delivered {
            pending.remove(&request);
            return;
        }
        drop(pending);
        self.queue_chunk(engines, request);
    }

    /// Stops and forgets the requests of a connection that closed.
    pub fn forget(&self, connection: u64) {
        self.lock().retain(|_, p| {
            let mine = p.asker.connection == connection;
            if mine {
                p.control.request_stop();
            }
            !mine
        });
    }

    /// How many requests are queued or running.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::bounded;

    fn asker(connection: u64, client: [u8; 4]) -> Asker {
        let (sender, _) = bounded(1);
        Asker { connection, client: IpAddr::from(client), outbox: Outbox::new(sender, None) }
    }

    fn analysis() -> Detail {
        Detail::Analysis { ply: 0, position: Position::startpos() }
    }

    #[test]
    fn one_address_holds_its_share_of_the_slots_and_each_refusal_says_whose() {
        let requests = Requests::default();
        assert!(requests.open(asker(1, [10, 0, 0, 1]), "g", analysis()).is_ok());
        assert_eq!(
            requests.open(asker(1, [10, 0, 0, 1]), "g", analysis()).unwrap_err(),
            Busy::Mine(RequestKind::Analysis)
        );
        assert!(requests.open(asker(2, [10, 0, 0, 1]), "g", analysis()).is_ok());
        // Eight connections of one address: the third and later are refused as the address's.
        for connection in 3..9 {
            assert_eq!(
                requests.open(asker(connection, [10, 0, 0, 1]), "g", analysis()).unwrap_err(),
                Busy::Client
            );
        }
        for client in 2..=7 {
            assert!(requests
                .open(asker(10 + u64::from(client), [10, 0, 0, client]), "g", analysis())
                .is_ok());
        }
        assert_eq!(requests.len(), MAX_REQUESTS);
        let refusal = requests.open(asker(30, [10, 0, 0, 9]), "g", analysis()).unwrap_err();
        assert_eq!(refusal, Busy::Server);
        assert!(refusal.to_string().starts_with("the engine is busy with other people's"));
        requests.forget(1);
        assert!(requests.open(asker(30, [10, 0, 0, 9]), "g", analysis()).is_ok());
    }
}
