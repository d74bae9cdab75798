"""Seeded games played by the engine's computers under CPython, saved the way the
table saves (tests/browser and bench/page_review.py load them into the page)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in (ROOT, ROOT / "web" / "views"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import shell  # noqa: E402
import tableview  # noqa: E402

from cribbage import Game, Rules  # noqa: E402
from cribbage.players import computer_move, make_player  # noqa: E402
from cribbage.protocol import Session  # noqa: E402


def last_deal_save(seed: int, target: int = 121, level: str = "standard") -> str:
    """The table's save (localStorage ``cribbage.save``) of a seeded 2-player game
    played by two computers, stopped when the last deal is dealt: the human (seat 0)
    lays away next, and every earlier deal is there to review."""
    game = Game.new(Rules(target=target), seed=seed, first_dealer=0)
    bots = [make_player(level, seed), make_player(level, seed + 1)]
    moves: list[str] = []
    last_deal_starts = 0
    while game.phase != "over":
        if game.phase == "discard" and len(game.hands[0]) == 6 and game.current_player == 0:
            last_deal_starts = len(moves)
        move = str(computer_move(bots[game.current_player], game.view(game.current_player)))
        moves.append(move)
        game.apply(move)
    data = game.to_dict()
    data["moves"] = moves[:last_deal_starts]
    text = Game.from_dict(data).to_json()
    offer = json.loads(Session().call("hello"))["result"]
    settings = shell.settings_from_form({"players": "2", "target": str(target), "level": level,
                                         "speed": "0"}, offer)
    return str(tableview.save_envelope(settings, text))


def near_the_end_save() -> str:
    """A scripted 2-player game near its end where the board changes the coach's advice:
    the human (seat 0, pone, 108 to 112) lays away first, from 7D 6H 7H KH JS KD with
    6D to come; by points the coach lays away 6H JS, to win K-K."""
    game = Game.scripted(dealer=1, hands=["7D 6H 7H KH JS KD", "TC 5C 9C QH 3D 3H"],
                         starter="6D", scores=(108, 112))
    offer = json.loads(Session().call("hello"))["result"]
    settings = shell.settings_from_form({"players": "2", "target": "121", "level": "standard",
                                         "speed": "0"}, offer)
    return str(tableview.save_envelope(settings, game.to_json()))


def must_go_save() -> str:
    """A scripted 2-player game whose first play makes the human (seat 0, pone) say Go:
    they keep four ten-cards against the computer's small ones, so their third card
    cannot be played (20 and the computer's two cards, then ten more, pass 31)."""
    game = Game.scripted(dealer=1, hands=["KS KH QS QH JD JC", "5S 5H AS AH 2C 3D"],
                         starter="9C")
    offer = json.loads(Session().call("hello"))["result"]
    settings = shell.settings_from_form({"players": "2", "target": "121", "level": "standard",
                                         "speed": "0"}, offer)
    return str(tableview.save_envelope(settings, game.to_json()))
