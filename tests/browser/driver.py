"""Drives the human seat of the game table through the page, using only the
automation contract (docs/accessibility.md). Shared by the browser tests and bench/page_table.py.
"""

from __future__ import annotations

import re
from typing import Any

PHASES = {"loading", "setup", "cut", "discard", "play", "show", "over", "handoff"}
CARD_NAME = re.compile(
    r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(spades|hearts|diamonds|clubs)$"
)


def more_options(page: Any) -> None:
    """Open the start screen's More options (players, target, counting, seats...), where
    every choice but the computer's level and Start lives; nothing if already open."""
    more = page.locator("#new-game details.more-options")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    page.wait_for_selector("#new-game details.more-options[open]")


class Table:
    """Plays the human seat through the page like a person (or a test script) would.

    ``app`` opens the page and waits for the engine (tests/browser/conftest.py's App).
    """

    def __init__(self, app: Any, page: Any) -> None:
        self.app, self.page = app, page

    def open(self, query: str = "?speed=0") -> Table:
        self.app.open(query).wait_engine()
        return self

    def start(self, players: str = "2", counting: str = "automatic", level: str = "standard",
              target: str = "121") -> Table:
        more_options(self.page)
        self.page.get_by_label("Players").select_option(players)
        self.page.get_by_label("Game to").select_option(target)
        self.page.locator("select[name=level]").select_option(level)
        self.page.get_by_label("Counting").select_option(counting)
        self.page.get_by_role("button", name="Start").click()
        # After a game, the form opens over the finished table, still "over".
        self.page.wait_for_selector("#table:not([data-phase=setup]):not([data-phase=over])")
        return self

    @property
    def phase(self) -> str:
        phase = self.page.get_attribute("#table", "data-phase")
        assert phase in PHASES, phase
        return phase

    def scores(self) -> list[int]:
        cells = self.page.locator("[data-score]")
        return [int(cells.nth(i).get_attribute("data-score")) for i in range(cells.count())]

    def my_cards(self) -> Any:
        return self.page.locator(".seat-human button.card")

    def hand_boxes(self) -> list[list[float]]:
        """Each of my cards' ``[x, y, width, height]``, all measured in one snapshot of the
        page: the table redraws the hand when another seat's move comes in, so cards
        measured one by one may be detached in between."""
        return self.page.evaluate(
            "() => [...document.querySelectorAll('.seat-human button.card')].map(c => {"
            " const r = c.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")

    def enabled(self, name: str, wait_ms: int = 1000) -> Any:
        """The named button if it is there and enabled, else None (never waits long:
        the table may re-render or move on between looking and asking)."""
        button = self.page.get_by_role("button", name=name, exact=True)
        try:
            if button.count() == 1 and button.is_visible() and button.is_enabled(timeout=wait_ms):
                return button
        except Exception:  # it went away meanwhile
            return None
        return None

    @staticmethod
    def click(locator: Any) -> None:
        """Click, but give up after a moment: the table may have moved on (re-rendered, or
        the turn passed) since the element was found; the next step looks again.
        ``None`` (looked for twice, gone the second time) is ignored for the same reason."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        if locator is None:
            return
        try:
            locator.click(timeout=3000)
        except PlaywrightTimeout:
            pass

    def step(self, claim: int | None = None, muggins: bool = False) -> str:
        """Make one human action if one is possible; returns the phase it acted in."""
        phase = self.phase
        if phase in ("cut", "show"):
            for name in ("Cut", "Continue"):
                # Only a button enabled now: waiting for Continue while a count is said would
                # press it the moment it comes, before play_until's predicate sees the show.
                button = self.enabled(name, wait_ms=50)
                if button:
                    self.click(button)
                    return phase
        if phase in ("show", "play") and self.page.locator("input[name=points]").count():
            points = self.page.locator("input[name=points]")
            try:
                points.fill(str(claim if claim is not None else 0), timeout=3000)
            except Exception:  # the field went away: the next step looks again
                return phase
            self.click(self.page.get_by_role("button", name="Count"))
            return phase
        if phase in ("show", "play") and self.enabled("Muggins!"):
            self.click(self.page.get_by_role("button", name="Muggins!" if muggins else "Accept"))
            return phase
        if phase == "discard":
            need = 2 if self.page.locator(".opponent").count() == 1 else 1
            picked = self.page.locator(".seat-human button.card.selected").count()
            if picked < need:  # one card a step: the table may re-render between clicks
                free = self.page.locator(".seat-human button.card:not([disabled]):not(.selected)")
                if free.count():
                    self.click(free.first)
                return phase
            button = self.enabled("Send to crib")
            if button:
                self.click(button)
            return phase
        if phase == "play":
            cards = self.page.locator(".seat-human button.card:not([disabled])")
            if cards.count():
                self.click(cards.first)
            elif self.enabled("Go"):
                self.click(self.page.get_by_role("button", name="Go"))
            return phase
        return phase

    def play_until(self, predicate: Any, limit: int = 3000, **step: Any) -> None:
        for _ in range(limit):
            if predicate():
                return
            self.step(**step)
            self.page.wait_for_timeout(20)
        raise AssertionError(f"not reached; phase {self.phase}")
