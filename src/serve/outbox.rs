//! Where the server's messages to one connection wait for its writer thread: a bounded queue,
//! and the socket to shut when the queue is full (a client that does not read is dropped, not
//! buffered for).

use std::net::TcpStream;
use std::sync::Arc;

use crossbeam_channel::{Sender, TrySendError};

use super::messages::ServerMessage;

/// Messages waiting for a slow connection before it is cut off.
pub const OUTBOX_CAPACITY: usize = 256;

/// A connection's queue of messages, as the lobby and the engine requests hold it.
#[derive(Clone, Debug)]
pub struct Outbox {
    sender: Sender<String>,
    socket: Option<Arc<TcpStream>>,
}

impl Outbox {
    /// An outbox for `sender`, cutting `socket` off when it overflows.
    pub fn new(sender: Sender<String>, socket: Option<Arc<TcpStream>>) -> Outbox {
        Outbox { sender, socket }
    }

    /// Queues `message`; false when the connection is gone or cut off for not reading.
    pub fn send(&self, message: &ServerMessage) -> bool {
        self.send_text(message.text())
    }

    /// Queues a message already written out (one text sent to many); false as `send`.
    pub fn send_text(&self, text: String) -> bool {
        match self.sender.try_send(text) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                if let Some(socket) = &self.socket {
                    let _ = socket.shutdown(std::net::Shutdown::Both);
                }
                false
            }
            Err(TrySendError::Disconnected(_)) => false,
        }
    }
}
