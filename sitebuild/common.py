"""What every build step shares: the repository's paths, the build's error, hashes and caches."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"  # fetched tarballs and Node's outputs, so later builds are offline
ENGINE_PACKAGE = ROOT / "cribbage"


class BuildError(Exception):
    """A build step failed; the message is one line for the user."""


def short_hash(files: dict[str, bytes]) -> str:
    """Eight hex digits that change whenever any file (name or bytes) changes.

    >>> short_hash({"a.txt": b"1"}) == short_hash({"a.txt": b"1"}) != short_hash({"a.txt": b"2"})
    True
    """
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:8]


def cached_output(path: Path, make: Callable[[], bytes]) -> bytes:
    """The bytes at ``path``, made (and kept) the first time they are asked for."""
    if not path.exists():
        data = make()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path.read_bytes()


def write_if_changed(path: Path, data: bytes) -> None:
    """Write only changed files, so unchanged ones keep their mtime and ETag."""
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def read_pinned(path: Path, fetch: Callable[[], None], digest: Callable[[bytes], str],
                pinned: str, what: str, kind: str) -> bytes:
    """A pinned download's bytes from the cache at ``path`` (``fetch`` fills it when it is
    missing), checked: a ``digest`` other than ``pinned`` is a one-line BuildError
    naming ``what`` and the ``kind`` of check."""
    if not path.exists():
        fetch()
    data = path.read_bytes()
    actual = digest(data)
    if actual != pinned:
        raise BuildError(
            f"{kind} mismatch for {what}: pinned {pinned}, got {actual}"
            f" (delete {path} to refetch)"
        )
    return data
