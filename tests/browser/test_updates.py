"""A new build reaches an open table, announced, and the game goes on.

One origin serves build A; the player starts a game; then it serves build B
whose files are all OLDER by date than A's (a deploy that kept its files'
dates), then A again, older still (a rollback). Each time the page, still
showing the old build, hears of the new one (the network coming back makes it
ask), its service worker installs in the background, the table says "A new
version is ready" with a Reload button once no move is on its way, and after
Reload the page is the new build with the game exactly where it was. A
server that validated by date would answer the new build's files (and its
sw.js) with 304 and the update would never arrive.

Like tests/browser/test_offline.py: its own server that can switch builds on
one port, and a persistent profile.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from sitebuild.compress import ENCODINGS
from sitebuild.offline import BUILD_MARK, service_worker, stamp_build
from tests.browser.axe import assert_no_violations
from tests.browser.conftest import App
from tests.browser.driver import Table
from tests.browser.test_offline import (  # noqa: F401  (fixtures)
    Server,
    player,
    server,
    sw_files,
    visit_and_install,
    wait_installed,
)

DAY = 24 * 3600


def build_id(directory: Path) -> str:
    match = re.search(r'const BUILD = "([0-9a-f]{8})"', (directory / "loading.mjs").read_text())
    assert match, "loading.mjs holds no build id"
    return match.group(1)


def make_build(source: Path, target: Path, label: str) -> None:
    """Another build: ``source`` with a page marked ``label`` and its own build id and sw.js."""
    shutil.copytree(source, target)
    index, loading = target / "index.html", target / "loading.mjs"
    index.write_text(index.read_text().replace(
        "<title>", f'<meta name="build" content="{label}">\n<title>'))
    loading.write_bytes(loading.read_bytes().replace(build_id(source).encode(), BUILD_MARK))
    site = {name: (target / name).read_bytes() for name in sw_files(source)}
    build, stamped = stamp_build(site)
    for name, data in stamped.items():
        (target / name).write_bytes(data)
    (target / "sw.js").write_bytes(service_worker({**site, **stamped}, build))
    # The edited files' precompressed variants were the source's: a deploy has its own
    # (without them the server sends the files as they are).
    for edited in (index, loading, target / "sw.js"):
        for suffix in ENCODINGS.values():
            edited.with_name(edited.name + suffix).unlink(missing_ok=True)


def date_before(directory: Path, other: Path) -> None:
    """Every file of ``directory`` dated a day before the oldest of ``other``'s."""
    when = min(path.stat().st_mtime for path in other.rglob("*")) - DAY
    for path in directory.rglob("*"):
        os.utime(path, (when, when))


def table_state(page: Any, table: Table) -> dict[str, Any]:
    """What a player sees of the game, and its save."""
    cards = table.my_cards()
    return {
        "save": page.evaluate("localStorage.getItem('cribbage.save')"),
        "phase": table.phase,
        "hand": [cards.nth(i).get_attribute("aria-label") for i in range(cards.count())],
        "scores": table.scores(),
        "pile": page.locator(".pile").inner_text(),
    }


def wait_my_turn(page: Any) -> None:
    """Until the table waits for the player: a card to play, nothing on its way."""
    page.wait_for_selector("#table:not([data-busy]) .seat-human button.card:not([disabled])")


FOUND = """(build) => performance.getEntriesByName("cribbage:update-found")
    .some((mark) => mark.detail.build === build)"""


def take_update(page: Any, app: App, host: Server, directory: Path) -> None:
    """Serve ``directory``; the open page hears of it, offers it once no move is on its
    way, and reloads onto it."""
    host.switch(directory)
    # A move on its way (as the table marks it) while the new build arrives.
    page.evaluate("document.getElementById('table').setAttribute('data-busy', '')")
    # The network comes back: the page asks for its worker's script again.
    page.context.set_offline(True)
    page.context.set_offline(False)
    wait_installed(page, directory)  # the new build's worker took over, its cache alone
    page.wait_for_function(FOUND, arg=build_id(directory))
    offer = page.locator(".update-ready[role=status]")
    assert offer.inner_text() == ""  # not in the middle of a move
    page.evaluate("document.getElementById('table').removeAttribute('data-busy')")
    offer.get_by_text("A new version is ready.").wait_for()
    assert_no_violations(page, "the new version's offer", ".table-header")
    reload = offer.get_by_role("button", name="Reload")
    reload.focus()  # reachable by keyboard: Enter reloads
    with page.expect_navigation():
        page.keyboard.press("Enter")
    app.wait_engine()


def test_a_new_build_older_by_date_is_offered_and_the_game_goes_on(
    player: tuple[Any, App, list[str]], server: Server, tmp_path: Path  # noqa: F811
) -> None:
    page, app, _ = player
    a = server.directory
    visit_and_install(app, page, a)
    table = Table(app, page)
    table.start()
    table.play_until(lambda: table.phase == "play" and table.my_cards().count() == 3
                     and page.locator(".seat-human button.card:not([disabled])").count() > 0)
    wait_my_turn(page)
    before = table_state(page, table)

    b = tmp_path / "build-b"
    make_build(a, b, "b")
    date_before(b, a)  # every file of the new build older than the browser's copies
    take_update(page, app, server, b)
    assert page.locator('meta[name="build"]').get_attribute("content") == "b"
    wait_my_turn(page)
    assert table_state(page, table) == before
    # The page is the build that took over: nothing to offer.
    assert page.locator(".update-ready").inner_text() == ""

    date_before(a, b)  # the rollback: the old build, older still
    take_update(page, app, server, a)
    assert page.locator('meta[name="build"]').count() == 0
    wait_my_turn(page)
    assert table_state(page, table) == before
    # The game goes on, and the table marks the move on its way (what the offer waits on).
    page.evaluate("""() => {
        const table = document.getElementById("table");
        window.busySeen = [];
        new MutationObserver(() => window.busySeen.push(table.hasAttribute("data-busy")))
            .observe(table, {attributes: true, attributeFilter: ["data-busy"]});
    }""")
    moved = "busySeen.includes(true) && !document.querySelector('#table[data-busy]')"
    table.play_until(lambda: page.evaluate(moved))
