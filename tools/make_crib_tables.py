"""Make ``cribbage/data/crib_tables.json``: the expected crib score by what you lay away.

Method (2 players). The crib is our two cards, the other player's two and the
starter. Its value depends on what the other player throws, and a good player
throws differently as dealer (good cards into the own crib) and as pone
(balking cards). So:

1. Deal many random 6-card hands and let a player choose the discard that
   maximises its exact expected hand value over all 46 starters, plus (as
   dealer) or minus (as pone) the expected crib from the current tables
   (none in the first round). Tally the rank pairs thrown, per role.
2. For every pair of ranks we may lay away and every starter rank, average
   the crib's fifteens, pairs and runs exactly over that tally of the other
   player's throws, weighting each by how many such cards are left once our
   two cards and the starter are out (card removal). Jacks the other player
   throws are his nobs a quarter of the time; a jack we throw is added
   exactly by the player, who knows its suit against the starter.
3. Repeat once with the new tables, so the throws come from players who
   already value the crib (the tables converge quickly).

Crib flushes (all five one suit, under 0.1 point) are not in the tables: the
player adds them exactly from the suits it holds
(:func:`cribbage.players.discard.flush_chance`). Our own four kept cards are
not removed from the deck (a second-order effect).

For 3 and 4 players we lay away one card; the others throw their worst card
by expected hand value (tallied the same way from 5-card hands), plus, with
3 players, one card dealt from the deck. Tables are ``[rank][starter]``,
averaged by Monte Carlo.

The file also holds ``"keep"``: the expected fifteens, pairs and runs of
every multiset of four kept ranks over a random starter rank (card removal
included), in ``itertools.combinations_with_replacement(range(1, 14), 4)``
order; the expert uses it to judge how plausible an opponent's kept hand is
(``--keep-only`` refreshes just that table, in a few seconds).

Run: ``python tools/make_crib_tables.py [--hands 12000] [--jobs 2]`` (a few
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

from cribbage.cards import JACK, full_deck  # noqa: E402
from cribbage.scoring import hand_points, rank_points  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "cribbage" / "data" / "crib_tables.json"
Tables = dict[str, list]


def best_throw(hand: list, role: str, tables: Tables | None, players: int) -> tuple[int, ...]:
    """The ranks a good player lays away from ``hand`` in ``role``."""
    starters = [card for card in full_deck() if card not in hand]
    best, best_value = (), -1e9
    for throw in combinations(hand, 2 if players == 2 else 1):
        kept = [card for card in hand if card not in throw]
        value = sum(hand_points(kept, s) for s in starters)
        if tables is not None and players == 2:
            low, high = sorted(card.rank - 1 for card in throw)
            crib = sum(tables[f"2p {role}"][low][high][s.rank - 1] for s in starters)
            value += crib if role == "dealer" else -crib
        if value > best_value:
            best, best_value = tuple(sorted(card.rank for card in throw)), value
    return best


def tally_job(args: tuple[int, int, str, Tables | None, int]) -> Counter:
    seed, hands, role, tables, players = args
    rng = random.Random(seed)
    deck = full_deck()
    tally: Counter = Counter()
    for _ in range(hands):
        tally[best_throw(rng.sample(deck, 6 if players == 2 else 5), role, tables, players)] += 1
    return tally


def tally_throws(pool: Pool, role: str, tables: Tables | None, hands: int, jobs: int,
                 seed: int, players: int = 2) -> Counter:
    """How often each rank pair (or rank) is thrown, over ``hands`` random deals."""
    share = hands // jobs
    parts = pool.map(tally_job, [(seed + i, share, role, tables, players) for i in range(jobs)])
    return sum(parts, Counter())


def pair_table(throws: Counter) -> list:
    """``[low][high][starter]`` expected crib (ranks - 1) given the other's throws."""
    table = [[[0.0] * 13 for _ in range(13)] for _ in range(13)]
    for a in range(1, 14):
        for b in range(a, 14):
            for s in range(1, 14):
                mean = crib_mean((a, b, s), throws)
                table[a - 1][b - 1][s - 1] = table[b - 1][a - 1][s - 1] = round(mean, 3)
    return table


def crib_mean(known: tuple[int, ...], throws: Counter) -> float:
    """Mean crib points of ``known`` ranks (ours + starter last) plus a thrown pair."""
    left = Counter({rank: 4 for rank in range(1, 14)})
    left.subtract(known)
    starter = known[-1]
    total = weight_sum = 0.0
    for (c, d), times in throws.items():
        ways = left[c] * (left[d] - 1) / 12 if c == d else left[c] * left[d] / 16
        if ways <= 0:
            continue
        weight = times * ways
        nobs = 0.25 * ((c == JACK) + (d == JACK)) if starter != JACK else 0.0
        total += weight * (rank_points(tuple(sorted(known + (c, d)))) + nobs)
        weight_sum += weight
    return total / weight_sum


def single_table(throws: Counter, players: int, samples: int, rng: random.Random) -> list:
    """``[rank][starter]`` expected crib when each player lays away one card."""
    ranks, weights = zip(*sorted(throws.items()))
    ranks = [r[0] for r in ranks]
    others = players - 1
    table = [[0.0] * 13 for _ in range(13)]
    for mine in range(1, 14):
        for starter in range(1, 14):
            total = 0.0
            done = 0
            while done < samples:
                crib = [mine, *rng.choices(ranks, weights, k=others)]
                if players == 3:
                    crib.append(rng.randint(1, 13))
                every = Counter(crib + [starter])
                if max(every.values()) > 4:
                    continue
                nobs = 0.25 * crib[1:].count(JACK) if starter != JACK else 0.0
                total += rank_points(tuple(sorted(crib + [starter]))) + nobs
                done += 1
            table[mine - 1][starter - 1] = round(total / samples, 3)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12000, help="deals tallied per role/round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--keep-only", action="store_true",
                        help="only (re)compute the kept-hand table in the existing file")
    args = parser.parse_args(argv)
    if args.keep_only:
        data = json.loads(OUT.read_text())
        data["keep"] = keep_table()
        OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"wrote the keep table to {OUT} ({OUT.stat().st_size} bytes)")
        return 0
    tables: Tables | None = None
    with Pool(args.jobs) as pool:
        for round_number in range(args.rounds):
            pone = tally_throws(pool, "pone", tables, args.hands, args.jobs, args.seed)
            dealer = tally_throws(pool, "dealer", tables, args.hands, args.jobs, args.seed + 99)
            # Our crib as dealer holds the pone's throws, and the other way round.
            tables = {"2p dealer": pair_table(pone), "2p pone": pair_table(dealer)}
            print(f"round {round_number + 1}: dealer crib {average(tables['2p dealer']):.2f}, "
                  f"pone's view of the dealer crib {average(tables['2p pone']):.2f}")
        singles = tally_throws(pool, "pone", None, args.hands, args.jobs, args.seed + 7, 3)
    rng = random.Random(args.seed)
    assert tables is not None
    tables["3p"] = single_table(singles, 3, 400, rng)
    tables["4p"] = single_table(singles, 4, 400, rng)
    tables["keep"] = keep_table()
    about = ("Expected crib points by the ranks laid away and the starter's rank; "
             "made by tools/make_crib_tables.py " + " ".join(sys.argv[1:]))
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({"about": about, **tables}, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
    return 0


def keep_table() -> list[float]:
    """Expected rank points of every four kept ranks over the starter rank."""
    values = []
    for ranks in combinations_with_replacement(range(1, 14), 4):
        total = weight = 0
        for starter in range(1, 14):
            left = 4 - ranks.count(starter)
            if left > 0:
                total += left * rank_points(tuple(sorted(ranks + (starter,))))
                weight += left
        values.append(round(total / weight, 4))
    return values


def average(table: list) -> float:
    values = [table[a][b][s] for a in range(13) for b in range(13) for s in range(13)]
    return sum(values) / len(values)


if __name__ == "__main__":
    sys.exit(main())
