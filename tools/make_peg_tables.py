"""Make ``cribbage/data/peg_tables.json``: the pegging worth of every kept four (2 players).

For each four ranks a player may keep (the 1,820 multisets of ranks, in the
order of ``itertools.combinations_with_replacement(range(1, 14), 4)``, as
the crib tables' ``"keep"``) and each role, the mean pegging difference
(my points in the play minus the opponent's, go and last card included)
when the opponent holds four cards drawn from the other 48 and both sides
play the rest of the play perfectly on open cards
(:class:`cribbage.players.pegging.PlaySearch`). The pone leads. The master
adds it to the hand and crib expectation when it lays away
(:mod:`cribbage.players.master`).

Run: ``nice -n 19 python tools/make_peg_tables.py --deals 48`` (about 10
minutes on one core). Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribbage.players.pegging import PlaySearch  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "cribbage" / "data" / "peg_tables.json"
DEALER, PONE = 0, 1


def pegging_worth(kept: tuple[int, ...], role: int, decks: list[list[tuple[int, int]]]
                  ) -> float:
    """Mean pegging difference for ``kept`` in ``role``, one opponent four from each deck.

    The opponent gets the first four cards of each shuffled deck (rank, suit)
    that are not ours (ours: the lowest suits of each kept rank), so that the
    same decks are used for every kept four: similar keeps meet mostly the
    same opponents, and the differences between keeps are measured with less
    noise (common random numbers).
    """
    ours = {(rank, suit) for rank in set(kept) for suit in range(kept.count(rank))}
    total = 0
    for deck in decks:
        theirs = tuple(sorted([rank for rank, suit in
                               (card for card in deck if card not in ours)][:4]))
        hands = (kept, theirs) if role == DEALER else (theirs, kept)
        search = PlaySearch(2, [0, 1], role)
        total += search.value(hands, (), PONE, 0, -1, 99)
    return total / len(decks)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=48)
    p.add_argument("--seed", type=int, default=90000)
    args = p.parse_args()
    rng = random.Random(args.seed)
    decks = []
    for _ in range(args.deals):
        deck = [(rank, suit) for rank in range(1, 14) for suit in range(4)]
        rng.shuffle(deck)
        decks.append(deck[:8])  # we keep four cards: four of the first eight are theirs
    table: dict[str, list[float]] = {"dealer": [], "pone": []}
    start = time.perf_counter()
    keeps = list(combinations_with_replacement(range(1, 14), 4))
    for number, kept in enumerate(keeps):
        table["dealer"].append(round(pegging_worth(kept, DEALER, decks), 3))
        table["pone"].append(round(pegging_worth(kept, PONE, decks), 3))
        if (number + 1) % 100 == 0:
            print(f"{number + 1}/{len(keeps)}, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
    data = {"about": "Mean pegging difference by the four ranks kept (2 players, open-card "
                     f"play against a random four); tools/make_peg_tables.py --deals {args.deals}",
            **table}
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
