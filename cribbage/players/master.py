"""The master level: the expert's judgement, played for the win near the end of a game.

Far from the end, winning is scoring more, and the master plays as the
expert does, with a larger search in the play (``samples``: sampled deals
of the unseen cards; the expert's sampling noise measurably cost it games)
on sampled hands that read the opponent more closely: its discard more
sharply (``sharpness``) and its plays this deal too (``reading``: a hand
with which a card it laid passed up points at once is unlikely).
Once either side is within ``reach`` points of the target (and there are
win tables for the game: 2 players, to 121 or 61), every choice is judged
by the chance to win (:mod:`cribbage.players.winprob`):

- **Discard**: for each way to lay away and each unseen starter, the exact
  points of the kept hand (plus, as dealer, the crib: the crib table's mean
  for that starter, spread like a typical crib) are read on the curve of
  "chance to win given my show" for this board position (the pegging and the
  opponent's show drawn from the measured distributions, the pone counting
  first). As pone, the crib the choice gives the dealer is charged at the
  board's price of a point. The master keeps the expert's discard unless
  another wins more often by a clear margin (``margin``).
- **Play**: the opponent's hand is sampled from the unseen cards,
  consistent with its goes, its discard and its plays (as above), and the
  rest of the play is searched on each sample by minimax on the chance to
  win: pegging out wins at once; when the cards are all played the show is
  settled in order (pone's hand, dealer's hand, crib, the sampled hand
  counted exactly on ranks, the crib by its table mean) and an unfinished
  game is worth the table's chance from the next deal. The expert's
  heuristic (points now minus the reply), converted to win chance at the
  board's price of a point, breaks near ties.

With 3 or 4 players, and in five- and seven-card cribbage (the tables are
measured on six-card deals), there are no tables: the master plays exactly as
the expert. Decisions use only the master's :class:`~cribbage.view.PlayerView`
and its own seeded random source.

>>> from cribbage.game import Game
>>> game = Game.scripted(dealer=0, hands=["5S 5H 2S 8D 6H KC", "TS 6D JH 4H 9C 7C"],
...                      starter="5D", scores=(0, 117))
>>> [c.code for c in Master(1).discard(game.view(1))] != []
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card, full_deck
from ..play import closing_point, next_in_turn
from ..scoring import MAX_COUNT, hand_points, rank_points
from ..view import PlayerView
from . import winprob
from .discard import DiscardChoice, crib_value, rank_discards
from .levels import Expert, play_values, playable, search_size
from .pegging import (
    heuristic_play_values,
    lay,
    sample_plausible_hands,
    value_of,
)


@dataclass(frozen=True)
class WinChoice:
    """A discard with the expert's expected points and the master's chance to win."""

    choice: DiscardChoice
    win: float


class Master(Expert):
    """Plays to win: win-probability discards and pegging search near the end.

    Where there are win tables (2 players, six-card) it also searches more
    sampled deals than the expert throughout the play (``samples``,
    ``win_samples``): the search's sampling noise cost games
    (``bench/ai_master.py``; docs/ai.md, "Figures"). Its samples follow the
    opponent's discard and plays more closely (``sharpness``, ``reading``).
    """

    level = "master"
    reach = 45          # within this many points of the target, play for the win
    margin = 0.002      # a discard must win this much more often to overrule the expert
    samples = 64        # the expert's 24
    win_samples = 64
    sharpness = 8.0     # the expert's 3: the opponent's discard read more sharply
    reading = 1.0       # and its plays too (pegging.sample_plausible_hands)

    def discard(self, view: PlayerView) -> list[Card]:
        if not plays_for_win(view, self.reach):
            return super().discard(view)
        ranked = rank_discards_for_win(view)
        expert = max(ranked, key=lambda w: w.choice.net)
        best = max(ranked, key=lambda w: w.win)
        chosen = best if best.win > expert.win + self.margin else expert
        return list(chosen.choice.discard)

    def play(self, view: PlayerView) -> Card:
        cards = playable(view)
        if len(cards) == 1:
            return cards[0]
        if plays_for_win(view, self.reach):
            values = win_play_values(view, self.rng, self.win_samples_for(view), self)
        else:  # without win tables the master reads the others as the expert does (None)
            values = play_values(view, self.rng, self.samples_for(view),
                                 self if has_win_tables(view) else None)
        return max(values, key=lambda card: (values[card], -card.index))

    def samples_for(self, view: PlayerView) -> int:
        """Sampled deals for a play far from the end (the expert's, with win tables)."""
        if not has_win_tables(view):
            return search_size(view, Expert.samples)  # elsewhere the master is the expert
        left = sum(view.hand_sizes)
        return 24 if left >= 8 else 32 if left == 7 else self.samples

    def win_samples_for(self, view: PlayerView) -> int:
        left = sum(view.hand_sizes)
        return 32 if left >= 8 else 48 if left == 7 else self.win_samples


def has_win_tables(view: PlayerView) -> bool:
    """Whether there are win tables for this game (2 players, six-card: the tables are
    measured on six-card deals)."""
    rules = view.rules
    return rules.cards == 6 and winprob.supported(rules.players, rules.target)


def plays_for_win(view: PlayerView, reach: int = Master.reach) -> bool:
    """Whether the board position decides the master's choices (near the end, where
    there are win tables)."""
    return has_win_tables(view) and max(view.scores) + reach >= view.rules.target


def opponent_score(view: PlayerView) -> int:
    return view.scores[1 - view.team]


def rank_discards_for_win(view: PlayerView) -> list[WinChoice]:
    """Every discard with its chance to win (2 players), best first."""
    target = view.rules.target
    me, opp = view.my_score, opponent_score(view)
    dealer = view.is_dealer
    curve = winprob.deal_start_curve(target, me, opp, dealer)
    dist = winprob.tables()["dist"]
    crib_dist = [(k, q) for k, q in enumerate(dist["crib"]) if q]
    crib_mean = winprob.mean_of(dist["crib"])
    hand = list(view.hand)
    seen = set(hand)
    starters = [card for card in full_deck() if card not in seen]
    slope = 0.0
    if not dealer:  # what a point in the dealer's crib costs me, at this board
        slope = max(0.0, (winprob.pegged_win(target, me, opp, False)
                          - winprob.pegged_win(target, me, opp + 4, False)) / 4)

    def on_curve(points: float) -> float:
        low = min(int(points), len(curve) - 2)
        frac = points - low
        return curve[low] * (1 - frac) + curve[low + 1] * frac

    result = []
    for choice in rank_discards(view, use_crib=True):
        total = 0.0
        for starter in starters:
            points = hand_points(choice.kept, starter)
            if dealer:
                crib = crib_value(2, "dealer", choice.discard, starter, hand)
                shift = max(crib - crib_mean, -points)
                total += sum(q * on_curve(max(0.0, points + k + shift)) for k, q in crib_dist)
            else:
                total += curve[min(points, len(curve) - 1)]
        win = total / len(starters)
        if not dealer:
            win -= slope * (choice.crib - crib_mean)
        result.append(WinChoice(choice, min(1.0, max(0.0, win))))
    result.sort(key=lambda w: (-w.win, -w.choice.net))
    return result


class WinSearch:
    """Minimax on my chance to win over the rest of a 2-player play, for one sampled deal.

    ``leaf(mine, theirs)`` is the chance to win when the play ends with those
    points pegged; reaching the target in the play ends the game at once.
    """

    def __init__(self, seat: int, scores: tuple[int, int], target: int,
                 leaf: Callable[[int, int], float]) -> None:
        self.seat = seat
        self.scores = scores
        self.target = target
        self.leaf = leaf
        self.memo: dict[tuple[object, ...], float] = {}

    def value(self, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], turn: int,
              gone: int, last: int, gained: tuple[int, int]) -> float:
        key = (hands, pile, turn, gone, last, gained)
        if key in self.memo:
            return self.memo[key]
        count = sum(value_of(r) for r in pile)
        mine = turn == self.seat
        best: float | None = None
        for rank in set(hands[turn]):
            if count + value_of(rank) > MAX_COUNT:
                continue
            result = self.after_card(hands, pile, turn, gone, rank, count, gained)
            if best is None or (result > best if mine else result < best):
                best = result
        if best is None:
            best = self.next_turn(hands, pile, count, turn, gone | (1 << turn), last, gained)
        self.memo[key] = best
        return best

    def credit(self, seat: int, points: int, gained: tuple[int, int]) -> tuple[int, int]:
        if seat == self.seat:
            return (gained[0] + points, gained[1])
        return (gained[0], gained[1] + points)

    def ended(self, gained: tuple[int, int]) -> float | None:
        if self.scores[0] + gained[0] >= self.target:
            return 1.0
        if self.scores[1] + gained[1] >= self.target:
            return 0.0
        return None

    def after_card(self, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], seat: int,
                   gone: int, rank: int, count: int, gained: tuple[int, int]) -> float:
        new_hands, new_pile, new_count, points = lay(hands, pile, seat, rank, count)
        if points:
            gained = self.credit(seat, points, gained)
            over = self.ended(gained)
            if over is not None:
                return over
        return self.next_turn(new_hands, new_pile, new_count, seat, gone, seat, gained)

    def next_turn(self, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], count: int,
                  actor: int, gone: int, last: int, gained: tuple[int, int]) -> float:
        active = [s for s in range(2) if hands[s] and not gone >> s & 1]
        if any(count + value_of(r) <= MAX_COUNT for s in active for r in hands[s]):
            seat = next_in_turn(actor, 2, active.__contains__)
            assert seat is not None
            return self.value(hands, pile, seat, gone, last, gained)
        if closing_point(count, not any(hands)) is not None and last >= 0:
            gained = self.credit(last, 1, gained)
            over = self.ended(gained)
            if over is not None:
                return over
        if not any(hands):
            return self.leaf(*gained)
        leader = next_in_turn(last, 2, lambda seat: bool(hands[seat]))
        assert leader is not None
        return self.value(hands, (), leader, 0, -1, gained)


def win_play_values(view: PlayerView, rng: random.Random, samples: int,
                    player: Expert | None = None) -> dict[Card, float]:
    """The master's value of each legal card: mean chance to win over sampled deals,
    plus the expert's heuristic priced in win chance (2 players, tables needed).
    The sampled hands follow the opponent's discard and plays as ``player`` reads
    them (its ``sharpness`` and ``reading``; None: the expert's), as in
    :func:`~cribbage.players.levels.play_values`."""
    model = Expert if player is None else player
    rules = view.rules
    target = rules.target
    me, opp = view.my_score, opponent_score(view)
    dealer = view.is_dealer
    other = 1 - view.seat
    assert view.starter is not None
    starter = view.starter
    my_show = float(hand_points(view.kept, starter))
    crib = crib_value(2, "dealer" if dealer else "pone", view.discards, starter,
                      tuple(view.kept) + tuple(view.discards))
    if dealer:
        my_show += crib
    pile = tuple(card.rank for card in view.pile)
    count = sum(value_of(r) for r in pile)
    gone = sum(1 << s for s in view.said_go)
    ranks = sorted({c.rank for c in view.hand if count + c.value <= MAX_COUNT})
    played_by_other = tuple(card.rank for seat, card in view.played if seat == other)
    totals = dict.fromkeys(ranks, 0.0)
    for _ in range(samples):
        hands = tuple(sample_plausible_hands(view, rng, model.sharpness,
                                             reading=model.reading))
        their_four = tuple(sorted(played_by_other + hands[other] + (starter.rank,)))
        their_show = float(rank_points(their_four)) if len(their_four) == 5 else 0.0
        if not dealer:
            their_show += crib

        def leaf(mine: int, theirs: int, their_show: float = their_show) -> float:
            return winprob.show_win(target, me + mine, opp + theirs, dealer, my_show, their_show)

        search = WinSearch(view.seat, (me, opp), target, leaf)
        for rank in ranks:
            totals[rank] += search.after_card(hands, pile, view.seat, gone, rank, count, (0, 0))
    price = max(1e-3, (winprob.pegged_win(target, me + 2, opp, dealer)
                       - winprob.pegged_win(target, me, opp, dealer)) / 2)
    heuristic = heuristic_play_values(view)
    return {card: totals[card.rank] / samples + price * heuristic[card] for card in heuristic}


__all__ = ["Master", "WinChoice", "WinSearch", "plays_for_win", "rank_discards_for_win",
           "win_play_values"]
