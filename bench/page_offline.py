#!/usr/bin/env python3
"""Offline benchmark: does the service worker cost speed? Same build, with and without it.

    python bench/page_offline.py [--rounds N] [--warm N]

Builds dist/ and serves it twice on loopback, side by side in one run:

- "with sw": the site as built; after the first visit its service worker
  (dist/sw.js) is installed and controls every later load;
- "without sw": the same files from a second server that answers 404 for
  sw.js, so registration fails and no worker is ever installed.

Each round, alternating which goes first, opens a fresh persistent browser
profile per variant (like a real returning player's browser: disk HTTP cache,
V8's compiled-wasm cache, Cache Storage), makes a cold first visit, waits for
the worker to finish installing (the other variant waits as long), then makes
``--warm`` warm visits in that browser and one more after relaunching the
browser on the profile. It prints the medians of engine ready (the
``cribbage:engine-ready`` mark: the engine answered), dialog usable and bytes
sent, the ratio with/without for warm and relaunched loads (target <= 1.05),
and, for the "with sw" profile, an offline load (browser offline) to show the
cached site works.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import page_load  # noqa: E402  (the page-load benchmark's launch and marks)

from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import INSTALL_HINT, find_browser  # noqa: E402
from sitebuild.serve import SiteServer  # noqa: E402

INSTALLED = """async () => {
  if (!("serviceWorker" in navigator)) return true;
  const reg = await navigator.serviceWorker.getRegistration();
  return !!(reg && reg.active && reg.active.state === "activated" && !reg.installing);
}"""


class NoWorkerHandler(page_load.CountingHandler):
    """The same site, from a host that does not serve the service worker."""

    def send_head(self):  # type: ignore[no-untyped-def]
        if self.path.split("?")[0].endswith("/sw.js"):
            self.send_error(404)
            return None
        return super().send_head()


def serve(handler: type, directory: Path) -> tuple[Any, str]:
    server = SiteServer(("127.0.0.1", 0), partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def visit(page: Any, url: str) -> dict[str, Any]:
    page_load.CountingHandler.sent[0] = 0
    page.goto(url)
    page.wait_for_selector("#table[data-engine=ready]")
    figures = page.evaluate(page_load.READ_MARKS)
    figures["bytes"] = page_load.CountingHandler.sent[0]
    figures["controlled"] = page.evaluate(
        "!!(navigator.serviceWorker && navigator.serviceWorker.controller)"
    )
    return figures


def wait_installed(page: Any, with_sw: bool, timeout_s: float = 120) -> float:
    """Wait for the worker's install (with sw) and return how long it took."""
    start = time.monotonic()
    if with_sw:
        while not page.evaluate(INSTALLED):
            if time.monotonic() - start > timeout_s:
                raise RuntimeError("the service worker did not install")
            page.wait_for_timeout(100)
    return time.monotonic() - start


def one_profile(
    playwright: Any, profile: Path, browser: str, url: str, with_sw: bool, warm: int, pause: float
) -> dict[str, Any]:
    """Cold visit, install, ``warm`` warm visits, then a relaunched visit (and offline)."""
    out: dict[str, Any] = {"warm": []}
    context = page_load.launch(playwright, profile, browser)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(120_000)
        out["cold"] = visit(page, url)
        start = time.monotonic()
        out["install_s"] = wait_installed(page, with_sw)
        if with_sw:  # and the next visit's engine primed (page_load.OFFLINE_STORED)
            page.evaluate(page_load.OFFLINE_STORED)
        waited = time.monotonic() - start
        page.wait_for_timeout(int(max(pause - waited, 0) * 1000) + 500)  # both idle alike
        for _ in range(warm):
            out["warm"].append(visit(page, url))
    finally:
        context.close()
    context = page_load.launch(playwright, profile, browser)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(120_000)
        out["relaunched"] = visit(page, url)
        if with_sw:
            context.set_offline(True)
            out["offline"] = visit(page, url)
    finally:
        context.close()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--warm", type=int, default=2, help="warm visits per profile (default 2)")
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    site = build(quiet=True)
    runs: dict[str, list[dict[str, Any]]] = {"with sw": [], "without sw": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        servers = {
            "with sw": serve(page_load.CountingHandler, site),
            "without sw": serve(NoWorkerHandler, site),
        }
        print(
            f"chromium: {browser}; {args.rounds} alternating rounds, {args.warm} warm visits "
            "each; persistent profiles on loopback"
        )
        pause = 0.0
        for round_number in range(args.rounds):
            order = ["with sw", "without sw"]
            if round_number % 2:
                order.reverse()
            line = []
            for name in order:
                profile = Path(tmp) / f"profile-{name.replace(' ', '-')}-{round_number}"
                result = one_profile(
                    playwright,
                    profile,
                    browser,
                    servers[name][1],
                    name == "with sw",
                    args.warm,
                    pause,
                )
                if name == "with sw":
                    pause = max(pause, result["install_s"])
                    assert all(w["controlled"] for w in result["warm"]), "warm loads not controlled"
                    assert result["offline"]["engine"] is not None
                runs[name].append(result)
                warm_ms = "/".join(f"{w['engine']:.0f}" for w in result["warm"])
                line.append(
                    f"{name}: warm {warm_ms} ms, relaunched {result['relaunched']['engine']:.0f} ms"
                )
            print(f"round {round_number + 1}: " + "; ".join(line), flush=True)
        for server, _ in servers.values():
            server.shutdown()

    def figures(name: str, kind: str) -> list[dict[str, Any]]:
        if kind == "warm":
            return [w for r in runs[name] for w in r["warm"]]
        return [r[kind] for r in runs[name] if kind in r]

    def med(values: list[float | None]) -> float:
        present = [v for v in values if v is not None]
        return statistics.median(present) if present else float("nan")

    print(f"\n{'load (median)':<26}{'dialog ms':>10}{'engine ms':>11}{'MB sent':>9}{'n':>4}")
    medians: dict[tuple[str, str], float] = {}
    for kind in ("cold", "warm", "relaunched", "offline"):
        for name in runs:
            rows = figures(name, kind)
            if not rows:
                continue
            engine = med([f["engine"] for f in rows])
            medians[(name, kind)] = engine
            print(
                f"{name + ', ' + kind:<26}{med([f['ui'] for f in rows]):>10.0f}{engine:>11.0f}"
                f"{med([f['bytes'] for f in rows]) / 1e6:>9.2f}{len(rows):>4}"
            )
    installs = [r["install_s"] for r in runs["with sw"]]
    print(
        "\nservice worker install after the first visit: "
        f"median {statistics.median(installs):.2f} s"
    )
    print("ratios, engine ready with / without the service worker (target <= 1.05); "
          f"load average {os.getloadavg()[0]:.2f}:")
    for kind in ("warm", "relaunched", "cold"):
        ratio = medians[("with sw", kind)] / medians[("without sw", kind)]
        print(f"  {kind:<11} {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
