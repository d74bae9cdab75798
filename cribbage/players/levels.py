"""The four computer levels: beginner, easy, standard and expert.

Each is a real strategy that decides from its :class:`~cribbage.view.PlayerView`
only. ``seed`` makes a player's own random choices repeatable.

>>> from cribbage.game import Game
>>> game = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
...                      starter="5H")
>>> [c.code for c in Expert().discard(game.view(1))]
['TS', 'KC']
"""

from __future__ import annotations

import random
from itertools import combinations

from ..cards import Card
from ..moves import Claim
from ..scoring import MAX_COUNT, score_hand, score_peg
from ..view import PlayerView
from .discard import rank_discards
from .pegging import heuristic_play_values, search_play, value_of


class ComputerPlayer:
    """Shared parts: a private random source, manual counting and muggins.

    ``miss_nobs``/``miss_fifteen``: chance of overlooking nobs or one fifteen
    when counting by hand; ``miss_peg``: chance of overlooking one scoring
    item of a card laid in the play (manual pegging); ``notice``: chance of
    seeing an opponent's under-count. Every level calls an over-claim it sees.
    """

    level = "computer"
    miss_nobs = 0.0
    miss_fifteen = 0.0
    miss_peg = 0.0
    notice = 1.0

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def discard(self, view: PlayerView) -> list[Card]:
        raise NotImplementedError

    def play(self, view: PlayerView) -> Card:
        raise NotImplementedError

    def count(self, view: PlayerView) -> int:
        """The total this player claims for the hand or crib being counted."""
        cards, is_crib = counted_cards(view)
        assert view.starter is not None
        score = score_hand(cards, view.starter, crib=is_crib)
        claimed = score.total
        kinds = [item.kind for item in score.items]
        if "nobs" in kinds and self.rng.random() < self.miss_nobs:
            claimed -= 1
        if "fifteen" in kinds and self.rng.random() < self.miss_fifteen:
            claimed -= 2
        return claimed

    def peg_count(self, view: PlayerView) -> int:
        """The points this player claims for the card it just laid (manual pegging)."""
        score = score_peg(view.pile)
        claimed = score.total
        if score.items and self.rng.random() < self.miss_peg:
            claimed -= self.rng.choice(score.items).points
        return claimed

    def muggins(self, view: PlayerView) -> bool:
        """Call muggins on any over-claim, and on an under-claim we notice."""
        error = claim_error(view)
        return error < 0 or (error > 0 and self.rng.random() < self.notice)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def counted_cards(view: PlayerView) -> tuple[tuple[Card, ...], bool]:
    """The hand (or crib) this seat is asked to count now, and whether it is the crib."""
    if view.claim is not None and view.claim.what != "play":
        return view.claim.cards, view.claim.what == "crib"
    if view.is_dealer and "crib" in view.shown:
        return view.shown["crib"], True
    return view.kept, False


def claim_worth(view: PlayerView, claim: Claim) -> int:
    """The true worth of a claim, from public cards: the pile, or the shown hand and starter."""
    if claim.what == "play":
        return score_peg(view.pile).total
    assert view.starter is not None
    return score_hand(claim.cards, view.starter, crib=claim.what == "crib").total


def claim_error(view: PlayerView) -> int:
    """The claim being settled, checked: its true worth minus what was claimed
    (> 0: points missed, < 0: an over-claim, 0: right, or no claim)."""
    claim = view.claim
    if claim is None or claim.claimed is None:
        return 0
    return claim_worth(view, claim) - claim.claimed


def missed_points(view: PlayerView) -> int:
    """Points the claim being settled missed (0 for a right or an over-claim)."""
    return max(claim_error(view), 0)


class Beginner(ComputerPlayer):
    """Random discards and random legal cards: a gentle opponent who miscounts often."""

    level = "beginner"
    miss_nobs, miss_fifteen, miss_peg, notice = 0.5, 0.3, 0.3, 0.3

    def discard(self, view: PlayerView) -> list[Card]:
        return self.rng.sample(list(view.hand), view.rules.discards_each)

    def play(self, view: PlayerView) -> Card:
        return self.rng.choice(playable(view))


class Easy(ComputerPlayer):
    """Greedy: keeps the cards that score most on their own, pegs for points now."""

    level = "easy"
    miss_nobs, miss_fifteen, miss_peg, notice = 0.2, 0.1, 0.1, 0.6

    def discard(self, view: PlayerView) -> list[Card]:
        hand = list(view.hand)
        best = max(combinations(hand, len(hand) - view.rules.discards_each),
                   key=lambda kept: (kept_points(kept), -sum(c.value for c in kept)))
        return [card for card in hand if card not in best]

    def play(self, view: PlayerView) -> Card:
        values = {card: points_now(view, card) for card in playable(view)}
        return max(values, key=lambda card: (values[card], card.value))


class Standard(ComputerPlayer):
    """Discards by the exact expected hand over every starter; pegs by heuristics."""

    level = "standard"
    miss_nobs, miss_fifteen, miss_peg, notice = 0.05, 0.02, 0.03, 0.9

    def discard(self, view: PlayerView) -> list[Card]:
        return list(rank_discards(view, use_crib=False)[0].discard)

    def play(self, view: PlayerView) -> Card:
        values = heuristic_play_values(view)
        return max(values, key=lambda card: (values[card], -card.index))


class Expert(ComputerPlayer):
    """Hand + crib expectation for discards; pegging by look-ahead over sampled hands.

    ``samples`` sampled deals of the others' cards are searched to the end of
    the play (2 players) or ``depth`` cards ahead (3-4 players). The samples
    are weighted by how the others discarded (``sharpness``: a kept four that
    a hand-plus-crib player would not keep is rejected with probability
    ``1 - exp(-sharpness * regret)``), and the search value is added to
    ``heuristic_weight`` times the standard level's value (points now minus
    the expected reply), which measured better than either alone. Near the
    target, pegging out is worth a win.
    """

    level = "expert"
    samples = 24
    heuristic_weight = 1.0
    sharpness = 3.0
    reading = 0.0  # the others' plays read too (pegging.sample_plausible_hands): off

    def discard(self, view: PlayerView) -> list[Card]:
        return list(rank_discards(view, use_crib=True)[0].discard)

    def samples_for(self, view: PlayerView) -> int:
        """Fewer sampled deals when many cards are left, to bound the time per move."""
        return search_size(view, self.samples)

    def play(self, view: PlayerView) -> Card:
        cards = playable(view)
        if len(cards) == 1:
            return cards[0]
        values = play_values(view, self.rng, self.samples_for(view), self)
        return max(values, key=lambda card: (values[card], -card.index))


def search_size(view: PlayerView, full: int) -> int:
    """The expert's sampled deals for a play: ``full`` once few cards are left."""
    left = sum(view.hand_sizes)
    if view.rules.players == 2:
        return 8 if left >= 8 else 12 if left == 7 else full
    return 8 if left >= 14 else 12 if left >= 10 else full


def play_values(view: PlayerView, rng: random.Random, samples: int,
                player: Expert | None = None) -> dict[Card, float]:
    """Expert value of each legal card: search value plus the weighted heuristic."""
    search, heuristic, weight = play_parts(view, rng, samples, player)
    return {card: search[card] + weight * heuristic[card] for card in heuristic}


def play_parts(view: PlayerView, rng: random.Random, samples: int,
               player: Expert | None = None
               ) -> tuple[dict[Card, float], dict[Card, float], float]:
    """The two parts of the expert's play value and the heuristic's weight.

    ``search``: mean pegging difference over the rest of the play on sampled
    deals; ``heuristic``: the standard level's value (points now minus the
    expected reply, shape preferences). The expert plays the card with the
    largest ``search + weight * heuristic``: the sampled search sees each
    deal with open cards, the heuristic the uncertainty the real player faces.
    """
    model = Expert if player is None else player
    depth = 99 if view.rules.players == 2 else 5
    by_rank = search_play(view, rng, samples, depth, sharpness=model.sharpness,
                          reading=model.reading)
    weight = model.heuristic_weight
    heuristic = heuristic_play_values(view)
    search = {card: by_rank[card.rank] for card in heuristic}
    return search, heuristic, weight


def playable(view: PlayerView) -> list[Card]:
    """Cards in hand that fit under 31."""
    return [card for card in view.hand if view.count + card.value <= MAX_COUNT]


def points_now(view: PlayerView, card: Card) -> int:
    """What laying ``card`` pegs at once."""
    from .pegging import peg_points

    pile = tuple(c.rank for c in view.pile) + (card.rank,)
    return peg_points(pile, view.count + card.value)


def kept_points(cards: tuple[Card, ...]) -> int:
    """Fifteens, pairs, runs and a flush of kept cards (3, 4 or 5) without a starter.

    >>> from cribbage.cards import parse_cards
    >>> kept_points(tuple(parse_cards("5S 5H TD JC"))), kept_points(tuple(parse_cards("5S TS KS")))
    (10, 7)
    """
    points = 0
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            points += 2 * (sum(c.value for c in combo) == 15)
    points += sum(2 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for size in range(len(cards), 2, -1):
        runs = sum(1 for combo in combinations(cards, size) if is_run(combo))
        if runs:
            points += runs * size
            break
    if len({c.suit for c in cards}) == 1:
        points += len(cards)
    return points


def is_run(cards: tuple[Card, ...]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


__all__ = ["Beginner", "ComputerPlayer", "Easy", "Expert", "Standard", "claim_error",
           "claim_worth", "value_of"]
