#!/usr/bin/env python3
"""Game review benchmark: how long the page takes to review a whole game.

    python bench/page_review.py [--seeds 1,2,3] [--target 121] [--repeat 1]

For each seed a 2-player game is played by two standard computers under
CPython and saved the way the table saves it when its last deal is dealt
(tests/browser/games.py): every earlier deal is there to review. The page is
opened on that save, "Review game" is pressed, and the page's own measure
``cribbage:game-review`` is read: from the press to the report (every deal
graded in the worker, one call per deal, then the report). Also printed: the
number of deals and decisions, the CPython time of the same review, and the
longest main-thread task seen while reviewing (target: none over 200 ms).
Target: median ≤ 3 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))

from games import last_deal_save  # noqa: E402
from pagekit import FLAGS, LONG_TASKS  # noqa: E402  (same browser, same long-task probe)

from cribbage import Game  # noqa: E402
from cribbage.review import review_game  # noqa: E402
from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import find_browser  # noqa: E402
from sitebuild.serve import serve_in_thread  # noqa: E402


def review_in_page(browser: Any, url: str, save: str) -> dict[str, Any]:
    """Open the page on ``save``, press Review game, and read the measures."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.add_init_script(LONG_TASKS)
    page.set_default_timeout(120_000)
    page.goto(url + "?speed=0")
    page.wait_for_selector("#table[data-engine=ready]")
    page.evaluate("text => localStorage.setItem('cribbage.save', text)", save)
    page.reload()
    page.wait_for_selector("#table[data-engine=ready]")
    page.wait_for_selector("#table[data-phase=discard]")
    page.wait_for_timeout(500)  # the table settles after resuming
    before = page.evaluate("performance.now()")
    page.locator(".review-line [data-action=review-game]").click()
    page.wait_for_selector("#review[data-state=done]")
    seconds = page.evaluate(
        "performance.getEntriesByName('cribbage:game-review').at(-1).duration") / 1000
    tasks = page.evaluate("t => window.__longTasks.filter(e => e.start >= t)"
                          ".map(e => e.duration)", before)
    decisions = page.locator("#review .review-decisions li").count()
    context.close()
    return {"seconds": seconds, "longest": max(tasks, default=0.0), "decisions": decisions}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--target", type=int, default=121)
    parser.add_argument("--repeat", type=int, default=1, help="reviews per game in the page")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    build(quiet=True)
    server, url = serve_in_thread()
    executable = find_browser()
    times, longest = [], 0.0
    try:
        with sync_playwright() as playwright:
            launch: dict[str, Any] = {"args": FLAGS}
            if executable and executable != "playwright":
                launch["executable_path"] = executable
            browser = playwright.chromium.launch(**launch)
            print(f"whole-game review, {args.target}-point games, 2 standard computers; "
                  "target: median <= 3 s in the page, no main-thread task over 200 ms")
            print(f"{'seed':>5} {'deals':>6} {'decisions':>10} {'CPython s':>10} "
                  f"{'page s':>8} {'longest task ms':>16}")
            for seed in (int(s) for s in args.seeds.split(",")):
                save = last_deal_save(seed, args.target)
                game = Game.from_json(json.loads(save)["game"])
                start = time.perf_counter()
                review_game(game, 0)
                cpython = time.perf_counter() - start
                for _ in range(args.repeat):
                    result = review_in_page(browser, url, save)
                    times.append(result["seconds"])
                    longest = max(longest, result["longest"])
                    print(f"{seed:>5} {game.deal_number:>6} {result['decisions']:>10} "
                          f"{cpython:>10.2f} {result['seconds']:>8.2f} "
                          f"{result['longest']:>16.0f}")
            browser.close()
    finally:
        server.shutdown()
    print(f"median in the page: {statistics.median(times):.2f} s over {len(times)} reviews "
          f"(target <= 3 s); longest main-thread task while reviewing: {longest:.0f} ms "
          "(target <= 200)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
