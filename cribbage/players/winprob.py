"""Chance to win from a board position (2 players), from ``cribbage/data/win_tables.json``.

The tables and the per-deal distributions behind them are made by
``tools/make_win_tables.py`` (its docstring describes the model): ``W[d][p]``
is the chance that the player about to deal with ``d`` points against ``p``
wins. This module reads them and answers the questions the master level and
the review ask in the middle of a deal: the chance to win after the pegging
with the show still to come, with a known or a typical show.

>>> round(deal_win(121, 0, 0), 2) > 0.5          # the first dealer is favoured
True
>>> deal_win(121, 120, 0) > 0.99, deal_win(121, 0, 120) < 0.2
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .discard import DATA_DIR, data_json

TABLE_FILE = DATA_DIR / "win_tables.json"

Dist = dict[str, Any]


def race(peg: list[tuple[int, int, float]], target: int, me: int, opp: int, dealing: bool,
         after: Callable[[int, int], float]) -> float:
    """My weighted chance to win over the pegging's joint distribution ``peg`` of
    (dealer's, pone's, weight) from ``me`` against ``opp``: reaching the target in the
    play wins (both at once is an even race); otherwise ``after(mine, theirs)``.
    Not normalised: divide by the weights' sum.
    """
    total = 0.0
    for dp, pp, q in peg:
        mine, other = (dp, pp) if dealing else (pp, dp)
        x, y = me + mine, opp + other
        if x >= target and y >= target:
            total += 0.5 * q
        elif x >= target:
            total += q
        elif y < target:
            total += q * after(x, y)
    return total


def solve(dist: Dist, target: int) -> list[list[float]]:
    """``W[d][p]`` for ``0 <= d, p < target`` by dynamic programming from the end."""
    t = target
    peg = [(int(d), int(p), float(q)) for d, p, q in dist["peg"] if q > 0]
    pone = [(k, q) for k, q in enumerate(dist["pone_hand"]) if q > 0]
    show = [(k, q) for k, q in enumerate(dist["dealer_show"]) if q > 0]
    peg_total = sum(q for _, _, q in peg)
    pone_total = sum(q for _, q in pone)
    show_total = sum(q for _, q in show)
    w = [[0.0] * t for _ in range(t)]
    u = [[0.0] * t for _ in range(t)]  # after the pone's hand: (dealer, pone)
    v = [[0.0] * t for _ in range(t)]  # after the pegging: (dealer, pone)
    for total in range(2 * t - 2, -1, -1):
        cells = [(d, total - d) for d in range(max(0, total - t + 1), min(t - 1, total) + 1)]
        for d, p in cells:  # W needs V on larger totals only (a deal scores >= 1)
            w[d][p] = race(peg, t, d, p, True, lambda x, y: v[x][y]) / peg_total
        for x, y in cells:
            value = 0.0
            for s, q in show:
                value += q if x + s >= t else q * (1.0 - w[y][x + s])
            u[x][y] = value / show_total
        for x, y in cells:
            value = 0.0
            for h, q in pone:
                if y + h < t:
                    value += q * u[x][y + h]
            v[x][y] = value / pone_total
    return w


@lru_cache(maxsize=1)
def tables() -> dict[str, Any]:
    """The shipped file, loaded once (``win`` rows as floats, ``dist`` as stored)."""
    data = data_json("win_tables.json")
    win = {int(t): [x / 10000 for x in cells] for t, cells in data["win"].items()}
    return {"win": win, "dist": data["dist"], "deals": data["deals"]}


def supported(players: int, target: int) -> bool:
    """Whether there are tables for this game (2 players, 121 or 61)."""
    return players == 2 and target in tables()["win"]


def deal_win(target: int, dealer: int, pone: int) -> float:
    """Chance the player about to deal with ``dealer`` points wins against ``pone``."""
    if dealer >= target:
        return 1.0
    if pone >= target:
        return 0.0
    return float(tables()["win"][target][max(dealer, 0) * target + max(pone, 0)])


def next_deal_win(target: int, me: int, opp: int, i_deal_next: bool) -> float:
    """My chance to win when a deal ends at ``me``/``opp`` (nobody has reached the target)."""
    if me >= target:
        return 1.0
    if opp >= target:
        return 0.0
    if i_deal_next:
        return deal_win(target, me, opp)
    return 1.0 - deal_win(target, opp, me)


def show_win(target: int, me: int, opp: int, i_deal: bool, my_show: float,
             opp_show: float) -> float:
    """My chance to win once the play is over, the show's points known (cribs included).

    The pone counts first, then the dealer's hand and crib. A fractional
    dealer's show (an expected crib) is split between its two integers.
    """
    if i_deal:
        if opp + opp_show >= target:
            return 0.0
        return _split(my_show, lambda s: 1.0 if me + s >= target else
                      next_deal_win(target, me + s, opp + int(opp_show), False))
    if me + my_show >= target:
        return 1.0
    return _split(opp_show, lambda s: 0.0 if opp + s >= target else
                  next_deal_win(target, me + int(my_show), opp + s, True))


def _split(points: float, value: Any) -> float:
    low = int(points)
    frac = points - low
    result = float(value(low))
    if frac > 1e-9:
        result = (1 - frac) * result + frac * float(value(low + 1))
    return result


@lru_cache(maxsize=65536)
def after_peg_win(target: int, mine: int, opp: int, i_deal: bool) -> float:
    """My chance to win when the play is over at ``opp`` points for them and my
    show would take me to ``mine``; their show is drawn from its distribution.

    The pone counts first: as dealer I lose if their hand reaches the target
    before I count; as pone I win if mine does.
    """
    dist = tables()["dist"]
    if i_deal:
        theirs: list[float] = dist["pone_hand"]
        total = 0.0
        for s, q in enumerate(theirs):
            if q and opp + s < target:
                total += q * (1.0 if mine >= target else 1.0 - deal_win(target, opp + s, mine))
        return total / sum(theirs)
    if mine >= target:
        return 1.0
    theirs = list(dist["dealer_show"])
    total = 0.0
    for s, q in enumerate(theirs):
        if q and opp + s < target:
            total += q * deal_win(target, mine, opp + s)
    return total / sum(theirs)


@lru_cache(maxsize=4096)
def pegged_win(target: int, me: int, opp: int, i_deal: bool) -> float:
    """My chance to win when the deal's play is over and my show is typical too."""
    if me >= target:
        return 1.0
    if opp >= target:
        return 0.0
    dist = tables()["dist"]
    mine: list[float] = dist["dealer_show"] if i_deal else dist["pone_hand"]
    total = sum(q * after_peg_win(target, me + s, opp, i_deal) for s, q in enumerate(mine) if q)
    return total / sum(mine)


@lru_cache(maxsize=512)
def deal_start_curve(target: int, me: int, opp: int, i_deal: bool) -> tuple[float, ...]:
    """My chance to win before the play, for each total of my own show (index = points).

    The pegging is drawn from the measured joint distribution (both sides
    reaching the target in the same play counted as an even race), the
    opponent's show from theirs; my show (hand, plus the crib when I deal) is
    the index, up to 60.
    """
    dist = tables()["dist"]
    peg = [(d, p, q) for d, p, q in dist["peg"] if q >= 2e-4]
    norm = sum(q for _, _, q in peg)
    curve = []
    for show in range(61):
        def after(x: int, y: int, show: int = show) -> float:
            return after_peg_win(target, x + show, y, i_deal)

        curve.append(race(peg, target, me, opp, i_deal, after) / norm)
    return tuple(curve)


def mean_of(dist: list[float]) -> float:
    return sum(k * q for k, q in enumerate(dist)) / sum(dist)


__all__ = ["after_peg_win", "deal_start_curve", "deal_win", "next_deal_win", "pegged_win",
           "show_win", "solve", "supported", "tables"]
