#!/usr/bin/env python3
"""Move benchmark: how long from the human's click to the redrawn table, this
build against an earlier one, side by side in one run.

    python bench/page_move.py [--baseline REV] [--rounds N] [--moves N] [--markdown]

Builds dist/ and, in a temporary git worktree, the site of ``--baseline``
(default 696bc01, the last commit before the one-round-trip protocol: there a
move took ``apply_move``, then ``view``, then ``save``). Both are served on
loopback and opened in Chromium with ``?speed=0`` (no animations), alternating
round by round. In each round a 2-player game against the beginner is played
through the page; for each card the human plays, the page clicks it and
measures until the table has been redrawn from the engine's reply (a
MutationObserver sees the card leave the hand). The computer's own thinking is not in
the measure: the human's card is drawn before the computer is asked to move.

Prints the median and 90th percentile per build, the ratio of medians and
this build's median against the target (a move is instant: <= 50 ms), with
the load average it ran under (``--markdown``: also as a row of the tables in
docs/performance.md, with the command, commit and machine). Run it on a quiet
machine if you can.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))

from driver import Table  # noqa: E402
from pagekit import (  # noqa: E402  (what the page benches share)
    FLAGS,
    App,
    Conditions,
    browser_name,
    build_baseline,
    command,
    markdown_rows,
)

from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import find_browser  # noqa: E402
from sitebuild.serve import serve_in_thread  # noqa: E402

BASELINE = "696bc01"

# Click the card, then wait until the table has been redrawn from the engine's
# reply: the card is gone from the hand (it lies on the pile, or the show has
# begun). Gives up after 10 s (null).
PLAY_AND_TIME = """
async (code) => {
  const table = document.getElementById("table");
  const selector = `.seat-human button.card[data-card="${code}"]`;
  const button = document.querySelector(selector);
  if (!button || button.disabled) return null;
  const start = performance.now();
  const done = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (!document.querySelector(selector)) {
        watch.disconnect();
        resolve(performance.now() - start);
      }
    });
    watch.observe(table, { childList: true, subtree: true });
    setTimeout(() => { watch.disconnect(); resolve(null); }, 10000);
  });
  button.click();
  return await done;
}
"""


def time_moves(browser: Any, url: str, moves: int) -> list[float]:
    """Play a game through the page; the click-to-pile time of each human card."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    table = Table(App(page, url), page).open().start(level="beginner")
    times: list[float] = []
    for _ in range(20_000):
        if len(times) >= moves or table.phase == "over":
            break
        playable = page.locator(".seat-human button.card[data-action=play]:not([disabled])")
        if table.phase == "play" and playable.count():
            code = playable.first.get_attribute("data-card")
            took = page.evaluate(PLAY_AND_TIME, code)
            if took is not None:
                times.append(took)
            continue
        table.step()
        page.wait_for_timeout(10)
    context.close()
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE,
                        help="git revision to compare with ('' for this build alone)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--moves", type=int, default=12, help="human cards timed per round")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the figure as a row of docs/performance.md's tables")
    args = parser.parse_args(argv)
    conditions = Conditions()
    from playwright.sync_api import sync_playwright

    build(quiet=True)
    scratch = Path(tempfile.mkdtemp(prefix="cribbage-baseline-"))
    worktree = scratch / "site"
    servers = []
    try:
        new_server, new_url = serve_in_thread()
        servers = [new_server]
        if args.baseline:
            old_dist = build_baseline(args.baseline, worktree)
            old_server, old_url = serve_in_thread(old_dist)
            servers.append(old_server)
        executable = find_browser()
        results: dict[str, list[float]] = {"this build": []}
        if args.baseline:
            results[args.baseline] = []
        with sync_playwright() as playwright:
            launch: dict[str, Any] = {"args": FLAGS}
            if executable and executable != "playwright":
                launch["executable_path"] = executable
            browser = playwright.chromium.launch(**launch)
            for _ in range(args.rounds):
                if args.baseline:
                    results[args.baseline] += time_moves(browser, old_url, args.moves)
                results["this build"] += time_moves(browser, new_url, args.moves)
            version = browser.version
            browser.close()
        conditions.sample()
        print("human card played -> shown on the redrawn table (ms), ?speed=0, "
              f"{args.rounds} alternating rounds")
        print(f"{'build':<12} {'moves':>6} {'median':>8} {'p90':>8}")
        medians, p90s = {}, {}
        for name, values in results.items():
            ordered = sorted(values)
            medians[name] = statistics.median(ordered)
            p90s[name] = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            print(f"{name:<12} {len(values):>6} {medians[name]:>8.1f} {p90s[name]:>8.1f}")
        if args.baseline:
            ratio = medians[args.baseline] / medians["this build"]
            print(f"baseline median / this build's median: {ratio:.2f}x (target >= 2)")
        print(f"this build: human move to redrawn table, median {medians['this build']:.1f} ms"
              " (target <= 50 ms)")
        print(f"load average: {min(conditions.loads):.2f}-{max(conditions.loads):.2f}")
        if args.markdown:
            row = ("a move's redraw: human card to redrawn table, median",
                   f"{medians['this build']:.1f} ms (p90 {p90s['this build']:.1f} ms, "
                   f"{len(results['this build'])} moves)")
            print(markdown_rows([row], command("page_move.py", argv),
                                conditions.describe(browser_name(version))))
    finally:
        for server in servers:
            server.shutdown()
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                       capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
