"""Finding a browser for the browser tests (installing one if need be), and the test command.

Order: $CRIBBAGE_BROWSER, Playwright's own Chromium, a system Chromium, then
(only for ``python build.py test``) Debian's chromium installed with apt-get,
because Playwright cannot download its browsers on a closed network. Firefox
and WebKitGTK, for the smoke tests in other engines and the gallery, are
found on the PATH (Debian's firefox-esr and webkit2gtk-driver, which
``.ci/run`` installs); without them those tests are skipped, or fail under
``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sitebuild.assemble import build
from sitebuild.common import ROOT

SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
BROWSER_ENV = "CRIBBAGE_BROWSER"  # "playwright" or a path to a Chromium executable
FIREFOX_ENV = "CRIBBAGE_FIREFOX"  # a Firefox executable (tests/browser/test_engines.py)
WEBKIT_ENV = "CRIBBAGE_WEBKIT_DRIVER"  # a WebKitWebDriver executable (the same)

# How the tests and benchmarks start Chromium: as root (so without the sandbox), with
# no GPU, and without the background connections a closed network refuses.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL_HINT = (
    "no browser for the browser tests: run `playwright install chromium`, or install Chromium "
    "(Debian: apt-get install -y chromium), or set CRIBBAGE_BROWSER to a Chromium executable"
)


def playwright_chromium() -> str | None:
    """The path of Playwright's own Chromium if it is installed, else None."""
    probe = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p: print(p.chromium.executable_path)"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = done.stdout.strip()
    return path if done.returncode == 0 and path and os.path.exists(path) else None


def system_chromium() -> str | None:
    """A system Chromium, if one is installed."""
    for path in SYSTEM_CHROMIUM:
        if os.access(path, os.X_OK):
            return path
    return None


def install_debian_chromium() -> str | None:
    """Install Debian's chromium when we are root on Debian; return its path or None."""
    if (
        os.geteuid() != 0
        or not Path("/etc/debian_version").exists()
        or shutil.which("apt-get") is None
    ):
        return None
    print("installing Debian's chromium for the browser tests", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for args in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        if subprocess.run(args, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            return None
    return system_chromium()


def firefox_executable() -> str | None:
    """Firefox for the engine smoke tests and the gallery: $CRIBBAGE_FIREFOX, else
    Debian's firefox-esr or a firefox on the PATH."""
    return os.environ.get(FIREFOX_ENV) or shutil.which("firefox-esr") or shutil.which("firefox")


def webkit_driver() -> str | None:
    """WebKitGTK's WebDriver (Debian's webkit2gtk-driver): $CRIBBAGE_WEBKIT_DRIVER, else
    WebKitWebDriver on the PATH."""
    return os.environ.get(WEBKIT_ENV) or shutil.which("WebKitWebDriver")


def find_browser(install: bool = False) -> str | None:
    """``"playwright"`` for Playwright's own browser, a Chromium path, or None.

    Order: $CRIBBAGE_BROWSER, Playwright's browser, a system Chromium, then
    (only with ``install``) Debian's chromium installed with apt-get.
    """
    chosen = os.environ.get(BROWSER_ENV)
    if chosen:
        return chosen
    if playwright_chromium():
        return "playwright"
    return system_chromium() or (install_debian_chromium() if install else None)


def ensure_test_requirements() -> bool:
    """Install the dev extra (pytest-playwright and the other test tools) if it is missing."""
    try:
        import pytest_playwright  # noqa: F401
    except ImportError:
        print('installing the test requirements: pip install -e ".[dev]"', file=sys.stderr)
        command = [sys.executable, "-m", "pip", "install", "--quiet", "-e", ".[dev]"]
        if subprocess.call(command, cwd=ROOT) != 0:
            print('could not install them: run pip install -e ".[dev]"', file=sys.stderr)
            return False
    return True


def run_tests(args: list[str]) -> int:
    """Build, find a browser, then run the whole suite with pytest."""
    if not ensure_test_requirements():
        return 2
    build()
    browser = find_browser(install=True)
    if browser is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    env = {**os.environ, BROWSER_ENV: browser}
    return subprocess.call([sys.executable, "-m", "pytest", *args], cwd=ROOT, env=env)
