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

from sitebuild import assemble, common, icons, pins, serve  # noqa: E402
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
worker = load_web("bridge")


@pytest.mark.parametrize(
    "module",
    [shell, worker, common, pins, assemble, icons, serve],
    ids=["shell", "bridge", "common", "pins", "assemble", "icons", "serve"],
)
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


def call(name: str, payload: object = None) -> dict:
    return json.loads(getattr(worker, name)(json.dumps(payload if payload is not None else {})))


def test_protocol_plays_a_whole_game_and_round_trips_saves() -> None:
    state = call("new_game", {"seed": 5, "first_dealer": 1, "seat": 0})["result"]
    assert state["phase"] == "discard" and state["view"]["seat"] == 0
    legal = call("legal_moves")["result"]
    assert legal["player"] == state["current_player"] and all(
        m.startswith("discard") for m in legal["moves"]
    )
    saved = None
    for number in range(3000):
        result = call("computer_move", {"level": "beginner"})["result"]
        if number == 30:
            saved = call("save")["result"]["save"]
        if result["phase"] == "over":
            break
    assert result["outcome"]["winner"] in (0, 1) and max(result["scores"]) >= 121
    assert call("load", {"save": saved})["result"]["phase"] != "over"
    assert call("save")["result"]["save"] == saved


def test_apply_move_reports_the_events_it_caused() -> None:
    call("new_game", {"seed": 1, "first_dealer": 0})
    move = call("legal_moves")["result"]["moves"][0]
    result = call("apply_move", {"move": move})["result"]
    assert result["move"] == move and isinstance(result["events"], list)


@pytest.mark.parametrize(
    ("name", "payload", "kind"),
    [
        ("apply_move", {"move": "play ZZ"}, "illegal-move"),
        ("apply_move", {"move": "dance"}, "illegal-move"),
        ("apply_move", {}, "bad-request"),
        ("load", {"save": "{}"}, "bad-save"),
        ("load", {"save": "not json"}, "bad-save"),
        ("view", {"seat": "north"}, "bad-request"),
        ("computer_move", {"level": "grandmaster"}, "bad-request"),
        ("new_game", {"rules": {"players": 5}}, "bad-request"),
        ("score", {"hand": ["5C"], "starter": "XX"}, "bad-card"),
    ],
)
def test_errors_are_structured_and_change_nothing(name: str, payload: dict, kind: str) -> None:
    call("new_game", {"seed": 9, "first_dealer": 0})
    before = call("save")["result"]["save"]
    reply = call(name, payload)
    assert reply["ok"] is False and reply["error"]["kind"] == kind and reply["error"]["message"]
    assert call("save")["result"]["save"] == before


def test_bad_json_and_internal_errors_still_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert json.loads(worker.hello("{oops"))["error"]["kind"] == "bad-request"
    assert json.loads(worker.hello("[1]"))["error"]["kind"] == "bad-request"
    call("new_game", {"seed": 3})
    monkeypatch.setattr(worker, "_state", lambda *a: 1 / 0)
    error = call("state")["error"]
    assert error["kind"] == "internal" and "ZeroDivisionError" in error["message"]


def test_computer_falls_back_to_a_legal_move_without_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(worker, "_players_module", lambda: None)
    call("new_game", {"seed": 4, "first_dealer": 0})
    first = call("legal_moves")["result"]["moves"][0]
    assert call("computer_move", {"level": "expert"})["result"]["move"] == first


def test_settings_survive_any_form_values() -> None:
    settings = shell.settings_from_form(
        {"players": "9", "target": "x", "skunk": "?", "speed": "fast"}
    )
    assert settings["rules"] == {
        "players": 2,
        "target": 121,
        "skunk": "acc",
        "manual_counting": False,
        "muggins": False,
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
