"""Running the pinned Pyodide under Node: the stdlib and the engine compiled to bytecode.

Stock Pyodide ships its stdlib as 559 ``.py`` sources, which CPython compiles on
every page load; shipping them as sourceless ``.pyc`` roughly halves the
engine's cold start. The bytecode must come from the exact interpreter the page
runs (Python 3.14 inside the pinned Pyodide), so the pinned npm package itself
compiles it, under Node. Results are cached in ``.cache/``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sitebuild.common import CACHE, BuildError, cached_output, short_hash
from sitebuild.pins import Pin

PRECOMPILE_VERSION = "1"  # bump when the precompiled stdlib format changes

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
    """Run ``code`` in the pinned Pyodide under Node on ``data`` (a zip); return its output zip.

    ``stock`` holds Pyodide's files as the tarball has them (the stock stdlib).
    """
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
