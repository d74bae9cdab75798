"""The custom elements (elements.mjs) on a page of ANOTHER origin.

The site is served on http://localhost:P1 by the handler of `python build.py
serve`, as it is (it sends Access-Control-Allow-Origin on every file: module
scripts and the engine's files are fetched with CORS); a host page on
http://127.0.0.1:P2, under its own strict Content-Security-Policy, loads
elements.mjs cross-origin and uses <cribbage-hand>, <cribbage-pegging>,
<cribbage-deal> and <cribbage-drill>. Checked: the seeds' scores, one engine
(one pyodide.asm.wasm and one engine archive fetched) for all the elements, the
shadow DOM isolates styles both ways and takes the host's theme through custom
properties, lang=, bad attributes give a message and run nothing, and no CSP
violation anywhere.
"""

from __future__ import annotations

import re
import tempfile
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from sitebuild.common import DIST
from sitebuild.serve import SiteHandler, SiteServer, make_server

from .axe import assert_no_violations

ENGINE_PACKAGE = re.compile(r".*/cribbage-[0-9a-f]+\.tar\.gz$")


class CountingHandler(SiteHandler):
    """The dev server's handler (`python build.py serve`), counting the paths asked for."""

    seen: list[str] = []

    def send_head(self):  # type: ignore[no-untyped-def]
        type(self).seen.append(self.path)
        return super().send_head()


@pytest.fixture
def cross_origin(site: str) -> Iterator[tuple[str, str, list[str], Path]]:
    """The site on http://localhost:P1 (CORS, counted); a host folder on http://127.0.0.1:P2."""
    seen: list[str] = []
    handler = type("Counting", (CountingHandler,), {"seen": seen})
    widgets = SiteServer(("127.0.0.1", 0), partial(handler, directory=str(DIST)))
    threading.Thread(target=widgets.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        host = make_server(0, Path(tmp))
        threading.Thread(target=host.serve_forever, daemon=True).start()
        site_url = f"http://localhost:{widgets.server_address[1]}/"
        host_url = f"http://127.0.0.1:{host.server_address[1]}/"
        yield site_url, host_url, seen, Path(tmp)
        host.shutdown()
        host.server_close()
    widgets.shutdown()
    widgets.server_close()


def host_policy(site_url: str) -> str:
    """What docs/embedding.md tells a host to allow, and nothing more."""
    origin = site_url.rstrip("/")
    return (f"default-src 'self'; script-src 'self' {origin} 'wasm-unsafe-eval'; "
            f"worker-src blob:; connect-src {origin}; style-src 'self' {origin}; "
            "img-src 'self' data:; object-src 'none'; base-uri 'none'")


def host_page(site_url: str, body: str) -> str:
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{host_policy(site_url)}">
<title>Host</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="./host.css">
<script type="module" src="{site_url}elements.mjs"></script></head>
<body><h1 id="host-title">A cribbage blog</h1>{body}
<p id="host-after" class="card">The host page still works.</p></body></html>"""


HOST_CSS = """
.card { color: rgb(255, 0, 0); background: rgb(0, 0, 255); }
p { font-size: 40px; }
cribbage-hand.themed { --cribbage-card-bg: rgb(255, 250, 200); --cribbage-felt: rgb(20, 60, 40); }
"""


def ready(page: Any, selector: str) -> Any:
    element = page.locator(selector)
    page.locator(f"{selector}[data-state=ready]").wait_for()
    return element


def test_elements_on_another_origin_share_one_engine(page: Any, cross_origin: Any) -> None:
    site_url, host_url, seen, folder = cross_origin
    body = """
<cribbage-hand id="bob" cards="6D JH 4H 7C" starter="5H"></cribbage-hand>
<cribbage-hand id="alice" class="themed" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
<cribbage-hand id="crib" cards="TS 8D KC 8C" starter="5H" crib></cribbage-hand>
<cribbage-hand id="es" cards="5S 4S 2S 6H" starter="5H" lang="es"></cribbage-hand>
<cribbage-pegging id="peg" cards="JH,5S,7C,6H,go,2S,6D,4S,4H" names="Bob,Alice"></cribbage-pegging>
<cribbage-deal id="deal" dealer="0" names="Alice,Bob" hands="5S4S2S8D6H8C|TS6DJH4HKC7C"
  discards="8D8C|TSKC" starter="5H" play="JH,5S,7C,6H,2S,6D,4S,4H"></cribbage-deal>
<cribbage-drill id="drill" level="runs" seed="3"></cribbage-drill>
"""
    (folder / "host.html").write_text(host_page(site_url, body))
    (folder / "host.css").write_text(HOST_CSS)
    page.goto(host_url + "host.html")
    totals = [int(ready(page, f"#{name}").locator(".total-points").inner_text())
              for name in ("bob", "alice", "crib")]
    assert totals == [9, 12, 6]
    spanish = ready(page, "#es")
    assert spanish.locator(".said").inner_text().startswith("Dicho en voz alta: quince dos")
    assert spanish.locator(".card").first.get_attribute("aria-label") == "cinco de picas"
    peg = ready(page, "#peg")
    for _ in range(2):
        peg.get_by_role("button", name=re.compile("next", re.I)).click()
    assert peg.locator(".count").inner_text() == "15"
    deal = ready(page, "#deal")
    assert deal.locator(".stepper .where").inner_text()
    page.locator("#drill .drill[data-state=ask]").wait_for()
    # one engine for every element: one wasm and one engine archive fetched
    assert len([p for p in seen if p.endswith("pyodide.asm.wasm")]) == 1, seen
    assert len([p for p in seen if ENGINE_PACKAGE.match(p)]) == 1, seen
    # styles isolated both ways, the theme through custom properties
    styles = page.evaluate("""() => {
      const card = document.querySelector('#alice').shadowRoot.querySelector('.card.black');
      const plain = document.querySelector('#bob').shadowRoot
        .querySelector('.card.black, .card.red');
      const cs = (e, p) => getComputedStyle(e)[p];
      return {themedBg: cs(card, 'backgroundColor'), plainBg: cs(plain, 'backgroundColor'),
              colour: cs(card, 'color'),
              felt: cs(document.querySelector('#alice'), 'backgroundColor'),
              hostP: cs(document.querySelector('#host-after'), 'color')};
    }""")
    assert styles["themedBg"] == "rgb(255, 250, 200)"
    assert styles["plainBg"] == "rgb(255, 255, 255)"
    assert styles["colour"] == "rgb(17, 17, 17)"  # the host's .card rule does not reach in
    assert styles["felt"] == "rgb(20, 60, 40)"
    assert styles["hostP"] == "rgb(255, 0, 0)"  # and ours do not reach out
    assert page.locator("#host-title").inner_text() == "A cribbage blog"


LOOK_CSS = """
body { font: 16px system-ui, sans-serif; color: #222; background: #fff; }
#big { --cribbage-card-width: 72px; }
#own { --cribbage-felt: rgb(40, 20, 60); }
"""

# The relative luminance (WCAG) of an element's computed colour property.
LUMINANCE = """([element, property]) => {
  const [r, g, b] = getComputedStyle(element)[property].match(/[\\d.]+/g).map(Number);
  const linear = (c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}"""


def test_the_look_card_width_and_dark_surround(page: Any, cross_origin: Any) -> None:
    """The author's look (docs/embedding.md): --cribbage-card-width from the host's CSS or
    card-width=, the dark surround from theme="dark", an author's --cribbage-felt still
    winning over it; the words keep their contrast on it (axe, shadow roots included)."""
    site_url, host_url, seen, folder = cross_origin
    body = """
<cribbage-hand id="plain" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
<cribbage-hand id="big" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
<cribbage-hand id="dark" theme="dark" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
<cribbage-pegging id="peg" theme="dark" card-width="50" cards="JH,5S,7C,6H,go,2S"
  names="Bob,Alice" step="4"></cribbage-pegging>
<cribbage-hand id="own" theme="dark" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
<cribbage-hand id="bad" theme="blue" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
"""
    page_text = host_page(site_url, body).replace("<body>", "<body><main>").replace(
        '<p id="host-after" class="card">The host page still works.</p></body>', "</main></body>")
    (folder / "host.html").write_text(page_text)
    (folder / "host.css").write_text(LOOK_CSS)
    page.goto(host_url + "host.html")
    for name in ("plain", "big", "dark", "peg", "own"):
        ready(page, f"#{name}")
    page.locator("#bad[data-state=error]").wait_for()
    assert "blue" in page.locator("#bad .widget-error").inner_text()

    def widths(name: str) -> list[float]:
        return list(page.locator(f"#{name} .card:not(.small)").evaluate_all(
            "cards => cards.map(c => c.getBoundingClientRect().width)"))

    assert widths("big") == [72] * 5
    assert widths("peg") == [50] * 4  # the pile
    assert {round(w, 1) for w in widths("plain")} == {41.6}  # 2.6rem
    shades = {name: page.evaluate(LUMINANCE, [page.locator(f"#{name}").element_handle(),
                                              "backgroundColor"])
              for name in ("plain", "dark", "peg")}
    assert shades["plain"] > 0.9 and shades["dark"] < 0.1 and shades["peg"] < 0.1
    ink = page.locator("#dark .total").element_handle()
    assert page.evaluate(LUMINANCE, [ink, "color"]) > 0.8
    own = page.locator("#own").evaluate("e => getComputedStyle(e).backgroundColor")
    assert own == "rgb(40, 20, 60)"  # the author's felt wins over the dark surround's
    card = page.locator("#dark .card").first.element_handle()
    assert page.evaluate(LUMINANCE, [card, "backgroundColor"]) == 1  # the table's white card
    assert_no_violations(page, "custom elements on the dark surround", cssom=False)


def test_bad_attributes_give_a_message(page: Any, cross_origin: Any) -> None:
    site_url, host_url, seen, folder = cross_origin
    hostile = quote("<img src=x onerror=window.__pwned=1>")
    body = f"""
<cribbage-hand id="a" cards="&lt;script&gt;window.__pwned=1&lt;/script&gt;" starter="5H">
</cribbage-hand>
<cribbage-hand id="b" cards="5S 4S 2S 6H" starter="5H" colour="red"></cribbage-hand>
<cribbage-hand id="c" cards="5S 5S 2S 6H" starter="5H" lang="ja"></cribbage-hand>
<cribbage-pegging id="d" cards="JH" players="99"></cribbage-pegging>
<cribbage-drill id="e" level="{hostile}"></cribbage-drill>
<cribbage-hand id="ok" cards="5S 4S 2S 6H" starter="5H" data-note="x" class="x"></cribbage-hand>
"""
    (folder / "host.html").write_text(host_page(site_url, body))
    (folder / "host.css").write_text(HOST_CSS)
    page.goto(host_url + "host.html")
    for name in "abcde":
        page.locator(f"#{name}[data-state=error]").wait_for()
    assert "not a card" in page.locator("#a .widget-error").inner_text()
    assert "colour" in page.locator("#b .widget-error").inner_text()
    assert "2回" in page.locator("#c .widget-error").inner_text() or \
        "5♠" in page.locator("#c .widget-error").inner_text()
    assert int(ready(page, "#ok").locator(".total-points").inner_text()) == 12
    assert page.evaluate("window.__pwned") is None
    # no engine was started for the broken ones alone: the good one started it once
    assert len([p for p in seen if p.endswith("pyodide.asm.wasm")]) == 1


def test_attributes_changed_redraw(page: Any, cross_origin: Any) -> None:
    site_url, host_url, seen, folder = cross_origin
    body = '<cribbage-hand id="h" cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>'
    (folder / "host.html").write_text(host_page(site_url, body))
    (folder / "host.css").write_text(HOST_CSS)
    page.goto(host_url + "host.html")
    assert ready(page, "#h").locator(".total-points").inner_text() == "12"
    page.evaluate("""() => { const h = document.getElementById('h');
      h.setAttribute('cards', '5C 5D 5H JS'); h.setAttribute('starter', '5S'); }""")
    page.locator("#h .total-points", has_text="29").wait_for()


def test_a_module_worker_from_another_origin_is_refused(page: Any, cross_origin: Any) -> None:
    """Why elements.mjs uses a blob: worker on another origin (docs/embedding.md)."""
    site_url, host_url, seen, folder = cross_origin
    plain = '<!doctype html><title>plain</title><link rel="icon" href="data:,">'
    (folder / "plain.html").write_text(plain)
    page.goto(host_url + "plain.html")
    error = page.evaluate("""(url) => {
      try { new Worker(url, {type: 'module'}); return 'started'; } catch (e) { return e.name; }
    }""", site_url + "engine-worker.mjs")
    assert error == "SecurityError"
    assert not [p for p in seen if p.endswith("engine-worker.mjs")]
