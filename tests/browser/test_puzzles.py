"""Browser tests of the puzzles page (puzzles.html) and the counting drill widget.

- The day's discard and play puzzles: ready within 0.3 s of the engine, the
  same as the engine's own puzzle for the date, each choice a button named in
  words; answering sets #puzzle[data-rank] to the coach's rank of the choice,
  the share text says how it went without a card, the answer, the history and
  the streak survive a reload; practice puzzles; Spanish button names.
- No main-thread task over 200 ms; axe-core finds nothing on the answered
  page; nothing wider than a 360 px screen.
- The counting drill on the page and as embed.html?widget=drill: a right and
  a wrong count, the breakdown, the progress kept; hostile parameters refused.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest

from .axe import assert_no_violations

DATE = "2026-12-02"
PUZZLE = "#puzzle[data-state=ask]"


def engine_puzzle(page: Any, kind: str, lang: str = "en") -> dict[str, Any]:
    text = page.evaluate(
        "async (p) => (await window.cribbageEngine.ready).puzzle(p)",
        json.dumps({"date": DATE, "kind": kind, "lang": lang}),
    )
    reply = json.loads(text)
    assert reply["ok"], reply
    return reply["result"]  # type: ignore[no-any-return]


def open_puzzles(page: Any, query: str = f"?date={DATE}") -> Any:
    page.goto("/puzzles.html" + query)
    page.wait_for_selector(PUZZLE)
    return page.locator("#puzzle")


def test_the_daily_puzzles_answered_shared_and_remembered(page: Any) -> None:
    puzzle = open_puzzles(page)
    marks = page.evaluate("""() => Object.fromEntries(performance.getEntriesByType('mark')
        .map(m => [m.name, m.startTime]))""")
    # Asked at once, computed as soon as the engine is up: drawn without a step of the
    # player's (the 0.3 s target is a figure of bench/page_puzzles.py, not a timed test).
    waited = marks["cribbage:puzzle-ready:discard"] - marks["cribbage:engine-ready"]
    assert 0 <= waited <= 5000, marks
    assert puzzle.get_attribute("data-kind") == "discard"
    expected = engine_puzzle(page, "discard")
    buttons = puzzle.locator("button.choice")
    assert buttons.count() == 15
    for choice in expected["choices"]:  # each button is named by the engine's words
        assert page.get_by_role("button", name=choice["name"], exact=True).count() == 1
    assert all(" and " in c["name"] and " of " in c["name"] for c in expected["choices"])
    best = expected["choices"][0]
    page.get_by_role("button", name=best["name"], exact=True).click()
    page.wait_for_selector("#puzzle[data-state=answered]")
    assert puzzle.get_attribute("data-rank") == "1"
    assert puzzle.locator(".ranked").count() == 15
    share = page.locator("#share-text").inner_text()
    assert share.startswith(f"Cribbage puzzle {DATE}: discard ✓ (best), play –")

    page.get_by_role("button", name="Play of the day", exact=True).click()
    page.wait_for_selector("#puzzle[data-kind=play][data-state=ask]")
    play = engine_puzzle(page, "play")
    worst = play["choices"][-1]
    assert worst["rank"] > 1
    page.get_by_role("button", name=worst["name"], exact=True).click()
    page.wait_for_selector("#puzzle[data-state=answered]")
    assert puzzle.get_attribute("data-rank") == str(worst["rank"])
    share = page.locator("#share-text").inner_text()
    ordinal = {2: "2nd", 3: "3rd"}.get(worst["rank"], f"{worst['rank']}th")
    assert f"play ✗ ({ordinal} of {len(play['choices'])})" in share
    for choice in play["choices"]:  # no spoilers: no card in the share text
        assert choice["name"] not in share and choice["cards"][0] not in share
    long_tasks = page.evaluate("window.__longTasks")
    assert all(task["duration"] <= 200 for task in long_tasks), long_tasks

    page.reload()
    page.wait_for_selector("#puzzle[data-state=answered]")
    assert puzzle.get_attribute("data-rank") == "1"  # the discard, answered before
    stored = json.loads(page.evaluate("localStorage.getItem('cribbage-puzzles')"))
    assert stored["history"][DATE]["play"]["rank"] == worst["rank"]
    assert page.locator("#history-list li").first.text_content().startswith(DATE)


def test_the_streak_counts_days_in_a_row(page: Any) -> None:
    page.goto("/puzzles.html")
    page.wait_for_selector("#puzzle[data-state=ask]")
    days = page.evaluate("""() => {
      const pad = (n) => String(n).padStart(2, '0');
      const iso = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      const out = [];
      for (const back of [1, 2, 3, 5]) {
        const d = new Date();
        d.setDate(d.getDate() - back);
        out.push(iso(d));
      }
      return out;
    }""")
    result = {"rank": 1, "of": 15, "cards": ["5S", "5H"]}
    history = {day: {"discard": result, "play": {"rank": 2, "of": 3, "cards": ["5S"]}}
               for day in days}
    history["bad-date"] = {"discard": "<img src=x>"}
    page.evaluate("(s) => localStorage.setItem('cribbage-puzzles', s)",
                  json.dumps({"history": history, "practice": 0}))
    page.reload()
    page.wait_for_selector("#puzzle[data-state=ask]")
    assert "3 days" in page.locator("#streak").text_content()
    assert page.locator("#history-list li").count() == 4


def test_practice_puzzles(page: Any) -> None:
    puzzle = open_puzzles(page)
    page.get_by_role("button", name="Practice play", exact=True).click()
    page.wait_for_selector("#puzzle[data-practice][data-kind=play][data-state=ask]")
    first = puzzle.get_attribute("data-id")
    puzzle.locator("button.choice").first.click()
    page.wait_for_selector("#puzzle[data-state=answered]")
    assert int(puzzle.get_attribute("data-rank")) >= 1
    page.get_by_role("button", name="Another practice puzzle").click()
    page.wait_for_selector("#puzzle[data-practice][data-state=ask]")
    assert puzzle.get_attribute("data-id") != first
    # practice answers are not the day's
    assert page.evaluate("localStorage.getItem('cribbage-puzzles')") is None or \
        DATE not in json.loads(page.evaluate("localStorage.getItem('cribbage-puzzles')"))["history"]


@pytest.mark.browser_context_args(locale="es-ES")
def test_the_puzzle_speaks_spanish(page: Any) -> None:
    puzzle = open_puzzles(page)
    expected = engine_puzzle(page, "discard", "es")
    for choice in expected["choices"]:
        assert " y " in choice["name"] and " de " in choice["name"]
        assert page.get_by_role("button", name=choice["name"], exact=True).count() == 1
    assert page.locator("h1").inner_text() == "Problemas de cribbage"
    puzzle.locator("button.choice").first.click()
    page.wait_for_selector("#puzzle[data-state=answered]")
    assert "guarda" in puzzle.locator(".ranked-reason").first.inner_text()
    assert page.locator("#share-text").inner_text().startswith(f"Problema de cribbage {DATE}")


def test_axe_and_a_narrow_screen(page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    puzzle = open_puzzles(page)
    page.wait_for_selector("#drill .drill[data-state=ask]")
    puzzle.locator("button.choice").nth(3).click()
    page.wait_for_selector("#puzzle[data-state=answered]")
    assert_no_violations(page, "the puzzles page, answered, at 360 px")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360, wide


def test_the_drill_on_the_page(page: Any) -> None:
    open_puzzles(page)
    page.select_option("#drill-level", "double-runs")
    drill = page.locator("#drill .drill[data-level=double-runs]")
    drill.locator("[data-state=ask]").or_(page.locator("#drill .drill[data-state=ask]")).wait_for()
    field = page.get_by_label("Points", exact=True)
    field.fill("0")
    page.get_by_role("button", name="Check").click()
    page.wait_for_selector("#drill .drill[data-state=answered]")
    total = int(page.locator("#drill .drill").get_attribute("data-total"))
    assert total >= 8 and page.locator("#drill .drill").get_attribute("data-correct") == "false"
    assert f"You missed {total}" in page.locator(".drill-verdict").inner_text()
    assert "runs" in page.locator(".drill-kinds").inner_text()
    assert page.locator("#drill .said").inner_text().startswith("Said aloud:")
    page.get_by_role("button", name="Next hand").click()
    page.wait_for_selector("#drill .drill[data-state=ask]")
    stored = json.loads(page.evaluate("localStorage.getItem('cribbage-drills')"))
    assert stored["double-runs"] == {"tried": 1, "right": 0, "streak": 0, "best_timed": 0}


def test_the_drill_widget(page: Any) -> None:
    page.goto("/embed.html?widget=drill&level=runs&seed=3")
    page.wait_for_selector("#widget .drill[data-state=ask]")
    expected = json.loads(page.evaluate(
        "async () => (await (await import('./engine-client.mjs')).startEngine().call("
        "'drill', JSON.stringify({level: 'runs', seed: 3})))"))["result"]
    shown = page.locator("#widget .card[data-card]").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")
    assert shown == [*expected["hand"], expected["starter"]]
    page.get_by_label("Points", exact=True).fill(str(expected["total"]))
    page.get_by_label("Points", exact=True).press("Enter")
    page.wait_for_selector("#widget .drill[data-state=answered][data-correct=true]")
    assert page.locator(".drill-verdict").inner_text() == f"Right: {expected['total']}."
    assert_no_violations(page, "the drill widget, answered")


def test_the_timed_drill(page: Any) -> None:
    page.clock.install()
    page.goto("/embed.html?widget=drill&level=easy&timed=1&lang=ja")
    page.get_by_role("button", name="タイマー開始").click()
    page.wait_for_selector("#widget .drill[data-state=ask]")
    page.get_by_label("点数", exact=True).fill("99")
    page.get_by_role("button", name="答え合わせ").click()
    assert "0から29" in page.locator(".widget-error").inner_text()
    page.clock.run_for(61_000)
    page.wait_for_selector("#widget .drill[data-state=over]")
    assert "時間切れ" in page.locator(".drill-clock").inner_text()


@pytest.mark.parametrize("query", [
    "widget=drill&level=" + quote("<script>window.__pwned=1</script>"),
    "widget=drill&level=impossible",
    "widget=drill&seed=-1",
    "widget=drill&seed=99999999999999",
    "widget=drill&timed=maybe",
    "widget=drill&level=easy&hand=5S",
    "widget=drill&level=easy&level=runs",
])
def test_hostile_drill_parameters(page: Any, query: str) -> None:
    page.goto("/embed.html?" + query)
    page.wait_for_selector("#widget[data-state=error]")
    assert page.locator(".widget-error").inner_text().startswith("This widget cannot be shown")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#widget script, #widget img").count() == 0


def test_the_tutorial_asks(page: Any) -> None:
    page.goto("/tutorial.html")
    quizzes = page.locator(".quiz[data-quiz]")
    page.locator(".quiz .quiz-question").first.wait_for()
    assert quizzes.count() == 10
    assert page.locator(".quiz-question").count() == 20
    assert page.locator("a[href='./puzzles.html']").count() == 1
    first = page.locator(".quiz[data-quiz=deal] .quiz-question").first
    first.get_by_role("button", name="Five").click()
    assert first.get_attribute("data-state") == "wrong"
    assert first.locator(".quiz-feedback").inner_text().startswith("Not quite. Six each")
    first.get_by_role("button", name="Six").click()
    assert first.get_attribute("data-state") == "right"
    runs = page.locator(".quiz[data-quiz=runs] .quiz-question").nth(1)
    runs.get_by_role("button", name="16").click()
    assert runs.get_attribute("data-state") == "right"
    assert_no_violations(page, "a tutorial quiz, answered", ".quiz[data-quiz=deal]")


@pytest.mark.browser_context_args(locale="ja-JP")
def test_the_tutorial_asks_in_japanese(page: Any) -> None:
    page.goto("/tutorial.html")
    question = page.locator(".quiz[data-quiz=flush] .quiz-question").nth(1)
    question.wait_for()
    assert "クリブ" in question.locator(".quiz-q").inner_text()
    question.get_by_role("button", name="0点").click()
    assert question.get_attribute("data-state") == "right"
    assert question.locator(".quiz-feedback").inner_text().startswith("正解です。")
