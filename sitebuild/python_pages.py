"""What the site gives pages that run Python through PyScript: the engine as a wheel, micropip.

Pages of ours (the tutorial's editor cells) and tutorial authors' own pages
load the engine the way PyScript loads any package: a config whose
``packages`` names the wheel's URL, installed by micropip. So the site serves

- ``cribbage-<version>-py3-none-any.whl``, built here by ``pip wheel`` from
  a clean copy of the package (pyproject's package data: the engine's tables
  and catalogues) in pip's isolated build, with the build backend that
  pyproject pins; cached in ``.cache/wheels/`` by the sources' content. The
  site serves it twice: under its own name, and in a folder named by its
  content (``cribbage-<version>-<hash>/``) that hosts may cache for good;
- micropip, which the pinned Pyodide tarball lacks: a pinned wheel from the
  Python package registry, fetched once with ``pip download`` into
  ``.cache/wheels/`` and checked against its pinned SHA-256. It needs no
  other package (it vendors ``packaging``);
- a Pyodide lock file listing micropip, served in the Pyodide directory
  where ``loadPyodide`` looks for it, and there too the whole stdlib (the
  engine's worker names its own cut zips). The engine's worker never reads
  that lock: it is given its own (no packages) inline.

docs/pyscript.md explains how a page uses them.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild.common import CACHE, ENGINE_PACKAGE, ROOT, BuildError, read_pinned, short_hash
from sitebuild.inline import source_hash
from sitebuild.precompile import stored_zip

WHEELS = CACHE / "wheels"
# What `pip wheel` reads: the project's metadata, its package description and licence.
WHEEL_SOURCES = (ROOT / "pyproject.toml", ROOT / "docs" / "package.md", ROOT / "LICENSE")
# Wheels made from the same sources are the same bytes: entries dated 1980-01-01.
SOURCE_DATE_EPOCH = "315532800"


@dataclass(frozen=True)
class WheelPin:
    """A pure-Python wheel from the Python package registry, pinned by version and SHA-256."""

    name: str
    version: str
    sha256: str

    @property
    def filename(self) -> str:
        return f"{self.name}-{self.version}-py3-none-any.whl"

    @property
    def path(self) -> Path:
        return WHEELS / self.filename


# The version Pyodide 314.0.7's own lock file names.
MICROPIP = WheelPin(
    "micropip", "0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
)


# --- the engine's wheel --------------------------------------------------------


def engine_wheel() -> tuple[str, bytes]:
    """The engine's wheel: its file name (``cribbage-0.1.0-py3-none-any.whl``) and bytes.

    Built once per content of the sources (cached in ``.cache/wheels/``).
    """
    sources = wheel_sources()
    folder = WHEELS / f"engine-{short_hash(sources)}"
    if not folder.is_dir():
        build_wheel(sources, folder)
    (wheel,) = folder.glob("*.whl")
    return wheel.name, wheel.read_bytes()


def wheel_sources() -> dict[str, bytes]:
    """The files ``pip wheel`` builds from, keyed by their path in the repository."""
    files = [*WHEEL_SOURCES, *sorted(ENGINE_PACKAGE.rglob("*"))]
    return {
        path.relative_to(ROOT).as_posix(): path.read_bytes()
        for path in files
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def build_wheel(sources: dict[str, bytes], folder: Path) -> None:
    """Build the wheel of ``sources`` with pip into ``folder`` (made whole or not at all).

    From a scratch copy: setuptools writes ``build/`` and ``*.egg-info`` beside
    the sources, and an old ``build/`` can carry a deleted module into a wheel.
    In pip's isolated build: pip fetches the backend pyproject pins (once; pip
    caches it), so the setuptools of the Python running this does not matter.
    """
    print("building the engine's wheel with pip", file=sys.stderr)
    WHEELS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=WHEELS) as tmp:
        source, out = Path(tmp) / "source", Path(tmp) / "out"
        for name, data in sources.items():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes(data)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
             "--quiet", "--wheel-dir", str(out), str(source)],
            capture_output=True, text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH},
        )
        wheels = list(out.glob("*.whl")) if out.is_dir() else []
        if done.returncode != 0 or len(wheels) != 1:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(
                f"pip could not build the engine's wheel ({last}); it fetches its build "
                "backend from the package index once: check that pip can install packages"
            )
        os.replace(out, folder)


def hashed_wheel_path(name: str, wheel: bytes) -> str:
    """The wheel's content-named path: a folder named by its bytes, the file's own name in it.

    micropip reads the package's name and version from the file's name, so
    the content goes in the folder's.

    >>> hashed_wheel_path("cribbage-0.1.0-py3-none-any.whl", b"PK")
    'cribbage-0.1.0-a5243538/cribbage-0.1.0-py3-none-any.whl'
    """
    project, version = name.split("-")[:2]
    return f"{project}-{version}-{short_hash({name: wheel})}/{name}"


# --- micropip and the lock file -------------------------------------------------


def fetch_wheel(pin: WheelPin, python: str) -> bytes:
    """The pinned wheel's bytes, fetched with ``pip download`` if not cached, then checked.

    ``python`` is the version it must install on (Pyodide's, e.g. ``3.14``).
    """
    return read_pinned(pin.path, lambda: pip_download(pin, python),
                       lambda data: hashlib.sha256(data).hexdigest(), pin.sha256,
                       pin.filename, "sha256")


def pip_download(pin: WheelPin, python: str) -> None:
    """Fetch ``pin``'s wheel into the cache through pip (and so its configured index)."""
    print(f"fetching {pin.name}=={pin.version} with pip download", file=sys.stderr)
    WHEELS.mkdir(parents=True, exist_ok=True)
    # Downloaded beside the cache and moved in whole, so an interrupted fetch leaves nothing.
    with tempfile.TemporaryDirectory(dir=WHEELS) as tmp:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--python-version", python, "--disable-pip-version-check", "--quiet",
             "--dest", tmp, f"{pin.name}=={pin.version}"],
            capture_output=True, text=True,
        )
        fetched = Path(tmp) / pin.filename
        if done.returncode != 0 or not fetched.exists():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(f"pip download {pin.name}=={pin.version} failed: {last}")
        os.replace(fetched, pin.path)


def python_version(lock: bytes) -> str:
    """The ``major.minor`` of the Python a Pyodide lock file is for.

    >>> python_version(b'{"info": {"python": "3.14.2"}, "packages": {}}')
    '3.14'
    """
    return ".".join(str(json.loads(lock)["info"]["python"]).split(".")[:2])


def pages_lock(stock_lock: bytes, wheel: WheelPin = MICROPIP) -> bytes:
    """The lock file PyScript pages read: Pyodide's ``info`` and ``wheel`` alone.

    The entry is the stock one (Pyodide's own build of the same version) with
    the pinned wheel's SHA-256, which ``loadPackage`` checks; its file sits
    beside the lock file.

    >>> stock = {"info": {"python": "3.14.2"}, "packages": {"micropip": {
    ...     "name": "micropip", "version": "0.11.1", "depends": [], "sha256": "x",
    ...     "file_name": "micropip-0.11.1-py3-none-any.whl"}}}
    >>> json.loads(pages_lock(json.dumps(stock).encode()))["packages"]["micropip"]["sha256"][:8]
    '768de165'
    """
    lock = json.loads(stock_lock)
    entry = dict(lock["packages"].get(wheel.name) or {})
    if entry.get("version") != wheel.version or entry.get("depends"):
        raise BuildError(
            f"Pyodide's lock file lists {wheel.name} {entry.get('version')} with depends "
            f"{entry.get('depends')}: pin that version in sitebuild/python_pages.py"
        )
    entry.update(file_name=wheel.filename, sha256=wheel.sha256)
    return json.dumps({"info": lock["info"], "packages": {wheel.name: entry}},
                      separators=(",", ":")).encode()


def pages_files(stock_lock: bytes, stdlib: bytes) -> dict[str, bytes]:
    """The files PyScript pages need in the Pyodide directory, under the names Pyodide
    reads when it is started with no options (as PyScript starts it): the whole
    ``stdlib`` (stored, for brotli), the lock file and micropip."""
    return {
        "python_stdlib.zip": stored_zip(stdlib),
        "pyodide-lock.json": pages_lock(stock_lock),
        MICROPIP.filename: fetch_wheel(MICROPIP, python_version(stock_lock)),
    }



# --- PyScript's own files ------------------------------------------------------

# The one inline style PyScript's editor writes, into each editor's shadow root
# (``<style>:host { all: initial; }</style>``, as no cell sets ``rows``).
EDITOR_STYLE = ":host { all: initial; }"
# Chunks that only features no page of ours uses load: the terminal's xterm.js,
# TOML configs, zip archives in ``files``, the storage module and PyScript's
# own service worker (its plugins' small chunks load with the core, whatever
# the page). Served, not precached.
UNUSED_CHUNKS = ("xterm", "toml-", "zip-", "storage.js", "service-worker.js")


def editor_style_source(pyscript: dict[str, bytes]) -> str:
    """The CSP source that allows exactly the editor's inline style (for ``style-src``).

    Checked against the pinned editor chunk, so a PyScript that writes another
    style fails the build instead of the page's policy.
    """
    chunks = [data for name, data in pyscript.items() if name.startswith("py-editor-")]
    if len(chunks) != 1 or f'"{EDITOR_STYLE}"'.encode() not in chunks[0]:
        raise BuildError(f"PyScript's editor does not write the style {EDITOR_STYLE!r}")
    return source_hash(EDITOR_STYLE)


def unused_chunks(pyscript: dict[str, bytes]) -> set[str]:
    """The names of PyScript's files that no page of ours loads (see ``UNUSED_CHUNKS``).

    >>> sorted(unused_chunks({"core.js": b"", "xterm.css": b"", "toml-1.js": b""}))
    ['toml-1.js', 'xterm.css']
    """
    return {name for name in pyscript if name.startswith(UNUSED_CHUNKS)}
