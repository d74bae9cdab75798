"""The table on one screen (docs/table.md#the-layout): at a phone's 360x640 and a
desktop's 1280x800, with 2 and 4 players, in the discard and the play, the page does
not scroll, every part of the table is in view and the cards are big enough.
"""

from __future__ import annotations

from typing import Any

import pytest

from .driver import Table

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
