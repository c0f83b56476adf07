//! The Elo, error, LOS and SPRT arithmetic checked by hand.

use super::*;

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn elo_error_and_los_by_hand() {
    // 12 wins, 6 draws, 2 losses: score 15/20 = 0.75, so Elo = -400·log10(1/3) = 190.8485.
    // Per-game variance (12·0.25² + 6·0.25² + 2·0.75²)/20 = 0.1125, σ/√n = 0.075; the score
    // interval 0.75 ± 1.96·0.075 maps to Elo half-width 151.682. LOS = ½(1 + erf((12-2)/√(2·14)))
    // = ½(1 + erf(1.88982)) = 0.996237.
    let t = Tally { wins: 12, draws: 6, losses: 2 };
    assert_eq!(t.score(), Some(0.75));
    assert!(close(t.elo().unwrap(), 190.8485, 1e-3));
    assert!(close(t.elo_error95().unwrap(), 151.682, 1e-2));
    assert!(close(t.los().unwrap(), 0.996237, 1e-5));
    assert_eq!(t.draw_ratio(), Some(0.3));
    // 40 wins, 100 draws, 60 losses: score 0.45, Elo = -400·log10(11/9) = -34.860;
    // LOS = ½(1 + erf(-20/√200)) = Φ(-2) = 0.0227501.
    let u = Tally { wins: 40, draws: 100, losses: 60 };
    assert!(close(u.elo().unwrap(), -34.860, 1e-3));
    assert!(close(u.los().unwrap(), 0.0227501, 1e-6));
    // Even and all-won results.
    assert!(close(Tally { wins: 3, draws: 4, losses: 3 }.elo().unwrap(), 0.0, 1e-9));
    assert_eq!(Tally { wins: 3, draws: 0, losses: 0 }.elo_error95(), None);
    assert_eq!(Tally::default().los(), None);
}

#[test]
fn sprt_llr_and_bounds_by_hand() {
    let sprt = SprtSpec { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
    // ln(0.05/0.95) = -2.944439 and ln(0.95/0.05) = +2.944439.
    let (lower, upper) = sprt_bounds(&sprt);
    assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
    // s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071941; with +12 =6 -2 (s = 0.75, σ² = 0.1125):
    // LLR = 20·(s1 - s0)·(2·0.75 - s0 - s1)/(2·0.1125) = 0.315180.
    let t = Tally { wins: 12, draws: 6, losses: 2 };
    assert!(close(t.llr(&sprt), 0.315180, 1e-5));
    assert_eq!(sprt_verdict(t.llr(&sprt), &sprt), SprtVerdict::Continue);
    // +40 =100 -60: s = 0.45, σ² = (40·0.55² + 100·0.05² + 60·0.45²)/200 = 24.5/200 = 0.1225,
    // LLR = 200·0.0071941·(0.9 - 1.0071941)/0.245 = -0.62961.
    let u = Tally { wins: 40, draws: 100, losses: 60 };
    let expected = -0.62961;
    assert!(close(u.llr(&sprt), expected, 1e-3), "{}", u.llr(&sprt));
    // Ten times as many of the same games is ten times the LLR: past the lower bound.
    let many = Tally { wins: 400, draws: 1000, losses: 600 };
    assert!(close(many.llr(&sprt), 10.0 * expected, 1e-2));
    assert_eq!(sprt_verdict(many.llr(&sprt), &sprt), SprtVerdict::AcceptH0);
    assert_eq!(sprt_verdict(3.0, &sprt), SprtVerdict::AcceptH1);
}

#[test]
fn a_sweep_or_a_run_of_draws_still_reaches_a_verdict() {
    // One outcome only: the variance is zero, so the ratio is the exact generalised one. With
    // elo1 = 10, s1 = 0.5143872; the likeliest win chance at expected score s is s, so each won
    // game adds ln(s1/0.5) = 0.0283682: 103 wins are 2.92192 (go on), 104 are 2.95029 (H1).
    let sprt = SprtSpec { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
    let wins = |n| Tally { wins: n, draws: 0, losses: 0 };
    assert!(close(wins(23).llr(&sprt), 0.652468, 1e-5), "{}", wins(23).llr(&sprt));
    assert_eq!(sprt_verdict(wins(103).llr(&sprt), &sprt), SprtVerdict::Continue);
    assert_eq!(sprt_verdict(wins(104).llr(&sprt), &sprt), SprtVerdict::AcceptH1);
    // A draw's likeliest chance is 2·min(s, 1 − s): 1 under H0, 0.9712254 under H1, so each
    // draw adds −0.0291965: 100 draws are −2.91965 (go on), 101 are −2.94884 (H0).
    let draws = |n| Tally { wins: 0, draws: n, losses: 0 };
    assert_eq!(sprt_verdict(draws(100).llr(&sprt), &sprt), SprtVerdict::Continue);
    assert_eq!(sprt_verdict(draws(101).llr(&sprt), &sprt), SprtVerdict::AcceptH0);
    // A loss's is 1 − s: ln(0.4856128/0.5) = −0.0291965 each.
    let losses = Tally { wins: 0, draws: 0, losses: 7 };
    assert!(close(losses.llr(&sprt), -7.0 * 0.0291965, 1e-5), "{}", losses.llr(&sprt));
    // One other result brings back the usual formula (here far past the upper bound).
    assert_eq!(
        sprt_verdict(Tally { wins: 23, draws: 1, losses: 0 }.llr(&sprt), &sprt),
        SprtVerdict::AcceptH1
    );
    assert_eq!(Tally::default().llr(&sprt), 0.0);
}
