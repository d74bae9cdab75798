"""The whole-game review in the page: Review game after a game and during one, its
progress deal by deal, the graded decisions, the costliest moments drawn, the
keyboard, axe-core, and the accuracy kept in the statistics' chart."""

from __future__ import annotations

import json
from typing import Any

from .axe import assert_no_violations
from .driver import Table
from .games import last_deal_save, near_the_end_save

GRADES = {"best", "good", "inaccuracy", "mistake", "blunder"}

# Every text the progress line shows, kept in the page (the review may be quick).
WATCH_PROGRESS = """() => {
    window.__reviewProgress = [];
    const line = document.querySelector('#review .review-progress-text');
    new MutationObserver(() => window.__reviewProgress.push(line.textContent))
        .observe(line, {childList: true, characterData: true, subtree: true});
}"""


def resume(app: Any, page: Any, seed: int, target: int = 61) -> Table:
    """Open the page on a seeded game saved when its last deal was dealt."""
    table = Table(app, page).open()
    page.evaluate("text => localStorage.setItem('cribbage.save', text)",
                  last_deal_save(seed, target))
    page.reload()
    app.wait_engine()
    page.wait_for_selector("#table[data-phase=discard]")
    return table


def wait_review(page: Any) -> Any:
    review = page.locator("#review")
    review.wait_for(state="visible")
    page.wait_for_selector("#review[data-state=done]", timeout=120_000)
    return review


def test_review_a_finished_game_with_progress_keyboard_axe_and_statistics(app: Any,
                                                                          page: Any) -> None:
    table = resume(app, page, seed=3)
    table.play_until(lambda: table.phase == "over")
    over = page.locator("#game-over")
    over.wait_for(state="visible")
    page.evaluate(WATCH_PROGRESS)
    button = over.locator("[data-action=review-game]")
    button.focus()
    page.keyboard.press("Enter")  # reachable and pressed with the keyboard
    review = wait_review(page)
    assert over.is_hidden()  # the review replaced the game-over dialog
    seen = page.evaluate("window.__reviewProgress")
    deals = len({text for text in seen if text.startswith("Reviewing deal")})
    assert any(text.startswith("Reviewing deal 1 of ") for text in seen), seen
    assert deals >= 3 and "Summing up the game…" in seen
    assert review.locator(".review-progress").is_hidden()
    accuracy = float(review.locator(".review-accuracy").get_attribute("data-accuracy"))
    assert 0 <= accuracy <= 100 and "Accuracy" in review.inner_text()
    decisions = review.locator(".review-decisions li")
    assert decisions.count() >= 5
    kinds = set()
    for index in range(decisions.count()):
        item = decisions.nth(index)
        assert item.get_attribute("data-category") in GRADES
        kinds.add(item.get_attribute("data-kind"))
        assert item.locator(".grade").inner_text() and len(item.inner_text()) > 20
    assert {"discard", "play"} <= kinds
    costliest = review.locator(".review-costliest > li")
    assert 1 <= costliest.count() <= 3
    assert costliest.first.locator(".review-position [data-card]").count() >= 4  # the hand
    assert_no_violations(page, "game review", "#review")
    # Escape closes the review: the game-over dialog is back, focus on Review game.
    page.keyboard.press("Escape")
    assert review.is_hidden() and over.is_visible()
    assert page.evaluate("document.activeElement.dataset.action") == "review-game"
    # The accuracy is kept with the game's statistics and charted.
    stored = json.loads(page.evaluate("localStorage.getItem('cribbage.stats')"))
    assert [entry["accuracy"] for entry in stored["accuracy"]] == [accuracy]
    over.get_by_role("button", name="Statistics").click()
    chart = page.locator("#stats [data-chart=accuracy]")
    chart.wait_for()
    assert chart.locator("circle").count() == 1
    assert f"Game 1: {accuracy:g}" in chart.locator("desc").text_content()
    assert_no_violations(page, "statistics with accuracy", "#stats")


def test_review_the_game_in_progress_in_spanish(app: Any, page: Any) -> None:
    resume(app, page, seed=5)
    page.select_option("#language", "es")
    page.wait_for_function("() => performance.getEntriesByName('cribbage:language-switch')"
                           ".length > 0")  # the table speaks Spanish too
    button = page.locator(".table-header [data-action=review-game]")  # in the menu
    assert button.inner_text() == "Revisar partida"
    button.click()
    review = wait_review(page)
    assert "Precisión" in review.inner_text()
    grades = review.locator(".review-decisions .grade")
    assert grades.count() >= 3
    assert set(grades.all_inner_texts()) <= {"La mejor", "Buena", "Imprecisión", "Error",
                                             "Error grave"}
    assert "Mano 1" in review.locator(".review-decisions").inner_text()
    # In progress: no accuracy is kept (only finished games count).
    stats = page.evaluate("localStorage.getItem('cribbage.stats')")
    assert stats is None or not json.loads(stats).get("accuracy")
    review.locator("[data-action=review-close]").click()
    assert review.is_hidden()
    assert page.evaluate("document.activeElement.dataset.action") == "review-game"
    # The game goes on: the human still lays away.
    assert page.locator("#table").get_attribute("data-phase") == "discard"


def test_the_hint_says_when_the_board_changes_the_advice(app: Any, page: Any) -> None:
    table = Table(app, page).open()
    page.evaluate("text => localStorage.setItem('cribbage.save', text)", near_the_end_save())
    page.reload()
    app.wait_engine()
    page.wait_for_selector("#table[data-phase=discard]")
    page.select_option("#language", "ja")
    page.wait_for_function("() => performance.getEntriesByName('cribbage:language-switch')"
                           ".length > 0")
    page.locator(".actions [data-action=hint]").focus()
    page.keyboard.press("h")
    note = page.locator(".coach-panel .board-note")
    note.wait_for(timeout=60_000)
    assert "勝利まであと13点" in note.inner_text()
    rows = page.locator(".coach-panel tr[data-rank]")
    assert rows.count() == 15 and rows.first.locator("[data-win]").count() == 1
    assert sorted(table.page.locator(".coach-panel tr[data-rank='1'] [data-card]")
                  .evaluate_all("cards => cards.slice(0, 2).map(c => c.dataset.card)")) \
        == ["KD", "KH"]
    assert_no_violations(page, "hint with the board's note", ".coach-panel")
