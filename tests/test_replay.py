"""Replays and share links: what a viewer may see at each step, and links from strangers.

During a game a replay's steps never hold another seat's hidden cards (checked
on the JSON text the page receives); once the game is over every hand and the
crib are revealed. A share link decodes to the very game it was made from,
and any other text, or a tampered link, is refused with GameStateError (a
``bad-save`` reply), never anything else.
"""

import base64
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage import Game, Rules
from cribbage.players import computer_move, make_player
from cribbage.protocol import Session
from cribbage.replay import MAX_LINK, fresh_game, read_link, replay, share_link
from cribbage.tutor import scripted_deal_game

ROOT = Path(__file__).resolve().parent.parent
WORKED_EXAMPLE = {"dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(),
                                         "TS 6D JH 4H KC 7C".split()],
                  "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]],
                  "play": "JH 5S 7C 6H 2S 6D 4S 4H".split()}


def played(players=2, seed=3, moves=None, target=61):
    """A game between standard computers, ``moves`` long (or to the end)."""
    game = Game.new(Rules(players=players, target=target), seed=seed)
    computers = [make_player("standard", seed=seat) for seat in range(game.players)]
    while not game.is_over and (moves is None or len(game.moves) < moves):
        seat = game.current_player
        legal = game.legal_moves()
        game.apply(legal[0] if len(legal) == 1 else computer_move(computers[seat],
                                                                  game.view(seat)))
    return game


def call(name, request):
    return json.loads(Session().call(name, json.dumps(request)))


def hidden_from(game, seat):
    """Cards ``seat`` may not know now: other hands, the crib before it is shown."""
    view = game.view(seat)
    hidden = {card for other in range(game.players) if other != seat
              for card in game.hands[other]}
    if "crib" not in view.shown:
        hidden |= set(game.crib) - set(view.discards)
    return hidden


@pytest.mark.parametrize("players, seed, moves", [(2, 3, 40), (3, 4, 60), (4, 5, 70),
                                                   (2, 6, 7)])
def test_a_game_in_progress_shows_the_viewer_no_hidden_card(players, seed, moves):
    game = played(players, seed, moves, target=121)
    for seat in range(players):
        reply = call("replay", {"save": game.to_json(), "seat": seat})
        assert reply["ok"] and reply["result"]["over"] is False
        steps = reply["result"]["steps"]
        assert len(steps) == len(game.moves) + 1
        again = fresh_game(game)
        for number, step in enumerate(steps):
            if number:
                again.apply(step["move"])
            assert "revealed" not in step
            view = dict(step["view"])  # a past deal's show names cards dealt again since
            view["events"] = [event for event in view["events"]
                              if event["deal"] == again.deal_number]
            text = json.dumps(view)
            leaked = [card.code for card in hidden_from(again, seat)
                      if f'"{card.code}"' in text]
            assert leaked == [], f"step {number} shows seat {seat} {leaked}"


def test_a_finished_game_reveals_every_hand_and_the_crib():
    game = played(2, 8)
    assert game.is_over
    result = call("replay", {"save": game.to_json(), "seat": 1})["result"]
    assert result["over"] is True
    again = fresh_game(game)
    for number, step in enumerate(result["steps"]):
        if number:
            again.apply(step["move"])
        assert step["revealed"]["hands"] == [[card.code for card in sorted(hand)]
                                             for hand in again.hands]
        assert step["revealed"]["crib"] == [card.code for card in again.crib]


def test_each_step_carries_only_the_events_of_its_move():
    game = played(2, 9, 30)
    steps = replay(game, 0)["steps"]
    assert sum(len(step["view"]["events"]) for step in steps) == len(game.events)
    assert [step["move"] for step in steps[1:]] == game.moves


def test_a_resigned_game_ends_with_the_resignation():
    game = played(2, 10, 20)
    game.resign(0)
    result = replay(Game.from_json(game.to_json()), 0)
    assert result["over"] and result["steps"][-1]["move"] == "resign"
    assert result["steps"][-1]["view"]["outcome"]["kind"] == "resign"


@pytest.mark.parametrize("game", [played(2, 11), played(3, 12, 50), played(4, 13, 90),
                                  played(2, 14, 0), scripted_deal_game(WORKED_EXAMPLE),
                                  Game.new(Rules(manual_counting=True, muggins=True), seed=15,
                                           deck=None, first_dealer=None)])
def test_a_share_link_holds_the_game_it_was_made_from(game):
    for seat in range(game.players):
        link = share_link(game, seat)
        assert len(link) < MAX_LINK and re.fullmatch(r"1\.[A-Za-z0-9_-]+", link)
        again, viewer = read_link(link)
        assert (again.to_json(), viewer) == (game.to_json(), seat)


def test_the_tutorials_replay_link_is_its_worked_example():
    page = (ROOT / "web" / "pages" / "tutorial.html").read_text()
    links = re.findall(r'href="\./replay\.html#r=([^"]+)"', page)
    assert len(links) == 1
    game, seat = read_link(links[0])
    assert game.to_json() == scripted_deal_game(WORKED_EXAMPLE).to_json() and seat == 0
    # exactly the link the engine makes today (the viewer's Copy gives the same one)
    assert links[0] == share_link(scripted_deal_game(WORKED_EXAMPLE), 0)


def body_of(link):
    payload = link[2:]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def link_of(body):
    data = json.dumps(body).encode()
    return "1." + base64.urlsafe_b64encode(data).decode().rstrip("=")


GOOD = share_link(scripted_deal_game(WORKED_EXAMPLE), 0)


@pytest.mark.parametrize("change, reason", [
    (lambda b: b["setup"]["script"].update(scores=[0, 121]), "scores"),
    (lambda b: b["setup"]["script"].update(scores=[-5, 0]), "scores"),
    (lambda b: b["setup"].update(seed=-1), "seed"),
    (lambda b: b["setup"].update(resigned=7), "resigned"),
    (lambda b: b["setup"].update(scores=[100, 0]), "unknown"),
    (lambda b: b.update(moves=b["moves"] + "_"), "not a legal move"),
    (lambda b: b.update(moves="Z" + b["moves"][1:]), "not a legal move"),
    (lambda b: b.update(moves=["A"]), "malformed"),
    (lambda b: b.update(seat=2), "seat"),
    (lambda b: b.update(seat="0"), "seat"),
    (lambda b: b.update(extra="<script>alert(1)</script>"), "not a game"),
    (lambda b: b["rules"].update(players=9), "rules"),
    (lambda b: b["setup"]["script"]["hands"][0].__setitem__(0, "<img src=x>"), "card"),
])
def test_a_tampered_link_is_refused_with_its_reason(change, reason):
    body = body_of(GOOD)
    change(body)
    reply = call("replay", {"link": link_of(body)})
    assert reply["ok"] is False and reply["error"]["kind"] == "bad-save"
    assert reason in reply["error"]["message"]


@pytest.mark.parametrize("text, reason", [
    ("", "empty"), ("hello", "not a replay link"), ("9.abc", "another version"),
    ("1.", "damaged"), ("1.<script>", "damaged"), ("1.%3Cb%3E", "damaged"),
    ("1." + "A" * 10, "damaged"), ("1." + "WzFd", "not a game"),
    ("1." + "A" * MAX_LINK, "too long"), ("x" * 10 ** 6, "too long"),
])
def test_a_hostile_link_gets_a_clear_message(text, reason):
    reply = call("replay", {"link": text})
    assert reply["ok"] is False and reply["error"]["kind"] == "bad-save"
    assert reason in reply["error"]["message"]


@pytest.mark.parametrize("request_", [{}, {"save": "{}", "link": "1.x"}, {"link": 5},
                                      {"save": None}, {"save": "{}", "seat": 0}])
def test_a_bad_replay_request_is_refused_not_a_bug(request_):
    reply = call("replay", request_)
    assert reply["ok"] is False and reply["error"]["kind"] in ("bad-request", "bad-save")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300) | st.from_regex(r"1\.[A-Za-z0-9_-]{0,200}", fullmatch=True))
def test_any_text_is_a_game_or_a_bad_save(text):
    reply = call("replay", {"link": text})
    assert reply["ok"] or reply["error"]["kind"] == "bad-save", reply


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_link_with_changed_characters_is_a_game_or_a_bad_save(data):
    text = list(GOOD)
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(2, len(text) - 1))
        text[where] = data.draw(st.sampled_from(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"))
    reply = call("replay", {"link": "".join(text)})
    assert reply["ok"] or reply["error"]["kind"] == "bad-save", reply


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rules", "setup", "moves", "seat"]), json_values)
def test_a_link_with_any_part_replaced_is_a_game_or_a_bad_save(key, value):
    body = body_of(GOOD)
    body[key] = value
    reply = call("replay", {"link": link_of(body)})
    assert reply["ok"] or reply["error"]["kind"] == "bad-save", reply


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rules", "setup", "moves", "format", "version"]), json_values)
def test_a_tampered_save_is_refused_by_replay(key, value):
    data = json.loads(played(2, 16, 25).to_json())
    data[key] = value
    reply = call("replay", {"save": json.dumps(data), "seat": 0})
    assert reply["ok"] or reply["error"]["kind"] == "bad-save", reply
