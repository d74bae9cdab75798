"""The app's PNG icons, drawn here from a few shapes, and its web app manifest.

The drawing uses only zlib and struct (no imaging library), so the build stays
standard library only; each size is cached in ``.cache/icons/`` under a hash of
the drawing code, so an edit here redraws them.
"""

from __future__ import annotations

import inspect
import json
import math
import struct
import zlib
from collections.abc import Callable
from functools import partial

from sitebuild.common import CACHE, cached_output, short_hash

APP_NAME = "Cribbage"
THEME_COLOUR = "#1f6b45"  # the felt (web/pages/kit.css --felt)
BACKGROUND_COLOUR = "#0f2f20"  # the page behind the table
ICON_SIZES = (192, 512)

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in unit coordinates
Distance = Callable[[float, float], float]  # signed, negative inside, in unit coordinates
Shape = tuple[Box, Distance]


def app_icons() -> dict[str, bytes]:
    """``icons/icon-<size>.png`` for each size in ``ICON_SIZES`` (cached by drawing code)."""
    code = "".join(
        inspect.getsource(f) for f in (draw_icon, Canvas, _rounded_box, _circle, _diamond, _png)
    )
    key = short_hash({"code": code.encode(), "colours": THEME_COLOUR.encode()})
    return {
        f"icons/icon-{size}.png": cached_output(
            CACHE / "icons" / f"icon-{size}-{key}.png", partial(draw_icon, size)
        )
        for size in ICON_SIZES
    }


def web_manifest() -> bytes:
    """The web app manifest (installable: name, icons, start URL, standalone)."""
    manifest = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": "Cribbage against the computer, in your browser, online or off.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"}
            for size in ICON_SIZES
        ],
    }
    return json.dumps(manifest, indent=1).encode()


def _hex(colour: str) -> Colour:
    """``#rrggbb`` as three bytes.

    >>> _hex("#1f6b45")
    (31, 107, 69)
    """
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _png(width: int, height: int, rgb: bytearray) -> bytes:
    """An 8-bit RGB PNG from raw rows (zlib and struct only)."""

    def chunk(kind: bytes, body: bytes) -> bytes:  # length, type, body, CRC of type + body
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    stride = width * 3
    raw = b"".join(b"\0" + bytes(rgb[y * stride : (y + 1) * stride]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


class Canvas:
    """A square RGB canvas in unit coordinates (0..1), painted with signed distances.

    Each shape is a signed-distance function in pixels (negative inside); a
    pixel's coverage is ``0.5 - distance`` clamped to 0..1, which anti-aliases
    edges with one evaluation per pixel, only inside the shape's bounding box.
    """

    def __init__(self, size: int, colour: Colour) -> None:
        self.size = size
        self.rgb = bytearray(bytes(colour) * (size * size))

    def paint(self, colour: Colour, box: Box, distance: Distance) -> None:
        """Blend ``colour`` where ``distance(x, y)`` (unit coordinates) is inside."""
        n = self.size
        x0, y0, x1, y1 = (max(0, min(n, int(v * n) + d)) for v, d in zip(box, (-1, -1, 2, 2)))
        for py in range(y0, y1):
            y = (py + 0.5) / n
            row = py * n * 3
            for px in range(x0, x1):
                cover = 0.5 - distance((px + 0.5) / n, y) * n
                if cover <= 0:
                    continue
                i = row + px * 3
                if cover >= 1:
                    self.rgb[i : i + 3] = bytes(colour)
                else:
                    for k in range(3):
                        self.rgb[i + k] = round(self.rgb[i + k] * (1 - cover) + colour[k] * cover)

    def png(self) -> bytes:
        """The canvas as PNG bytes."""
        return _png(self.size, self.size, self.rgb)


def _rounded_box(
    cx: float, cy: float, w: float, h: float, r: float, turn: float = 0.0
) -> Shape:
    """Signed distance to a rounded rectangle centred on (cx, cy), turned by ``turn`` radians."""
    cos, sin = math.cos(turn), math.sin(turn)

    def distance(x: float, y: float) -> float:
        dx, dy = x - cx, y - cy
        u, v = abs(dx * cos + dy * sin) - w / 2 + r, abs(-dx * sin + dy * cos) - h / 2 + r
        outside = math.hypot(max(u, 0.0), max(v, 0.0))
        return outside + min(max(u, v), 0.0) - r

    reach = math.hypot(w, h) / 2
    return (cx - reach, cy - reach, cx + reach, cy + reach), distance


def _circle(cx: float, cy: float, r: float) -> Shape:
    """Signed distance to a circle."""
    return (cx - r, cy - r, cx + r, cy + r), lambda x, y: math.hypot(x - cx, y - cy) - r


def _diamond(cx: float, cy: float, w: float, h: float, turn: float = 0.0) -> Shape:
    """A card's diamond pip (a rhombus), turned by ``turn`` radians about its centre."""
    cos, sin = math.cos(turn), math.sin(turn)
    a, b = w / 2, h / 2
    norm = math.hypot(a, b)

    def distance(x: float, y: float) -> float:
        dx, dy = x - cx, y - cy
        u, v = abs(dx * cos + dy * sin), abs(-dx * sin + dy * cos)
        return (u * b + v * a - a * b) / norm

    reach = max(a, b)
    return (cx - reach, cy - reach, cx + reach, cy + reach), distance


def draw_icon(size: int) -> bytes:
    """The app icon: the five of diamonds over a card back, above a peg board.

    Drawn by the project from a few shapes; everything important stays inside
    the central 80 % so it survives a launcher's mask.
    """
    felt, felt_dark = _hex(THEME_COLOUR), _hex("#164d32")
    paper, red, wood = _hex("#fbf8f1"), _hex("#c0392b"), _hex("#8a5a2f")
    back, hole, blue = _hex("#8b1e2d"), _hex("#3b2413"), _hex("#1f5fa8")
    canvas = Canvas(size, felt_dark)
    canvas.paint(felt, *_rounded_box(0.5, 0.5, 0.92, 0.92, 0.2))
    # A card back, turned left, and the five of diamonds, turned right, over it.
    left, right = math.radians(-14), math.radians(9)
    canvas.paint(paper, *_rounded_box(0.40, 0.40, 0.34, 0.48, 0.045, left))
    canvas.paint(back, *_rounded_box(0.40, 0.40, 0.28, 0.42, 0.025, left))
    canvas.paint(paper, *_rounded_box(0.58, 0.42, 0.34, 0.48, 0.045, right))
    cos, sin = math.cos(right), math.sin(right)
    for px, py in ((-0.09, -0.14), (0.09, -0.14), (0.0, 0.0), (-0.09, 0.14), (0.09, 0.14)):
        x, y = 0.58 + px * cos - py * sin, 0.42 + px * sin + py * cos
        canvas.paint(red, *_diamond(x, y, 0.075, 0.1, right))
    # The peg board: two streets of holes, a red and a blue peg.
    canvas.paint(wood, *_rounded_box(0.5, 0.79, 0.74, 0.17, 0.05))
    for street, y in enumerate((0.75, 0.83)):
        for i in range(9):
            x = 0.2 + i * 0.075
            pegged = (street, i) in ((0, 6), (1, 4))
            colour = (red if street == 0 else blue) if pegged else hole
            canvas.paint(colour, *_circle(x, y, 0.026 if pegged else 0.014))
    return canvas.png()
