"""The master level against the expert and the standard level, and its decision times.

Run: ``nice -n 10 python bench/ai_master.py [--games 400] [--jobs 1] [--seed 1]
[--target 121] [--matches master:expert,master:standard] [--latency-games 10]``.
Every match is a duplicate match (each deck twice, sides swapped), 2
players. Prints the master's win rate with a 95% interval per game (Wilson)
and over the duplicate pairs, points per deal, and the median and 95th
percentile of the master's decision times in CPython with 95% intervals
(targets: 150 ms and 600 ms), measured in whole games against the expert.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.arena import format_report, parser, run_match  # noqa: E402
from cribbage.game import Game  # noqa: E402
from cribbage.players import computer_move, make_player  # noqa: E402
from cribbage.rules import Rules  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentile_ci(values: list[float], q: float, z: float = 1.96) -> tuple[float, float]:
    """95% interval of the ``q`` quantile from order statistics (normal approximation
    to the binomial count of values below it)."""
    ordered = sorted(values)
    n = len(ordered)
    half = z * (n * q * (1 - q)) ** 0.5
    low = max(0, int(n * q - half))
    high = min(n - 1, int(n * q + half) + 1)
    return ordered[low], ordered[high]


def latency(games: int, target: int) -> dict[str, list[float]]:
    """Seconds per master decision by kind (and near the end), master vs expert."""
    times: dict[str, list[float]] = defaultdict(list)
    for number in range(games):
        game = Game.new(Rules(target=target), seed=5000 + number, first_dealer=number % 2)
        seats = [make_player("master", seed=number), make_player("expert", seed=number + 1)]
        while game.phase != "over":
            seat = game.current_player
            view = game.view(seat)
            start = time.perf_counter()
            move = computer_move(seats[seat], view)
            spent = time.perf_counter() - start
            if seat == 0 and move.kind in ("discard", "play"):
                times[move.kind].append(spent)
                times["all"].append(spent)
                if max(view.scores) + 45 >= target:
                    times["near end"].append(spent)
            game.apply(move)
    return times


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=int, default=121, choices=(121, 61))
    p.add_argument("--matches", default="master:expert,master:standard")
    p.add_argument("--latency-games", type=int, default=10)
    args = p.parse_args()
    rows = []
    for pair in filter(None, args.matches.split(",")):
        a, b = pair.split(":")
        match = parser().parse_args(["--a", a, "--b", b, "--games", str(args.games),
                                     "--jobs", str(args.jobs), "--seed", str(args.seed),
                                     "--target", str(args.target), "--duplicate"])
        start = time.perf_counter()
        report = run_match(match)
        print(format_report(report), f"\n({time.perf_counter() - start:.0f} s)\n", flush=True)
        rows.append(report)
    if rows:
        print("summary: A vs B, A win rate [95% CI per game] [95% CI over duplicate pairs]")
    for r in rows:
        side = r["sides"]["a"]
        mean, low, high = r["a_paired_ci95"]
        print(f"  {r['a']:>8} vs {r['b']:<8} {100 * side['win_rate']:5.1f}% "
              f"[{100 * side['ci95'][0]:.1f}, {100 * side['ci95'][1]:.1f}] "
              f"[{100 * low:.1f}, {100 * high:.1f}]  ({r['games']} games to {r['target']})",
              flush=True)
    if args.latency_games:
        times = latency(args.latency_games, args.target)
        print(f"\nmaster decision time, {args.latency_games} games vs expert to {args.target}, "
              f"CPython {sys.version.split()[0]} (targets: median 150 ms, p95 600 ms)")
        print(f"{'kind':<9} {'n':>6} {'median [95% CI]':>22} {'p95 [95% CI]':>22} "
              f"{'max':>7}  (ms)")
        for kind in ("discard", "play", "near end", "all"):
            values = times[kind]
            if values:
                cells = []
                for q in (0.5, 0.95):
                    low, high = percentile_ci(values, q)
                    cells.append(f"{1000 * percentile(values, q):6.1f} "
                                 f"[{1000 * low:6.1f}, {1000 * high:6.1f}]")
                print(f"{kind:<9} {len(values):>6} {cells[0]:>22} {cells[1]:>22} "
                      f"{1000 * max(values):7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
