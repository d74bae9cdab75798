"""CPython tests of the table's state object (web/views/tablestate.py): its doctests,
among them that a change of ``busy`` reaches the page (``#table[data-busy]``), and the
redraw's cache of what each region of the table shows."""

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


def test_regions_write_a_region_again_only_when_its_markup_changed() -> None:
    """The redraw's cache (tablestate.Regions): same markup, no write; a region forgotten
    (changed by other code) or a new game's table is written whole again."""
    state = tablestate.TableState()
    regions = state.regions
    assert regions.changed(".actions", "<button>Go</button>")
    assert not regions.changed(".actions", "<button>Go</button>")
    assert regions.changed(".actions", "")  # Go gone: written
    assert regions.changed(".starter", "5S") and not regions.changed(".starter", "5S")
    regions.forget(".actions")
    assert regions.changed(".actions", "") and not regions.changed(".starter", "5S")
    state.new_game(None, ["You", "Computer"], 2)  # a new game draws its table whole
    assert state.regions.changed(".starter", "5S")
