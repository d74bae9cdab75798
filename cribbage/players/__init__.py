"""Computer players: the public player protocol, the levels, and one call for any phase.

A player is any object with two methods (see :class:`Player`)::

    discard(view) -> list of cards   # the cards this seat lays away to the crib
    play(view) -> card               # called only when the seat has a card that fits

``view`` is the engine's :class:`~cribbage.view.PlayerView` for the player's
seat, nothing more: a player never sees hidden cards. Optional methods for
manual counting: ``count(view) -> int`` (a hand or crib), ``peg_count(view)
-> int`` (the card it just laid, with manual pegging) and ``muggins(view) ->
bool`` (call the claim ``view.claim``, or pass).

>>> from cribbage.game import Game
>>> game = Game.new(seed=5, first_dealer=0)
>>> players = [make_player("expert", seed=1), make_player("standard", seed=2)]
>>> while game.phase != "over" and game.deal_number == 1:
...     seat = game.current_player
...     game.apply(computer_move(players[seat], game.view(seat)))
>>> game.deal_number
2
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..cards import Card
from ..moves import Move
from ..view import PlayerView
from .levels import Beginner, ComputerPlayer, Easy, Expert, Standard, claim_error, claim_worth
from .master import Master

LEVELS: dict[str, type[ComputerPlayer]] = {
    "beginner": Beginner, "easy": Easy, "standard": Standard, "expert": Expert,
    "master": Master,
}


@runtime_checkable
class Player(Protocol):
    """The protocol every computer (or external) player follows."""

    def discard(self, view: PlayerView) -> Sequence[Card]:
        """The cards to lay away: ``view.rules.discards_each`` of ``view.hand``."""

    def play(self, view: PlayerView) -> Card:
        """A card of ``view.hand`` that keeps the count at most 31."""


def make_player(level: str, seed: int | None = None) -> ComputerPlayer:
    """A computer player of ``level``: beginner, easy, standard, expert or master.

    >>> make_player("expert")
    Expert()
    >>> make_player("grandmaster")
    Traceback (most recent call last):
    ...
    ValueError: unknown level 'grandmaster' (levels: beginner, easy, standard, expert, master)
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return LEVELS[level](seed)


def load_player(spec: str, seed: int | None = None) -> Any:
    """A level name, or ``module:callable`` (a no-argument factory of a player).

    >>> load_player("cribbage.players:Standard")
    Standard()
    """
    if ":" not in spec:
        return make_player(spec, seed)
    module_name, _, attribute = spec.partition(":")
    factory: Callable[[], Any] = getattr(importlib.import_module(module_name), attribute)
    player = factory()
    if not isinstance(player, Player):
        raise ValueError(f"{spec} did not return a player with discard(view) and play(view)")
    return player


def computer_move(player: Any, view: PlayerView) -> Move:
    """The move ``player`` makes now, whatever the phase (``view`` is the mover's).

    Cuts and forced goes need no decision; counting and muggins use the
    player's optional ``count``/``peg_count``/``muggins`` methods, else
    count exactly and call muggins on any wrong claim.
    """
    phase = view.phase
    if phase in ("cut", "starter"):
        return Move("cut")
    if phase == "discard":
        return Move("discard", tuple(player.discard(view)))
    if phase == "play":
        if view.legal_moves == (Move("go"),):
            return Move("go")
        return Move("play", (player.play(view),))
    if phase in ("count", "peg_count"):
        method = "count" if phase == "count" else "peg_count"
        if hasattr(player, method):
            return Move("count", points=int(getattr(player, method)(view)))
        return Move("count", points=exact_count(view))
    if phase == "muggins":
        if hasattr(player, "muggins"):
            return Move("muggins") if player.muggins(view) else Move("pass")
        return Move("muggins") if claim_error(view) != 0 else Move("pass")
    raise ValueError(f"no move to make in phase {phase!r}")


def exact_count(view: PlayerView) -> int:
    """The true total of the hand, crib or card this seat is claiming for."""
    assert view.claim is not None
    return claim_worth(view, view.claim)


__all__ = [
    "LEVELS", "Beginner", "ComputerPlayer", "Easy", "Expert", "Master", "Player", "Standard",
    "computer_move", "exact_count", "load_player", "make_player",
]
