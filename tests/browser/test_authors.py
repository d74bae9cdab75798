"""Tutorial authors' own pages running the engine: docs/embedding.md's "Python in your page".

Each page is read from docs/embedding.md exactly as printed (its ```html
block named by the info string), with ``https://cards.example/`` replaced by
the site's address, and served from ANOTHER origin: the site on
http://127.0.0.1:P1 by the dev server's own handler (`python build.py
serve`), the author on http://localhost:P2.

- PyScript from the site alone, and Pyodide alone, each under the policy
  docs/embedding.md gives for it, count 12; nothing comes from a third
  origin; the wheel and embed.json come with the CORS header, the wheel
  cached for good. Then the site's server is stopped and the page loaded
  again: it still counts 12, from the browser's cache.
- PyScript from its public host: the CDN's folders are answered with the
  site's own copies (the tests have no internet), and the page counts 12.
- The README's snippet is docs/embedding.md's.
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import re
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from sitebuild.common import DIST, ROOT
from sitebuild.serve import IMMUTABLE, SiteServer, make_server

EXAMPLE_SITE = "https://cards.example/"
CDN_CORE = "https://cdn.jsdelivr.net/npm/@pyscript/core@0.7.31/dist/"
CDN_PYODIDE = "https://cdn.jsdelivr.net/pyodide/v314.0.2/full/"
COUNTED = "() => /\\d/.test(document.getElementById('count').textContent)"


def printed_page(name: str, doc: Path = ROOT / "docs" / "embedding.md") -> str:
    """The ```html block of ``doc`` whose info string names ``name``, as printed."""
    text = doc.read_text(encoding="utf-8")
    blocks = re.findall(rf"^```html {re.escape(name)}\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 1, f"{doc.name} prints one {name} page"
    return str(blocks[0])


def with_policy(page: str, site: str, *, unsafe_eval: bool) -> str:
    """``page`` with docs/embedding.md's policy for its route, its inline script's hash
    filled in, as a ``<meta>`` right after the charset."""
    script = re.search(r'<script type="module">(.*?)</script>', page, re.S)
    assert script, "the page has its inline module script"
    digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
    origin = site.rstrip("/")
    evals = "'unsafe-eval' 'wasm-unsafe-eval'" if unsafe_eval else "'wasm-unsafe-eval'"
    policy = (f"default-src 'self'; script-src {origin} {evals} 'sha256-{digest}'; "
              f"connect-src {origin}; object-src 'none'; base-uri 'none'")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    return page.replace('<meta charset="utf-8">', f'<meta charset="utf-8">\n  {meta}', 1)


class Origin:
    """A server on a loopback port that can be stopped (the site going unreachable)."""

    def __init__(self, directory: Path, host: str) -> None:
        self.directory = directory
        self.server: SiteServer | None = make_server(0, directory)
        self.url = f"http://{host}:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


@pytest.fixture
def origins(site: str) -> Iterator[tuple[Origin, Origin]]:
    """The game's site (dist/, the dev server's handler) and an author's folder, two origins."""
    with tempfile.TemporaryDirectory() as tmp:
        game, author = Origin(DIST, "127.0.0.1"), Origin(Path(tmp), "localhost")
        (Path(tmp) / "favicon.ico").write_bytes(b"")  # the pages name no icon
        yield game, author
        author.stop()
        game.stop()


def open_counted(page: Any, url: str) -> str:
    page.goto(url)
    page.wait_for_function(COUNTED)
    return str(page.locator("#count").inner_text())


# Offline, the page's first fetch of embed.json fails (and the browser says so in the
# console) before it takes the cached copy: the test checks that this is the only error.
@pytest.mark.allow_console_errors
@pytest.mark.parametrize("route", ["author-pyscript", "author-pyodide"])
def test_an_authors_page_counts_from_the_site_then_offline(
    page: Any, origins: tuple[Origin, Origin], requests_seen: list[str], route: str
) -> None:
    game, author = origins
    printed = printed_page(route).replace(EXAMPLE_SITE, game.url)
    assert EXAMPLE_SITE not in printed
    html = with_policy(printed, game.url, unsafe_eval=route == "author-pyscript")
    (author.directory / "count.html").write_text(html, encoding="utf-8")
    headers: dict[str, dict[str, str]] = {}
    page.on("response", lambda r: headers.update({r.url: r.headers}))

    said = open_counted(page, author.url + "count.html")
    assert said == "Alice's hand with the starter 5H counts 12.", said
    elsewhere = [u for u in requests_seen if not u.startswith((game.url, author.url, "blob:"))]
    assert not elsewhere, elsewhere
    wheel = next(u for u in requests_seen if u.endswith("/cribbage-0.1.0-py3-none-any.whl"))
    assert re.search(r"/cribbage-0\.1\.0-[0-9a-f]{8}/cribbage-0\.1\.0-py3-none-any\.whl$", wheel)
    assert headers[wheel]["access-control-allow-origin"] == "*"
    assert headers[wheel]["cache-control"] == IMMUTABLE
    assert headers[game.url + "embed.json"]["access-control-allow-origin"] == "*"

    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    assert not errors
    game.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(game.url, timeout=5)
    said = open_counted(page, author.url + "count.html")
    assert said == "Alice's hand with the starter 5H counts 12.", said
    assert errors == ["Failed to load resource: net::ERR_CONNECTION_REFUSED"], errors


def test_an_authors_page_with_pyscript_from_its_public_host(
    page: Any, origins: tuple[Origin, Origin], requests_seen: list[str]
) -> None:
    game, author = origins
    printed = printed_page("author-pyscript-cdn")
    assert f'src="{CDN_CORE}core.js"' in printed
    page_text = printed.replace(EXAMPLE_SITE, game.url)
    (author.directory / "count.html").write_text(page_text, encoding="utf-8")
    # The CDN's two folders, answered from the site's copies of the same releases.
    for prefix, local in ((CDN_CORE, "pyscript-*"), (CDN_PYODIDE, "pyodide-*")):
        page.route(prefix + "**", partial(serve_file, folder=next(DIST.glob(local)), prefix=prefix))
    said = open_counted(page, author.url + "count.html")
    assert said == "Alice's hand with the starter 5H counts 12.", said
    assert any(u.startswith(CDN_CORE) for u in requests_seen)
    assert any(u.startswith(CDN_PYODIDE) for u in requests_seen)  # PyScript's default Pyodide
    assert any(u == game.url + "cribbage-0.1.0-py3-none-any.whl" for u in requests_seen)


def serve_file(route: Any, request: Any, *, folder: Path, prefix: str) -> None:
    """Answer a CDN request with the file of the same name in ``folder`` (404 if none)."""
    name = request.url[len(prefix):].split("?")[0]
    path = folder / name
    if not path.is_file():
        route.fulfill(status=404, body="")
        return
    kind = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}
    content_type = (kind.get(path.suffix) or mimetypes.guess_type(name)[0]
                    or "application/octet-stream")
    route.fulfill(status=200, body=path.read_bytes(), headers={
        "Content-Type": content_type, "Access-Control-Allow-Origin": "*"})


def test_the_readme_prints_the_documented_page() -> None:
    assert printed_page("author-pyscript", ROOT / "README.md") == printed_page("author-pyscript")
