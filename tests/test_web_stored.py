"""CPython tests of the page's storage layer: the loader of every stored key
(web/views/stored.py, statsview.load_stats, tableview.read_envelope), the backup
format (web/views/backup.py), and the saves written by older commits of the table
(tests/fixtures/saves/, made by tools/make_old_saves.py), each resumed by today's
engine and settings checks."""

from __future__ import annotations

import doctest
import importlib
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.protocol import Session

WEB = Path(__file__).resolve().parents[1] / "web"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "saves"
sys.path[:0] = [str(WEB / "views")]

shell = importlib.import_module("shell")
stored = importlib.import_module("stored")
statsview = importlib.import_module("statsview")
tableview = importlib.import_module("tableview")
handoffview = importlib.import_module("handoffview")
backup = importlib.import_module("backup")

OFFER = json.loads(Session().call("hello"))["result"]


def fixture(name: str) -> dict[str, Any]:
    return dict(json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")))


FIXTURE_NAMES = sorted(path.stem for path in FIXTURES.glob("*.json"))


@pytest.mark.parametrize("module", [stored, backup])
def test_doctests(module: Any) -> None:
    assert doctest.testmod(module, extraglobs={"words": shell.Words()}).failed == 0


# --- the loaders -----------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=20)
TEXTS = st.one_of(st.none(), st.text(), JSON.map(json.dumps),
                  st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth))
LOADERS = [stored.load_settings, stored.load_tally, stored.load_seat, stored.load_deal,
           stored.load_books, statsview.load_stats]


# Texts near what the loaders take: what older releases stored, setting-like objects,
# tallies, numbers and lists of names.
STORED_TEXTS = sorted({text for name in FIXTURE_NAMES
                       for text in fixture(name)["storage"].values()})
NEAR = st.one_of(
    st.sampled_from(STORED_TEXTS),
    st.dictionaries(st.text(max_size=45), st.one_of(st.booleans(), st.text(max_size=210),
                                                     st.integers(), st.none()),
                    max_size=4).map(json.dumps),
    st.fixed_dictionaries({}, optional={"won": st.integers(-1, 10 ** 6 + 1),
                                        "lost": st.integers(-1, 10 ** 6 + 1),
                                        "games": st.lists(st.text(max_size=4), max_size=2)}
                          ).map(json.dumps),
    st.integers(-5, 10 ** 4).map(str), st.integers(-1, 12).map(str),
    st.lists(st.text(max_size=25), max_size=4).map(json.dumps))


def is_setting(name: object, value: object) -> bool:
    return (isinstance(name, str) and 0 < len(name) <= stored.NAME_LIMIT
            and (value is True or value is False
                 or (isinstance(value, str) and len(value) <= stored.VALUE_LIMIT)))


@settings(max_examples=300, derandomize=True)
@given(text=st.one_of(TEXTS, NEAR))
def test_no_loader_raises_on_any_stored_text(text: str | None) -> None:
    """Each loader gives its default with the problem said, or a value of its shape
    that reads back as it is."""
    values, problem = stored.load_settings(text)
    assert isinstance(values, dict) and all(is_setting(k, v) for k, v in values.items())
    assert stored.load_settings(json.dumps(values)) == (values, None)
    if problem is None and text is not None:
        assert values == json.loads(text)
    tally, problem = stored.load_tally(text)
    assert set(tally) == {"won", "lost"}
    assert all(type(n) is int and 0 <= n <= 10 ** 6 for n in tally.values())
    assert stored.load_tally(json.dumps(tally)) == (tally, None)
    assert problem is None or tally == {"won": 0, "lost": 0}
    for loader, low, high in ((stored.load_seat, 0, 3),  # four players at most
                              (stored.load_deal, 1, stored.MAX_DEAL)):
        number, problem = loader(text)
        assert (problem is None) == (text is None or number is not None)
        if number is not None:
            assert type(number) is int and low <= number <= high and int(str(text)) == number
            assert loader(str(number)) == (number, None)
    books, problem = stored.load_books(text)
    assert len(set(books)) == len(books) and all(
        isinstance(book, str) and book and handoffview.clean_name(book) == book
        for book in books)
    assert stored.load_books(json.dumps(books)) == (books, None)
    assert problem is None or books == []
    stats, problem = statsview.load_stats(text)
    assert statsview.load_stats(json.dumps(stats)) == (stats, None)
    assert problem is None or stats == statsview.new_stats()
    aside = stored.read_aside(text)
    if aside is not None:
        assert set(aside) == {"text", "reason", "newer", "when"}
        assert stored.read_aside(stored.aside_record(aside["text"], aside["reason"],
                                                     aside["newer"], aside["when"])) == aside
    try:
        saved, game = tableview.read_envelope(text)
    except tableview.SaveError as error:
        assert str(error) and error.newer in (True, False)
    else:
        assert isinstance(saved, dict) and isinstance(game, str)
        assert tableview.read_envelope(tableview.save_envelope(saved, game)) == (saved, game)


def test_the_issues_setting_is_kept_for_the_dialog_to_refuse() -> None:
    # {"players": "9"} stopped the page: the loader keeps text (the dialog offers only
    # its own options, main.restore_form) and drops what is not a setting at all.
    assert stored.load_settings('{"players": "9"}') == ({"players": "9"}, None)
    values, problem = stored.load_settings('{"players": 9, "name0": "x", ')
    assert values == {} and problem == "settings: not JSON"
    values, problem = stored.load_settings(json.dumps({"players": 9, "name0": "Ana",
                                                       "x" * 41: "a", "sounds": None}))
    assert values == {"name0": "Ana"} and problem is not None and "players" in problem


@pytest.mark.parametrize("text,expected", [
    ('{"won": 3, "lost": 1}', {"won": 3, "lost": 1}), ('{"won": true}', None),
    ('{"won": 1.5}', None), ('{"won": 10000001}', None), ('{"won": 1, "x": 2}', None),
    ("[1, 2]", None), ("NaN", None)])
def test_the_tally(text: str, expected: dict[str, int] | None) -> None:
    tally, problem = stored.load_tally(text)
    assert tally == (expected or {"won": 0, "lost": 0})
    assert (problem is None) == (expected is not None)


@pytest.mark.parametrize("text,seat,deal", [
    ("0", 0, None), ("3", 3, 3), ("4", None, 4), ("-1", None, None), ("1.0", None, None),
    (" 1", None, None), ("١", None, None), ("99999", None, None)])
def test_seats_and_deals(text: str, seat: int | None, deal: int | None) -> None:
    assert stored.load_seat(text)[0] == seat
    assert stored.load_deal(text)[0] == deal


def test_statistics_that_would_reach_the_page_unescaped_are_dropped() -> None:
    good = statsview.new_stats()
    good["levels"]["expert"] = [1, 0]
    good["best"] = {"points": 12, "cards": ["5S", "5H", "JD", "KC"], "starter": "5D"}
    assert statsview.load_stats(json.dumps(good)) == (good, None)
    for bad in ({'"><img src=x>': [1, 0]}, {"": [1, 0]}):
        data = dict(good, levels=bad)
        assert statsview.load_stats(json.dumps(data))[1] is not None
    for best in ({"points": 12, "cards": ["<b>", "5H", "JD", "KC"], "starter": "5D"},
                 {"points": 12, "cards": ["5S", "5H", "JD", "KC"], "starter": 5},
                 {"points": 12, "cards": "5S5HJDKC", "starter": "5D"}):
        assert statsview.load_stats(json.dumps(dict(good, best=best)))[1] is not None
    assert statsview.load_stats("[" * 100000 + "]" * 100000)[1] is not None


# --- the save's envelope ----------------------------------------------------------------------

ENVELOPE = json.loads(tableview.save_envelope({"level": "easy"}, "{}"))


@pytest.mark.parametrize("change,newer", [
    ({"version": 2}, True), ({"version": 99}, True), ({"extra": 1}, True),
    ({"version": "1"}, False), ({"version": True}, False), ({"version": 0}, False),
    ({"game": 3}, False), ({"settings": []}, False), ({"format": "x"}, False)])
def test_an_envelope_the_page_cannot_load_says_whether_it_is_newer(change: dict[str, Any],
                                                                     newer: bool) -> None:
    with pytest.raises(tableview.SaveError) as caught:
        tableview.read_envelope(json.dumps({**ENVELOPE, **change}))
    assert caught.value.newer is newer


def test_saves_set_aside_keep_the_last_few_and_never_overwrite() -> None:
    keys: list[str] = []
    for number in range(1, 6):
        key, drop = stored.aside_plan(keys)
        assert key == f"cribbage.aside:{number}" and key not in keys
        keys = [k for k in keys + [key] if k not in drop]
        assert len(keys) <= stored.ASIDE_KEPT
    assert keys == ["cribbage.aside:3", "cribbage.aside:4", "cribbage.aside:5"]
    record = stored.aside_record('{"any": "text"}', "why", False, 12.5)
    assert stored.read_aside(record) == {"text": '{"any": "text"}', "reason": "why",
                                         "newer": False, "when": 12.5}


# --- saves of older releases ------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_save_of_an_older_release_resumes(name: str) -> None:
    made = fixture(name)
    assert len(made["commit"]) >= 7 and made["storage"]["cribbage.save"]
    storage = made["storage"]
    saved, game = tableview.read_envelope(storage["cribbage.save"])
    settings = shell.settings_from_saved(saved, OFFER)  # older settings brought up to date
    seats = handoffview.saved_seats(saved, settings["rules"]["players"])
    assert len(seats) == settings["rules"]["players"] and handoffview.people({"seats": seats})
    reply = json.loads(Session().call("load", json.dumps({"save": game, "seat": 0})))
    assert reply["ok"], reply
    assert reply["result"]["phase"] not in ("over", None)
    assert json.loads(game)["rules"] == {k: v for k, v in settings["rules"].items()
                                         if k in json.loads(game)["rules"]}
    for key, text in storage.items():  # every other key reads without a problem
        if key.startswith("cribbage.stats:") or key == "cribbage.stats":
            assert statsview.load_stats(text)[1] is None
        loader = {"cribbage.settings": stored.load_settings, "cribbage.tally": stored.load_tally,
                  "cribbage.viewer": stored.load_seat, "cribbage.showing": stored.load_deal,
                  "cribbage.stats.books": stored.load_books}.get(key)
        if loader is not None:
            assert loader(text)[1] is None, (key, text)


def test_the_fixtures_span_the_formats_that_changed() -> None:
    games = {name: json.loads(json.loads(fixture(name)["storage"]["cribbage.save"])["game"])
             for name in FIXTURE_NAMES}
    settings = {name: json.loads(fixture(name)["storage"]["cribbage.save"])["settings"]
                for name in FIXTURE_NAMES}
    assert any("manual_pegging" not in game["rules"] for game in games.values())
    assert any("cards" not in game["rules"] for game in games.values())
    assert any("undos" in game["setup"] for game in games.values())
    assert any("seats" not in value for value in settings.values())
    assert any(len(value.get("seats", [])) == 4 for value in settings.values())
    old_stats = json.loads(fixture("manual_pegging")["storage"]["cribbage.stats"])
    assert "results" not in old_stats  # statistics before results, hands and accuracy


# --- backup and restore -------------------------------------------------------------------------


def device(name: str) -> dict[str, str]:
    """A device's storage: an older release's fixture, plus the other pages' keys."""
    values = dict(fixture(name)["storage"])
    values.update({"cribbage-puzzles": '{"history": {}, "practice": 4}',
                   "cribbage-drills": '{"easy": {"tried": 2}}', "cribbage-lang": "ja",
                   "cribbage.aside:7": stored.aside_record("{junk", "not JSON", False, 1.0)})
    return values


def restored(values: dict[str, str], onto: dict[str, str]) -> dict[str, str]:
    """``onto`` after restoring the backup of ``values`` (as tablesaves.restore writes)."""
    text = backup.make_backup(values.get, list(values), "2026-12-07T10:00:00Z")
    plan = backup.read_backup(text, OFFER)
    after = dict(onto)
    books = stored.load_books(onto.get("cribbage.stats.books"))[0]
    for key, value in backup.restore_writes(plan, books, list(onto)):
        if value is None:
            after.pop(key, None)
        else:
            after[key] = value
    return after


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_a_backup_carries_every_key_to_a_fresh_device(name: str) -> None:
    values = device(name)
    after = restored(values, {})
    assert set(after) == set(values) - {"cribbage.aside:7"} | {"cribbage.aside:1"}
    for key, text in values.items():
        if key.startswith("cribbage.aside:"):
            assert stored.read_aside(after["cribbage.aside:1"]) == stored.read_aside(text)
        elif key == "cribbage-lang":
            assert after[key] == text
        elif key.startswith("cribbage.stats") and key != "cribbage.stats.books":
            assert json.loads(after[key]) == statsview.load_stats(text)[0]  # brought up to date
        else:
            assert json.loads(after[key]) == json.loads(text), key


def test_a_restore_keeps_the_devices_other_names_and_sets_nothing_else() -> None:
    onto = {"cribbage.stats.books": '["Cy"]', "cribbage.stats:Cy": json.dumps(
        statsview.new_stats()), "cribbage.viewer": "3", "cribbage.showing": "2"}
    after = restored(device("pass_and_play"), onto)
    assert json.loads(after["cribbage.stats.books"]) == ["Cy", "Ana", "Bo"]
    assert "cribbage.stats:Cy" in after and after["cribbage.viewer"] == "2"
    assert "cribbage.showing" not in after  # the show waiting belonged to the other game


def test_a_backup_without_a_game_leaves_the_devices_game() -> None:
    values = {"cribbage.tally": '{"won": 1, "lost": 0}'}
    onto = {"cribbage.save": fixture("first_table")["storage"]["cribbage.save"]}
    assert restored(values, onto)["cribbage.save"] == onto["cribbage.save"]


def test_a_saved_game_and_a_game_file_restore_as_the_game_in_progress() -> None:
    envelope = fixture("five_cards")["storage"]["cribbage.save"]
    plan = backup.read_backup(envelope, OFFER)
    assert plan["parts"] == ["game"] and plan["writes"] == [("cribbage.save", envelope)]
    game = json.loads(envelope)["game"]
    plan = backup.read_backup(game, OFFER)
    assert plan["game"] == game
    settings, text = tableview.read_envelope(plan["writes"][0][1])
    assert text == game and shell.settings_from_saved(settings, OFFER)["rules"]["cards"] == 5


def valid_backup() -> dict[str, Any]:
    return dict(json.loads(backup.make_backup(device("pass_and_play").get,
                                              list(device("pass_and_play")))))


@pytest.mark.parametrize("change,newer", [
    ({"version": 2}, True), ({"calendar": {}}, True), ({"version": "1"}, False),
    ({"tally": {"won": -1}}, False), ({"settings": {"players": 9}}, False),
    ({"stats": {"a\nb": statsview.new_stats()}}, False), ({"stats": {"": {"version": 9}}}, False),
    ({"language": "xx"}, False), ({"viewer": 7}, False), ({"viewer": "2"}, False),
    ({"showing": 0}, False), ({"puzzles": []}, False), ({"aside": [{"text": 3}]}, False),
    ({"aside": "x"}, False), ({"game": {"format": "cribbage-table", "version": 3}}, True),
    ({"finished": "text"}, False)])
def test_a_backup_with_any_part_not_ours_is_refused_whole(change: dict[str, Any],
                                                          newer: bool) -> None:
    data = valid_backup()
    game = data["game"]
    data.update(change)
    if "game" in change and change["game"].get("version") == 3:
        data["game"] = dict(game, version=3)
    with pytest.raises(backup.BackupError) as caught:
        backup.read_backup(json.dumps(data), OFFER)
    assert caught.value.newer is newer


@pytest.mark.parametrize("part", ["viewer", "showing"])
def test_a_backup_whose_viewer_or_show_has_no_game_is_refused(part: str) -> None:
    data = {key: value for key, value in valid_backup().items()
            if key not in ("game", "viewer", "showing")}
    data[part] = 1
    with pytest.raises(backup.BackupError, match=f"{part} belongs to no game"):
        backup.read_backup(json.dumps(data), OFFER)


def test_a_backup_whose_game_has_damaged_settings_is_refused() -> None:
    data = valid_backup()
    data["game"]["settings"]["rules"]["players"] = 9
    with pytest.raises(backup.BackupError, match="game"):
        backup.read_backup(json.dumps(data), OFFER)


@cache
def backup_of(name: str) -> str:
    return str(backup.make_backup(device(name).get, list(device(name))))


@st.composite
def backup_files(draw: st.DrawFn) -> str:
    """A device's backup with some of its parts, perhaps one of them (or of its top)
    given one entry more or replaced by any JSON."""
    data = json.loads(backup_of(draw(st.sampled_from(FIXTURE_NAMES))))
    kept = draw(st.sets(st.sampled_from(backup.PARTS)))
    data = {key: value for key, value in data.items()
            if key in ("format", "version", "made") or key in kept}
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(data) + list(backup.TOP)))
        value = data.get(key)
        if isinstance(value, dict) and draw(st.booleans()):
            value = dict(value, **{draw(st.text(max_size=3)): draw(JSON)})  # one entry more
        else:
            value = draw(st.one_of(JSON, st.integers(-1, 9),
                                   st.dictionaries(st.text(max_size=3), JSON, max_size=3)))
        data[key] = value
    return json.dumps(data)


GAME_FILES = st.sampled_from([text for name in FIXTURE_NAMES for text in (
    fixture(name)["storage"]["cribbage.save"],
    json.loads(fixture(name)["storage"]["cribbage.save"])["game"])])
WRITTEN = {stored.SAVE_KEY, stored.FINISHED_KEY, stored.VIEWER_KEY, stored.SHOW_KEY,
           stored.SETTINGS_KEY, stored.TALLY_KEY, stored.PUZZLES_KEY, stored.DRILLS_KEY,
           stored.LANGUAGE_KEY}


def check_plan(plan: dict[str, Any]) -> None:
    """A restore's plan as read_backup promises it: every value it writes reads through
    its key's loader without a problem."""
    assert set(plan) - {"aside"} == {"game", "viewer", "parts", "games", "books", "made",
                                     "writes"}
    parts = plan["parts"]
    assert len(set(parts)) == len(parts) and set(parts) <= set(backup.PARTS) - {"viewer",
                                                                                 "showing"}
    written = dict(plan["writes"])
    assert len(written) == len(plan["writes"])
    games = 0
    for key, text in written.items():
        assert isinstance(text, str)
        if key in (stored.SAVE_KEY, stored.FINISHED_KEY):
            saved, game = tableview.read_envelope(text)
            shell.settings_from_saved(saved, OFFER)
        elif key.startswith(stored.STATS_KEY):
            book = key[len(stored.STATS_KEY) + 1:]
            assert key == handoffview.stats_key(stored.STATS_KEY, book)
            assert book == "" or book in plan["books"]
            stats, problem = statsview.load_stats(text)
            assert problem is None
            games += sum(won + lost for won, lost in stats["levels"].values())
        elif key in (stored.PUZZLES_KEY, stored.DRILLS_KEY):
            assert isinstance(json.loads(text), dict)
        elif key == stored.LANGUAGE_KEY:
            assert text in shell.i18n.LANGUAGES
        else:
            assert key in WRITTEN
            loader = {stored.VIEWER_KEY: stored.load_seat, stored.SHOW_KEY: stored.load_deal,
                      stored.SETTINGS_KEY: stored.load_settings,
                      stored.TALLY_KEY: stored.load_tally}[key]
            assert loader(text)[1] is None, key
    assert plan["games"] == games
    assert ("game" in parts) == (stored.SAVE_KEY in written)
    if stored.SAVE_KEY in written:
        assert plan["game"] == tableview.read_envelope(written[stored.SAVE_KEY])[1]
    else:
        assert plan["game"] is None
    assert plan["viewer"] is None or plan["viewer"] in range(4)


def decoded(writes: list[tuple[str, str]]) -> dict[str, Any]:
    return {key: text if key == stored.LANGUAGE_KEY else json.loads(text)
            for key, text in writes}


@settings(max_examples=200, derandomize=True)
@given(text=st.one_of(TEXTS, GAME_FILES, backup_files(), backup_files(), backup_files()))
def test_reading_any_file_raises_only_backup_error(text: str | None) -> None:
    """A file is refused whole with a reason, or read as a plan whose every write is
    ours, and the backup of a device it was restored onto reads as the same plan."""
    try:
        plan = backup.read_backup(text, OFFER)
    except backup.BackupError as error:
        assert str(error) and error.newer in (True, False)
        return
    check_plan(plan)
    after: dict[str, str] = {}
    for key, value in backup.restore_writes(plan, [], []):
        if value is not None:
            after[key] = value
    again = backup.read_backup(backup.make_backup(after.get, list(after)), OFFER)
    assert sorted(again["parts"]) == sorted(plan["parts"])
    assert decoded(again["writes"]) == decoded(plan["writes"])
    assert (again["game"], again["viewer"], again["games"], again["books"],
            again.get("aside")) == (plan["game"], plan["viewer"], plan["games"],
                                    plan["books"], plan.get("aside"))
