"""Expert against standard in five- and seven-card cribbage (duplicate games).

Run: ``nice -n 19 python bench/ai_variants.py [--games 400] [--jobs 2] [--seed 1]
[--cards 5,7] [--chunk 20]``. Each variant is a duplicate match (each deck
twice, sides swapped) of 2 players to the variant's own target (61 or 181),
played by the arena (:mod:`cribbage.arena`). After every ``--chunk`` games a
progress line gives the win rate so far (a long run stopped early still says
what it measured); at the end, each match's report and a summary of the
expert's win rate with 95% intervals (per game, Wilson; and over duplicate
pairs, where the luck of the cards cancels).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from multiprocessing import Pool  # noqa: E402

from cribbage.arena import (  # noqa: E402
    format_report,
    match_rules,
    parser,
    run_spec,
    schedule,
    summarise,
)


def match(cards: int, a: str, b: str, games: int, jobs: int, seed: int, chunk: int) -> dict:
    """Play the duplicate match ``chunk`` games at a time, printing the rate so far."""
    args = parser().parse_args(["--a", a, "--b", b, "--games", str(games), "--jobs", str(jobs),
                                "--seed", str(seed), "--cards", str(cards), "--duplicate"])
    rules = match_rules(args)
    specs = schedule(games, seed, 2, True)
    start = time.perf_counter()
    results: list[dict] = []
    with Pool(jobs) as pool:
        for first in range(0, games, chunk):
            jobs_now = [(spec, a, b, rules) for spec in specs[first:first + chunk]]
            results.extend(pool.imap_unordered(run_spec, jobs_now))
            results.sort(key=lambda r: r["index"])
            report = summarise(results, args)
            mean, low, high = report["a_paired_ci95"]
            print(f"  {cards}-card, {len(results)} games: {a} {100 * mean:.1f}% over pairs "
                  f"(95% CI {100 * low:.1f}-{100 * high:.1f}%), "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
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
    p.add_argument("--chunk", type=int, default=20, help="games between progress lines (even)")
    args = p.parse_args()
    rows = []
    for cards in (int(text) for text in args.cards.split(",")):
        report = match(cards, args.a, args.b, args.games, args.jobs, args.seed, args.chunk)
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
