"""An independent, deliberately naive scorer used only to check the engine's.

It shares no code with ``cribbage.scoring``: it works on (rank, suit) tuples
and enumerates subsets by bit masks.
"""

from __future__ import annotations


def _value(rank: int) -> int:
    return 10 if rank > 10 else rank


def reference_show(hand: list[tuple[int, str]], starter: tuple[int, str], crib: bool) -> int:
    cards = hand + [starter]
    points = 0
    subsets = [[cards[i] for i in range(5) if mask >> i & 1] for mask in range(1, 32)]
    points += 2 * sum(1 for s in subsets if len(s) >= 2 and sum(_value(r) for r, _ in s) == 15)
    points += 2 * sum(1 for s in subsets if len(s) == 2 and s[0][0] == s[1][0])
    for length in (5, 4, 3):
        runs = [s for s in subsets if len(s) == length
                and len({r for r, _ in s}) == length
                and max(r for r, _ in s) - min(r for r, _ in s) == length - 1]
        if runs:
            points += length * len(runs)
            break
    suits = {suit for _, suit in hand}
    if len(suits) == 1:
        if starter[1] in suits:
            points += 5
        elif not crib:
            points += 4
    points += sum(1 for rank, suit in hand if rank == 11 and suit == starter[1])
    return points


def reference_peg(pile: list[tuple[int, str]]) -> int:
    count = sum(_value(r) for r, _ in pile)
    assert count <= 31
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(pile) and pile[-same - 1][0] == pile[-1][0]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    best = 0
    for k in range(3, len(pile) + 1):
        ranks = sorted(r for r, _ in pile[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            best = k
    return points + best


def reference_show_any(hand: list[tuple[int, str]], starter: tuple[int, str], crib: bool) -> int:
    """Like :func:`reference_show` for a hand of any size (five- and seven-card cribbage).

    A run is a set of three or more cards of distinct consecutive ranks that no
    other card of the hand extends at either end (every such set counts).
    """
    cards = hand + [starter]
    n = len(cards)
    subsets = [[cards[i] for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)]
    points = 2 * sum(1 for s in subsets if len(s) >= 2 and sum(_value(r) for r, _ in s) == 15)
    points += 2 * sum(1 for s in subsets if len(s) == 2 and s[0][0] == s[1][0])
    ranks = {r for r, _ in cards}
    for s in subsets:
        low, high = min(r for r, _ in s), max(r for r, _ in s)
        if (len(s) >= 3 and len({r for r, _ in s}) == len(s) and high - low == len(s) - 1
                and low - 1 not in ranks and high + 1 not in ranks):
            points += len(s)
    suits = {suit for _, suit in hand}
    if len(suits) == 1:
        if starter[1] in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += sum(1 for rank, suit in hand if rank == 11 and suit == starter[1])
    return points
