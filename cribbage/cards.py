"""Cards: the value type every other module uses.

A card is a rank (1 = ace .. 13 = king) and a suit (``S``, ``H``, ``D``, ``C``).
Aces are always low (docs/rules.md rule 1); face cards count ten (rule 2).

>>> card = Card.parse("10h")
>>> card, card.code, card.value
(Card('TH'), 'TH', 10)
>>> str(card)
'10♥'
>>> parse_cards("5S 4S 2S 6H")
[Card('5S'), Card('4S'), Card('2S'), Card('6H')]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

from .faces import RANK_CODES, SUIT_CODES, SUIT_SYMBOLS, face

SUITS = SUIT_CODES
JACK = 11

_SYMBOL_TO_SUIT = dict(zip(SUIT_SYMBOLS, SUIT_CODES))
# Outline symbols people also type (♤ ♡ ♢ ♧).
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})


class CardError(ValueError):
    """Raised for text that is not a card, or a set of cards that breaks a rule."""


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. Ordered by rank, then suit (S < H < D < C).

    >>> Card(1, "S") < Card(13, "C")
    True
    >>> Card(11, "D").value
    10
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardError(f"card rank must be 1..13, not {self.rank!r}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"card suit must be one of S H D C, not {self.suit!r}")

    @property
    def value(self) -> int:
        """The counting value: ace 1, two to ten at face value, J/Q/K ten."""
        return min(self.rank, 10)

    @property
    def code(self) -> str:
        """ASCII code, two characters: ``5S``, ``TH``, ``AC``."""
        return RANK_CODES[self.rank - 1] + self.suit

    @property
    def index(self) -> int:
        """A number 0..51, unique to this card (rank-major)."""
        return (self.rank - 1) * 4 + SUITS.index(self.suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from text: ``5S``, ``5s``, ``10H``, ``TH``, ``QD``, ``AC``, ``5♠``.

        >>> Card.parse("Q♦"), Card.parse(" as ")
        (Card('QD'), Card('AS'))
        >>> Card.parse("1S")
        Traceback (most recent call last):
        ...
        cribbage.cards.CardError: not a card: '1S' (use e.g. 5S, 10H, TH, QD, AC or 5♠)
        """
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r}")
        raw = text.strip()
        if len(raw) < 2 or len(raw) > 3:
            raise _bad_card(text)
        rank_text, suit_text = raw[:-1].upper(), raw[-1]
        suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text.upper())
        if suit not in SUITS:
            raise _bad_card(text)
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANK_CODES:
            raise _bad_card(text)
        return cls(RANK_CODES.index(rank_text) + 1, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this :attr:`index`.

        >>> Card.from_index(0), Card.from_index(51)
        (Card('AS'), Card('KC'))
        """
        return cls(index // 4 + 1, SUITS[index % 4])

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __str__(self) -> str:
        return str(face(self.code))

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def _bad_card(text: str) -> CardError:
    return CardError(f"not a card: {text!r} (use e.g. 5S, 10H, TH, QD, AC or 5♠)")


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read several cards from text separated by spaces or commas, or from a list.

    >>> parse_cards("5♠, 10♥ QD")
    [Card('5S'), Card('TH'), Card('QD')]
    >>> parse_cards(["AC", Card(2, "C")])
    [Card('AC'), Card('2C')]
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [item if isinstance(item, Card) else Card.parse(item) for item in items]


def full_deck() -> list[Card]:
    """All 52 cards in :attr:`Card.index` order.

    >>> len(full_deck()), len(set(full_deck()))
    (52, 52)
    """
    return [Card.from_index(i) for i in range(52)]


def check_distinct(
    cards: Iterable[Card], what: str = "cards", error: type[CardError] = CardError
) -> None:
    """Raise ``error`` (a :class:`CardError`) naming the first card that appears twice.

    >>> check_distinct(parse_cards("5S 5H"))
    >>> check_distinct(parse_cards("5S 6H 5S"), "hand")
    Traceback (most recent call last):
    ...
    cribbage.cards.CardError: hand has 5♠ twice
    """
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise error(f"{what} has {card} twice")
        seen.add(card)
