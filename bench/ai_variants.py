"""Expert against standard in five- and seven-card cribbage (duplicate games).

Run: ``nice -n 19 python bench/ai_variants.py [--games 400] [--jobs 2] [--seed 1]
[--cards 5,7]``. Each variant is a duplicate match (each deck twice, sides
swapped) of 2 players to the variant's own target (61 or 181), played by the
arena (:mod:`cribbage.arena`). Prints each match's report and a summary of
the expert's win rate with 95% intervals (per game, Wilson; and over
duplicate pairs, where the luck of the cards cancels).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.arena import format_report, parser, run_match  # noqa: E402


def match(cards: int, a: str, b: str, games: int, jobs: int, seed: int) -> dict:
    args = parser().parse_args(["--a", a, "--b", b, "--games", str(games), "--jobs", str(jobs),
                                "--seed", str(seed), "--cards", str(cards), "--duplicate"])
    start = time.perf_counter()
    report = run_match(args)
    report["seconds"] = round(time.perf_counter() - start, 1)
    return report


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=400, help="games per variant (even)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cards", default="5,7", help="the variants, e.g. 5,7")
    p.add_argument("--a", default="expert")
    p.add_argument("--b", default="standard")
    args = p.parse_args()
    rows = []
    for cards in (int(text) for text in args.cards.split(",")):
        report = match(cards, args.a, args.b, args.games, args.jobs, args.seed)
        print(format_report(report), f"\n({report['seconds']} s)\n", flush=True)
        rows.append(report)
    print("summary: variant, A vs B, A win rate [95% CI per game] [95% CI over pairs]")
    for r in rows:
        side = r["sides"]["a"]
        mean, low, high = r["a_paired_ci95"]
        print(f"  {r['cards']}-card to {r['target']}: {r['a']} vs {r['b']} "
              f"{100 * side['win_rate']:5.1f}% "
              f"[{100 * side['ci95'][0]:.1f}, {100 * side['ci95'][1]:.1f}] "
              f"[{100 * low:.1f}, {100 * high:.1f}]  ({r['games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
