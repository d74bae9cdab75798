"""Discards: expected hand value over every starter, plus the crib tables.

The expected value of keeping four cards is exact: the mean of
:func:`~cribbage.scoring.hand_points` over every starter this seat has not
seen (46 in a 2-player game). The crib's value comes from tables computed by
``tools/make_crib_tables.py`` and shipped in ``cribbage/data/crib_tables.json``:
the mean crib score given the ranks we lay away and the starter's rank, with
the other players' crib cards drawn from how a good player discards.

>>> from cribbage.game import Game
>>> view = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
...                      starter="5H").view(0)
>>> best = rank_discards(view, use_crib=True)[0]
>>> [c.code for c in best.discard], round(best.hand, 2)
(['8D', '8C'], 8.5)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from ..cards import JACK, Card, full_deck
from ..scoring import hand_points
from ..view import PlayerView

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class DiscardChoice:
    """One way to lay away: expected hand and crib points and the net for this seat.

    ``crib`` is the expected crib score (whoever owns it); ``net`` adds it for
    our own (or partner's) crib and subtracts it for an opponent's, weighted.
    """

    discard: tuple[Card, ...]
    kept: tuple[Card, ...]
    hand: float
    crib: float
    net: float


def data_json(name: str) -> Any:
    """A JSON file shipped in ``cribbage/data`` (read through importlib.resources
    when the package is not a folder, e.g. a zip import)."""
    try:
        text = (DATA_DIR / name).read_text()
    except OSError:
        from importlib.resources import files

        text = files("cribbage").joinpath(f"data/{name}").read_text()
    return json.loads(text)


@lru_cache(maxsize=1)
def crib_tables() -> dict[str, list[Any]]:
    """The shipped crib tables (see ``tools/make_crib_tables.py``), loaded once.

    Keys: ``"2p dealer"``/``"2p pone"``: ``[low][high][starter]`` (ranks - 1);
    ``"3p"``/``"4p"``: ``[rank][starter]`` for a single card laid away.
    """
    data = data_json("crib_tables.json")
    return {key: value for key, value in data.items() if key != "about"}


def crib_value(players: int, role: str, discard: Sequence[Card], starter: Card,
               seen: Sequence[Card] = ()) -> float:
    """Expected crib points given what this seat lays away and the starter.

    ``role`` is ``"dealer"`` when the crib holds the opponent's balks
    (we deal), ``"pone"`` when the dealer feeds it (2 players only). A jack we
    lay away of the starter's suit is his nobs for sure: added exactly. The
    crib flush (see :func:`flush_chance`) needs ``seen``, the cards we were dealt.
    """
    nobs = sum(1 for card in discard if card.rank == JACK and card.suit == starter.suit)
    flush = 0.0
    if all(card.suit == starter.suit for card in discard):
        flush = 5 * flush_chance(players, starter.suit, seen)
    return crib_row(players, role, tuple(card.rank for card in discard))[starter.rank - 1] + \
        nobs + flush


def flush_chance(players: int, suit: str, seen: Sequence[Card]) -> float:
    """Chance the other crib cards all have ``suit``, given ours and the starter do.

    The other crib cards (the opponent's two with 2 players; two players' and
    the deck's with 3; three players' with 4) are taken as random unseen cards:
    ``seen`` are the cards we were dealt, the starter is one more of the suit.
    """
    others = 2 if players == 2 else 3
    suited = 13 - sum(1 for card in seen if card.suit == suit) - 1
    unseen = 52 - len(seen) - 1
    return comb(suited, others) / comb(unseen, others) if suited >= others else 0.0


@cache
def crib_row(players: int, role: str, ranks: tuple[int, ...]) -> tuple[float, ...]:
    """The table's expected crib for each starter rank, given the ranks laid away."""
    tables = crib_tables()
    if players == 2:
        low, high = sorted(rank - 1 for rank in ranks)
        return tuple(tables[f"2p {role}"][low][high])
    return tuple(tables[f"{players}p"][ranks[0] - 1])


def crib_weight(view: PlayerView) -> float:
    """How a crib point counts for this seat: +1 ours or partner's, -1 an opponent's.

    In a 3-player game an opponent's crib costs us less than our own points
    gain us (there are two opponents to beat): -0.5.
    """
    if view.rules.team_of(view.dealer) == view.team:
        return 1.0
    return -0.5 if view.rules.players == 3 else -1.0


def rank_discards(view: PlayerView, use_crib: bool = True) -> list[DiscardChoice]:
    """Every legal discard with its exact expected hand value (and crib), best first.

    The hand value is the mean over every unseen starter; with ``use_crib`` the
    crib value from the tables is weighted by :func:`crib_weight` into ``net``.
    """
    hand = list(view.hand)
    seen = set(hand) | set(view.kept) | set(view.discards)
    starters = [card for card in full_deck() if card not in seen]
    weight = crib_weight(view) if use_crib else 0.0
    role = "dealer" if view.is_dealer else "pone"
    players = view.rules.players
    choices = []
    for discard in combinations(hand, view.rules.discards_each):
        kept = tuple(card for card in hand if card not in discard)
        hand_mean = sum(hand_points(kept, starter) for starter in starters) / len(starters)
        crib_mean = 0.0
        if use_crib:
            row = crib_row(players, role, tuple(card.rank for card in discard))
            jack_suits = [card.suit for card in discard if card.rank == JACK]
            suits = {card.suit for card in discard}
            flush_suit = suits.pop() if len(suits) == 1 else None
            flush = 5 * flush_chance(players, flush_suit, hand) if flush_suit else 0.0
            crib_mean = sum(row[starter.rank - 1] + jack_suits.count(starter.suit)
                            + (flush if starter.suit == flush_suit else 0.0)
                            for starter in starters) / len(starters)
        choices.append(DiscardChoice(discard, kept, hand_mean, crib_mean,
                                     hand_mean + weight * crib_mean))
    choices.sort(key=lambda choice: -choice.net)
    return choices
