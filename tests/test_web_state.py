"""CPython tests of the table's state object (web/views/tablestate.py): its doctests,
among them that a change of ``busy`` reaches the page (``#table[data-busy]``)."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views"), str(WEB / "table")]

tablestate = importlib.import_module("tablestate")


def test_doctests() -> None:
    result = doctest.testmod(tablestate)
    assert result.attempted >= 3 and result.failed == 0
