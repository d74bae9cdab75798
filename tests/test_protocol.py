"""The engine's JSON protocol (:mod:`cribbage.protocol`) and the worker's bridge to it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from reference import reference_peg
from test_saves import tampered_saves, with_tamper_examples

from cribbage import Card, Game, protocol
from cribbage.protocol import ENDPOINTS, Session

ROOT = Path(__file__).resolve().parents[1]


session = Session()


def call(name: str, payload: object = None) -> dict:
    return json.loads(session.call(name, json.dumps(payload if payload is not None else {})))


def test_protocol_plays_a_whole_game_and_round_trips_saves() -> None:
    state = call("new_game", {"seed": 5, "first_dealer": 1, "seat": 0})["result"]
    assert state["phase"] == "discard" and state["view"]["seat"] == 0
    legal = call("legal_moves")["result"]
    assert legal["player"] == state["current_player"] and all(
        m.startswith("discard") for m in legal["moves"]
    )
    saved = None
    for number in range(3000):
        result = call("computer_move", {"level": "beginner"})["result"]
        if number == 30:
            saved = call("save")["result"]["save"]
        if result["phase"] == "over":
            break
    assert result["outcome"]["winner"] in (0, 1) and max(result["scores"]) >= 121
    assert call("load", {"save": saved})["result"]["phase"] != "over"
    assert call("save")["result"]["save"] == saved


def count_of(pile: list[tuple[int, str]]) -> int:
    return sum(min(rank, 10) for rank, _ in pile)


def test_apply_move_reports_the_events_it_caused() -> None:
    """Each reply's ``events`` are exactly what its move caused: a discard whose
    cards stay hidden, the starter cut, each card laid with the count and what it
    pegged (checked with the naive scorer of tests/reference.py)."""
    call("new_game", {"seed": 1, "first_dealer": 0})
    game = Game.new(seed=1, first_dealer=0)  # the same game, played alongside
    pile: list[tuple[int, str]] = []
    kinds = []
    while game.deal_number == 1 and game.phase != "over":
        seat, move = game.current_player, call("legal_moves")["result"]["moves"][0]
        before = len(game.events)
        result = call("apply_move", {"move": move})["result"]
        game.apply(move)
        assert result["move"] == move
        assert result["events"] == [event.to_dict() for event in game.events[before:]]
        first = result["events"][0]
        kinds.append(first["kind"])
        assert first["seat"] == seat and first["deal"] == 1
        if move.startswith("discard"):
            assert first["kind"] == "discard" and first["cards"] == []  # not shown to anyone
        elif move == "cut":
            assert first["kind"] == "starter" and first["cards"] == [game.starter.code]
        elif move.startswith("play"):
            card = Card.parse(move.split()[1])
            if count_of(pile) + card.value > 31 or game.events[before - 1].kind == "go":
                pile = []
            pile.append((card.rank, card.suit))
            assert first["kind"] == "play" and first["cards"] == [card.code]
            assert first["count"] == count_of(pile) and first["points"] == reference_peg(pile)
    assert kinds[:3] == ["discard", "discard", "starter"] and kinds.count("play") == 8


@pytest.mark.parametrize(
    ("name", "payload", "kind"),
    [
        ("apply_move", {"move": "play ZZ"}, "illegal-move"),
        ("apply_move", {"move": "dance"}, "illegal-move"),
        ("apply_move", {}, "bad-request"),
        ("load", {"save": "{}"}, "bad-save"),
        ("load", {"save": "not json"}, "bad-save"),
        ("view", {"seat": "north"}, "bad-request"),
        ("computer_move", {"level": "grandmaster"}, "bad-request"),
        ("new_game", {"rules": {"players": 5}}, "bad-request"),
        ("score", {"hand": ["5C"], "starter": "XX"}, "bad-card"),
    ],
)
def test_errors_are_structured_and_change_nothing(name: str, payload: dict, kind: str) -> None:
    call("new_game", {"seed": 9, "first_dealer": 0})
    before = call("save")["result"]["save"]
    reply = call(name, payload)
    assert reply["ok"] is False and reply["error"]["kind"] == kind and reply["error"]["message"]
    assert call("save")["result"]["save"] == before


def test_bad_json_and_internal_errors_still_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert json.loads(session.call("hello", "{oops"))["error"]["kind"] == "bad-request"
    assert json.loads(session.call("hello", "[1]"))["error"]["kind"] == "bad-request"
    assert json.loads(session.call("dance", "{}"))["error"]["kind"] == "bad-request"
    call("new_game", {"seed": 3})
    monkeypatch.setattr(protocol, "game_state", lambda *a: 1 / 0)
    error = call("state")["error"]
    assert error["kind"] == "internal" and "ZeroDivisionError" in error["message"]


def test_one_round_trip_gives_the_view_the_events_and_the_save() -> None:
    call("new_game", {"seed": 6, "first_dealer": 0})
    move = call("legal_moves")["result"]["moves"][0]
    update = call("apply_move", {"move": move, "seat": 1, "events_from": 0, "proof": True})
    result = update["result"]
    assert result["view"]["seat"] == 1 and result["view"]["events_total"] == len(
        result["view"]["events"])
    assert Game.from_json(result["save"]).to_json() == result["save"]
    assert result["proof"]["deal"] == 1
    assert all("text" not in event for event in result["events"])  # data, not words


def test_a_computer_move_is_an_update_too() -> None:
    call("new_game", {"seed": 8, "first_dealer": 1})
    result = call("computer_move", {"level": "standard", "seat": 0, "events_from": 2})["result"]
    assert result["view"]["seat"] == 0 and "save" in result
    assert len(result["view"]["events"]) == result["view"]["events_total"] - 2


def test_hello_names_every_endpoint_and_level() -> None:
    hello = call("hello")["result"]
    assert hello["endpoints"] == list(ENDPOINTS)
    assert hello["levels"] == ["beginner", "easy", "standard", "expert", "master"]


def test_the_bridge_is_thin_and_answers_through_one_session() -> None:
    path = ROOT / "web" / "engine" / "bridge.py"
    assert len(path.read_text(encoding="utf-8").splitlines()) < 40
    spec = importlib.util.spec_from_file_location("bridge", path)
    assert spec and spec.loader
    bridge = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bridge)
    assert bridge.ENDPOINTS == list(ENDPOINTS)
    assert json.loads(bridge.call("new_game", '{"seed": 1}'))["ok"]
    assert json.loads(bridge.call("state"))["result"]["phase"] == "cut"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(save=tampered_saves(moves=80))
@with_tamper_examples
def test_load_answers_a_tampered_save_with_bad_save_and_changes_nothing(save: Any) -> None:
    """The worker's ``load``: a mutated save loads exactly or is a structured
    ``bad-save`` error, and the game in progress stays as it was."""
    session = Session()
    session.call("new_game", json.dumps({"seed": 12, "first_dealer": 0}))
    before = session.call("save")
    reply = json.loads(session.call("load", json.dumps({"save": json.dumps(save), "seat": 0})))
    if reply["ok"]:
        assert json.loads(reply["result"]["save"])["moves"] == save["moves"]
        return
    assert reply["error"]["kind"] == "bad-save", reply
    assert reply["error"]["message"]
    assert session.call("save") == before


@pytest.mark.parametrize("save", [None, 5, ["x"], {"format": "cribbage-game"}])
def test_load_refuses_a_save_that_is_not_text(save: object) -> None:
    session = Session()
    reply = json.loads(session.call("load", json.dumps({"save": save})))
    assert reply["error"]["kind"] == "bad-request"


def test_hand_distribution_is_the_published_one_and_cached() -> None:
    session = Session()
    reply = json.loads(session.call("hand_distribution"))
    assert reply["ok"]
    result = reply["result"]
    assert result["total"] == sum(result["hand"]) == sum(result["crib"]) == 12994800
    assert result["hand"][29] == 4 and result["hand"][0] == 1009008
    assert result["hand"][19] == result["hand"][25] == 0 and len(result["hand"]) == 30
    assert json.loads(Session().call("hand_distribution"))["result"] == result


def test_the_board_before_a_game_is_the_one_its_first_view_gives() -> None:
    session = Session()
    for rules in ({}, {"players": 3, "target": 61}, {"players": 4}, {"cards": 5}):
        board = json.loads(session.call("board", json.dumps({"rules": rules})))["result"]
        view = json.loads(session.call("new_game", json.dumps({"rules": rules, "seat": 0})))
        view = view["result"]["view"]
        assert board == {key: view[key] if key != "target" else view["rules"]["target"]
                         for key in ("target", "teams", "team_of", "skunk_lines")}
    reply = json.loads(session.call("board", json.dumps({"rules": {"players": 9}})))
    assert reply["error"]["kind"] == "bad-request"


def test_the_view_carries_the_skunk_lines() -> None:
    session = Session()
    for rules, lines in (({}, [91, 61]), ({"target": 61}, [31]), ({"skunk": "none"}, [])):
        reply = json.loads(session.call("new_game", json.dumps({"rules": rules, "seat": 0})))
        assert reply["result"]["view"]["skunk_lines"] == lines
