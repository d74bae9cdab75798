"""Pass-and-play in the protocol: the session's viewer seat changes by ``hand_off``."""

from __future__ import annotations

import json
from typing import Any

from cribbage import Game
from cribbage.protocol import Session


def call(session: Session, name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = json.loads(session.call(name, json.dumps(payload or {})))
    return reply


def result(session: Session, name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = call(session, name, payload)
    assert reply["ok"], reply
    return reply["result"]


def test_hand_off_changes_the_viewer_and_answers_with_that_seats_view_only() -> None:
    session = Session()
    start = result(session, "new_game", {"seed": 5, "first_dealer": 0, "seat": 0})
    game = Game.from_json(start["save"])
    assert session.viewer == 0
    passed = result(session, "hand_off", {"seat": 1, "events_from": start["view"]["events_total"]})
    assert session.viewer == 1
    view = passed["view"]
    assert view["seat"] == 1 and view["events"] == []
    assert view["hand"] == Game.from_json(passed["save"]).view(1).to_dict()["hand"]
    text = json.dumps(passed)
    for card in game.hands[0]:  # seat 0's cards are nowhere in seat 1's reply
        assert f'"{card.code}"' not in text


def test_moves_without_a_seat_answer_with_the_viewers_view() -> None:
    session = Session()
    result(session, "new_game", {"seed": 5, "first_dealer": 0, "seat": 0})
    to_move = result(session, "state")["current_player"]
    result(session, "hand_off", {"seat": to_move})
    move = result(session, "legal_moves")["moves"][0]
    update = result(session, "apply_move", {"move": move})
    assert update["view"]["seat"] == to_move and "can_undo" in update
    other = 1 - to_move
    result(session, "hand_off", {"seat": other})
    update = result(session, "computer_move", {"level": "easy"})
    assert update["view"]["seat"] == other
    explicit = result(session, "computer_move", {"level": "easy", "seat": to_move})
    assert explicit["view"]["seat"] == to_move and session.viewer == other


def test_a_bad_hand_off_changes_nothing() -> None:
    session = Session()
    assert call(session, "hand_off", {"seat": 0})["error"]["kind"] == "no-game"
    result(session, "new_game", {"seed": 5, "first_dealer": 0, "seat": 1})
    for payload in ({"seat": 2}, {"seat": "0"}, {}, {"seat": 0, "events_from": -1}):
        assert call(session, "hand_off", payload)["error"]["kind"] == "bad-request"
        assert session.viewer == 1
    assert call(session, "new_game", {"seed": 5, "seat": 7})["error"]["kind"] == "bad-request"
    assert session.viewer == 1


def test_a_new_game_or_load_without_a_seat_has_no_viewer() -> None:
    session = Session()
    start = result(session, "new_game", {"seed": 5, "seat": 1})
    assert session.viewer == 1
    update = result(session, "load", {"save": start["save"]})
    assert session.viewer is None and "view" not in update
    update = result(session, "computer_move", {"level": "easy"})
    assert "view" not in update
