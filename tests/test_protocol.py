"""The engine's JSON protocol (:mod:`cribbage.protocol`) and the worker's bridge to it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from cribbage import Game, protocol
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


def test_apply_move_reports_the_events_it_caused() -> None:
    call("new_game", {"seed": 1, "first_dealer": 0})
    move = call("legal_moves")["result"]["moves"][0]
    result = call("apply_move", {"move": move})["result"]
    assert result["move"] == move and isinstance(result["events"], list)


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
