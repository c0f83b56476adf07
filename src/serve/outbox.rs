//! Where the server's messages to one connection wait for its writer thread: a queue bounded in
//! bytes (`OUTBOX_BYTES`) as well as in messages, and the socket to shut when it is full. A
//! client that does not read fast enough is dropped, not buffered for: a 1,000-move board's
//! state is about 72 KB, so a bound in messages alone let slow readers hold gigabytes.

use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crossbeam_channel::{Sender, TrySendError};

use super::messages::ServerMessage;

/// Messages waiting for a slow connection before it is cut off.
pub const OUTBOX_CAPACITY: usize = 256;

/// Bytes waiting for a slow connection before it is cut off: three states of the longest board
/// (1,000 moves, about 72 KB each) and more. With the default 1,000 connections that is 256 MB
/// at the very most.
pub const OUTBOX_BYTES: usize = 256 * 1024;

/// The bytes a connection's queue holds, shared by the outbox (which adds) and the writer thread
/// (which takes away what it has sent).
#[derive(Clone, Debug, Default)]
pub struct QueuedBytes(Arc<AtomicUsize>);

impl QueuedBytes {
    /// The writer sent `text`: its bytes leave the queue.
    pub fn sent(&self, text: &str) {
        self.0.fetch_sub(text.len(), Ordering::SeqCst);
    }

    /// The bytes waiting now.
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A connection's queue of messages, as the lobby and the engine requests hold it.
#[derive(Clone, Debug)]
pub struct Outbox {
    sender: Sender<String>,
    socket: Option<Arc<TcpStream>>,
    queued: QueuedBytes,
    max_bytes: usize,
}

impl Outbox {
    /// An outbox for `sender` holding at most `OUTBOX_BYTES`, cutting `socket` off when it
    /// overflows; its writer reports what it sent to `queued_bytes()`.
    pub fn new(sender: Sender<String>, socket: Option<Arc<TcpStream>>) -> Outbox {
        Outbox::with_limit(sender, socket, OUTBOX_BYTES)
    }

    /// An outbox holding at most `max_bytes`.
    pub fn with_limit(sender: Sender<String>, socket: Option<Arc<TcpStream>>, max_bytes: usize) -> Outbox {
        Outbox { sender, socket, queued: QueuedBytes::default(), max_bytes }
    }

    /// The count of bytes waiting, for the writer thread to take away from as it sends.
    pub fn queued_bytes(&self) -> QueuedBytes {
        self.queued.clone()
    }

    /// Queues `message`; false when the connection is gone or cut off for not reading.
    pub fn send(&self, message: &ServerMessage) -> bool {
        self.send_text(message.text())
    }

    /// Queues a message already written out (one text sent to many); false as `send`.
    pub fn send_text(&self, text: String) -> bool {
        let bytes = text.len();
        let before = self.queued.0.fetch_add(bytes, Ordering::SeqCst);
        if before + bytes > self.max_bytes {
            self.queued.0.fetch_sub(bytes, Ordering::SeqCst);
            self.cut_off();
            return false;
        }
        match self.sender.try_send(text) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.queued.0.fetch_sub(bytes, Ordering::SeqCst);
                self.cut_off();
                false
            }
            Err(TrySendError::Disconnected(_)) => {
                self.queued.0.fetch_sub(bytes, Ordering::SeqCst);
                false
            }
        }
    }

    /// Drops a connection that does not read: its socket is shut, so its threads end.
    fn cut_off(&self) {
        if let Some(socket) = &self.socket {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::bounded;

    #[test]
    fn a_queue_is_bounded_in_bytes_and_what_is_sent_frees_room() {
        let (sender, queue) = bounded(OUTBOX_CAPACITY);
        let outbox = Outbox::with_limit(sender, None, 1000);
        let big = "x".repeat(400);
        assert!(outbox.send_text(big.clone()));
        assert!(outbox.send_text(big.clone()));
        // A third would hold 1,200 bytes: refused, though the queue has room for 254 messages.
        assert!(!outbox.send_text(big.clone()));
        assert_eq!(outbox.queued_bytes().get(), 800);
        let counter = outbox.queued_bytes();
        let text = queue.recv().unwrap();
        counter.sent(&text);
        assert!(outbox.send_text(big));
        assert_eq!(counter.get(), 800);
        drop(queue);
        assert!(!outbox.send_text("y".into()));
        assert_eq!(counter.get(), 800);
    }
}
