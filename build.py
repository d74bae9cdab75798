#!/usr/bin/env python3
"""Build, serve and test the cribbage site (standard library only).

    python build.py                      assemble the static site in dist/
    python build.py serve [--port N]     build, then serve dist/ on 127.0.0.1
    python build.py test [pytest args]   build, find a browser, run the whole suite

The site is web/ plus three pinned npm packages (Pyodide, PyScript and
MicroPython for PyScript). Each tarball is fetched once with ``npm pack`` into
``.cache/npm/`` and checked against the sha512 pinned below, so later builds
are offline and take about a second. Pyodide's stdlib zip is recompiled to
sourceless ``.pyc`` by running that same Pyodide under Node (see
shared/DESIGN.md: it halves the engine's cold start); the result is cached too.

Third-party files land in directories named by version and content hash
(``pyodide-314.0.7-1a2b3c4d/``) so they can be served as immutable; the page,
its configs and the UI code are revalidated on every load.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
ENGINE_PACKAGE = ROOT / "cribbage"
PRECOMPILE_VERSION = "1"  # bump when the precompiled stdlib format changes


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
        "pyscript",
        "@pyscript/core",
        "0.7.31",
        "sha512-GqM1aonc1N4RTkNZ1zJ8jJk8+i2cqeztZslPsAiQtn+wHHkUX9Z1FgIg4HjCvhBylB68UKmbTVTzOobpgPIMVQ==",
        ("dist/",),
    ),
    Pin(
        "micropython",
        "@micropython/micropython-webassembly-pyscript",
        "1.27.0",
        "sha512-DnXx4EqxgkeaFESrS3uKrL7mLMk4mRTd0mMzaOd3HUSiZUOAE7t11uLnjf3ftF87N2xm4knHnWEKcVK4IYIUDA==",
        ("micropython.mjs", "micropython.wasm"),
    ),
)

# PyScript chunks the page never loads: the code editor and the terminal widget
# (their plugins load them only for <py-editor> or a terminal attribute).
# PyScript chunks the page never loads, left out so the offline precache does not
# download them: editors and terminals, the TOML parser (our configs are JSON),
# the zip helper (no archives in `files`), Pyodide's graph (the UI is MicroPython)
# and PyScript's own service worker (we need no synchronous worker calls).
PYSCRIPT_SKIP = ("codemirror", "xterm", "toml-", "zip-", "pyodide_graph-", "service-worker")

# Text files in web/ whose {{PLACEHOLDERS}} are replaced at build time.
TEMPLATED = (".html", ".json", ".mjs", ".js", ".css", ".py")


class BuildError(Exception):
    """A build step failed; the message is one line for the user."""


# --- fetching pinned packages ------------------------------------------------


def sri_sha512(data: bytes) -> str:
    """Subresource-integrity string, as npm reports it.

    >>> sri_sha512(b"")[:20]
    'sha512-z4PhNX7vuL3xV'
    """
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_tarball(pin: Pin) -> bytes:
    """Return the pinned tarball's bytes, fetching it with ``npm pack`` if not cached."""
    path = pin.tarball
    if not path.exists():
        if shutil.which("npm") is None:
            raise BuildError(
                f"npm is needed once to fetch {pin.name}@{pin.version}: install Node.js and npm"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"fetching {pin.name}@{pin.version} with npm pack", file=sys.stderr)
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
    data = path.read_bytes()
    actual = sri_sha512(data)
    if actual != pin.integrity:
        raise BuildError(
            f"integrity mismatch for {pin.name}@{pin.version}: pinned {pin.integrity}, got {actual}"
            f" (delete {path} to refetch)"
        )
    return data


def extract(pin: Pin, data: bytes) -> dict[str, bytes]:
    """The files of ``pin.files`` from its tarball, keyed by their path in dist."""
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            name = member.name.removeprefix("package/")
            for wanted in pin.files:
                if wanted.endswith("/") and name.startswith(wanted):
                    short = name[len(wanted) :]
                    if not short.endswith(".map") and not short.startswith(PYSCRIPT_SKIP):
                        out[short] = tar.extractfile(member).read()  # type: ignore[union-attr]
                elif name == wanted:
                    out[name] = tar.extractfile(member).read()  # type: ignore[union-attr]
    missing = [f for f in pin.files if not f.endswith("/") and f not in out]
    if missing:
        raise BuildError(f"{pin.name}@{pin.version} lacks {', '.join(missing)}")
    return out


# --- the precompiled stdlib --------------------------------------------------

RUN_IN_PYODIDE_JS = r"""
// Run a Python file in the pinned Pyodide: /tmp/in.zip -> /tmp/out.zip.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [indexDir, code, source, target] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(indexDir + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: indexDir + "/" });
py.FS.writeFile("/tmp/in.zip", readFileSync(source));
py.runPython(readFileSync(code, "utf8"));
writeFileSync(target, py.FS.readFile("/tmp/out.zip"));
"""

# Every stdlib module as a sourceless .pyc, compiled for the path it has in Pyodide.
STDLIB_TO_PYC = """
import importlib.util, marshal, zipfile
src = zipfile.ZipFile("/tmp/in.zip")
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, "/lib/python314.zip/" + info.filename, "exec", dont_inherit=True)
            data = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)
            info = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
        info.compress_type = zipfile.ZIP_DEFLATED
        dst.writestr(info, data)
"""

# The engine keeps its sources (for tracebacks) and gains __pycache__/*.pyc
# marked "unchecked hash", which Python uses without looking at the source.
ENGINE_ADD_PYC = """
import compileall, py_compile, zipfile
from pathlib import Path
zipfile.ZipFile("/tmp/in.zip").extractall("/tmp/engine")
compileall.compile_dir("/tmp/engine", quiet=2, ddir="/home/pyodide",
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as dst:
    for path in sorted(Path("/tmp/engine").rglob("*")):
        if path.is_file():
            name = path.relative_to("/tmp/engine").as_posix()
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(info, path.read_bytes())
"""

PYODIDE_RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def run_in_pyodide(stock: dict[str, bytes], code: str, data: bytes, what: str) -> bytes:
    """Run ``code`` in the pinned Pyodide under Node on ``data`` (a zip); return its output zip."""
    if shutil.which("node") is None:
        raise BuildError(f"node is needed for {what}: install Node.js")
    print(f"{what} under Node", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in PYODIDE_RUNTIME:
            (folder / name).write_bytes(stock[name])
        (folder / "run.mjs").write_text(RUN_IN_PYODIDE_JS)
        (folder / "code.py").write_text(code)
        (folder / "in.zip").write_bytes(data)
        done = subprocess.run(
            ["node", "run.mjs", tmp, "code.py", "in.zip", "out.zip"],
            cwd=tmp,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(f"{what} failed: {last}")
        return (folder / "out.zip").read_bytes()


def cached_output(path: Path, make: Callable[[], bytes]) -> bytes:
    """The bytes at ``path``, made (and kept) the first time they are asked for."""
    if not path.exists():
        data = make()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path.read_bytes()


def precompiled_stdlib(pin: Pin, stock: dict[str, bytes]) -> bytes:
    """Pyodide's stdlib zip with every module as sourceless ``.pyc`` (cached)."""
    path = CACHE / "stdlib" / f"python_stdlib-{pin.version}-pyc{PRECOMPILE_VERSION}.zip"
    return cached_output(
        path,
        lambda: run_in_pyodide(
            stock, STDLIB_TO_PYC, stock["python_stdlib.zip"], "precompiling the stdlib"
        ),
    )


def precompiled_engine(pin: Pin, stock: dict[str, bytes], sources: bytes) -> bytes:
    """The engine zip plus its bytecode for the pinned Pyodide (cached by content)."""
    key = short_hash({"zip": sources, "code": ENGINE_ADD_PYC.encode()})
    path = CACHE / "engine" / f"cribbage-{pin.version}-{key}.zip"
    return cached_output(
        path, lambda: run_in_pyodide(stock, ENGINE_ADD_PYC, sources, "compiling the engine")
    )


# --- the engine and the site -------------------------------------------------


ENGINE_ENTRY = WEB / "engine" / "bridge.py"  # the worker's protocol module, shipped in the zip
# Pure modules shared by the engine and the MicroPython UI: words, and the card vocabulary.
SHARED_MODULES = (ENGINE_PACKAGE / "i18n.py", ENGINE_PACKAGE / "faces.py")


def engine_zip() -> bytes:
    """The ``cribbage`` package and ``bridge.py`` as one zip (deterministic).

    The engine worker unpacks it into Python's working directory (on
    ``sys.path``) and imports ``bridge``.
    """
    files = {
        path.relative_to(ROOT).as_posix(): path
        for path in sorted(ENGINE_PACKAGE.rglob("*"))
        if path.is_file() and path.suffix in (".py", ".json") and "__pycache__" not in path.parts
    }
    files[ENGINE_ENTRY.name] = ENGINE_ENTRY
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, files[name].read_bytes())
    return buffer.getvalue()


def lock_without_packages(lock: bytes) -> bytes:
    """Pyodide's lock file with no packages: the engine is pure Python and loads none.

    loadPyodide fetches and indexes the lock file before Python starts; the
    stock one lists 357 packages in 119 kB. Its ``info`` (ABI, Python
    version) is kept, so Pyodide's version check still applies.

    >>> lock_without_packages(b'{"info": {"abi_version": "x"}, "packages": {"numpy": {}}}')
    b'{"info":{"abi_version":"x"},"packages":{}}'
    """
    info = json.loads(lock)["info"]
    return json.dumps({"info": info, "packages": {}}, separators=(",", ":")).encode()


def engine_archive(precompiled: bytes) -> bytes:
    """The precompiled engine zip repacked as a deterministic ``.tar.gz`` for the page.

    The worker inflates it with the browser's own DecompressionStream and
    writes the files into Python's file system from JS, which is faster than
    Python's zipfile (used by ``pyodide.unpackArchive``) at start-up.
    """
    tar_buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(precompiled)) as source, tarfile.open(
        fileobj=tar_buffer, mode="w", format=tarfile.USTAR_FORMAT
    ) as tar:
        for name in sorted(source.namelist()):
            data = source.read(name)
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9, mtime=0) as gz:
        gz.write(tar_buffer.getvalue())
    return out.getvalue()


def short_hash(files: dict[str, bytes]) -> str:
    """Eight hex digits that change whenever any file (name or bytes) changes."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:8]


def write_if_changed(path: Path, data: bytes) -> None:
    """Write only changed files, so unchanged ones keep their mtime and ETag."""
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


LANG_SOURCES = (ENGINE_PACKAGE / "lang", WEB / "lang")  # engine words, then the page's
UI_FOLDERS = ("table", "views")  # the MicroPython UI: DOM code, then pure view code


def language_files() -> dict[str, bytes]:
    """``lang/<code>.json`` for each language: the engine's catalogue merged with the page's.

    Sources: ``cribbage/lang/<code>.json`` and ``web/lang/<part>.<code>.json``.
    Every language must have exactly English's keys (the second-person forms
    ``<key>.you`` are optional) and no key may be defined twice, so a missing
    translation fails the build instead of showing English.
    """
    languages = sorted(path.stem for path in LANG_SOURCES[0].glob("*.json"))
    merged: dict[str, dict[str, object]] = {}
    for lang in languages:
        parts = [LANG_SOURCES[0] / f"{lang}.json", *sorted(LANG_SOURCES[1].glob(f"*.{lang}.json"))]
        merged[lang] = {}
        for part in parts:
            entries = json.loads(part.read_text(encoding="utf-8"))
            twice = sorted(set(entries) & set(merged[lang]))
            if twice:
                raise BuildError(f"{part.relative_to(ROOT)} defines {', '.join(twice)} again")
            merged[lang].update(entries)
    def required(keys: set[str]) -> set[str]:  # "<key>.you" forms are optional (grammar)
        return {key for key in keys if not key.endswith(".you")}

    for lang in languages:
        keys = set(merged[lang])
        missing = sorted(required(set(merged["en"])) - keys)
        extra = sorted(required(keys) - set(merged["en"]))
        extra += sorted(k for k in keys - required(keys) if k[: -len(".you")] not in keys)
        if missing or extra:
            raise BuildError(f"lang/{lang}.json: missing {missing[:5]}, not in English {extra[:5]}")
    return {
        f"lang/{lang}.json": json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode()
        for lang, entries in merged.items()
    }


def site_configs(dirs: dict[str, str]) -> dict[str, bytes]:
    """The UI's PyScript config, kept beside index.html (DESIGN.md explains why).

    ui.json: MicroPython on the main thread, with the UI's pure modules (every
    web/*.py but main.py and the engine's bridge.py). The engine needs
    no PyScript config: engine.mjs starts its worker (engine-worker.mjs).
    """
    ui_modules = sorted(
        [p.name for folder in UI_FOLDERS for p in (WEB / folder).glob("*.py") if p.name != "main.py"]
        + [module.name for module in SHARED_MODULES]
    )
    ui = {
        "interpreter": f"./{dirs['MICROPYTHON_DIR']}/micropython.mjs",
        "files": {f"./{name}": "" for name in ui_modules},
    }
    return {"ui.json": json.dumps(ui, indent=1).encode()}


# --- the app's icons and manifest ---------------------------------------------

APP_NAME = "Cribbage"
THEME_COLOUR = "#1f6b45"  # the felt (web/style.css --felt)
BACKGROUND_COLOUR = "#0f2f20"  # the page behind the table
ICON_SIZES = (192, 512)

Colour = tuple[int, int, int]


def _hex(colour: str) -> Colour:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _png(width: int, height: int, rgb: bytearray) -> bytes:
    """An 8-bit RGB PNG from raw rows (zlib and struct only)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    stride = width * 3
    raw = b"".join(b"\0" + bytes(rgb[y * stride : (y + 1) * stride]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


class Canvas:
    """A square RGB canvas in unit coordinates (0..1), painted with signed distances.

    Each shape is a signed-distance function in pixels (negative inside); a
    pixel's coverage is ``0.5 - distance`` clamped to 0..1, which anti-aliases
    edges with one evaluation per pixel, only inside the shape's bounding box.
    """

    def __init__(self, size: int, colour: Colour) -> None:
        self.size = size
        self.rgb = bytearray(bytes(colour) * (size * size))

    def paint(
        self,
        colour: Colour,
        box: tuple[float, float, float, float],
        distance: Callable[[float, float], float],
    ) -> None:
        """Blend ``colour`` where ``distance(x, y)`` (unit coordinates) is inside."""
        n = self.size
        x0, y0, x1, y1 = (max(0, min(n, int(v * n) + d)) for v, d in zip(box, (-1, -1, 2, 2)))
        for py in range(y0, y1):
            y = (py + 0.5) / n
            row = py * n * 3
            for px in range(x0, x1):
                cover = 0.5 - distance((px + 0.5) / n, y) * n
                if cover <= 0:
                    continue
                i = row + px * 3
                if cover >= 1:
                    self.rgb[i : i + 3] = bytes(colour)
                else:
                    for k in range(3):
                        self.rgb[i + k] = round(self.rgb[i + k] * (1 - cover) + colour[k] * cover)

    def png(self) -> bytes:
        return _png(self.size, self.size, self.rgb)


def _rounded_box(cx: float, cy: float, w: float, h: float, r: float, turn: float = 0.0):
    """Signed distance to a rounded rectangle centred on (cx, cy), turned by ``turn`` radians."""
    import math

    cos, sin = math.cos(turn), math.sin(turn)

    def distance(x: float, y: float) -> float:
        dx, dy = x - cx, y - cy
        u, v = abs(dx * cos + dy * sin) - w / 2 + r, abs(-dx * sin + dy * cos) - h / 2 + r
        outside = math.hypot(max(u, 0.0), max(v, 0.0))
        return outside + min(max(u, v), 0.0) - r

    reach = math.hypot(w, h) / 2
    return (cx - reach, cy - reach, cx + reach, cy + reach), distance


def _circle(cx: float, cy: float, r: float):
    import math

    return (cx - r, cy - r, cx + r, cy + r), lambda x, y: math.hypot(x - cx, y - cy) - r


def _diamond(cx: float, cy: float, w: float, h: float, turn: float = 0.0):
    """A card's diamond pip (a rhombus), turned by ``turn`` radians about its centre."""
    import math

    cos, sin = math.cos(turn), math.sin(turn)
    a, b = w / 2, h / 2
    norm = math.hypot(a, b)

    def distance(x: float, y: float) -> float:
        dx, dy = x - cx, y - cy
        u, v = abs(dx * cos + dy * sin), abs(-dx * sin + dy * cos)
        return (u * b + v * a - a * b) / norm

    reach = max(a, b)
    return (cx - reach, cy - reach, cx + reach, cy + reach), distance


def draw_icon(size: int) -> bytes:
    """The app icon: the five of diamonds over a card back, above a peg board.

    Drawn by the project from a few shapes; everything important stays inside
    the central 80 % so it survives a launcher's mask.
    """
    import math

    felt, felt_dark = _hex(THEME_COLOUR), _hex("#164d32")
    paper, red, wood = _hex("#fbf8f1"), _hex("#c0392b"), _hex("#8a5a2f")
    back, hole, blue = _hex("#8b1e2d"), _hex("#3b2413"), _hex("#1f5fa8")
    canvas = Canvas(size, felt_dark)
    canvas.paint(felt, *_rounded_box(0.5, 0.5, 0.92, 0.92, 0.2))
    # A card back, turned left, and the five of diamonds, turned right, over it.
    left, right = math.radians(-14), math.radians(9)
    canvas.paint(paper, *_rounded_box(0.40, 0.40, 0.34, 0.48, 0.045, left))
    canvas.paint(back, *_rounded_box(0.40, 0.40, 0.28, 0.42, 0.025, left))
    canvas.paint(paper, *_rounded_box(0.58, 0.42, 0.34, 0.48, 0.045, right))
    cos, sin = math.cos(right), math.sin(right)
    for px, py in ((-0.09, -0.14), (0.09, -0.14), (0.0, 0.0), (-0.09, 0.14), (0.09, 0.14)):
        x, y = 0.58 + px * cos - py * sin, 0.42 + px * sin + py * cos
        canvas.paint(red, *_diamond(x, y, 0.075, 0.1, right))
    # The peg board: two streets of holes, a red and a blue peg.
    canvas.paint(wood, *_rounded_box(0.5, 0.79, 0.74, 0.17, 0.05))
    for street, y in enumerate((0.75, 0.83)):
        for i in range(9):
            x = 0.2 + i * 0.075
            pegged = (street, i) in ((0, 6), (1, 4))
            colour = (red if street == 0 else blue) if pegged else hole
            canvas.paint(colour, *_circle(x, y, 0.026 if pegged else 0.014))
    return canvas.png()


def app_icons() -> dict[str, bytes]:
    """``icons/icon-<size>.png`` for each size in ``ICON_SIZES`` (cached by drawing code)."""
    import inspect

    code = "".join(
        inspect.getsource(f) for f in (draw_icon, Canvas, _rounded_box, _circle, _diamond, _png)
    )
    key = short_hash({"code": code.encode(), "colours": THEME_COLOUR.encode()})
    return {
        f"icons/icon-{size}.png": cached_output(
            CACHE / "icons" / f"icon-{size}-{key}.png", partial(draw_icon, size)
        )
        for size in ICON_SIZES
    }


def web_manifest() -> bytes:
    """The web app manifest (installable: name, icons, start URL, standalone)."""
    manifest = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": "Cribbage against the computer, in your browser, online or off.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"}
            for size in ICON_SIZES
        ],
    }
    return json.dumps(manifest, indent=1).encode()


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


def offline_files(site: dict[str, bytes]) -> dict[str, bytes]:
    """The icons, the web app manifest and the service worker for ``site``."""
    extra = {**app_icons(), "manifest.webmanifest": web_manifest()}
    return {**extra, "sw.js": service_worker({**site, **extra})}


def build(quiet: bool = False) -> Path:
    """Assemble dist/ and return its path."""
    vendor: dict[str, dict[str, bytes]] = {}
    for pin in PINS:
        files = extract(pin, fetch_tarball(pin))
        if pin.key == "pyodide":
            pyodide_pin, stock = pin, dict(files)
            files["python_stdlib.zip"] = precompiled_stdlib(pin, stock)
            files["pyodide-lock.json"] = lock_without_packages(stock["pyodide-lock.json"])
        vendor[pin.key] = files
    dirs = {
        f"{pin.key.upper()}_DIR": f"{pin.key}-{pin.version}-{short_hash(vendor[pin.key])}"
        for pin in PINS
    }
    engine = engine_archive(precompiled_engine(pyodide_pin, stock, engine_zip()))
    engine_name = f"cribbage-{short_hash({'engine': engine})}.tar.gz"
    placeholders = {**dirs, "ENGINE_ARCHIVE": engine_name}

    site: dict[str, bytes] = {engine_name: engine}
    for pin in PINS:
        for name, data in vendor[pin.key].items():
            site[f"{dirs[pin.key.upper() + '_DIR']}/{name}"] = data
    for path in sorted(WEB.rglob("*")):
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and path not in (ENGINE_ENTRY, SW_TEMPLATE)
            and LANG_SOURCES[1] not in path.parents
        ):
            data = path.read_bytes()
            if path.suffix in TEMPLATED:
                text = data.decode()
                for key, value in placeholders.items():
                    text = text.replace("{{" + key + "}}", value)
                data = text.encode()
            name = path.name  # the site is flat: web/<role>/<file> is served as /<file>
            if name in site:
                raise BuildError(f"two files would be served as {name}")
            site[name] = data
    for module in SHARED_MODULES:  # the UI renders words as the engine does
        site[module.name] = module.read_bytes()
    site.update(language_files())
    site.update(site_configs(dirs))
    site.update(offline_files(site))

    DIST.mkdir(exist_ok=True)
    for name, data in site.items():
        write_if_changed(DIST / name, data)
    remove_stale(set(site))
    if not quiet:
        total = sum(len(d) for d in site.values())
        print(
            f"built {DIST.relative_to(ROOT)}/: {len(site)} files, {total / 1e6:.1f} MB",
            file=sys.stderr,
        )
    return DIST


def remove_stale(keep: set[str]) -> None:
    """Delete files (and emptied dirs) in dist/ that the build did not write."""
    for path in sorted(DIST.rglob("*"), reverse=True):
        rel = path.relative_to(DIST).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


# --- serving -----------------------------------------------------------------

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

    def send_head(self):  # type: ignore[no-untyped-def]
        path = self.file_path()
        if path is not None and self.etag(path) in (self.headers.get("If-None-Match") or ""):
            self.send_response(304)
            self.end_headers()
            return None
        return super().send_head()

    def end_headers(self) -> None:
        path = self.file_path()
        if path is not None:
            self.send_header("ETag", self.etag(path))
            self.send_header("Cache-Control", cache_control(self.path.split("?")[0]))
            self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A threading server that stays quiet when a browser drops a connection."""

    daemon_threads = True
    verbose = False

    def handle_error(self, request, client_address):  # type: ignore[no-untyped-def]
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


def cmd_serve(port: int) -> int:
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


# --- finding a browser and testing -------------------------------------------

SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
BROWSER_ENV = "CRIBBAGE_BROWSER"  # "playwright" or a path to a Chromium executable

# How the tests and benchmarks start Chromium here (DESIGN.md): as root, with no
# GPU, and without the background connections a closed network refuses.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL_HINT = (
    "no browser for the browser tests: run `playwright install chromium`, or install Chromium "
    "(Debian: apt-get install -y chromium), or set CRIBBAGE_BROWSER to a Chromium executable"
)


def playwright_chromium() -> str | None:
    """The path of Playwright's own Chromium if it is installed, else None."""
    probe = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p: print(p.chromium.executable_path)"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = done.stdout.strip()
    return path if done.returncode == 0 and path and os.path.exists(path) else None


def system_chromium() -> str | None:
    """A system Chromium, if one is installed."""
    for path in SYSTEM_CHROMIUM:
        if os.access(path, os.X_OK):
            return path
    return None


def install_debian_chromium() -> str | None:
    """Install Debian's chromium when we are root on Debian; return its path or None."""
    if (
        os.geteuid() != 0
        or not Path("/etc/debian_version").exists()
        or shutil.which("apt-get") is None
    ):
        return None
    print("installing Debian's chromium for the browser tests", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for args in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        if subprocess.run(args, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            return None
    return system_chromium()


def find_browser(install: bool = False) -> str | None:
    """``"playwright"`` for Playwright's own browser, a Chromium path, or None.

    Order: $CRIBBAGE_BROWSER, Playwright's browser, a system Chromium, then
    (only with ``install``) Debian's chromium installed with apt-get.
    """
    chosen = os.environ.get(BROWSER_ENV)
    if chosen:
        return chosen
    if playwright_chromium():
        return "playwright"
    return system_chromium() or (install_debian_chromium() if install else None)


def ensure_test_requirements() -> bool:
    """Install the test extra (pytest-playwright and friends) if it is missing."""
    try:
        import pytest_playwright  # noqa: F401
    except ImportError:
        print('installing the test requirements: pip install -e ".[test]"', file=sys.stderr)
        command = [sys.executable, "-m", "pip", "install", "--quiet", "-e", ".[test]"]
        if subprocess.call(command, cwd=ROOT) != 0:
            print('could not install them: run pip install -e ".[test]"', file=sys.stderr)
            return False
    return True


def cmd_test(args: list[str]) -> int:
    """Build, find a browser, then run the whole suite with pytest."""
    if not ensure_test_requirements():
        return 2
    build()
    browser = find_browser(install=True)
    if browser is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    env = {**os.environ, BROWSER_ENV: browser}
    return subprocess.call([sys.executable, "-m", "pytest", *args], cwd=ROOT, env=env)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    sub.add_parser(
        "test", help="build, find a browser and run the whole test suite", add_help=False
    )
    if argv[:1] == ["test"]:
        command, rest = "test", argv[1:]
    else:
        ns = parser.parse_args(argv)
        command, rest = ns.command, []
    try:
        if command == "test":
            return cmd_test(rest)
        if command == "serve":
            return cmd_serve(ns.port)
        build()
        return 0
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
