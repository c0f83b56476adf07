//! A game's curve as SVG: Red's expected score (win + ½ draw) after every ply, from 0 (Black
//! wins) to 1 (Red wins), with each marked move drawn on the curve with its mark.

use std::fmt::Write;

use super::{escape, open};

const WIDTH: i32 = 860;
const HEIGHT: i32 = 320;
const LEFT: i32 = 56;
const RIGHT: i32 = 20;
const TOP: i32 = 40;
const BOTTOM: i32 = 40;

const AXIS: &str = "#444444";
const GRID: &str = "#dddddd";
const CURVE: &str = "#1f6fd1";
const RED_AREA: &str = "#f4d4d2";
const BLACK_AREA: &str = "#d9d9d9";

/// One ply of the curve.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    /// The ply after which the position is scored (1 is after Red's first move).
    pub ply: usize,
    /// Red's expected score there, 0 to 1.
    pub red_expected: f64,
    /// The move's mark (`?!`, `?`, `??`), if it has one.
    pub mark: Option<String>,
}

/// The colour of a mark's dot: the worse the mistake, the hotter.
fn mark_colour(mark: &str) -> &'static str {
    match mark {
        "??" => "#c4121a",
        "?" => "#e8710a",
        _ => "#d4b106",
    }
}

/// The curve of `points` (in ply order) as an SVG document titled `title`.
pub fn curve_svg(title: &str, points: &[CurvePoint]) -> String {
    let plot_w = (WIDTH - LEFT - RIGHT) as f64;
    let plot_h = (HEIGHT - TOP - BOTTOM) as f64;
    let last_ply = points.iter().map(|p| p.ply).max().unwrap_or(1).max(1) as f64;
    let x = |ply: usize| LEFT as f64 + plot_w * ply as f64 / last_ply;
    let y = |expected: f64| TOP as f64 + plot_h * (1.0 - expected.clamp(0.0, 1.0));

    let mut s = open(WIDTH as u32, HEIGHT as u32);
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\" fill=\"{AXIS}\">{}</text>",
        WIDTH / 2,
        escape(title)
    );
    // Red's half above the middle line, Black's below.
    let mid = y(0.5);
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{:.1}\" fill=\"{RED_AREA}\"/>\n\
         <rect x=\"{LEFT}\" y=\"{mid:.1}\" width=\"{plot_w}\" height=\"{:.1}\" fill=\"{BLACK_AREA}\"/>",
        mid - TOP as f64,
        TOP as f64 + plot_h - mid
    );
    for (fraction, label) in [(1.0, "100%"), (0.75, "75%"), (0.5, "50%"), (0.25, "25%"), (0.0, "0%")] {
        let gy = y(fraction);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{gy:.1}\" x2=\"{}\" y2=\"{gy:.1}\" stroke=\"{GRID}\"/>\
             <text x=\"{}\" y=\"{gy:.1}\" font-size=\"12\" text-anchor=\"end\" dy=\"0.35em\" fill=\"{AXIS}\">{label}</text>",
            WIDTH - RIGHT,
            LEFT - 6
        );
    }
    let step = ((last_ply / 10.0).ceil() as usize).max(1);
    for ply in (0..=last_ply as usize).step_by(step) {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{AXIS}\">{ply}</text>",
            x(ply),
            HEIGHT - BOTTOM + 16
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{AXIS}\">ply · Red's expected score (win + ½ draw)</text>",
        WIDTH / 2,
        HEIGHT - 6
    );
    if !points.is_empty() {
        let path: Vec<String> =
            points.iter().map(|p| format!("{:.1},{:.1}", x(p.ply), y(p.red_expected))).collect();
        let _ = writeln!(
            s,
            "<polyline class=\"curve\" points=\"{}\" fill=\"none\" stroke=\"{CURVE}\" stroke-width=\"2\"/>",
            path.join(" ")
        );
    }
    for p in points {
        if let Some(mark) = &p.mark {
            let (px, py) = (x(p.ply), y(p.red_expected));
            let _ = writeln!(
                s,
                "<g class=\"mark\"><circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"5\" fill=\"{}\"/>\
                 <text x=\"{px:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{AXIS}\">{}</text></g>",
                mark_colour(mark),
                py - 9.0,
                escape(mark)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_is_on_the_curve_and_every_mark_is_drawn() {
        let points: Vec<CurvePoint> = (1..=40)
            .map(|ply| CurvePoint {
                ply,
                red_expected: ply as f64 / 40.0,
                mark: (ply % 10 == 0).then(|| "??".to_string()),
            })
            .collect();
        let svg = curve_svg("Red <vs> Black", &points);
        let curve = svg.lines().find(|l| l.contains("class=\"curve\"")).unwrap();
        assert_eq!(curve.matches(',').count(), 40);
        assert_eq!(svg.matches("class=\"mark\"").count(), 4);
        assert!(svg.contains("Red &lt;vs&gt; Black"));
    }

    #[test]
    fn a_game_without_plies_still_draws_the_axes() {
        let svg = curve_svg("empty", &[]);
        assert!(!svg.contains("class=\"curve\""));
        assert!(svg.contains("50%"));
    }
}
