"""Game options (docs/rules.md rules 3, 15, 17-19) and how a finished game is scored.

>>> rules = Rules(players=4, target=61)
>>> rules.teams, rules.team_of(2), rules.cards_dealt, rules.discards_each
(2, 0, 5, 1)
>>> Rules.from_dict(rules.to_dict()) == rules
True
>>> five = Rules(cards=5)   # five-card cribbage: its own game to 61
>>> five.target, five.cards_dealt, five.hand_size, five.single_series
(61, 5, 3, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .scoring import MAX_HAND_SCORES

SKUNK_RULES = ("acc", "lurch", "none")
PLAYER_COUNTS = (2, 3, 4)
CARD_COUNTS = (6, 5, 7)  # six-card cribbage first: the usual game
# The games each variant is played to; the first is the variant's own.
TARGETS_OF = {6: (121, 61), 5: (61,), 7: (181,)}
TARGETS = (121, 61, 181)
PONE_START_POINTS = 3  # five-card: the pone of the first hand pegs 3 ("three for last")


class RulesError(ValueError):
    """Raised for game options that are not allowed."""


@dataclass(frozen=True)
class Rules:
    """The options of one game.

    - ``players``: 2, 3 or 4 (4 = two teams, partners sit opposite).
    - ``cards``: the variant for two players: 6 (the usual game), 5 (five-card
      cribbage) or 7 (seven-card cribbage). Three and four players play 6.
    - ``target``: 121 (long game) or 61 (short game) in six-card; five-card is
      played to 61 and seven-card to 181. Left out (or 0), it is the variant's own.
    - ``skunk``: ``"acc"`` (skunk below target - 30 = 2 game points, double
      skunk below target - 60 = 3 in the 121 and 181 games; the 61 game has a
      skunk below 31 only), ``"lurch"`` (the seeds' rule: a loser below half
      the target, 61 in the 121 game, loses double), or ``"none"``.
    - ``manual_counting``: players state their own hand and crib totals.
    - ``muggins``: with manual counting, an opponent may take overlooked points
      and call an over-claim (the caller scores the excess).
    - ``exact_finish``: points that would carry a score past the target are not pegged.
    - ``manual_pegging``: with manual counting, who lays a card in the play
      claims its points too (``count N``); go, last card and his heels stay automatic.
    """

    players: int = 2
    target: int = 0  # 0: the variant's own game (121, 61 or 181)
    skunk: str = "acc"
    manual_counting: bool = False
    muggins: bool = False
    exact_finish: bool = False
    manual_pegging: bool = False
    cards: int = 6

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in PLAYER_COUNTS:
            raise RulesError(f"players must be 2, 3 or 4, not {self.players!r}")
        if type(self.cards) is not int or self.cards not in CARD_COUNTS:
            raise RulesError(f"cards must be 5, 6 or 7, not {self.cards!r}")
        if self.cards != 6 and self.players != 2:
            raise RulesError(f"{self.cards}-card cribbage is for two players")
        targets = TARGETS_OF[self.cards]
        if type(self.target) is int and self.target == 0:
            object.__setattr__(self, "target", targets[0])
        if type(self.target) is not int or self.target not in targets:
            allowed = " or ".join(map(str, targets))
            raise RulesError(f"{self.cards}-card cribbage is played to {allowed}, "
                             f"not {self.target!r}")
        if self.skunk not in SKUNK_RULES:
            raise RulesError(f"skunk must be one of {', '.join(SKUNK_RULES)}, not {self.skunk!r}")
        for name in ("manual_counting", "muggins", "exact_finish", "manual_pegging"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"{name} must be true or false")
        if self.muggins and not self.manual_counting:
            raise RulesError("muggins needs manual counting")
        if self.manual_pegging and not self.manual_counting:
            raise RulesError("manual pegging needs manual counting")

    @property
    def teams(self) -> int:
        """How many scores there are: one per player, or two teams of two."""
        return 2 if self.players == 4 else self.players

    def team_of(self, seat: int) -> int:
        """The team (score) a seat pegs for."""
        return seat % 2 if self.players == 4 else seat

    @property
    def cards_dealt(self) -> int:
        """Cards dealt to each player (rule 5; five- and seven-card, rules 20-21)."""
        return self.cards if self.players == 2 else 5

    @property
    def hand_size(self) -> int:
        """Cards each hand keeps for the play and the show: 4, or 3 and 5 in the variants.

        >>> Rules().hand_size, Rules(players=3).hand_size, Rules(cards=7).hand_size
        (4, 4, 5)
        """
        return self.cards_dealt - self.discards_each

    @property
    def max_claim(self) -> int:
        """The most a manual claim may state: the game's highest hand, at least 29
        (a claim in the play, or in five-card, keeps the usual range).

        >>> Rules().max_claim, Rules(cards=5).max_claim, Rules(cards=7).max_claim
        (29, 29, 46)
        """
        return max(MAX_HAND_SCORES[self.hand_size], MAX_HAND_SCORES[4])

    @property
    def single_series(self) -> bool:
        """Five-card cribbage: the play ends with its first go or 31 (rule 20)."""
        return self.cards == 5

    @property
    def pone_start_points(self) -> int:
        """What the pone of the first hand pegs before the deal: 3 in five-card (rule 20)."""
        return PONE_START_POINTS if self.cards == 5 else 0

    @property
    def discards_each(self) -> int:
        """Cards each player puts in the crib (rule 5)."""
        return 2 if self.players == 2 else 1

    @property
    def skunk_lines(self) -> list[int]:
        """The lowest safe scores (a loser below one is skunked), highest first, as a
        board marks them: 91 and 61 for the ACC long game, 31 for the short game.

        >>> Rules().skunk_lines, Rules(target=61).skunk_lines, Rules(skunk="none").skunk_lines
        ([91, 61], [31], [])
        >>> Rules(skunk="lurch").skunk_lines, Rules(cards=7).skunk_lines
        ([61], [151, 121])
        """
        if self.skunk == "acc":
            if self.target >= 121:
                return [self.target - 30, self.target - 60]
            return [self.target - 30]
        if self.skunk == "lurch":
            return [(self.target + 1) // 2]
        return []

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Options from a dict, rejecting unknown keys with a clear message.

        Missing options take their defaults (older saves lack ``manual_pegging``
        and ``cards``: they are six-card games).
        """
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        if not all(isinstance(key, str) for key in data):
            raise RulesError("rule options are named by text")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)


def variants() -> dict[str, dict[str, list[int]]]:
    """For each number of cards dealt, the players and targets its rules allow.

    >>> variants()["5"], variants()["6"]["players"]
    ({'players': [2], 'target': [61]}, [2, 3, 4])
    """
    def allowed(players: int, cards: int) -> bool:
        try:
            Rules(players=players, cards=cards)
        except RulesError:
            return False
        return True

    return {str(cards): {"players": [p for p in PLAYER_COUNTS if allowed(p, cards)],
                         "target": list(TARGETS_OF[cards])} for cards in CARD_COUNTS}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning team, the kind of win and its game points.

    >>> Outcome.judge(Rules(), winner=0, scores=[121, 85])
    Outcome(winner=0, kind='skunk', game_points=2, scores=(121, 85))
    >>> Outcome.judge(Rules(skunk="lurch"), winner=1, scores=[60, 121]).kind
    'lurch'
    """

    winner: int
    kind: str
    game_points: int
    scores: tuple[int, ...]

    @classmethod
    def judge(cls, rules: Rules, winner: int, scores: list[int]) -> Outcome:
        """Classify a win by the lowest losing score (rule 17).

        With three players the game is judged on the lowest loser: one
        outcome per game, and a winner who left anyone below the line skunked
        the table. Teams share one score, so that score decides. The 61-point
        game has a skunk line (below 31) but no double skunk; the 181-point
        game's lines are 151 and 121.

        >>> Outcome.judge(Rules(players=3), winner=1, scores=[100, 121, 60]).kind
        'double skunk'
        """
        worst = min(score for team, score in enumerate(scores) if team != winner)
        kind, points = "win", 1
        if rules.skunk == "acc":
            if rules.target >= 121 and worst < rules.target - 60:
                kind, points = "double skunk", 3
            elif worst < rules.target - 30:
                kind, points = "skunk", 2
        elif rules.skunk == "lurch" and worst < (rules.target + 1) // 2:
            kind, points = "lurch", 2
        return cls(winner, kind, points, tuple(scores))

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "kind": self.kind, "game_points": self.game_points,
                "scores": list(self.scores)}
