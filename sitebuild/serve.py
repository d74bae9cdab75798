"""The dev server: dist/ with the caching headers a good static host sends.

Content-named files (the pinned packages' directories, the engine archive) are
immutable; the page, its configs and the UI code are revalidated (``no-cache``)
against a strong ETag, so a reload after a build sees the new files at once.
"""

from __future__ import annotations

import hashlib
import http.server
import io
import os
import socket
import sys
import threading
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

from sitebuild.assemble import build
from sitebuild.common import DIST
from sitebuild.pins import PINS

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def cache_control(path: str) -> str:
    """Long-lived for content-named files, revalidated for the page and its configs.

    >>> cache_control("/pyodide-314.0.7-1a2b3c4d/pyodide.asm.wasm") == IMMUTABLE
    True
    >>> cache_control("/index.html")
    'no-cache'
    """
    first = path.lstrip("/").split("/", 1)[0]
    versioned = any(first.startswith(f"{pin.key}-{pin.version}-") for pin in PINS)
    if versioned or (first.startswith("cribbage-") and first.endswith(".tar.gz")):
        return IMMUTABLE
    return REVALIDATE


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the caching headers a good static host sends."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
        ".gz": "application/gzip",  # never Content-Encoding: the worker inflates it itself
        ".py": "text/plain; charset=utf-8",
        ".css": "text/css",
        ".svg": "image/svg+xml",
        ".png": "image/png",
        ".webmanifest": "application/manifest+json",
    }
    _etags: dict[tuple[str, int, int], str] = {}

    def etag(self, path: str) -> str:
        """A strong ETag from the file's bytes, cached by path, size and mtime."""
        stat = os.stat(path)
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key not in self._etags:
            with open(path, "rb") as f:
                self._etags[key] = '"' + hashlib.sha256(f.read()).hexdigest()[:20] + '"'
        return self._etags[key]

    def file_path(self) -> str | None:
        """The file this request serves (a directory serves its index.html), or None."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        return path if os.path.isfile(path) else None

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        """Answer 304 when the browser's copy (If-None-Match) is current, else as usual."""
        path = self.file_path()
        if path is not None and self.etag(path) in (self.headers.get("If-None-Match") or ""):
            self.send_response(304)
            self.end_headers()
            return None
        return super().send_head()

    def end_headers(self) -> None:
        """Add the ETag, the caching policy and nosniff to every file's response."""
        path = self.file_path()
        if path is not None:
            self.send_header("ETag", self.etag(path))
            self.send_header("Cache-Control", cache_control(self.path.split("?")[0]))
            self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Log requests only when serving interactively (tests want quiet)."""
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A threading server that stays quiet when a browser drops a connection."""

    daemon_threads = True
    verbose = False

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        """Report errors other than a dropped connection (browsers drop them freely)."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(port: int = 0, directory: Path = DIST, verbose: bool = False) -> SiteServer:
    """An HTTP server for ``directory`` on 127.0.0.1 (port 0 picks a free one)."""
    handler = partial(SiteHandler, directory=str(directory))
    server = SiteServer(("127.0.0.1", port), handler)
    server.verbose = verbose
    return server


def serve_in_thread(directory: Path = DIST) -> tuple[SiteServer, str]:
    """Start a quiet server on a free loopback port; return it and its base URL."""
    server = make_server(0, directory)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def build_and_serve(port: int) -> int:
    """Build, then serve dist/ until interrupted."""
    build()
    server = make_server(port, verbose=True)
    print(f"serving dist/ at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
