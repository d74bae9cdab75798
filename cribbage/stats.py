"""The distribution of show scores over every (hand, starter): all 12,994,800 with
four cards, 1,082,900 with three (five-card cribbage), 122,151,120 with five
(seven-card cribbage).

Enumerating 13 (or 122) million hands in pure Python takes minutes (hours). A show score is
the sum of a suit-blind part (fifteens, pairs, runs: it depends only on the
five ranks) and a suit part (flush, nobs). So we walk the 23,660 ways to pick
the hand's rank multiset and the starter's rank (about 80,000 for five-card
hands), score the ranks once with :func:`~cribbage.scoring.rank_points`,
and multiply by the number of suit
assignments giving each flush/nobs bonus; those counts depend only on the
shape of the ranks (multiplicities, which rank is a jack, which the
starter's) and are cached. The bonus itself is computed by the scorer's own
:func:`~cribbage.scoring.flush_points` and :func:`~cribbage.scoring.is_nobs`.

>>> dist = score_distribution()
>>> sum(dist["hand"].values()), dist["hand"][29], dist["hand"][0], dist["crib"][0]
(12994800, 4, 1009008, 1022208)
>>> three = score_distribution(3)
>>> sum(three["hand"].values()), max(three["hand"]), three["hand"][20]
(1082900, 20, 4)
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from math import comb

from .cards import JACK, SUITS, Card
from .scoring import flush_points, is_nobs, rank_points

Shape = tuple[tuple[int, bool, bool], ...]
"""Per distinct hand rank: (how many of it, is it a jack, is it the starter's rank)."""


HAND_CARDS = (3, 4, 5)


def hands_total(size: int = 4) -> int:
    """How many (hand, starter) pairs there are: C(52, size) * (52 - size).

    >>> hands_total(), hands_total(3), hands_total(5)
    (12994800, 1082900, 122151120)
    """
    return comb(52, size) * (52 - size)


@cache
def score_distribution(size: int = 4) -> dict[str, Counter[int]]:
    """Counts of each show score, as a hand and as a crib (the crib's flush rule),
    over every (hand of ``size`` cards, starter); cached.

    ``size`` is 4 (six-card cribbage), 3 (five-card) or 5 (seven-card).
    """
    if size not in HAND_CARDS:
        raise ValueError(f"a hand has 3, 4 or 5 cards, not {size!r}")
    hand: Counter[int] = Counter()
    crib: Counter[int] = Counter()
    for ranks in combinations_with_replacement(range(1, 14), size):
        if max(Counter(ranks).values()) > 4:
            continue  # a rank has only four cards
        for starter_rank in range(1, 14):
            if ranks.count(starter_rank) == 4:
                continue  # all four of that rank are in the hand already
            base = rank_points(tuple(sorted((*ranks, starter_rank))))
            shape = _shape(ranks, starter_rank)
            for (hand_bonus, crib_bonus), ways in _suit_bonuses(shape).items():
                hand[base + hand_bonus] += ways
                crib[base + crib_bonus] += ways
    return {"hand": hand, "crib": crib}


def _shape(ranks: tuple[int, ...], starter_rank: int) -> Shape:
    counts = Counter(ranks)
    return tuple(sorted((n, rank == JACK, rank == starter_rank) for rank, n in counts.items()))


@cache
def _suit_bonuses(shape: Shape) -> Counter[tuple[int, int]]:
    """For each (hand bonus, crib bonus) from flush and nobs, how many suit assignments."""
    # Stand-in ranks that keep the shape: a jack where the shape says so, the
    # starter's rank where it says so, and otherwise distinct non-jack ranks.
    filler = iter(r for r in range(1, 14) if r != JACK and r != 2)
    starter_rank = 2  # kept for the starter when its rank is not in the hand
    ranks = []
    for _, jack, is_starter in shape:
        rank = JACK if jack else (2 if is_starter else next(filler))
        if is_starter:
            starter_rank = rank
        ranks.append(rank)
    bonuses: Counter[tuple[int, int]] = Counter()
    suit_choices = [combinations(SUITS, n) for n, _, _ in shape]
    for suits in product(*(list(choice) for choice in suit_choices)):
        hand = [Card(rank, suit) for rank, group in zip(ranks, suits) for suit in group]
        for starter_suit in SUITS:
            starter = Card(starter_rank, starter_suit)
            if starter in hand:
                continue
            nobs = sum(1 for card in hand if is_nobs(card, starter))
            bonuses[(flush_points(hand, starter, False) + nobs,
                     flush_points(hand, starter, True) + nobs)] += 1
    return bonuses
