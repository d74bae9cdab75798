"""What makes the site work offline and installable: the service worker, icons and manifest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Set

from sitebuild.common import WEB, BuildError, short_hash
from sitebuild.icons import app_icons, web_manifest

SW_TEMPLATE = WEB / "boot" / "sw.js"  # rendered into dist/sw.js by service_worker(), not copied
# Where a page's script holds the build it belongs to (web/boot/loading.mjs): the
# id of the service worker of the same build, so the page can tell a worker of
# another build taking over (a new version, or a rollback) from its own.
BUILD_MARK = b"{{BUILD_ID}}"
STAMPED = (".html", ".mjs", ".js")  # the files that may hold the mark


def service_worker(site: dict[str, bytes], build: str | None = None) -> bytes:
    """dist/sw.js: precaches exactly ``site``'s files under a name made from their content.

    The cache is ``cribbage-<build>``, ``build`` being a hash of every file
    (by default of ``site`` as given), so any change to any file makes a new
    cache (and the old one is deleted when the new worker activates); each
    file's SHA-256 is listed so an install that fetched a file of another
    build fails instead of mixing them.
    """
    files = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(site.items())}
    text = SW_TEMPLATE.read_text()
    text = text.replace("{{SW_BUILD}}", build or short_hash(site))
    return text.replace("{{SW_FILES}}", json.dumps(files, indent=1)).encode()


def stamp_build(site: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """The build's id (a hash of ``site`` as given, marks unfilled) and the files holding
    the mark with the id written in.

    >>> build, stamped = stamp_build({"a.mjs": b'const B = "{{BUILD_ID}}";', "b.css": b"x"})
    >>> stamped == {"a.mjs": f'const B = "{build}";'.encode()}, len(build)
    (True, 8)
    """
    build = short_hash(site)
    stamped = {
        name: data.replace(BUILD_MARK, build.encode())
        for name, data in site.items()
        if name.endswith(STAMPED) and BUILD_MARK in data
    }
    return build, stamped


def offline_files(site: dict[str, bytes], fallbacks: Set[str] = frozenset()
                  ) -> dict[str, bytes]:
    """The icons, the web app manifest, the service worker for ``site``, and the
    files of ``site`` that name their build, with the build's id written in.

    ``fallbacks`` are served but not precached: files only a rare path asks
    for (the stdlib and the whole engine of a start without the snapshot,
    1.2 MB compressed). A first visit would otherwise download them for nothing.
    """
    extra = {**app_icons(), "manifest.webmanifest": web_manifest()}
    missing = set(fallbacks) - set(site)
    if missing:
        raise BuildError(f"fallbacks not in the site: {sorted(missing)}")
    cached = {name: data for name, data in {**site, **extra}.items() if name not in fallbacks}
    build, stamped = stamp_build(cached)
    return {**extra, **stamped, "sw.js": service_worker({**cached, **stamped}, build)}


def precached(worker: str) -> list[str]:
    """The files a rendered sw.js stores (its FILES list).

    >>> precached(service_worker({"a.html": b"", "b.mjs": b""}).decode())
    ['a.html', 'b.mjs']
    """
    start = worker.index("const FILES = ") + len("const FILES = ")
    return sorted(json.loads(worker[start : worker.index("};", start) + 1]))
