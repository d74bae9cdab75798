"""The peg board, the show on the felt and the charts, through the page.

Set ``BOARD_SHOTS=<folder>`` to keep a screenshot of each phase (for looking at).
"""

from __future__ import annotations

import os
import re
from typing import Any

from .driver import Table

SHOTS = os.environ.get("BOARD_SHOTS")


def shot(page: Any, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name + ".png"))


def board_beside_the_felt(page: Any) -> None:
    """The board is in view without scrolling, to the right of the felt."""
    board = page.locator("#table > .board").bounding_box()
    felt = page.locator("#table > .felt").bounding_box()
    assert board and felt
    assert board["x"] >= felt["x"] + felt["width"], (board, felt)
    assert board["y"] >= 0 and board["y"] + board["height"] <= 800, board
    assert board["x"] + board["width"] <= 1280 and board["height"] > 60


def test_the_board_is_beside_the_table_in_every_phase_and_the_charts_are_named(
        app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    table = Table(app, page).open().start(target="61")
    assert page.locator(".pegboard [data-skunk='31']").count() == 1
    seen: set[str] = set()

    def look() -> bool:
        phase = table.phase
        if phase not in seen:
            seen.add(phase)
            board_beside_the_felt(page)
            shot(page, "wide-" + phase)
        return phase == "over"

    table.play_until(look)
    assert {"cut", "discard", "play", "show", "over"} <= seen
    board_beside_the_felt(page)
    dialog = page.locator("#game-over")
    chart = dialog.get_by_role("img", name="Scores deal by deal")
    assert chart.count() == 1 and chart.locator("polyline.series").count() == 2
    desc = chart.locator("desc").text_content() or ""
    # The winner reads the target (the front peg in the game hole), however far past it
    # the last count went: in the final scores and at the chart's last deal.
    assert desc.startswith("Deal 1: ") and desc.rsplit(": ", 1)[1].count("61") == 1, desc
    finals = [int(n) for n in re.findall(r"\d+", dialog.locator(".final-scores").inner_text())]
    assert max(finals) == 61 and max(table.scores()) >= 61, finals
    shot(page, "wide-over-dialog")
    dialog.get_by_role("button", name="Statistics").click()
    stats = page.locator("#stats")
    results = stats.get_by_role("img", name="Your games, the latest on the right")
    assert results.count() == 1 and results.locator("rect").count() == 1
    hands = stats.get_by_role("img", name="Your hands against all 12,994,800 hands")
    hands.wait_for()
    # The engine's distribution arrives and the chart is drawn again with it.
    page.wait_for_function("() => document.querySelector('#stats [data-chart=hands] rect.all')",
                           timeout=60_000)
    text = stats.locator("[data-chart=hands] desc").text_content() or ""
    assert "all hands 4.77" in text, text  # the mean of all 12,994,800 hands
    shot(page, "wide-stats")
    page.evaluate("document.querySelector('#stats').scrollTop = 99999")
    shot(page, "wide-stats-charts")


def test_the_board_fits_a_phone_with_holes_big_enough(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    table = Table(app, page).open()
    for players in ("2", "3"):
        table.start(players=players)
        table.play_until(lambda t=table: t.phase == "discard")
        board = page.locator(".pegboard")
        # The board is drawn again as the deal starts: wait for this game's board (one
        # lane a player: the last game's may still be up as the new one begins), and
        # measure it and a hole in one snapshot of the page, so a redraw between two
        # measurements cannot fall between them.
        sizes = page.wait_for_function("""(players) => {
          const b = document.querySelector('.pegboard');
          const h = b && b.querySelector('.hole');
          if (!b || !h || b.getBoundingClientRect().width === 0) return null;
          if (b.querySelectorAll('.peg-front').length !== players) return null;
          const r = b.getBoundingClientRect(), hr = h.getBoundingClientRect();
          return {x: r.x, right: r.right, hole_w: hr.width, hole_h: hr.height,
                  scroll: document.documentElement.scrollWidth};
        }""", arg=int(players), timeout=30_000).json_value()
        assert sizes["x"] >= 0 and sizes["right"] <= 360, sizes
        assert sizes["scroll"] <= 360, sizes
        assert sizes["hole_w"] >= 8 and sizes["hole_h"] >= 8, sizes
        assert board.get_attribute("aria-label") == "Peg board to 121"
        page.locator(".board").scroll_into_view_if_needed()
        shot(page, "phone-board-" + players)
        page.evaluate("scrollTo(0, 0)")
        page.get_by_role("button", name="New game").click()


def test_the_show_counts_each_hand_in_the_middle_of_the_felt(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    stage = page.locator("#table > .felt > .show-stage")
    # Each count in the middle, a tab each: the pone's hand, the dealer's, the crib.
    assert stage.locator(".show-hand.shown").count() == 3
    assert stage.locator(".show-hand:not([hidden]) .show-cards > .card[data-card]").count() == 4
    assert stage.locator(".show-tab .show-points[data-points]").count() == 3
    assert page.locator(".seat-human").is_hidden()  # your hand moved to the middle too
    heard = stage.locator(".show-heard").text_content() or ""  # each count, for screen readers
    crib = stage.locator("#show-tab-2 .show-points").get_attribute("data-points")
    assert heard.endswith(f"({crib})"), heard  # the crib is said last
    assert page.locator(".show-panel").count() == 0  # the show is on the felt only
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-show")
    table.step()  # Continue: the felt is the table again
    table.play_until(lambda: table.phase == "discard")
    assert stage.is_hidden() and page.locator(".show-hand").count() == 0
    assert page.locator(".seat-human").is_visible()


def test_each_item_of_the_count_lights_its_cards(app: Any, page: Any) -> None:
    table = Table(app, page).open("?speed=0.4").start()
    # Watch the felt from now on: the lit cards come and go as each item is said.
    page.evaluate("""() => {
      window.__lit = 0;
      new MutationObserver(() => {
        const lit = document.querySelectorAll('.felt .card.lit').length;
        if (lit && document.querySelector('.felt .show-item.now')) {
          window.__lit = Math.max(window.__lit, lit);
        }
      }).observe(document.body, {subtree: true, attributes: true, childList: true});
    }""")
    table.play_until(lambda: table.phase == "show")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "wide-show-counting")
    table.play_until(lambda: table.enabled("Continue") is not None)
    assert page.evaluate("window.__lit") >= 2  # an item is at least two cards
    assert page.locator(".felt .card.lit").count() == 0  # all unlit once counted
