"""The public vocabulary of a game: a player's :class:`Move`, the log's
:class:`Event`, and the :class:`Claim` of a manual count being settled.

These are the facts a :class:`~cribbage.game.Game` and a seat's
:class:`~cribbage.view.PlayerView` share, so each imports them from here and
neither module imports the other's back.

>>> str(Move.parse("PLAY 5s")), Event("go", seat=1, points=1).to_dict()["points"]
('play 5S', 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import i18n
from .cards import Card, CardError, parse_cards
from .scoring import ScoreItem

MOVE_KINDS = ("cut", "discard", "play", "go", "count", "muggins", "pass")
BARE_MOVES = ("cut", "go", "muggins", "pass")  # moves that take no cards
# Every kind of event the engine records (each has an ``event.<kind>`` log line).
EVENT_KINDS = ("cut", "dealer", "three", "deal", "discard", "starter", "heels", "play",
               "go_said", "claim", "peg", "go", "last card", "hand", "crib", "muggins", "over",
               "resign")
_CLAIM_TEXT = re.compile(r"[0-9]{1,2}")
SOURCES = ("hand", "crib", "pegging", "muggins")
"""Where points come from, in the order the game-over table shows them."""
SOURCE_OF = {"hand": "hand", "crib": "crib", "muggins": "muggins", "play": "pegging",
             "peg": "pegging", "go": "pegging", "last card": "pegging", "heels": "pegging",
             "three": "pegging"}
"""The source of each kind of scoring event: his heels and five-card's three for
last are pegged outside any hand, so they count with the pegging."""


class IllegalMoveError(ValueError):
    """Raised for a move that is not legal now; the game is unchanged."""


@dataclass(frozen=True)
class Move:
    """A player's action. Its text form is what saves and the CLI use.

    >>> Move.parse("discard 8c 8d")
    Move(kind='discard', cards=(Card('8D'), Card('8C')), points=None)
    >>> str(Move("play", (Card.parse("5S"),))), str(Move("count", points=12))
    ('play 5S', 'count 12')
    """

    kind: str
    cards: tuple[Card, ...] = ()
    points: int | None = None

    def __post_init__(self) -> None:
        # Discards are a set: store them sorted so equal choices compare equal.
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    @classmethod
    def parse(cls, text: object) -> Move:
        """Read a move from its text form; raise :class:`IllegalMoveError` if malformed."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str) or not text.split():
            raise IllegalMoveError(f"not a move: {text!r}")
        kind, *rest = text.split()
        kind = kind.lower()
        if kind not in MOVE_KINDS:
            raise IllegalMoveError(f"unknown move {kind!r} (moves: {', '.join(MOVE_KINDS)})")
        if kind == "count":
            if len(rest) != 1 or not _CLAIM_TEXT.fullmatch(rest[0]):
                raise IllegalMoveError(f"say how many points, e.g. 'count 12', not {text!r}")
            return cls(kind, points=int(rest[0]))
        if kind in BARE_MOVES and rest:
            raise IllegalMoveError(f"{kind!r} takes nothing after it, not {text!r}")
        try:
            cards = tuple(parse_cards(rest))
        except CardError as error:
            raise IllegalMoveError(str(error)) from None
        return cls(kind, cards)

    def __str__(self) -> str:
        words = [self.kind, *(card.code for card in self.cards)]
        if self.points is not None:
            words.append(str(self.points))
        return " ".join(words)


@dataclass(frozen=True)
class Event:
    """Something that happened, in public: who, what, points pegged and why.

    ``points`` is what was pegged: the peg stops in the game hole, so points
    counted past the target are in ``beyond`` instead (rule 15), and points
    exact finish refused are in ``refused`` (rule 19). ``worth`` is what was
    counted, all three together; ``source`` (in the dict) is where a scoring
    kind's points come from (:data:`SOURCE_OF`). ``items`` itemise a play or a show.
    ``miscount`` is ``"over"`` or ``"under"`` on a ``muggins`` event (the
    claim it punished) and ``"over"`` on a score corrected down to the true
    worth without muggins. Events never hold a card before every player may see it.
    """

    kind: str
    seat: int | None = None
    team: int | None = None
    points: int = 0
    cards: tuple[Card, ...] = ()
    items: tuple[ScoreItem, ...] = ()
    count: int | None = None
    refused: int = 0
    deal: int = 0
    miscount: str | None = None
    beyond: int = 0

    @property
    def worth(self) -> int:
        """What was counted, pegged or not: a hand's count, a card's points in the play.

        >>> Event("hand", seat=0, points=3, beyond=9).worth
        12
        """
        return self.points + self.refused + self.beyond

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready facts; people's words for them come from :mod:`.i18n` where shown."""
        return {
            "kind": self.kind, "seat": self.seat, "team": self.team, "points": self.points,
            "cards": [card.code for card in self.cards],
            "items": [item.to_dict() for item in self.items],
            "count": self.count, "refused": self.refused, "beyond": self.beyond,
            "worth": self.worth, "source": SOURCE_OF.get(self.kind), "deal": self.deal,
            "miscount": self.miscount,
        }

    def describe(self, lang: str = "en") -> str:
        """One line for the game log, e.g. ``Seat 1 plays 5♠ — 15 — fifteen 2``."""
        return str(i18n.event_text(self.to_dict(), lang))


@dataclass(frozen=True)
class Claim:
    """A manual count being settled, in public: ``seat`` counts ``what`` (``"hand"``,
    ``"crib"``, or ``"play"``: the card it just laid, whose points the pile
    decides) over ``cards``. ``claimed`` is None until the claim is said.
    """

    seat: int
    what: str
    cards: tuple[Card, ...]
    claimed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "what": self.what,
                "cards": [card.code for card in self.cards], "claimed": self.claimed}
