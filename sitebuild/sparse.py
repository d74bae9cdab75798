"""The engine's memory snapshot as the page downloads it: only what the page cannot make itself.

Pyodide's snapshot is a header and then the whole wasm memory (31 MB). Most of
it the page already has: 60% is long runs of zero bytes (the heap's free
space), and another 3 MB is the wasm's own static data, which instantiating
the wasm writes into its fresh memory anyway. The worker allocates the
snapshot zeroed, fills in what the file holds as it streams in, and copies
the static data from the fresh instance's memory (web/engine/engine-worker.mjs):
the page downloads about a third less than the snapshot compressed.

The file, all integers little-endian:

- a header: the magic ``CRIBMEM2``, the snapshot's size (u32), and where the
  wasm memory starts in it (u32: Pyodide's own header comes first);
- then records until the end of the file: offset (u32) and length (u32) in
  the snapshot. With the length's top bit (``FROM_WASM``) clear, that many
  bytes follow; with it set, nothing follows: those bytes are the wasm's own
  data, at memory address ``offset - memory start``. Records are in order and
  never overlap; every byte no record covers is zero.

>>> snapshot = b"ab" + bytes(5000) + b"cd" + bytes(9)
>>> packed = pack_memory(snapshot, memory_start=0, wasm_data=[])
>>> len(packed) < len(snapshot), unpack_memory(packed, fresh_memory=b"") == snapshot
(True, True)
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

MAGIC = b"CRIBMEM2"
HEADER = struct.Struct("<8sII")
RECORD = struct.Struct("<II")
FROM_WASM = 1 << 31
# Zero runs shorter than this stay in the records: each record costs 8 bytes
# and a copy of its own, and short runs compress to almost nothing anyway.
MIN_GAP = 4096
ZEROS = bytes(MIN_GAP)
# Static data is matched in blocks of this size (a block that changed ships).
BLOCK = 64


def pack_memory(snapshot: bytes, memory_start: int, wasm_data: list[tuple[int, bytes]]) -> bytes:
    """``snapshot`` as the header and records above.

    ``memory_start``: where the wasm memory starts in ``snapshot``;
    ``wasm_data``: the wasm's active data segments, (address, bytes), as
    :func:`data_segments` reads them.
    """
    parts = [HEADER.pack(MAGIC, len(snapshot), memory_start)]
    for start, end, from_wasm in spans(snapshot, memory_start, wasm_data):
        if from_wasm:
            parts.append(RECORD.pack(start, (end - start) | FROM_WASM))
        else:
            parts += [RECORD.pack(start, end - start), snapshot[start:end]]
    return b"".join(parts)


def spans(snapshot: bytes, memory_start: int,
          wasm_data: list[tuple[int, bytes]]) -> Iterator[tuple[int, int, bool]]:
    """(start, end, from_wasm) of every stretch of ``snapshot`` a record must cover, in order."""
    skipped = sorted([(start, end, True) for start, end in unchanged(snapshot, memory_start,
                                                                     wasm_data)]
                     + [(start, end, False) for start, end in zero_runs(snapshot)])
    at = 0
    for start, end, from_wasm in skipped:
        start = max(start, at)  # static data may hold zero runs of its own
        if start >= end:
            continue
        if start > at:
            yield at, start, False
        if from_wasm:
            yield start, end, True
        at = end
    if len(snapshot) > at:
        yield at, len(snapshot), False


def unchanged(snapshot: bytes, memory_start: int,
              wasm_data: list[tuple[int, bytes]]) -> list[tuple[int, int]]:
    """(start, end) in ``snapshot`` of the static data still as the wasm writes it, merged."""
    fresh = fresh_memory(wasm_data)
    found: list[tuple[int, int]] = []
    for address, data in sorted(wasm_data):
        for offset in range(address, address + len(data), BLOCK):
            block = fresh[offset:min(offset + BLOCK, address + len(data))]
            start = memory_start + offset
            if snapshot[start:start + len(block)] != block or not any(block):
                continue  # changed since, or zeros (the zero runs take those)
            if found and found[-1][1] >= start:
                found[-1] = (found[-1][0], max(found[-1][1], start + len(block)))
            else:
                found.append((start, start + len(block)))
    return found


def fresh_memory(wasm_data: list[tuple[int, bytes]]) -> bytes:
    """A freshly instantiated wasm's memory, up to its last static byte.

    ``wasm_data``: its active data segments (:func:`data_segments`), written in
    order, as instantiating applies them.

    >>> fresh_memory([(2, b"ab"), (3, b"c")])
    b'\\x00\\x00ac'
    """
    fresh = bytearray(max((address + len(data) for address, data in wasm_data), default=0))
    for address, data in wasm_data:
        fresh[address:address + len(data)] = data
    return bytes(fresh)


def pyodide_memory_start(snapshot: bytes) -> int:
    """Where the wasm memory starts in a Pyodide snapshot: its header says its own length.

    (Pyodide's ``makeMemorySnapshot``: u32 magic, u32 header length, then the
    build id and the JS references; ``restoreSnapshot`` copies from there on.)
    """
    (start,) = struct.unpack_from("<I", snapshot, 4)
    if not 8 <= start < len(snapshot):
        raise ValueError(f"not a Pyodide snapshot (header length {start})")
    return int(start)


def zero_runs(memory: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of at least MIN_GAP zero bytes, in order.

    >>> list(zero_runs(b"x" + bytes(MIN_GAP + 3) + b"y" + bytes(10)))
    [(1, 4100)]
    """
    start = memory.find(ZEROS)
    while start >= 0:
        end = start + MIN_GAP
        while memory[end:end + MIN_GAP] == ZEROS:  # whole blocks first: runs are megabytes
            end += MIN_GAP
        while end < len(memory) and memory[end] == 0:
            end += 1
        yield start, end
        start = memory.find(ZEROS, end)


def unpack_memory(packed: bytes, fresh_memory: bytes) -> bytes:
    """The whole snapshot back from :func:`pack_memory`'s bytes, as the worker rebuilds it.

    ``fresh_memory``: a freshly instantiated wasm's memory (its static data).
    ValueError if ``packed`` is not a packed snapshot.

    >>> unpack_memory(b"junk", b"")
    Traceback (most recent call last):
    ...
    ValueError: not a packed memory
    """
    if len(packed) < HEADER.size or packed[:8] != MAGIC:
        raise ValueError("not a packed memory")
    _, size, memory_start = HEADER.unpack_from(packed)
    snapshot = bytearray(size)
    at = HEADER.size
    while at < len(packed):
        if at + RECORD.size > len(packed):
            raise ValueError("a record's header is cut short")
        offset, length = RECORD.unpack_from(packed, at)
        at += RECORD.size
        if length & FROM_WASM:
            length &= ~FROM_WASM
            source, start = fresh_memory, offset - memory_start
        else:
            source, start = packed, at
            at += length
        if start < 0 or start + length > len(source) or offset + length > size:
            raise ValueError("a record runs past the end")
        snapshot[offset:offset + length] = source[start:start + length]
    return bytes(snapshot)


def data_segments(wasm: bytes) -> list[tuple[int, bytes]]:
    """The active data segments of a wasm module with constant addresses: (address, bytes).

    Passive segments and those placed by a global are left out (the snapshot
    then ships those bytes itself); ValueError for any other address form.
    """
    at = 8  # magic and version
    segments: list[tuple[int, bytes]] = []
    while at < len(wasm):
        section = wasm[at]
        size, at = leb128(wasm, at + 1)
        if section == 11:  # the data section
            segments = read_data_section(wasm[at:at + size])
        at += size
    return segments


def read_data_section(section: bytes) -> list[tuple[int, bytes]]:
    """The data section's active segments at constant addresses (see data_segments)."""
    count, at = leb128(section, 0)
    segments = []
    for _ in range(count):
        kind, at = leb128(section, at)
        address = None
        if kind in (0, 2):  # active (2: with a memory index)
            if kind == 2:
                _, at = leb128(section, at)
            opcode = section[at]
            value, at = leb128(section, at + 1, signed=opcode == 0x41)
            if opcode not in (0x41, 0x23) or section[at] != 0x0B:  # i32.const or global.get
                raise ValueError(f"a data segment's address is not a constant ({opcode:#x})")
            address = value & 0xFFFFFFFF if opcode == 0x41 else None
            at += 1
        length, at = leb128(section, at)
        if address is not None:
            segments.append((address, section[at:at + length]))
        at += length
    return segments


def leb128(data: bytes, at: int, signed: bool = False) -> tuple[int, int]:
    """The LEB128 number at ``data[at]`` and the offset after it.

    >>> leb128(bytes([0xE5, 0x8E, 0x26]), 0), leb128(bytes([0x7F]), 0, signed=True)
    ((624485, 3), (-1, 1))
    """
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, at
