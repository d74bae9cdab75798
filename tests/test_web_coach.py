"""CPython tests of the coach, fair-deal and statistics code of the page: the pure
UI modules (web/coachview.py, web/statsview.py) and the worker's protocol calls
(advise, review, deal_proof in cribbage.protocol)."""

from __future__ import annotations

import doctest
import hashlib
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views")]

shell = importlib.import_module("shell")
coachview = importlib.import_module("coachview")
statsview = importlib.import_module("statsview")
reviewview = importlib.import_module("reviewview")

from cribbage import Game  # noqa: E402
from cribbage.fairdeal import deal_proofs  # noqa: E402
from cribbage.players import computer_move, make_player  # noqa: E402
from cribbage.protocol import Session  # noqa: E402


@pytest.mark.parametrize("module", [coachview, statsview, reviewview],
                         ids=["coachview", "statsview", "reviewview"])
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module, extraglobs={"words": shell.Words()}).failed == 0


session = Session()


def call(name: str, payload: object = None) -> dict:
    return json.loads(session.call(name, json.dumps(payload if payload is not None else {})))


def play_to(game: Game, done) -> None:
    bots = [make_player("standard", seed=seat) for seat in range(game.players)]
    while not done(game):
        seat = game.current_player
        game.apply(computer_move(bots[seat], game.view(seat)))


def test_each_deck_is_sealed_before_its_deal_and_matches_the_cards_dealt() -> None:
    game = Game.new(seed=11)  # the cut for the first deal: nothing dealt
    seals = {entry["deal"]: entry["commitment"] for entry in deal_proofs(game)["sealed"]}
    assert list(seals) == [1] and deal_proofs(game)["revealed"] == []
    dealt = {}
    while game.deal_number < 4:
        before = game.deal_number
        for entry in deal_proofs(game)["sealed"]:
            seals.setdefault(entry["deal"], entry["commitment"])  # never changes once shown
            assert seals[entry["deal"]] == entry["commitment"]
        play_to(game, lambda g, b=before: g.deal_number != b)
        dealt[game.deal_number] = (game.dealer, [list(h) for h in game.hands])
    proof = deal_proofs(game)
    assert [entry["deal"] for entry in proof["revealed"]] == [1, 2, 3]
    assert [entry["deal"] for entry in proof["sealed"]] == [4, 5]
    assert "salt" not in json.dumps(proof["sealed"])  # the deal in progress keeps its secret
    for entry in proof["revealed"]:
        text = entry["salt"] + ":" + " ".join(entry["deck"])
        assert hashlib.sha256(text.encode()).hexdigest() == entry["commitment"]
        assert entry["commitment"] == seals[entry["deal"]]
        dealer, hands = dealt[entry["deal"]]
        for i, code in enumerate(entry["deck"][:12]):
            assert code in [c.code for c in hands[(dealer + 1 + i) % 2]]


def test_a_scripted_first_deal_is_not_claimed_as_fair_and_the_game_id_is_stable() -> None:
    game = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                         starter="5H")
    proof = deal_proofs(game)
    assert [entry["deal"] for entry in proof["sealed"]] == [2]
    play_to(game, lambda g: g.deal_number == 2)
    later = deal_proofs(game)
    assert later["revealed"] == [] and later["game"] == proof["game"]
    assert deal_proofs(Game.new(seed=1))["game"] != deal_proofs(
        Game.new(seed=2))["game"]


def test_protocol_advise_and_review() -> None:
    call("new_game", {"seed": 4, "first_dealer": 1})  # seat 0 is pone: discards first
    advice = call("advise", {"seat": 0})["result"]
    assert advice["kind"] == "discard" and len(advice["choices"]) == 15
    nets = [choice["net"] for choice in advice["choices"]]
    assert nets == sorted(nets, reverse=True)
    assert call("advise", {"seat": 1})["error"]["kind"] == "bad-request"  # not its turn
    assert call("advise", {})["error"]["kind"] == "bad-request"
    worst = advice["choices"][-1]["discard"]
    call("apply_move", {"move": "discard " + " ".join(worst)})
    while True:
        state = call("state", {"seat": 0})["result"]
        if state["view"]["deal_number"] > 1:
            break
        if state["current_player"] == 0 and state["phase"] == "play":
            play = call("advise", {"seat": 0})
            if play["ok"]:
                cards = play["result"]["choices"]
                assert play["result"]["kind"] == "play" and all("reason" in c for c in cards)
        call("computer_move", {"level": "standard"})
    review = call("review", {"seat": 0})["result"]
    assert review["deal"] == 1
    first = review["decisions"][0]
    assert first["kind"] == "discard" and sorted(first["chosen"]) == sorted(worst)
    assert first["loss"] == pytest.approx(nets[0] - nets[-1], abs=0.02) and first["loss"] > 0
    assert review["lost"] >= first["loss"]
    assert call("review", {"seat": 0, "deal": 9})["error"]["kind"] == "bad-request"
    assert call("deal_proof")["ok"]


@pytest.mark.parametrize("text", [
    None, "", "[]", "null", '{"version": 2}', '{"version": 1}',
    json.dumps({**statsview.new_stats(), "deals": True}),
    json.dumps({**statsview.new_stats(), "levels": {"easy": [1]}}),
    json.dumps({**statsview.new_stats(), "skunks": [1]}),
    json.dumps({**statsview.new_stats(), "best": {"points": 30, "cards": [], "starter": "5H"}}),
    json.dumps({**statsview.new_stats(), "last": {"game": 3, "deal": 0, "over": False}}),
])
def test_bad_statistics_start_again_from_zero(text: str | None) -> None:
    assert statsview.read_stats(text) == statsview.new_stats()


def test_statistics_count_each_game_and_deal_once() -> None:
    stats = statsview.new_stats()
    game = Game.new(seed=21, first_dealer=0, rules=None)
    play_to(game, lambda g: g.phase == "over")
    events = [event.to_dict() for event in game.events]
    for deal in range(1, game.deal_number):
        assert statsview.add_deal(stats, "g", deal, events, 0)
        assert not statsview.add_deal(stats, "g", deal, events, 0)
    won = game.outcome.winner == 0
    assert statsview.add_game(stats, "g", "expert", game.outcome.to_dict(), 0)
    assert not statsview.add_game(stats, "g", "expert", game.outcome.to_dict(), 0)
    assert stats["levels"]["expert"] == ([1, 0] if won else [0, 1])
    assert stats["deals"] == game.deal_number - 1
    summary = game.view(0).to_dict()["summary"]
    assert [team["total"] for team in summary["points"]] == game.scores
    assert 'data-source="total">121<' in coachview.summary_html(shell.Words(), summary,
                                                                 ["You", "Computer"])
    assert statsview.read_stats(json.dumps(stats)) == stats
    assert "Expert" in statsview.stats_html(shell.Words(), stats, ["beginner", "expert"])


def test_the_review_panel_draws_an_engine_report_and_the_statistics_keep_its_accuracy(
        ) -> None:
    game = Game.scripted(dealer=0, hands=["AS 3S 7D 9C QC 8H", "5S 5H 4D 6C JD KS"],
                         starter="2D")
    game.apply("discard 5S 5H")  # the pone throws 5-5 into the dealer's crib
    bots = [make_player("standard", 1), make_player("standard", 2)]
    while game.deal_number == 1:
        game.apply(computer_move(bots[game.current_player], game.view(game.current_player)))
    reply = json.loads(Session().call("review_game", json.dumps(
        {"seat": 1, "save": game.to_json(), "lang": "es"})))["result"]
    words = shell.Words("es")
    text = reviewview.review_html(words, reply, ["Tú", "Ordenador"])
    decisions = reply["decisions"]
    assert text.count("<li data-kind=") == len(decisions) >= 2
    assert reply["costliest"][0]["category"] in ("mistake", "blunder")
    assert 'data-card="5S"' in text and "Error" in text and "Precisión" in text
    stats = statsview.new_stats()
    statsview.note_accuracy(stats, "g1", reply["accuracy"])
    again = statsview.read_stats(json.dumps(stats))
    assert again["accuracy"] == [{"game": "g1", "accuracy": reply["accuracy"]}]
    chart = statsview.stats_html(shell.Words(), again, ["standard"])
    assert 'data-chart="accuracy"' in chart and chart.count("<circle") == 1
    again["accuracy"].append({"game": "g2", "accuracy": 140})
    assert statsview.read_stats(json.dumps(again))["accuracy"] == []  # malformed: from zero


@pytest.mark.parametrize(("lang", "need"), [("en", "You need 13 to win"),
                                            ("es", "Te faltan 13 para ganar"),
                                            ("ja", "勝利まであと13点")])
def test_the_hint_shows_the_board_note_in_the_page_language(lang: str, need: str) -> None:
    game = Game.scripted(dealer=1, hands=["7D 6H 7H KH JS KD", "TC 5C 9C QH 3D 3H"],
                         starter="6D", scores=(108, 112))
    session.call("load", json.dumps({"save": game.to_json()}))
    advice = call("advise", {"seat": 0, "lang": lang})["result"]
    assert advice["note"] and need in advice["note"]
    text = coachview.advice_html(shell.Words(lang), advice)
    assert 'class="board-note"' in text and need in text
    assert text.count("data-win=") == 15
    assert coachview.advice_html(shell.Words(lang), advice).index("board-note") < text.index(
        "<table")
