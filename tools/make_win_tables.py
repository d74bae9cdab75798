"""Make ``cribbage/data/win_tables.json``: the chance to win from every board position.

Model (2 players; the file is read by :mod:`cribbage.players.winprob`).

1. **Points per deal.** Expert self-play games (``--games``; the players see
   only their own views) are replayed deal by deal and every complete deal
   (one that reached the crib) gives one sample of: the dealer's and the
   pone's pegging (his heels counted with the dealer's pegging: they come
   first), the pone's hand, and the dealer's hand plus crib. Kept as
   distributions: a joint one for the pegging pair (they are strongly
   linked), and one each for the pone's hand, the dealer's hand, the crib
   and the dealer's hand plus crib (a sum measured jointly).
2. **The board as a Markov chain.** ``W[d][p]`` is the chance that the
   player about to deal with ``d`` points, against the pone's ``p``, wins
   the game (to ``T`` = 121 or 61). A deal goes in the rules' order:
   the pegging first (if both sides would reach ``T`` in the same play, the
   race is taken as even), then the pone's hand (the pone counts first),
   then the dealer's hand and crib; whoever reaches ``T`` first wins; else
   the pone deals the next deal::

       W[d][p] = sum P(dp, pp) * V(d + dp, p + pp)
       V(x, y) = sum P(h) * (0 if y + h >= T else U(x, y + h))
       U(x, y) = sum P(s) * (1 if x + s >= T else 1 - W[y][x + s])

   Each deal scores at least one point (the last card or 31 in the play),
   so every position depends only on positions with a larger total and the
   tables are solved exactly from the end backwards.

The phases are taken as independent given the roles (the pegging does not
know the hands), the players' play as the expert's, and the deals of a game
as alike (the few incomplete deals that ended a game are left out).

Output: ``{"about", "deals", "dist": {...}, "win": {"121": [...], "61": [...]}}``:
``win[T]`` is ``W`` row by row (``d * T + p``), in units of 1/10000.

Run: ``nice -n 10 python tools/make_win_tables.py --games 300`` (about
10 minutes on one core; ``--from-dist`` re-solves the stored distributions
without playing). Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.game import Game  # noqa: E402
from cribbage.players import computer_move, make_player  # noqa: E402
from cribbage.players.winprob import solve  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "cribbage" / "data" / "win_tables.json"
CACHE = Path(__file__).resolve().parent.parent / ".cache" / "win_samples.json"
PEG_KINDS = {"play", "go", "last card", "heels"}


def deal_samples(game: Game) -> list[dict[str, int]]:
    """One record per complete deal of a finished game."""
    records: dict[int, dict[str, int]] = {}
    dealers: dict[int, int] = {}
    complete: set[int] = set()
    for event in game.events:
        if event.kind == "deal":
            dealers[event.deal] = event.seat if event.seat is not None else 0
            records[event.deal] = Counter()
        if event.deal not in records or event.seat is None:
            continue
        record = records[event.deal]
        role = "dealer" if event.seat == dealers[event.deal] else "pone"
        if event.kind in PEG_KINDS:
            record[f"{role}_peg"] += event.points
        elif event.kind == "hand":
            record[f"{role}_hand"] += event.points
        elif event.kind == "crib":
            record["crib"] += event.points
            complete.add(event.deal)
    return [dict(records[deal]) for deal in sorted(complete)]


def simulate(games: int, seed: int) -> list[dict[str, int]]:
    samples: list[dict[str, int]] = []
    start = time.perf_counter()
    for number in range(games):
        game = Game.new(seed=seed + number, first_dealer=number % 2)
        players = [make_player("expert", seed=seed + 2 * number + s) for s in range(2)]
        while game.phase != "over":
            seat = game.current_player
            assert seat is not None
            game.apply(computer_move(players[seat], game.view(seat)))
        samples.extend(deal_samples(game))
        if (number + 1) % 25 == 0:
            print(f"{number + 1} games, {len(samples)} deals, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return samples


def distributions(samples: list[dict[str, int]]) -> dict[str, Any]:
    n = len(samples)

    def hist(key: Any) -> list[float]:
        counts = Counter(key(s) for s in samples)
        return [round(counts.get(k, 0) / n, 6) for k in range(max(counts) + 1)]

    pegs = Counter((s.get("dealer_peg", 0), s.get("pone_peg", 0)) for s in samples)
    return {
        "peg": [[d, p, round(c / n, 6)] for (d, p), c in sorted(pegs.items())],
        "pone_hand": hist(lambda s: s.get("pone_hand", 0)),
        "dealer_hand": hist(lambda s: s.get("dealer_hand", 0)),
        "crib": hist(lambda s: s.get("crib", 0)),
        "dealer_show": hist(lambda s: s.get("dealer_hand", 0) + s.get("crib", 0)),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=70000)
    p.add_argument("--from-dist", action="store_true",
                   help="re-solve the distributions already in the file")
    args = p.parse_args()
    if args.from_dist:
        old = json.loads(OUT.read_text())
        dist, deals = old["dist"], old["deals"]
    else:
        samples = simulate(args.games, args.seed)
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps(samples))  # the raw deals, to re-solve without replaying
        dist, deals = distributions(samples), len(samples)
    win = {str(target): [round(10000 * x) for row in solve(dist, target) for x in row]
           for target in (121, 61)}
    data = {"about": "Chance to win by board position (2 players); see tools/make_win_tables.py",
            "deals": deals, "dist": dist, "win": win}
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{deals} deals; wrote {OUT} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
