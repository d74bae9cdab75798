"""The coach at the table (Hint, review, game-over summary), provably fair deals and
the statistics panel, through the page."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .driver import Table


def codes(locator: Any) -> list[str]:
    return [locator.nth(i).get_attribute("data-card") for i in range(locator.count())]


def to_first_show(table: Table, page: Any) -> None:
    """Play to the first show and stop there. Unlike ``Table.step`` this never presses
    Continue, so it cannot pass the show when the phase changes between two looks."""
    def button(action: str) -> Any:
        found = page.locator(f".actions button[data-action={action}]:not([disabled])")
        return found.first if found.count() else None

    for _ in range(3000):
        phase = table.phase
        if phase == "show":
            break
        picked = page.locator(".seat-human button.card.selected").count()
        free = page.locator(".seat-human button.card:not([disabled]):not(.selected)")
        if phase == "cut" and button("cut"):
            table.click(button("cut"))
        elif phase == "discard" and picked < 2 and free.count():
            table.click(free.first)
        elif phase == "discard" and button("send"):
            table.click(button("send"))
        elif phase == "play" and free.count():
            table.click(free.first)
        elif phase == "play" and button("go"):
            table.click(button("go"))
        page.wait_for_timeout(20)
    page.get_by_role("button", name="Continue").wait_for()


def test_the_deck_is_sealed_before_the_deal_and_revealed_after(app: Any, page: Any) -> None:
    table = Table(app, page).open().start(target="61")
    assert table.phase == "cut"  # nothing dealt yet: the first deck is already sealed
    summary = page.locator(".fair summary")
    page.wait_for_selector(".fair summary[data-deal='1']")
    sealed = summary.get_attribute("data-commitment")
    assert len(sealed) == 64 and sealed[:10] in summary.text_content()
    table.play_until(lambda: table.phase == "discard" and table.my_cards().count() == 6)
    dealt = codes(table.my_cards())
    to_first_show(table, page)
    revealed = page.locator(".fair-deals li[data-deal='1']")
    assert revealed.count() == 1
    salt = revealed.get_attribute("data-salt")
    deck = revealed.get_attribute("data-deck").split()
    assert revealed.get_attribute("data-commitment") == sealed
    assert hashlib.sha256((salt + ":" + " ".join(deck)).encode()).hexdigest() == sealed
    assert len(deck) == 52 and len(set(deck)) == 52
    # The deal came from that deck: 12 cards dealt one at a time, then the starter.
    assert sorted(dealt) in (sorted(deck[0:12:2]), sorted(deck[1:12:2]))
    starter = page.locator(".felt .starter [data-card]").get_attribute("data-card")
    assert starter == deck[12]
    # The next deal is sealed while this one is shown, before its cards are seen.
    nxt = page.locator(".fair-sealed li[data-deal='2']")
    assert nxt.count() == 1 and nxt.get_attribute("data-commitment") != sealed


def test_hint_ranks_the_discards_and_the_cards_with_values(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    hint = page.locator(".actions button[data-action=hint]")
    table.play_until(lambda: table.phase == "discard" and hint.count() == 1)
    hint.click()
    panel = page.locator(".coach-panel[data-kind=discard]")
    panel.wait_for()
    rows = panel.locator("tr[data-rank]")
    assert rows.count() == 15  # every way to lay two of six away
    values = [float(rows.nth(i).get_attribute("data-value")) for i in range(15)]
    assert values == sorted(values, reverse=True)
    assert "Net" in panel.inner_text() and panel.locator("[aria-label$=spades], "
                                                         "[aria-label$=hearts], "
                                                         "[aria-label$=clubs], "
                                                         "[aria-label$=diamonds]").count()
    # The hint goes away once the move is made; then ask again in the play.
    def hint_in_play() -> bool:
        return table.phase == "play" and hint.count() == 1 and page.locator(
            ".seat-human button.card:not([disabled])").count() >= 2
    table.play_until(hint_in_play)
    assert page.locator(".coach-panel").is_hidden()
    hint.click()
    panel = page.locator(".coach-panel[data-kind=play]")
    panel.wait_for()
    rows = panel.locator("tr[data-rank]")
    playable = page.locator(".seat-human button.card:not([disabled])").count()
    assert rows.count() == playable >= 2
    assert "count" in rows.first.inner_text()


def test_review_after_a_deal_and_summary_and_statistics_after_a_game(app: Any,
                                                                      page: Any) -> None:
    table = Table(app, page).open().start(target="61")
    to_first_show(table, page)
    assert page.locator(".felt .shown").count() == 3
    page.get_by_role("button", name="Review this deal").click()
    review = page.locator(".coach-panel .review")
    review.wait_for()
    lost = float(review.get_attribute("data-lost"))
    items = review.locator("li[data-loss]")
    assert items.count() >= 2  # the discard and at least one card with a choice
    losses = [float(items.nth(i).get_attribute("data-loss")) for i in range(items.count())]
    assert min(losses) >= 0 and abs(lost - sum(losses)) < 0.05
    assert "laid away" in items.first.inner_text()
    table.step()  # Continue
    table.play_until(lambda: table.phase == "over")
    dialog = page.locator("#game-over")
    summary = dialog.locator(".game-summary")
    assert summary.locator("tr[data-team]").count() == 2
    final = table.scores()
    for team in (0, 1):
        row = summary.locator(f"tr[data-team='{team}']")
        total = int(row.locator("[data-source=total]").text_content())
        parts = [int(row.locator(f"[data-source={s}]").text_content())
                 for s in ("hand", "crib", "pegging", "muggins")]
        assert total == sum(parts) == final[team]
    stored = json.loads(page.evaluate("localStorage.getItem('cribbage.stats')"))
    won = final[0] > final[1]
    assert stored["levels"]["standard"] == ([1, 0] if won else [0, 1])
    assert stored["deals"] >= 1 and stored["best"] is not None
    dialog.get_by_role("button", name="Statistics").click()
    panel = page.locator("#stats")
    assert panel.is_visible()
    row = panel.locator("tr[data-level=standard]")
    assert row.get_attribute("data-won") == ("1" if won else "0")
    assert row.get_attribute("data-lost") == ("0" if won else "1")
    assert panel.locator("tr[data-stat=deals] td").text_content() == str(stored["deals"])
    # Statistics are counted once: a reload does not count the game again.
    page.reload()
    app.wait_engine()
    again = json.loads(page.evaluate("localStorage.getItem('cribbage.stats')"))
    assert again == stored
    page.get_by_role("button", name="Statistics").click()
    page.get_by_role("button", name="Reset statistics").click()
    assert page.locator("#stats tr[data-level=standard]").get_attribute("data-won") == "0"
    assert page.locator("#stats tr[data-stat=deals] td").text_content() == "0"
    page.get_by_role("button", name="Close").click()
    assert page.locator("#stats").is_hidden()


def test_bad_statistics_in_storage_start_again_from_zero(app: Any, page: Any) -> None:
    app.open("?speed=0").wait_engine()
    page.evaluate("localStorage.setItem('cribbage.stats', '{\"version\": 1, \"deals\": \"x\"}')")
    page.get_by_role("button", name="Statistics").click()
    assert page.locator("#stats tr[data-stat=deals] td").text_content() == "0"
    assert page.locator("#stats tr[data-stat=best] td").text_content() == "none yet"
