"""The engine as a package on the index: the sdist and the wheel `python -m build` makes.

Checked as a package-index reviewer would: `twine check` passes on both, the
licence text is in both and named by an SPDX expression, the type
information ships (`py.typed` and the stubs), the description is the
package's own page with no relative link, and the project's development
tools are an extra named `dev`, not a dependency.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel of the repository, made by `python -m build` (isolated)."""
    out = tmp_path_factory.mktemp("package")
    # From another folder: the repository's own build.py would shadow `build`.
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True, cwd=out)
    (sdist,) = out.glob("cribbage-*.tar.gz")
    (wheel,) = out.glob("cribbage-*.whl")
    return sdist, wheel


def wheel_metadata(wheel: Path) -> tuple[set[str], str]:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata,) = (n for n in names if n.endswith(".dist-info/METADATA"))
        return names, archive.read(metadata).decode()


def test_twine_check_passes_on_the_sdist_and_the_wheel(built: tuple[Path, Path]) -> None:
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_licence_ships_and_is_named_by_spdx(built: tuple[Path, Path]) -> None:
    sdist, wheel = built
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License")
    names, metadata = wheel_metadata(wheel)
    headers = HeaderParser().parsestr(metadata)
    assert headers["License-Expression"] == "MIT"
    assert headers["License-File"] == "LICENSE"
    (in_wheel,) = (n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read(in_wheel).decode() == licence
    with tarfile.open(sdist) as archive:
        assert any(m.name.endswith("/LICENSE") for m in archive.getmembers())


def test_the_wheel_ships_its_types_and_data_and_only_the_engine(built: tuple[Path, Path]) -> None:
    names, _ = wheel_metadata(built[1])
    assert {"cribbage/py.typed", "cribbage/i18n.pyi", "cribbage/faces.pyi",
            "cribbage/data/win_tables.json", "cribbage/lang/ja.json"} <= names
    assert not any(n.startswith(("sitebuild/", "tests/", "web/", "docs/")) for n in names)


def test_the_metadata_reads_well_on_the_index(built: tuple[Path, Path]) -> None:
    _, metadata = wheel_metadata(built[1])
    headers = HeaderParser().parsestr(metadata)
    description = headers.get_payload()
    assert description.startswith("# cribbage")
    assert len(description) < 3000  # the package's own page, not the repository's README
    links = re.findall(r"\]\(([^)]+)\)", description)
    assert all(link.startswith("https://") for link in links), links
    classifiers = headers.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Topic :: Games/Entertainment" in classifiers
    assert headers["Requires-Python"] == ">=3.11"
    # The development tools are the `dev` extra; the engine itself needs nothing.
    assert (headers.get_all("Provides-Extra") or []) == ["dev"]
    assert all('extra == "dev"' in r for r in headers.get_all("Requires-Dist") or [])
