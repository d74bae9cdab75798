"""A game's scores told two ways: each side's points by where they came from, and
its score after each deal; the game-over dialog draws both as they come.

Both are sums of the events' ``points``, which are what was pegged: the
winner's peg stops in the game hole, so the category in which the target was
reached counts only the points up to it (rule 15), and every total is the
score on the board.

>>> from cribbage import Game, Rules
>>> game = Game.scripted(Rules(target=61), dealer=0, hands=["5C 5D 5H JS", "AS 2S 3S 4H"],
...                      crib="6C 7C 8C 9C", starter="5S", scores=[40, 52])
>>> while not game.is_over:
...     game.apply(game.legal_moves()[0])
>>> summary = game_summary(game.events, game.scores)
>>> [team["total"] for team in summary["points"]], summary["sources"][0]
([41, 61], 'start')
>>> hand = game.events[-2]
>>> hand.kind, hand.worth, hand.points, hand.beyond, summary["points"][1]["hand"]
('hand', 7, 5, 2, 5)
>>> summary["by_deal"]
[[40, 41], [52, 61]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .moves import SOURCE_OF, SOURCES, Event


def starting_scores(events: Sequence[Event], scores: Sequence[int]) -> list[int]:
    """Each score before the first event: 0, or what a scripted game began with."""
    return [score - sum(event.points for event in events if event.team == team)
            for team, score in enumerate(scores)]


def points_by_source(events: Sequence[Event], scores: Sequence[int]) -> list[dict[str, int]]:
    """Each team's points by source, with ``total`` (its score); ``start`` too when a
    scripted game began with points.

    >>> points_by_source([Event("hand", 0, 0, 8), Event("go", 1, 1, 1)], [8, 1])
    [{'hand': 8, 'crib': 0, 'pegging': 0, 'muggins': 0, 'total': 8}, \
{'hand': 0, 'crib': 0, 'pegging': 1, 'muggins': 0, 'total': 1}]
    """
    start = starting_scores(events, scores)
    sources = (("start",) if any(start) else ()) + SOURCES
    totals = [dict.fromkeys(sources, 0) for _ in scores]
    for team, points in enumerate(start):
        if points:
            totals[team]["start"] = points
    for event in events:
        source = SOURCE_OF.get(event.kind)
        if source is not None and event.team is not None:
            totals[event.team][source] += event.points
    for team, score in enumerate(scores):
        totals[team]["total"] = score
    return totals


def scores_by_deal(events: Sequence[Event], scores: Sequence[int]) -> list[list[int]]:
    """Each team's score at the start (index 0) and after each deal.

    >>> scores_by_deal([Event("go", 0, 0, 1, deal=1), Event("crib", 1, 1, 4, deal=2)], [1, 4])
    [[0, 1, 1], [0, 0, 4]]
    """
    deals = max([event.deal for event in events] + [0])
    rows = [[points] + [0] * deals for points in starting_scores(events, scores)]
    for event in events:
        if event.points and event.team is not None:
            rows[event.team][max(event.deal, 1)] += event.points
    for row in rows:
        for deal in range(1, deals + 1):
            row[deal] += row[deal - 1]
    return rows


def game_summary(events: Sequence[Event], scores: Sequence[int]) -> dict[str, Any]:
    """What the game-over dialog shows: ``sources`` (the columns, in order), ``points``
    (each team's points by source and its ``total``) and ``by_deal`` (each team's
    score after each deal), all as pegged."""
    points = points_by_source(events, scores)
    return {"sources": [source for source in points[0] if source != "total"],
            "points": points, "by_deal": scores_by_deal(events, scores)}


__all__ = ["game_summary", "points_by_source", "scores_by_deal",
           "starting_scores"]
