"""Smoke tests in Firefox and WebKit: a whole game against the computer, a puzzle solved
and the tutorial's quiz and widgets, with no error in any page, through the automation
contract alone (``tests/browser/engines.py``: Firefox through puppeteer-core over
WebDriver BiDi, WebKitGTK through Selenium under Xvfb). Also: the files the table's
page preloads are downloaded once, in all three engines.

Without Firefox ESR (with Node.js and the pinned puppeteer-core) or WebKitGTK's
WebKitWebDriver (with Xvfb and selenium) a test is skipped saying what to install;
with ``CI=true`` it fails instead, so CI never passes without them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from . import engines
from .engines import Browser, RecordingServer

# Selenium's own WebKitGTK class still sets a deprecated option of its connection.
pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")

DATE = "2026-12-02"
# What index.html preloads, and PyScript then fetches (sitebuild names the version's
# folder): the interpreter, the page's main script and the two modules it imports first;
# and the file of the table's other modules, which main.py fetches itself.
PRELOADED = ("micropython.mjs", "micropython.wasm", "main.py", "dom.py", "stored.py",
             "table-modules.json")


@pytest.fixture(scope="module")
def server(site: str) -> Iterator[RecordingServer]:
    """The built site (``site`` builds it), served with the error recorder and a log."""
    served = RecordingServer()
    yield served
    served.close()


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def engine(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """One Firefox or WebKit page for the module's tests; skipped (failed under CI=true)
    when the engine is not installed."""
    why = engines.missing(request.param)
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{request.param} is required in CI: {why}", pytrace=False)
        pytest.skip(why)
    launched = engines.launch(request.param)
    yield launched
    launched.close()


def assert_no_errors(browser: Browser) -> None:
    errors = browser.all_errors()
    browser.errors.clear()
    assert not errors, f"{browser.name}: errors in the page:\n" + "\n".join(errors)


def preloaded_downloads(server: RecordingServer, since: int = 0) -> dict[str, int]:
    """How many times the pages downloaded each preloaded file (by its name in any folder)
    from the ``since``-th response on."""
    paths = {r.path for r in server.log[since:] if r.path.rsplit("/", 1)[-1] in PRELOADED}
    found = {path.rsplit("/", 1)[-1]: server.downloads(path, since) for path in paths}
    return {name: found.get(name, 0) for name in PRELOADED}


def test_a_whole_game_against_the_computer(engine: Browser, server: RecordingServer) -> None:
    since = len(server.log)  # the server is shared by both engines' tests
    engines.open_table(engine, server.url)
    # The recorder is in the page, so "no error" below means none was seen.
    assert engine.run("() => Array.isArray(window.__engineErrors)")
    # Fetched once each: the preload's request matches the later fetch (in WebKit too).
    assert preloaded_downloads(server, since) == dict.fromkeys(PRELOADED, 1)
    engines.start_game(engine, players=2, target=61)
    game = engines.play_game(engine, timeout=100)
    assert max(game["scores"]) >= 61 and len(game["scores"]) == 2, game
    assert engine.run(engines.TABLE)[0] == "over"
    assert preloaded_downloads(server, since) == dict.fromkeys(PRELOADED, 1)
    assert_no_errors(engine)


# The day's discard puzzle as the engine ranks it; the page's best choice is its first.
BEST_DISCARD = """async (date) => {
  const engine = await window.cribbageEngine.ready;
  const reply = JSON.parse(await engine.puzzle(JSON.stringify({ date, kind: "discard" })));
  return reply.ok ? reply.result.choices[0].cards.join(" ") : null;
}"""

PUZZLE = """() => {
  const puzzle = document.querySelector("#puzzle");
  return puzzle ? { ...puzzle.dataset } : null;
}"""

# As a player answers: tap each card of the choice in your hand, then Check.
CHOOSE = """(cards) => {
  const hand = (code) => document.querySelector(`#puzzle .puzzle-hand button[data-card="${code}"]`);
  const codes = cards.split(" ");
  if (!codes.every(hand)) return false;
  for (const code of codes) hand(code).click();
  const check = document.querySelector("#puzzle button.check");
  if (!check || check.disabled) return false;
  check.click();
  return true;
}"""

RANKED = """() => {
  const rows = [...document.querySelectorAll("#puzzle .bar-row")];
  if (!rows.length || !rows[0].matches(".best.chosen")) return null;
  return [rows[0].dataset.cards, rows.length];
}"""


def test_the_day_s_puzzle_solved(engine: Browser, server: RecordingServer) -> None:
    engine.open(f"{server.url}puzzles.html?date={DATE}")
    engine.wait(PUZZLE, until=lambda p: bool(p) and p.get("state") == "ask", timeout=90,
                 what="a puzzle asked")
    best = engine.run(BEST_DISCARD, DATE)
    assert best, "the engine gave no puzzle"
    assert engine.run(CHOOSE, best), f"no choice for {best}"
    answered = engine.wait(PUZZLE, until=lambda p: p.get("state") == "answered", timeout=30,
                            what="the puzzle answered")
    assert answered["kind"] == "discard" and answered["rank"] == "1", answered
    assert int(answered["of"]) == 15 and answered["picked"] == best, answered
    assert engine.run(RANKED) == [best, 15], "the chart: the best first, one bar per choice"
    assert_no_errors(engine)


# The tutorial's first quiz question answered wrong, then right; the states it went through.
QUIZ = """(answers) => {
  const question = document.querySelector('.quiz[data-quiz="deal"] .quiz-question');
  if (!question) return null;
  const states = [];
  for (const answer of answers) {
    const button = [...question.querySelectorAll("button")]
      .find((b) => b.textContent.trim() === answer);
    if (!button) return `no answer ${answer}`;
    button.click();
    states.push(question.dataset.state);
  }
  return states;
}"""

# Each widget frame's state (the widgets are pages of the same origin).
WIDGETS = """() => [...document.querySelectorAll("iframe")].map((frame) => {
  try { return frame.contentDocument.querySelector("#widget")?.dataset.state || "none"; }
  catch { return "unreadable"; }
})"""


def test_the_tutorial_asks_and_its_widgets_work(engine: Browser, server: RecordingServer) -> None:
    engine.open(f"{server.url}tutorial.html")
    engine.wait(QUIZ, [], until=lambda states: states == [], timeout=60, what="a quiz")
    assert engine.run(QUIZ, ["Five", "Six"]) == ["wrong", "right"]
    states = engine.wait(WIDGETS, until=lambda s: len(s) >= 10 and set(s) == {"ready"},
                          timeout=90, what="every widget ready")
    assert len(states) >= 10
    assert_no_errors(engine)


def test_preloaded_files_are_downloaded_once_in_chromium(page: Any, site: str) -> None:
    """The same check in Chromium (pytest-playwright's page), through the same server."""
    served = RecordingServer()
    try:
        engines.open_table(engines.PlaywrightBrowser(page), served.url)
        assert preloaded_downloads(served) == dict.fromkeys(PRELOADED, 1)
    finally:
        served.close()
