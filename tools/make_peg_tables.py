"""A table of what a kept four is worth in the play (an experiment, not shipped).

The discard decides the play as well as the show: a pone who keeps low cards
and pairs pegs more than one who keeps four tens. This tool measures it, so
that a player can add it to the hand and crib when it lays away (tried with
the master: docs/ai.md, "Tried, not shipped"; no clear gain, so the package carries no
such table and no level uses one). For every
multiset of four kept ranks and both roles (2 players, six-card cribbage),
the table holds the mean pegging difference (our points in the play, go and
31 included, less the other player's; his heels left out, they do not depend
on the discard) over ``--deals`` deals of the other player's hand:

1. The other player is dealt six ranks from the deck less our four, and
   keeps the four a hand-plus-crib player keeps (the exact expected hand
   over the starter plus, as dealer, or minus, as pone, the crib table's mean
   for the two thrown: the model the expert reads discards with,
   ``cribbage.players.pegging._keep_worth``).
2. The play is searched to its end by minimax with both hands open
   (``cribbage.players.pegging.PlaySearch``): the value of the hands when
   both sides play their best, which ranks kept fours the way the sampled
   search of the expert and master judges a play.
3. Every kept four meets the same deals (deal ``j`` is one shuffled deck,
   our ranks taken out of it), so two fours of one hand are compared on the
   same opponents and the table's noise cancels in the comparison the
   discard makes.

``typical`` is the mean of the table over the fours such a player keeps
(the pegging a measured deal's distribution already holds), so that the
win-chance discard can shift that distribution by the four's difference.

Values are hundredths of a point, in
``itertools.combinations_with_replacement(range(1, 14), 4)`` order.

Run: ``python tools/make_peg_tables.py --out FILE [--deals 240] [--jobs 2]`` (about 11
minutes on 2 cores). Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from itertools import combinations, combinations_with_replacement
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# _keep_worth: the hand-plus-crib model the expert reads discards with, not restated here
from cribbage.players.pegging import PlaySearch, _keep_worth  # noqa: E402

FOURS = list(combinations_with_replacement(range(1, 14), 4))
ROLES = ("dealer", "pone")


def model_keep(dealt: tuple[int, ...], role: str) -> tuple[int, ...]:
    """The four ranks a hand-plus-crib player in ``role`` keeps of six ``dealt``
    (the first best split, by the expert's own model of a discard)."""
    sign = 1.0 if role == "dealer" else -1.0
    splits = [(tuple(sorted(dealt[i] for i in range(6) if i not in thrown)),
               tuple(sorted(dealt[i] for i in thrown))) for thrown in combinations(range(6), 2)]
    kept, _ = max(splits, key=lambda split: _keep_worth(*split, 2, sign))
    return kept


def decks(deals: int, seed: int) -> list[list[int]]:
    """The shuffled decks of ranks every four meets (deal ``j`` is deck ``j``)."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        deck = [rank for rank in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        out.append(deck)
    return out


def their_dealt(deck: list[int], ours: tuple[int, ...]) -> tuple[int, ...]:
    """The other player's six: the deck's first six once our four are taken out."""
    rest = deck[:]
    for rank in ours:
        rest.remove(rank)
    return tuple(rest[:6])


def peg_difference(ours: tuple[int, ...], theirs: tuple[int, ...], role: str) -> int:
    """Our pegging less theirs when both play their best with open cards; pone leads."""
    if role == "pone":  # seat 0 is the pone, who leads
        hands, team = (ours, theirs), 0
    else:
        hands, team = (theirs, ours), 1
    return PlaySearch(2, [0, 1], team).value(hands, (), 0, 0, -1, 99)


def row_job(args: tuple[str, list[tuple[int, ...]], int, int]) -> list[int]:
    role, fours, deals, seed = args
    other = "pone" if role == "dealer" else "dealer"
    shuffled = decks(deals, seed)
    row = []
    for ours in fours:
        total = sum(peg_difference(ours, model_keep(their_dealt(deck, ours), other), role)
                    for deck in shuffled)
        row.append(round(100 * total / deals))
    return row


def typical(row: list[int], role: str, deals: int, seed: int) -> int:
    """The table's mean over the fours a hand-plus-crib player keeps in ``role``."""
    index = {four: i for i, four in enumerate(FOURS)}
    kept = Counter(model_keep(tuple(sorted(deck[:6])), role) for deck in decks(deals, seed))
    return round(sum(row[index[four]] * n for four, n in kept.items()) / sum(kept.values()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=240)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    chunks = [FOURS[i::args.jobs * 4] for i in range(args.jobs * 4)]
    data: dict[str, object] = {
        "about": "Mean pegging difference (hundredths of a point) of a kept four by role, "
                 f"2 players; made by tools/make_peg_tables.py --deals {args.deals} "
                 f"--seed {args.seed}",
    }
    with Pool(args.jobs) as pool:
        for role in ROLES:
            parts = pool.map(row_job, [(role, chunk, args.deals, args.seed) for chunk in chunks])
            values = {four: value for chunk, part in zip(chunks, parts)
                      for four, value in zip(chunk, part)}
            row = [values[four] for four in FOURS]
            data[role] = row
            data[f"typical {role}"] = typical(row, role, 4000, args.seed + 1)
            print(f"{role}: typical {data[f'typical {role}']}, "
                  f"range {min(row)}..{max(row)}", flush=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
