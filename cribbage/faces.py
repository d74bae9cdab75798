"""The card vocabulary: rank and suit codes, suit symbols and a card's short face.

The one definition shared by :mod:`cribbage.cards` (the value type) and
:mod:`cribbage.i18n` (people's words, which also runs in the page's
MicroPython UI, so this module keeps to plain Python with no imports).

>>> RANK_CODES.index("T") + 1, SUIT_CODES.index("H")
(10, 1)
>>> face("TH"), face("5S")
('10♥', '5♠')
"""

RANK_CODES = "A23456789TJQK"
"""Rank codes, ace (1) to king (13); ``T`` is ten."""

SUIT_CODES = "SHDC"
"""Suit codes in display order: spades, hearts, diamonds, clubs."""

SUIT_SYMBOLS = "♠♥♦♣"
"""The suits' symbols, in the order of :data:`SUIT_CODES`."""


def face(code):
    """A card's short face, the same in every language: ``10♥`` for ``TH``."""
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[SUIT_CODES.index(code[1])]
