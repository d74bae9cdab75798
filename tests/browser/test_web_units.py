"""Browser-free tests of the site's Python: the build (sitebuild), the UI's pure module and
the engine worker's protocol, all under CPython."""

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
    ui = json.loads((dist / "ui.json").read_text())
    assert "./shell.py" in ui["files"] and "./bridge.py" not in ui["files"]
    html = (dist / "index.html").read_text()
    assert "{{" not in html and "http" not in html.replace("http-equiv", "")

    server, url = serve_in_thread(dist)
    try:
        wasm = next(dist.glob("pyodide-*/pyodide.asm.wasm")).relative_to(dist).as_posix()
        with urllib.request.urlopen(url + wasm) as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert "immutable" in response.headers["Cache-Control"]
        with urllib.request.urlopen(url) as response:
            assert response.headers["Cache-Control"] == "no-cache"
            etag = response.headers["ETag"]
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
    with tarfile.open(next(dist.glob("cribbage-*.tar.gz"))) as tar:
        names = set(tar.getnames())
        assert all(member.isfile() for member in tar.getmembers())  # what the worker reads
    assert {"bridge.py", "cribbage/__init__.py"} <= names
    assert "__pycache__/bridge.cpython-314.pyc" in names
    assert "cribbage/__pycache__/__init__.cpython-314.pyc" in names


def test_stdlib_is_shipped_precompiled() -> None:
    import zipfile

    dist = build(quiet=True)
    with zipfile.ZipFile(next(dist.glob("pyodide-*/python_stdlib.zip"))) as zf:
        names = zf.namelist()
    assert "json/__init__.pyc" in names and not any(n.endswith(".py") for n in names)
