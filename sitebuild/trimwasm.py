"""Pyodide's wasm without the functions nothing on the page can call.

Pyodide is built to load C extensions (side modules) at run time, so its
wasm exports nearly every C function it holds (7,415 of them) for those to
link against. The page loads no side module (its lock file lists no
packages), so the only callers of the exports are Pyodide's own JS and our
worker. The build drops every function export that none of them names and
lets binaryen (a pinned npm package, run under Node) remove the functions no
remaining export, table slot or other function reaches: a tenth of the wasm.

The data segments, the function table and the globals stay exactly as they
were, so the memory snapshot's pointers and the packed snapshot's static
data (sitebuild/sparse.py) mean the same; the snapshot is taken on the
trimmed wasm, and the build's run of the engine's whole protocol on it
(sitebuild/exercise.py) fails the build if a function it needs was dropped.
"""

from __future__ import annotations

import json
import re

from sitebuild.common import CACHE, BuildError, cached_output, short_hash
from sitebuild.pins import BINARYEN, extract, fetch_tarball
from sitebuild.precompile import run_under_node
from sitebuild.sparse import leb128

# An export's kind: a function. Globals stay: Emscripten's JS reads every
# global export's value as the instance starts, so none may go missing.
FUNCTION = 0
EXPORT_SECTION = 7

# Reads the wasm, drops the exports named in drop.json, removes what is then
# unreachable and writes the result (binaryen's JS build, so Node suffices).
# The features are the ones Emscripten's wasm uses (checked: it must validate
# with them): with all of binaryen's, it writes encodings browsers lack.
TRIM_JS = r"""
import { readFileSync, writeFileSync } from "node:fs";
const binaryen = (await import("./binaryen.mjs")).default;
const F = binaryen.Features;
const module = binaryen.readBinary(readFileSync("in.wasm"));
module.setFeatures(F.MutableGlobals | F.NontrappingFPToInt | F.BulkMemory | F.BulkMemoryOpt |
  F.SignExt | F.ExceptionHandling | F.ReferenceTypes | F.Multivalue | F.CallIndirectOverlong);
if (!module.validate()) throw new Error("the wasm uses features the trimming does not allow");
for (const name of JSON.parse(readFileSync("drop.json", "utf8"))) module.removeExport(name);
module.runPasses(["remove-unused-module-elements"]);
if (!module.validate()) throw new Error("the trimmed wasm does not validate");
writeFileSync("out.wasm", module.emitBinary());
"""

# In pyodide.asm.mjs, every export is declared (`var _a,_b,...;`) and then
# copied out of the instance (`function assignWasmExports(wasmExports){...}`);
# neither is a use of the export.
ASSIGN_EXPORTS = "function assignWasmExports(wasmExports){"


def trimmed_wasm(wasm: bytes, js_sources: list[str]) -> bytes:
    """``wasm`` without the function exports no ``js_sources`` names, and what only they reached.

    Cached by the wasm, the exports dropped, the trimming code and binaryen's version.
    """
    drop = unused_function_exports(wasm, js_sources)
    script = TRIM_JS.encode()
    key = short_hash({"wasm": wasm, "drop": "\n".join(drop).encode(), "code": script,
                      "binaryen": BINARYEN.version.encode()})
    path = CACHE / "wasm" / f"pyodide.asm-{key}.wasm"
    return cached_output(path, lambda: run_binaryen(wasm, drop))


def run_binaryen(wasm: bytes, drop: list[str]) -> bytes:
    """``TRIM_JS`` under Node on ``wasm`` and the export names ``drop``."""
    binaryen = extract(BINARYEN, fetch_tarball(BINARYEN))["index.js"]
    files = {"binaryen.mjs": binaryen, "in.wasm": wasm,
             "drop.json": json.dumps(drop).encode()}
    out = run_under_node("trimming Pyodide's wasm", TRIM_JS, files, [], "out.wasm")
    if not out.startswith(b"\0asm"):
        raise BuildError("trimming Pyodide's wasm wrote no wasm module")
    return out


def unused_function_exports(wasm: bytes, js_sources: list[str]) -> list[str]:
    """The function exports of ``wasm`` that no JS source names (as ``X`` or ``_X``),
    sorted: those only a side module could have linked against."""
    named = set(re.findall(r"[A-Za-z0-9_$]+", "\n".join(uses_only(js) for js in js_sources)))
    return sorted(
        name for name, kind in exports(wasm)
        if kind == FUNCTION and name not in named and "_" + name not in named
    )


def uses_only(js: str) -> str:
    """``js`` without Emscripten's declaration and copying of every export, if it has them.

    >>> uses_only("var _f,_g;" + ASSIGN_EXPORTS + '_f=wasmExports["f"]}_g();')
    '}_g();'
    """
    start = js.find(ASSIGN_EXPORTS)
    if start < 0:
        return js
    declared = js.rfind("var ", 0, start)
    end = js.find("}", start)
    if declared < 0 or end < 0 or js[start - 1] != ";":
        raise BuildError("pyodide.asm.mjs: the export list is not where it was expected")
    return js[:declared] + js[end:]


def exports(wasm: bytes) -> list[tuple[str, int]]:
    """(name, kind) of each export of a wasm module (kind 0: a function)."""
    at = 8  # magic and version
    while at < len(wasm):
        section = wasm[at]
        size, at = leb128(wasm, at + 1)
        if section == EXPORT_SECTION:
            return read_exports(wasm[at:at + size])
        at += size
    return []


def read_exports(section: bytes) -> list[tuple[str, int]]:
    """The entries of an export section: a count, then name, kind byte and index each."""
    count, at = leb128(section, 0)
    found = []
    for _ in range(count):
        length, at = leb128(section, at)
        name = section[at:at + length].decode()
        kind = section[at + length]
        _, at = leb128(section, at + length + 1)
        found.append((name, kind))
    return found

