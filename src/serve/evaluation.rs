//! 局面评估 for the page: the static evaluation of one position of a game, as `chariot eval`
//! gives it (`eval::explain`): the net's score, normalised, with win/draw/loss chances from the
//! side to move's view, and each piece's share of it from its owner's view (the score with the
//! piece on the board less the score with it taken off, normalised at the position's material).
//! With it, each piece's relations (`eval::relations`): its attackers' and protectors' squares,
//! whether it hangs, what taking it wins. It takes a millisecond or two, so it is answered at
//! once on the asker's connection thread without a game's lock.

use serde_json::{json, Value};

use crate::board::{Color, Position};
use crate::eval::explain::net_shares;
use crate::eval::nnue::Network;
use crate::eval::relations::json::relations_json;
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::winrate;

/// The static evaluation of `position` (the one after `ply` moves of the game `game`) by `net`:
/// `{type: "evaluation", game, ply, fen, turn, cp, wdl, pieces, relations}`. `cp` and `wdl` are
/// the side to move's; each of `pieces` (every piece but the kings) is `{square, piece, share}`,
/// `share` in normalised centipawns from the piece's owner's view; `relations` has every piece's
/// `{square, piece, attackers, protectors, hangs, exchange}` (`relations_json`).
pub fn evaluation_message(game: &str, ply: usize, position: &Position, net: &Network) -> String {
    let model = *net.win_rate();
    let scale = ScoreScale::new(model, position);
    let score = net.evaluate(position);
    let cp = match scale.shown(score) {
        ShownScore::Cp(cp) => cp,
        // A static score is never a mate; were it shown as one, the bound stands for it.
        ShownScore::Mate(_) => scale.shown_cp(score),
    };
    let wdl = scale.wdl(score);
    let material = winrate::material(position);
    let pieces: Vec<Value> = net_shares(net, position)
        .into_iter()
        .map(|(square, color, kind, share)| {
            json!({
                "square": square.to_string(),
                "piece": match color {
                    Color::Red => kind.letter(),
                    Color::Black => kind.letter().to_ascii_lowercase(),
                }
                .to_string(),
                "share": model.normalise(share, material),
            })
        })
        .collect();
    json!({
        "type": "evaluation",
        "game": game,
        "ply": ply,
        "fen": position.to_fen(),
        "turn": position.side_to_move().name(),
        "cp": cp,
        "wdl": [wdl.win, wdl.draw, wdl.loss],
        "pieces": pieces,
        "relations": relations_json(position),
    })
    .to_string()
}

/// Whose view a share is from: its owner's.
pub fn share_owner(piece_letter: char) -> Color {
    if piece_letter.is_ascii_uppercase() {
        Color::Red
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::embedded;

    #[test]
    fn every_piece_but_the_kings_has_a_share_and_the_rook_is_worth_more_than_a_pawn() {
        let net = embedded::network();
        let v: Value =
            serde_json::from_str(&evaluation_message("g", 0, &Position::startpos(), &net)).unwrap();
        assert_eq!(
            (v["type"].as_str(), v["turn"].as_str(), v["ply"].as_u64()),
            (Some("evaluation"), Some("red"), Some(0))
        );
        let wdl: u64 = v["wdl"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
        assert_eq!(wdl, 1000);
        // The start is about even: within a pawn either way.
        assert!(v["cp"].as_i64().unwrap().abs() < 100, "{}", v["cp"]);
        let pieces = v["pieces"].as_array().unwrap();
        assert_eq!(pieces.len(), 30);
        let share = |square: &str| {
            let p = pieces.iter().find(|p| p["square"] == square).unwrap();
            p["share"].as_i64().unwrap()
        };
        assert_eq!(pieces.iter().find(|p| p["square"] == "a0").unwrap()["piece"], "R");
        assert_eq!(pieces.iter().find(|p| p["square"] == "a9").unwrap()["piece"], "r");
        assert!(share("a0") > share("a3") && share("a0") > 100, "rook {} pawn {}", share("a0"), share("a3"));
        assert!(share("a9") > share("a6"), "Black's shares are from Black's view");
        let relations = v["relations"].as_array().unwrap();
        assert_eq!(relations.len(), 32);
        let b9 = relations.iter().find(|r| r["square"] == "b9").unwrap();
        assert_eq!((b9["piece"].as_str(), b9["attackers"][0].as_str()), (Some("n"), Some("b2")));
        assert_eq!(b9["hangs"], false);
        assert_eq!(share_owner('R'), Color::Red);
        assert_eq!(share_owner('r'), Color::Black);
    }

    #[test]
    fn the_score_is_the_side_to_moves() {
        let net = embedded::network();
        // Red has an extra rook; with Black to move the score is Black's, so negative.
        let fen = "3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 1";
        let v: Value =
            serde_json::from_str(&evaluation_message("g", 3, &Position::from_fen(fen).unwrap(), &net))
                .unwrap();
        assert_eq!(v["turn"], "black");
        assert!(v["cp"].as_i64().unwrap() < -100, "{}", v["cp"]);
        assert!(v["wdl"][2].as_u64().unwrap() > v["wdl"][0].as_u64().unwrap());
    }

    #[test]
    fn a_hanging_piece_is_marked_with_its_attacker() {
        let net = embedded::network();
        // The black horse on e5 stands before the red rook on e1, unprotected.
        let fen = "4k4/9/9/9/4n4/9/9/9/4R4/3K5 b - - 0 1";
        let v: Value =
            serde_json::from_str(&evaluation_message("g", 1, &Position::from_fen(fen).unwrap(), &net))
                .unwrap();
        let relations = v["relations"].as_array().unwrap();
        let horse = relations.iter().find(|r| r["square"] == "e5").unwrap();
        assert_eq!(horse["hangs"], true);
        assert_eq!(horse["attackers"], serde_json::json!(["e1"]));
        assert_eq!(horse["protectors"], serde_json::json!([]));
        let rook = relations.iter().find(|r| r["square"] == "e1").unwrap();
        assert_eq!((rook["hangs"].as_bool(), rook["exchange"].is_null()), (Some(false), true));
    }
}
