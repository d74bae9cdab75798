"""The peg board, the show on the felt and the charts, through the page; the crib's name
apart from its chip, and the statistics laid out (columns, charts, Japanese lines).

Set ``BOARD_SHOTS=<folder>`` to keep a screenshot of each phase (for looking at).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest

from . import games  # noqa: F401  (puts web/views on the path, for statsview)
from .driver import Table
from .games import last_deal_save
from .test_languages import play_to

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


# The game-over dialog's numbers, read in one go: the final scores, each row of the
# table (its sources and its total), the chart's words and the top of its lines.
READ_OVER = """() => {
    const dialog = document.querySelector('#game-over');
    const rows = [...dialog.querySelectorAll('.game-summary tr[data-team]')].map(row =>
        [...row.querySelectorAll('td[data-source]')].map(cell => Number(cell.textContent)));
    const ys = [...dialog.querySelectorAll('polyline.series')].flatMap(line =>
        line.getAttribute('points').split(' ').map(point => Number(point.split(',')[1])));
    return {finals: dialog.querySelector('.final-scores').textContent,
            rows, desc: dialog.querySelector('[data-chart=scores] desc').textContent,
            top: Math.min(...ys), scrollTop: dialog.scrollTop};
}"""

# Whether an element is on screen and uncovered at its centre (not under the fold).
SEEN = """element => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0
        && box.right <= innerWidth && element.contains(document.elementFromPoint(x, y));
}"""


@pytest.mark.parametrize(("width", "height"), [
    pytest.param(844, 390, id="en-844x390"),
    pytest.param(360, 640, id="ja-360x640",
                 marks=pytest.mark.browser_context_args(locale="ja-JP")),
])
def test_a_game_won_past_the_target_reads_the_target_everywhere(
        app: Any, page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    table = Table(app, page).open()
    # Seed 1's last deal, 74 to 99: the computer counts out past 121 however it goes.
    page.evaluate("text => localStorage.setItem('cribbage.save', text)", last_deal_save(1))
    page.reload()
    app.wait_engine()
    for _ in range(20):  # the show's Continue, which play_to leaves to its caller
        play_to(page, lambda: page.get_attribute("#table", "data-phase") == "over"
                or page.locator(".actions [data-action=continue]").count() > 0)
        if page.get_attribute("#table", "data-phase") == "over":
            break
        table.click(page.locator(".actions [data-action=continue]"))
    dialog = page.locator("#game-over")
    dialog.wait_for(state="visible")
    shot(page, f"counted-out-{width}x{height}")
    # The computer's last count went past 121 (the log says by how much); it reads 121.
    log = page.locator(".log-lines").text_content() or ""
    assert "past the game hole" in log or "ゴールを越えた" in log, log
    read = page.evaluate(READ_OVER)
    assert read["rows"] and all(sum(row[:-1]) == row[-1] for row in read["rows"]), read
    totals = [row[-1] for row in read["rows"]]
    assert totals[1] == 121 and totals[0] < 121, read
    assert sorted(table.scores()) == sorted(totals)  # the panels' data-score
    assert [int(n) for n in re.findall(r"\d+", read["finals"])] == totals, read
    last_deal = read["desc"].rsplit(". ", 1)[-1]
    assert [int(n) for n in re.findall(r"\d+", last_deal)][1:] == totals, read
    assert read["top"] == 24, read  # the winner's line ends at the chart's top, 121
    # The dialog opens at its top, the winner's banner in view, and New game is in view
    # without scrolling (focused, the keyboard's next step).
    assert read["scrollTop"] == 0, read
    assert dialog.locator(".headline").evaluate(SEEN)
    new_game = dialog.locator("[data-action=new-game]")
    assert new_game.evaluate(SEEN) and new_game.evaluate("b => b === document.activeElement")


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


# The crib's name (its label's text) and its points' chip, as drawn.
# The crib's tab in the show: its name (the one drawn at this size) and its points' chip.
CRIB = """() => {
  const tab = [...document.querySelectorAll('.show-tab')].pop();  // the crib is counted last
  const name = [...tab.querySelectorAll('.who')].find(e => e.getClientRects().length);
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {name: box(name), chip: box(tab.querySelector('.show-points'))};
}"""


def test_the_crib_name_and_its_chip_stand_apart(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    table = Table(app, page).open().start(target="61")
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
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
