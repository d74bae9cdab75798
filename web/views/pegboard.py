"""The peg board as SVG: geometry and markup, no DOM (MicroPython and CPython).

A classic continuous board: one lane per score (two or three), streets of 30
holes in six groups of five, running out and back (four streets to 121, two
to 61), from two start holes per lane to the one game hole. Below each street
its holes are numbered every ten and marked every five ("where is 36?": the
second street, six past the 30 mark); the skunk lines the engine names (91
and 61 in the long game, 31 in the short one) cross the board where they fall,
which is always at a turn. Each lane has two pegs that leapfrog: the front peg
shows the score, the back peg the score before it.

Pegs are drawn once and moved by changing their CSS ``transform``; with a CSS
transition on ``transform`` the browser animates them (see style.css). The
board is sized so a phone 360 px wide shows holes at least 8 px across.

>>> hole_position(121, 2, 0, 1)[0] < hole_position(121, 2, 0, 30)[0]  # street 1 runs right
True
>>> hole_position(121, 2, 0, 31)[1] > hole_position(121, 2, 0, 30)[1]  # street 2 is below
True
>>> hole_position(121, 2, 0, 31)[0] == hole_position(121, 2, 0, 30)[0]  # ...and runs back
True
>>> 'id="peg-1-front"' in board_svg(121, ["You", "Computer"])
True
"""

PITCH = 21  # distance between holes in a group of five (SVG units)
GROUP_GAP = 6  # extra space between groups
STREET = 30  # holes per street
FIRST = 52  # x of a street's first column (the start and game holes are left of it)
START_X = (10, 31)  # x of the back (-1) and front (0) start holes
LANE = 21  # distance between the lanes of one street
NUMBERS = 22  # the row of numbers under each street
STREET_GAP = 8  # between one street's numbers and the next street
TOP = 16  # y of the first lane's holes
HOLE_R = "8.5"  # hole radius: 17 units, over 8 px on a 360 px phone (board ~350 px wide)
PEG_R = "10"
WIDTH = FIRST + (STREET - 1) * PITCH + 5 * GROUP_GAP + 14
COLOURS = ("#c0392b", "#1f5fa8", "#1e8449")  # red, blue, green pegs


def streets(target):
    """How many streets of 30 a board for ``target`` has (4 for 121, 2 for 61)."""
    return (target - 1) // STREET


def _street_top(street, tracks):
    """y of the first lane's holes in ``street`` (0-based)."""
    return TOP + street * ((tracks - 1) * LANE + NUMBERS + STREET_GAP + 12)


def _numbers_y(street, tracks):
    return _street_top(street, tracks) + (tracks - 1) * LANE + 22


def board_size(target, tracks):
    """(width, height) of the board in SVG units."""
    return WIDTH, _numbers_y(streets(target) - 1, tracks) + 10


def _column_x(column):
    return FIRST + column * PITCH + (column // 5) * GROUP_GAP


def hole_position(target, tracks, track, points):
    """Centre (x, y) of the hole of ``track`` (of ``tracks``) for ``points``.

    ``points`` 0 and -1 are the two start holes; ``target`` (and beyond) the game hole.

    >>> hole_position(121, 2, 1, 0)
    (31, 37)
    """
    if points <= 0:
        return START_X[points + 1], _street_top(0, tracks) + track * LANE
    last = streets(target) - 1
    if points >= target:
        return (START_X[0] + START_X[1]) // 2, _street_top(last, tracks) + (tracks - 1) * LANE // 2
    street, index = (points - 1) // STREET, (points - 1) % STREET
    column = index if street % 2 == 0 else STREET - 1 - index
    return _column_x(column), _street_top(street, tracks) + track * LANE


def peg_transform(target, tracks, track, points):
    """The CSS ``transform`` that puts a peg in the hole for ``points``.

    CSS (not the SVG attribute) so that a transition animates the move.

    >>> peg_transform(121, 2, 0, 0)
    'translate(31px, 16px)'
    """
    x, y = hole_position(target, tracks, track, min(points, target))
    return "translate(" + str(x) + "px, " + str(y) + "px)"


def peg_place(target, tracks, track, points):
    """The SVG ``transform`` attribute for a peg in the hole for ``points``: where the
    board is first drawn (no style attribute, so the page's strict CSP allows it; the
    table then moves the pegs through the CSSOM, :func:`peg_transform`).

    >>> peg_place(121, 2, 0, 0)
    'translate(31 16)'
    """
    x, y = hole_position(target, tracks, track, min(points, target))
    return "translate(" + str(x) + " " + str(y) + ")"


def _circle(x, y, r, cls, extra=""):
    return ('<circle class="' + cls + '" cx="' + str(x) + '" cy="' + str(y) + '" r="' + r + '"'
            + extra + "/>")


def _text(x, y, text, cls):
    return ('<text class="' + cls + '" x="' + str(x) + '" y="' + str(y) + '">' + escape(text)
            + "</text>")


def _street_marks(target, tracks, street):
    """The grooves of one street, its numbers every ten and its marks every five."""
    top = _street_top(street, tracks)
    parts = ['<rect class="street" x="' + str(FIRST - 13) + '" y="' + str(top - 13)
             + '" width="' + str(_column_x(STREET - 1) - FIRST + 26) + '" height="'
             + str((tracks - 1) * LANE + 26) + '" rx="12"/>']
    numbers_y = _numbers_y(street, tracks)
    for step in range(5, STREET + 1, 5):
        points = street * STREET + step
        x = hole_position(target, tracks, 0, points)[0]
        if step % 10:
            parts.append(_circle(x, numbers_y - 6, "2.5", "five"))
        else:
            parts.append(_text(x, numbers_y, str(points), "number"))
    return "".join(parts)


def _skunk_line(target, tracks, line, title):
    """The line a loser must pass, across the board between two streets."""
    street = (line - 1) // STREET  # the street the line's first safe hole is on
    y = _street_top(street, tracks) - 18
    return ('<g class="skunk" data-skunk="' + str(line) + '"><title>' + escape(title)
            + '</title><line x1="4" x2="' + str(WIDTH - 4) + '" y1="' + str(y) + '" y2="'
            + str(y) + '"/>' + _text(10, y + 14, "S", "skunk-mark") + "</g>")


def board_svg(target, names, label=None, skunk_lines=(), skunk_title=None, pegs=None):
    """SVG markup for a board with one lane per entry of ``names``.

    ``label`` names the board for screen readers (the page's language);
    ``skunk_lines`` are the engine's (lowest safe scores), ``skunk_title(line)``
    their words; ``pegs`` the [front, back] of each lane (start holes if None).

    >>> svg = board_svg(61, ["You", "Computer", "Left"], "Board", [31], lambda n: "skunk")
    >>> svg.count('class="hole"'), svg.count('data-skunk="31"'), '>60</text>' in svg
    (186, 1, True)
    """
    tracks = len(names)
    width, height = board_size(target, tracks)
    parts = ['<svg class="pegboard" viewBox="0 0 ' + str(width) + " " + str(height)
             + '" role="img" data-target="' + str(target) + '" aria-label="'
             + escape(label if label is not None else "Peg board to " + str(target)) + '">'
             + '<rect class="wood" x="0" y="0" width="' + str(width) + '" height="'
             + str(height) + '" rx="14"/>']
    for street in range(streets(target)):
        parts.append(_street_marks(target, tracks, street))
    for line in skunk_lines:
        if 1 < line < target and (line - 1) % STREET == 0:
            parts.append(_skunk_line(target, tracks, line,
                                     skunk_title(line) if skunk_title else str(line)))
    for track in range(tracks):
        stroke = ' stroke="' + COLOURS[track % len(COLOURS)] + '"'
        for points in range(-1, target):
            x, y = hole_position(target, tracks, track, points)
            parts.append(_circle(x, y, HOLE_R, "hole", stroke))
    gx, gy = hole_position(target, tracks, 0, target)
    parts.append(_circle(gx, gy, "12", "hole game-hole"))
    for track, name in enumerate(names):
        colour = COLOURS[track % len(COLOURS)]
        at = pegs[track] if pegs else (0, -1)
        for which, points in (("back", at[1]), ("front", at[0])):
            parts.append('<circle class="peg peg-' + which + '" id="peg-' + str(track) + "-"
                         + which + '" r="' + PEG_R + '" fill="' + colour + '" transform="'
                         + peg_place(target, tracks, track, points) + '"><title>'
                         + escape(name) + "</title></circle>")
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
