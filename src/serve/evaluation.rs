//! 局面评估 for the page: the static evaluation of one position of a game, as `chariot eval`
//! gives it (`eval::explain`): the net's score, normalised, with win/draw/loss chances from the
//! side to move's view, and each piece's share of it from its owner's view (the score with the
//! piece on the board less the score with it taken off, normalised at the position's material).
//! With it go each piece's relations (`eval::relations`, added where the message is written):
//! its attackers' and protectors' squares, whether it hangs, what taking it wins. It takes a
//! millisecond or two, so it is answered at once on the asker's connection thread without a
//! game's lock.

use crate::board::{Color, Position, Square};
use crate::eval::explain::net_shares;
use crate::eval::nnue::Network;
use crate::search::score_scale::{ScoreScale, ShownScore};
use crate::winrate::{self, WdlPerMille};

/// One piece's share of a position's evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceShare {
    /// Where it stands.
    pub square: Square,
    /// Its FEN letter (upper case Red, lower case Black).
    pub piece: char,
    /// Its share in normalised centipawns, from its owner's view.
    pub share: i32,
}

/// The static evaluation of a position, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score in normalised centipawns, the side to move's view.
    pub cp: i32,
    /// Win, draw and loss chances per mille for the side to move.
    pub wdl: WdlPerMille,
    /// Every piece but the kings.
    pub pieces: Vec<PieceShare>,
}

/// The static evaluation of `position` by `net`, with each piece's share of it.
pub fn evaluate(position: &Position, net: &Network) -> Evaluation {
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
    let pieces = net_shares(net, position)
        .into_iter()
        .map(|(square, color, kind, share)| PieceShare {
            square,
            piece: match color {
                Color::Red => kind.letter(),
                Color::Black => kind.letter().to_ascii_lowercase(),
            },
            share: model.normalise(share, material),
        })
        .collect();
    Evaluation { cp, wdl, pieces }
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
    use crate::serve::messages::ServerMessage;
    use serde_json::Value;

    /// The evaluation as the page gets it.
    fn evaluation_message(game: &str, ply: usize, position: &Position, net: &Network) -> String {
        let evaluation = evaluate(position, net);
        ServerMessage::Evaluation { game: game.into(), ply, position: position.clone(), evaluation }.text()
    }

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
}
