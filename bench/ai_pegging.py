"""Pegging duel: two players' pegging on the same hands, seats swapped (duplicate).

Run: ``python bench/ai_pegging.py --a expert --b standard --deals 2000 [--jobs 1]``.
Every deal is the first deal of ``Game.new(seed=S+i)`` with both seats
discarding as the expert does, so the kept hands and the starter are the same
in both orientations; only the play differs. Prints A's pegging minus B's
per deal (mean over the two orientations, with a 95% interval), and each
side's pegging as dealer and as pone. A side is a level or ``module:callable``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.game import Game  # noqa: E402
from cribbage.players import computer_move, load_player, make_player  # noqa: E402

PEG_KINDS = ("play", "go", "last card")


def peg_deal(job: tuple[str, str, int]) -> tuple[int, int, float]:
    """Pegging points of seat 0 (dealer) and seat 1 (pone) for one deal and one seating."""
    dealer_spec, pone_spec, seed = job
    game = Game.new(seed=seed, first_dealer=0)
    discarder = make_player("expert", seed=0)
    players = [load_player(dealer_spec, seed=seed * 2), load_player(pone_spec, seed=seed * 2 + 1)]
    spent = 0.0
    while game.phase != "over" and game.deal_number == 1 and game.phase in (
            "cut", "starter", "discard", "play"):
        seat = game.current_player
        view = game.view(seat)
        if game.phase == "discard":
            move = computer_move(discarder, view)
        else:
            start = time.perf_counter()
            move = computer_move(players[seat], view)
            spent += time.perf_counter() - start
        game.apply(move)
    points = [0, 0]
    for event in game.events:
        if event.deal == 1 and event.kind in PEG_KINDS and event.seat is not None:
            points[event.seat] += event.points
    return points[0], points[1], spent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", default="expert")
    p.add_argument("--b", default="standard")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    jobs = []
    for i in range(args.deals):
        jobs += [(args.a, args.b, args.seed + i), (args.b, args.a, args.seed + i)]
    start = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(peg_deal, jobs, chunksize=8)
    else:
        results = [peg_deal(job) for job in jobs]
    diffs, a_dealer, a_pone, b_dealer, b_pone = [], 0, 0, 0, 0
    for i in range(args.deals):
        (ad, bp, _), (bd, ap, _) = results[2 * i], results[2 * i + 1]
        a_dealer += ad
        a_pone += ap
        b_dealer += bd
        b_pone += bp
        diffs.append(((ad - bp) + (ap - bd)) / 2)
    n = args.deals
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(f"{n} deals x 2 seatings, seed {args.seed}, {time.perf_counter() - start:.0f} s")
    print(f"A {args.a}: dealer {a_dealer / n:.3f}, pone {a_pone / n:.3f}")
    print(f"B {args.b}: dealer {b_dealer / n:.3f}, pone {b_pone / n:.3f}")
    print(f"A minus B pegging per deal: {mean:+.3f} (95% CI {mean - half:+.3f} to "
          f"{mean + half:+.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
