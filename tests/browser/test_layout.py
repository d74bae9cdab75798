"""The table on one screen (docs/table.md#the-layout): at a phone's 360x640 and a
desktop's 1280x800, with 2 and 4 players, in the discard and the play, the page does
not scroll, every part of the table is in view and the cards are big enough; and the
peg board reads at a glance at every size (its holes, the score tags at the front pegs,
its share of its column, a column no wider than the board), before a game too; and the
game log's drawer is opaque with every line's number in view; and on a desktop no empty
stretch of felt is larger than a third of it in the play and the show.
"""

from __future__ import annotations

from typing import Any

import pytest

from .driver import Table
from .games import last_deal_save

SIZES = {(360, 640): 60, (1280, 800): 96}  # viewport: the least width of your cards

# Everything measured in one snapshot of the page (the table redraws as the computers move).
MEASURE = """() => {
  const d = document.documentElement, vw = innerWidth, vh = innerHeight;
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const parts = ['.table-header', '.felt', '.board', '.pegboard', '.felt .player', '.pile',
                 '.count', '.seat-human .hand .card', '.actions button'];
  const outside = [];
  for (const selector of parts) {
    for (const e of document.querySelectorAll(selector)) {
      const [l, t, r, b] = box(e);
      if (r - l && (l < -0.5 || t < -0.5 || r > vw + 0.5 || b > vh + 0.5)) outside.push(selector);
    }
  }
  const area = s => {
    const [l, t, r, b] = box(document.querySelector(s));
    return (r - l) * (b - t);
  };
  return {
    scroll: [d.scrollWidth - vw, d.scrollHeight - vh],
    outside,
    cards: [...document.querySelectorAll('.seat-human .hand .card')]
      .map(c => c.getBoundingClientRect().width),
    players: document.querySelectorAll('.felt .player').length,
    share: (area('.felt') + area('.board')) / (vw * vh),
  };
}"""


def looks_right(page: Any, players: int, where: str) -> None:
    for (width, height), least in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => innerWidth === w", arg=width)
        seen = page.evaluate(MEASURE)
        at = f"{where} at {width}x{height}: {seen}"
        assert seen["scroll"][0] <= 0 and seen["scroll"][1] <= 0, at  # no page scrolling
        assert not seen["outside"], at
        assert seen["players"] == players, at
        assert seen["cards"] and min(seen["cards"]) >= least, at
        if width >= 1280:
            assert seen["share"] >= 0.85, at  # the felt and the board fill a desktop


@pytest.mark.parametrize("players", ["2", "4"])
def test_the_table_fits_one_screen_with_big_cards(app: Any, page: Any, players: str) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    table = Table(app, page).open().start(players=players)
    table.play_until(lambda: table.phase == "discard" and table.enabled("Hint") is not None)
    looks_right(page, int(players), "the discard")
    table.play_until(lambda: table.phase == "play" and page.locator(".pile .card").count() > 0
                     and table.enabled("Hint") is not None)
    looks_right(page, int(players), "the play")


ALL_SIZES = ((360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080))

# The board in one snapshot: its column, the drawn board, a hole, each lane's score tag.
BOARD = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
  const column = document.querySelector('#table > .board');
  const svg = column.querySelector('.pegboard');
  const tags = [...svg.querySelectorAll('.tag')].map(tag => {
    const text = tag.querySelector('text');
    return {points: Number(tag.dataset.points), text: text.textContent,
            shown: getComputedStyle(tag).display !== 'none', height: box(text)[1]};
  });
  return {column: box(column), board: box(svg), hole: box(svg.querySelector('use.hole'))[0],
          pegs: svg.querySelectorAll('.peg').length, tags,
          scores: [...document.querySelectorAll('[data-score]')].map(e => Number(e.dataset.score)),
          scroll: [document.documentElement.scrollWidth - innerWidth,
                   document.documentElement.scrollHeight - innerHeight]};
}"""


def board_at(page: Any, width: int, height: int) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("w => innerWidth === w", arg=width)
    page.wait_for_timeout(50)  # the board's container queries settle with the layout
    seen: dict[str, Any] = page.evaluate(BOARD)
    return seen


def board_fits_its_column(seen: dict[str, Any], width: int, height: int) -> None:
    """A phone on its side: the board fills its column (holes of 8 px at least); a desktop:
    it stands the column's whole height and the column is no wider than it needs."""
    (column_w, column_h), (board_w, board_h) = seen["column"], seen["board"]
    at = f"{width}x{height}: {seen}"
    assert seen["scroll"][0] <= 0 and seen["scroll"][1] <= 0, at
    if (width, height) == (844, 390):
        assert board_w * board_h >= 0.7 * column_w * column_h and seen["hole"] >= 8, at
    if width >= 1280:
        assert board_h >= 0.95 * column_h and column_w <= board_w + 16, at


def test_the_board_reads_at_a_glance_at_every_size(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 1920, "height": 1080})
    table = Table(app, page).open()
    page.wait_for_selector("#table > .board .pegboard")  # before a game: its pegs at the start
    for width, height in ALL_SIZES:
        seen = board_at(page, width, height)
        assert seen["pegs"] == 4 and not any(tag["shown"] for tag in seen["tags"]), seen
        board_fits_its_column(seen, width, height)
    table.start()
    table.play_until(lambda: table.phase == "play" and min(table.scores()) > 0
                     and table.enabled("Hint") is not None)
    for width, height in ALL_SIZES:
        seen = board_at(page, width, height)
        board_fits_its_column(seen, width, height)
        # Each score reads from the board: the front peg's tag, its figures 12 px tall
        # or more on screen, whatever the size of the holes (8.5 px on a 360 px phone).
        tags = sorted((tag["points"], tag["text"]) for tag in seen["tags"] if tag["shown"])
        assert tags == sorted((score, str(score)) for score in seen["scores"]), seen
        assert min(tag["height"] for tag in seen["tags"]) >= 12, (width, height, seen)
        assert seen["hole"] >= 8, (width, height, seen)


# The open log drawer: its background, the room left of its lines for their numbers and
# the widest number's width in the numbers' own font (an <ol>'s markers: "100. ").
LOG = """() => {
  const list = document.querySelector('.menu .log-lines'), items = list.querySelectorAll('li');
  const marker = getComputedStyle(items[0], '::marker'), style = getComputedStyle(list);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = `${marker.fontWeight} ${marker.fontSize} ${marker.fontFamily}`;
  const box = list.getBoundingClientRect(), last = items[items.length - 1].getBoundingClientRect();
  return {lines: items.length, background: style.backgroundColor,
          room: parseFloat(style.paddingLeft), widest: pen.measureText(`${items.length}. `).width,
          inside: box.left >= 0 && box.right <= innerWidth && box.bottom <= innerHeight,
          lastShown: last.bottom <= box.bottom + 1 && last.top >= box.top - 1};
}"""


def test_the_game_log_is_numbered_in_view_on_an_opaque_drawer(app: Any, page: Any) -> None:
    table = Table(app, page).open()
    page.evaluate("text => localStorage.setItem('cribbage.save', text)", last_deal_save(3, 121))
    page.reload()
    app.wait_engine()
    page.wait_for_selector("#table[data-phase=discard]")
    assert table.phase == "discard"
    for width, height in ((1280, 800), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        if width < 1180:  # the menu is behind the ☰ button
            page.locator(".menu-button").click()
        page.locator(".menu details.log > summary").click()
        page.locator(".menu .log-lines").evaluate("list => list.scrollTop = list.scrollHeight")
        seen = page.evaluate(LOG)
        at = f"{width}x{height}: {seen}"
        assert seen["lines"] >= 100, at  # three figures to show
        assert seen["room"] >= seen["widest"], at  # "100." whole, not ".", left of its line
        assert seen["background"].startswith("rgb("), at  # opaque, not rgba(): the board hidden
        assert seen["inside"] and seen["lastShown"], at
        page.locator(".menu details.log > summary").click()
        if width < 1180:
            page.keyboard.press("Escape")


# The largest empty stretch of the felt: points 8 px apart over the felt, each empty when
# what is drawn there is the felt or a box that only holds other things (the gaps between
# cards, a hand's row, the middle's grid); then the largest rectangle of empty points.
EMPTY_STRETCH = """() => {
  const felt = document.querySelector('.felt'), r = felt.getBoundingClientRect(), step = 8;
  const holders = '.felt, .centre, .stock, .play-area, .pile, .crib-spot, .show-stage, ' +
    '.show-panels, .show-hand, .show-cards, .seat, .seat-human, .hand, .says, .opponents, ' +
    '.opponent, .you, .actions, .deck, .starter, .count:empty';
  const cols = Math.floor(r.width / step), rows = Math.floor(r.height / step);
  const heights = new Array(cols).fill(0);
  let best = 0, where = null;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const at = document.elementFromPoint(r.left + (col + 0.5) * step, r.top + (row + 0.5) * step);
      heights[col] = at && at.matches(holders) ? heights[col] + 1 : 0;
    }
    const stack = [];  // the largest rectangle under this row's histogram
    for (let col = 0; col <= cols; col++) {
      const h = col < cols ? heights[col] : 0;
      while (stack.length && heights[stack[stack.length - 1]] >= h) {
        const top = heights[stack.pop()], left = stack.length ? stack[stack.length - 1] + 1 : 0;
        const area = top * (col - left);
        if (area > best) {
          best = area;
          where = [left * step, (row - top + 1) * step, (col - left) * step, top * step];
        }
      }
      if (col < cols) stack.push(col);
    }
  }
  return {share: best / (cols * rows), where, felt: [r.width, r.height]};
}"""


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_no_empty_stretch_of_felt_larger_than_a_third_on_a_desktop(
        app: Any, page: Any, size: tuple[int, int]) -> None:
    """On a desktop everything on the felt scales with it: in the play and in the show no
    empty rectangle of felt is larger than a third of the felt."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play" and table.my_cards().count() > 0
                     and page.locator(".pile .card").count() > 0)
    play = page.evaluate(EMPTY_STRETCH)
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    show = page.evaluate(EMPTY_STRETCH)
    assert play["share"] <= 1 / 3, ("play", play)
    assert show["share"] <= 1 / 3, ("show", show)
