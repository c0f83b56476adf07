//! The net built into the binary, the default evaluation: `nets/default.nnue`, made as
//! `docs/nnue-training.md` ("The built-in net") records.

use std::sync::{Arc, OnceLock};

use super::{format, Network};

/// The built-in net file, byte for byte.
pub const BYTES: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The built-in net, read on first use.
fn shared() -> &'static Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    // The bytes are fixed at build time and `tests::the_built_in_net_loads` reads them, so a
    // refusal here is a broken build, not bad input.
    NET.get_or_init(|| Arc::new(format::from_bytes(BYTES).unwrap_or_else(|e| panic!("built-in net: {e}"))))
}

/// The built-in net, read once and shared by every engine after that.
pub fn network() -> Arc<Network> {
    shared().clone()
}

/// Whether `net` is the built-in one (the same allocation, not merely equal weights).
pub fn is_built_in(net: &Network) -> bool {
    std::ptr::eq(net, Arc::as_ptr(shared()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn the_built_in_net_loads() {
        let net = format::from_bytes(BYTES).expect("the built-in net is a valid net file");
        assert!(net.arch().width >= 32, "{}", net.arch());
        assert!(BYTES.len() < 4 << 20, "the built-in net should stay a few MB at most");
    }

    #[test]
    fn the_built_in_net_is_read_once() {
        assert!(is_built_in(&network()));
        let copy = Arc::new(format::from_bytes(BYTES).unwrap());
        assert!(!is_built_in(&copy), "an equal net loaded from elsewhere is not the built-in one");
    }

    #[test]
    fn the_built_in_net_sees_the_start_as_roughly_level_and_a_rook_as_a_lot() {
        let net = network();
        let start = net.evaluate(&Position::startpos());
        assert!(start.abs() < 60, "start {start}");
        // Red without its h-file chariot (i0), Red to move.
        let down =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1")
                .unwrap();
        let score = net.evaluate(&down);
        // The net's scores flatten beyond ±200 or so: it was fitted to win chances, σ(cp / 70).
        assert!(score < -150, "a chariot down scores {score}");
    }
}
