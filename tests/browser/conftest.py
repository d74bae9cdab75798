"""The browser test harness (pytest-playwright), shared by every browser test.

- The site is built once per session (``sitebuild.assemble.build``, instant when cached)
  and served from dist/ on a free loopback port in a thread; ``base_url``
  points at it, so ``page.goto("/")`` opens the page.
- The browser is found as ``python build.py test`` finds it: Playwright's own
  Chromium if installed, else a system Chromium (with the flags in
  ``sitebuild/browsers.py``); without one the browser tests are skipped with a one-line hint.
- Any console error or uncaught page error fails the test (mark a test with
  ``@pytest.mark.allow_console_errors`` when it provokes one on purpose).
- Any Content-Security-Policy violation, in the page or any of its frames
  (widgets of other origins included), fails the test: an init script records
  each ``securitypolicyviolation`` in ``window.__cspViolations`` and reports it
  at once to the test (``csp_violations``), so none is lost when a frame
  navigates or goes away. Mark a test ``@pytest.mark.allow_csp_violations``
  when it provokes one on purpose (tests/browser/test_csp.py).
- Every request the page (and its workers) makes is recorded in
  ``requests_seen``; ``app.assert_same_origin(requests_seen)`` checks that
  nothing left the origin.
- ``app`` opens the page, waits for its stages, talks to the engine the way
  the UI does, and reads the main thread's long tasks (``app.long_tasks()``,
  observed from before the first script runs).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The build's own browser discovery and server, so tests and `build.py test` agree.
from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import CHROMIUM_FLAGS, INSTALL_HINT, find_browser  # noqa: E402
from sitebuild.serve import serve_in_thread  # noqa: E402

# Registered before any page script, so no long task is missed.
LONG_TASK_OBSERVER = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.__longTasks.push({start: e.startTime, duration: e.duration});
  }
}).observe({type: "longtask", buffered: true});
"""

# Registered in every frame before any of its scripts: every CSP violation, kept in the frame
# and reported to the test through the __cspReport binding (see watch_csp).
CSP_OBSERVER = """
window.__cspViolations = [];
addEventListener("securitypolicyviolation", (event) => {
  const record = {
    page: location.href, directive: event.effectiveDirective, blocked: event.blockedURI,
    source: event.sourceFile, line: event.lineNumber, column: event.columnNumber,
    sample: event.sample,
  };
  window.__cspViolations.push(record);
  if (typeof window.__cspReport === "function") window.__cspReport(record);
}, true);
"""


def watch_csp(target: Any) -> list[dict[str, Any]]:
    """Record every CSP violation in ``target`` (a page or a browser context) and its frames."""
    seen: list[dict[str, Any]] = []
    target.expose_binding("__cspReport", lambda _source, record: seen.append(record))
    target.add_init_script(CSP_OBSERVER)
    return seen


def csp_violations(page: Any, reported: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations reported so far, plus any still only recorded in a live frame."""
    found = list(reported)
    for frame in page.frames:
        try:
            kept = frame.evaluate("window.__cspViolations || []")
        except Exception:  # noqa: BLE001  (a frame that went away meanwhile)
            continue
        found += [record for record in kept if record not in found]
    return found


ENGINE_TIMEOUT_MS = 90_000  # a cold engine load on a busy 2-core CI machine


@contextmanager
def persistent_page(
    browser_type: Any, launch_args: dict[str, Any], profile: Path, **options: Any
) -> Iterator[tuple[Any, list[str]]]:
    """A page of a persistent profile (a returning player's browser, where a service worker
    lives) and every URL it and its workers ask for; on leaving, the test fails on
    console errors and CSP violations, as the shared ``page`` fixture does."""
    context = browser_type.launch_persistent_context(str(profile), **launch_args, **options)
    violations = watch_csp(context)
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(ENGINE_TIMEOUT_MS)
    errors: list[str] = []
    seen: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    context.on("request", lambda request: seen.append(request.url))
    yield page, seen
    found = csp_violations(page, violations)
    context.close()
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)
    assert not found, f"Content-Security-Policy violations: {found}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "allow_console_errors: the test provokes console errors on purpose"
    )
    config.addinivalue_line(
        "markers", "allow_csp_violations: the test provokes CSP violations on purpose"
    )


@pytest.fixture(scope="session")
def browser_choice() -> str:
    """ "playwright" or the path of a Chromium; skips the browser tests if none."""
    choice = find_browser()
    if choice is None:
        pytest.skip(INSTALL_HINT)
    return choice


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], browser_choice: str
) -> dict[str, Any]:
    args = {
        **browser_type_launch_args,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_FLAGS],
    }
    if browser_choice != "playwright":
        args["executable_path"] = browser_choice
    return args


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """Build dist/ once and serve it on a free loopback port; yields the base URL."""
    build(quiet=True)
    server, url = serve_in_thread()
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(site: str) -> str:
    return site


@pytest.fixture
def requests_seen(page: Any) -> list[str]:
    """URLs of every request the page and its workers make, in order."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


@pytest.fixture
def page(page: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """pytest-playwright's page, failing the test on console errors, page errors and
    Content-Security-Policy violations (in any frame)."""
    errors: list[str] = []

    def on_console(msg: Any) -> None:
        # Every line goes to stdout, which pytest shows only for a failed test: MicroPython
        # prints an exception escaping an asyncio task with console.log, not as an error.
        print(f"console.{msg.type}: {msg.text}")
        if msg.type == "error":
            errors.append(f"console.{msg.type}: {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.add_init_script(LONG_TASK_OBSERVER)
    violations = watch_csp(page)
    page.set_default_timeout(ENGINE_TIMEOUT_MS)
    yield page
    if request.node.get_closest_marker("allow_csp_violations") is None:
        found = csp_violations(page, violations)
        if found:
            pytest.fail(
                "Content-Security-Policy violations:\n" + "\n".join(map(json.dumps, found)),
                pytrace=False,
            )
    if errors and request.node.get_closest_marker("allow_console_errors") is None:
        pytest.fail("errors in the browser console:\n" + "\n".join(errors), pytrace=False)


class App:
    """The page under test: open it, wait for its stages, call the engine."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.table = page.locator("#table")

    def open(self, query: str = "") -> App:
        """Navigate and wait until the UI (MicroPython) is up."""
        self.page.goto("/" + query)
        self.page.wait_for_selector("#table[data-phase=setup]")
        return self

    def wait_engine(self) -> App:
        """Wait until the engine worker has answered and Start is enabled."""
        self.page.wait_for_selector("#table[data-engine=ready]")
        return self

    def call(self, name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call an engine protocol function from the page; returns the parsed reply."""
        text = self.page.evaluate(
            "([name, arg]) => window.cribbageEngine[name](arg)", [name, json.dumps(payload or {})]
        )
        return json.loads(text)

    def result(self, name: str, payload: dict[str, Any] | None = None) -> Any:
        """Like ``call`` but expects success and returns the result."""
        reply = self.call(name, payload)
        assert reply["ok"], reply
        return reply["result"]

    def long_tasks(self) -> list[dict[str, float]]:
        """The main thread's long tasks (> 50 ms) so far, observed from before any script ran."""
        return self.page.evaluate("window.__longTasks")

    def assert_same_origin(self, urls: list[str]) -> None:
        """Fail if any request went anywhere but the site's origin (its blob:/data: are fine)."""
        origin = self.base_url.rstrip("/")
        away = [
            url
            for url in urls
            if not (
                url.startswith(origin + "/")
                or url.startswith("blob:" + origin)
                or url.startswith("data:")
            )
        ]
        assert not away, f"requests left the origin {origin}: {away}"


@pytest.fixture
def app(page: Any, base_url: str) -> App:
    return App(page, base_url)
