"""CPython tests of the replay viewer's drawing (web/views/replayview.py) on the engine's
own replays: the felt shows a card face up only where the step holds it."""

from __future__ import annotations

import doctest
import importlib
import json
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
for code in ("en", "es", "ja"):  # the replay page's own words (the build merges them in)
    shell.i18n.install(code, json.loads((WEB / "lang" / f"replay.{code}.json").read_text()))
WORDS = shell.Words()


def test_doctests() -> None:
    assert doctest.testmod(replayview, extraglobs={"words": WORDS}).failed == 0


def played(seed: int, moves: int | None, manual: bool = False) -> Game:
    game = Game.new(Rules(target=61, manual_counting=manual), seed=seed)
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


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def glyph(code: str) -> str:
    """A card as the log writes it: ``5♠``, ``10♦``."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def face_up(steps: dict, index: int) -> tuple[set[str], int]:
    """What the felt of a step must show face up, and how many cards face down: the
    viewer's own hand, any hand or crib laid out in the show, the pile and the
    starter; every hand and the crib once the game is over (``revealed``)."""
    step = steps["steps"][index]
    view, revealed = step["view"], step.get("revealed")
    up = set(view["pile"]) | ({view["starter"]} if view["starter"] else set())
    down = 0
    for seat in range(steps["players"]):
        hand = view["shown"].get(f"hand:{seat}")
        if hand is None and seat == steps["seat"]:
            hand = view["hand"]
        if hand is None and revealed is not None:
            hand = revealed["hands"][seat]
        if hand is None:
            down += view["hand_sizes"][seat]
        up |= set(hand or [])
    crib = view["shown"].get("crib") or (revealed["crib"] if revealed else None)
    if crib:
        up |= set(crib)
    else:
        down += min(view["crib_size"], 4)
    return up, down


@pytest.mark.parametrize("seed, moves, manual", [(1, 30, False), (2, None, False),
                                                 (4, 60, True)])
def test_the_felt_shows_exactly_what_the_step_holds(seed: int, moves: int | None,
                                                    manual: bool) -> None:
    """Manual counting lays each hand and the crib out while it is counted."""
    game = played(seed, moves, manual)
    steps = replay(game, 0)
    names = replayview.seat_names(WORDS, steps, own=True)
    assert steps["steps"][replayview.opening(steps)]["view"]["phase"] == "discard"
    for index, step in enumerate(steps["steps"]):
        felt = replayview.felt_html(WORDS, steps, index, names)
        up, down = face_up(steps, index)
        assert faces(felt) == up, index
        assert felt.count('class="card back"') == down, index
        assert 'class="pegboard"' in replayview.board_html(WORDS, steps, index, names)
        for lang in ("en", "es", "ja"):  # every phase has its caption, in every language
            caption = replayview.caption_text(shell.Words(lang), steps, index, names)
            assert caption and "replay.caption" not in caption, (index, lang, caption)
        events = step["view"]["events"]
        items = re.findall(r"<li>(.*?)</li>",
                           replayview.events_html(WORDS, steps, index, names))
        assert len(items) == max(1, len(events)), index
        for event, item in zip(events, items):
            if event["kind"] in ("play", "starter"):
                assert glyph(event["cards"][0]) in item, (event, item)
            if event["kind"] == "play":
                assert f"— {event['count']}" in item, (event, item)
            if event["worth"]:  # what was counted, pegged or not
                assert str(event["worth"]) in item, (event, item)
    assert ("revealed" in steps["steps"][-1]) is game.is_over


def test_names_of_a_shared_game_are_seats() -> None:
    steps = replay(played(3, 10), 1)
    assert replayview.seat_names(WORDS, steps, own=False) == ["Seat 1", "Seat 2"]
