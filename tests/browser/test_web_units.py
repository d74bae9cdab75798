"""Browser-free tests of the site's Python: the build (sitebuild), the UI's pure module and
the engine worker's protocol, all under CPython; and the engine worker's snapshot reader
(JS) under Node."""

from __future__ import annotations

import doctest
import importlib.util
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sitebuild import pins  # noqa: E402
from sitebuild.assemble import build  # noqa: E402
from sitebuild.common import BuildError  # noqa: E402
from sitebuild.pins import Pin, fetch_tarball  # noqa: E402
from sitebuild.serve import serve_in_thread  # noqa: E402


def _web_file(name: str) -> Path:
    """The one source file called ``name`` in web/'s role folders."""
    (path,) = (ROOT / "web").glob(f"*/{name}")
    return path


def load_web(name: str) -> ModuleType:
    """Import web/<role>/<name>.py as a module (web/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"web_{name}", _web_file(f"{name}.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shell = load_web("shell")


@pytest.mark.parametrize("module", [shell], ids=["shell"])  # sitebuild's run by testpaths
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module, extraglobs={"words": shell.Words()}).failed == 0


def engine_offer() -> dict:
    """The levels and rule options as the engine's hello states them."""
    from cribbage.protocol import Session

    hello = json.loads(Session().call("hello"))["result"]
    return {"levels": hello["levels"], "options": hello["options"]}


def test_the_example_offer_is_the_engines() -> None:
    assert shell.EXAMPLE_OFFER == engine_offer()


def test_settings_survive_any_form_values() -> None:
    settings = shell.settings_from_form(
        {"players": "9", "target": "x", "skunk": "?", "speed": "fast"}, engine_offer()
    )
    assert settings["rules"] == {
        "players": 2,
        "target": 121,
        "skunk": "acc",
        "manual_counting": False,
        "muggins": False,
        "manual_pegging": False,
        "exact_finish": False,
        "cards": 6,
    }
    assert settings["speed"] == 1.0


def test_integrity_mismatch_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pins, "CACHE", tmp_path)
    pin = Pin("x", "x", "1.0.0", "sha512-AAAA", ("a.js",))
    pin.tarball.parent.mkdir(parents=True)
    pin.tarball.write_bytes(b"not the pinned tarball")
    with pytest.raises(BuildError, match="integrity mismatch") as error:
        fetch_tarball(pin)
    assert "\n" not in str(error.value)


def test_build_is_complete_and_served_with_caching_headers() -> None:
    dist = build(quiet=True)
    worker_script = (dist / "engine-worker.mjs").read_text()
    assert "{{" not in worker_script and "http" not in worker_script
    (engine_archive,) = dist.glob("cribbage-*.tar.gz")
    assert f'"./{engine_archive.name}"' in worker_script
    assert not (dist / "engine.json").exists() and not (dist / "bridge.py").exists()
    html = (dist / "index.html").read_text()
    ui = json.loads(html.split("<script type=\"mpy\" src=\"./main.py\" config='")[1].split("'")[0])
    assert sorted(ui["files"]) == ["./dom.py", "./stored.py"]  # main.py's first imports
    later = json.loads((dist / "table-modules.json").read_text())
    assert "shell.py" in later and "tablegame.py" in later and "bridge.py" not in later
    assert (dist / "shell.py").is_file() and (dist / "main.py").is_file()
    # No address elsewhere: only the meta tag's name and the SVG namespace of the court
    # cards' figures, written in as data: URLs (a namespace, never fetched).
    named = html.replace("http-equiv", "").replace("http://www.w3.org/2000/svg", "")
    assert "{{" not in html and "http" not in named

    server, url = serve_in_thread(dist)
    try:
        wasm = next(dist.glob("pyodide-*/pyodide.asm.wasm")).relative_to(dist).as_posix()
        with urllib.request.urlopen(url + wasm) as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert "immutable" in response.headers["Cache-Control"]
        with urllib.request.urlopen(url) as response:
            assert response.headers["Cache-Control"] == "no-cache"
            etag = response.headers["ETag"]
        # What authors' pages on other origins load (docs/embedding.md): every file may
        # be read from another origin; the wheel named by embed.json is cached for good.
        with urllib.request.urlopen(url + "embed.json") as response:
            embed = json.loads(response.read())
            assert response.headers["Cache-Control"] == "no-cache"
        for shared in ("", wasm, "elements.mjs", "cribbage-0.1.0-py3-none-any.whl",
                       embed["wheel"], embed["pyscript"], embed["pyodide"]):
            with urllib.request.urlopen(url + shared) as response:
                assert response.headers["Access-Control-Allow-Origin"] == "*"
        with urllib.request.urlopen(url + embed["wheel"]) as response:
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert response.read() == (dist / "cribbage-0.1.0-py3-none-any.whl").read_bytes()
        request = urllib.request.Request(url, headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as not_modified:
            urllib.request.urlopen(request)
        assert not_modified.value.code == 304
    finally:
        server.shutdown()
        server.server_close()


def test_engine_archive_holds_the_package_and_the_worker_entry_with_bytecode() -> None:
    import tarfile

    dist = build(quiet=True)

    def names_in(pattern: str) -> set[str]:
        (path,) = dist.glob(pattern)
        with tarfile.open(path) as tar:
            assert all(member.isfile() for member in tar.getmembers())  # what the worker reads
            return set(tar.getnames())

    # For a start without the snapshot, every module: bytecode only, imported without
    # its source (as the stdlib's), so no sources travel.
    whole = names_in("engine-whole-*.tar.gz")
    assert {"bridge.pyc", "cribbage/__init__.pyc", "cribbage/players/master.pyc"} <= whole
    assert not any(name.endswith(".py") or "__pycache__" in name for name in whole)
    # compiled as with -OO: the docstrings (and asserts) left out, the code kept
    with tarfile.open(next(dist.glob("engine-whole-*.tar.gz"))) as tar:
        protocol = tar.extractfile("cribbage/protocol.pyc").read()  # type: ignore[union-attr]
    assert b"bad-request" in protocol and b"The JSON protocol" not in protocol
    # Beside the snapshot (it holds every module the page imports), only the data.
    beside = names_in("cribbage-*.tar.gz")
    assert "cribbage/data/win_tables.json" in beside and "cribbage/lang/ja.json" in beside
    assert beside <= whole and not any(name.endswith(".pyc") for name in beside)


def test_stdlib_is_shipped_precompiled() -> None:
    import zipfile

    dist = build(quiet=True)
    with zipfile.ZipFile(next(dist.glob("pyodide-*/python_stdlib-start.zip"))) as zf:
        names = zf.namelist()
        json_init = zf.read("json/__init__.pyc")
    assert "json/__init__.pyc" in names and not any(n.endswith(".py") for n in names)
    # no docstrings in memory (-OO): the snapshot is 0.2 MB lighter as brotli
    assert b"JSONDecodeError" in json_init and b"JavaScript Object Notation" not in json_init
    # cut to what the engine uses: no tkinter, no email, no sqlite3
    assert not any(n.startswith(("tkinter/", "email/", "sqlite3/")) for n in names)
    # beside the snapshot: only what the snapshot does not hold already
    with zipfile.ZipFile(next(dist.glob("pyodide-*/python_stdlib-snapshot.zip"))) as zf:
        lazy = zf.namelist()
    assert "encodings/latin_1.pyc" in lazy and "json/__init__.pyc" not in lazy
    # under the usual name, for PyScript's pages: the whole stdlib, stored for brotli
    with zipfile.ZipFile(next(dist.glob("pyodide-*/python_stdlib.zip"))) as zf:
        infos = zf.infolist()
    names = {info.filename for info in infos}
    assert {"email/parser.pyc", "statistics.pyc", "json/__init__.pyc"} <= names
    assert all(i.compress_type == zipfile.ZIP_STORED for i in infos)


def test_stdlib_bytecode_runs_without_docstrings_and_with_first_lines_only() -> None:
    """The start stdlib, run by the pinned Pyodide under Node: as compiled (-OO, each
    function's location table cut to its first line), it still imports and formats
    tracebacks, whose stdlib frames give the line of their ``def``."""
    import io
    import zipfile

    from sitebuild.precompile import PYODIDE_RUNTIME, run_in_pyodide

    dist = build(quiet=True)
    (folder,) = dist.glob("pyodide-*/")
    runtime = {name: (folder / name).read_bytes() for name in PYODIDE_RUNTIME}
    runtime["python_stdlib.zip"] = (folder / "python_stdlib-start.zip").read_bytes()
    code = """
import json, traceback, zipfile
try:
    json.loads("{")
except ValueError as error:
    frames = traceback.extract_tb(error.__traceback__)
    text = "".join(traceback.format_exception(error))
lines = {line for _, line, _, _ in json.decoder.JSONDecoder.decode.__code__.co_positions()}
def codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, type(code)):
            yield from codes(const)
import sys, types
seen = set()
def functions(namespace):
    for value in list(namespace.values()):
        value = getattr(value, "__func__", value)  # staticmethod, classmethod
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, types.FunctionType):
            yield value
        elif isinstance(value, type):
            yield from functions(vars(value))  # its methods
every = [code for module in list(sys.modules.values())
         for f in functions(getattr(module, "__dict__", {}))
         for code in codes(f.__code__)]
# every instruction has a position, and each one is its function's first line
short = [c.co_qualname for c in every
         if len(list(c.co_positions())) != len(c.co_code) // 2
         or any(line != c.co_firstlineno for _, line, _, _ in c.co_positions()
                if c.co_filename.startswith("/lib/"))]
found = {"doc": json.__doc__, "lines": sorted(lines), "text": text,
         "checked": len(every), "short": short[:5],
         "first": json.decoder.JSONDecoder.decode.__code__.co_firstlineno,
         "frames": [(f.filename.rsplit("/", 1)[-1], f.lineno) for f in frames]}
with zipfile.ZipFile("/tmp/out.zip", "w") as out:
    out.writestr("found.json", json.dumps(found))
"""
    out = run_in_pyodide(runtime, code, b"", "reading the compiled stdlib")
    found = json.loads(zipfile.ZipFile(io.BytesIO(out)).read("found.json"))
    assert found["doc"] is None
    assert found["checked"] > 1000 and found["short"] == []
    assert found["lines"] == [found["first"]]  # every instruction: the def's line
    assert ("decoder.py", found["first"]) in [tuple(f) for f in found["frames"]]
    assert "JSONDecodeError: Expecting property name" in found["text"]


def test_precompressed_variants_are_served_by_accept_encoding() -> None:
    """name.br / name.gz beside the file; the server sends what the browser accepts."""
    import gzip

    dist = build(quiet=True)
    wasm = next(dist.glob("pyodide-*/pyodide.asm.wasm"))
    original = wasm.read_bytes()
    assert wasm.with_name(wasm.name + ".br").exists() and wasm.with_name(wasm.name + ".gz").exists()
    assert not any(dist.rglob("*.png.br")) and not any(dist.glob("cribbage-*.tar.gz.gz"))
    path = wasm.relative_to(dist).as_posix()
    server, url = serve_in_thread(dist)

    def get(headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(url + path, headers=headers)
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), b""

    try:
        tags = {}
        for accept, coding, suffix in (("gzip, deflate, br, zstd", "br", ".br"),
                                       ("gzip;q=1, br;q=0", "gzip", ".gz"),
                                       ("identity", None, "")):
            status, headers, body = get({"Accept-Encoding": accept})
            assert status == 200 and headers.get("Content-Encoding") == coding
            assert headers["Vary"] == "Accept-Encoding"
            assert headers["Content-Type"] == "application/wasm"
            assert body == wasm.with_name(wasm.name + suffix).read_bytes()
            assert int(headers["Content-Length"]) == len(body)
            tags[coding] = headers["ETag"]
            # each encoding revalidates against its own ETag
            assert get({"Accept-Encoding": accept, "If-None-Match": tags[coding]})[0] == 304
        assert len(set(tags.values())) == 3
        assert gzip.decompress(get({"Accept-Encoding": "gzip"})[2]) == original
        assert get({"Accept-Encoding": "gzip", "If-None-Match": tags["br"]})[0] == 200
        since = get({})[1]["Last-Modified"]
        assert get({"If-Modified-Since": since})[0] == 200  # a date alone never makes a 304
    finally:
        server.shutdown()
        server.server_close()


def test_the_engine_exercise_runs_under_cpython() -> None:
    """sitebuild/exercise.py (run inside Pyodide by the build) plays the whole protocol."""
    import runpy

    sys.path.insert(0, str(ROOT / "web" / "engine"))
    try:
        exercise = runpy.run_path(str(ROOT / "sitebuild" / "exercise.py"), run_name="exercise")
        found = exercise["run"]()
    finally:
        sys.path.remove(str(ROOT / "web" / "engine"))
    assert "cribbage.players.levels" in found["engine"] and "cribbage.coach" in found["engine"]


UNPACK_UNDER_NODE = r"""
import { readFileSync, writeFileSync } from "node:fs";
const [worker, packedPath, freshPath, chunking, out] = process.argv.slice(2);
const text = readFileSync(worker, "utf8");
const begin = text.indexOf("// --- snapshotUnpacker");
const end = text.indexOf("// --- end snapshotUnpacker");
const { snapshotUnpacker } = new Function(
  `${text.slice(begin, end)}\nreturn { snapshotUnpacker };`)();
const packed = new Uint8Array(readFileSync(packedPath));
const fresh = new Uint8Array(readFileSync(freshPath));
let memory = null;
let result;
try {
  const unpacker = snapshotUnpacker("the snapshot", (made) => { memory = made; });
  // chunk sizes: "1,7,64000": cycled through until the file is fed
  const sizes = chunking.split(",").map(Number);
  for (let at = 0, i = 0; at < packed.length; i++) {
    const size = sizes[i % sizes.length];
    unpacker.feed(packed.slice(at, at + size)); // a chunk of its own, as a stream gives
    at += size;
  }
  unpacker.finish()({ buffer: fresh.buffer });
  result = memory;
} catch (error) {
  result = new TextEncoder().encode(`error: ${error.message}`);
}
writeFileSync(out, result);
"""


def unpack_under_node(tmp: Path, packed: bytes, fresh: bytes, chunking: str) -> bytes:
    """The worker's own snapshot reader (engine-worker.mjs snapshotUnpacker) run by Node."""
    import shutil
    import subprocess

    if shutil.which("node") is None:
        pytest.skip("node is needed to run the worker's reader")
    (tmp / "packed").write_bytes(packed)
    (tmp / "fresh").write_bytes(fresh)
    (tmp / "run.mjs").write_text(UNPACK_UNDER_NODE)
    subprocess.run(["node", str(tmp / "run.mjs"), str(_web_file("engine-worker.mjs")),
                    str(tmp / "packed"), str(tmp / "fresh"), chunking, str(tmp / "out")],
                   check=True, timeout=120)
    return (tmp / "out").read_bytes()


def test_the_workers_snapshot_reader_rebuilds_the_snapshot_exactly(tmp_path: Path) -> None:
    """The worker reads the packed snapshot as it streams in, in chunks of any size
    (a record's header may be cut between two): it must rebuild exactly what
    sitebuild.sparse packed, as unpack_memory does, and refuse a damaged file."""
    import random

    from sitebuild.sparse import MIN_GAP, pack_memory, unpack_memory

    rng = random.Random(7)
    static = bytes(rng.randrange(256) for _ in range(3000))
    memory = bytearray(static + bytes(2 * MIN_GAP) + bytes(rng.randrange(256) for _ in range(5000)))
    for at in range(0, 3000, 97):  # the program changed some static data since
        memory[at] ^= 0x5A
    memory[9000:9000 + MIN_GAP] = bytes(MIN_GAP)
    snapshot = b"pyodide header!!" + bytes(memory)
    packed = pack_memory(snapshot, 16, [(0, static)])
    expected = unpack_memory(packed, static)
    assert expected == snapshot
    for chunking in ("1", "3,5,7,11", "8,16,4096", "65536"):
        assert unpack_under_node(tmp_path, packed, static, chunking) == expected, chunking
    for damaged, reason in ((packed[:-3], "is cut short"), (b"X" + packed[1:], "not a packed"),
                            (packed[:16], "")):
        found = unpack_under_node(tmp_path, damaged, static, "4096")
        if reason:
            assert found.startswith(b"error: ") and reason.encode() in found, found[:80]
        else:  # the header alone: a snapshot of zeros, as unpack_memory makes it
            assert found == unpack_memory(damaged, static)


def test_the_workers_snapshot_reader_rebuilds_the_builds_snapshot(tmp_path: Path) -> None:
    """The build's own packed snapshot (28,000 records), read by the worker's reader in
    the chunk sizes a network and the offline copy give, equals unpack_memory's."""
    import hashlib

    from sitebuild.sparse import data_segments, fresh_memory, unpack_memory

    dist = build(quiet=True)
    (packed_path,) = dist.glob("cribbage-*.snapshot")
    (wasm_path,) = dist.glob("pyodide-*/pyodide.asm.wasm")
    fresh = fresh_memory(data_segments(wasm_path.read_bytes()))
    packed = packed_path.read_bytes()
    expected = hashlib.sha256(unpack_memory(packed, fresh)).hexdigest()
    for chunking in ("65536", "16384,7,1000"):
        found = unpack_under_node(tmp_path, packed, fresh, chunking)
        assert hashlib.sha256(found).hexdigest() == expected, chunking
