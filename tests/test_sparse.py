"""The packed memory snapshot (sitebuild/sparse.py): every memory comes back exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitebuild.sparse import MIN_GAP, pack_memory, unpack_memory

# Memories made of stretches of data and runs of zeros either side of MIN_GAP.
stretches = st.one_of(
    st.binary(min_size=1, max_size=64),
    st.integers(0, 3 * MIN_GAP).map(bytes),
)


@given(st.lists(stretches, max_size=12).map(b"".join))
def test_every_memory_comes_back_exactly(memory: bytes) -> None:
    packed = pack_memory(memory)
    assert unpack_memory(packed) == memory
    assert len(packed) <= len(memory) + 12 + 8 * (1 + len(memory) // MIN_GAP)


def test_long_zero_runs_are_left_out() -> None:
    memory = b"x" * 10 + bytes(1_000_000) + b"y"
    assert len(pack_memory(memory)) == 12 + 2 * 8 + 11


@pytest.mark.parametrize("damage", [lambda p: p[:-1], lambda p: p[:15], lambda p: b"X" + p[1:]])
def test_damaged_files_are_refused(damage) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        unpack_memory(damage(pack_memory(b"abc" + bytes(5000) + b"def")))
