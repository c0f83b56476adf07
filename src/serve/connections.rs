//! The connections open, in all and per address, and who gives way when the server is full.
//!
//! Each address may hold `max_connections_per_client`; the server holds `max_connections`. When
//! the server is full, a newcomer is not simply refused: a few addresses at their own limit
//! (ten, by default) would otherwise deny the board to everyone else. The address holding the
//! most connections gives up its oldest one to the newcomer, as long as it holds at least two
//! more than the newcomer's address: an address with few connections always gets in, and the
//! shares even out without two addresses taking one connection back and forth.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::Mutex;

/// What the server lets clients hold at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Open connections in all (each WebSocket holds two threads).
    pub max_connections: usize,
    /// Open connections from one address.
    pub max_connections_per_client: usize,
}

/// Why a connection was refused: the words sent with the 503.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server is full and no address holds more than the newcomer's fair share.
    ServerFull,
    /// This address holds its limit.
    AddressFull,
}

impl Refusal {
    /// The refusal as the body of a 503 answer.
    pub fn words(self) -> &'static str {
        match self {
            Refusal::ServerFull => "too many connections\n",
            Refusal::AddressFull => "too many connections from your address\n",
        }
    }
}

/// An admitted connection: what `release` is given when it closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket {
    client: IpAddr,
    id: u64,
}

/// One open connection: a handle on its socket, to shut it when it must give way.
struct Held {
    id: u64,
    socket: Option<TcpStream>,
}

#[derive(Default)]
struct Table {
    all: usize,
    next_id: u64,
    per_client: HashMap<IpAddr, VecDeque<Held>>,
}

/// The connections open, per address, oldest first.
#[derive(Default)]
pub struct OpenConnections {
    table: Mutex<Table>,
}

impl OpenConnections {
    /// Counts a new connection from `client` (`socket`: a handle to shut it by, when it must
    /// give way later), making room by shutting the oldest connection of the address holding
    /// the most when the server is full; the refusal otherwise.
    pub fn admit(
        &self,
        client: IpAddr,
        socket: Option<TcpStream>,
        limits: ConnectionLimits,
    ) -> Result<Ticket, Refusal> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let mine = table.per_client.get(&client).map_or(0, VecDeque::len);
        if mine >= limits.max_connections_per_client {
            return Err(Refusal::AddressFull);
        }
        if table.all >= limits.max_connections {
            // The largest holder; among equals, the one with the oldest connection.
            let largest = table
                .per_client
                .iter()
                .max_by_key(|(_, held)| {
                    (held.len(), std::cmp::Reverse(held.front().map_or(u64::MAX, |h| h.id)))
                })
                .map(|(address, held)| (*address, held.len()));
            match largest {
                Some((address, count)) if count >= mine + 2 => table.evict_oldest(address),
                _ => return Err(Refusal::ServerFull),
            }
        }
        let id = table.next_id;
        table.next_id += 1;
        table.per_client.entry(client).or_default().push_back(Held { id, socket });
        table.all += 1;
        Ok(Ticket { client, id })
    }

    /// The connection of `ticket` closed (nothing happens when it was already made to give way).
    pub fn release(&self, ticket: Ticket) {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let Some(held) = table.per_client.get_mut(&ticket.client) else { return };
        let Some(at) = held.iter().position(|h| h.id == ticket.id) else { return };
        held.remove(at);
        if held.is_empty() {
            table.per_client.remove(&ticket.client);
        }
        table.all -= 1;
    }

    /// Connections counted now: in all, and from `client`.
    pub fn counts(&self, client: IpAddr) -> (usize, usize) {
        let table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        (table.all, table.per_client.get(&client).map_or(0, VecDeque::len))
    }
}

impl Table {
    /// Shuts `address`'s oldest connection and stops counting it: its thread ends on its own
    /// (its reads and writes fail), and its `release` then finds nothing to take away.
    fn evict_oldest(&mut self, address: IpAddr) {
        let Some(held) = self.per_client.get_mut(&address) else { return };
        if let Some(oldest) = held.pop_front() {
            if let Some(socket) = oldest.socket {
                let _ = socket.shutdown(Shutdown::Both);
            }
            self.all -= 1;
        }
        if held.is_empty() {
            self.per_client.remove(&address);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;
    use std::time::Duration;

    const LIMITS: ConnectionLimits = ConnectionLimits { max_connections: 3, max_connections_per_client: 2 };

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn connections_are_counted_per_address_and_in_all() {
        let open = OpenConnections::default();
        let (a, b) = (ip("10.0.0.1"), ip("10.0.0.2"));
        let a1 = open.admit(a, None, LIMITS).unwrap();
        let a2 = open.admit(a, None, LIMITS).unwrap();
        assert_eq!(open.admit(a, None, LIMITS), Err(Refusal::AddressFull));
        let b1 = open.admit(b, None, LIMITS).unwrap();
        // Full: b (one held) finds nobody holding two more than itself.
        assert_eq!(open.admit(b, None, LIMITS), Err(Refusal::ServerFull));
        open.release(a1);
        let a3 = open.admit(a, None, LIMITS).unwrap();
        for ticket in [a2, a3, b1] {
            open.release(ticket);
        }
        assert_eq!(open.counts(a), (0, 0));
        assert!(open.table.lock().unwrap().per_client.is_empty());
    }

    #[test]
    fn a_full_server_makes_the_largest_holder_give_way_to_a_newcomer() {
        let limits = ConnectionLimits { max_connections: 4, max_connections_per_client: 4 };
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let open = OpenConnections::default();
        let (hog, newcomer, third) = (ip("10.0.0.1"), ip("10.0.0.2"), ip("10.0.0.3"));
        // The hog fills the server with four real connections; the server side of each is held.
        let mut clients = Vec::new();
        let mut tickets = Vec::new();
        for _ in 0..4 {
            let client = TcpStream::connect(addr).unwrap();
            let (server_side, _) = listener.accept().unwrap();
            tickets.push(open.admit(hog, Some(server_side), limits).unwrap());
            clients.push(client);
        }
        assert_eq!(open.counts(hog), (4, 4));
        // A newcomer gets in: the hog's oldest connection is shut, and its client sees the end.
        let _n1 = open.admit(newcomer, None, limits).unwrap();
        assert_eq!(open.counts(hog), (4, 3));
        assert_eq!(open.counts(newcomer), (4, 1));
        clients[0].set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        assert_eq!(clients[0].read(&mut [0u8; 8]).unwrap(), 0, "the oldest was not shut");
        clients[1].set_read_timeout(Some(Duration::from_millis(50))).unwrap();
        assert!(clients[1].read(&mut [0u8; 8]).is_err(), "the second was shut too");
        // The newcomer's second: the hog gives way again (3 against 1). A third address: the
        // hog and the newcomer hold 2 each, and the hog, whose connections are older, gives way.
        let _n2 = open.admit(newcomer, None, limits).unwrap();
        assert_eq!(open.counts(hog), (4, 2));
        let _t1 = open.admit(third, None, limits).unwrap();
        assert_eq!(open.counts(hog), (4, 1));
        // Now nobody holds two more than anyone asking: the full server refuses.
        assert_eq!(open.admit(newcomer, None, limits), Err(Refusal::ServerFull));
        assert_eq!(open.admit(hog, None, limits), Err(Refusal::ServerFull));
        // The evicted connections' own releases change nothing; the others' count.
        open.release(tickets[0]);
        open.release(tickets[1]);
        assert_eq!(open.counts(hog), (4, 1));
        open.release(tickets[3]);
        assert_eq!(open.counts(hog), (3, 0));
    }
}
