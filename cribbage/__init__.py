"""cribbage: a complete, correct cribbage engine (no runtime dependencies).

>>> from cribbage import Card, parse_cards, score_hand
>>> score_hand(parse_cards("5C 5D 5H JS"), Card.parse("5S")).total
29
"""

from .cards import Card, CardError, full_deck, parse_cards
from .game import Game, GameStateError
from .moves import Event, IllegalMoveError, Move
from .rules import Outcome, Rules, RulesError
from .scoring import (
    PegScore,
    ScoreError,
    ScoreItem,
    ShowScore,
    hand_points,
    score_hand,
    score_peg,
)
from .view import PlayerView

__all__ = [
    "Card",
    "CardError",
    "Event",
    "Game",
    "GameStateError",
    "IllegalMoveError",
    "Move",
    "Outcome",
    "PlayerView",
    "Rules",
    "RulesError",
    "PegScore",
    "ScoreError",
    "ScoreItem",
    "ShowScore",
    "full_deck",
    "hand_points",
    "parse_cards",
    "score_hand",
    "score_peg",
]
__version__ = "0.1.0"
