"""CPython tests of one game shared by several tabs: which save may replace which
(web/views/tabsync.py), the game id that counts a finished game once (the engine's
fair-deal proof) and the statistics and tally that remember the games counted."""

from __future__ import annotations

import doctest
import importlib
import json
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views")]

shell = importlib.import_module("shell")
tabsync = importlib.import_module("tabsync")
tableview = importlib.import_module("tableview")
statsview = importlib.import_module("statsview")

from cribbage import Game  # noqa: E402
from cribbage.fairdeal import deal_proofs  # noqa: E402


def test_doctests() -> None:
    assert doctest.testmod(tabsync).failed == 0


def table_save(game: Game) -> str:
    """The table's stored envelope of ``game``."""
    return str(tableview.save_envelope({"level": "standard"}, game.to_json()))


def test_two_tabs_playing_one_game_never_write_over_each_other() -> None:
    game = Game.new(seed=11, first_dealer=0)
    start = table_save(game)  # both tabs loaded this
    game.apply(str(game.legal_moves()[0]))
    theirs = table_save(game)  # the other tab moved and saved
    stale = Game.new(seed=11, first_dealer=0)
    stale.apply(str(stale.legal_moves()[-1]))  # this tab, out of date, moved differently
    mine = table_save(stale)
    assert game.moves != stale.moves
    assert not tabsync.may_replace(theirs, start, mine)  # the other tab's move would go
    assert tabsync.may_replace(start, start, mine)  # nobody else wrote: this tab's to write
    game.apply(str(game.legal_moves()[0]))
    assert tabsync.may_replace(theirs, start, table_save(game))  # every stored move kept


def test_take_backs_resignations_and_other_games() -> None:
    game = Game.new(seed=5, first_dealer=1)
    game.apply(str(game.legal_moves()[0]))
    played = table_save(game)
    back = game.undo(0)  # this tab's own take-back: fewer moves, over its own save only
    assert not tabsync.extends(played, table_save(back))
    assert tabsync.may_replace(played, played, table_save(back))
    game.resign(0)  # the setup records it; the moves are all kept
    assert tabsync.extends(played, table_save(game))
    other = table_save(Game.new(seed=6, first_dealer=1))
    assert not tabsync.may_replace(played, None, other)  # a new game over another tab's game
    newer = json.loads(played)
    newer["version"] = 2  # a save this page cannot read (a newer release) is never replaced
    newer["game"] = "{not json"
    assert not tabsync.may_replace(json.dumps(newer), None, played)
    assert tabsync.may_replace(None, None, other)


def test_the_game_id_names_the_game_not_its_course() -> None:
    game = Game.new(seed=9, first_dealer=1)
    first = deal_proofs(game)["game"]
    game.apply(str(game.legal_moves()[0]))
    back = game.undo(0)
    assert deal_proofs(back)["game"] == first
    back.resign(0)
    assert deal_proofs(back)["game"] == first
    assert deal_proofs(Game.new(seed=10, first_dealer=1))["game"] != first


def test_statistics_count_a_game_once_and_keep_malformed_ids_out() -> None:
    stats = statsview.new_stats()
    outcome = {"winner": 0, "kind": "win", "game_points": 1, "scores": [121, 90]}
    assert statsview.add_game(stats, "a", "standard", outcome, 0)
    assert statsview.add_game(stats, "b", "standard", outcome, 0)
    assert not statsview.add_game(stats, "a", "standard", outcome, 0)  # the other tab
    again = statsview.read_stats(json.dumps(stats))
    assert again["counted"] == ["a", "b"] and again["levels"]["standard"] == [2, 0]
    for bad in ("x", [1], ["a"] * (statsview.RESULTS_KEPT + 1)):
        kept = statsview.read_stats(json.dumps({**stats, "counted": bad}))
        assert kept["counted"] == [] and kept["levels"]["standard"] == [2, 0]


def test_the_tally_remembers_the_games_it_counted() -> None:
    text = tabsync.tally_json({"won": 2, "lost": 1}, [], "a")
    assert tableview.read_tally(text) == {"won": 2, "lost": 1}  # its reader is unchanged
    assert tabsync.tally_games(text) == ["a"]
    many = tabsync.tally_json({"won": 0, "lost": 0}, [str(n) for n in range(300)], "z")
    assert tabsync.tally_games(many)[-1] == "z"
    assert len(tabsync.tally_games(many)) == tabsync.GAMES_KEPT
    assert tabsync.tally_games(tabsync.tally_json({"won": 0, "lost": 0}, ["a"], None)) == ["a"]
