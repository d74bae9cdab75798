"""One game, one writer: two tabs of the site (two pages of one browser context, so one
origin and one localStorage) share a game without losing a move, and a finished game
is counted once. Every write of the save, in either tab, is watched: none may drop a
stored move."""

from __future__ import annotations

import json
from typing import Any

from .axe import assert_no_violations
from .conftest import App
from .driver import Table
from .games import last_deal_save

# In every page of the context, before the page's scripts: each write of the save is
# compared with the save it replaces; one that keeps not every stored move, in order, of
# the same game is recorded in window.__shrunk. window.__rawSet writes unwatched.
WATCH_SAVES = """(() => {
  window.__shrunk = [];
  const set = Storage.prototype.setItem;
  const game = (text) => {
    try {
      const g = JSON.parse(JSON.parse(text).game);
      return [JSON.stringify(g.setup.seed), g.moves];
    } catch { return null; }
  };
  Storage.prototype.setItem = function (key, value) {
    if (key === "cribbage.save") {
      const old = game(this.getItem(key)), now = game(value);
      const kept = old === null || (now !== null && now[0] === old[0]
                                    && old[1].every((move, i) => now[1][i] === move));
      if (!kept) window.__shrunk.push({old, now});
    }
    return set.call(this, key, value);
  };
  window.__rawSet = (key, value) => set.call(localStorage, key, value);
})();"""

STORED = "localStorage.getItem('cribbage.save')"
STORED_MOVES = """() => {
  const text = localStorage.getItem("cribbage.save");
  return text === null ? null : JSON.parse(JSON.parse(text).game).moves;
}"""


def stored(page: Any) -> list[str]:
    moves = page.evaluate(STORED_MOVES)
    assert moves is not None, "no saved game"
    return list(moves)


def move(table: Table, before: list[str]) -> list[str]:
    """Make human moves in ``table``'s tab until the save has grown past ``before``;
    the save then still holds every move of ``before`` first."""
    table.play_until(lambda: len(stored(table.page)) > len(before))
    after = stored(table.page)
    assert after[:len(before)] == before, (before, after)
    return after


def aside(page: Any) -> None:
    """The tab has stepped aside: covered, saying so, Continue here focused."""
    page.wait_for_selector("#table[data-tab=elsewhere]")
    screen = page.locator("#elsewhere")
    assert screen.is_visible() and "continues in another tab" in screen.inner_text()
    assert page.evaluate("document.activeElement.dataset.action") == "continue-here"


def continue_here(table: Table) -> None:
    """Continue here from the keyboard; the tab takes the game and shows it as saved."""
    table.page.keyboard.press("Enter")
    table.page.wait_for_selector("#table:not([data-tab])")
    table.page.locator("#elsewhere").wait_for(state="hidden")


def test_two_tabs_share_one_game_and_count_it_once(app: Any, page: Any) -> None:
    page.context.add_init_script(WATCH_SAVES)
    errors: list[str] = []
    other = page.context.new_page()  # the second tab: the fixture watches only the first
    other.set_default_timeout(90_000)
    other.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    other.on("pageerror", lambda error: errors.append(str(error)))
    one, two = Table(app, page), Table(App(other, app.base_url), other)

    one.open().start(target="61")
    one.play_until(lambda: one.phase == "discard" and one.my_cards().count() == 6)
    moves = stored(page)  # the cuts, the first tab's among them
    two.open()  # the second tab resumes the game and takes it: the first steps aside
    other.wait_for_selector("#table:not([data-phase=setup])")
    aside(page)
    assert_no_violations(page, "a tab whose game continues in another")
    card = page.locator(".seat-human button.card").first  # the stale tab's cards do nothing
    pressed = card.get_attribute("aria-pressed")
    card.dispatch_event("click")  # (a pick would toggle it at once)
    assert card.get_attribute("aria-pressed") == pressed
    moves = move(two, moves)  # the discard, in the second tab
    continue_here(one)
    aside(other)
    one.page.wait_for_selector(".seat-human button.card")
    moves = move(one, moves)  # the play goes on from the second tab's discard
    continue_here(two)
    aside(page)
    moves = move(two, moves)

    # A save this tab did not write (the storage event not heard yet) is never written over.
    foreign = last_deal_save(seed=3, target=61)
    other.evaluate("text => window.__rawSet('cribbage.save', text)", foreign)
    def refused() -> bool:
        return other.get_attribute("#table", "data-tab") == "elsewhere"

    two.play_until(lambda: refused() or other.evaluate(STORED) != foreign)
    assert refused() and other.evaluate(STORED) == foreign
    aside(other)

    continue_here(one)  # that game goes on here, and ends: resigned
    page.wait_for_selector("#table[data-phase=discard]")
    page.locator(".table-header [data-action=new-game]").click()
    page.locator("#new-game [data-action=resign]").click()
    page.locator("#game-over").wait_for(state="visible")
    continue_here(two)  # the game is over: the second tab offers a new one, counts nothing
    other.get_by_role("button", name="Start").wait_for()
    assert not other.locator("#game-over").is_visible()
    stats = json.loads(page.evaluate("localStorage.getItem('cribbage.stats')"))
    tally = json.loads(page.evaluate("localStorage.getItem('cribbage.tally')"))
    assert sum(stats["levels"]["standard"]) == 1 and len(stats["counted"]) == 1
    assert tally["won"] + tally["lost"] > 0 and len(tally["games"]) == 1
    for tab in (page, other):
        assert tab.evaluate("window.__shrunk") == []
    assert not errors, errors
