"""Precompressed files: ``name.br`` and ``name.gz`` beside each file worth compressing.

Any static host that serves precompressed files (nginx's ``gzip_static`` and
``brotli_static``, Caddy's ``precompressed``, …) and ``python build.py serve``
send them with ``Content-Encoding`` when the browser accepts it. Brotli comes
from Node's zlib (Node is already a build dependency), gzip from Python's.
Both are cached in ``.cache/compressed/`` by content, so only new files cost
time (brotli's best quality takes about a minute for the biggest files).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sitebuild.common import CACHE, DIST, BuildError
from sitebuild.offline import precached

# Text and WebAssembly compress well; PNGs and the engine's .tar.gz are compressed already.
COMPRESSIBLE = (
    ".html", ".css", ".js", ".mjs", ".json", ".py", ".wasm", ".webmanifest", ".zip",
    ".snapshot", ".svg", ".txt",
)
MIN_SIZE = 1024  # smaller files gain nothing worth a second request header
MIN_GAIN = 0.9  # keep a variant only if it is at most 90% of the original
ENCODINGS = {"br": ".br", "gzip": ".gz"}  # Content-Encoding -> file suffix, preferred first

BROTLI_JS = r"""
// Brotli at best quality for each [source, target] pair, in parallel (libuv's pool).
import { readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import zlib from "node:zlib";
const brotli = promisify(zlib.brotliCompress);
const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
await Promise.all(jobs.map(async ([source, target]) => {
  const data = readFileSync(source);
  const packed = await brotli(data, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
  } });
  writeFileSync(target, packed);
}));
"""


def compressible(name: str, data: bytes) -> bool:
    """Whether ``name`` gets precompressed variants.

    >>> compressible("a.wasm", bytes(4096)), compressible("icon.png", bytes(4096))
    (True, False)
    >>> compressible("cribbage-1.tar.gz", bytes(4096)), compressible("a.js", b"x")
    (False, False)
    """
    return name.endswith(COMPRESSIBLE) and len(data) >= MIN_SIZE


def precompressed(site: dict[str, bytes]) -> dict[str, bytes]:
    """``name.br`` and ``name.gz`` for each compressible file of ``site`` that they shrink."""
    wanted = {name: data for name, data in site.items() if compressible(name, data)}
    keys = {name: hashlib.sha256(data).hexdigest() for name, data in wanted.items()}
    folder = CACHE / "compressed"
    folder.mkdir(parents=True, exist_ok=True)
    missing = sorted({key for key in keys.values() if not (folder / f"{key}.br").exists()})
    if missing:
        sources = {keys[name]: data for name, data in wanted.items()}
        brotli(folder, {key: sources[key] for key in missing})
    out: dict[str, bytes] = {}
    for name, data in wanted.items():
        key = keys[name]
        gz = folder / f"{key}.gz"
        if not gz.exists():
            gz.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        variants = ((".br", (folder / f"{key}.br").read_bytes()), (".gz", gz.read_bytes()))
        for suffix, packed in variants:
            if len(packed) <= MIN_GAIN * len(data):
                out[name + suffix] = packed
    return out


def brotli(folder: Path, sources: dict[str, bytes]) -> None:
    """Write ``folder/<key>.br`` for each of ``sources`` (Node's zlib, best quality)."""
    if shutil.which("node") is None:
        raise BuildError("node is needed for brotli compression: install Node.js")
    total = sum(len(data) for data in sources.values())
    print(f"brotli-compressing {len(sources)} files ({total / 1e6:.1f} MB) under Node",
          file=sys.stderr)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        jobs = []
        for key, data in sources.items():
            (Path(tmp) / key).write_bytes(data)
            jobs.append([str(Path(tmp) / key), str(Path(tmp) / f"{key}.br")])
        (Path(tmp) / "jobs.json").write_text(json.dumps(jobs))
        (Path(tmp) / "brotli.mjs").write_text(BROTLI_JS)
        done = subprocess.run(["node", "brotli.mjs", "jobs.json"], cwd=tmp, capture_output=True,
                              text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(f"brotli compression failed: {last}")
        for key in sources:  # moved in whole, so an interrupted run leaves no half file
            (Path(tmp) / f"{key}.br").replace(folder / f"{key}.br")


def sent_bytes(directory: Path, names: list[str]) -> dict[str, int]:
    """What the files ``names`` of ``directory`` weigh as sent: as they are (a host that
    ignores the variants), with the gzip variants, with the brotli variants."""
    totals = dict.fromkeys(("identity", "gzip", "br"), 0)
    for name in names:
        path = directory / name
        size = path.stat().st_size
        totals["identity"] += size
        for coding, suffix in ENCODINGS.items():
            variant = path.with_name(path.name + suffix)
            totals[coding] += variant.stat().st_size if variant.exists() else size
    return totals


def main() -> None:
    """Print what the site's offline copy (the service worker's list) weighs as sent."""
    names = precached((DIST / "sw.js").read_text())
    totals = sent_bytes(DIST, names)
    print(f"dist/'s {len(names)} files the service worker stores, as sent: "
          + ", ".join(f"{coding} {size / 1e6:.1f} MB" for coding, size in totals.items()))


if __name__ == "__main__":
    main()
