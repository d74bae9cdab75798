"""CPython tests of the replay viewer's drawing (web/views/replayview.py) on the engine's
own replays: the felt shows a card face up only where the step holds it, each count of
the show is a frame drawn from its event, the scrubber's marks are the game's deals."""

from __future__ import annotations

import doctest
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from pegboard_js import board

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


def played(seed: int, moves: int | None, manual: bool = False, players: int = 2) -> Game:
    game = Game.new(Rules(players=players, target=61, manual_counting=manual), seed=seed)
    computers = [make_player("standard", seed=seat) for seat in range(players)]
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


def face_up(steps: dict[str, Any], index: int) -> tuple[set[str], int]:
    """What the felt of a step must show face up, and how many cards face down: the
    viewer's own hand (its kept cards once played out), any hand or crib laid out in
    the show, the pile and the starter; every hand and the crib once the game is over
    (``revealed``); the cards cut for the first deal."""
    step = steps["steps"][index]
    view, revealed = step["view"], step.get("revealed")
    up = set(view["pile"]) | ({view["starter"]} if view["starter"] else set())
    if view["phase"] == "cut" or any(e["kind"] == "cut" for e in view["events"]):
        cuts = {e["seat"]: e["cards"][0] for s in steps["steps"][:index + 1]
                for e in s["view"]["events"] if e["kind"] == "cut"}  # a tie cuts again
        up |= set(cuts.values())
    down = 0
    for seat in range(steps["players"]):
        hand = view["shown"].get(f"hand:{seat}")
        if hand is None and seat == steps["seat"]:
            played_out = view["phase"] == "play" and not view["hand"]
            hand = view["kept"] if played_out or view["phase"] in ("count", "muggins") \
                else view["hand"]
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


GAMES = [(1, 30, False, 2), (2, None, False, 2), (4, 60, True, 2), (5, 70, False, 3),
         (6, None, False, 4)]


@pytest.mark.parametrize("seed, moves, manual, players", GAMES)
def test_the_felt_shows_exactly_what_the_step_holds(seed: int, moves: int | None,
                                                    manual: bool, players: int) -> None:
    """A step's own frame shows what its view holds; a count of the show shows no card
    but the counts' (public once counted), the starter and what the felt showed before."""
    game = played(seed, moves, manual, players)
    steps = replay(game, 0)
    shown = replayview.Replayed(WORDS, steps)
    assert steps["steps"][replayview.Replayed.opening_of(steps)]["view"]["phase"] == "discard"
    assert shown.frame_of(shown.step(shown.opening())) == shown.opening()
    for frame, (index, show) in enumerate(shown.frames):
        felt = shown.felt_html(frame)
        view = steps["steps"][index]["view"]
        if show is None:
            up, down = face_up(steps, index)
            assert faces(felt) == up, frame
            assert felt.count('class="card back"') == down, frame
            assert shown.parts(frame)[".replay-show"] == ""
            continue
        event = view["events"][show]
        counts = [e for e in view["events"][:show + 1] if e["kind"] in ("hand", "crib")]
        before, _ = face_up(steps, index - 1)
        allowed = before | {code for e in counts for code in e["cards"]} | {shown.starter(frame)}
        assert faces(felt) <= allowed, frame
        stage = shown.parts(frame)[".replay-show"]
        assert faces(stage) == set(event["cards"]) | {shown.starter(frame)}, frame
        assert f'data-points="{event["worth"]}"' in stage
        for item in event["items"]:  # the engine's items, one chip each
            assert shell.escape(shell.i18n.item_text(item, "en")) in stage


@pytest.mark.parametrize("seed, moves, manual, players", GAMES)
def test_every_event_is_said_once_and_every_frame_has_a_caption(
        seed: int, moves: int | None, manual: bool, players: int) -> None:
    game = played(seed, moves, manual, players)
    steps = replay(game, 0)
    for lang in ("en", "es", "ja"):
        shown = replayview.Replayed(shell.Words(lang), steps)
        said: dict[int, list[str]] = {}
        for frame, (index, _) in enumerate(shown.frames):
            caption = shown.caption(frame)
            assert caption and "replay." not in caption, (frame, lang, caption)
            said.setdefault(index, []).extend(shown.events(frame))
            assert 'class="pegboard"' in board(f"B.boardSvg({json.dumps(shown.board_options())})")
        for index, step in enumerate(steps["steps"]):
            events = [e for e in step["view"]["events"] if e["kind"] not in ("hand", "crib")]
            lines = [shell.i18n.event_text(e, lang, shown.names, 0) for e in events]
            assert said[index] == lines, (index, lang)
            if lang != "en":
                continue
            for event, item in zip(events, said[index]):
                if event["kind"] in ("play", "starter"):
                    assert glyph(event["cards"][0]) in item, (event, item)
                if event["kind"] == "play":
                    assert f"— {event['count']}" in item, (event, item)
                if event["kind"] == "play":  # each item with its points
                    assert all(str(i["points"]) in item for i in event["items"]), (event, item)
                elif event["worth"]:  # what was counted, pegged or not
                    assert str(event["worth"]) in item, (event, item)
    assert ("revealed" in steps["steps"][-1]) is game.is_over


@pytest.mark.parametrize("seed, moves, manual, players", GAMES)
def test_the_marks_are_the_deals_and_the_pegs_follow_the_scores(
        seed: int, moves: int | None, manual: bool, players: int) -> None:
    game = played(seed, moves, manual, players)
    steps = replay(game, 0)
    shown = replayview.Replayed(WORDS, steps)
    deals = sorted({step["view"]["deal_number"] for step in steps["steps"]} - {0})  # 0: the cut
    assert [deal for deal, _ in shown.marks] == deals
    for deal, frame in shown.marks:  # a mark is where its deal begins, dealt
        assert shown.deal(frame) == deal and shown.counted(frame) is None
        assert frame == 0 or shown.deal(frame - 1) == deal - 1
    assert 'data-action="deal"' in shown.marks_html()
    for frame, (index, show) in enumerate(shown.frames):
        scores = shown.scores[frame]
        if show is None:
            assert scores == steps["steps"][index]["view"]["scores"]
        else:  # between the scores before the move and after it, climbing
            old = steps["steps"][index - 1]["view"]["scores"]
            new = steps["steps"][index]["view"]["scores"]
            assert all(a <= s <= b for a, s, b in zip(old, scores, new)), frame
            assert all(p <= s for p, s in zip(shown.scores[frame - 1], scores)), frame
    pegs = board(f"B.pegsAlong({json.dumps(shown.scores)})")  # as the page places them
    for frame, scores in enumerate(shown.scores):
        assert [front for front, _ in pegs[frame]] == scores


def test_a_game_in_progress_shows_no_hidden_card_in_any_frame() -> None:
    """Seat 1's cards appear in seat 0's frames only where the engine showed them:
    laid on the pile, counted in the show, or cut."""
    game = played(7, 45)
    assert not game.is_over
    steps = replay(game, 0)
    shown = replayview.Replayed(WORDS, steps)
    assert any(show is not None for _, show in shown.frames)  # shows counted among them
    public: set[str] = set()
    for frame, (index, _) in enumerate(shown.frames):
        view = steps["steps"][index]["view"]
        public |= {code for event in view["events"] for code in event["cards"]}
        public |= set(view["hand"]) | set(view["kept"]) | set(view["discards"])
        public |= {view["starter"]} if view["starter"] else set()
        assert faces(shown.felt_html(frame)) <= public, frame


def test_names_of_a_shared_game_are_seats() -> None:
    steps = replay(played(3, 10), 1)
    shown = replayview.Replayed(WORDS, steps, own=False)
    assert shown.names == ["Seat 1", "Seat 2"]
    assert "Seat 2" in shown.parts(0)[".you"]  # the viewer's own panel
