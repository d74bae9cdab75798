"""Running the pinned Pyodide under Node: the stdlib and the engine compiled to bytecode.

Stock Pyodide ships its stdlib as 559 ``.py`` sources, which CPython compiles on
every page load; shipping them as sourceless ``.pyc`` roughly halves the
engine's cold start. The bytecode must come from the exact interpreter the page
runs (Python 3.14 inside the pinned Pyodide), so the pinned npm package itself
compiles it, under Node. Results are cached in ``.cache/``.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from sitebuild.common import CACHE, BuildError, cached_output, short_hash
from sitebuild.pins import Pin

PRECOMPILE_VERSION = "3"  # bump when the precompiled stdlib format changes

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

# Every stdlib module as a sourceless .pyc, compiled for the path it has in Pyodide,
# as with -OO (optimize=2): docstrings and asserts left out. Nothing the page runs
# reads a docstring, and the snapshot holds every module's objects: without them
# it is 0.2 MB smaller as brotli (docs/performance.md). Each function's
# location table is cut to its first line (the tracebacks' "line N" of a stdlib
# frame is the line of its ``def``; they show no stdlib source anyway): another
# 0.2 MB. The table stays valid: entries of up to 8 code units, each "no columns,
# line delta 0" (CPython's Objects/locations.md), so every instruction has a line.
STDLIB_TO_PYC = """
import importlib.util, marshal, zipfile
def first_line_only(code):
    consts = tuple(first_line_only(c) if isinstance(c, type(code)) else c
                   for c in code.co_consts)
    units = len(code.co_code) // 2
    table = bytes(b for at in range(0, units, 8) for b in (0xE8 | min(8, units - at) - 1, 0))
    return code.replace(co_linetable=table, co_consts=consts)
src = zipfile.ZipFile("/tmp/in.zip")
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, "/lib/python314.zip/" + info.filename, "exec", dont_inherit=True,
                           optimize=2)
            data = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(first_line_only(code))
            info = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
        info.compress_type = zipfile.ZIP_DEFLATED
        dst.writestr(info, data)
"""

# The engine keeps its sources (for tracebacks) and gains __pycache__/*.pyc
# marked "unchecked hash", which Python uses without looking at the source.
# Compiled as with -OO, like the stdlib, but written under the plain name that
# Python (not started with -OO) imports; the engine's asserts only narrow types.
ENGINE_ADD_PYC = """
import importlib.util, py_compile, zipfile
from pathlib import Path
zipfile.ZipFile("/tmp/in.zip").extractall("/tmp/engine")
for source in sorted(Path("/tmp/engine").rglob("*.py")):
    py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)),
                       dfile="/home/pyodide/" + source.relative_to("/tmp/engine").as_posix(),
                       doraise=True, optimize=2,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as dst:
    for path in sorted(Path("/tmp/engine").rglob("*")):
        if path.is_file():
            name = path.relative_to("/tmp/engine").as_posix()
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(info, path.read_bytes())
"""

EXERCISE = Path(__file__).with_name("exercise.py")  # the engine's whole protocol, run once

# Always kept in the cut stdlib, whatever the probe saw: the codecs Python may
# look up by name at any time.
STDLIB_ALWAYS = ("encodings/",)

# Run in the pinned Pyodide under Node with the page's own files (the engine
# archive written from JS as the worker writes it):
#   probe     with the whole stdlib: import bridge and run the engine's whole
#             protocol (exercise.py): which modules does it import? Then, in a
#             second Pyodide, import bridge and those engine modules only: which
#             stdlib modules will the snapshot hold already?
#   snapshot  with the stdlib the snapshot needs: import bridge and the engine's
#             modules, take a memory snapshot, then run exercise.py (a module
#             missing from that stdlib fails the build)
ENGINE_IN_PYODIDE_JS = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
const [indexDir, archive, exercise, mode, modules, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(indexDir + "/pyodide.mjs").href);
const tar = new Uint8Array(gunzipSync(readFileSync(archive)));
const text = (start, length) => {
  const bytes = tar.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
};
async function engine(makeSnapshot) {
  const py = await loadPyodide({ indexURL: indexDir + "/", _makeSnapshot: makeSnapshot });
  for (let offset = 0; offset + 512 <= tar.length && tar[offset] !== 0; ) {
    const size = parseInt(text(offset + 124, 12).trim() || "0", 8);
    const prefix = text(offset + 345, 155);
    const path = "/home/pyodide/" + (prefix ? prefix + "/" : "") + text(offset, 100);
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    py.FS.writeFile(path, tar.slice(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  py.runPython("import bridge");
  return py;
}
const importAll = (names) =>
  `import gc, importlib\nfor name in ${JSON.stringify(names)}: importlib.import_module(name)\ngc.collect()`;
const stdlibInUse = `import json, sys
ZIP = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
origins = [getattr(getattr(m, "__spec__", None), "origin", None) or "" for m in list(sys.modules.values())]
json.dumps(sorted(o[len(ZIP):] for o in origins if o.startswith(ZIP)))`;
async function main() {
if (mode === "probe") {
  const py = await engine(false);
  py.runPython(readFileSync(exercise, "utf8"));
  const found = JSON.parse(new TextDecoder().decode(py.FS.readFile("/tmp/modules.json")));
  const fresh = await engine(false);
  fresh.runPython(importAll(found.engine));
  found.snapshot = JSON.parse(fresh.runPython(stdlibInUse));
  writeFileSync(out, JSON.stringify(found));
} else {
  const py = await engine(true);
  py.runPython(importAll(JSON.parse(readFileSync(modules, "utf8")).engine));
  // Started with the whole start stdlib; the page restores the snapshot beside
  // the one that holds only what the snapshot lacks: swapped in now, and
  // zipimport's caches of the other one dropped.
  const zipPath = py.runPython("import sys; f'/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip'");
  if (!py.runPython("import sys; sys.path").toJs().includes(zipPath)) throw new Error(`${zipPath} not on sys.path`);
  py.FS.writeFile(zipPath, readFileSync(indexDir + "/lazy.zip"));
  py.runPython("import sys, zipimport\n" +
    "zipimport._zip_directory_cache.clear()\nsys.path_importer_cache.clear()");
  writeFileSync(out, py.makeMemorySnapshot());
  py.runPython(readFileSync(exercise, "utf8"));
}
}
// One short line for the build's error (Node's own report of a throw from
// Pyodide's minified code is a 1 MB line, cut off in a pipe).
main().catch((error) => {
  process.stderr.write(`${String(error && error.message ? error.message : error).slice(-2000)}\n`);
  process.exitCode = 1;
});
"""

PYODIDE_RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)



def run_under_node(what: str, script: str, files: dict[str, bytes], args: list[str],
                   output: str) -> bytes:
    """Run ``script`` with Node in a scratch folder holding ``files``; ``args`` follow
    the folder on its command line. Returns the file ``output`` it wrote there.
    """
    if shutil.which("node") is None:
        raise BuildError(f"node is needed for {what}: install Node.js")
    print(f"{what} under Node", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "run.mjs").write_text(script)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        done = subprocess.run(
            ["node", "run.mjs", tmp, *args], cwd=tmp, capture_output=True, text=True
        )
        result = folder / output
        if done.returncode != 0 or not result.exists():  # a promise left pending exits with 0
            lines = [line for line in done.stderr.strip().splitlines() if len(line) < 400]
            print("\n".join(lines[-20:]), file=sys.stderr)
            raise BuildError(f"{what} failed: {(lines or ['no output'])[-1]}")
        return result.read_bytes()


def pyodide_files(runtime: dict[str, bytes]) -> dict[str, bytes]:
    """The files of ``runtime`` that loadPyodide reads from its folder."""
    return {name: runtime[name] for name in PYODIDE_RUNTIME}


def run_in_pyodide(stock: dict[str, bytes], code: str, data: bytes, what: str) -> bytes:
    """Run ``code`` in the pinned Pyodide under Node on ``data`` (a zip); return its output zip.

    ``stock`` holds Pyodide's files as the tarball has them (the stock stdlib).
    """
    files = {**pyodide_files(stock), "code.py": code.encode(), "in.zip": data}
    return run_under_node(what, RUN_IN_PYODIDE_JS, files,
                          ["code.py", "in.zip", "out.zip"], "out.zip")


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


def run_engine_in_pyodide(
    runtime: dict[str, bytes], archive: bytes, mode: str, modules: bytes, what: str,
    lazy: bytes = b"",
) -> bytes:
    """Run ``ENGINE_IN_PYODIDE_JS`` in ``mode`` on the page's own Pyodide files; its output.

    ``runtime["python_stdlib.zip"]`` is the stdlib Python starts with;
    ``lazy``, the one beside the snapshot.
    """
    files = {**pyodide_files(runtime), "exercise.py": EXERCISE.read_bytes(),
             "engine.tar.gz": archive, "modules.json": modules, "lazy.zip": lazy}
    args = ["engine.tar.gz", "exercise.py", mode, "modules.json", "out"]
    return run_under_node(what, ENGINE_IN_PYODIDE_JS, files, args, "out")


def engine_modules(pin: Pin, runtime: dict[str, bytes], archive: bytes) -> bytes:
    """JSON: the stdlib files and engine modules the engine's whole protocol imports (cached)."""
    key = short_hash(
        {"stdlib": runtime["python_stdlib.zip"], "engine": archive, "code": _code_key()}
    )
    path = CACHE / "stdlib" / f"modules-{pin.version}-{key}.json"
    return cached_output(
        path,
        lambda: run_engine_in_pyodide(
            runtime, archive, "probe", b"{}", "finding the modules the engine imports"
        ),
    )


def cut_stdlib(stdlib: bytes, modules: bytes, snapshot: bool) -> bytes:
    """The stdlib zip cut to what the engine needs (and ``STDLIB_ALWAYS``), stored.

    For a normal start (``snapshot`` false): every file Pyodide's start and the
    engine's whole protocol import. Beside the snapshot: only those the
    snapshot does not hold already (imported lazily after it is restored).
    Stored, not deflated: Python reads each module without inflating it, and
    the server's brotli compresses across files better than zip's deflate.
    """
    found = json.loads(modules)
    keep = set(found["stdlib"]) - (set(found["snapshot"]) if snapshot else set())
    return stored_zip(stdlib, lambda name: name in keep or name.startswith(STDLIB_ALWAYS))


def stored_zip(data: bytes, keep: Callable[[str], bool] = lambda name: True) -> bytes:
    """The entries of the zip ``data`` that ``keep`` accepts, stored (not deflated)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if keep(info.filename):
                entry = zipfile.ZipInfo(info.filename, info.date_time)
                entry.compress_type = zipfile.ZIP_STORED
                dst.writestr(entry, src.read(info))
    return out.getvalue()


def engine_snapshot(
    pin: Pin, runtime: dict[str, bytes], archive: bytes, modules: bytes, lazy: bytes
) -> bytes:
    """A Pyodide memory snapshot with the engine imported, for ``runtime``'s exact files (cached).

    Made by the pinned Pyodide under Node, started on ``runtime``'s stdlib
    (the start stdlib); the page restores it beside ``lazy``, the stdlib of
    the modules imported only later. The worker restores it instead of
    starting Python (and falls back to a normal start if Pyodide refuses it).
    """
    key = short_hash(
        {**pyodide_files(runtime), "engine": archive,
         "modules": modules, "lazy": lazy, "code": _code_key()}
    )
    path = CACHE / "snapshot" / f"engine-{pin.version}-{key}.snapshot"
    return cached_output(
        path,
        lambda: run_engine_in_pyodide(
            runtime, archive, "snapshot", modules, "taking the engine's memory snapshot", lazy
        ),
    )


def _code_key() -> bytes:
    return ENGINE_IN_PYODIDE_JS.encode() + EXERCISE.read_bytes() + repr(STDLIB_ALWAYS).encode()
