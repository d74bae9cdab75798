"""The master level, the win tables, the game review and the coach near the end."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cribbage import Game, Rules
from cribbage.coach import coach_advice
from cribbage.players import LEVELS, computer_move, make_player
from cribbage.players.master import Master, plays_for_win
from cribbage.players.winprob import TABLE_FILE, deal_win, pegged_win, tables
from cribbage.protocol import Session
from cribbage.review import review_game

ROOT = Path(__file__).resolve().parent.parent


def play_out(game: Game, players: list, max_deals: int = 99) -> list[str]:
    moves = []
    while game.phase != "over" and game.deal_number <= max_deals:
        seat = game.current_player
        move = computer_move(players[seat], game.view(seat))
        assert move in game.legal_moves(), (move, game.phase)
        moves.append(str(move))
        game.apply(move)
    return moves


# --- the win tables -------------------------------------------------------------------


def test_win_tables_are_small_fast_and_sane():
    assert TABLE_FILE.stat().st_size < 400_000
    tables.cache_clear()
    start = time.perf_counter()
    data = tables()
    assert time.perf_counter() - start < 1.0
    for target in (121, 61):
        w = data["win"][target]
        assert len(w) == target * target
        for d in range(0, target, 3):
            for p in range(0, target, 3):
                here = w[d * target + p]
                assert 0.0 <= here <= 1.0
                if d + 3 < target:  # more points: more wins
                    assert w[(d + 3) * target + p] >= here - 2e-3
                if p + 3 < target:
                    assert w[d * target + p + 3] <= here + 2e-3
        assert deal_win(target, target - 1, 0) > 0.99
        assert deal_win(target, 0, target - 1) < 0.02   # the pone counts first
        assert 0.5 < deal_win(target, 0, 0) < 0.65        # the first dealer's edge
        # symmetry: my chance and the opponent's, seen from each side, add up to one
        for me, opp in ((target - 20, target - 30), (target - 5, target - 3), (10, 40)):
            assert pegged_win(target, me, opp, True) == pytest.approx(
                1 - pegged_win(target, opp, me, False), abs=1e-9)
    assert deal_win(121, 121, 50) == 1.0 and deal_win(121, 50, 121) == 0.0


# --- the master level ---------------------------------------------------------------


def test_master_is_a_level():
    assert "master" in LEVELS and isinstance(make_player("master", 1), Master)
    hello = json.loads(Session().call("hello"))["result"]
    assert "master" in hello["levels"]


def test_master_plays_legal_deterministic_games():
    rules = Rules(target=61)
    runs = []
    for _ in range(2):
        game = Game.new(rules, seed=21, first_dealer=0)
        runs.append(play_out(game, [make_player("master", 5), make_player("standard", 6)]))
        assert game.phase == "over"
    assert runs[0] == runs[1]


def test_master_in_a_four_player_game_plays_as_the_expert():
    game = Game.new(Rules(players=4), seed=3, first_dealer=0)
    view = game.view(game.current_player)
    assert not plays_for_win(view)
    assert Master(1).discard(view) == make_player("expert", 1).discard(view)
    # In the play too: without win tables the master reads the others as the expert does.
    expert = make_player("expert", 1)
    plays = 0
    while game.phase != "over" and plays < 12:
        seat = game.current_player
        view = game.view(seat)
        move = computer_move(expert, view)
        if move.kind == "play" and len(move.cards) == 1:
            assert Master(plays).play(view) == make_player("expert", plays).play(view)
            plays += 1
        game.apply(move)
    assert plays == 12


def near_end_game(opponent_hand: str) -> Game:
    game = Game.scripted(Rules(), dealer=0, hands=["5S 6H 9C TD KS 2H", opponent_hand],
                         starter="4C", scores=(110, 108))
    game.apply(f"discard {' '.join(opponent_hand.split()[4:])}")
    game.apply("discard KS 2H")
    game.apply(game.legal_moves()[0])  # the starter
    game.apply("play 3D" if "3D" in opponent_hand.split()[:4] else game.legal_moves()[0])
    return game


def test_master_decides_from_its_own_view_only():
    # the opponent holds different hidden cards; seat 0 sees the same things
    one = near_end_game("3D 7S 8C QH AH JC")
    two = near_end_game("3D 7D 8S QC AC JS")
    assert one.view(0).to_dict() == two.view(0).to_dict()
    assert one.hands[1] != two.hands[1]
    assert plays_for_win(one.view(0))
    assert Master(9).play(one.view(0)) == Master(9).play(two.view(0))


# --- the review ------------------------------------------------------------------------


def blunder_game() -> Game:
    # seat 1 (pone) throws 5-5 into the dealer's crib, keeping 4 6 J K
    game = Game.scripted(dealer=0, hands=["AS 3S 7D 9C QC 8H", "5S 5H 4D 6C JD KS"],
                         starter="2D")
    game.apply("discard 5S 5H")
    play_out(game, [make_player("standard", 1), make_player("standard", 2)], max_deals=1)
    return game


def test_review_grades_a_planted_blunder():
    game = blunder_game()
    start = time.perf_counter()
    report = review_game(game, 1)
    assert time.perf_counter() - start < 10
    first = report["decisions"][0]
    assert first["kind"] == "discard" and first["chosen"] == ["5H", "5S"]
    assert first["category"] in ("mistake", "blunder") and first["loss"] >= 1.5
    assert "5♥" in first["reason"] or "5♠" in first["reason"]
    assert report["costliest"][0] == first
    assert report["costliest"][0]["position"]["hand"] == ["4D", "5H", "5S", "6C", "JD", "KS"] \
        or len(report["costliest"][0]["position"]["hand"]) == 6
    assert 0 <= report["accuracy"] < 100
    spanish = review_game(game, 1, "es")
    assert spanish["decisions"][0]["category_text"] in ("Error", "Error grave")


def test_review_grades_count_claims():
    rules = Rules(manual_counting=True)
    game = Game.scripted(rules, dealer=0, hands=["AS 3S 7D 9C QC 8H", "5S 5H 4D 6C JD KS"],
                         starter="2D")
    bots = [make_player("standard", 1), make_player("standard", 2)]
    while game.phase != "count":
        game.apply(computer_move(bots[game.current_player], game.view(game.current_player)))
    assert game.current_player == 1
    game.apply("count 0")  # a hand worth more
    report = review_game(game, 1)
    count = [d for d in report["decisions"] if d["kind"] == "count"][0]
    assert count["category"] != "best" and "0" in count["reason"]


def test_cli_review_and_a_corrupt_save(tmp_path):
    save = tmp_path / "game.json"
    save.write_text(blunder_game().to_json())
    result = subprocess.run([sys.executable, "-m", "cribbage", "review", str(save), "--seat", "1",
                             "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["decisions"][0]["category"] in ("mistake", "blunder")
    text = subprocess.run([sys.executable, "-m", "cribbage", "review", str(save), "--seat", "1",
                           "--lang", "ja"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and "正確さ" in text.stdout
    save.write_text('{"rules": 7}')
    bad = subprocess.run([sys.executable, "-m", "cribbage", "review", str(save)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_protocol_review_game():
    session = Session()
    save = blunder_game().to_json()
    reply = json.loads(session.call("review_game", json.dumps({"seat": 1, "save": save})))
    assert reply["ok"] and reply["result"]["decisions"][0]["category"] in ("mistake", "blunder")
    assert session.game is None  # stateless with a save
    assert json.loads(session.call("review_game", '{"seat": 1}'))["error"]["kind"] == "no-game"
    bad = json.loads(session.call("review_game", '{"seat": 0, "save": "{}"}'))
    assert bad["error"]["kind"] == "bad-save"
    session.call("load", json.dumps({"save": save}))
    again = json.loads(session.call("review_game", '{"seat": 1, "lang": "ja"}'))
    assert again["ok"] and again["result"]["lang"] == "ja"


def missed_points_game(seed: int) -> tuple[Game, str]:
    """A deal where seat 0 could make fifteen or 31 in the play and played another card."""
    game = Game.new(seed=seed, first_dealer=0)
    bots = [make_player("standard", 1), make_player("standard", 2)]
    planted = ""
    while game.deal_number < 2:
        seat = game.current_player
        if seat == 0 and game.phase == "play" and not planted:
            plays = [m for m in game.legal_moves() if m.kind == "play"]
            scoring = [m for m in plays if game.count + m.cards[0].value in (15, 31)]
            others = [m for m in plays if game.count + m.cards[0].value not in (15, 31)
                      and all(m.cards[0].rank != c.rank for c in game.pile[-1:])]
            if scoring and others:
                planted = others[0].cards[0].code
                game.apply(others[0])
                continue
        game.apply(computer_move(bots[seat], game.view(seat)))
    return game, planted


@pytest.mark.parametrize("seed", [9, 19])
def test_review_grades_a_missed_fifteen_or_31(seed):
    game, planted = missed_points_game(seed)
    assert planted
    report = review_game(game, 0)
    played = [d for d in report["decisions"] if d["kind"] == "play" and d["chosen"] == [planted]]
    assert played[0]["category"] in ("mistake", "blunder"), played[0]
    assert played[0]["best"] != [planted] and played[0]["reason"]
    assert played[0] in report["costliest"]


def test_protocol_reviews_deal_by_deal_then_the_whole_game():
    game = Game.new(seed=5, first_dealer=0)
    play_out(game, [make_player("standard", 1), make_player("expert", 2)], max_deals=3)
    session = Session()
    session.call("load", json.dumps({"save": game.to_json()}))
    deals, decisions = None, []
    number = 1
    while deals is None or number <= deals:
        reply = json.loads(session.call("review_game", json.dumps({"seat": 0, "deal": number})))
        assert reply["ok"], reply
        assert reply["result"]["deal"] == number
        deals = reply["result"]["deals"]
        decisions += reply["result"]["decisions"]
        number += 1
    assert deals == game.deal_number >= 3
    whole = json.loads(session.call("review_game", '{"seat": 0}'))["result"]
    assert whole["decisions"] == decisions == review_game(game, 0)["decisions"]
    assert {d["position"]["deal"] for d in decisions} <= set(range(1, deals + 1))
    for bad in ({"seat": 0, "deal": 0}, {"seat": 0, "deal": deals + 1}, {"seat": 0, "deal": "1"}):
        error = json.loads(session.call("review_game", json.dumps(bad)))["error"]
        assert error["kind"] == "bad-request" and "deal" in error["message"]
    progress: list[tuple[int, int]] = []
    review_game(game, 0, progress=lambda done, total: progress.append((done, total)))
    assert progress == [(n, deals) for n in range(1, deals + 1)]


# --- the coach near the end -------------------------------------------------------------


def test_coach_uses_the_board_near_the_end():
    game = Game.scripted(dealer=0, hands=["AS 3S 7D 9C QC 8H", "5S 5H 9D 6C JD KS"],
                         starter="2D", scores=(100, 117))
    for lang in ("en", "es", "ja"):
        advice = coach_advice(game.view(1), lang)
        assert all("win" in choice for choice in advice["choices"])
        assert advice["note"] is None or isinstance(advice["note"], str)
    far = coach_advice(Game.scripted(dealer=0, hands=["AS 3S 7D 9C QC 8H",
                                                      "5S 5H 9D 6C JD KS"],
                                     starter="2D").view(1))
    assert far["note"] is None and "win" not in far["choices"][0]
