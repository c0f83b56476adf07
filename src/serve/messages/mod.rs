//! The wire format: what a browser sends (`ClientMessage`, parsed from one JSON text with every
//! field checked and every length bounded: `client.rs`) and every message the server sends
//! (`ServerMessage`: `joined`, `state`, `followers`, `analysis`, `evaluation`, `curve`, `explored`,
//! `error`, `pong`, `warning`: `server.rs`). docs/serve.md describes it for people.

mod client;
mod server;

pub use super::action::Action;
pub use client::*;
pub use server::*;

#[cfg(test)]
mod tests;
