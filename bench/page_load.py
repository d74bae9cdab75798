#!/usr/bin/env python3
"""Page-load benchmark: our site against a bare stock-Pyodide page, in Chromium.

    python bench/page_load.py [--rounds N] [--moves N] [--profiles desktop,phone]
                              [--against REV] [--markdown]

Builds dist/, then serves one loopback origin with two pages:

- ``/``: our site (MicroPython UI on the main thread, Pyodide engine in a
  worker, precompiled stdlib);
- ``/bare/``: a bare page that loads stock Pyodide (its stdlib as shipped) on
  the main thread and imports the engine from the same precompiled files
  (as the zip ``pyodide.unpackArchive`` takes; our page ships them as .tar.gz).

Each round loads both pages, alternately, cold (a fresh persistent browser
profile) and warm (visited again in that browser, once the first visit is
over: for our page, once its offline service worker has stored the site, at
most 10 s; the disk HTTP cache, that offline copy and V8's code caches are
there, as for a returning player), and once more after relaunching the
browser on that profile. On our page Start is pressed the moment it takes a
press (as a player who taps it as soon as they see it), and **time to play**
is navigation to the game's first decision on the felt (the cut: the table
leaves its setup phase); a saved game is cleared before each visit, so every
visit starts a new game. It prints medians of: first contentful paint, dialog
usable (the UI wired the new-game dialog), engine ready (the engine
answered; for the bare page: ``import cribbage`` done), time to play, bytes
sent by the server, and the longest main-thread task; then the ratios, with
their targets. Last, in the
browser, the latency of a computer decision through the worker at each level
and the longest main-thread task while the computer thinks.

Both pages are served as a static host that serves precompressed files
serves them: our build ships ``.br``/``.gz`` beside its files, and the bare
page's stock files get the same treatment here (so "sent" compares like with
like; ``--bare-identity`` sends the bare page's files uncompressed instead).

The phone profile runs every load as a phone would: the DevTools protocol's
``Emulation.setCPUThrottlingRate`` (4x, on the page: a dedicated worker's
target refuses the call) and ``Network.emulateNetworkConditions`` with
Chrome DevTools' "Fast 4G" preset (9 Mbit/s down, 1.5 Mbit/s up, 60 ms
latency, plus the loopback's own). ``--against REV`` adds a third page, the
site built from git revision REV (in a temporary worktree), to every round.
``--markdown`` also prints each profile's figures as rows of the tables in
docs/performance.md (figure, value, this command, commit and machine).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pagekit import (  # noqa: E402  (what the page benches share)
    FLAGS,
    LONG_TASKS,
    Conditions,
    browser_name,
    build_baseline,
    command,
    markdown_rows,
)

from sitebuild.assemble import build, engine_zip  # noqa: E402
from sitebuild.browsers import INSTALL_HINT, find_browser  # noqa: E402
from sitebuild.compress import precompressed  # noqa: E402
from sitebuild.pins import PINS, extract, fetch_tarball  # noqa: E402
from sitebuild.precompile import precompiled_engine  # noqa: E402
from sitebuild.serve import SiteHandler, SiteServer  # noqa: E402

# Chrome DevTools' "Fast 4G" network preset (bytes per second; latency in ms).
FAST_4G = {"offline": False, "latency": 60, "downloadThroughput": 9e6 / 8,
           "uploadThroughput": 1.5e6 / 8}
CPU_SLOWDOWN = 4

BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>bare Pyodide</title></head>
<body><p>Loading Pyodide on the main thread…</p>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: "./pyodide/" });
const zip = await (await fetch("./engine.zip")).arrayBuffer();
pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
pyodide.runPython("import cribbage, cribbage.players");
performance.mark("cribbage:engine-ready");
</script></body></html>
"""

# Measured in the page once it is loaded (times are ms since navigation start).
READ_MARKS = """() => {
  const mark = (name) => {
    const m = performance.getEntriesByName(name);
    return m.length ? m[0].startTime : null;
  };
  const fcp = performance.getEntriesByName("first-contentful-paint");
  return {
    paint: fcp.length ? fcp[0].startTime : null,
    ui: mark("cribbage:ui-ready"),
    engine: mark("cribbage:engine-ready"),
    longest: Math.max(0, ...window.__longTasks),
    agent: navigator.userAgent,
  };
}"""

# A computer-vs-computer game at one level, timing each decision in the page.
THINK = """async ([level, moves]) => {
  const engine = window.cribbageEngine;
  const call = async (name, arg) => JSON.parse(await engine[name](JSON.stringify(arg || {})));
  window.__longTasks.length = 0;
  const times = [];
  let seed = 1;
  await call("new_game", {seed});
  while (times.length < moves) {
    const legal = await call("legal_moves");
    const decision = legal.ok && legal.result.moves.length > 1;
    const start = performance.now();
    const reply = await call("computer_move", {level});
    const elapsed = performance.now() - start;
    if (!reply.ok) return {error: reply.error};
    if (decision) times.push(elapsed);
    if (reply.result.phase === "over") await call("new_game", {seed: ++seed});
  }
  return {times, longest: Math.max(0, ...window.__longTasks)};
}"""


# The first visit is over once the offline service worker has stored the site
# (its install precaches every file, ~0.5 s after the engine is ready) and, in
# a build whose worker then takes control of the page, once the page has primed
# the next visit's engine (loading.mjs primeOnce: a throwaway engine start,
# ~0.5 s more); a second visit then reads the engine's big files from that
# cache (engine-worker.mjs) and Pyodide's compiled JS from V8's cache.
OFFLINE_STORED = """async () => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.race([navigator.serviceWorker.ready, sleep(10000)]);
  await sleep(500);
  if (!navigator.serviceWorker.controller) return false; // a build that does not prime
  for (let waited = 0; waited < 15000; waited += 50) {
    if (performance.getEntriesByName("cribbage:engine-primed").length) return true;
    await sleep(50);
  }
  return false;
}"""


class CountingHandler(SiteHandler):
    """The site's handler, counting the body bytes it sends."""

    sent = [0]
    lock = threading.Lock()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        with self.lock:
            self.sent[0] += len(data)
        outputfile.write(data)


def prepare_site(tmp: Path, bare_compressed: bool = True) -> Path:
    """dist/ plus /bare/: stock Pyodide files and the bare page, in one served dir."""
    site = tmp / "site"
    shutil.copytree(build(quiet=True), site)
    pin = next(p for p in PINS if p.key == "pyodide")
    stock = extract(pin, fetch_tarball(pin))
    bare = {f"pyodide/{name}": data for name, data in stock.items()}
    bare["engine.zip"] = precompiled_engine(pin, stock, engine_zip())  # cached by the build
    bare["index.html"] = BARE_PAGE.encode()
    if bare_compressed:  # as a host that compresses would send it (cached by content)
        bare.update(precompressed(bare))
    for name, data in bare.items():
        (site / "bare" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "bare" / name).write_bytes(data)
    return site


def add_revision(site: Path, revision: str, scratch: Path) -> str:
    """The site of git ``revision`` built in a temporary worktree, served at /rev/."""
    shutil.copytree(build_baseline(revision, scratch / "worktree"), site / "rev")
    return "rev/"


def throttle(page: Any) -> None:
    """A phone: CPU slowed 4x, Fast 4G network (DevTools protocol, on the page's target)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", FAST_4G)


def serve(site: Path) -> tuple[Any, str]:
    from functools import partial

    server = SiteServer(("127.0.0.1", 0), partial(CountingHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def launch(playwright: Any, profile: Path, browser: str) -> Any:
    """A persistent context (real disk cache) on ``profile``."""
    options: dict[str, Any] = {"args": FLAGS, "headless": True}
    if browser != "playwright":
        options["executable_path"] = browser
    context = playwright.chromium.launch_persistent_context(str(profile), **options)
    context.add_init_script(LONG_TASKS)
    return context


def wait_ready(page: Any, ours: bool) -> None:
    if ours:
        page.wait_for_selector("#table[data-engine=ready]")
    else:
        page.wait_for_function("performance.getEntriesByName('cribbage:engine-ready').length")
    page.wait_for_timeout(300)  # let the last long task be reported


# The table has left its setup for the first decision (the cut): ms since navigation.
PLAYING = """() => {
  const phase = document.getElementById("table")?.dataset.phase;
  return phase && phase !== "setup" && phase !== "loading" ? performance.now() : false;
}"""


def press_start(page: Any) -> float:
    """Press Start the moment it takes a press; return ms from navigation to the first
    decision on the felt."""
    page.click("#new-game button[name=start]:not([disabled])")
    return float(page.wait_for_function(PLAYING, polling="raf").json_value())


def visit(page: Any, url: str, ours: bool) -> dict[str, Any]:
    """Navigate to ``url``, (ours) press Start at once, wait for the engine; the figures."""
    CountingHandler.sent[0] = 0
    page.goto(url)
    play = press_start(page) if ours else None
    wait_ready(page, ours)
    figures = page.evaluate(READ_MARKS)
    figures["bytes"] = CountingHandler.sent[0]
    figures["play"] = play
    if ours:  # the next visit starts a new game too, as a player with no game in progress
        page.evaluate("localStorage.removeItem('cribbage.save')")
    return figures


def round_trip(
    playwright: Any, profile: Path, browser: str, url: str, ours: bool, slow: bool = False
) -> list[dict]:
    """Cold (fresh profile), warm (revisit in that browser), relaunched (browser restarted)."""
    context = launch(playwright, profile, browser)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(300_000)
        if slow:
            throttle(page)
        cold = visit(page, url, ours)
        if ours:  # a second visit comes after the first one has stored the offline copy
            page.evaluate(OFFLINE_STORED)
        warm = visit(page, url, ours)
    finally:
        context.close()
    context = launch(playwright, profile, browser)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(300_000)
        if slow:
            throttle(page)
        relaunched = visit(page, url, ours)
    finally:
        context.close()
    return [cold, warm, relaunched]


def think(playwright: Any, profile: Path, browser: str, url: str, moves: int) -> dict[str, Any]:
    """Decision latency per level, measured in the page through the worker."""
    context = launch(playwright, profile, browser)
    results = {}
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(600_000)
        page.goto(url)
        page.wait_for_selector("#table[data-engine=ready]")
        for level in ("beginner", "easy", "standard", "expert", "master"):
            results[level] = page.evaluate(THINK, [level, moves])
    finally:
        context.close()
    return results


def median(values: list[float | None]) -> float:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else float("nan")


def report(runs: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    """Print the medians table; return the medians by "kind/figure"."""
    print(
        f"\n{'page load (median)':<22}{'paint ms':>10}{'dialog ms':>11}{'engine ms':>11}"
        f"{'play ms':>9}{'MB sent':>9}{'longest task ms':>17}"
    )
    medians: dict[str, float] = {}
    for kind, figures in runs.items():
        row = {
            key: median([f.get(key) for f in figures])
            for key in ("paint", "ui", "engine", "play", "longest")
        }
        row["bytes"] = median([f["bytes"] for f in figures])
        medians.update({f"{kind}/{k}": v for k, v in row.items()})
        ui = "-" if row["ui"] != row["ui"] else f"{row['ui']:.0f}"
        play = "-" if row["play"] != row["play"] else f"{row['play']:.0f}"
        print(
            f"{kind:<22}{row['paint']:>10.0f}{ui:>11}{row['engine']:>11.0f}{play:>9}"
            f"{row['bytes'] / 1e6:>9.2f}{row['longest']:>17.0f}"
        )
    return medians


def targets(medians: dict[str, float], against: str | None) -> None:
    """The ratios and figures that have targets, with the targets."""
    ours_cold, bare_cold = medians["ours cold/engine"], medians["bare cold/engine"]
    print("ratios and targets (medians)")
    print(f"  engine ready, ours cold / bare cold:  {ours_cold / bare_cold:.3f}"
          "  (target <= 0.35, stretch 0.25)")
    if against:
        print(f"  engine ready, ours cold / {against} cold:  "
              f"{ours_cold / medians[against + ' cold/engine']:.3f}"
              f"  (dialog {medians['ours cold/ui'] / medians[against + ' cold/ui']:.3f}, "
              f"sent {medians['ours cold/bytes'] / medians[against + ' cold/bytes']:.3f})")
    print(f"  engine ready, ours warm / ours cold:  {medians['ours warm/engine'] / ours_cold:.3f}"
          "  (target <= 0.5)")
    print(f"  table painted cold: {medians['ours cold/paint']:.0f} ms (target <= 200); "
          f"dialog usable cold: {medians['ours cold/ui']:.0f} ms (target <= 600)")
    print(f"  sent cold: ours {medians['ours cold/bytes'] / 1e6:.2f} MB, bare "
          f"{medians['bare cold/bytes'] / 1e6:.2f} MB: "
          f"{medians['ours cold/bytes'] / medians['bare cold/bytes']:.3f}x (target <= 1)")
    print(f"  longest main-thread task loading, ours cold: {medians['ours cold/longest']:.0f} ms"
          f" (bare: {medians['bare cold/longest']:.0f} ms; target <= 150 on the phone profile)")
    print(f"  time to play (Start pressed at once; the cut on the felt): cold "
          f"{medians['ours cold/play']:.0f} ms, warm {medians['ours warm/play']:.0f} ms, "
          f"relaunched {medians['ours relaunched/play']:.0f} ms"
          " (targets: desktop cold <= 1000, warm <= 600; phone cold <= 4000, warm <= 1500)")


def profile_rows(medians: dict[str, float]) -> list[tuple[str, str]]:
    """One profile's figures as (figure, value) rows for docs/performance.md."""
    cold, bare = medians["ours cold/engine"], medians["bare cold/engine"]
    return [
        ("engine ready, cold", f"{cold:.0f} ms"),
        ("engine ready, warm (a revisit once the offline copy is stored)",
         f"{medians['ours warm/engine']:.0f} ms"),
        ("engine ready, browser relaunched", f"{medians['ours relaunched/engine']:.0f} ms"),
        ("engine ready cold, ours / bare page", f"{cold / bare:.3f} (bare page {bare:.0f} ms)"),
        ("engine ready, warm / cold", f"{medians['ours warm/engine'] / cold:.3f}"),
        ("dialog usable, cold", f"{medians['ours cold/ui']:.0f} ms"),
        ("table painted, cold", f"{medians['ours cold/paint']:.0f} ms"),
        ("bytes sent, first visit", f"{medians['ours cold/bytes'] / 1e6:.2f} MB "
         f"(bare page {medians['bare cold/bytes'] / 1e6:.2f} MB)"),
        ("longest main-thread task while loading, cold",
         f"{medians['ours cold/longest']:.0f} ms"),
        ("time to play, cold (Start pressed at once; navigation to the cut on the felt)",
         f"{medians['ours cold/play']:.0f} ms"),
        ("time to play, warm", f"{medians['ours warm/play']:.0f} ms"),
        ("time to play, browser relaunched", f"{medians['ours relaunched/play']:.0f} ms"),
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--moves", type=int, default=40,
                        help="computer decisions per level (0: skip)")
    parser.add_argument("--profiles", default="desktop,phone",
                        help="desktop (as is), phone (4x CPU, Fast 4G), or both (default)")
    parser.add_argument("--against", metavar="REV", help="also load the site of git revision REV")
    parser.add_argument("--bare-identity", action="store_true",
                        help="send the bare page's files uncompressed")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the figures as rows of docs/performance.md's tables")
    args = parser.parse_args(argv)
    conditions, agent = Conditions(), ""
    browser = find_browser()
    if browser is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        site = prepare_site(Path(tmp), bare_compressed=not args.bare_identity)
        pages = {"ours": "", "bare": "bare/"}
        if args.against:
            pages[args.against] = add_revision(site, args.against, Path(tmp))
        server, url = serve(site)
        print(
            f"chromium: {browser}; {args.rounds} alternating rounds; cold = fresh profile, "
            "warm = revisit in that browser, relaunched = browser restarted on that profile; "
            f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        for profile_name in args.profiles.split(","):
            slow = profile_name == "phone"
            print(f"\n== {profile_name}"
                  + (f": CPU {CPU_SLOWDOWN}x slower, Fast 4G network" if slow else "") + " ==")
            runs: dict[str, list[dict[str, Any]]] = {
                f"{name} {kind}": [] for kind in ("cold", "warm", "relaunched") for name in pages
            }
            for round_number in range(args.rounds):
                order = list(pages.items())
                if round_number % 2:
                    order.reverse()  # alternate who goes first
                for name, path in order:
                    profile = Path(tmp) / f"profile-{profile_name}-{name}-{round_number}"
                    figures = round_trip(
                        playwright, profile, browser, url + path, name != "bare", slow
                    )
                    for kind, result in zip(("cold", "warm", "relaunched"), figures):
                        runs[f"{name} {kind}"].append(result)
                    agent = figures[0].get("agent") or agent
                conditions.sample()
                print(
                    f"round {round_number + 1}: "
                    + ", ".join(f"{name} cold {runs[name + ' cold'][-1]['engine']:.0f} ms"
                                for name in pages)
                    + f", ours warm {runs['ours warm'][-1]['engine']:.0f} ms, time to play "
                    f"cold {runs['ours cold'][-1]['play']:.0f} ms; "
                    f"load average {os.getloadavg()[0]:.2f}",
                    flush=True,
                )
            medians = report(runs)
            targets(medians, args.against)
            if args.markdown:
                print(f"\nmarkdown rows, {profile_name}:")
                print(markdown_rows(profile_rows(medians), command("page_load.py", argv),
                                    conditions.describe(browser_name(agent))))
        latency = (
            think(playwright, Path(tmp) / "profile-think", browser, url, args.moves)
            if args.moves else {}
        )
        server.shutdown()
        if args.against:
            shutil.rmtree(Path(tmp) / "worktree", ignore_errors=True)
            import subprocess

            subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)
    if not latency:
        return 0

    print(f"\ncomputer decision latency in the browser (ms, {args.moves} decisions per level)")
    print(f"{'level':<10}{'median':>8}{'p90':>8}{'max':>8}{'longest main-thread task':>26}")
    rows = []
    for level, result in latency.items():
        if "error" in result:
            print(f"{level:<10} error: {json.dumps(result['error'])}")
            continue
        times = sorted(result["times"])
        p90 = times[int(0.9 * (len(times) - 1))]
        print(
            f"{level:<10}{statistics.median(times):>8.0f}{p90:>8.0f}{times[-1]:>8.0f}"
            f"{result['longest']:>26.0f}"
        )
        rows.append((f"computer decision in the page, {level}",
                     f"median {statistics.median(times):.0f} ms, p90 {p90:.0f}, "
                     f"max {times[-1]:.0f}"))
    if args.markdown:
        print("\nmarkdown rows, decisions:")
        print(markdown_rows(rows, command("page_load.py", argv),
                            conditions.describe(browser_name(agent))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
