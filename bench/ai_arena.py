"""Arena results for expert against each other level, side by side in one run.

Run: ``python bench/ai_arena.py [--games 2000] [--jobs 2] [--seed 1]``. Every
match is a duplicate match (each deck twice, sides swapped), 2 players to 121.
Prints win rate with 95% intervals (per game, Wilson; and over duplicate
pairs), points per deal as dealer and pone, and expert self-play per deal.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.arena import format_report, parser, run_match  # noqa: E402


def match(a: str, b: str, games: int, jobs: int, seed: int) -> dict:
    args = parser().parse_args(["--a", a, "--b", b, "--games", str(games), "--jobs", str(jobs),
                                "--seed", str(seed), "--duplicate"])
    start = time.perf_counter()
    report = run_match(args)
    report["seconds"] = round(time.perf_counter() - start, 1)
    return report


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000, help="games for expert vs standard")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--matches", default="expert:standard,standard:easy,expert:easy,"
                   "expert:beginner,expert:expert")
    args = p.parse_args()
    rows = []
    for pair in args.matches.split(","):
        a, b = pair.split(":")
        games = args.games if (a, b) == ("expert", "standard") else max(200, args.games // 5)
        report = match(a, b, games, args.jobs, args.seed)
        print(format_report(report), f"\n({report['seconds']} s)\n", flush=True)
        rows.append(report)
    print("summary: A vs B, A win rate [95% CI per game] [95% CI over pairs]")
    for r in rows:
        side = r["sides"]["a"]
        mean, low, high = r["a_paired_ci95"]
        print(f"  {r['a']:>8} vs {r['b']:<8} {100 * side['win_rate']:5.1f}% "
              f"[{100 * side['ci95'][0]:.1f}, {100 * side['ci95'][1]:.1f}] "
              f"[{100 * low:.1f}, {100 * high:.1f}]  ({r['games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
