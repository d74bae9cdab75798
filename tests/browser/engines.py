"""The table in three browser engines, driven through the automation contract alone.

Chromium through Playwright, Firefox through Puppeteer over WebDriver BiDi (a
Node process, ``tests/browser/firefox/driver.mjs``) and WebKitGTK through
Selenium and WebKitWebDriver under Xvfb: each is a ``Browser`` with the same
five calls (open, run, resize, screenshot, close). What the page is asked
(``STEP``, ``START``, ...) is JavaScript run in the page, written once here and
reading only what docs/accessibility.md promises (``data-phase``,
``data-action``, ``data-card``, ``aria-pressed``, ``data-score``, the setup
form's names), so it plays the same page in every engine and survives a new
look. Shared by ``tests/browser/test_engines.py`` and ``bench/gallery.py``.

Errors: ``RecordingServer`` serves ``dist/`` as the site does, writes a small
script (``RECORDER``) first into every page it serves as a navigation, which
keeps the page's uncaught errors, unhandled rejections and ``console.error``
lines, and logs every request (path, status, whether the service worker made
it). WebKit's console cannot be read through its driver; this works the same
in all three.
"""

from __future__ import annotations

import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sitebuild.browsers import firefox_executable, webkit_driver  # noqa: E402
from sitebuild.common import DIST  # noqa: E402
from sitebuild.serve import SiteHandler, SiteServer  # noqa: E402

FIREFOX_DRIVER = Path(__file__).resolve().parent / "firefox"
RECORDER_PATH = "/__engines/errors.js"

# Kept in each page (and each of its frames) before any of its own scripts runs.
RECORDER = b"""(() => {
  const kept = (window.__engineErrors = []);
  const text = (value) => {
    try { return value instanceof Error ? `${value.name}: ${value.message}` : String(value); }
    catch { return "(unprintable)"; }
  };
  addEventListener("error", (event) => kept.push(
    `uncaught ${event.message || text(event.error)} (${event.filename}:${event.lineno})`));
  addEventListener("unhandledrejection", (event) => kept.push(
    `unhandled rejection: ${text(event.reason)}`));
  const consoleError = console.error;
  console.error = function (...args) {
    kept.push(`console.error: ${args.map(text).join(" ")}`);
    return consoleError.apply(this, args);
  };
})();
"""

# The errors kept so far in the page and its same-origin frames.
COLLECT_ERRORS = """() => {
  const found = [];
  const visit = (w) => {
    try {
      found.push(...(w.__engineErrors || []).map((e) => `${w.location.pathname}: ${e}`));
      for (let i = 0; i < w.frames.length; i++) visit(w.frames[i]);
    } catch { /* another origin's frame */ }
  };
  visit(window);
  return found;
}"""

# --- the automation contract, run in the page --------------------------------------

# [phase, engine] of the table, or null before it exists.
TABLE = """() => {
  const table = document.querySelector("#table");
  return table ? [table.dataset.phase, table.dataset.engine] : null;
}"""

# Start a game from the setup form's named controls; "" once Start is pressed, else why not.
START = """(players, target) => {
  const choose = (name, value) => {
    const select = document.querySelector(`select[name="${name}"]`);
    if (!select) return false;
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    return select.value === value;
  };
  if (!choose("players", players)) return `no choice of ${players} players`;
  if (!choose("target", target)) return `no game to ${target}`;
  const start = document.querySelector('button[name="start"]');
  if (!start || start.disabled) return "Start is not enabled";
  start.click();
  return "";
}"""

# The human's next action: {phase, action} (null when the table waits for someone else);
# with act true it is taken. One action a call: the table redraws between two.
STEP = """(act) => {
  const table = document.querySelector("#table");
  const phase = table ? table.dataset.phase : "none";
  const usable = (el) => el && !el.disabled && el.getClientRects().length > 0;
  const first = (selector) => [...document.querySelectorAll(selector)].find(usable);
  const button = (name) => first(`button[data-action="${name}"]`);
  let target = null;
  if (phase === "cut") target = button("cut");
  else if (phase === "show") target = button("continue");
  else if (phase === "discard") {
    target = button("send") || first('button[data-card][data-action="pick"][aria-pressed="false"]');
  } else if (phase === "play") {
    target = first('button[data-card][data-action="play"]') || button("go");
  }
  const action = target ? (target.dataset.card || target.dataset.action) : null;
  if (act && target) target.click();
  return { phase, action };
}"""

SCORES = """() => [...document.querySelectorAll("[data-score]")]
  .map((el) => Number(el.dataset.score))"""

# Switch the page's language with its own switch (#language); true once the page is in it.
LANGUAGE = """(lang) => {
  if (document.documentElement.lang === lang) return true;
  const menu = document.getElementById("language");
  if (menu && menu.value !== lang) {
    menu.value = lang;
    menu.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return false;
}"""

# The viewport's size as the page sees it, and the widest scrollable width.
VIEWPORT = """() => [innerWidth, innerHeight, document.documentElement.scrollWidth,
  document.documentElement.scrollHeight]"""

# Resolves after two frames: whatever a resize or a step changed is laid out and painted.
SETTLED = """() => new Promise((resolve) => requestAnimationFrame(() =>
  requestAnimationFrame(() => resolve(true))))"""


class BrowserGone(RuntimeError):
    """The browser or its driver stopped answering."""


class Browser:
    """One page of one engine. Subclasses implement the five calls; errors are common."""

    name = "browser"

    def __init__(self) -> None:
        self.errors: list[str] = []  # from pages already left
        self.opened = False

    def navigate(self, url: str) -> None:
        raise NotImplementedError

    def run(self, script: str, *args: Any) -> Any:
        """Call the JavaScript function ``script`` in the page with ``args``; its result."""
        raise NotImplementedError

    def resize(self, width: int, height: int) -> tuple[int, int]:
        """Make the viewport ``width`` x ``height`` (or as near as the engine allows);
        returns the size the page then has."""
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def driver_errors(self) -> list[str]:
        """Errors the driver itself saw (console, page errors), where it can see them."""
        return []

    def open(self, url: str) -> None:
        """Go to ``url``, keeping the errors of the page being left."""
        if self.opened:
            self.errors += self.page_errors()
        self.navigate(url)
        self.opened = True

    def page_errors(self) -> list[str]:
        try:
            return list(self.run(COLLECT_ERRORS))
        except BrowserGone:
            raise
        except Exception as error:  # noqa: BLE001  (a page mid-navigation: say so, go on)
            return [f"errors not readable: {error}"]

    def all_errors(self) -> list[str]:
        return [*self.errors, *self.page_errors(), *self.driver_errors()]

    def wait(self, script: str, *args: Any, until: Callable[[Any], bool] = bool,
             timeout: float = 90.0, what: str = "") -> Any:
        """Run ``script`` every 50 ms until ``until`` holds for its result; that result."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script, *args)
            if until(value):
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: not {what or script[:60]} in {timeout} s: "
                                     f"{value!r}")
            time.sleep(0.05)


# --- the three engines ----------------------------------------------------------------


class PlaywrightBrowser(Browser):
    """A Playwright page (Chromium)."""

    name = "chromium"

    def __init__(self, page: Any) -> None:
        super().__init__()
        self.page = page
        self.seen: list[str] = []
        page.on("console", lambda m: self.seen.append(f"console.error: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda error: self.seen.append(f"page error: {error}"))

    def navigate(self, url: str) -> None:
        self.page.goto(url)

    def run(self, script: str, *args: Any) -> Any:
        return self.page.evaluate(f"(args) => ({script})(...args)", list(args))

    def resize(self, width: int, height: int) -> tuple[int, int]:
        self.page.set_viewport_size({"width": width, "height": height})
        return tuple(self.run(VIEWPORT)[:2])  # type: ignore[return-value]

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        self.page.close()

    def driver_errors(self) -> list[str]:
        return list(self.seen)


class FirefoxBrowser(Browser):
    """Firefox through Puppeteer over WebDriver BiDi, in a Node process answering one
    JSON request a line (``tests/browser/firefox/driver.mjs``)."""

    name = "firefox"

    def __init__(self, executable: str, timeout: float = 120.0) -> None:
        super().__init__()
        self.timeout = timeout
        self.process = subprocess.Popen(
            ["node", str(FIREFOX_DRIVER / "driver.mjs"), executable],
            cwd=FIREFOX_DRIVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.replies: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.call("ready")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.replies.put(line)
        self.replies.put("")  # the process ended

    def call(self, op: str, **args: Any) -> Any:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps({"op": op, **args}) + "\n")
            self.process.stdin.flush()
            line = self.replies.get(timeout=self.timeout)
        except (OSError, queue.Empty) as error:
            raise BrowserGone(f"firefox driver: {op} unanswered ({error!r})") from error
        if not line:
            stderr = self.process.stderr.read() if self.process.stderr else ""
            raise BrowserGone(f"firefox driver ended during {op}: {stderr.strip()[-2000:]}")
        reply = json.loads(line)
        if not reply["ok"]:
            raise RuntimeError(f"firefox: {op}: {reply['error']}")
        return reply["value"]

    def navigate(self, url: str) -> None:
        self.call("open", url=url)

    def run(self, script: str, *args: Any) -> Any:
        return self.call("run", script=script, args=list(args))

    def resize(self, width: int, height: int) -> tuple[int, int]:
        self.call("resize", width=width, height=height)
        return tuple(self.run(VIEWPORT)[:2])  # type: ignore[return-value]

    def screenshot(self, path: Path) -> None:
        self.call("screenshot", path=str(path))

    def driver_errors(self) -> list[str]:
        return list(self.call("errors"))

    def close(self) -> None:
        try:
            self.call("close")
        except (BrowserGone, RuntimeError):
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Xvfb:
    """A virtual X display of its own (``Xvfb -displayfd``), for WebKitGTK."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "2560x1600x24", "-nolisten", "tcp"],
            pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.process.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class WebKitBrowser(Browser):
    """WebKitGTK through Selenium and WebKitWebDriver, on a display of its own (Xvfb)."""

    name = "webkit"

    def __init__(self, driver_path: str) -> None:
        super().__init__()
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service

        self.display = Xvfb()
        env = {**os.environ, "DISPLAY": self.display.display}
        try:
            service = Service(executable_path=driver_path, env=env)
            self.driver = webdriver.WebKitGTK(service=service)
        except Exception:
            self.display.close()
            raise
        self.driver.set_script_timeout(120)

    def navigate(self, url: str) -> None:
        self.driver.get(url)

    def run(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(f"return ({script})(...arguments)", *args)

    def resize(self, width: int, height: int) -> tuple[int, int]:
        """The window is sized so that its viewport is ``width`` x ``height``: the frame
        is measured once and added (WebKitGTK keeps windows at least 447 px wide)."""
        self.driver.set_window_size(width, height)
        inner = self.run(VIEWPORT)
        self.driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))
        return tuple(self.run(VIEWPORT)[:2])  # type: ignore[return-value]

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.display.close()


# --- finding the engines ----------------------------------------------------------------


def puppeteer_ready() -> bool:
    return (FIREFOX_DRIVER / "node_modules" / "puppeteer-core" / "package.json").is_file()


def install_puppeteer() -> str:
    """Install the Firefox driver's pinned packages (package-lock.json) if missing;
    "" when ready, else why not."""
    if puppeteer_ready():
        return ""
    if shutil.which("npm") is None:
        return "npm is needed to install puppeteer-core (tests/browser/firefox)"
    done = subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=FIREFOX_DRIVER, capture_output=True, text=True,
    )
    if done.returncode != 0 or not puppeteer_ready():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"npm ci in tests/browser/firefox failed: {last}"
    return ""


def missing(engine: str) -> str:
    """Why ``engine`` cannot run here ("" when it can): what to install."""
    if engine == "firefox":
        if firefox_executable() is None:
            return "no Firefox: apt-get install -y firefox-esr (or set CRIBBAGE_FIREFOX)"
        if shutil.which("node") is None:
            return "no Node.js for the Firefox driver (puppeteer-core)"
        return install_puppeteer()
    if engine == "webkit":
        if webkit_driver() is None:
            return "no WebKitWebDriver: apt-get install -y webkit2gtk-driver xvfb"
        if shutil.which("Xvfb") is None:
            return "no Xvfb for WebKitGTK: apt-get install -y xvfb"
        try:
            import selenium  # noqa: F401
        except ImportError:
            return 'no selenium: pip install -e ".[dev]"'
        return ""
    raise ValueError(engine)


def launch(engine: str) -> Browser:
    """A new Firefox or WebKit browser (``missing(engine)`` must be "")."""
    if engine == "firefox":
        executable = firefox_executable()
        assert executable is not None
        return FirefoxBrowser(executable)
    if engine == "webkit":
        driver = webkit_driver()
        assert driver is not None
        return WebKitBrowser(driver)
    raise ValueError(engine)


# --- the site, served with the recorder -------------------------------------------------


@dataclass
class Request:
    path: str
    status: int
    mode: str  # Sec-Fetch-Mode
    from_worker: bool  # made by the service worker (its script is the referrer)


class RecordingHandler(SiteHandler):
    """The site's handler, plus the recorder in navigations and a log of every response."""

    def send_head(self) -> io.BytesIO | Any:
        path = self.path.split("?")[0]
        if path == RECORDER_PATH:
            return self.send_bytes(RECORDER, "text/javascript")
        served = self.file_path() if self.headers.get("Sec-Fetch-Mode") == "navigate" else None
        if served is not None and served.endswith(".html"):
            html = Path(served).read_bytes()
            tag = f'<script src="{RECORDER_PATH}"></script>'.encode()
            head = re.search(rb"<head[^>]*>", html)
            at = head.end() if head else 0
            return self.send_bytes(html[:at] + tag + html[at:], "text/html; charset=utf-8")
        return super().send_head()

    def send_bytes(self, body: bytes, content_type: str) -> io.BytesIO:
        self._served = None
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        return io.BytesIO(body)

    def send_response(self, code: int, message: str | None = None) -> None:
        referrer = self.headers.get("Referer") or ""
        log: list[Request] = self.server.log  # type: ignore[attr-defined]
        log.append(Request(self.path.split("?")[0], code, self.headers.get("Sec-Fetch-Mode", ""),
                           referrer.split("?")[0].endswith("/sw.js")))
        super().send_response(code, message)


class RecordingServer:
    """``dist/`` on a free loopback port with ``RecordingHandler``; ``log`` holds each response."""

    def __init__(self, directory: Path = DIST) -> None:
        self.server = SiteServer(("127.0.0.1", 0),
                                 partial(RecordingHandler, directory=str(directory)))
        self.log: list[Request] = []
        self.server.log = self.log  # type: ignore[attr-defined]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def downloads(self, path: str, since: int = 0) -> int:
        """How many times the pages (not the service worker) downloaded ``path`` whole,
        counting from the ``since``-th response."""
        return sum(1 for r in self.log[since:]
                   if r.path == path and r.status == 200 and not r.from_worker)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- playing ----------------------------------------------------------------------------


def open_table(browser: Browser, url: str, lang: str = "en", timeout: float = 90.0) -> None:
    """Open the table at ``url`` (``?speed=0`` added), in ``lang``, and wait for the engine."""
    browser.open(url + "?speed=0")
    browser.wait(TABLE, until=lambda t: bool(t) and t[0] == "setup" and t[1] == "ready",
                 timeout=timeout, what="the table set up with its engine ready")
    browser.wait(LANGUAGE, lang, timeout=30, what=f"the page in {lang}")
    # The table writes its own words (MicroPython) after the switch: a frame or two later.
    browser.run(SETTLED)


def start_game(browser: Browser, players: int = 2, target: int = 61) -> None:
    refused = browser.run(START, str(players), str(target))
    assert not refused, f"{browser.name}: cannot start: {refused}"
    browser.wait(TABLE, until=lambda t: t[0] not in ("setup", "over"), timeout=30,
                 what="a game started")


def play_game(browser: Browser, timeout: float = 150.0,
              on_turn: Callable[[str, int], None] | None = None) -> dict[str, Any]:
    """Play the human's seat to game over; ``on_turn(phase, n)`` is called before the
    human's n-th action in that phase (the table waiting for the human), and once with
    "over". Returns the final scores, the number of actions and the seconds taken."""
    began = time.monotonic()
    turns: dict[str, int] = {}
    actions = 0
    while True:
        state = browser.run(STEP, False)
        phase = state["phase"]
        if phase == "over":
            break
        if state["action"] is not None:
            turns[phase] = turns.get(phase, 0) + 1
            if on_turn is not None:
                on_turn(phase, turns[phase])
            browser.run(STEP, True)
            actions += 1
        else:
            time.sleep(0.02)  # a computer or the engine moves: look again
        if time.monotonic() - began > timeout:
            raise AssertionError(f"{browser.name}: no game over in {timeout} s "
                                 f"(phase {phase}, {actions} actions)")
    if on_turn is not None:
        on_turn("over", 1)
    return {"scores": browser.run(SCORES), "actions": actions,
            "seconds": round(time.monotonic() - began, 1)}
