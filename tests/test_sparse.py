"""The packed memory snapshot (sitebuild/sparse.py): every snapshot comes back exactly."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitebuild.sparse import (
    MIN_GAP,
    data_segments,
    pack_memory,
    pyodide_memory_start,
    unpack_memory,
)

# Snapshots made of stretches of data and runs of zeros either side of MIN_GAP.
stretches = st.one_of(
    st.binary(min_size=1, max_size=200),
    st.integers(0, 3 * MIN_GAP).map(bytes),
)


def wasm_with_data(segments: list[tuple[int, bytes]]) -> bytes:
    """A minimal wasm module with these active data segments (for data_segments)."""
    def leb(value: int) -> bytes:
        out = bytearray()
        while True:
            byte, value = value & 0x7F, value >> 7
            if value == 0:
                return bytes(out + bytes([byte]))
            out.append(byte | 0x80)

    def sleb(value: int) -> bytes:
        out = bytearray()
        while True:
            byte, value = value & 0x7F, value >> 7
            if (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40):
                return bytes(out + bytes([byte]))
            out.append(byte | 0x80)

    body = leb(len(segments)) + b"".join(
        b"\x00\x41" + sleb(address) + b"\x0b" + leb(len(data)) + data
        for address, data in segments)
    return b"\0asm\x01\0\0\0" + b"\x0b" + leb(len(body)) + body


@given(st.lists(stretches, max_size=12).map(b"".join), st.data())
def test_every_snapshot_comes_back_exactly(memory: bytes, data: Any) -> None:
    start = 16
    snapshot = b"H" * start + memory
    # The wasm's static data: some stretches of the memory as they are, some since changed.
    fresh = bytearray(memory)
    segments = []
    for _ in range(data.draw(st.integers(0, 3))):
        if not memory:
            break
        address = data.draw(st.integers(0, len(memory) - 1))
        length = data.draw(st.integers(1, len(memory) - address))
        if data.draw(st.booleans()):
            fresh[address] ^= 0xFF  # the program changed this byte since
        segments.append((address, bytes(fresh[address:address + length])))
    for address, segment in segments:
        fresh[address:address + len(segment)] = segment
    wasm = wasm_with_data(segments)
    assert data_segments(wasm) == segments
    packed = pack_memory(snapshot, start, data_segments(wasm))
    assert unpack_memory(packed, bytes(fresh)) == snapshot


def test_zero_runs_and_static_data_are_left_out() -> None:
    static = bytes(range(256)) * 4
    snapshot = b"hdr!" + static + b"x" * 10 + bytes(1_000_000) + b"y"
    packed = pack_memory(snapshot, 4, [(0, static)])
    # the file's header, a record for "hdr!", one for the static data (no bytes),
    # one for the x's and one for the y
    assert len(packed) == 16 + (8 + 4) + 8 + (8 + 10) + (8 + 1)
    assert unpack_memory(packed, static) == snapshot


def test_the_memory_starts_where_pyodides_header_says() -> None:
    assert pyodide_memory_start(struct.pack("<II", 0x706E7300, 160) + bytes(200)) == 160
    with pytest.raises(ValueError):
        pyodide_memory_start(struct.pack("<II", 1, 10**9) + bytes(8))


@pytest.mark.parametrize("damage", [lambda p: p[:-1], lambda p: p[:19], lambda p: b"X" + p[1:]])
def test_damaged_files_are_refused(damage: Any) -> None:
    with pytest.raises(ValueError):
        unpack_memory(damage(pack_memory(b"abc" + bytes(5000) + b"def", 0, [])), b"")
