"""The peg board as SVG: geometry and markup, no DOM (MicroPython and CPython).

A real long board: each track runs 120 holes in four streets of 30 (out,
back, out, back), every street in six groups of five, from two start holes
to the game hole; the short board has two streets and a 61st game hole. One
track per player or team; each track has two pegs that leapfrog: the front
peg shows the score, the back peg the score before the last peg.

Pegs are drawn once and moved by changing their ``transform``; with a CSS
transition on ``transform`` the browser animates them (see style.css).

>>> hole_position(121, 2, 0, 1)[0] < hole_position(121, 2, 0, 30)[0]  # street 1 runs right
True
>>> hole_position(121, 2, 0, 31)[1] > hole_position(121, 2, 0, 30)[1]  # street 2 is below
True
>>> 'id="peg-1-front"' in board_svg(121, ["You", "Computer"])
True
"""

HOLE = 10  # distance between holes in a group (SVG units)
GROUP_GAP = 8  # extra space between groups of five
STREET = 30  # holes per street
TRACK_GAP = 9  # distance between the tracks of one street
STREET_GAP = 9  # extra space between streets
MARGIN_X = 46  # room on the left for the start and game holes
MARGIN_Y = 14
COLOURS = ("#c0392b", "#1f5fa8", "#1e8449")  # red, blue, green pegs


def streets(target):
    """How many streets of 30 a board for ``target`` has (4 for 121, 2 for 61)."""
    return (target - 1) // STREET


def _street_top(street, tracks):
    return MARGIN_Y + street * (tracks * TRACK_GAP + STREET_GAP)


def board_size(target, tracks):
    """(width, height) of the board in SVG units."""
    width = MARGIN_X + STREET * HOLE + 5 * GROUP_GAP + 14
    height = _street_top(streets(target), tracks) - STREET_GAP + MARGIN_Y
    return width, height


def hole_position(target, tracks, track, points):
    """Centre (x, y) of the hole of ``track`` (of ``tracks``) for ``points``.

    ``points`` 0 and -1 are the two start holes; ``target`` is the game hole.
    """
    if points <= 0:
        x = 12 + (points + 1) * HOLE
        return x, _street_top(0, tracks) + track * TRACK_GAP
    if points >= target:
        _, height = board_size(target, tracks)
        return 14, height // 2
    street, index = (points - 1) // STREET, (points - 1) % STREET
    column = index if street % 2 == 0 else STREET - 1 - index
    x = MARGIN_X + column * HOLE + (column // 5) * GROUP_GAP
    return x, _street_top(street, tracks) + track * TRACK_GAP


def peg_transform(target, tracks, track, points):
    """The CSS ``transform`` that puts a peg in the hole for ``points``.

    CSS (not the SVG attribute) so that a transition animates the move.

    >>> peg_transform(121, 2, 0, 0)
    'translate(22px, 14px)'
    """
    x, y = hole_position(target, tracks, track, min(points, target))
    return "translate(" + str(x) + "px, " + str(y) + "px)"


def board_svg(target, names, label=None):
    """SVG markup for an empty board with one named track per entry of ``names``;
    ``label`` names the board for screen readers (the page's language)."""
    tracks = len(names)
    width, height = board_size(target, tracks)
    parts = [
        '<svg class="pegboard" viewBox="0 0 '
        + str(width)
        + " "
        + str(height)
        + '" role="img" aria-label="'
        + escape(label if label is not None else "Peg board to " + str(target))
        + '">'
    ]
    parts.append(
        '<rect class="wood" x="0" y="0" width="'
        + str(width)
        + '" height="'
        + str(height)
        + '" rx="10"/>'
    )
    for track in range(len(names)):
        colour = COLOURS[track % len(COLOURS)]
        for points in range(-1, target):
            x, y = hole_position(target, tracks, track, points)
            parts.append(
                '<circle class="hole" cx="'
                + str(x)
                + '" cy="'
                + str(y)
                + '" r="2.6" stroke="'
                + colour
                + '"/>'
            )
    gx, gy = hole_position(target, tracks, 0, target)
    parts.append(
        '<circle class="hole game-hole" cx="' + str(gx) + '" cy="' + str(gy) + '" r="4.5"/>'
    )
    for track, name in enumerate(names):
        colour = COLOURS[track % len(COLOURS)]
        for which, points in (("back", -1), ("front", 0)):
            parts.append(
                '<circle class="peg peg-'
                + which
                + '" id="peg-'
                + str(track)
                + "-"
                + which
                + '" r="3.6" fill="'
                + colour
                + '" style="transform: '
                + peg_transform(target, tracks, track, points)
                + '"><title>'
                + escape(name)
                + "</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)


def leapfrog(front, back, new_score):
    """Where the two pegs stand after scoring: the back peg jumps ahead.

    >>> leapfrog(0, -1, 5), leapfrog(5, -1, 8), leapfrog(8, 5, 8)
    ((5, 0), (8, 5), (8, 5))
    """
    if new_score == front:
        return front, back
    return new_score, front


def escape(text):
    """Text made safe inside SVG/HTML markup.

    >>> escape('<b>"Tom" & Jerry</b>')
    '&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;'
    """
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )
