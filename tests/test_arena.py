"""The arena: a few games through the CLI, duplicate scheduling, external players."""

from __future__ import annotations

import json

import pytest

from cribbage.arena import run_cli, schedule, wilson
from cribbage.game import Game
from cribbage.players import make_player


class FirstCard:
    """An external bot: lays away its first cards and plays its first legal card."""

    def discard(self, view):
        return list(view.hand[: view.rules.discards_each])

    def play(self, view):
        return next(c for c in view.hand if view.count + c.value <= 31)


def make_first_card() -> FirstCard:
    return FirstCard()


def test_arena_cli_reports_wins_points_and_times(capsys) -> None:
    assert run_cli(["--a", "easy", "--b", "beginner", "--games", "4", "--seed", "3",
                    "--duplicate", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    a, b = report["sides"]["a"], report["sides"]["b"]
    assert a["wins"] + b["wins"] == 4
    assert a["ci95"][0] <= a["win_rate"] <= a["ci95"][1]
    assert a["per_deal"]["dealer"]["deals"] > 0 and a["per_deal"]["pone"]["crib"] == 0
    assert "discard" in a["ms_per_move"] and "play" in b["ms_per_move"]
    assert "a_paired_ci95" in report


def test_arena_text_report_with_an_external_player_and_jobs(capsys) -> None:
    assert run_cli(["--a", "standard", "--b", "tests.test_arena:make_first_card",
                    "--games", "4", "--jobs", "2", "--players", "4", "--target", "61"]) == 0
    out = capsys.readouterr().out
    assert "B tests.test_arena:make_first_card" in out and "95% CI" in out


def test_arena_rejects_a_bad_player() -> None:
    with pytest.raises(SystemExit):
        run_cli(["--a", "nobody", "--games", "1"])


def test_duplicate_schedule_swaps_seats_on_the_same_deck() -> None:
    specs = schedule(6, 5, 2, duplicate=True)
    assert [s.seed for s in specs] == [5, 5, 6, 6, 7, 7]
    assert all(specs[i].sides == specs[i + 1].sides[::-1] for i in range(0, 6, 2))
    assert {s.first_dealer for s in schedule(4, 0, 2, duplicate=False)} == {0, 1}


def test_wilson_interval_holds_the_rate() -> None:
    low, high = wilson(30, 50)
    assert low < 0.6 < high


def test_same_seed_same_game() -> None:
    from cribbage.arena import play_game

    def run() -> list[str]:
        game = Game.new(seed=9, first_dealer=1)
        play_game(game, [make_player("expert", 1), make_player("standard", 2)])
        return game.moves

    assert run() == run()


def test_arena_plays_manual_pegging_with_muggins(capsys) -> None:
    assert run_cli(["--a", "standard", "--b", "beginner", "--games", "2", "--target", "61",
                    "--counting", "pegging", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counting"] == "pegging"
    moves = set(report["sides"]["a"]["ms_per_move"]) | set(report["sides"]["b"]["ms_per_move"])
    assert {"count", "play"} <= moves
