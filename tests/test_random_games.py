"""Thousands of random games in every variant, with invariants checked after every move."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage import Game, Rules
from cribbage.cards import full_deck
from cribbage.scoring import MAX_COUNT

VARIANTS = [
    Rules(players=p, target=t, skunk=s, manual_counting=m or g, muggins=m, exact_finish=x,
          manual_pegging=g)
    for p, t, (s, m, x, g) in itertools.product(
        (2, 3, 4), (121, 61),
        [("acc", False, False, False), ("lurch", True, False, False),
         ("none", False, True, False), ("acc", True, True, True), ("lurch", False, False, True)])
]


def check_invariants(game: Game, start_scores: list[int]) -> None:
    """Invariants that hold between any two moves."""
    if game.phase in ("discard", "starter", "play", "peg_count", "count", "muggins"):
        cards = [c for hand in game.hands for c in hand] + game.crib + game.deck
        cards += [card for _, card in game.played]
        cards += [game.starter] if game.starter else []
        assert sorted(cards) == full_deck(), "every card exactly once"
    if game.phase in ("starter", "play", "peg_count", "count", "muggins"):
        assert all(len(kept) == 4 for kept in game.kept) and len(game.crib) == 4
    assert game.count <= MAX_COUNT
    events_total = [start_scores[t] + sum(e.points for e in game.events if e.team == t)
                    for t in range(game.rules.teams)]
    assert game.scores == events_total, "scores are the sum of the events"
    reached = max(game.scores) >= game.rules.target
    assert game.is_over == reached, "the game ends exactly when a target is reached"
    assert max(game.scores) <= game.rules.target, "the peg stops in the game hole"
    assert all(e.worth == e.points + e.refused + e.beyond for e in game.events)


def check_leaders(game: Game) -> None:
    """After each go the player left of the last to lay leads, skipping empty hands."""
    n = game.players
    played: dict[int, int] = {}  # cards laid per seat in the current deal
    events = [e for e in game.events if e.kind in ("deal", "play", "go")]
    for event, following in zip(events, events[1:]):
        if event.kind == "deal":
            played = {}
        elif event.kind == "play":
            played[event.seat] = played.get(event.seat, 0) + 1
        elif following.kind == "play":  # a go, and the next series starts
            holding = [s for s in range(n) if played.get(s, 0) < 4]
            expected = next((event.seat + k) % n for k in range(1, n + 1)
                            if (event.seat + k) % n in holding)
            assert following.seat == expected


def play_random_game(rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, first_dealer=None if seed % 2 else seed % rules.players)
    start = list(game.scores)
    moves = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
        check_invariants(game, start)
        moves += 1
        assert moves < 20000
    check_leaders(game)
    assert game.outcome is not None and game.scores[game.outcome.winner] >= rules.target
    assert game.events[-1].kind == "over"
    return game


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: "-".join(
    str(v) for v in r.to_dict().values()))
def test_random_games_keep_every_invariant(rules):
    for seed in range(34):  # 30 variants x 34 = 1,020 whole games
        play_random_game(rules, seed)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_the_summary_adds_up_to_the_board_and_the_winner_to_the_target(rules, seed):
    game = play_random_game(rules, seed)
    summary = game.view(0).to_dict()["summary"]
    assert summary["sources"] == ["hand", "crib", "pegging", "muggins"]
    for team, (points, by_deal) in enumerate(zip(summary["points"], summary["by_deal"])):
        counted = sum(points[source] for source in summary["sources"])
        assert counted == points["total"] == by_deal[-1] == game.scores[team]
    assert game.scores[game.outcome.winner] == rules.target
    assert list(game.outcome.scores) == game.scores
    last = [e for e in game.events if e.points or e.beyond][-1]
    assert last.team == game.outcome.winner and last.worth == last.points + last.beyond


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_random_legal_games_never_raise_and_replay(rules, seed):
    game = play_random_game(rules, seed)
    replay = Game.new(rules, seed=seed, first_dealer=game.setup["first_dealer"])
    for move in game.moves:
        replay.apply(move)
    assert replay.scores == game.scores and replay.outcome == game.outcome
