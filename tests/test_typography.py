"""The Japanese texts' punctuation: full-width in Japanese prose, the same everywhere.

Every Japanese catalogue (the engine's cribbage/lang/ja.json, the puzzles'
reasons in cribbage/data/puzzle_words.json and the page's web/lang/*.ja.json)
writes brackets, colons and the marks of a sentence in their full-width
forms（）［］：！？, never the half-width ( ) [ ] : ! ? beside them. Left alone:
the ``{names}`` filled in later, digits' grouping commas (12,994,800) and the
seal's formula ``sha256(...)``, which is code and stays as typed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JAPANESE = [ROOT / "cribbage" / "lang" / "ja.json",
            *sorted((ROOT / "web" / "lang").glob("*.ja.json"))]
HALF_WIDTH = re.compile(r"[()\[\]:!?]")
KEPT = re.compile(r"\{[a-z_0-9]+\}|sha256\([^)]*\)")  # placeholders, and the seal's formula


def texts(value: object, key: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a catalogue's value, with the key it is under."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, list):
        for item in value:
            yield from texts(item, key)
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from texts(item, f"{key}.{name}" if key else name)


def half_width(text: str) -> list[str]:
    """The half-width marks of ``text`` outside what is kept as typed."""
    return HALF_WIDTH.findall(KEPT.sub("", text))


def test_the_check_finds_half_width_marks() -> None:
    assert half_width("第{n}局: 勝ち(右)") == [":", "(", ")"]
    assert half_width("第{n}局：勝ち（右）、sha256(ソルト + \":\" + 山札)") == []


# The puzzles' reasons: their Japanese part ("ja"), beside the other languages.
PUZZLE_WORDS = ROOT / "cribbage" / "data" / "puzzle_words.json"


@pytest.mark.parametrize("path", [*JAPANESE, PUZZLE_WORDS], ids=lambda path: path.name)
def test_japanese_texts_use_full_width_punctuation(path: Path) -> None:
    catalogue = json.loads(path.read_text(encoding="utf-8"))
    if path == PUZZLE_WORDS:
        catalogue = catalogue["ja"]
    found = [(key, text) for key, text in texts(catalogue) if half_width(text)]
    assert not found, f"half-width punctuation in {path.name}: {found[:5]}"
