"""Decision latency of every level, per move kind, in CPython: median and 95th percentile.

Run: ``python bench/ai_latency.py [--games 20] [--players 2]``. Each level
plays whole games against ``standard`` (seat 0 is the level measured); every
decision of the measured seat is timed. The last columns compare the expert's
figures with the targets (30 ms median, 150 ms p95).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.game import Game  # noqa: E402
from cribbage.players import LEVELS, computer_move, make_player  # noqa: E402
from cribbage.rules import Rules  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(level: str, games: int, players: int) -> dict[str, list[float]]:
    """Seconds per decision of ``level`` (seat 0) by move kind, over ``games`` games."""
    times: dict[str, list[float]] = defaultdict(list)
    for number in range(games):
        game = Game.new(Rules(players=players), seed=1000 + number, first_dealer=number % players)
        seats = [make_player(level, seed=number)] + [make_player("standard", seed=s)
                                                    for s in range(1, players)]
        while game.phase != "over":
            seat = game.current_player
            view = game.view(seat)
            start = time.perf_counter()
            move = computer_move(seats[seat], view)
            if seat == 0 and move.kind in ("discard", "play"):
                times[move.kind].append(time.perf_counter() - start)
                times["all"].append(times[move.kind][-1])
            game.apply(move)
    return times


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = p.parse_args()
    print(f"{args.games} games per level, {args.players} players, CPython "
          f"{sys.version.split()[0]}; milliseconds per decision")
    print(f"{'level':<9} {'kind':<8} {'n':>6} {'median':>8} {'p95':>8} {'max':>8}"
          f" {'median/30':>10} {'p95/150':>8}")
    for level in LEVELS:
        times = measure(level, args.games, args.players)
        for kind in ("discard", "play", "all"):
            values = times[kind]
            median, p95 = 1000 * percentile(values, 0.5), 1000 * percentile(values, 0.95)
            print(f"{level:<9} {kind:<8} {len(values):>6} {median:8.2f} {p95:8.2f} "
                  f"{1000 * max(values):8.2f} {median / 30:10.2f} {p95 / 150:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
