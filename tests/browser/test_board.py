"""The peg board, the show on the felt and the charts, through the page; the crib's name
apart from its chip, and the statistics laid out (columns, charts, Japanese lines).

Set ``BOARD_SHOTS=<folder>`` to keep a screenshot of each phase (for looking at).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from . import games  # noqa: F401  (puts web/views on the path, for statsview)
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


def test_the_show_turns_the_hands_up_on_the_felt(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    felt = page.locator("#table > .felt")
    assert felt.locator(".opponent .hand.shown .card[data-card]").count() == 4
    assert felt.locator(".seat-human .hand.shown .card[data-card]").count() == 4
    assert felt.locator(".crib-cards.shown .card[data-card]").count() == 4
    totals = [int(felt.locator(".show-points").nth(i).get_attribute("data-points"))
              for i in range(3)]
    heard = page.locator(".announce").text_content() or ""  # each hand's words, for screen readers
    crib = felt.locator(".crib-spot .show-points").get_attribute("data-points")
    assert heard.endswith(f"({crib})"), (totals, heard)  # the crib is said last
    assert page.locator(".show-panel").count() == 0  # the show is on the felt only
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-show")
    table.step()  # Continue: the felt is the table again
    table.play_until(lambda: table.phase == "discard")
    assert felt.locator(".shown").count() == 0 and felt.locator(".show-points").count() == 0


def test_each_item_of_the_count_lights_its_cards(app: Any, page: Any) -> None:
    table = Table(app, page).open("?speed=0.4").start()
    # Watch the felt from now on: the lit cards come and go as each item is said.
    page.evaluate("""() => {
      window.__lit = 0;
      new MutationObserver(() => {
        const lit = document.querySelectorAll('.felt .card.lit').length;
        if (lit && document.querySelector('.felt .show-said').textContent) {
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


# The crib's name (its label's text) and its points' chip, as drawn.
CRIB = """() => {
  const label = document.querySelector('.crib-spot small');
  const chip = label.querySelector('.show-points');
  const range = document.createRange();
  range.selectNodeContents(label.firstChild);
  const box = r => [r.left, r.top, r.right, r.bottom];
  return {name: box(range.getBoundingClientRect()), chip: box(chip.getBoundingClientRect())};
}"""


def test_the_crib_name_and_its_chip_stand_apart(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    table = Table(app, page).open().start(target="61")
    table.play_until(lambda: page.locator(".crib-spot .show-points[data-points]").count() > 0)
    for width, height in ((360, 640), (844, 390), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => innerWidth === w", arg=width)
        seen = page.evaluate(CRIB)
        (_, _, right, bottom), (chip_left, chip_top, _, _) = seen["name"], seen["chip"]
        # "Your crib 6", not "Your crib6": a gap beside the name, or the chip under it.
        assert chip_left >= right + 3 or chip_top >= bottom, (width, seen)


# Each label's lines as drawn (a character's box starting lower starts a new line).
LINES = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.getClientRects().length).map(e => {
    const lines = [];
    let top = null, line = '';
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        if (top !== null && box.top > top + box.height / 2) { lines.push(line); line = ''; }
        if (top === null || box.top > top + box.height / 2) top = box.top;
        line += node.data[i];
      }
    }
    return lines.concat([line]);
  })"""

# Every chart's width against its cell's, and the dialog's content edge.
CHARTS = """() => {
  const dialog = document.querySelector('#stats').getBoundingClientRect();
  const charts = [...document.querySelectorAll('#stats .chart')]
    .filter(f => f.querySelector('svg'));
  return charts.map(figure => {
    const cell = figure.getBoundingClientRect();
    const svg = figure.querySelector('svg').getBoundingClientRect();
    return [svg.width / cell.width, cell.right <= dialog.right];
  });
}"""

# Each table's figures: the right edges of the texts in each column, per column.
COLUMNS = """() => [...document.querySelectorAll('#stats .stats-games, #stats .stats-points')]
  .map(t => {
  const columns = {};
  for (const row of t.querySelectorAll('tbody tr')) {
    [...row.querySelectorAll('td')].forEach((cell, index) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      (columns[index] = columns[index] || []).push(range.getBoundingClientRect().right);
    });
  }
  return Object.values(columns).map(edges => Math.max(...edges) - Math.min(...edges));
})"""


def phrase_break(before: str, after: str) -> bool:
    """Whether a Japanese line may end between ``before`` and ``after``: at a space, after
    a comma, colon or closing bracket, or before an opening one (never inside a word)."""
    return before[-1] in " 、：）" or after[0] in "（ "


def some_statistics() -> str:
    """Statistics of a few games (each chart has something to draw), as stored."""
    import statsview

    stats = statsview.new_stats()
    stats.update(levels={"standard": [3, 2], "expert": [0, 1]}, skunks=[1, 0], deals=24,
                 hand=190, pegging=80, cribs=12, crib=55,
                 best={"points": 20, "cards": ["5S", "5H", "5D", "JC"], "starter": "KD"})
    for game, (won, me, op) in enumerate([(True, 121, 98), (False, 104, 121), (True, 121, 77),
                                          (True, 121, 110), (False, 88, 121), (False, 117, 121)]):
        stats["results"].append({"won": won, "me": me, "op": op, "level": "standard"})
        statsview.note_accuracy(stats, "g" + str(game), 70.0 + game * 4)
    for points in (2, 4, 4, 6, 8, 8, 8, 12, 16, 20):
        stats["hands"][points] += 1
    return json.dumps(stats)


def test_the_statistics_are_laid_out_in_columns_with_charts_that_fill_them(
        app: Any, page: Any) -> None:
    Table(app, page).open()
    page.evaluate("text => localStorage.setItem('cribbage.stats', text)", some_statistics())
    page.locator("select.language").select_option("ja")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    page.evaluate("document.querySelector('#menu [data-action=stats]').click()")
    page.wait_for_selector("#stats .stats-tables")
    for width, height in ((360, 640), (1280, 800), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => innerWidth === w", arg=width)
        for lines in page.evaluate(LINES, "#stats caption, #stats th, #stats figcaption"):
            for before, after in zip(lines, lines[1:]):
                assert phrase_break(before, after), (width, lines)
        assert all(gap <= 1.5 for table in page.evaluate(COLUMNS) for gap in table), width
        charts = page.evaluate(CHARTS)
        assert charts and all(share >= 0.95 and inside for share, inside in charts), charts
        shot(page, f"stats-ja-{width}")
