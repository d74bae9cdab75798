#!/usr/bin/env python3
"""Gallery: screenshots of the table in every phase, at every size, in every language
and engine, with one index page to look at them all at once.

    python bench/gallery.py [--out DIR] [--engines chromium,firefox,webkit]
        [--sizes 360x640,1280x800] [--langs en,es,ja] [--players 2,3,4] [--target 61]

Builds dist/, serves it on loopback and, in each engine (Chromium through
Playwright, Firefox through puppeteer-core over WebDriver BiDi, WebKitGTK
through Selenium under Xvfb: tests/browser/engines.py), for each language and
number of players plays one game against the computer at ``?speed=0``
through the automation contract. It stops at each phase (the start screen,
the cut, the discard, the play, the show, game over) and takes a screenshot
at every size, resizing the one page in between; the show's steps too: each
count of the deal under its tab ("show 1", "show 2"...; "show" is the last,
the crib) and an entry of its list tapped, its cards lit ("show entry"). The files go to ``--out``
(default ``bench/gallery/``, not committed) with ``index.html``: a grid per
engine, language and number of players, each picture captioned with its
phase and size. WebKitGTK keeps its windows at least 447 px wide: its
narrower sizes are drawn at the nearest size it allows, and the caption says
so. Errors a page logged are listed in the index. The whole set (3 engines x
3 languages x 3 player counts, 6 sizes each) is 27 games and about 1,600 pictures;
the options choose a part. It prints how long it took.
"""

from __future__ import annotations

import argparse
import html
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import engines  # noqa: E402  (tests/browser/engines.py: the three engines' drivers)
from engines import SETTLED, Browser, PlaywrightBrowser, RecordingServer  # noqa: E402

from sitebuild.assemble import build  # noqa: E402
from sitebuild.browsers import CHROMIUM_FLAGS, find_browser  # noqa: E402

ENGINES = ("chromium", "firefox", "webkit")
SIZES = ((360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080))
LANGS = ("en", "es", "ja")
PLAYERS = (2, 3, 4)
# The show's steps, in the page: how many counts, one chosen, an entry of its list tapped.
COUNTS = "() => document.querySelectorAll('.show-tab').length"
CHOOSE = "(index) => { document.querySelector('#show-tab-' + index).click(); return true; }"
TAP_ENTRY = """() => {
  const entry = document.querySelector('.show-hand:not([hidden]) button.show-item');
  if (entry) entry.click();
  return Boolean(entry);
}"""
UNTAP = """() => {
  const entry = document.querySelector('.show-hand:not([hidden]) button.show-item');
  for (let i = 0; entry && entry.getAttribute('aria-pressed') === 'true' && i < 9; i++) {
    entry.click();
  }
  return true;
}"""
# Which of the human's turns in a phase is shown: the second play, so the pile has cards.
SHOT_TURN = {"cut": 1, "discard": 1, "play": 2, "show": 1, "over": 1}


@dataclass
class Shot:
    phase: str
    asked: tuple[int, int]
    drawn: tuple[int, int]
    file: str


@dataclass
class Run:
    engine: str
    lang: str
    players: int
    shots: list[Shot] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    note: str = ""


def size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size like 360x640: {text!r}") from None


def choices(allowed: tuple[str, ...]) -> type:
    """An argparse type: a comma-separated subset of ``allowed``."""

    def parse(text: str) -> list[str]:
        picked = [part.strip() for part in text.split(",") if part.strip()]
        wrong = [part for part in picked if part not in allowed]
        if wrong or not picked:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)}: {text!r}")
        return picked

    return parse  # type: ignore[return-value]


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "gallery",
                        help="folder for the pictures and index.html (default bench/gallery)")
    parser.add_argument("--engines", type=choices(ENGINES), default=list(ENGINES))
    parser.add_argument("--langs", type=choices(LANGS), default=list(LANGS))
    parser.add_argument("--players", type=choices(tuple(map(str, PLAYERS))),
                        default=[str(p) for p in PLAYERS])
    parser.add_argument("--sizes", type=lambda t: [size(s) for s in t.split(",") if s],
                        default=list(SIZES), help="WIDTHxHEIGHT,... (default: the six sizes)")
    parser.add_argument("--target", type=int, choices=(61, 121), default=61,
                        help="the game's length (default 61: shorter runs)")
    return parser.parse_args(argv)


@contextmanager
def open_engine(engine: str) -> Iterator[Browser]:
    """A page of ``engine``, closed afterwards."""
    if engine == "chromium":
        from playwright.sync_api import sync_playwright

        found = find_browser()
        if found is None:
            raise RuntimeError("no Chromium (see docs/testing.md)")
        with sync_playwright() as playwright:
            launch = {"args": CHROMIUM_FLAGS}
            if found != "playwright":
                launch["executable_path"] = found
            chromium = playwright.chromium.launch(**launch)  # type: ignore[arg-type]
            page = chromium.new_page()
            page.set_default_timeout(120_000)
            try:
                yield PlaywrightBrowser(page)
            finally:
                chromium.close()
        return
    why = engines.missing(engine)
    if why:
        raise RuntimeError(why)
    browser = engines.launch(engine)
    try:
        yield browser
    finally:
        browser.close()


def shoot(browser: Browser, run: Run, phase: str, sizes: list[tuple[int, int]],
          out: Path) -> None:
    """One picture of the page as it is now at each size."""
    for width, height in sizes:
        drawn = browser.resize(width, height)
        browser.run(SETTLED)
        name = (f"{run.engine}-{run.lang}-{run.players}p-{phase.replace(' ', '-')}"
                f"-{width}x{height}.png")
        browser.screenshot(out / name)
        run.shots.append(Shot(phase, (width, height), (int(drawn[0]), int(drawn[1])), name))


def play_run(browser: Browser, url: str, run: Run, sizes: list[tuple[int, int]],
             target: int, out: Path) -> None:
    """One game in ``run``'s language and players, shot at each phase."""
    browser.resize(*sizes[-1])
    engines.open_table(browser, url, run.lang)
    shoot(browser, run, "setup", sizes, out)
    engines.start_game(browser, run.players, target)

    def on_turn(phase: str, turn: int) -> None:
        if SHOT_TURN.get(phase) == turn:
            shoot(browser, run, phase, sizes, out)
            if phase == "show":
                shoot_show_steps(browser, run, sizes, out)

    engines.play_game(browser, timeout=600, on_turn=on_turn)
    browser.run("() => localStorage.clear()")  # the next run starts from a fresh table


def shoot_show_steps(browser: Browser, run: Run, sizes: list[tuple[int, int]],
                     out: Path) -> None:
    """The show's steps: each count before the last under its tab, then the last (the
    crib) again with the first entry of its list tapped, its cards lit."""
    counts = int(browser.run(COUNTS))
    for index in range(counts - 1):
        browser.run(CHOOSE, index)
        shoot(browser, run, f"show {index + 1}", sizes, out)
    browser.run(CHOOSE, counts - 1)
    if browser.run(TAP_ENTRY):
        shoot(browser, run, "show entry", sizes, out)
        browser.run(UNTAP)  # the table goes on as it was


def write_index(runs: list[Run], out: Path, seconds: float) -> Path:
    """index.html: one section per run, its pictures in a grid, phases by sizes."""
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width, initial-scale=1'>",
        "<title>Cribbage: the table in every phase, size, language and engine</title>",
        "<style>body{font:14px system-ui,sans-serif;margin:1rem;background:#f4f4f4}"
        "h2{margin:2rem 0 .3rem}.grid{display:flex;flex-wrap:wrap;gap:.8rem;align-items:end}"
        "figure{margin:0;background:#fff;padding:.4rem;border-radius:.3rem}"
        "img{display:block;height:220px;width:auto;border:1px solid #ccc}"
        "figcaption{font-size:12px;margin-top:.2rem}.note{color:#a33}</style>",
        "<h1>The table in every phase, size, language and engine</h1>",
        f"<p>{sum(len(r.shots) for r in runs)} pictures from {len(runs)} games in "
        f"{seconds:.0f} s, written by <code>python bench/gallery.py</code>. A caption "
        "in red says the engine drew a size other than the one asked "
        "(WebKitGTK keeps windows at least 447 px wide).</p>",
    ]
    for run in runs:
        title = f"{run.engine}, {run.lang}, {run.players} players" if run.players else run.engine
        parts.append(f"<h2 id='{run.engine}-{run.lang}-{run.players}'>{html.escape(title)}</h2>")
        if run.note:
            parts.append(f"<p class=note>{html.escape(run.note)}</p>")
        if run.errors:
            items = "".join(f"<li>{html.escape(e)}" for e in run.errors)
            parts.append(f"<p class=note>Errors in the page:</p><ul class=note>{items}</ul>")
        for phase in dict.fromkeys(shot.phase for shot in run.shots):  # in the order taken
            figures = []
            for shot in (s for s in run.shots if s.phase == phase):
                asked = f"{shot.asked[0]}x{shot.asked[1]}"
                caption = f"{phase}, {asked}"
                if shot.drawn != shot.asked:
                    caption = (f"<span class=note>{phase}, {asked} asked, drawn at "
                               f"{shot.drawn[0]}x{shot.drawn[1]}</span>")
                figures.append(f"<figure><a href='{shot.file}'><img loading=lazy "
                               f"src='{shot.file}' alt='{html.escape(title)}: {phase}, {asked}'>"
                               f"</a><figcaption>{caption}</figcaption></figure>")
            if figures:
                parts.append("<div class=grid>" + "".join(figures) + "</div>")
    index = out / "index.html"
    index.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return index


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    began = time.monotonic()
    build(quiet=True)
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    server = RecordingServer()
    runs: list[Run] = []
    try:
        for engine in args.engines:
            try:
                with open_engine(engine) as browser:
                    for lang in args.langs:
                        for players in map(int, args.players):
                            run = Run(engine, lang, players)
                            runs.append(run)
                            started = time.monotonic()
                            try:
                                play_run(browser, server.url, run, args.sizes, args.target,
                                         args.out)
                            except (AssertionError, RuntimeError) as error:
                                run.note = f"stopped: {error}"
                            run.errors = browser.all_errors()
                            browser.errors.clear()
                            print(f"{engine} {lang} {players}p: {len(run.shots)} pictures in "
                                  f"{time.monotonic() - started:.0f} s"
                                  + (f"; {run.note}" if run.note else "")
                                  + (f"; {len(run.errors)} errors" if run.errors else ""),
                                  flush=True)
            except (RuntimeError, OSError) as error:
                print(f"{engine}: skipped: {error}", file=sys.stderr)
                runs.append(Run(engine, "-", 0, note=f"skipped: {error}"))
    finally:
        server.close()
    seconds = time.monotonic() - began
    index = write_index(runs, args.out, seconds)
    print(f"{sum(len(r.shots) for r in runs)} pictures from {len(runs)} runs in {seconds:.0f} s: "
          f"{index}")
    return 1 if any(r.note or r.errors for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
