"""The flow of the play (rules 7-11): whose turn it is and how a series closes.

:class:`~cribbage.game.Game` and the teaching sequences of :mod:`cribbage.tutor`
both follow these two rules, so the flow is written once.

>>> next_in_turn(1, 3, lambda seat: seat != 2)   # seat 2 said go: seat 0 is next
0
>>> closing_point(30, all_played=False), closing_point(31, all_played=True)
('go', None)
"""

from __future__ import annotations

from collections.abc import Callable

from .scoring import MAX_COUNT


def next_in_turn(after: int, players: int, may_lay: Callable[[int], bool]) -> int | None:
    """The first seat clockwise after ``after`` that ``may_lay``, or None if nobody may."""
    for step in range(1, players + 1):
        seat = (after + step) % players
        if may_lay(seat):
            return seat
    return None


def closing_point(count: int, all_played: bool) -> str | None:
    """The point the last card of a closed series earns: ``"last card"`` when every
    card has been played, else ``"go"``; None after 31, which already scored 2."""
    if count == MAX_COUNT:
        return None
    return "last card" if all_played else "go"
