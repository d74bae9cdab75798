"""Trimming Pyodide's wasm (sitebuild/trimwasm.py): which exports go, and the built site's wasm."""

from __future__ import annotations

import pytest

from sitebuild.assemble import page_js
from sitebuild.common import DIST
from sitebuild.trimwasm import ASSIGN_EXPORTS, FUNCTION, exports, unused_function_exports

GLOBAL = 3


def module_with_exports(entries: list[tuple[str, int]]) -> bytes:
    """A wasm module holding only an export section (names under 128 bytes)."""
    body = bytes([len(entries)]) + b"".join(
        bytes([len(name)]) + name.encode() + bytes([kind, index])
        for index, (name, kind) in enumerate(entries)
    )
    return b"\0asm\1\0\0\0" + bytes([7, len(body)]) + body


def test_exports_are_read_with_their_kinds() -> None:
    wasm = module_with_exports([("PyList_New", FUNCTION), ("_Py_NoneStruct", GLOBAL)])
    assert exports(wasm) == [("PyList_New", FUNCTION), ("_Py_NoneStruct", GLOBAL)]


def test_only_functions_no_js_names_are_dropped() -> None:
    wasm = module_with_exports([("used", FUNCTION), ("called", FUNCTION), ("spare", FUNCTION),
                                ("data", GLOBAL)])
    js = 'Module._used(1); ccall("called")'
    assert unused_function_exports(wasm, [js]) == ["spare"]


def test_copying_every_export_out_of_the_instance_is_not_a_use() -> None:
    wasm = module_with_exports([("kept", FUNCTION), ("copied", FUNCTION)])
    js = ('var _kept,_copied;' + ASSIGN_EXPORTS
          + '_kept=Module["_kept"]=wasmExports["kept"];'
          + '_copied=Module["_copied"]=wasmExports["copied"]}_kept();')
    assert unused_function_exports(wasm, [js]) == ["copied"]


def test_the_site_wasm_keeps_every_export_pyodides_js_names() -> None:
    wasm_files = sorted(DIST.glob("pyodide-*/pyodide.asm.wasm"))
    if not wasm_files:
        pytest.skip("no built site (python build.py)")
    js = page_js({name: (wasm_files[0].parent / name).read_bytes()
                  for name in ("pyodide.asm.mjs", "pyodide.mjs")})
    names = exports(wasm_files[0].read_bytes())
    functions = [name for name, kind in names if kind == FUNCTION]
    assert 100 < len(functions) < 1000  # of 7,415 in the stock wasm
    assert unused_function_exports(wasm_files[0].read_bytes(), js) == []
