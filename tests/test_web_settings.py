"""CPython tests of the new-game settings (web/views/shell.py): whatever the dialog,
the stored dialog values or a saved game's settings hold, the table gets only
settings the engine offers, and a saved game's settings not ours are refused."""

from __future__ import annotations

import importlib
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cribbage.protocol import Session
from cribbage.rules import Rules, RulesError

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views")]

shell = importlib.import_module("shell")
stored = importlib.import_module("stored")

HELLO = json.loads(Session().call("hello"))["result"]
OFFER = {"levels": HELLO["levels"], "options": HELLO["options"]}
RULE_KEYS = {"players", "target", "skunk", "manual_counting", "muggins", "manual_pegging",
             "exact_finish", "cards"}
# A fresh clone's first text drawn builds Hypothesis's table of characters (a second or so).
FIRST_DRAW_SLOW = settings(suppress_health_check=[HealthCheck.too_slow])
FORM_NAMES = ("players", "target", "cards", "skunk", "counting", "exact_finish", "level",
              "level2", "level3", "speed")


def assert_valid(settings: dict[str, Any]) -> None:
    """Settings the engine offers: every value one of the hello's, of the right type, and
    rules the engine takes unless the dialog's notice stops the game first."""
    options, levels = OFFER["options"], OFFER["levels"]
    assert set(settings) == {"rules", "level", "levels", "speed"}
    rules = settings["rules"]
    assert set(rules) == RULE_KEYS
    assert type(rules["players"]) is int and rules["players"] in options["players"]
    assert type(rules["cards"]) is int and rules["cards"] in options["cards"]
    assert type(rules["target"]) is int
    assert rules["target"] in options["variants"][str(rules["cards"])]["target"]
    assert rules["skunk"] in options["skunk"]
    for name in ("manual_counting", "muggins", "manual_pegging", "exact_finish"):
        assert type(rules[name]) is bool, name
    assert rules["muggins"] == rules["manual_counting"]
    assert rules["manual_counting"] or not rules["manual_pegging"]
    assert settings["level"] in levels
    assert len(settings["levels"]) == rules["players"] - 1
    assert all(level in levels for level in settings["levels"])
    speed = settings["speed"]
    assert type(speed) is float and not math.isnan(speed) and 0.0 <= speed <= 4.0
    notice = shell.variant_notice(settings, OFFER)
    if notice is None:
        assert Rules.from_dict(rules).to_dict() == rules  # the engine plays these rules
    else:  # e.g. seven-card for three: the dialog says so and starts nothing
        assert notice == ("notice.variant_players", {
            "cards": rules["cards"],
            "players": options["variants"][str(rules["cards"])]["players"][0]})
        with pytest.raises(RulesError):
            Rules.from_dict(rules)


def test_the_example_offer_is_the_engines() -> None:
    assert shell.EXAMPLE_OFFER == OFFER


def test_the_offer_is_exactly_what_the_engine_plays() -> None:
    """Every combination the hello's variants allow, and no other, makes engine rules."""
    options = OFFER["options"]
    for cards in options["cards"]:
        variant = options["variants"][str(cards)]
        for players in range(0, 7):
            for target in [*options["target"], 0, 31, 120, 122]:
                try:
                    Rules(players=players, cards=cards, target=target)
                    taken = True
                except RulesError:
                    taken = False
                expected = players in variant["players"] and target in variant["target"]
                assert taken == (expected or (target == 0 and players in variant["players"]))


# --- the dialog's values ------------------------------------------------------------

GOOD = {"players": ["2", "3", "4"], "target": ["121", "61", "181"], "cards": ["6", "5", "7"],
        "skunk": ["acc", "lurch", "none"], "counting": ["automatic", "manual", "pegging"],
        "exact_finish": [True, False, "on"], "speed": ["0", "0.5", "1", "2", "4"],
        "level": OFFER["levels"], "level2": OFFER["levels"], "level3": OFFER["levels"]}
# What a damaged store, another version's dialog or a hand-edited form may hold.
BAD = ["9", "1", "0", "-1", "5", "8", "21", "120", "122", "0121", "2.0", " 2", "3 ", "１",
       "٣", "", "two", "grandmaster", "Standard", "ACC", "nan", "inf", "-inf", "1e9", "-4"]
VALUES = st.one_of(st.sampled_from(BAD), st.text(max_size=8), st.booleans(), st.none(),
                   st.integers(-10, 200), st.floats(), st.lists(st.integers(), max_size=2),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@st.composite
def forms(draw: st.DrawFn) -> dict[str, Any]:
    """The dialog's values: each name absent, one the dialog offers, or anything."""
    values: dict[str, Any] = {}
    for name in FORM_NAMES:
        kind = draw(st.sampled_from(["absent", "good", "bad"]))
        if kind == "good":
            values[name] = draw(st.sampled_from(GOOD[name]))
        elif kind == "bad":
            values[name] = draw(VALUES)
    return values


@pytest.mark.parametrize("name", ["players", "target", "cards", "skunk", "level", "level2",
                                  "level3", "speed", "counting", "exact_finish"])
@pytest.mark.parametrize("value", [*BAD, 9, 3, 2.0, True, None, [], {}])
def test_no_bad_value_of_the_dialog_reaches_the_settings(name: str, value: Any) -> None:
    settings = shell.settings_from_form({name: value}, OFFER)
    assert_valid(settings)
    if isinstance(value, str) and value in GOOD[name]:
        return  # "5" is five-card cribbage, and a speed
    if name in ("players", "cards", "skunk", "level", "target"):  # the first option, or ours
        assert settings == shell.settings_from_form({}, OFFER)
    assert (settings["rules"]["players"], settings["rules"]["target"]) == (2, 121)


def test_nine_players_are_two() -> None:
    settings = shell.settings_from_form({"players": "9"}, OFFER)
    assert settings["rules"]["players"] == 2 and settings["levels"] == ["standard"]


@FIRST_DRAW_SLOW
@given(values=forms())
@example(values={"players": "9"})
@example(values={"players": "4", "cards": "7", "target": "181"})
@example(values={"cards": "5", "target": "181", "speed": "nan"})
def test_settings_from_any_form_are_settings_the_engine_offers(values: dict[str, Any]) -> None:
    settings = shell.settings_from_form(values, OFFER)
    assert_valid(settings)
    rules = settings["rules"]
    # A value the dialog offers is kept as chosen (no value is clamped needlessly).
    for name in ("players", "cards", "skunk"):
        if values.get(name) in GOOD[name]:
            assert str(rules[name]) == values[name]
    if str(values.get("target")) in [str(t) for t in
                                     OFFER["options"]["variants"][str(rules["cards"])]["target"]]:
        assert str(rules["target"]) == values["target"]
    if values.get("level") in OFFER["levels"]:
        assert settings["level"] == values["level"]


@FIRST_DRAW_SLOW
@given(text=st.one_of(st.none(), st.text(max_size=40),
                      st.dictionaries(st.sampled_from(FORM_NAMES), VALUES).map(json.dumps)))
@example(text='{"players": "9", "target": "12"}')
def test_stored_dialog_values_give_settings_the_engine_offers(text: str | None) -> None:
    values, _ = stored.load_settings(text)
    assert_valid(shell.settings_from_form(values, OFFER))


@pytest.mark.parametrize("cards,players", [(5, 3), (7, 4), (7, 3)])
def test_a_variant_for_two_chosen_for_more_is_stopped_by_the_notice(cards: int,
                                                                    players: int) -> None:
    settings = shell.settings_from_form({"cards": str(cards), "players": str(players)}, OFFER)
    assert shell.variant_notice(settings, OFFER) == ("notice.variant_players",
                                                     {"cards": cards, "players": 2})


# --- a saved game's settings ------------------------------------------------------------

JUNK = st.one_of(st.sampled_from([9, 1, 0, -1, 5, 8, 120, 122, 2.0, 2.5, "2", "121", True,
                                  False, None, "", "grandmaster", "nan", [], {}, [2], "x" * 300]),
                 VALUES)


@st.composite
def saved_settings(draw: st.DrawFn) -> dict[str, Any]:
    """A game's settings as the table keeps them, then damaged: a value replaced or
    dropped, in the rules or beside them."""
    saved: dict[str, Any] = shell.settings_from_form(draw(forms()), OFFER)
    if shell.variant_notice(saved, OFFER) is not None:
        saved = shell.settings_from_form({}, OFFER)
    rules = saved["rules"]
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["rules", "top"]))
        target = rules if where == "rules" else saved
        name = draw(st.sampled_from(sorted(target)))
        if draw(st.booleans()):
            target[name] = draw(JUNK)
        else:
            del target[name]
        if where == "top" and name == "rules":
            break
    return saved


@FIRST_DRAW_SLOW
@given(saved=saved_settings())
@example(saved={"rules": {"players": 9, "target": 121, "skunk": "acc", "cards": 6,
                          "manual_counting": False, "muggins": False,
                          "exact_finish": False}, "level": "easy", "levels": ["easy"] * 8,
                "speed": 1})
@example(saved={"rules": {"players": 3, "target": 181, "skunk": "acc", "cards": 7,
                          "manual_counting": False, "muggins": False,
                          "exact_finish": False}, "level": "easy",
                "levels": ["easy", "easy"], "speed": 1})
def test_saved_settings_are_ours_or_refused(saved: dict[str, Any]) -> None:
    before = json.dumps(saved)
    try:
        settings = shell.settings_from_saved(json.loads(before), OFFER)
    except ValueError as error:
        assert str(error) == "the saved settings are damaged"
        return
    assert_valid(settings)
    assert shell.variant_notice(settings, OFFER) is None  # a game was started with them
    assert shell.settings_from_saved(settings, OFFER) == settings  # and they read back
    kept = json.loads(before)["rules"]  # what the save said holds (older keys added)
    assert {name: settings["rules"][name] for name in kept} == kept


@pytest.mark.parametrize("change", [
    {"players": 9}, {"players": 1}, {"players": "3"}, {"players": True}, {"target": 100},
    {"target": 181}, {"cards": 8}, {"cards": 5}, {"skunk": "double"}, {"muggins": 1},
    {"manual_counting": "yes"}, {"cards": 7, "target": 181, "players": 3}])
def test_saved_settings_with_a_value_not_offered_are_refused(change: dict[str, Any]) -> None:
    saved = shell.settings_from_form({"players": "3"}, OFFER)
    saved["rules"].update(change)
    with pytest.raises(ValueError, match="the saved settings are damaged"):
        shell.settings_from_saved(saved, OFFER)
