"""CPython tests of pass-and-play's pure part (web/views/handoffview.py)."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views"), str(WEB / "table")]

shell = importlib.import_module("shell")
handoffview = importlib.import_module("handoffview")


def test_doctests() -> None:
    assert doctest.testmod(handoffview, extraglobs={"words": shell.Words()}).failed == 0


def test_default_names_are_translated_and_typed_names_kept_as_text() -> None:
    settings = {"seats": handoffview.seats_from_form(
        {"who1": "person", "name1": '<script>alert("x")</script>' * 3}, 2)}
    names = handoffview.table_names(shell.Words("ja"), settings, [0, 1])
    assert names[0] == "プレイヤー1" and names[1] == '<script>alert("x")</script>'[:20]
    assert "&lt;script&gt;" in handoffview.handoff_html(shell.Words("es"), names[1])
    assert "<script" not in handoffview.handoff_html(shell.Words("es"), names[1])


def test_the_device_passes_only_between_people() -> None:
    settings = {"seats": handoffview.seats_from_form({"who2": "person"}, 4)}
    assert handoffview.people(settings) == [0, 2]
    for seat, expected in ((0, None), (1, None), (2, 2), (3, None), (None, None)):
        view = {"phase": "play", "current_player": seat}
        assert handoffview.hand_off_to(view, settings, 0) == expected
    assert handoffview.hand_off_to({"phase": "over", "current_player": 2}, settings, 0) is None
    solo = {"rules": {"players": 4}}
    assert all(handoffview.hand_off_to({"phase": "play", "current_player": seat}, solo, 0)
               is None for seat in range(4))


def test_saved_seats_are_checked() -> None:
    good = [{"person": True, "name": "Ana"}, {"person": True, "name": "Bo"}]
    assert handoffview.saved_seats({"seats": good}, 2) == good
    for bad in ([{"person": "yes", "name": ""}] * 2, good[:1], [{"person": True}] * 2,
                [{"person": True, "name": "x" * 21}, good[1]]):
        try:
            handoffview.saved_seats({"seats": bad}, 2)
        except ValueError:
            continue
        raise AssertionError(bad)
