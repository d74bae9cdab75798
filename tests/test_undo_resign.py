"""Taking back a move and resigning: the engine (Game.undo, Game.resign), the saves
that record them (checked by check_save) and the protocol's ``undo`` and ``resign``."""

from __future__ import annotations

import json

import pytest

from cribbage import Game
from cribbage.game import GameStateError, IllegalMoveError
from cribbage.protocol import Session


def to_human_play(seed: int = 11) -> Game:
    """A two-player game where seat 0 has discarded and made a real choice in the play."""
    game = Game.new(seed=seed, first_dealer=1)
    for _ in range(400):
        if game.current_player == 0 and game.phase == "play" and len(game.legal_moves()) > 1:
            played = sum(1 for index, seat, _ in game.decisions if seat == 0)
            if played >= 2:  # the discard and one play
                return game
        game.apply(game.legal_moves()[0])
    raise AssertionError("never reached a choice in the play")


def test_undo_goes_back_to_the_last_choice_and_is_recorded() -> None:
    game = to_human_play()
    before = list(game.moves)
    game.apply(game.legal_moves()[-1])
    while game.current_player != 0 and game.phase == "play":
        game.apply(game.legal_moves()[0])  # the computer answers
    back = game.undo(0)
    assert back.moves == before and back.setup["undos"] == 1
    assert back.current_player == 0 and back.phase == "play"
    again = back.undo(0).undo(0)  # then the first play, then the discard
    assert again.phase == "discard" and again.setup["undos"] == 3
    with pytest.raises(IllegalMoveError):
        again.undo(0)  # nothing left in this deal
    loaded = Game.from_json(again.to_json())
    assert loaded.setup["undos"] == 3 and loaded.moves == again.moves


def test_undo_never_reaches_into_an_earlier_deal() -> None:
    game = Game.new(seed=4, first_dealer=0)
    while game.deal_number < 2:
        game.apply(game.legal_moves()[0])
    assert game.phase == "discard" and game.undo_point(0) is None
    assert game.undo_point(1) is None


def test_forced_moves_are_not_choices() -> None:
    game = Game.new(seed=9)  # the players cut for the deal: a forced move each
    game.apply("cut")
    assert game.decisions == [] and game.undo_point(0) is None


def test_resign_ends_the_game_as_a_loss_and_survives_a_reload() -> None:
    game = to_human_play(5)
    game.resign(0)
    assert game.phase == "over" and game.outcome is not None
    assert game.outcome.winner == 1 and game.outcome.kind == "resign"
    assert [event.kind for event in game.events[-2:]] == ["resign", "over"]
    loaded = Game.from_json(game.to_json())
    assert loaded.outcome == game.outcome and loaded.setup["resigned"] == 0
    with pytest.raises(IllegalMoveError):
        loaded.resign(1)


def test_resigning_in_a_team_game_hands_the_win_to_the_other_team() -> None:
    from cribbage.rules import Rules

    game = Game.new(Rules(players=4), seed=3, first_dealer=0)
    game.resign(2)  # the human's partner's side is team 0
    assert game.outcome is not None and game.outcome.winner == 1


@pytest.mark.parametrize("setup_change", [
    {"undos": 0}, {"undos": "1"}, {"undos": True}, {"resigned": 5}, {"resigned": "0"},
])
def test_bad_undo_and_resign_records_are_refused(setup_change: dict) -> None:
    data = Game.new(seed=1, first_dealer=0).to_dict()
    data["setup"] = dict(data["setup"], **setup_change)
    with pytest.raises(GameStateError):
        Game.from_dict(data)


def test_a_resignation_after_the_game_ended_is_a_corrupt_save() -> None:
    game = Game.new(seed=2, first_dealer=0)
    while game.phase != "over":
        game.apply(game.legal_moves()[0])
    data = game.to_dict()
    data["setup"] = dict(data["setup"], resigned=0)
    with pytest.raises(GameStateError):
        Game.from_dict(data)


def call(session: Session, name: str, payload: object) -> dict:
    return json.loads(session.call(name, json.dumps(payload)))


def test_the_protocol_takes_back_and_resigns() -> None:
    session = Session()
    start = call(session, "new_game", {"seed": 11, "first_dealer": 1, "seat": 0})["result"]
    assert start["can_undo"] is False and start["undos"] == 0
    assert call(session, "undo", {"seat": 0})["error"]["kind"] == "illegal-move"
    move = start["view"]["legal_moves"][0]
    after = call(session, "apply_move", {"move": move, "seat": 0})["result"]
    assert after["can_undo"] is True
    back = call(session, "undo", {"seat": 0, "proof": True})["result"]
    assert back["phase"] == "discard" and back["undos"] == 1 and back["can_undo"] is False
    assert json.loads(back["save"])["setup"]["undos"] == 1 and "proof" in back
    assert back["view"]["events_total"] == len(back["view"]["events"])
    over = call(session, "resign", {"seat": 0, "events_from": 0})["result"]
    assert over["phase"] == "over" and over["outcome"]["kind"] == "resign"
    assert over["view"]["outcome"]["winner"] == 1
    assert [event["kind"] for event in over["events"]] == ["resign", "over"]
    assert call(session, "resign", {"seat": 0})["error"]["kind"] == "illegal-move"
    assert call(session, "undo", {})["error"]["kind"] == "bad-request"
