"""The dev server (sitebuild/serve.py) answers like a static host: by content, under a sub-path.

On a small directory of its own: no build needed.
"""

from __future__ import annotations

import http.client
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitebuild.pins import PINS
from sitebuild.serve import IMMUTABLE, SiteServer, serve_in_thread

VENDOR = f"{PINS[0].key}-{PINS[0].version}-abcdef12"  # a pinned package's content-named folder
FUTURE = "Fri, 01 Jan 2100 00:00:00 GMT"  # any file is older than this date


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, SiteServer]]:
    (tmp_path / "index.html").write_text("<!doctype html><title>a</title>")
    (tmp_path / VENDOR).mkdir()
    (tmp_path / VENDOR / "x.js").write_text("x")
    server, _ = serve_in_thread(tmp_path, base="/games/cribbage/")
    yield tmp_path, server
    server.shutdown()
    server.server_close()


def get(server: SiteServer, path: str, headers: dict[str, str] | None = None
        ) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_304_needs_the_current_etag_never_a_date(site: tuple[Path, SiteServer]) -> None:
    directory, server = site
    status, headers, body = get(server, "/games/cribbage/")
    assert status == 200 and b"<title>a</title>" in body
    etag = headers["ETag"]
    assert headers["Cache-Control"] == "no-cache" and headers["Last-Modified"]
    assert get(server, "/games/cribbage/", {"If-None-Match": etag})[0] == 304
    assert get(server, "/games/cribbage/", {"If-Modified-Since": FUTURE})[0] == 200
    # A new deploy of the file, older by date than the copy the browser holds.
    page = directory / "index.html"
    old = page.stat().st_mtime
    page.write_text("<!doctype html><title>b</title>")
    os.utime(page, (old - 86400, old - 86400))
    status, headers, body = get(server, "/games/cribbage/",
                                {"If-None-Match": etag, "If-Modified-Since": FUTURE})
    assert status == 200 and b"<title>b</title>" in body and headers["ETag"] != etag


def test_the_site_lives_under_its_base_path_only(site: tuple[Path, SiteServer]) -> None:
    _, server = site
    status, headers, _ = get(server, "/games/cribbage")
    assert status == 301 and headers["Location"] == "/games/cribbage/"
    assert get(server, "/index.html")[0] == 404
    assert get(server, "/games/index.html")[0] == 404
    status, headers, body = get(server, f"/games/cribbage/{VENDOR}/x.js")
    assert status == 200 and body == b"x" and headers["Cache-Control"] == IMMUTABLE


def test_closing_the_server_ends_its_kept_alive_connections(
    site: tuple[Path, SiteServer]
) -> None:
    _, server = site
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    connection.request("GET", "/games/cribbage/")
    response = connection.getresponse()
    response.read()
    assert response.version == 11 and not response.will_close  # kept alive
    server.shutdown()
    server.server_close()
    # A browser must not go on getting files from a stopped server.
    with pytest.raises((ConnectionError, http.client.HTTPException, OSError)):
        connection.request("GET", "/games/cribbage/")
        connection.getresponse().read()
    connection.close()
