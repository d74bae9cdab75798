"""The peg board as SVG: geometry and markup, no DOM (MicroPython and CPython).

A classic continuous board: one lane per score (two or three), streets of 30
holes in six groups of five, running out and back (four streets to 121, two
to 61), from two start holes per lane to the one game hole. Below each street
its holes are numbered every ten and marked every five ("where is 36?": the
second street, six past the 30 mark); the skunk lines the engine names (91
and 61 in the long game, 31 in the short one) cross the board where they fall,
which is always at a turn. Each lane has two pegs that leapfrog: the front peg
shows the score, the back peg the score before it, and the front peg wears the score
as a tag in its lane's colour (a tag moves with its peg), so the score reads from the
board even where its holes and numbers are small.

Pegs are drawn once and moved by changing their CSS ``transform``; with a CSS
transition on ``transform`` the browser animates them (kit.css, the pages' shared
stylesheet, which also gives the board its lines and type, and sizes the tags in screen
terms). The board is sized so a phone 360 px wide shows holes at least 8 px across;
:func:`board_ratio` tells a page how wide it is for its length.

>>> hole_position(121, 2, 0, 1)[0] < hole_position(121, 2, 0, 30)[0]  # street 1 runs right
True
>>> hole_position(121, 2, 0, 31)[1] > hole_position(121, 2, 0, 30)[1]  # street 2 is below
True
>>> hole_position(121, 2, 0, 31)[0] == hole_position(121, 2, 0, 30)[0]  # ...and runs back
True
>>> 'id="peg-1-front"' in board_svg(121, ["You", "Computer"])
True
"""

PITCH = 20  # distance between holes in a group of five (SVG units)
GROUP_GAP = 6  # extra space between groups
STREET = 30  # holes per street
FIRST = 56  # x of a street's first column (the start and game holes are left of it)
START_X = (12, 34)  # x of the back (-1) and front (0) start holes
LANE = 21  # distance between the lanes of one street
GAP = 30  # from a street's last lane to the next street's first (its numbers between)
TOP = 16  # y of the first street's first lane
MARGIN = 50  # right of the last column: room for the turns
HOLE_R = "9"  # hole radius: 18 units, over 8.5 px on a 360 px phone (board ~350 px wide)
WIDTH = FIRST + (STREET - 1) * PITCH + 5 * GROUP_GAP + MARGIN
COLOURS = ("#c0392b", "#1f5fa8", "#1e8449")  # red, blue, green pegs
# The static picture's paints, drawn once per board: wood, grain, drilled holes, brass,
# and a pin for each colour (a head lit from the top left over a soft shadow).
DEFS = (
    '<defs><linearGradient id="pb-wood" x1="0" y1="0" x2="0" y2="1">'
    '<stop offset="0" stop-color="#d7a56a"/><stop offset=".45" stop-color="#b98048"/>'
    '<stop offset="1" stop-color="#8f5a2c"/></linearGradient>'
    '<pattern id="pb-grain" width="240" height="46" patternUnits="userSpaceOnUse">'
    '<path d="M0 9q60-7 120 0t120 0M0 21q80 8 160-2t80 3M0 35q50-6 110 1t130-1" fill="none" '
    'stroke="#5a3312" stroke-opacity=".2" stroke-width="1.4"/>'
    '<path d="M0 15q70 5 140-1t100 1M0 42q90-5 170 2t70-1" fill="none" stroke="#fff3dc" '
    'stroke-opacity=".13" stroke-width="1.2"/></pattern>'
    '<radialGradient id="pb-drill" fx=".38" fy=".3" r=".6"><stop offset="0" stop-color="#050302"/>'
    '<stop offset=".65" stop-color="#24150a"/><stop offset="1" stop-color="#6b4321"/>'
    '</radialGradient>'
    '<linearGradient id="pb-brass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" '
    'stop-color="#fff0b3"/><stop offset=".5" stop-color="#c9962c"/><stop offset="1" '
    'stop-color="#6e4e12"/></linearGradient>'
    '<radialGradient id="pb-shadow"><stop offset=".3" stop-color="#000" stop-opacity=".55"/>'
    '<stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>'
    '<circle id="pb-hole" r="' + HOLE_R + '" fill="url(#pb-drill)"/>'
)


def _pin_defs():
    """One pin a colour: its gradient and its drawing (shadow, head, highlight)."""
    parts = []
    for index, colour in enumerate(COLOURS):
        name = "pb-pin" + str(index)
        parts.append('<radialGradient id="' + name + 'g" fx=".35" fy=".3" r=".7"><stop offset="0" '
                     'stop-color="#fff" stop-opacity=".85"/><stop offset=".25" stop-color="'
                     + colour + '"/><stop offset="1" stop-color="#000" stop-opacity=".9"/>'
                     '</radialGradient><g id="' + name + '"><ellipse cx="3" '
                     'cy="4" rx="11" ry="9" fill="url(#pb-shadow)"/><circle class="pin" r="9" '
                     'fill="' + colour + '"/><circle r="9" fill="url(#' + name + 'g)"/></g>')
    return "".join(parts)


PIN_DEFS = _pin_defs()


def board_ratio(target, tracks):
    """The board's breadth over its length: how wide a column the board standing up its
    length needs for each pixel of height (the table sizes its board column by it).

    >>> board_ratio(121, 2), board_ratio(121, 3), board_ratio(61, 2)
    ('0.3045', '0.4218', '0.162')
    """
    width, height = board_size(target, tracks)
    return str(round(height / width, 4))


def streets(target):
    """How many streets of 30 a board for ``target`` has (4 for 121, 2 for 61)."""
    return (target - 1) // STREET


def _pitch(tracks):
    """From one street's first lane to the next street's first lane."""
    return (tracks - 1) * LANE + GAP


def _street_top(street, tracks):
    """y of the first lane's holes in ``street`` (0-based)."""
    return TOP + street * _pitch(tracks)


def _numbers_y(street, tracks):
    """The baseline of the numbers under ``street``."""
    return _street_top(street, tracks) + (tracks - 1) * LANE + 20


def board_size(target, tracks):
    """(width, height) of the board in SVG units."""
    return WIDTH, _numbers_y(streets(target) - 1, tracks) + 8


def _column_x(column):
    return FIRST + column * PITCH + (column // 5) * GROUP_GAP


def _lane(street, tracks, track):
    """Where ``track`` runs across ``street``: the lanes swap sides at each turn, as on a
    real continuous board, so the outer lane stays outside round every turn."""
    return track if street % 2 == 0 else tracks - 1 - track


def hole_position(target, tracks, track, points):
    """Centre (x, y) of the hole of ``track`` (of ``tracks``) for ``points``.

    ``points`` 0 and -1 are the two start holes; ``target`` (and beyond) the game hole.

    >>> hole_position(121, 2, 1, 0)
    (34, 37)
    >>> hole_position(121, 2, 1, 31)[1] == hole_position(121, 2, 0, 31)[1] - LANE  # swapped
    True
    """
    if points <= 0:
        return START_X[points + 1], _street_top(0, tracks) + track * LANE
    last = streets(target) - 1
    if points >= target:
        return (START_X[0] + START_X[1]) // 2, _street_top(last, tracks) + (tracks - 1) * LANE // 2
    street, index = (points - 1) // STREET, (points - 1) % STREET
    column = index if street % 2 == 0 else STREET - 1 - index
    return _column_x(column), _street_top(street, tracks) + _lane(street, tracks, track) * LANE


def peg_transform(target, tracks, track, points):
    """The CSS ``transform`` that puts a peg in the hole for ``points``.

    CSS (not the SVG attribute) so that a transition animates the move.

    >>> peg_transform(121, 2, 0, 0)
    'translate(34px, 16px)'
    """
    x, y = hole_position(target, tracks, track, points)
    return "translate(" + str(x) + "px, " + str(y) + "px)"


def peg_place(target, tracks, track, points):
    """The SVG ``transform`` attribute for a peg in the hole for ``points``: where the
    board is first drawn (no style attribute, so the page's strict CSP allows it; the
    table then moves the pegs through the CSSOM, :func:`peg_transform`).

    >>> peg_place(121, 2, 0, 0)
    'translate(34 16)'
    """
    x, y = hole_position(target, tracks, track, points)
    return "translate(" + str(x) + " " + str(y) + ")"


def tag_side(target, tracks, track, points):
    """Which way a lane's score tag leans from its hole, across its street: ``before``
    (the street's first lane: up, or left on a board standing up its length), ``after``
    (its last lane) or ``mid`` (a middle lane, the game hole, and the board's two outer
    lanes, where a tag leaning out would leave the board), so the tags of two lanes side
    by side lean apart. The lanes swap sides at each turn, and so do their tags.

    >>> [tag_side(121, 2, 0, points) for points in (0, 5, 35, 65, 121)]
    ['mid', 'mid', 'after', 'before', 'mid']
    >>> [tag_side(121, 3, track, 35) for track in range(3)]
    ['after', 'mid', 'before']
    """
    street = 0 if points <= 0 else (points - 1) // STREET
    lane = _lane(street, tracks, track)
    if points >= target or (street, lane) in ((0, 0), (streets(target) - 1, tracks - 1)):
        return "mid"
    return "before" if lane == 0 else "after" if lane == tracks - 1 else "mid"


def tag_facts(target, tracks, track, points):
    """A lane's score tag for its front peg at ``points``: ``(text, side)``, the score (the
    engine pegs none past the target) and :func:`tag_side`. The table sets them as the
    peg moves.

    >>> tag_facts(121, 2, 1, 121), tag_facts(121, 2, 0, 47), tag_facts(121, 2, 1, 5)
    (('121', 'mid'), ('47', 'after'), ('5', 'after'))
    """
    return str(max(0, points)), tag_side(target, tracks, track, points)


def place_tag(tag, target, tracks, track, points):
    """Move a drawn tag (its element, ``#tag-<track>``) to the front peg at ``points``,
    through the CSSOM as the pegs are (:func:`peg_transform`), with its new facts.

    >>> class Element:  # the few parts of a DOM element it uses
    ...     def __init__(self): self.style, self.attributes, self.textContent = self, {}, ""
    ...     def setAttribute(self, name, value): self.attributes[name] = value
    ...     def querySelector(self, selector): return self
    >>> tag = Element(); place_tag(tag, 121, 2, 0, 35)
    >>> tag.style.transform, tag.attributes["data-side"], tag.textContent
    ('translate(586px, 88px)', 'after', '35')
    """
    text, side = tag_facts(target, tracks, track, points)
    tag.style.transform = peg_transform(target, tracks, track, points)
    tag.setAttribute("data-points", text)
    tag.setAttribute("data-side", side)
    tag.querySelector("text").textContent = text


def _tag(target, tracks, track, points):
    """A lane's score tag, drawn over every peg and moved with its lane's front peg (its
    colour is the page's CSS, by its id)."""
    text, side = tag_facts(target, tracks, track, points)
    return ('<g class="tag" id="tag-' + str(track) + '" data-points="' + text + '" data-side="'
            + side + '" transform="' + peg_place(target, tracks, track, points) + '"><text>'
            + text + "</text></g>")


def _text(x, y, text, cls):
    """A number or mark on the board, in a group of its own: a board standing up its
    length turns the group back upright (WebKit loses a text turned about its own box)."""
    return ('<g><text class="' + cls + '" x="' + str(x) + '" y="' + str(y) + '">' + escape(text)
            + "</text></g>")


def _turn(target, tracks, street):
    """The turn from ``street`` to the next: (x, centre y, sweep, radii of each lane).

    Each lane's turn is half an ellipse round the same centre, the outer lane widest,
    bulging right after an outward street and left after a return one.
    """
    points = (street + 1) * STREET
    x = hole_position(target, tracks, 0, points)[0]
    top = _street_top(street, tracks)
    centre = (2 * top + _pitch(tracks) + (tracks - 1) * LANE) / 2
    radii = []
    for lane in range(tracks):
        ry = centre - (top + lane * LANE)
        radii.append((ry * 0.55 + 4, ry))
    return x, centre, (1 if street % 2 == 0 else 0), radii


def _n(value):
    """A coordinate, short: ``12`` or ``12.5``."""
    text = str(round(value * 10) / 10)
    return text[:-2] if text.endswith(".0") else text


def _channel(target, tracks):
    """The routed channel the holes sit in: a bar a street and half an ellipse a turn."""
    left, right = FIRST - 13, _column_x(STREET - 1) + 13
    parts = ['<g class="channel">']
    for street in range(streets(target)):
        top = _street_top(street, tracks)
        parts.append('<rect class="street" x="' + str(left) + '" y="' + str(top - 13)
                     + '" width="' + str(right - left) + '" height="'
                     + str((tracks - 1) * LANE + 26) + '" rx="13"/>')
    for street in range(streets(target) - 1):
        x, centre, sweep, radii = _turn(target, tracks, street)
        rx, ry = radii[0][0] + 13, radii[0][1] + 13
        sign = 1 if sweep else -1
        parts.append('<path class="street" d="M' + _n(x) + " " + _n(centre - ry) + "A" + _n(rx)
                     + " " + _n(ry) + " 0 0 " + str(sweep) + " " + _n(x) + " " + _n(centre + ry)
                     + "h" + str(-13 * sign) + "v" + _n(-2 * ry) + 'z"/>')
    parts.append("</g>")
    return "".join(parts)


def _lane_path(target, tracks, track):
    """One lane's groove from its start holes round every turn to the game hole."""
    x, y = hole_position(target, tracks, track, -1)
    d = "M" + str(x) + " " + str(y)
    for street in range(streets(target)):
        x, y = hole_position(target, tracks, track, (street + 1) * STREET)
        d += "L" + str(x) + " " + str(y)
        if street < streets(target) - 1:
            tx, centre, sweep, radii = _turn(target, tracks, street)
            rx, ry = radii[_lane(street, tracks, track)]
            d += "A" + _n(rx) + " " + _n(ry) + " 0 0 " + str(sweep) + " " + str(tx) + " " + _n(
                centre + ry)
    x, y = hole_position(target, tracks, track, target)
    d += "L" + str(x) + " " + str(y)
    return ('<path class="lane" d="' + d + '" stroke="' + COLOURS[track % len(COLOURS)] + '"/>')


def _street_marks(target, tracks, street):
    """A street's numbers every ten and its marks every five, below its holes."""
    parts = []
    numbers_y = _numbers_y(street, tracks)
    for step in range(5, STREET + 1, 5):
        points = street * STREET + step
        x = hole_position(target, tracks, 0, points)[0]
        if step % 10:
            parts.append('<circle class="five" cx="' + str(x) + '" cy="' + str(numbers_y - 4)
                         + '" r="2"/>')
        else:
            parts.append(_text(x, numbers_y, str(points), "number"))
    return "".join(parts)


def _skunk_line(target, tracks, line, title):
    """The line a loser must pass: across the turn before the line's first safe hole."""
    x, centre, sweep, radii = _turn(target, tracks, (line - 1) // STREET - 1)
    reach = radii[0][0] + 11
    side = 1 if sweep else -1
    end = x + side * reach
    mark = end - side * 4
    return ('<g class="skunk" data-skunk="' + str(line) + '"><title>' + escape(title)
            + '</title><line x1="' + str(x + side * 12) + '" x2="' + _n(end) + '" y1="' + _n(centre)
            + '" y2="' + _n(centre) + '"/>' + _text(_n(mark), _n(centre - 4), "S", "skunk-mark")
            + "</g>")


def _holes(target, tracks, track):
    """One lane's holes (its two start holes first) as uses of the one drilled hole."""
    parts = ['<g class="holes" data-track="' + str(track) + '">']
    for points in (-1, 0):  # the start holes, ringed in brass
        x, y = hole_position(target, tracks, track, points)
        parts.append('<circle class="start" cx="' + str(x) + '" cy="' + str(y)
                     + '" r="10" fill="url(#pb-brass)"/>')
    for points in range(-1, target):
        x, y = hole_position(target, tracks, track, points)
        parts.append('<use class="hole" href="#pb-hole" x="' + str(x) + '" y="' + str(y) + '"/>')
    parts.append("</g>")
    return "".join(parts)


def board_svg(target, names, label=None, skunk_lines=(), skunk_title=None, pegs=None):
    """SVG markup for a board with one lane per entry of ``names``.

    ``label`` names the board for screen readers (the page's language);
    ``skunk_lines`` are the engine's (lowest safe scores), ``skunk_title(line)``
    their words; ``pegs`` the [front, back] of each lane (start holes if None).
    The board scales to its box (``viewBox``, kept in proportion), and its paints
    (wood, grain, drilled holes, brass, pins) are defined once in it.

    >>> svg = board_svg(61, ["You", "Computer", "Left"], "Board", [31], lambda n: "skunk")
    >>> svg.count('class="hole"'), svg.count('data-skunk="31"'), '>60</text>' in svg
    (186, 1, True)
    >>> len(board_svg(121, ["You", "Computer"])) < 18000  # small: parsed again on each new game
    True
    """
    tracks = len(names)
    width, height = board_size(target, tracks)
    parts = ['<svg class="pegboard" viewBox="0 0 ' + str(width) + " " + str(height)
             + '" role="img" data-target="' + str(target)
             + '" data-tracks="' + str(tracks) + '" aria-label="'
             + escape(label if label is not None else "Peg board to " + str(target)) + '">'
             + DEFS + PIN_DEFS + "</defs>"
             + '<rect class="wood" width="' + str(width) + '" height="'
             + str(height) + '" rx="14" fill="url(#pb-wood)"/>'
             + '<rect class="grain" width="' + str(width) + '" height="'
             + str(height) + '" rx="14" fill="url(#pb-grain)"/>',
             _channel(target, tracks)]
    for track in range(tracks):
        parts.append(_lane_path(target, tracks, track))
    for street in range(streets(target)):
        parts.append(_street_marks(target, tracks, street))
    for line in skunk_lines:
        if 1 < line < target and (line - 1) % STREET == 0:
            parts.append(_skunk_line(target, tracks, line,
                                     skunk_title(line) if skunk_title else str(line)))
    for track in range(tracks):
        parts.append(_holes(target, tracks, track))
    gx, gy = hole_position(target, tracks, 0, target)
    parts.append('<circle class="game-hole" cx="' + str(gx) + '" cy="' + str(gy) + '" r="12" '
                 'fill="url(#pb-drill)" stroke="url(#pb-brass)" stroke-width="3"/>')
    for track, name in enumerate(names):
        pin = "#pb-pin" + str(track % len(COLOURS))
        at = pegs[track] if pegs else (0, -1)
        for which, points in (("back", at[1]), ("front", at[0])):
            parts.append('<g class="peg peg-' + which + '" id="peg-' + str(track) + "-" + which
                         + '" transform="' + peg_place(target, tracks, track, points)
                         + '"><title>' + escape(name) + '</title><use href="' + pin
                         + '"/></g>')
    for track in range(tracks):
        parts.append(_tag(target, tracks, track, pegs[track][0] if pegs else 0))
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
