"""What the page benches share, so that none imports another.

- ``FLAGS`` and ``LONG_TASKS``: the browser's flags and the main thread's
  long-task probe (an init script), the same for every bench;
- ``App``: the little ``tests/browser/driver.py`` needs to play the table
  (open the page, wait for the engine);
- ``build_baseline``: the site of a git revision, built in a temporary worktree;
- ``Conditions`` and ``markdown_rows``: a bench's figures as rows of the tables
  in docs/performance.md, each with the command that reproduces it and what it
  was measured on (commit, cores, load average, browser).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sitebuild.browsers import CHROMIUM_FLAGS  # noqa: E402

FLAGS = CHROMIUM_FLAGS

LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push(e.duration);
}).observe({type: "longtask", buffered: true});
"""


class App:
    """The little the driver needs: open the page and wait for the engine."""

    def __init__(self, page: Any, url: str) -> None:
        self.page, self.url = page, url

    def open(self, query: str = "") -> App:
        self.page.goto(self.url + query)
        self.page.wait_for_selector("#table[data-phase=setup]")
        return self

    def wait_engine(self) -> App:
        self.page.wait_for_selector("#table[data-engine=ready]", timeout=120_000)
        return self


def build_baseline(revision: str, into: Path) -> Path:
    """Build ``revision``'s site in a temporary worktree; return its dist/."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(into),
                    revision], check=True, capture_output=True)
    os.symlink(ROOT / ".cache", into / ".cache")  # the pinned downloads, already fetched
    subprocess.run([sys.executable, "build.py"], cwd=into, check=True, capture_output=True)
    return into / "dist"


def commit() -> str:
    """The checkout's commit, marked when the site's sources differ from it."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown commit"
    changed = git("status", "--porcelain", "--", "cribbage", "web", "sitebuild", "build.py")
    return head + (" with uncommitted changes" if changed else "")


def browser_name(user_agent_or_version: str) -> str:
    """``Chromium 156.0.8078.129`` from a user agent or a bare version."""
    found = re.search(r"Chrome/([\d.]+)", user_agent_or_version)
    return f"Chromium {found.group(1) if found else user_agent_or_version}"


class Conditions:
    """The load average seen while a bench ran, and the commit, cores and browser."""

    def __init__(self) -> None:
        self.loads: list[float] = []
        self.sample()

    def sample(self) -> None:
        self.loads.append(os.getloadavg()[0])

    def describe(self, browser: str) -> str:
        low, high = min(self.loads), max(self.loads)
        span = f"{low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}-{high:.1f}"
        return f"{commit()}; {os.cpu_count()} cores, load average {span}; {browser}"


def command(script: str, argv: list[str]) -> str:
    """The command line that reproduces a run, without ``--markdown``."""
    return shlex.join(["python", f"bench/{script}", *(a for a in argv if a != "--markdown")])


def markdown_rows(rows: list[tuple[str, str]], run: str, measured: str) -> str:
    """``| figure | value | command | measured on |`` rows, as docs/performance.md has them."""
    return "\n".join(f"| {figure} | {value} | `{run}` | {measured} |" for figure, value in rows)
