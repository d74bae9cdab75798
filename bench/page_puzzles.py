#!/usr/bin/env python3
"""Puzzle page benchmark: how soon after the engine is ready the day's puzzles are drawn.

    python bench/page_puzzles.py [--loads N] [--dates 2026-12-02,2026-12-03]

Each load is a fresh browser context (cold HTTP cache) opening
``puzzles.html?date=D``, dates taken in turn. The page asks for both daily
puzzles the moment its module runs, so the worker computes them as soon as
Python is up; its own marks are read: ``cribbage:engine-ready``,
``cribbage:puzzle-ready:discard`` (the discard of the day drawn) and
``cribbage:puzzle-computed:play`` (the play of the day's ranking in, computed
next in the worker), plus the longest main-thread task of the load.
Targets: the daily puzzle ready within 0.3 s of the engine; no main-thread
task over 200 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pagekit import FLAGS, LONG_TASKS  # noqa: E402  (same browser, same long-task probe)

from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import INSTALL_HINT, find_browser  # noqa: E402
from sitebuild.serve import serve_in_thread  # noqa: E402

MARKS = """() => Object.fromEntries(performance.getEntriesByType('mark')
    .map(m => [m.name, m.startTime]).concat([['longest', Math.max(0, ...window.__longTasks)]]))"""


def load(browser: Any, url: str) -> dict[str, float]:
    """One cold load of the puzzle page; the ms after the engine was ready, and the longest task."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(LONG_TASKS)
        page.set_default_timeout(120_000)
        page.goto(url)
        page.wait_for_selector("#puzzle[data-state=ask]")
        page.wait_for_function("performance.getEntriesByName('cribbage:puzzle-computed:play').length")
        page.wait_for_timeout(300)  # let the last long task be reported
        marks = page.evaluate(MARKS)
    finally:
        context.close()
    ready = marks["cribbage:engine-ready"]
    return {"engine": ready, "discard": marks["cribbage:puzzle-ready:discard"] - ready,
            "play": marks["cribbage:puzzle-computed:play"] - ready, "longest": marks["longest"]}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=8, help="cold loads (default 8)")
    parser.add_argument("--dates", default="2026-12-02,2026-12-03,2026-12-04,2026-12-05",
                        help="the puzzles' dates, taken in turn")
    args = parser.parse_args(argv)
    executable = find_browser()
    if executable is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    build(quiet=True)
    server, url = serve_in_thread()
    dates = args.dates.split(",")
    print(f"{args.loads} cold loads of puzzles.html; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    with sync_playwright() as playwright:
        options: dict[str, Any] = {"args": FLAGS, "headless": True}
        if executable != "playwright":
            options["executable_path"] = executable
        browser = playwright.chromium.launch(**options)
        try:
            for number in range(args.loads):
                date = dates[number % len(dates)]
                row = load(browser, f"{url}puzzles.html?date={date}")
                rows.append(row)
                print(f"  {date}: engine ready {row['engine']:.0f} ms; discard of the day "
                      f"+{row['discard']:.0f} ms, play of the day +{row['play']:.0f} ms; "
                      f"longest task {row['longest']:.0f} ms", flush=True)
        finally:
            browser.close()
            server.shutdown()
    for key, label in (("discard", "discard of the day drawn"),
                       ("play", "play of the day computed")):
        values = sorted(row[key] for row in rows)
        print(f"{label}, ms after engine ready: median {statistics.median(values):.0f}, "
              f"max {values[-1]:.0f} (target <= 300 for the daily puzzle)")
    print(f"longest main-thread task: {max(row['longest'] for row in rows):.0f} ms "
          "(target <= 200)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
