"""Offline and installable: manifest, icons, the service worker.

Each browser test here runs its own server (one that can be stopped and can
switch to another build's directory on the same port) and a persistent
browser profile in a temporary directory, like a returning player's browser.
The service worker it installs lives and dies with that profile and origin,
so it never reaches the other browser tests (fresh contexts, another port).
"""

from __future__ import annotations

import http.server
import json
import re
import shutil
import struct
import threading
import time
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from sitebuild.common import DIST
from sitebuild.offline import service_worker
from sitebuild.python_pages import MICROPIP, UNUSED_CHUNKS
from sitebuild.serve import SiteHandler, SiteServer
from tests.browser.conftest import App, persistent_page
from tests.browser.driver import Table
from tests.browser.test_pyscript import edit, run


class Server:
    """Serves one build's directory on a fixed loopback port; stop, switch, start again."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.log: list[tuple[str, int]] = []  # (path, status) of every response
        self.port = 0
        self.server: http.server.ThreadingHTTPServer | None = None
        self.start()

    def start(self) -> None:
        server = self

        class Handler(SiteHandler):
            def send_response(self, code: int, message: str | None = None) -> None:
                server.log.append((self.path.split("?")[0], code))
                super().send_response(code, message)

        self.server = SiteServer(
            ("127.0.0.1", self.port), partial(Handler, directory=str(self.directory))
        )
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def switch(self, directory: Path) -> None:
        """Deploy another build: the same origin now serves ``directory``."""
        self.stop()
        self.directory = directory
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@pytest.fixture
def server(site: str, tmp_path: Path) -> Iterator[Server]:
    """A copy of this build's dist/ on its own origin."""
    copy = tmp_path / "build-a"
    shutil.copytree(DIST, copy)
    served = Server(copy)
    yield served
    served.stop()


@pytest.fixture
def player(
    browser_type: Any, browser_type_launch_args: dict[str, Any], server: Server, tmp_path: Path
) -> Iterator[tuple[Any, App, list[str]]]:
    """A returning player's browser (persistent profile): its page, an App and its requests.

    Fails the test on console errors and CSP violations, as the shared ``page`` fixture does.
    """
    with persistent_page(browser_type, browser_type_launch_args, tmp_path / "profile",
                         base_url=server.url) as (page, seen):
        yield page, App(page, server.url), seen


def sw_cache_name(directory: Path) -> str:
    match = re.search(r'const CACHE = "(cribbage-[0-9a-f]{8})"', (directory / "sw.js").read_text())
    assert match, "sw.js names no cache"
    return match.group(1)


def sw_files(directory: Path) -> dict[str, str]:
    text = (directory / "sw.js").read_text()
    start = text.index("const FILES = ") + len("const FILES = ")
    return json.loads(text[start : text.index("};", start) + 1])


INSTALLED = """async ([cache, count]) => {
    const reg = await navigator.serviceWorker.getRegistration();
    const keys = await caches.keys();
    if (!(reg && reg.active && reg.active.state === "activated" && !reg.installing)) return false;
    if (keys.length !== 1 || keys[0] !== cache) return false;
    return (await (await caches.open(cache)).keys()).length === count;
}"""


def wait_installed(page: Any, directory: Path, timeout_s: float = 120) -> None:
    """Wait until ``directory``'s worker is active and its complete cache is the only one
    (an install stores 29 MB, the tutorial's Python included: slow on a busy 2-core machine)."""
    args = [sw_cache_name(directory), len(sw_files(directory))]
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(INSTALLED, args):
        assert time.monotonic() < deadline, f"service worker {args[0]} not installed"
        page.wait_for_timeout(200)


WAITING = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return Boolean(reg && reg.waiting && reg.waiting.state === "installed");
}"""


def wait_taken_over(page: Any, app: App, directory: Path, patience_s: float = 30) -> None:
    """Wait until ``directory``'s new worker has replaced the old one, as a player's
    next visit would see it.

    The new worker skips waiting, so it normally takes over the open page at once.
    But when the old worker was stopped for idling and started again for a late
    request of the open page (a 2-core machine under load: the engine took over 30 s),
    Chromium keeps the new worker installed and waiting while that page stays open;
    it activates once the page leaves. So after ``patience_s`` with the new worker
    complete and waiting, the page leaves the site and comes back (a next visit).
    """
    deadline = time.monotonic() + patience_s
    args = [sw_cache_name(directory), len(sw_files(directory))]
    while not page.evaluate(INSTALLED, args):
        if time.monotonic() > deadline and page.evaluate(WAITING):
            page.goto("about:blank")
            app.open("?speed=0").wait_engine()
            break
        page.wait_for_timeout(200)
    wait_installed(page, directory)


def visit_and_install(app: App, page: Any, directory: Path) -> None:
    """A first visit: the page until its engine answers, then its service worker installed."""
    app.open("?speed=0").wait_engine()
    wait_installed(page, directory)


def engine_zip(directory: Path) -> str:
    """The engine archive's name (cribbage-<hash>.tar.gz)."""
    return next(directory.glob("cribbage-*.tar.gz")).name


# --- the manifest and the icons -------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_is_valid_with_both_icons(site: str) -> None:
    def get(path: str) -> tuple[bytes, str]:
        with urllib.request.urlopen(site + path) as response:
            return response.read(), response.headers["Content-Type"]

    page, _ = get("index.html")
    link = re.search(rb'<link rel="manifest" href="([^"]+)">', page)
    assert link, "index.html links no manifest"
    body, kind = get(link.group(1).decode().removeprefix("./"))
    assert kind == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "Cribbage" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./"
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[key]), key
    theme = re.search(rb'<meta name="theme-color" content="([^"]+)">', page)
    assert theme and theme.group(1).decode() == manifest["theme_color"]
    sizes = {}
    for icon in manifest["icons"]:
        data, kind = get(icon["src"])
        assert kind == "image/png" and icon["type"] == "image/png"
        width, height = png_size(data)
        assert icon["sizes"] == f"{width}x{height}"
        sizes[width] = height
    assert sizes == {192: 192, 512: 512}


def test_sw_precaches_exactly_the_build(site: str) -> None:
    files = sw_files(DIST)
    on_disk = {p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file()}
    # name.br and name.gz are name itself, precompressed (the server picks one of the three)
    variants = {name for name in on_disk if name.endswith((".br", ".gz")) and name[:-3] in on_disk}
    # A start without the snapshot (its stdlib, the whole engine) is the rare path: those
    # files are served, fetched only then; so is the wheel under its plain name (our pages
    # and embed.json name its content-named copy).
    fallback = {name for name in on_disk
                if name.endswith("/python_stdlib-start.zip") or name.startswith("engine-whole-")
                or name == "cribbage-0.1.0-py3-none-any.whl"}
    assert len(fallback) == 3
    # PyScript's files that only features no page uses load (its terminal, TOML, ...)
    unused = {name for name in on_disk - variants if name.startswith("pyscript-")
              and name.split("/", 1)[1].startswith(UNUSED_CHUNKS)}
    assert any("/xterm" in name for name in unused)
    fallback |= unused
    assert variants and set(files) == on_disk - {"sw.js"} - variants - fallback
    assert "index.html" in files and "manifest.webmanifest" in files
    assert {"replay.html", "replay.css", "replay.py"} <= set(files)  # the replay viewer
    assert {"main.py", "tablegame.py", "uihost.mjs"} <= set(files)  # the table's UI
    # the tutorial's Python cells: PyScript's core and editor, the whole stdlib, micropip, the wheel
    wheel = json.loads((DIST / "embed.json").read_text())["wheel"]
    assert {wheel, "tutorial-python.json", "embed.json"} <= set(files)
    assert {name.split("/", 1)[1] for name in files
            if name.startswith(("pyodide-", "pyscript-", "micropython-"))
            } >= {"core.js", "python_stdlib.zip", "pyodide-lock.json", MICROPIP.filename,
                  "micropython.wasm"}
    assert sw_cache_name(DIST).startswith("cribbage-")


# --- the service worker in a browser ---------------------------------------------


def test_sw_installs_after_the_engine_without_downloading_twice(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    page, app, _ = player
    visit_and_install(app, page, server.directory)
    cache = sw_cache_name(server.directory)
    marks = page.evaluate(
        """() => Object.fromEntries(["cribbage:engine-ready", "cribbage:offline-registered"]
            .map((name) => [name, performance.getEntriesByName(name)[0]?.startTime]))"""
    )
    assert marks["cribbage:offline-registered"] >= marks["cribbage:engine-ready"]
    # Every file of the build is cached, and nothing else.
    cached = page.evaluate(
        """async (cache) => (await (await caches.open(cache)).keys())
            .map((r) => new URL(r.url).pathname.slice(1)).sort()""",
        cache,
    )
    assert cached == sorted(sw_files(server.directory))
    # Files the page had loaded were revalidated (304), not downloaded again.
    full = [path for path, status in server.log if status == 200]
    twice = sorted({path for path in full if full.count(path) > 1})
    assert not twice, f"downloaded twice: {twice}"


def test_chromium_finds_the_app_installable(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    """Chromium's own installability check (what enables "Install app") finds nothing missing."""
    page, app, _ = player
    visit_and_install(app, page, server.directory)
    page.reload()
    app.wait_engine()
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_offline_with_the_server_stopped(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    page, app, _ = player
    visit_and_install(app, page, server.directory)
    server.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url, timeout=5)
    page.reload()
    page.wait_for_selector("#table[data-phase=setup]")
    app.wait_engine()
    assert "new_game" in app.result("hello")["endpoints"]
    assert app.result("new_game", {"seed": 3})["phase"] in ("cut", "discard")
    Table(app, page).start()
    assert page.get_attribute("#table", "data-phase") != "setup"


def test_a_return_visit_reads_the_engine_from_the_offline_copy(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    """Online, the engine's worker takes its big files from the service worker's cache
    (stored inflated: no brotli to decode, no request at all), and plays."""
    page, app, seen = player
    visit_and_install(app, page, server.directory)
    seen.clear()
    page.reload()
    app.wait_engine()
    big = [url for url in seen if url.endswith(("pyodide.asm.wasm", ".snapshot"))]
    assert big == [], big
    assert any(url.endswith("/engine-worker.mjs") for url in seen)  # the page was online
    assert app.result("new_game", {"seed": 7})["phase"] in ("cut", "discard")


PRIMED = """() => new Promise((resolve) => {
    const until = performance.now() + 30000;
    const look = () => {
        const mark = performance.getEntriesByName("cribbage:engine-primed")[0];
        if (mark || performance.now() > until) resolve(mark ? mark.detail : null);
        else setTimeout(look, 100);
    };
    look();
})"""


def test_a_first_visit_primes_the_next_visits_engine(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    """Once the new service worker controls the first visit's page (clients.claim), the
    page starts the engine once more in a throwaway worker and ends it (loading.mjs
    primeOnce): V8 keeps Pyodide's compiled JS for the next visit. A return visit,
    controlled as it loads, does not."""
    page, app, _ = player
    started: list[Any] = []
    ended: list[Any] = []

    def watch(worker: Any) -> None:
        if worker.url.endswith("/engine-worker.mjs"):
            started.append(worker)
            worker.on("close", lambda closed: ended.append(closed))

    page.on("worker", watch)
    visit_and_install(app, page, server.directory)
    assert page.evaluate(PRIMED) == {"primed": True}
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    assert len(started) == 2
    deadline = time.monotonic() + 10
    while not ended and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert ended == [started[1]]  # the throwaway one; the page's own still plays
    # its loading reports are not marked as the page's engine's
    stages = page.evaluate("performance.getEntriesByName('cribbage:progress:engine').length")
    assert stages == 1
    assert app.result("new_game", {"seed": 4})["phase"] in ("cut", "discard")

    started.clear()
    page.reload()
    app.wait_engine()
    # The page decides about priming when it registers the service worker, after its
    # engine is ready (loading.mjs registerOffline): wait for that, not for a while.
    page.wait_for_function(
        "() => performance.getEntriesByName('cribbage:offline-registered').length > 0")
    assert len(started) == 1
    assert not page.evaluate("performance.getEntriesByName('cribbage:engine-primed').length")


def test_offline_with_the_browser_offline(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    page, app, _ = player
    visit_and_install(app, page, server.directory)
    page.context.set_offline(True)
    page.reload()
    app.wait_engine()
    Table(app, page).start()
    assert page.get_attribute("#table", "data-phase") != "setup"
    # The replay viewer is a page of its own: it opens offline on the game just started.
    page.goto(page.url.split("#")[0].split("?")[0].rsplit("/", 1)[0] + "/replay.html")
    page.wait_for_selector("#replay[data-state=ready]", timeout=120_000)


def test_a_tutorial_cell_is_edited_and_run_offline(
    player: tuple[Any, App, list[str]], server: Server
) -> None:
    """The game's first visit stores the tutorial's Python too: offline, a cell edited runs."""
    page, app, _ = player
    visit_and_install(app, page, server.directory)
    page.context.set_offline(True)
    page.goto(server.url + "tutorial.html")
    page.wait_for_function("() => document.querySelectorAll('.py-editor-run-button').length === 3")
    edit(page, 0, ["from cribbage import Card, parse_cards, score_hand",
                   'print(score_hand(parse_cards("5C 5D 5H JS"), Card.parse("5S")).total)'])
    output, state = run(page, 0)
    assert (output.strip(), state) == ("29", "done")


@pytest.mark.parametrize(
    "first_page", ["tutorial.html", "embed.html?widget=hand&hand=5S,4S,2S,6H&starter=5H"]
)
def test_any_page_of_the_site_stores_the_whole_site(
    player: tuple[Any, App, list[str]], server: Server, first_page: str
) -> None:
    """A fresh profile that opens only one page other than the table: its service worker
    stores the whole site, so offline the tutorial reloads and a Python cell runs."""
    page, _, _ = player
    page.goto(server.url + first_page)
    wait_installed(page, server.directory)
    page.context.set_offline(True)
    page.goto(server.url + "tutorial.html")
    page.wait_for_function("() => document.querySelectorAll('.py-editor-run-button').length === 3")
    output, state = run(page, 0)
    assert state == "done" and "12" in output, output


def make_build_b(a: Path, b: Path) -> None:
    """A new deploy: a changed page, the engine zip renamed, and its own sw.js."""
    shutil.copytree(a, b)
    old_zip = engine_zip(a)
    new_zip = "cribbage-bbbbbbbb.tar.gz"
    (b / old_zip).rename(b / new_zip)
    worker = b / "engine-worker.mjs"
    worker.write_text(worker.read_text().replace(old_zip, new_zip))
    index = b / "index.html"
    index.write_text(
        index.read_text().replace("<title>", '<meta name="build" content="b">\n<title>')
    )
    # The edited files' precompressed variants would be build a's: dropped, as a
    # deploy of build b would have its own (the server then sends the files as they are).
    for edited in (worker, index, b / "sw.js"):
        for suffix in (".br", ".gz"):
            edited.with_name(edited.name + suffix).unlink(missing_ok=True)
    site = {
        p.relative_to(b).as_posix(): p.read_bytes()
        for p in b.rglob("*")
        if p.is_file() and p.name != "sw.js"
        and not (p.name.endswith((".br", ".gz")) and p.with_name(p.name[:-3]).exists())
    }
    (b / "sw.js").write_bytes(service_worker(site))


def test_a_new_build_reaches_the_player_without_mixing(
    player: tuple[Any, App, list[str]], server: Server, tmp_path: Path
) -> None:
    page, app, seen = player
    a = server.directory
    visit_and_install(app, page, a)

    b = tmp_path / "build-b"
    make_build_b(a, b)
    assert sw_cache_name(b) != sw_cache_name(a)
    server.switch(b)

    # Next visit: the new page with the new engine; the new worker replaces the old cache.
    seen.clear()
    page.reload()
    app.wait_engine()
    assert page.locator('meta[name="build"]').get_attribute("content") == "b"
    zips = {url.rsplit("/", 1)[-1] for url in seen if re.search(r"cribbage-\w+\.tar\.gz$", url)}
    assert zips == {engine_zip(b)}
    wait_taken_over(page, app, b)

    # And offline, the new build as a whole, from the new cache.
    server.stop()
    seen.clear()
    page.reload()
    app.wait_engine()
    assert page.locator('meta[name="build"]').get_attribute("content") == "b"
    # The engine's worker (build b's, the one seen) reads its files from the cache
    # itself, without a request, or asks the service worker: build b's either way.
    assert any(url.endswith("/engine-worker.mjs") for url in seen)
    zips = {url.rsplit("/", 1)[-1] for url in seen if re.search(r"cribbage-\w+\.tar\.gz$", url)}
    assert zips <= {engine_zip(b)}
    assert app.result("new_game", {"seed": 5})["phase"] in ("cut", "discard")
