"""The player's data in the browser, through the page: full storage never stops play,
no stored value stops the table, saves the page cannot load are set aside (never
deleted), saves of older releases resume, and a backup moves everything to a fresh
profile (web/table/tablesaves.py, web/views/stored.py and backup.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .axe import violations
from .driver import Table
from .games import near_the_end_save

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saves"
GAME_PHASES = ("cut", "discard", "play", "show", "over", "handoff")

# Fills localStorage to its last character: keys of halving sizes until none fits.
FILL = """() => {
  let count = 0;
  for (let size = 1 << 22; size >= 1; size >>= 1) {
    const block = "x".repeat(size);
    for (;;) {
      try { localStorage.setItem("fill" + count, block); count += 1; } catch { break; }
    }
  }
  return count;
}"""
UNFILL = """() => { for (const key of Object.keys(localStorage)) {
  if (key.startsWith("fill")) localStorage.removeItem(key); } }"""
STORE = """(values) => { localStorage.clear();
  for (const [key, text] of Object.entries(values)) localStorage.setItem(key, text); }"""


def stored(page: Any, key: str) -> Any:
    return page.evaluate("key => localStorage.getItem(key)", key)


def reload_and_settle(page: Any) -> str:
    """Reload, wait until the table has tried its save; what happened (data-resume)."""
    page.reload()
    page.wait_for_selector("#table[data-resume]")
    return str(page.get_attribute("#table", "data-resume"))


def downloaded(page: Any, selector: str) -> str:
    with page.expect_download() as info:
        page.locator(selector).click()
    return Path(info.value.path()).read_text(encoding="utf-8")


def no_axe_violations(page: Any, what: str) -> None:
    found = violations(page)
    assert not found, f"{what}: {found}"


def test_full_storage_keeps_the_game_going_and_says_so(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    banner = page.locator(".storage-banner")
    assert banner.is_hidden()
    before = json.loads(stored(page, "cribbage.save"))
    assert page.evaluate(FILL) > 0
    table.play_until(lambda: table.phase == "play")  # moves go on with nowhere to keep them
    banner.wait_for(state="visible")
    assert page.get_attribute("#table", "data-saving") == "failed"
    assert json.loads(stored(page, "cribbage.save")) == before  # the last save kept stays
    no_axe_violations(page, "the banner")
    game = json.loads(downloaded(page, "[data-action=download-game]"))
    assert game == json.loads(app.result("save")["save"])  # the game as the engine holds it
    assert len(game["moves"]) > len(json.loads(before["game"])["moves"])
    # A reload with storage still full comes up and resumes the last save kept.
    assert reload_and_settle(page) == "resumed"
    page.wait_for_selector("#table:not([data-phase=setup])")
    page.evaluate(UNFILL)  # room again: the next move is saved and the banner goes
    table.play_until(lambda: banner.is_hidden())
    assert page.get_attribute("#table", "data-saving") is None
    saved = json.loads(json.loads(stored(page, "cribbage.save"))["game"])
    assert saved == json.loads(app.result("save")["save"])


def test_saves_the_page_cannot_load_are_set_aside_and_offered(app: Any, page: Any) -> None:
    app.open().wait_engine()
    newer = json.loads(near_the_end_save())
    newer["version"], newer["board"] = 2, "a part of a newer version"
    newer_text = json.dumps(newer)
    page.evaluate(STORE, {"cribbage.save": newer_text})
    assert reload_and_settle(page) == "set-aside"
    notice = page.locator("#new-game .notice")
    assert "newer version" in notice.inner_text() and "saved game" in notice.inner_text()
    assert stored(page, "cribbage.save") is None
    record = json.loads(stored(page, "cribbage.aside:1"))
    assert record["text"] == newer_text and record["newer"] is True
    assert downloaded(page, "#new-game [data-action=aside-download]") == newer_text
    # The engine's own save in a newer version: the engine refuses it, the page keeps it.
    inner = json.loads(near_the_end_save())
    game = json.loads(inner["game"])
    game["version"] = 2
    inner["game"] = json.dumps(game)
    page.evaluate("text => localStorage.setItem('cribbage.save', text)", json.dumps(inner))
    assert reload_and_settle(page) == "set-aside"
    assert "could not be resumed" in page.locator("#new-game .notice").inner_text()
    assert json.loads(stored(page, "cribbage.aside:2"))["text"] == json.dumps(inner)
    page.locator(".table-header [data-action=stats]").click()
    items = page.locator("#stats .aside-list li")
    assert items.count() == 2 and "newer version" in items.nth(1).inner_text()
    assert downloaded(page, "#stats .aside-list li:nth-child(2) button") == newer_text
    # Opened here, the newer save changes nothing and says why.
    page.locator("#stats input[name=backup-file]").set_input_files(
        files=[{"name": "newer.json", "mimeType": "application/json",
                "buffer": newer_text.encode()}])
    message = page.locator("#stats .backup-message")
    message.wait_for(state="visible")
    assert "newer version" in message.inner_text()
    assert page.locator("#stats .backup-confirm").is_hidden()
    assert stored(page, "cribbage.save") is None


def test_saves_of_older_releases_resume_on_the_page(app: Any, page: Any) -> None:
    app.open().wait_engine()
    first = json.loads((FIXTURES / "first_table.json").read_text())["storage"]
    page.evaluate(STORE, first)
    assert reload_and_settle(page) == "resumed"
    page.wait_for_selector("#table[data-phase=play]")
    assert page.locator("#new-game").is_hidden()
    shared = json.loads((FIXTURES / "pass_and_play.json").read_text())["storage"]
    page.evaluate(STORE, shared)
    assert reload_and_settle(page) == "resumed"
    page.wait_for_selector("#table[data-phase=handoff]")
    assert "Bo" in page.locator("#handoff").inner_text()  # the viewer kept: seat 2, Bo
    page.locator("#handoff [data-action=show-cards]").click()
    page.locator(".table-header [data-action=stats]").click()
    books = page.locator("#stats select[name=stats-book] option")
    assert [books.nth(i).inner_text() for i in range(books.count())][1:] == ["Ana", "Bo"]


# --- garbage in every key ------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10 ** 12) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10)
SETTINGS = {"players": "3", "target": "61", "cards": "6", "level": "easy", "counting": "manual",
            "who0": "person", "name0": "Ana", "sounds": True, "speed": "0"}
SAVE = json.loads(near_the_end_save())
STATS = {"version": 1, "levels": {"easy": [1, 2]}, "skunks": [0, 1], "deals": 4, "hand": 30,
         "pegging": 12, "cribs": 2, "crib": 9, "best": {"points": 12, "cards": ["5S", "5H",
         "JD", "KC"], "starter": "5D"}, "last": {"game": "g", "deal": 4, "over": True}}


def near(valid: Any) -> Any:
    """JSON text of ``valid`` with one part replaced by anything."""
    if isinstance(valid, dict) and valid:
        return st.builds(lambda key, value: json.dumps({**valid, key: value}),
                         st.sampled_from(sorted(valid)), JSON_VALUES | st.text(max_size=8))
    return st.nothing()


def text_for(valid: Any) -> Any:
    """What a key may hold: nothing, its valid value, one part of it replaced, any JSON,
    or text that is not JSON."""
    return st.one_of(st.none(), st.just(valid if isinstance(valid, str) else json.dumps(valid)),
                     near(valid), JSON_VALUES.map(json.dumps), st.text(max_size=30))


KEYS = {
    "cribbage.settings": SETTINGS, "cribbage.save": near_the_end_save(),
    "cribbage.finished": near_the_end_save(), "cribbage.tally": {"won": 3, "lost": 2},
    "cribbage.stats": STATS, "cribbage.stats.books": ["Ana"], "cribbage.stats:Ana": STATS,
    "cribbage.viewer": "1", "cribbage.showing": "2", "cribbage-lang": "es",
    "cribbage-puzzles": {"history": {}, "practice": 2}, "cribbage-drills": {},
    "cribbage.aside:1": {"format": "cribbage-aside", "text": "x", "reason": "", "when": 0},
}
ALL_KEYS = st.fixed_dictionaries({key: text_for(valid) for key, valid in KEYS.items()})
ISSUE_CASE = {"cribbage.settings": '{"players": "9"}'}  # a choice the dialog lacks
SAVE_BAD_SETTINGS = {"cribbage.save": json.dumps({**SAVE, "settings": {"rules": {"players": 9}}}),
                     "cribbage.settings": '{"cards": ["6"], "level": "<b>"}',
                     "cribbage.stats": '{"version": 1, "levels": {"\\"><b>": [1, 1]}}',
                     "cribbage.viewer": "99", "cribbage.showing": "-1", "cribbage-lang": "xx"}


@settings(max_examples=4, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(values=ALL_KEYS)
@example(values=ISSUE_CASE)
@example(values=SAVE_BAD_SETTINGS)
@example(values={**{key: "null" for key in KEYS}, "cribbage.save": near_the_end_save()})
def test_garbage_in_every_stored_key_never_stops_the_table(app: Any, page: Any,
                                                           values: dict[str, Any]) -> None:
    if page.url == "about:blank":
        app.open("?speed=0").wait_engine()
    page.evaluate(STORE, {key: text for key, text in values.items() if text is not None})
    outcome = reload_and_settle(page)
    if outcome == "resumed":
        page.wait_for_selector("#table:not([data-phase=setup]):not([data-phase=loading])")
        assert page.get_attribute("#table", "data-phase") in GAME_PHASES
    else:
        assert outcome in ("none", "set-aside", "finished"), outcome
        assert page.get_attribute("#table", "data-phase") == "setup"
        assert page.locator("#new-game button[name=start]").is_enabled()
        players = page.locator("#new-game select[name=players]").input_value()
        assert players in ("2", "3", "4")
    page.locator(".table-header [data-action=stats]").click()
    page.wait_for_selector("#stats .stats-body table", timeout=15_000)  # drawn from them too
    page.locator("#stats [data-action=stats-close]").click()
    if outcome == "set-aside":  # moved aside, never deleted
        assert stored(page, "cribbage.save") is None
        asides = page.evaluate("Object.keys(localStorage).filter(k => "
                               "k.startsWith('cribbage.aside:'))")
        assert values["cribbage.save"] in [json.loads(stored(page, key))["text"]
                                           for key in asides]


# --- backup and restore -------------------------------------------------------------------


def test_a_backup_restores_everything_in_a_fresh_profile(app: Any, page: Any, browser: Any,
                                                         base_url: str, tmp_path: Path) -> None:
    table = Table(app, page).open().start(players="3", target="61")
    table.play_until(lambda: table.phase == "play")
    page.evaluate("""() => {
        localStorage.setItem('cribbage.tally', '{"won": 4, "lost": 1}');
        localStorage.setItem('cribbage-puzzles', '{"history": {"2026-12-01": {}}, "practice": 3}');
        localStorage.setItem('cribbage-drills', '{"easy": {"tried": 5, "right": 4}}');
    }""")
    page.locator(".table-header [data-action=stats]").click()
    estimate = page.locator("#stats .storage-estimate")
    page.wait_for_function("() => document.querySelector('#stats .storage-estimate')"
                           ".textContent.includes('MB')")
    assert "MB" in estimate.inner_text()
    text = downloaded(page, "#stats [data-action=backup-export]")
    data = json.loads(text)
    assert data["format"] == "cribbage-backup" and data["tally"] == {"won": 4, "lost": 1}
    assert data["drills"] == {"easy": {"tried": 5, "right": 4}}
    before = {key: stored(page, key) for key in (
        "cribbage.save", "cribbage.settings", "cribbage.tally", "cribbage-puzzles",
        "cribbage-drills")}
    backup = tmp_path / "backup.json"
    backup.write_text(text, encoding="utf-8")

    fresh = browser.new_context(base_url=base_url)
    try:
        other = fresh.new_page()
        errors: list[str] = []
        other.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        other.on("pageerror", lambda error: errors.append(str(error)))
        other.goto("/?speed=0")
        other.wait_for_selector("#table[data-resume=none]")
        other.locator(".table-header [data-action=stats]").click()
        chooser = other.locator("#stats input[name=backup-file]")
        chooser.set_input_files(str(backup))
        confirm = other.locator("#stats .backup-confirm")
        confirm.wait_for(state="visible")
        assert "game in progress" in confirm.inner_text()
        no_axe_violations(other, "the restore's question")
        other.locator("#stats [data-action=backup-cancel]").click()  # no: nothing written
        assert confirm.is_hidden() and stored(other, "cribbage.tally") is None
        chooser.set_input_files(str(backup))
        confirm.wait_for(state="visible")
        other.locator("#stats [data-action=backup-replace]").click()
        other.wait_for_selector("#table[data-resume=resumed]")  # the page starts again from it
        other.wait_for_selector("#table[data-phase=play]")
        assert {key: json.loads(stored(other, key)) for key in before} == {
            key: json.loads(text) for key, text in before.items()}
        assert not errors, errors
    finally:
        fresh.close()
