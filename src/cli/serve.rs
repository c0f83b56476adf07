//! `chariot serve [--bind ADDR:PORT] [--data DIR]`: the web board. Prints the address to open,
//! then serves until killed.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use crate::serve::lobby::LobbyLimits;
use crate::serve::{ServeConfig, Server};

/// The port `chariot serve` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 8088;

/// Arguments of `chariot serve`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct ServeArgs {
    /// Address and port to listen on; `0.0.0.0:8088` shares the board on the local network.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))]
    pub bind: SocketAddr,
    /// Save every game here (state after each move, PGN when it ends) and load the unfinished
    /// ones back on start. Without it, games live in memory only.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Games held at once.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_games: u32,
    /// Connections open at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections: u32,
    /// Connections open at once from one address.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections_per_client: u32,
    /// Games one address may hold at once (created or loaded, finished ones until dropped).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_games_per_client: u32,
    /// An unfinished game nobody moved in for this many minutes is closed as abandoned.
    #[arg(long, default_value_t = 1440, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_minutes: u64,
    /// A host name the board is opened by besides IP addresses and `localhost` (a LAN name such
    /// as `board.lan`); other names are refused, against DNS rebinding. May be repeated.
    #[arg(long = "host", value_name = "NAME")]
    pub host_names: Vec<String>,
    /// Engine threads: how many engine games think at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub engines: u32,
    /// Each engine thread's hash table in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// Endgame tablebases (`chariot egtb generate`) for the analyses and curves: an analysis of a
    /// position they hold says their verdict ("tablebase: draw"). The engine's own moves in
    /// games do not use them (its levels were measured without).
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
}

/// Runs `chariot serve`: binds, prints the address to open on `out`, serves for ever.
pub fn run(args: &ServeArgs, out: &mut impl Write) -> Result<()> {
    let config = ServeConfig {
        bind: args.bind,
        data: args.data.clone(),
        limits: LobbyLimits {
            max_games: args.max_games as usize,
            max_games_per_client: args.max_games_per_client as usize,
            idle_expiry: Duration::from_secs(args.idle_minutes * 60),
            ..LobbyLimits::default()
        },
        max_connections: args.max_connections as usize,
        max_connections_per_client: args.max_connections_per_client as usize,
        host_names: args.host_names.clone(),
        engines: args.engines as usize,
        hash_mb: args.hash as usize,
        tablebases: super::common::tablebases(args.egtb.as_deref())?,
    };
    let server = Server::bind(&config).context("cannot start the server")?;
    let addr = server.local_addr().context("cannot read the server's address")?;
    for e in &server.load_errors {
        eprintln!("warning: {e}");
    }
    match &args.data {
        Some(dir) => {
            writeln!(out, "games are saved in {} ({} unfinished loaded)", dir.display(), server.loaded)?
        }
        None => writeln!(out, "games are kept in memory only (--data DIR saves them)")?,
    }
    let shown = if addr.ip().is_unspecified() {
        format!("http://127.0.0.1:{} (and this machine's address on the network)", addr.port())
    } else {
        format!("http://{addr}/")
    };
    writeln!(out, "chariot serve: open {shown}")?;
    out.flush()?;
    server.run();
    Ok(())
}
