"""What makes the site work offline and installable: the service worker, icons and manifest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Set

from sitebuild.common import WEB, BuildError, short_hash
from sitebuild.icons import app_icons, web_manifest

SW_TEMPLATE = WEB / "boot" / "sw.js"  # rendered into dist/sw.js by service_worker(), not copied


def service_worker(site: dict[str, bytes]) -> bytes:
    """dist/sw.js: precaches exactly ``site``'s files under a name made from their content.

    The cache is ``cribbage-<hash of every file>``, so any change to any file
    makes a new cache (and the old one is deleted when the new worker
    activates); each file's SHA-256 is listed so an install that fetched a
    file of another build fails instead of mixing them.
    """
    files = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(site.items())}
    text = SW_TEMPLATE.read_text()
    text = text.replace("{{SW_CACHE}}", f"cribbage-{short_hash(site)}")
    return text.replace("{{SW_FILES}}", json.dumps(files, indent=1)).encode()


def offline_files(site: dict[str, bytes], fallbacks: Set[str] = frozenset()
                  ) -> dict[str, bytes]:
    """The icons, the web app manifest and the service worker for ``site``.

    ``fallbacks`` are served but not precached: files only a rare path asks
    for (the stdlib and the whole engine of a start without the snapshot,
    1.2 MB compressed). A first visit would otherwise download them for nothing.
    """
    extra = {**app_icons(), "manifest.webmanifest": web_manifest()}
    missing = set(fallbacks) - set(site)
    if missing:
        raise BuildError(f"fallbacks not in the site: {sorted(missing)}")
    cached = {name: data for name, data in {**site, **extra}.items() if name not in fallbacks}
    return {**extra, "sw.js": service_worker(cached)}
