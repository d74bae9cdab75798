"""CPython tests of the replay viewer's drawing (web/views/replayview.py) on the engine's
own replays: the felt shows a card face up only where the step holds it."""

from __future__ import annotations

import doctest
import importlib
import re
import sys
from pathlib import Path

import pytest

from cribbage import Game, Rules
from cribbage.players import computer_move, make_player
from cribbage.replay import replay

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views"), str(WEB / "table")]

shell = importlib.import_module("shell")
replayview = importlib.import_module("replayview")
WORDS = shell.Words()


def test_doctests() -> None:
    assert doctest.testmod(replayview, extraglobs={"words": WORDS}).failed == 0


def played(seed: int, moves: int | None) -> Game:
    game = Game.new(Rules(target=61), seed=seed)
    computers = [make_player("standard", seed=seat) for seat in range(2)]
    while not game.is_over and (moves is None or len(game.moves) < moves):
        seat = game.current_player
        assert seat is not None
        legal = game.legal_moves()
        game.apply(legal[0] if len(legal) == 1 else computer_move(computers[seat],
                                                                  game.view(seat)))
    return game


def faces(markup: str) -> set[str]:
    return set(re.findall(r'data-card="([2-9TJQKA][SHDC])"', markup))


@pytest.mark.parametrize("seed, moves", [(1, 30), (2, None)])
def test_the_felt_shows_what_the_step_holds(seed: int, moves: int | None) -> None:
    game = played(seed, moves)
    steps = replay(game, 0)
    names = replayview.seat_names(WORDS, steps, own=True)
    for index, step in enumerate(steps["steps"]):
        felt = replayview.felt_html(WORDS, steps, index, names)
        view = step["view"]
        public = set(view["hand"]) | set(view["pile"]) | {view["starter"]} | {
            card for cards in view["shown"].values() for card in cards}
        if "revealed" in step:
            public |= {c for hand in step["revealed"]["hands"] for c in hand}
            public |= set(step["revealed"]["crib"])
        assert faces(felt) <= public, index
        assert 'class="pegboard"' in replayview.board_html(WORDS, steps, index, names)
        replayview.events_html(WORDS, steps, index, names)
    assert ("revealed" in steps["steps"][-1]) is game.is_over


def test_names_of_a_shared_game_are_seats() -> None:
    steps = replay(played(3, 10), 1)
    assert replayview.seat_names(WORDS, steps, own=False) == ["Seat 1", "Seat 2"]
