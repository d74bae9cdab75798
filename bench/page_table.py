#!/usr/bin/env python3
"""Table benchmark: how fast the computer's moves show, and whether the page
ever freezes, while whole deals are played through the UI at normal speed.

    python bench/page_table.py [--deals N] [--levels beginner,easy,standard,expert] [--markdown]

Builds dist/, serves it on loopback and opens it in Chromium at normal
animation speed. For each level a 2-player game is played through the page
(the human seat driven by tests/browser/driver.py, through the automation
contract) for N deals. The page marks when a computer's turn begins and
measures until the table shows its move (``cribbage:computer-move``: the
deliberate 0.3 s pause, the engine's decision in the worker, the view and
the render). It prints the median, 90th percentile and maximum of that
latency per level against the 0.5 s target, and the longest main-thread task
seen during the run (pegs and cards animating, the computer thinking) against
the 200 ms target; with ``--markdown`` also as rows of the tables in
docs/performance.md (with the command, commit and machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))

from driver import Table  # noqa: E402
from pagekit import (  # noqa: E402  (what the page benches share)
    FLAGS,
    LONG_TASKS,
    App,
    Conditions,
    browser_name,
    command,
    markdown_rows,
)

from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import find_browser  # noqa: E402
from sitebuild.serve import serve_in_thread  # noqa: E402


def play_level(browser: Any, url: str, level: str, deals: int) -> dict[str, Any]:
    """Play ``deals`` deals against ``level`` at normal speed; collect the measures."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.add_init_script(LONG_TASKS)
    page.set_default_timeout(120_000)
    table = Table(App(page, url), page).open(query="").start(level=level)
    shows = 0

    def enough() -> bool:
        nonlocal shows
        if table.phase == "show" and table.enabled("Continue"):
            shows += 1
        return shows >= deals or table.phase == "over"

    table.play_until(enough, limit=20_000)
    latencies = page.evaluate(
        "performance.getEntriesByName('cribbage:computer-move').map(m => m.duration)")
    long_tasks = page.evaluate("window.__longTasks")
    context.close()
    return {"latencies": latencies, "long_tasks": long_tasks}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--levels", default="beginner,easy,standard,expert")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the figures as rows of docs/performance.md's tables")
    args = parser.parse_args(argv)
    conditions, rows = Conditions(), []
    from playwright.sync_api import sync_playwright

    build(quiet=True)
    server, url = serve_in_thread()
    executable = find_browser()
    try:
        with sync_playwright() as playwright:
            launch: dict[str, Any] = {"args": FLAGS}
            if executable and executable != "playwright":
                launch["executable_path"] = executable
            browser = playwright.chromium.launch(**launch)
            print(f"computer move shown after its turn begins (ms), {args.deals} deals per "
                  "level, normal speed; target: median <= 500")
            print(f"{'level':<10} {'moves':>6} {'median':>8} {'p90':>8} {'max':>8} "
                  f"{'longest task':>13}")
            worst_task = 0.0
            for level in args.levels.split(","):
                result = play_level(browser, url, level, args.deals)
                values = result["latencies"]
                longest = max(result["long_tasks"], default=0.0)
                worst_task = max(worst_task, longest)
                print(f"{level:<10} {len(values):>6} {statistics.median(values):>8.0f} "
                      f"{percentile(values, 0.9):>8.0f} {max(values):>8.0f} {longest:>13.0f}")
                rows.append((f"a computer's move shown, {level}",
                             f"median {statistics.median(values):.0f} ms, p90 "
                             f"{percentile(values, 0.9):.0f}, max {max(values):.0f} "
                             f"({len(values)} moves)"))
                conditions.sample()
            print(f"longest main-thread task during play: {worst_task:.0f} ms (target <= 200)")
            rows.append(("longest main-thread task while playing", f"{worst_task:.0f} ms"))
            if args.markdown:
                print(markdown_rows(rows, command("page_table.py", argv),
                                    conditions.describe(browser_name(browser.version))))
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
