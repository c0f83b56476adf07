#!/usr/bin/env python3
"""What a gate design costs in false verdicts and in games: a simulation (issue 58, item 2).

Games are drawn independently, two to a pair (as `chariot match` plays each opening with both
colours; the simulation gives the two games of a pair no common opening): a win, a draw or a loss, with the draw ratio given and the win and
loss chances set by the true Elo difference (logistic: expected score 1 / (1 + 10^(-elo/400))).
Three designs are played many times at each true Elo:

  sprt      the SPRT [ELO0, ELO1], alpha = beta = 0.05, with the LLR `chariot match` computes
            over game pairs (the normal approximation n (s1 - s0) (2 s - s0 - s1) / (2 var), each
            pair one sample), stopped at --cap games; a run that reaches the cap undecided counts
            as not passed;
  fixed     a fixed --fixed games; passed when the one-sided 95% lower bound of the pairs' score
            is above one half (Elo above 0);
  sprt+fixed  the SPRT, and where it has not decided at --fixed games, the fixed rule there.

For each it prints the share of runs that passed (a false pass where the true Elo is 0 or less,
a false fail where it is ELO1 or more) and the mean and 90th percentile of the games played.

    scripts/gate-design.py [--draws 0.4] [--elo0 0] [--elo1 10] [--fixed 800] [--cap 4000]
                           [--runs 2000] [--seed 58] [--elos -10,0,5,10,15,20,30]

Pure Python and seeded: the same arguments give the same table.
"""

import argparse
import math
import random


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--draws", type=float, default=0.4)
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=10.0)
    p.add_argument("--fixed", type=int, default=800)
    p.add_argument("--cap", type=int, default=4000)
    p.add_argument("--runs", type=int, default=2000)
    p.add_argument("--seed", type=int, default=58)
    p.add_argument("--elos", default="-10,0,5,10,15,20,30")
    return p.parse_args()


def score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def outcome_chances(elo, draws):
    s = score(elo)
    win = s - draws / 2.0
    loss = 1.0 - s - draws / 2.0
    if win < 0 or loss < 0:
        raise SystemExit(f"a draw ratio of {draws} cannot give a score of {s:.3f}")
    return win, draws, loss


def llr(pair_counts, tally, s0, s1):
    """`chariot match`'s LLR (tournament/pairs.rs): each game pair one sample, the normal
    approximation n (s1 - s0) (2 s - s0 - s1) / (2 var); when every pair scored the same (no
    variance), the games one by one (tournament/stats.rs), exact for a single outcome."""
    n = sum(pair_counts)
    s = sum(c * k / 4.0 for k, c in enumerate(pair_counts)) / n
    var = sum(c * (k / 4.0 - s) ** 2 for k, c in enumerate(pair_counts)) / n
    if var > 0:
        return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    wins, draws, losses = tally
    games = wins + draws + losses
    g = (wins + 0.5 * draws) / games
    gvar = (wins * (1 - g) ** 2 + draws * (0.5 - g) ** 2 + losses * g * g) / games
    if gvar > 0:
        return games * (s1 - s0) * (2.0 * g - s0 - s1) / (2.0 * gvar)
    outcome = 1.0 if wins else 0.0 if losses else 0.5
    likeliest = lambda x: x if outcome >= 1 else 1 - x if outcome <= 0 else 2 * min(x, 1 - x)
    return games * math.log(likeliest(s1) / likeliest(s0))


def run_once(rng, chances, args, bounds):
    """One gate, played in game pairs as `chariot match` plays them: (SPRT passed, games),
    fixed passed, (SPRT then fixed passed, games)."""
    win, draw, _ = chances
    s0, s1 = score(args.elo0), score(args.elo1)
    lower, upper = bounds
    pair_counts = [0] * 5
    tally = [0, 0, 0]
    total = total_sq = 0.0
    n = 0
    fixed_pass = None
    sprt = None
    combined = None
    while n < max(args.cap, args.fixed) and (sprt is None or fixed_pass is None):
        half_points = 0
        for _ in range(2):
            r = rng.random()
            k = 2 if r < win else 1 if r < win + draw else 0
            half_points += k
            tally[2 - k] += 1
            total += k / 2.0
            total_sq += (k / 2.0) ** 2
        pair_counts[half_points] += 1
        n += 2
        if sprt is None and n <= args.cap:
            ratio = llr(pair_counts, tally, s0, s1)
            if ratio >= upper:
                sprt = (True, n)
            elif ratio <= lower:
                sprt = (False, n)
            if sprt is not None and combined is None:
                combined = sprt
        if n == args.fixed:
            pairs = n // 2
            s = sum(c * k / 4.0 for k, c in enumerate(pair_counts)) / pairs
            var = sum(c * (k / 4.0 - s) ** 2 for k, c in enumerate(pair_counts)) / pairs
            fixed_pass = s - 1.645 * math.sqrt(var / pairs) > 0.5
            if combined is None:
                combined = (fixed_pass, n)
    if sprt is None:
        sprt = (False, args.cap)
    return sprt, fixed_pass, combined


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    args = parse_args()
    rng = random.Random(args.seed)
    alpha = beta = 0.05
    bounds = (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))
    print(
        f"draws {args.draws:.0%}, SPRT [{args.elo0:g}, {args.elo1:g}] alpha = beta = 0.05 capped at {args.cap} games, "
        f"fixed {args.fixed} games (one-sided 95% lower bound above 0), {args.runs} runs each, seed {args.seed}"
    )
    print(
        "| true Elo | SPRT passes | SPRT games: mean / 90% | fixed passes | SPRT then fixed passes | "
        "its games: mean / 90% |"
    )
    print("|---|---|---|---|---|---|")
    for elo in [float(e) for e in args.elos.split(",")]:
        chances = outcome_chances(elo, args.draws)
        sprt_pass = fixed_pass = combined_pass = 0
        sprt_games, combined_games = [], []
        for _ in range(args.runs):
            sprt, fixed, combined = run_once(rng, chances, args, bounds)
            sprt_pass += sprt[0]
            sprt_games.append(sprt[1])
            fixed_pass += fixed
            combined_pass += combined[0]
            combined_games.append(combined[1])
        share = lambda k: f"{100.0 * k / args.runs:.1f}%"
        print(
            f"| {elo:+g} | {share(sprt_pass)} | {sum(sprt_games) / args.runs:.0f} / {percentile(sprt_games, 0.9)} | "
            f"{share(fixed_pass)} | {share(combined_pass)} | "
            f"{sum(combined_games) / args.runs:.0f} / {percentile(combined_games, 0.9)} |"
        )


if __name__ == "__main__":
    main()
