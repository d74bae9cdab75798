"""Pegging for the computer players: a fast scorer on ranks, heuristics and a search.

Pegging points depend only on ranks (suits never score in the play), so the
search works on tuples of ranks 1..13, which makes it fast enough to look
ahead over the whole rest of a 2-player play for many sampled deals.

>>> peg_points((10, 5), 15)
2
>>> peg_points((5, 6, 5, 7), 23)
3
>>> peg_points((4, 5, 5, 6), 20)
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb, exp
from typing import Any

from ..cards import Card
from ..play import closing_point, next_in_turn
from ..scoring import MAX_COUNT, rank_points
from ..view import PlayerView


def value_of(rank: int) -> int:
    """The counting value of a rank (face cards ten)."""
    return rank if rank < 10 else 10


def peg_points(pile: Sequence[int], count: int) -> int:
    """Points for the last rank laid on ``pile`` (ranks of the current series).

    Same rules as :func:`cribbage.scoring.score_peg` (docs/rules.md rule 10), on ranks.

    >>> peg_points((3, 3, 3), 9), peg_points((13, 12, 11), 30), peg_points((10, 10, 10, 1), 31)
    (6, 3, 2)
    """
    points = 2 if count in (15, MAX_COUNT) else 0
    last = pile[-1]
    same = 1
    for rank in reversed(pile[:-1]):
        if rank != last:
            break
        same += 1
    points += same * (same - 1)
    for size in range(len(pile), 2, -1):
        tail = pile[-size:]
        low, high = min(tail), max(tail)
        if high - low == size - 1 and len(set(tail)) == size:
            return points + size
    return points


# --- what the others may hold -------------------------------------------------


def min_values_after_go(view: PlayerView) -> dict[int, int]:
    """For each seat that said go this deal, the lowest card value it can still hold.

    A seat that says go at count c holds no card worth <= 31 - c, and keeps
    that property for the cards it still has.
    """
    floors: dict[int, int] = {}
    for event in view.events:
        if event.deal != view.deal_number or event.kind != "go_said" or event.seat is None:
            continue
        floor = MAX_COUNT - (event.count or 0) + 1
        floors[event.seat] = max(floors.get(event.seat, 1), floor)
    return floors


def sample_hidden_hands(view: PlayerView, rng: random.Random) -> list[tuple[int, ...]]:
    """Ranks each seat may hold, drawn from the unseen cards; our own hand as it is.

    Deals consistent with what the view shows: sizes, and the go constraints.
    """
    return _draw_hands(view, rng, lambda seat, hidden, pool: True, tries=50)


def sample_plausible_hands(view: PlayerView, rng: random.Random, sharpness: float,
                           tries: int = 60, reading: float = 0.0) -> list[tuple[int, ...]]:
    """Like :func:`sample_hidden_hands`, but each other seat's kept four must look
    like a sensible discard: a candidate (its hidden cards plus the cards it laid
    away, drawn from the unseen ones) is accepted with probability
    ``exp(-sharpness * regret)``, the regret measured by :func:`discard_regret`.

    With ``reading`` > 0 the seat's plays this deal are read too: a candidate
    with which a card it laid scored less at once than another it would have
    held (:func:`play_shortfall`) is accepted with probability
    ``exp(-reading * shortfall)``.
    """
    rules = view.rules
    if sharpness <= 0:
        return sample_hidden_hands(view, rng)
    played: dict[int, list[int]] = {}
    for seat, card in view.played:
        played.setdefault(seat, []).append(card.rank)
    plays = series_plays(view) if reading > 0 else []
    dealer_team = rules.team_of(view.dealer)
    thrown = rules.discards_each

    def plausible(seat: int, hidden: list[Card], pool: list[Card]) -> bool:
        held = tuple(played.get(seat, ())) + tuple(card.rank for card in hidden)
        away = tuple(card.rank for card in pool[:thrown])
        sign = 1.0 if rules.team_of(seat) == dealer_team else (
            -0.5 if rules.players == 3 else -1.0)
        regret = discard_regret(held + away, rules.players, sign)
        if regret > 0 and rng.random() >= exp(-sharpness * regret):
            return False
        if plays:
            short = play_shortfall(plays, seat, tuple(card.rank for card in hidden))
            if short > 0 and rng.random() >= exp(-reading * short):
                return False
        del pool[:thrown]  # those cards went to the crib
        return True

    hands = _draw_hands(view, rng, plausible, tries, fallback=False)
    return hands or sample_hidden_hands(view, rng)


def series_plays(view: PlayerView) -> list[tuple[int, tuple[int, ...], int]]:
    """This deal's cards laid so far as ``(seat, pile of ranks before it, rank)``, in order.

    A series ends at 31 or when nobody can lay a card, so a card that does not
    fit under the running count began a new one.
    """
    plays: list[tuple[int, tuple[int, ...], int]] = []
    pile: tuple[int, ...] = ()
    for seat, card in view.played:
        count = sum(value_of(r) for r in pile)
        if count == MAX_COUNT or count + card.value > MAX_COUNT:
            pile = ()
        plays.append((seat, pile, card.rank))
        pile += (card.rank,)
    return plays


def play_shortfall(plays: Sequence[tuple[int, tuple[int, ...], int]], seat: int,
                   hidden: tuple[int, ...]) -> int:
    """Points ``seat`` left on the table at once in its plays this deal, had it held
    ``hidden`` (ranks) as well: at each card it laid on a pile, the most another card
    it held then would have pegged, less what the card laid pegged.

    >>> plays = [(0, (), 10), (1, (10,), 2)]   # a ten led, the reply a two
    >>> play_shortfall(plays, 1, (5, 9)), play_shortfall(plays, 1, (9, 8))
    (2, 0)
    """
    short = 0
    later: list[int] = list(hidden)
    for who, pile, rank in reversed(plays):  # the hand it held grows backwards
        if who != seat:
            continue
        later.append(rank)
        if not pile:
            continue
        count = sum(value_of(r) for r in pile)
        best = max(peg_points(pile + (r,), count + value_of(r))
                   for r in later if count + value_of(r) <= MAX_COUNT)
        short += best - peg_points(pile + (rank,), count + value_of(rank))
    return short


def _draw_hands(view: PlayerView, rng: random.Random,
                accept: Callable[[int, list[Card], list[Card]], bool], tries: int,
                fallback: bool = True) -> list[tuple[int, ...]]:
    """Deal the unseen cards to the other seats (sizes and go floors respected) until
    ``accept(seat, hidden, pool)`` takes every seat's cards; ``tries`` shuffles at most.

    After ``tries`` failures: the last partial deal when ``fallback``, else ``[]``.
    """
    unseen = view.unseen_cards()
    floors = min_values_after_go(view)
    hands: list[tuple[int, ...]] = []
    for _ in range(tries):
        pool = unseen[:]
        rng.shuffle(pool)
        hands, ok = [], True
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands.append(tuple(sorted(card.rank for card in view.hand)))
                continue
            floor = floors.get(seat, 1)
            if floor <= 1:  # no go to respect: the first cards of the pool (the common case)
                fits = pool[:size]
                del pool[:size]
            else:
                fits = [card for card in pool if card.value >= floor][:size]
                for card in fits:
                    pool.remove(card)
            if len(fits) < size:
                ok = False
                break
            if not accept(seat, fits, pool):
                ok = False
                break
            hands.append(tuple(sorted(card.rank for card in fits)))
        if ok:
            return hands
    return hands if fallback else []  # constraints could not be met: best effort


# --- how the others discarded ----------------------------------------------------


def keep_value(ranks: tuple[int, ...]) -> float:
    """Expected fifteens, pairs and runs of kept ranks (sorted) over the starter.

    Four ranks: from the shipped table (``"keep"`` in the crib tables file);
    three or five (five- and seven-card cribbage): :func:`kept_rank_value`.
    """
    if len(ranks) == 4:
        return keep_values()[ranks]
    return kept_rank_value(ranks)


@cache
def kept_rank_value(ranks: tuple[int, ...]) -> float:
    """The mean of :func:`~cribbage.scoring.rank_points` over the starter's rank,
    each rank weighted by the cards of it not among ``ranks`` (sorted).

    >>> round(kept_rank_value((5, 5, 5)), 3)   # three fives: 8, more with a ten-card or a five
    10.204
    """
    weights = {rank: 4 - ranks.count(rank) for rank in range(1, 14)}
    total = sum(weights.values())
    return sum(weight * rank_points(tuple(sorted(ranks + (rank,))))
               for rank, weight in weights.items() if weight) / total


@cache
def keep_values() -> dict[tuple[int, ...], float]:
    from .discard import crib_tables

    table = crib_tables()["keep"]
    return dict(zip(combinations_with_replacement(range(1, 14), 4), table))


@cache
def throw_value(players: int, role: str, ranks: tuple[int, ...]) -> float:
    """Mean of the crib table's row for ``ranks`` laid away, over the starter ranks."""
    from .discard import crib_row

    row = crib_row(players, role, ranks)
    return sum(row) / len(row)


def discard_regret(held: Sequence[int], players: int, crib_sign: float) -> float:
    """How much worse keeping the first four of ``held`` is than the best keep.

    ``held`` is the ranks dealt (the kept four first); the model discards by
    expected hand plus ``crib_sign`` times the crib table (a standard-like or
    expert-like player). The best keep of each dealt set of ranks is computed
    once (the searches ask about the same sets again and again).

    >>> discard_regret((5, 5, 10, 11, 1, 2), 2, 1.0)
    0.0
    >>> discard_regret((1, 2, 3, 13, 5, 5), 2, -1.0) > 3
    True
    """
    keep = len(held) - (2 if players == 2 else 1)
    kept = tuple(sorted(held[:keep]))
    thrown = tuple(sorted(held[keep:]))
    return (_best_keep(tuple(sorted(held)), keep, players, crib_sign)
            - _keep_worth(kept, thrown, players, crib_sign))


def _keep_worth(kept: tuple[int, ...], thrown: tuple[int, ...], players: int,
                crib_sign: float) -> float:
    """Expected hand of the kept ranks plus ``crib_sign`` times the thrown ranks' crib."""
    role = "dealer" if crib_sign > 0 else "pone"
    return keep_value(kept) + crib_sign * throw_value(players, role, thrown)


@cache
def _best_keep(dealt: tuple[int, ...], keep: int, players: int, crib_sign: float) -> float:
    """The best :func:`_keep_worth` over every way to keep ``keep`` of the ``dealt`` ranks."""
    best = None
    for chosen in combinations(range(len(dealt)), keep):
        kept = tuple(dealt[i] for i in chosen)  # sorted: ``dealt`` is
        thrown = tuple(dealt[i] for i in range(len(dealt)) if i not in chosen)
        worth = _keep_worth(kept, thrown, players, crib_sign)
        best = worth if best is None else max(best, worth)
    assert best is not None
    return best


# --- the search -----------------------------------------------------------------


class PlaySearch:
    """Minimax over the rest of the play for one full deal of ranks.

    Values are points pegged by ``team`` minus points pegged by the others
    (each of them minimises it: a paranoid search, exact for two sides). When
    ``scores`` and ``target`` are given, reaching the target mid-play is worth
    ``win_bonus`` (playing to the board: pegging out wins before the show).
    ``single_series``: five-card cribbage, whose play ends with the first go or 31.
    """

    def __init__(self, players: int, team_of: Sequence[int], team: int, depth: int = 99,
                 scores: Sequence[int] | None = None, target: int = 121,
                 win_bonus: int = 0, single_series: bool = False) -> None:
        self.players = players
        self.team_of = team_of
        self.team = team
        self.depth = depth
        self.memo: dict[tuple[Any, ...], int] = {}
        self.scores = scores
        self.target = target
        self.win_bonus = win_bonus
        self.single_series = single_series

    def value(self, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], turn: int,
              gone: int, last: int, depth: int, gained: tuple[int, int] = (0, 0)) -> int:
        """Best value from here: ``turn`` to act, ``gone`` a bitmask of seats that said go."""
        if depth <= 0:
            return 0
        key = (hands, pile, turn, gone, last, gained)
        if key in self.memo:
            return self.memo[key]
        count = sum(value_of(r) for r in pile)
        mine = self.team_of[turn] == self.team
        best: int | None = None
        for rank in set(hands[turn]):
            if count + value_of(rank) > MAX_COUNT:
                continue
            result = self.after_card(hands, pile, turn, gone, rank, count, depth, gained)
            if best is None or (result > best if mine else result < best):
                best = result
        if best is None:  # no card fits: this seat says go
            best = self.next_turn(hands, pile, count, turn, gone | (1 << turn), last, depth,
                                  gained)
        self.memo[key] = best
        return best

    def after_card(self, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], seat: int,
                   gone: int, rank: int, count: int, depth: int,
                   gained: tuple[int, int]) -> int:
        """Value of ``seat`` laying ``rank`` now, points included."""
        new_hands, new_pile, new_count, points = lay(hands, pile, seat, rank, count)
        gained, bonus = self.credit(seat, points, gained)
        if bonus:
            return bonus
        sign = 1 if self.team_of[seat] == self.team else -1
        return sign * points + self.next_turn(new_hands, new_pile, new_count, seat, gone, seat,
                                              depth - 1, gained)

    def credit(self, seat: int, points: int,
               gained: tuple[int, int]) -> tuple[tuple[int, int], int]:
        """Track points when playing to the board; a win returns its bonus."""
        if not self.win_bonus or not points:
            return gained, 0
        ours = self.team_of[seat] == self.team
        gained = (gained[0] + points, gained[1]) if ours else (gained[0], gained[1] + points)
        assert self.scores is not None
        if ours and self.scores[self.team] + gained[0] >= self.target:
            return gained, self.win_bonus
        if not ours and self.scores[self.team_of[seat]] + gained[1] >= self.target:
            return gained, -self.win_bonus
        return gained, 0

    def next_turn(self, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], count: int,
                  actor: int, gone: int, last: int, depth: int, gained: tuple[int, int]) -> int:
        """Pass the turn as the engine does, scoring go / last card at a series' end."""
        n = self.players
        active = [s for s in range(n) if hands[s] and not gone >> s & 1]
        if any(count + value_of(r) <= MAX_COUNT for s in active for r in hands[s]):
            seat = next_in_turn(actor, n, active.__contains__)
            assert seat is not None
            return self.value(hands, pile, seat, gone, last, depth, gained)
        value = 0
        if closing_point(count, not any(hands)) is not None and last >= 0:
            gained, bonus = self.credit(last, 1, gained)
            if bonus:
                return bonus
            value = 1 if self.team_of[last] == self.team else -1
        if not any(hands) or self.single_series:
            return value
        leader = next_in_turn(last, n, lambda seat: bool(hands[seat]))
        assert leader is not None
        return value + self.value(hands, (), leader, 0, -1, depth, gained)


def lay(hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], seat: int, rank: int,
        count: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int]:
    """``seat`` lays a card of ``rank`` in a search: the hands, pile and count after it,
    and the points it pegs (the searches' one step of the play).

    >>> lay(((5, 10), (5,)), (10,), 1, 5, 10)
    (((5, 10), ()), (10, 5), 15, 2)
    """
    hand = list(hands[seat])
    hand.remove(rank)
    new_hands = hands[:seat] + (tuple(hand),) + hands[seat + 1:]
    new_pile = pile + (rank,)
    new_count = count + value_of(rank)
    return new_hands, new_pile, new_count, peg_points(new_pile, new_count)


def search_play(view: PlayerView, rng: random.Random, samples: int, depth: int = 99,
                board: bool = True, sharpness: float = 0.0,
                reading: float = 0.0) -> dict[int, float]:
    """Average search value of each playable rank over ``samples`` sampled deals.

    Our seat plays ``rank`` now; then everyone plays perfectly on the sampled
    cards (perfect-information Monte Carlo). Returns ``{rank: mean value}``.
    """
    rules = view.rules
    team_of = [rules.team_of(s) for s in range(rules.players)]
    pile = tuple(card.rank for card in view.pile)
    count = sum(value_of(r) for r in pile)
    gone = sum(1 << s for s in view.said_go)
    ranks = sorted({c.rank for c in view.hand if count + c.value <= MAX_COUNT})
    near = board and max(view.scores) >= rules.target - 31
    totals = dict.fromkeys(ranks, 0.0)
    for _ in range(samples):
        hands = tuple(sample_plausible_hands(view, rng, sharpness, reading=reading))
        search = PlaySearch(rules.players, team_of, view.team, depth,
                            scores=view.scores if near else None, target=rules.target,
                            win_bonus=100 if near else 0, single_series=rules.single_series)
        for rank in ranks:
            totals[rank] += search.after_card(hands, pile, view.seat, gone, rank, count,
                                              depth, (0, 0))
    return {rank: total / samples for rank, total in totals.items()}


# --- heuristics (standard level, and tie-breaks) ------------------------------------


def reply_risk(view: PlayerView, pile: tuple[int, ...]) -> float:
    """Expected points of the next opponent's best immediate reply to ``pile``.

    Each unseen rank is held by the next player with the probability that a
    random hand of their size from the unseen cards holds at least one.
    """
    nxt = next((view.seat + k) % view.rules.players for k in range(1, view.rules.players))
    if view.rules.team_of(nxt) == view.team:
        return 0.0
    size = view.hand_sizes[nxt]
    if not size:
        return 0.0
    unseen = view.unseen_cards()
    total = len(unseen)
    count = sum(value_of(r) for r in pile)
    by_rank: dict[int, int] = {}
    for card in unseen:
        by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
    replies = []
    for rank, held in by_rank.items():
        if count + value_of(rank) > MAX_COUNT:
            continue
        points = peg_points(pile + (rank,), count + value_of(rank))
        if points:
            chance = 1 - comb(total - held, size) / comb(total, size) if total >= size else 0
            replies.append((points, chance))
    replies.sort(reverse=True)
    expected, none_yet = 0.0, 1.0
    for points, chance in replies:
        expected += none_yet * chance * points
        none_yet *= 1 - chance
    return expected


def heuristic_play_values(view: PlayerView) -> dict[Card, float]:
    """Standard-level value of each legal card: points now minus the risk of the reply.

    Small preferences: do not leave 5 or 21, keep low cards for the go, lead
    low (a lead under five cannot be answered with fifteen).
    """
    pile = tuple(card.rank for card in view.pile)
    count = view.count
    values: dict[Card, float] = {}
    for card in view.hand:
        if count + card.value > MAX_COUNT:
            continue
        after = pile + (card.rank,)
        new_count = count + card.value
        value = peg_points(after, new_count) - reply_risk(view, after)
        if new_count in (5, 21):
            value -= 0.5
        if not pile:
            value += 0.3 if card.value < 5 else 0.0
            value -= 0.2 if card.rank == 5 else 0.0
        else:
            value += 0.02 * card.value  # shed high cards, hold low ones for the go
        values[card] = value
    return values
