"""The pinned npm packages: which files the page needs, fetching and checking tarballs.

Each tarball is fetched once with ``npm pack`` into ``.cache/npm/`` and checked
against the sha512 pinned here, so every later build is offline.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sitebuild.common import CACHE, BuildError, read_pinned


@dataclass(frozen=True)
class Pin:
    """A pinned npm package and the files of it that the page needs."""

    key: str  # short name used for the dist directory and placeholders
    name: str
    version: str
    integrity: str  # "sha512-..." as npm reports it
    files: tuple[str, ...]  # paths inside the tarball (under package/), or a dir + "/"

    @property
    def tarball(self) -> Path:
        safe = self.name.lstrip("@").replace("/", "-")
        return CACHE / "npm" / f"{safe}-{self.version}.tgz"


PINS = (
    Pin(
        "pyodide",
        "pyodide",
        "314.0.7",
        "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
        (
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
        ),
    ),
    Pin(
        "micropython",
        "@micropython/micropython-webassembly-pyscript",
        "1.27.0",
        "sha512-DnXx4EqxgkeaFESrS3uKrL7mLMk4mRTd0mMzaOd3HUSiZUOAE7t11uLnjf3ftF87N2xm4knHnWEKcVK4IYIUDA==",
        ("micropython.mjs", "micropython.wasm"),
    ),
    # PyScript's core for the pages that run Python through it (the tutorial's
    # cells, tutorial authors' pages): its whole dist/ but the source maps.
    Pin(
        "pyscript",
        "@pyscript/core",
        "0.7.31",
        "sha512-GqM1aonc1N4RTkNZ1zJ8jJk8+i2cqeztZslPsAiQtn+wHHkUX9Z1FgIg4HjCvhBylB68UKmbTVTzOobpgPIMVQ==",
        ("dist/",),
    ),
    # The QR code of an invitation to play on another device (web/peer/peer.mjs).
    Pin(
        "qrcode",
        "qrcode-generator",
        "2.0.4",
        "sha512-mZSiP6RnbHl4xL2Ap5HfkjLnmxfKcPWpWe/c+5XxCuetEenqmNFf1FH/ftXPCtFG5/TDobjsjz6sSNL0Sr8Z9g==",
        ("dist/qrcode.mjs",),
    ),
)


# A build tool (never part of dist/): binaryen's JS build, which trims
# Pyodide's wasm (sitebuild/trimwasm.py).
BINARYEN = Pin(
    "binaryen",
    "binaryen",
    "132.0.0",
    "sha512-4Usg7yEvwO3FMso3Oov6qkOOHSod1IEv+boKkh77kTljM+eNBouqCTbqWswGzbG+vDNO/b/v2C4gfEh1WgB9Lg==",
    ("index.js",),
)

# Pinned for the browser tests only (never part of dist/): axe-core, the
# accessibility checker tests/browser/axe.py injects into the pages it checks.
AXE = Pin(
    "axe",
    "axe-core",
    "4.14.1",
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
    ("axe.min.js",),
)
TEST_PINS = (AXE,)


def sri_sha512(data: bytes) -> str:
    """Subresource-integrity string, as npm reports it.

    >>> sri_sha512(b"")[:20]
    'sha512-z4PhNX7vuL3xV'
    """
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_tarball(pin: Pin) -> bytes:
    """Return the pinned tarball's bytes, fetching it with ``npm pack`` if not cached."""
    path = pin.tarball
    return read_pinned(path, lambda: npm_pack(pin, path), sri_sha512, pin.integrity,
                       f"{pin.name}@{pin.version}", "integrity")


def npm_pack(pin: Pin, path: Path) -> None:
    """Fetch ``pin``'s tarball into ``path`` through npm (and so its configured registry)."""
    if shutil.which("npm") is None:
        raise BuildError(
            f"npm is needed once to fetch {pin.name}@{pin.version}: install Node.js and npm"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"fetching {pin.name}@{pin.version} with npm pack", file=sys.stderr)
    # Packed beside the cache and moved in whole, so an interrupted fetch leaves no tarball.
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        done = subprocess.run(
            ["npm", "pack", "--json", "--pack-destination", tmp, f"{pin.name}@{pin.version}"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(f"npm pack {pin.name}@{pin.version} failed: {last}")
        filename = json.loads(done.stdout)[0]["filename"]
        os.replace(Path(tmp) / filename, path)


def dist_names(pin: Pin, name: str) -> Iterator[str]:
    """The path(s) in dist of the tarball file ``name`` (none if the page does not need it).

    A wanted directory (``"dist/"``) brings its files, less source maps; a
    wanted file keeps its name.

    >>> pin = Pin("x", "x", "1.0.0", "sha512-", ("dist/", "a.mjs"))
    >>> [list(dist_names(pin, n)) for n in ("dist/core.js", "dist/core.js.map", "a.mjs", "b.mjs")]
    [['core.js'], [], ['a.mjs'], []]
    """
    for wanted in pin.files:
        if wanted.endswith("/") and name.startswith(wanted):
            short = name[len(wanted) :]
            if not short.endswith(".map"):
                yield short
        elif name == wanted:
            yield name


def extract(pin: Pin, data: bytes) -> dict[str, bytes]:
    """The files of ``pin.files`` from its tarball, keyed by their path in dist."""
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            names = list(dist_names(pin, member.name.removeprefix("package/")))
            source = tar.extractfile(member) if member.isfile() and names else None
            if source is not None:
                out.update(dict.fromkeys(names, source.read()))
    missing = [f for f in pin.files if not f.endswith("/") and f not in out]
    if missing:
        raise BuildError(f"{pin.name}@{pin.version} lacks {', '.join(missing)}")
    return out
