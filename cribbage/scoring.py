"""Scoring: the show (hands and crib) and the play (pegging).

Every scoring rule of docs/rules.md lives here once. :func:`score_hand` and
:func:`score_peg` return itemised breakdowns in the order a player counts
aloud; :func:`hand_points` is the fast total the computer players use, built
from the same rules (its rank part is :func:`score_hand`'s, cached).

>>> hand = parse_cards("5S 4S 2S 6H")
>>> score = score_hand(hand, Card.parse("5H"))
>>> score.total
12
>>> [(item.kind, item.points) for item in score.items]
[('fifteen', 2), ('fifteen', 2), ('pair', 2), ('run', 3), ('run', 3)]
>>> score_peg(parse_cards("JH 5S")).total
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from . import i18n
from .cards import (
    JACK,
    Card,
    CardError,
    check_distinct,
    parse_cards,  # noqa: F401  (used by the doctests)
)

HAND_SIZE = 4
HAND_SIZES = (3, 4, 5)  # five-card, six-card and seven-card cribbage keep these
# The highest show score of a hand (with the starter) by its size (rules 14, 20, 21).
MAX_HAND_SCORES = {3: 20, 4: 29, 5: 46}
MAX_COUNT = 31


class ScoreError(CardError):
    """Raised for a hand, starter or pile that cannot be scored."""


@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, its points.

    The cards are exactly those the item is made of, so a table can light them:
    a fifteen's cards add to 15, a flush with the starter includes the starter,
    and his nobs is the jack with the starter whose suit it matches.
    """

    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: ``{"kind": ..., "cards": ["5S", ...], "points": ...}``."""
        return {"kind": self.kind, "cards": [c.code for c in self.cards], "points": self.points}


@dataclass(frozen=True)
class Score:
    """A total with its itemised breakdown."""

    items: list[ScoreItem] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def to_dict(self) -> dict[str, object]:
        return {"total": self.total, "items": [item.to_dict() for item in self.items]}


class ShowScore(Score):
    """The score of a hand or crib in the show (kinds: fifteen, pair, run, flush, nobs)."""


class PegScore(Score):
    """The points earned by the last card laid (kinds: fifteen, thirty-one, pair, run)."""


# --- the show --------------------------------------------------------------


def score_hand(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Score a hand (or crib) plus the starter, itemised in counting order.

    Order: fifteens, pairs, runs, flush, nobs (docs/rules.md rule 13). A hand
    has four cards, or three or five in five- and seven-card cribbage (rules 20-21).

    >>> score_hand(parse_cards("5C 5D 5H JS"), Card.parse("5S")).total
    29
    >>> score_hand(parse_cards("2H 4H 6H 8H"), Card.parse("KS"), crib=True).total
    0
    >>> score_hand(parse_cards("2H 4H 6H"), Card.parse("KS")).total   # five-card: flush of 3
    3
    >>> [(i.kind, [c.code for c in i.cards]) for i in
    ...  score_hand(parse_cards("JD AS 3C 8H"), Card.parse("9D")).items]   # each item's cards
    [('nobs', ['JD', '9D'])]
    >>> [i.points for i in score_hand(parse_cards("AH 2H 3H 7S 8S"), Card.parse("9D")).items
    ...  if i.kind == "run"]   # seven-card: two runs
    [3, 3]
    >>> score_hand(parse_cards("2H 4H"), Card.parse("KS"))
    Traceback (most recent call last):
    ...
    cribbage.scoring.ScoreError: a hand has 3, 4 or 5 cards, not 2
    """
    cards = _check_show(hand, starter)
    size = len(cards) - 1
    items = _rank_items(cards)
    flush = flush_points(cards[:size], starter, crib)
    if flush:
        flush_cards = cards if flush > size else cards[:size]
        items.append(ScoreItem("flush", tuple(flush_cards), flush))
    for card in cards[:size]:
        if is_nobs(card, starter):  # the jack and the starter whose suit it matches
            items.append(ScoreItem("nobs", (card, starter), 1))
    return ShowScore(items)


def flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """Points for a flush: one a card, in a hand of one suit (4, or 5 with the
    starter), but in the crib only when the starter matches too (rule 13).

    >>> flush_points(parse_cards("2H 4H 6H 8H"), Card.parse("KH"), crib=True)
    5
    >>> flush_points(parse_cards("2H 4H 6H 8H"), Card.parse("KS"), crib=False)
    4
    """
    suit = hand[0].suit
    if any(card.suit != suit for card in hand):
        return 0
    if starter.suit == suit:
        return len(hand) + 1
    return 0 if crib else len(hand)


def is_nobs(card: Card, starter: Card) -> bool:
    """His nobs: a jack in hand (or crib) of the starter's suit.

    >>> is_nobs(Card.parse("JD"), Card.parse("4D")), is_nobs(Card.parse("JD"), Card.parse("JH"))
    (True, False)
    """
    return card.rank == JACK and card.suit == starter.suit


def _check_show(hand: Sequence[Card], starter: Card) -> list[Card]:
    hand = list(hand)
    if len(hand) not in HAND_SIZES:
        raise ScoreError(f"a hand has 3, 4 or 5 cards, not {len(hand)}")
    if not all(isinstance(card, Card) for card in [*hand, starter]):
        raise ScoreError("a hand and its starter must be Card values")
    check_distinct(hand, "the hand", ScoreError)
    if starter in hand:
        raise ScoreError(f"the starter {starter} is also in the hand")
    return [*sorted(hand), starter]


def _rank_items(cards: list[Card]) -> list[ScoreItem]:
    """Fifteens, pairs and runs: the part of a show score that ignores suits."""
    items = []
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(card.value for card in combo) == 15:
                items.append(ScoreItem("fifteen", combo, 2))
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            items.append(ScoreItem("pair", (a, b), 2))
    items.extend(_run_items(cards))
    return items


def _run_items(cards: list[Card]) -> list[ScoreItem]:
    """Every distinct maximal run (a double run is two runs).

    The ranks fall into blocks of consecutive ranks; a block of three or more
    ranks is a run of its length, made once for every choice of one card per
    rank. Five cards have at most one such block; six (seven-card cribbage)
    may have two, such as A-2-3 and 7-8-9.
    """
    items: list[ScoreItem] = []
    for block in _rank_blocks(sorted({card.rank for card in cards})):
        if len(block) < 3:
            continue
        members = [card for card in cards if card.rank in block]
        items.extend(
            ScoreItem("run", tuple(sorted(combo, key=lambda c: (c.rank, c.suit))), len(block))
            for combo in combinations(members, len(block))
            if _is_run(combo)
        )
    return items


def _rank_blocks(ranks: list[int]) -> list[set[int]]:
    """Sorted distinct ranks split into blocks of consecutive ranks."""
    blocks: list[set[int]] = []
    for rank in ranks:
        if blocks and rank - 1 in blocks[-1]:
            blocks[-1].add(rank)
        else:
            blocks.append({rank})
    return blocks


def _is_run(cards: Iterable[Card]) -> bool:
    ranks = sorted(card.rank for card in cards)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


# --- fast totals for the computer players and statistics ---------------------


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens + pairs + runs of sorted ranks (the suit-blind part of a show).

    Computed by :func:`score_hand`'s own rules on cards with these ranks, cached:
    there are only 6,175 rank multisets of five cards (1,820 of four, 18,395 of six).

    >>> rank_points((4, 4, 5, 5, 6)), rank_points((5, 5, 5, 5, 11))
    (24, 28)
    """
    used: dict[int, int] = {}
    cards = []
    for rank in ranks:
        cards.append(Card(rank, "SHDC"[used.get(rank, 0)]))
        used[rank] = used.get(rank, 0) + 1
    return sum(item.points for item in _rank_items(cards))


def hand_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The total of :func:`score_hand` without the breakdown or input checks; fast.

    >>> hand_points(parse_cards("5C 5D 5H JS"), Card.parse("5S"))
    29
    """
    ranks = tuple(sorted([card.rank for card in hand] + [starter.rank]))
    points = rank_points(ranks) + flush_points(hand, starter, crib)
    return points + sum(1 for card in hand if is_nobs(card, starter))


# --- the play ----------------------------------------------------------------


def pile_count(pile: Sequence[Card]) -> int:
    """The running count of the cards laid since the last reset.

    >>> pile_count(parse_cards("JH 5S 7C 6H"))
    28
    """
    return sum(card.value for card in pile)


def score_peg(pile: Sequence[Card]) -> PegScore:
    """Points earned by the last card of ``pile`` (the cards since the last reset).

    Kinds: fifteen, thirty-one, pair (2, 6 or 12), run (docs/rules.md rule 10).
    Go and last card are the game's business, not this function's.

    >>> score = score_peg(parse_cards("4S 5S 5H 6H"))
    >>> score.total
    0
    >>> [(i.kind, i.points) for i in score_peg(parse_cards("5S 6H 5H 7C")).items]
    [('run', 3)]
    >>> [(i.kind, i.points) for i in score_peg(parse_cards("KS QH 5C 6D")).items]
    [('thirty-one', 2)]
    """
    pile = list(pile)
    if not pile:
        raise ScoreError("the pile is empty: no card to score")
    check_distinct(pile, "the pile", ScoreError)
    count = pile_count(pile)
    if count > MAX_COUNT:
        raise ScoreError(f"the count would be {count}: it may never pass {MAX_COUNT}")
    items = []
    if count == 15:
        items.append(ScoreItem("fifteen", tuple(pile), 2))
    if count == MAX_COUNT:
        items.append(ScoreItem("thirty-one", tuple(pile), 2))
    same = _trailing_same_rank(pile)
    if same >= 2:
        items.append(ScoreItem("pair", tuple(pile[-same:]), same * (same - 1)))
    run = _trailing_run(pile)
    if run:
        items.append(ScoreItem("run", tuple(pile[-run:]), run))
    return PegScore(items)


def _trailing_same_rank(pile: list[Card]) -> int:
    rank = pile[-1].rank
    same = 0
    for card in reversed(pile):
        if card.rank != rank:
            break
        same += 1
    return same


def _trailing_run(pile: list[Card]) -> int:
    """The largest k >= 3 such that the last k cards are k distinct consecutive ranks."""
    for size in range(len(pile), 2, -1):
        ranks = sorted(card.rank for card in pile[-size:])
        if len(set(ranks)) == size and ranks[-1] - ranks[0] == size - 1:
            return size
    return 0


def describe_item(item: ScoreItem, lang: str = "en") -> str:
    """A short phrase for one item, e.g. ``'pair of fives'`` (words from :mod:`.i18n`).

    >>> describe_item(ScoreItem("run", (), 4))
    'run of 4'
    >>> describe_item(ScoreItem("pair", parse_cards("6S 6H"), 2), "es")
    'par de seises'
    """
    return i18n.item_text(item.to_dict(), lang)


def cadence(items: Sequence[ScoreItem], lang: str = "en") -> str:
    """The breakdown said aloud, with the running total, as players count.

    >>> cadence(score_hand(parse_cards("4S 5S 5H 6H"), Card.parse("2C")).items)
    'fifteen two, fifteen four, a pair is six, a run of three is nine, and a run of three is twelve'
    >>> cadence([])
    'nineteen (nothing)'
    """
    return i18n.cadence([item.to_dict() for item in items], lang)

