#!/usr/bin/env python3
"""Move benchmark: how long from the human's click to the redrawn table, this
build against an earlier one, side by side in one run.

    python bench/page_move.py [--baseline REV] [--rounds N] [--moves N]
                              [--profiles desktop,phone] [--markdown]

Builds dist/ and, in a temporary git worktree, the site of ``--baseline``
(default 696bc01, the last commit before the one-round-trip protocol: there a
move took ``apply_move``, then ``view``, then ``save``). Both are served on
loopback and opened in Chromium with ``?speed=0`` (no animations), alternating
round by round. In each round a 2-player game against the beginner is played
through the page; for each card the human plays and each discard it sends, the
page clicks and measures two figures:

- **laid**: until the cards have left the hand for the pile or the crib (a
  MutationObserver sees them go). The table lays a card the moment it is
  chosen and a discard the moment it is sent (tablerender.lay_at_once,
  discard_at_once), before the engine answers;
- **redrawn**: until the table has been redrawn from the engine's reply (the
  UI's ``cribbage:table-drawn`` mark: count, points, pegs, the hand, the
  actions). A build that draws the move only from the reply has its "laid"
  at that redraw.

The computer's own thinking is not in either: the human's card is drawn
before the computer is asked to move. ``--profiles phone`` slows the page's
CPU 4x (the DevTools protocol, as bench/page_load.py's phone profile; the
engine's worker is not slowed).

Prints the median and 90th percentile per build, profile and kind of move,
and this build's medians against the targets (laid within a frame: median
<= 16 ms, p90 <= 33 ms on the desktop; <= 50 ms on the phone), with the load
average it ran under (``--markdown``: also as a row of the tables in
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
PHONE_CPU_SLOWDOWN = 4  # as bench/page_load.py's phone profile

# Click the button, then wait until the moved cards have left the hand (on the pile, in
# the crib, or the show has begun) and until the table has been redrawn from the engine's
# reply. Gives up after 10 s (null).
MOVE_AND_TIME = """
async ({ codes, click }) => {
  const table = document.getElementById("table");
  const inHand = () => codes.some((code) =>
    document.querySelector(`.seat-human button.card[data-card="${code}"]`));
  const button = document.querySelector(click);
  if (!button || button.disabled) return null;
  const start = performance.now();
  const drawn = new Promise((resolve) => {
    const watch = new PerformanceObserver((list) => {
      for (const mark of list.getEntriesByName("cribbage:table-drawn")) {
        if (mark.startTime >= start) { watch.disconnect(); resolve(mark.startTime - start); }
      }
    });
    watch.observe({ type: "mark" });
    setTimeout(() => { watch.disconnect(); resolve(null); }, 10000);
  });
  const gone = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (!inHand()) {
        watch.disconnect();
        resolve(performance.now() - start);
      }
    });
    watch.observe(table, { childList: true, subtree: true });
    setTimeout(() => { watch.disconnect(); resolve(null); }, 10000);
  });
  button.click();
  const laid = await gone;
  if (laid === null) return null;
  const redrawn = await Promise.race([drawn, new Promise((r) => setTimeout(() => r(null), 3000))]);
  return { laid, redrawn: redrawn ?? laid };
}
"""
KINDS = ("card", "discard")


def time_moves(browser: Any, url: str, moves: int, phone: bool) -> list[dict[str, Any]]:
    """Play a game through the page; each human card's and discard's times (laid: the cards
    left the hand; redrawn: the table drawn from the engine's reply), up to ``moves``
    cards."""
    context = browser.new_context(viewport={"width": 390, "height": 844} if phone
                                  else {"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    if phone:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU_SLOWDOWN})
    table = Table(App(page, url), page).open().start(level="beginner")
    times: list[dict[str, Any]] = []
    hand = ".seat-human button.card:not([disabled])"
    for _ in range(20_000):
        if sum(t["kind"] == "card" for t in times) >= moves or table.phase == "over":
            break
        playable = page.locator(hand + "[data-action=play]")
        if table.phase == "play" and playable.count():
            code = playable.first.get_attribute("data-card")
            took = page.evaluate(MOVE_AND_TIME, {
                "codes": [code], "click": f'.seat-human button.card[data-card="{code}"]'})
            if took is not None:
                times.append({"kind": "card", **took})
            continue
        send = page.locator(".actions button[data-action=send]:not([disabled])")
        if table.phase == "discard" and send.count():  # the cards picked by table.step()
            codes = page.locator(".seat-human button.card.selected").evaluate_all(
                "cards => cards.map(c => c.dataset.card)")
            took = page.evaluate(MOVE_AND_TIME, {
                "codes": codes, "click": ".actions button[data-action=send]"})
            if took is not None:
                times.append({"kind": "discard", **took})
            continue
        table.step()
        page.wait_for_timeout(10)
    context.close()
    return times


def spread(values: list[float]) -> tuple[float, float]:
    """The median and the 90th percentile."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def report(results: dict[tuple[str, str], list[dict[str, Any]]], args: Any,
           conditions: Conditions, version: str, argv: list[str]) -> None:
    """Print each profile's figures per build and kind of move, the targets, and
    (--markdown) the rows."""
    print(f"human moves (ms), ?speed=0, {args.rounds} alternating rounds")
    print(f"{'profile':<8} {'build':<12} {'move':<8} {'moves':>6} {'laid median':>12}"
          f" {'p90':>6} {'redrawn median':>15} {'p90':>6}")
    rows = []
    for (profile, name), values in results.items():
        for kind in KINDS:
            moves = [v for v in values if v["kind"] == kind]
            if not moves:
                continue
            laid, laid90 = spread([v["laid"] for v in moves])
            drawn, drawn90 = spread([v["redrawn"] for v in moves])
            print(f"{profile:<8} {name:<12} {kind:<8} {len(moves):>6} {laid:>12.1f}"
                  f" {laid90:>6.1f} {drawn:>15.1f} {drawn90:>6.1f}")
            if name != "this build":
                continue
            target = "median <= 16, p90 <= 33" if profile == "desktop" else "median <= 50"
            where = "on the pile" if kind == "card" else "in the crib"
            print(f"  {profile}: {kind} {where}, median {laid:.1f} ms, p90 {laid90:.1f}"
                  f" ({target}); the table redrawn from the engine's reply, median"
                  f" {drawn:.1f} ms, p90 {drawn90:.1f}")
            rows += [(f"a move, {profile}: human {kind} {where}, median",
                      f"{laid:.1f} ms (p90 {laid90:.1f} ms, {len(moves)} moves)"),
                     (f"a move, {profile}: {kind}, the table redrawn from the engine's reply,"
                      " median", f"{drawn:.1f} ms (p90 {drawn90:.1f} ms)")]
    print(f"load average: {min(conditions.loads):.2f}-{max(conditions.loads):.2f}")
    if args.markdown:
        print(markdown_rows(rows, command("page_move.py", argv),
                            conditions.describe(browser_name(version))))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE,
                        help="git revision to compare with ('' for this build alone)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--moves", type=int, default=12, help="human cards timed per round")
    parser.add_argument("--profiles", default="desktop",
                        help="desktop (as is), phone (4x slower CPU, 390x844), or both")
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
        builds = {"this build": new_url}
        if args.baseline:
            builds[args.baseline] = old_url
        profiles = args.profiles.split(",")
        results: dict[tuple[str, str], list[dict[str, Any]]] = {
            (profile, name): [] for profile in profiles for name in builds}
        with sync_playwright() as playwright:
            launch: dict[str, Any] = {"args": FLAGS}
            if executable and executable != "playwright":
                launch["executable_path"] = executable
            browser = playwright.chromium.launch(**launch)
            for _ in range(args.rounds):
                for profile in profiles:
                    for name, url in reversed(builds.items()):
                        results[(profile, name)] += time_moves(browser, url, args.moves,
                                                               profile == "phone")
            version = browser.version
            browser.close()
        conditions.sample()
        report(results, args, conditions, version, argv)
    finally:
        for server in servers:
            server.shutdown()
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                       capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
