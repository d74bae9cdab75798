"""The engine's memory snapshot as the page downloads it: Python's memory without its zeros.

Pyodide's snapshot is the whole wasm memory (31 MB), and 60% of it is long
runs of zero bytes (the heap's free space). The worker allocates the memory
zeroed and fills in only what the file holds, so the page downloads, decodes
and copies 13 MB instead of 31 (web/engine/engine-worker.mjs reads it as it
streams in). The file, all integers little-endian:

- a header: the magic ``CRIBMEM1`` and the memory's size (u32);
- then records until the end of the file: offset (u32), length (u32), and
  that many bytes of memory from that offset. Records are in memory order
  and never overlap; every byte no record covers is zero.

>>> memory = b"ab" + bytes(5000) + b"cd" + bytes(9)
>>> packed = pack_memory(memory)
>>> len(packed) < len(memory), unpack_memory(packed) == memory
(True, True)
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

MAGIC = b"CRIBMEM1"
HEADER = struct.Struct("<8sI")
RECORD = struct.Struct("<II")
# Zero runs shorter than this stay in the records: each record costs 8 bytes
# and a copy of its own, and short runs compress to almost nothing anyway.
MIN_GAP = 4096
ZEROS = bytes(MIN_GAP)


def pack_memory(memory: bytes) -> bytes:
    """``memory`` as a header and records of its non-zero stretches (the format above)."""
    parts = [HEADER.pack(MAGIC, len(memory))]
    start = 0
    for gap_start, gap_end in [*zero_runs(memory), (len(memory), len(memory))]:
        if gap_start > start:
            parts += [RECORD.pack(start, gap_start - start), memory[start:gap_start]]
        start = gap_end
    return b"".join(parts)


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


def unpack_memory(packed: bytes) -> bytes:
    """The whole memory back from :func:`pack_memory`'s bytes; ValueError if they are not.

    >>> unpack_memory(b"junk")
    Traceback (most recent call last):
    ...
    ValueError: not a packed memory
    """
    if len(packed) < HEADER.size or packed[:8] != MAGIC:
        raise ValueError("not a packed memory")
    _, size = HEADER.unpack_from(packed)
    memory = bytearray(size)
    at = HEADER.size
    while at < len(packed):
        if at + RECORD.size > len(packed):
            raise ValueError("a record's header is cut short")
        offset, length = RECORD.unpack_from(packed, at)
        at += RECORD.size
        if at + length > len(packed) or offset + length > size:
            raise ValueError("a record runs past the end")
        memory[offset:offset + length] = packed[at:at + length]
        at += length
    return bytes(memory)
