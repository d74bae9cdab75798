"""The site served from a sub-path (https://example.org/games/cribbage/), as docs/deploy.md says.

The dev server maps /games/cribbage/ to a copy of dist/ and answers 404 for
anything else, so a file asked for at the origin's root would fail. In a
persistent profile (like tests/browser/test_offline.py): a deal is played,
the service worker installs, and with the server stopped the page reloads
from its offline copy under the same path and the game goes on.
"""

from __future__ import annotations

import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sitebuild.common import DIST
from sitebuild.serve import SiteServer, serve_in_thread
from tests.browser.conftest import App, persistent_page
from tests.browser.driver import Table
from tests.browser.test_offline import sw_cache_name, sw_files

OTHER = "cribbage-0123abcd"  # the cache of another copy of the site, at the origin's root
INSTALLED = """async ([cache, count, other]) => {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!(reg && reg.active && reg.active.state === "activated" && !reg.installing)) return false;
    const keys = (await caches.keys()).sort();
    if (keys.length !== 2 || !keys.includes(cache) || !keys.includes(other)) return false;
    return (await (await caches.open(cache)).keys()).length === count;
}"""

BASE = "/games/cribbage/"


@pytest.fixture
def hosted(site: str, tmp_path: Path) -> Iterator[tuple[Path, SiteServer, str]]:
    """A copy of this build's dist/ served under BASE only."""
    copy = tmp_path / "dist"
    shutil.copytree(DIST, copy)
    server, url = serve_in_thread(copy, base=BASE)
    yield copy, server, url
    server.shutdown()
    server.server_close()


@pytest.fixture
def browser_page(
    browser_type: Any, browser_type_launch_args: dict[str, Any], tmp_path: Path
) -> Iterator[tuple[Any, list[str]]]:
    """A persistent profile's page and every URL it (and its workers) asked for; fails on
    console errors and CSP violations."""
    with persistent_page(browser_type, browser_type_launch_args, tmp_path / "profile") as opened:
        yield opened


def test_a_deal_then_offline_under_a_sub_path(
    hosted: tuple[Path, SiteServer, str], browser_page: tuple[Any, list[str]]
) -> None:
    directory, server, url = hosted
    page, seen = browser_page
    assert url.endswith(BASE)
    origin = url[: -len(BASE)]
    # Another copy of the site at the origin's root, installed before this one.
    blank = url + "blank.html"  # a page of the origin that is not the app's (never served)
    page.route(blank, lambda route: route.fulfill(
        content_type="text/html", body='<!doctype html><link rel="icon" href="data:,">'))
    page.goto(blank)
    page.evaluate("""async ([name, page]) => (await caches.open(name))
        .put(page, new Response("<title>another copy</title>"))""", [OTHER, origin + "/index.html"])
    page.goto(url + "?speed=0")
    app = App(page, url).wait_engine()
    table = Table(app, page).start()
    shown: list[bool] = []

    def next_deal() -> bool:
        if table.phase == "show":
            shown.append(True)
        return bool(shown) and table.phase == "discard"

    table.play_until(next_deal)  # a whole deal, its show, and the next one dealt
    installed = [sw_cache_name(directory), len(sw_files(directory)), OTHER]
    deadline = time.monotonic() + 60
    while not page.evaluate(INSTALLED, installed):  # (wait_for_function takes no async test)
        assert time.monotonic() < deadline, f"not installed beside {OTHER}: {installed}"
        page.wait_for_timeout(200)
    away = [u for u in seen if not u.startswith((url, "blob:" + origin, "data:"))]
    assert not away, f"asked for outside {BASE}: {away}"
    manifest = page.context.new_cdp_session(page).send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"] == url + "manifest.webmanifest"

    hand = table.my_cards().count()
    server.shutdown()
    server.server_close()
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=5)
    page.reload()
    app.wait_engine()
    assert page.url.startswith(url)
    page.wait_for_selector("#table[data-phase=discard]")  # the game resumed
    assert table.my_cards().count() == hand
    table.play_until(lambda: table.phase != "discard")  # and goes on, offline
