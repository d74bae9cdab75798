"""The dev server: dist/ with the caching headers a good static host sends.

Content-named files (the pinned packages' directories, the engine archive and
snapshot, the wheel's content-named folder) are immutable; the page, its
configs and the UI code are revalidated (``no-cache``) against a strong ETag,
so a reload after a build sees the new files at once. A file with precompressed variants beside it
(``name.br``, ``name.gz``: sitebuild/compress.py) is sent as the best one the
browser accepts, as a static host serving precompressed files does:
``Content-Encoding``, ``Vary: Accept-Encoding``, the variant's own length and
its own ETag.

Validation is by content only: ``304 Not Modified`` answers an
``If-None-Match`` that holds the file's ETag, never a date, so a deploy whose
files carry older timestamps (a rollback, a copy that kept them) is still
sent in full. Responses are HTTP/1.1: Chromium ignores the ETag of an
HTTP/1.0 response and revalidates by date alone.

Every file is sent with ``Access-Control-Allow-Origin: *``: pages of other
origins load the custom elements, the wheel, PyScript and Pyodide from here
(docs/deploy.md lists what each kind of embedding needs).

The site can be served under a sub-path (``--base /games/cribbage/``), as a
host that puts it in a folder of a larger site does.
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
from sitebuild.common import DIST, BuildError
from sitebuild.compress import ENCODINGS
from sitebuild.pins import PINS

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def cache_control(path: str) -> str:
    """Long-lived for content-named files, revalidated for the page and its configs.

    >>> cache_control("/pyodide-314.0.7-1a2b3c4d/pyodide.asm.wasm") == IMMUTABLE
    True
    >>> cache_control("/engine-whole-1a2b3c4d.tar.gz") == IMMUTABLE
    True
    >>> cache_control("/cribbage-0.1.0-1a2b3c4d/cribbage-0.1.0-py3-none-any.whl") == IMMUTABLE
    True
    >>> cache_control("/index.html"), cache_control("/cribbage-0.1.0-py3-none-any.whl")
    ('no-cache', 'no-cache')
    """
    first, _, rest = path.lstrip("/").partition("/")
    versioned = any(first.startswith(f"{pin.key}-{pin.version}-") for pin in PINS)
    named = (first.startswith(("cribbage-", "engine-whole-"))
             and first.endswith((".tar.gz", ".snapshot")))
    wheel_folder = first.startswith("cribbage-") and rest.endswith(".whl")
    if versioned or named or wheel_folder:
        return IMMUTABLE
    return REVALIDATE


def accepted_encodings(header: str) -> set[str]:
    """The content-codings an Accept-Encoding header allows (those with q > 0).

    >>> sorted(accepted_encodings("gzip, deflate, br;q=0.5, zstd;q=0"))
    ['br', 'deflate', 'gzip']
    >>> accepted_encodings("")
    set()
    """
    allowed = set()
    for part in header.split(","):
        token, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if token.strip() and quality > 0:
            allowed.add(token.strip().lower())
    return allowed


def site_path(url_path: str, base: str = "/") -> str | None:
    """The path in the site that a request's path names under ``base``, or None outside it.

    >>> site_path("/games/cribbage/lang/en.json?x=1", "/games/cribbage/")
    '/lang/en.json'
    >>> site_path("/games/cribbage", "/games/cribbage/"), site_path("/index.html", "/games/")
    ('', None)
    """
    path = url_path.split("?", 1)[0].split("#", 1)[0]
    if path + "/" == base:
        return ""  # the folder itself, without its slash: redirected to it
    if not path.startswith(base):
        return None
    return "/" + path[len(base):]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the caching headers a good static host sends."""

    protocol_version = "HTTP/1.1"  # keep-alive, and ETags Chromium uses (it ignores 1.0's)
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

    @property
    def base(self) -> str:
        """The URL path the site is served under: the server's (SiteServer.base), else /."""
        return str(getattr(self.server, "base", "/"))

    def translate_path(self, path: str) -> str:
        """The file for a URL path under ``base`` (send_head answers 404 outside it)."""
        return super().translate_path(site_path(path, self.base) or "/")

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

    _served: tuple[str, bool] | None = None  # (file sent, whether it has variants)

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        """The file (or its best precompressed variant), or 304 when the browser's is current."""
        self._served = None
        if site_path(self.path, self.base) is None:
            self.send_error(404, f"Not under {self.base}")
            return None
        path = self.file_path()
        if path is None or (os.path.isdir(self.translate_path(self.path))
                            and not self.path.split("?")[0].endswith("/")):
            return super().send_head()  # 404, or the redirect to the directory's slash
        variants = [(coding, path + suffix) for coding, suffix in ENCODINGS.items()
                    if os.path.isfile(path + suffix)]
        allowed = accepted_encodings(self.headers.get("Accept-Encoding") or "")
        coding, served = next(((c, p) for c, p in variants if c in allowed or "*" in allowed),
                              (None, path))
        self._served = (served, bool(variants))
        if self.not_modified(served):
            self.send_response(304)
            self.end_headers()
            return None
        body = open(served, "rb")  # noqa: SIM115  (closed by the caller, as the base class does)
        stat = os.fstat(body.fileno())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        if coding is not None:
            self.send_header("Content-Encoding", coding)
        self.end_headers()
        return body

    def not_modified(self, served: str) -> bool:
        """Whether the browser's copy of ``served`` is current: its If-None-Match names the ETag.

        A date alone (If-Modified-Since) never makes a 304: a deploy whose files
        are older by date than the browser's copy would otherwise never arrive.
        """
        tags = self.headers.get("If-None-Match")
        if tags is None:
            return False
        etag = self.etag(served)
        return any(tag.strip().removeprefix("W/") in (etag, "*") for tag in tags.split(","))

    def end_headers(self) -> None:
        """Add the ETag (the sent variant's), caching policy, Vary and nosniff to file responses."""
        if self._served is not None:
            served, varies = self._served
            self.send_header("ETag", self.etag(served))
            self.send_header("Cache-Control", cache_control(site_path(self.path, self.base) or "/"))
            if varies:
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Log requests only when serving interactively (tests want quiet)."""
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A threading server that stays quiet when a browser drops a connection.

    Connections are kept alive (HTTP/1.1), so closing the server also closes
    the connections still open: a browser must not go on getting files from a
    server that was stopped (the tests stop one and serve another build).
    """

    daemon_threads = True
    verbose = False
    base = "/"  # the URL path the site is served under

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Before the base class binds: a port in use raises there, and its cleanup closes us.
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def get_request(self) -> tuple[socket.socket, Any]:
        """Accept a connection and remember it until it ends."""
        connection, address = super().get_request()
        with self._lock:
            self._open.add(connection)
        return connection, address

    def shutdown_request(self, request: Any) -> None:
        """Forget a connection that ended."""
        with self._lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def server_close(self) -> None:
        """Stop listening and end every connection still open."""
        super().server_close()
        with self._lock:
            still_open, self._open = list(self._open), set()
        for connection in still_open:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already gone

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        """Report errors other than a dropped connection (browsers drop them freely)."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(port: int = 0, directory: Path = DIST, verbose: bool = False,
                base: str = "/") -> SiteServer:
    """An HTTP server for ``directory`` on 127.0.0.1 under the URL path ``base``
    (port 0 picks a free one)."""
    handler = partial(SiteHandler, directory=str(directory))
    server = SiteServer(("127.0.0.1", port), handler)
    server.verbose = verbose
    server.base = normal_base(base)
    return server


def normal_base(base: str) -> str:
    """``base`` as a URL path with a slash at each end.

    >>> normal_base("games/cribbage"), normal_base("/")
    ('/games/cribbage/', '/')
    """
    return "/" + "".join(part + "/" for part in base.split("/") if part)


def serve_in_thread(directory: Path = DIST, base: str = "/") -> tuple[SiteServer, str]:
    """Start a quiet server on a free loopback port; return it and the site's URL."""
    server = make_server(0, directory, base=base)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{server.base}"


def build_and_serve(port: int, base: str = "/") -> int:
    """Build, then serve dist/ until interrupted."""
    build()
    try:
        server = make_server(port, verbose=True, base=base)
    except OSError as error:
        raise BuildError(f"cannot serve on port {port} ({error.strerror}): "
                         "try another one with --port N, or --port 0 for any free one") from None
    url = f"http://127.0.0.1:{server.server_address[1]}{server.base}"
    print(f"serving dist/ at {url}  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
