"""The engine's wheel and what PyScript pages get from the site (sitebuild/python_pages.py)."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from sitebuild.common import BuildError
from sitebuild.pins import PINS, extract, fetch_tarball
from sitebuild.python_pages import MICROPIP, engine_wheel, pages_files, pages_lock, wheel_sources

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_is_the_package_with_its_data_named_by_version(tmp_path: Path) -> None:
    name, data = engine_wheel()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert name == f"cribbage-{version}-py3-none-any.whl"
    (tmp_path / name).write_bytes(data)
    with zipfile.ZipFile(tmp_path / name) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"cribbage-{version}.dist-info/METADATA").decode()
        wheel.extractall(tmp_path / "site")
    data_files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "cribbage").glob("*/*.json")}
    assert {"cribbage/data/crib_tables.json", "cribbage/lang/ja.json"} <= data_files <= names
    assert "cribbage/players/master.py" in names
    assert not any(n.startswith(("sitebuild/", "tests/", "web/")) or "bridge" in n for n in names)
    assert f"Version: {version}" in metadata
    required = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert all("extra ==" in line for line in required)  # no runtime dependency
    # installed as it is (nothing but the unpacked wheel on the path), it counts and speaks
    code = (f"import sys; sys.path.insert(0, {str(tmp_path / 'site')!r}); import cribbage; "
            "from cribbage import Card, parse_cards, score_hand; from cribbage.scoring import "
            "cadence; s = score_hand(parse_cards('5C 5D 5H JS'), Card.parse('5S')); "
            "print(s.total, cadence(s.items, 'ja')[:7], cribbage.__file__)")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, check=True)
    total, said, source = done.stdout.split()
    assert (total, said) == ("29", "フィフティーン")
    assert Path(source).is_relative_to(tmp_path / "site")


def test_the_wheel_is_rebuilt_only_when_its_sources_change() -> None:
    assert engine_wheel() == engine_wheel()
    sources = wheel_sources()
    assert "pyproject.toml" in sources and "cribbage/scoring.py" in sources
    assert not any("__pycache__" in name for name in sources)


def zip_of(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


def test_the_pages_lock_lists_the_shipped_micropip() -> None:
    pyodide = next(pin for pin in PINS if pin.key == "pyodide")
    stock = extract(pyodide, fetch_tarball(pyodide))["pyodide-lock.json"]
    files = pages_files(stock, stdlib=zip_of({"json/__init__.pyc": b"x"}))
    with zipfile.ZipFile(io.BytesIO(files["python_stdlib.zip"])) as stdlib:
        assert [i.compress_type for i in stdlib.infolist()] == [zipfile.ZIP_STORED]
    lock = json.loads(files["pyodide-lock.json"])
    assert lock["info"] == json.loads(stock)["info"]  # Pyodide's version checks still apply
    assert list(lock["packages"]) == ["micropip"]
    entry = lock["packages"]["micropip"]
    assert entry["file_name"] == MICROPIP.filename and entry["depends"] == []
    assert entry["sha256"] == hashlib.sha256(files[MICROPIP.filename]).hexdigest()
    with zipfile.ZipFile(io.BytesIO(files[MICROPIP.filename])) as wheel:
        assert "micropip/__init__.py" in wheel.namelist()


def test_a_lock_naming_another_micropip_fails_the_build() -> None:
    stock = {"info": {}, "packages": {"micropip": {"version": "0.9.0", "depends": []}}}
    with pytest.raises(BuildError, match="micropip 0.9.0"):
        pages_lock(json.dumps(stock).encode())
