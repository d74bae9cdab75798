"""What one seat may know: the only thing a computer player or the UI's human sees.

Hidden information is structural: a :class:`PlayerView` is built from public
facts and the seat's own cards, so a player holding one cannot see an
opponent's hand, the crib before it is shown, or the deck.

>>> from cribbage.game import Game
>>> view = Game.new(seed=3, first_dealer=0).view(1)
>>> len(view.hand), view.is_dealer, view.crib_size, view.starter is None
(6, False, 0, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card
from .moves import Claim, Event, Move
from .rules import Outcome, Rules
from .scoring import pile_count
from .summary import game_summary


@dataclass(frozen=True)
class PlayerView:
    """One seat's knowledge of the game at one moment.

    ``hand`` is the seat's cards still in hand; ``kept`` the four it kept after
    discarding (its show hand); ``discards`` what it laid away to the crib.
    ``played`` lists every (seat, card) laid this deal, ``pile`` the cards of
    the current series. ``shown`` maps ``"hand:SEAT"``/``"crib"`` to cards
    revealed in the show. ``events`` is the public log. ``claim`` is the
    manual count being settled (phases ``count``, ``peg_count`` and
    ``muggins``): whose, of what, over which cards, and what was claimed;
    its true worth is for each player to see from the public cards.
    """

    seat: int
    rules: Rules
    phase: str
    dealer: int
    current_player: int | None
    deal_number: int
    hand: tuple[Card, ...]
    kept: tuple[Card, ...]
    discards: tuple[Card, ...]
    starter: Card | None
    crib_size: int
    hand_sizes: tuple[int, ...]
    pile: tuple[Card, ...]
    played: tuple[tuple[int, Card], ...]
    said_go: frozenset[int]
    scores: tuple[int, ...]
    shown: dict[str, tuple[Card, ...]]
    legal_moves: tuple[Move, ...]
    events: tuple[Event, ...]
    outcome: Outcome | None
    claim: Claim | None = None

    @property
    def team(self) -> int:
        return self.rules.team_of(self.seat)

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.seat

    @property
    def count(self) -> int:
        """The running count of the current series."""
        return pile_count(self.pile)

    @property
    def my_score(self) -> int:
        return self.scores[self.team]

    def unseen_cards(self) -> list[Card]:
        """Cards this seat has not seen: in other hands, the crib or the deck.

        >>> from cribbage.game import Game
        >>> len(Game.new(seed=3, first_dealer=0).view(0).unseen_cards())
        46
        """
        from .cards import full_deck

        seen = set(self.hand) | set(self.kept) | set(self.discards)
        seen |= {card for _, card in self.played}
        seen |= {card for cards in self.shown.values() for card in cards}
        if self.starter is not None:
            seen.add(self.starter)
        return [card for card in full_deck() if card not in seen]

    def to_dict(self, events_from: int = 0) -> dict[str, Any]:
        """JSON-ready form for the browser (cards as codes like ``"5S"``).

        ``events`` holds the log from index ``events_from`` on (the browser
        asks only for what it has not seen); ``events_total`` is its length.
        """

        def codes(cards: Any) -> list[str]:
            return [card.code for card in cards]

        rules = self.rules
        return {
            "seat": self.seat, "team": self.team, "rules": rules.to_dict(),
            # The rules' facts a table needs, so the page holds no rule knowledge.
            "teams": rules.teams, "team_of": [rules.team_of(s) for s in range(rules.players)],
            "discards_each": rules.discards_each, "skunk_lines": rules.skunk_lines,
            "cards_dealt": rules.cards_dealt, "hand_size": rules.hand_size,
            "max_claim": rules.max_claim,
            "phase": self.phase, "dealer": self.dealer,
            "current_player": self.current_player, "deal_number": self.deal_number,
            "hand": codes(self.hand), "kept": codes(self.kept),
            "discards": codes(self.discards),
            "starter": self.starter.code if self.starter else None,
            "crib_size": self.crib_size, "hand_sizes": list(self.hand_sizes),
            "pile": codes(self.pile), "count": self.count,
            "played": [[seat, card.code] for seat, card in self.played],
            "said_go": sorted(self.said_go), "scores": list(self.scores),
            "shown": {key: codes(cards) for key, cards in self.shown.items()},
            "legal_moves": [str(move) for move in self.legal_moves],
            "events": [event.to_dict() for event in self.events[events_from:]],
            "events_total": len(self.events),
            "outcome": self.outcome.to_dict() if self.outcome else None,
            # Once the game is over: the points by source and deal, as pegged.
            "summary": game_summary(self.events, self.scores) if self.outcome else None,
            "claim": self.claim.to_dict() if self.claim else None,
        }

