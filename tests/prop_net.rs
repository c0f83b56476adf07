//! Property tests of the net-file reader (`eval::nnue::format::from_bytes`): any bytes are read or
//! refused with a short message naming the byte, never a panic, a hang or a runaway allocation; a
//! net that is read writes back to the same bytes and evaluates every position within the score
//! limit, the same incrementally as from scratch. Cases per run and how to run longer: see
//! tests/prop_support/mod.rs.

use crate::prop_support;

use std::sync::Arc;

use chariot::binary::fnv1a64_parts;
use chariot::board::{movegen, Position};
use chariot::eval::nnue::format::{self, FIXED_HEADER};
use chariot::eval::nnue::{
    AccumulatorStack, Activation, Architecture, FeatureSet, Hidden, KingBuckets, Network, Quantisation,
    SCORE_LIMIT,
};
use prop_support::{any_position, config, memory_bound, mutate, mutations, random_bytes, read_guarded};
use proptest::prelude::*;

/// The longest refusal message allowed: a reason and an offset, not a dump of the file.
const MAX_NET_MESSAGE_LEN: usize = 300;

/// Small architectures of every kind the format has (small so each case stays fast).
fn small_architecture() -> impl Strategy<Value = Architecture> {
    let hidden = vec![
        Hidden::NONE,
        Hidden::new(&[16]).unwrap(),
        Hidden::new(&[16, 32]).unwrap().with_first_activation(Activation::CRelu),
        Hidden::new(&[16, 32]).unwrap().with_first_activation(Activation::SCRelu),
    ];
    (
        prop::sample::select(KingBuckets::ALL.to_vec()),
        any::<bool>(),
        prop::sample::select(vec![16usize, 32]),
        prop::sample::select(vec![Activation::CRelu, Activation::SCRelu]),
        1usize..=8,
        prop::sample::select(hidden),
    )
        .prop_map(|(king_buckets, mirror, width, activation, output_buckets, hidden)| Architecture {
            features: FeatureSet { king_buckets, mirror, relations: false },
            width,
            activation,
            output_buckets,
            quantisation: Quantisation::DEFAULT,
            hidden,
        })
}

/// A quantised net of `arch` with random weights from `seed`, and a description of `text`.
fn net_of(arch: Architecture, seed: u64, text: &str) -> Network {
    Network::random(arch, seed).expect("a valid architecture").with_description(text)
}

/// `bytes` with the checksum recomputed, so that a mutation of the header fields or weights is
/// judged by the checks behind the checksum.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() < FIXED_HEADER {
        return bytes;
    }
    // Version 4 (hidden layers) has their count and sizes at byte 36, before the description.
    let sizes = if u16::from_le_bytes([bytes[8], bytes[9]]) >= 4 { 1 + 2 * bytes[36] as usize } else { 0 };
    if bytes.len() < FIXED_HEADER + sizes {
        return bytes;
    }
    let description_len = u16::from_le_bytes([bytes[36 + sizes], bytes[37 + sizes]]) as usize;
    let header_end = FIXED_HEADER + sizes + description_len;
    if bytes.len() < header_end + 8 {
        return bytes;
    }
    let sum = fnv1a64_parts(&[&bytes[..header_end], &bytes[header_end + 8..]]);
    bytes[header_end..header_end + 8].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Reads `bytes` as a net and checks what any read must satisfy; an accepted net must also
/// write back to the same bytes and evaluate `positions` sanely.
fn check_net_bytes(bytes: &[u8], positions: &[Position]) -> Result<Option<Network>, TestCaseError> {
    let g = read_guarded("net", bytes, || format::from_bytes(bytes));
    prop_assert!(
        g.peak_bytes <= memory_bound(bytes.len()),
        "reading {} bytes of net allocated {} bytes",
        bytes.len(),
        g.peak_bytes
    );
    match g.value {
        Err(e) => {
            prop_assert!(e.offset <= bytes.len() as u64, "refused at byte {} of {}", e.offset, bytes.len());
            let message = e.to_string();
            prop_assert!(
                message.len() <= MAX_NET_MESSAGE_LEN,
                "a {}-byte message: {message:.200}",
                message.len()
            );
            Ok(None)
        }
        Ok(net) => {
            prop_assert!(format::to_bytes(&net) == bytes, "an accepted net does not write back to its bytes");
            let net = Arc::new(net);
            for pos in positions {
                check_evaluates(&net, pos)?;
            }
            Ok(Arc::into_inner(net))
        }
    }
}

/// `net` scores `pos` within the limit, and each legal move's position the same after an
/// incremental update as from scratch.
fn check_evaluates(net: &Arc<Network>, pos: &Position) -> Result<(), TestCaseError> {
    let mut stack = AccumulatorStack::new(Arc::clone(net), pos);
    let score = stack.evaluate(pos);
    prop_assert!(score.abs() <= SCORE_LIMIT, "score {score} outside ±{SCORE_LIMIT}");
    let moves = movegen::legal_moves(&mut pos.clone());
    for &mv in moves.iter().take(6) {
        let mut next = pos.clone();
        stack.push_move(&next, mv);
        next.make_move(mv);
        let incremental = stack.evaluate(&next);
        let fresh = AccumulatorStack::new(Arc::clone(net), &next).evaluate(&next);
        prop_assert_eq!(incremental, fresh, "after {} from {}", mv, pos.to_fen());
        stack.pop();
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    /// Every architecture writes and reads back to the same net.
    #[test]
    fn nets_read_back_the_same(arch in small_architecture(), seed in any::<u64>(), text in "[a-z ]{0,40}",
                               pos in any_position()) {
        let net = net_of(arch, seed, &text);
        let bytes = format::to_bytes(&net);
        let read = check_net_bytes(&bytes, &[pos])?;
        let read = read.expect("a net the writer made is read");
        prop_assert_eq!(read.arch(), &arch);
        prop_assert_eq!(read.description(), text.as_str());
    }

    /// One changed byte anywhere is refused: the checksum covers every byte it does not hold.
    #[test]
    fn one_changed_byte_is_refused(arch in small_architecture(), at in any::<prop::sample::Index>(), mask in 1u8..=255) {
        let mut bytes = format::to_bytes(&net_of(arch, 7, "x"));
        let k = at.index(bytes.len());
        bytes[k] ^= mask;
        let read = check_net_bytes(&bytes, &[])?;
        prop_assert!(read.is_none(), "byte {k} changed by {mask:#04x} and the net was still read");
    }

    /// Mutated nets, resealed or not, are read (and then evaluate sanely) or refused.
    #[test]
    fn mutated_nets_are_read_or_refused(arch in small_architecture(), changes in mutations(), reseal in any::<bool>(),
                                        pos in any_position()) {
        let bytes = mutate(&format::to_bytes(&net_of(arch, 3, "mutated")), &changes);
        let bytes = if reseal { resealed(bytes) } else { bytes };
        check_net_bytes(&bytes, &[pos])?;
    }

    /// Weights pushed to the ends of their range behind a valid checksum: refused when the sums
    /// could overflow, otherwise read and evaluated within the limit.
    #[test]
    fn extreme_weights_are_refused_or_safe(arch in small_architecture(),
                                           hits in prop::collection::vec((any::<prop::sample::Index>(),
                                               prop::sample::select(vec![i16::MIN, i16::MAX, -4096, 4096])), 1..64),
                                           pos in any_position()) {
        let mut bytes = format::to_bytes(&net_of(arch, 5, ""));
        let payload = FIXED_HEADER + 8;
        let weights = (bytes.len() - payload) / 2;
        for (at, value) in &hits {
            let k = payload + 2 * at.index(weights);
            bytes[k..k + 2].copy_from_slice(&value.to_le_bytes());
        }
        check_net_bytes(&resealed(bytes), &[pos, Position::startpos()])?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    /// Random bytes, and random bytes behind a net's magic and version, are refused cleanly.
    #[test]
    fn random_bytes_are_refused(bytes in random_bytes(300), headed in any::<bool>()) {
        let bytes = if headed {
            let mut b = b"CHARNNUE\x01\x00".to_vec();
            b.extend_from_slice(&bytes);
            b
        } else {
            bytes
        };
        let read = check_net_bytes(&bytes, &[])?;
        prop_assert!(read.is_none(), "{} random bytes read as a net", bytes.len());
    }
}
