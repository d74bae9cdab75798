"""The site's one header on its four pages: the pages' links with the current one marked,
one row with no page wider than the window at six sizes in three languages, axe-core
clean with the menu open, reachable by keyboard, the language switched, and the table one
tap away (web/parts/header.html, docs/site.md#one-header-on-every-page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import assert_no_violations

PAGES = ("index.html", "puzzles.html", "tutorial.html", "replay.html")
# Each page once it is drawn in its language (the table and the replay say so themselves).
DRAWN = {"index.html": "#table[data-phase=setup]", "puzzles.html": "html[data-lang]",
         "tutorial.html": "html[data-lang]", "replay.html": "#replay:not([data-state=loading])"}
LINKS = {"index.html": "ui.header.play", "puzzles.html": "ui.header.puzzles",
         "tutorial.html": "ui.header.tutorial", "replay.html": "ui.header.replay"}
SIZES = ((360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080))
CATALOGUES = Path(__file__).resolve().parents[2] / "dist" / "lang"

# The header as the page shows it: its links and what they say, whether every visible part
# of it shares one row, and whether anything is wider than the window.
SEEN = """() => {
  const header = document.querySelector('.site-header');
  // The drop-down menu (fixed) and the table's new-version offer (absolute) float over it.
  const shown = [...header.children].filter(e => e.getClientRects().length
    && !['fixed', 'absolute'].includes(getComputedStyle(e).position));
  const boxes = shown.map(e => e.getBoundingClientRect());
  return {
    links: [...header.querySelectorAll('nav a')].map(a => ({
      href: a.getAttribute('href'), text: a.textContent.trim(),
      current: a.getAttribute('aria-current')})),
    oneRow: Math.max(...boxes.map(b => b.top)) < Math.min(...boxes.map(b => b.bottom)),
    inside: boxes.every(b => b.left >= 0 && b.right <= innerWidth + 0.5),
    pageWidth: document.documentElement.scrollWidth, window: innerWidth,
    home: getComputedStyle(header.querySelector('.home')).display !== 'none',
  };
}"""


def words(lang: str) -> dict[str, Any]:
    return dict(json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8")))


def open_page(page: Any, name: str, lang: str) -> None:
    page.goto(f"/{name}?lang={lang}")
    page.wait_for_selector(DRAWN[name])
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.wait_for_function(
        "text => document.querySelector('.site-header nav a').textContent.trim() === text",
        arg=words(lang)["ui.header.play"])


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_one_header_at_every_size_in_every_language(page: Any, name: str, lang: str) -> None:
    said = words(lang)
    open_page(page, name, lang)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => innerWidth === w", arg=width)
        seen = page.evaluate(SEEN)
        at = f"{name} {lang} {width}x{height}: {seen}"
        assert seen["links"] == [
            {"href": f"./{page_name}", "text": said[LINKS[page_name]],
             "current": "page" if page_name == name else None}
            for page_name in PAGES
        ], at
        assert seen["oneRow"] and seen["inside"], at
        assert seen["pageWidth"] <= seen["window"], at
        assert seen["home"] == (name != "index.html"), at  # the table has its title there
    # A phone: the menu behind ☰, opened by the keyboard, its links next in the tab order.
    page.set_viewport_size({"width": 360, "height": 640})
    page.locator(".site-header .menu-button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#menu:popover-open")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "./index.html"
    assert_no_violations(page, f"{name} in {lang} with its menu open", ".site-header")
    page.keyboard.press("Escape")
    page.wait_for_selector("#menu:not(:popover-open)", state="attached")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_no_violations(page, f"{name} in {lang}, its menu a row", ".site-header")


@pytest.mark.parametrize("name", PAGES[1:])
def test_one_tap_back_to_the_table(page: Any, name: str) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    open_page(page, name, "en")
    page.locator(".site-header .home").click()  # on the row itself, not in the menu
    page.wait_for_selector(DRAWN["index.html"])
    assert page.url.endswith("/index.html")
    assert page.locator(".site-header nav a[aria-current=page]").get_attribute(
        "href") == "./index.html"


@pytest.mark.parametrize("name", PAGES)
def test_the_language_switch_on_every_page(page: Any, name: str) -> None:
    page.goto(f"/{name}")  # English: the browser's language, nothing stored
    page.wait_for_selector(DRAWN[name])
    assert page.locator("#language").input_value() == "en"
    if name in ("puzzles.html", "tutorial.html"):  # these load again in the new language
        with page.expect_navigation():
            page.select_option("#language", "ja")
    else:  # the table and the replay switch at once
        page.select_option("#language", "ja")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    page.wait_for_function(
        "text => document.querySelector('.site-header nav a').textContent.trim() === text",
        arg=words("ja")["ui.header.play"])
    assert page.evaluate("localStorage.getItem('cribbage-lang')") == "ja"
    assert page.locator("#language").input_value() == "ja"
    # Remembered across the site: the next page opens in Japanese.
    other = PAGES[(PAGES.index(name) + 1) % len(PAGES)]
    page.locator(f".site-header nav a[href='./{other}']").evaluate("a => a.click()")
    page.wait_for_selector(DRAWN[other])
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert page.locator("#language").input_value() == "ja"
