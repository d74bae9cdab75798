"""Charts drawn by the page as SVG, each with its words for screen readers (pure).

Runs under MicroPython on the page and under CPython in the tests. Every chart
is a ``<figure class="chart">`` whose SVG has ``role="img"``, a name (its
title) and a ``<desc>`` that says in words what the picture shows, in the
page's language.

- :func:`score_chart`: the game-over dialog's scores deal by deal (the engine's
  ``summary``, as pegged);
- :func:`results_chart`: the statistics' finished games, won or lost by how much;
- :func:`hands_chart`: the statistics' hand scores against the share of each
  score among all 12,994,800 hands (the engine's ``hand_distribution``);
- :func:`accuracy_chart`: the statistics' accuracy of each reviewed game.
"""

from shell import escape

# The lanes' colours, the pegs' (web/views/pegboard.mjs COLOURS): a score's line is drawn
# in its pegs' colour.
COLOURS = ("#c0392b", "#1f5fa8", "#1e8449")

W = 320  # the SVG's width in its units; each chart has its own height
LEFT, RIGHT, TOP = 34, 312, 24  # the plot area (its bottom is 26 above the chart's)


def _figure(kind, title, desc, body, height, legend=""):
    return ('<figure class="chart" data-chart="' + kind + '"><figcaption>' + escape(title)
            + '</figcaption><svg viewBox="0 0 ' + str(W) + " " + str(height) + '" role="img" '
            'aria-label="' + escape(title) + '"><title>' + escape(title) + "</title><desc>"
            + escape(desc) + "</desc>" + body + "</svg>" + legend + "</figure>")


def _line(x1, y1, x2, y2, cls):
    return ('<line class="' + cls + '" x1="' + _n(x1) + '" y1="' + _n(y1) + '" x2="' + _n(x2)
            + '" y2="' + _n(y2) + '"/>')


def _label(x, y, text, anchor="middle"):
    return ('<text class="label" x="' + _n(x) + '" y="' + _n(y) + '" text-anchor="' + anchor
            + '">' + escape(text) + "</text>")


def _n(value):
    """A coordinate in short text: ``12``, ``12.5``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _legend(entries):
    """An HTML legend: (colour or class, name) pairs."""
    items = []
    for colour, name in entries:
        if colour.startswith("#"):  # a fill attribute, not a style one: the page's CSP
            swatch = ('<svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect '
                      'width="10" height="10" rx="2" fill="' + colour + '"/></svg>')
        else:
            swatch = '<span class="swatch ' + colour + '"></span>'
        items.append("<li>" + swatch + escape(name) + "</li>")
    return '<ul class="chart-legend">' + "".join(items) + "</ul>"


def _y_axis(top_value, step, label, bottom):
    """Grid lines and numbers up the left, from 0 to ``top_value``, its name above."""
    parts = []
    value = 0
    while value <= top_value:
        y = bottom - (bottom - TOP) * value / top_value
        parts.append(_line(LEFT, y, RIGHT, y, "grid" if value else "axis"))
        parts.append(_label(LEFT - 4, y + 4, str(value), "end"))
        value += step
    parts.append(_label(4, 12, label, "start"))
    return "".join(parts)


def score_chart(words, series, names, target):
    """The scores after each deal (the engine's ``by_deal``: each score at the start and
    after each deal, as pegged), one line per score, in the pegs' colours.

    >>> html = score_chart(words, [[0, 10, 30], [0, 5, 40]], ["You", "Computer"], 121)
    >>> html.count('class="series"'), "Deal 2: You 30, Computer 40" in html
    (2, True)
    """
    deals = max(len(row) for row in series) - 1
    step = 30 if target > 61 else 15
    height = 190
    bottom = height - 26
    body = [_y_axis(target, step, words.t("chart.axis.points"), bottom)]
    span = max(deals, 1)
    every = 1 if deals <= 12 else (2 if deals <= 24 else 5)
    for deal in range(0, deals + 1, every):
        body.append(_label(LEFT + (RIGHT - LEFT) * deal / span, bottom + 14, str(deal)))
    body.append(_label(RIGHT, height - 1, words.t("chart.axis.deal"), "end"))
    for team, row in enumerate(series):
        colour = COLOURS[team % len(COLOURS)]
        points = " ".join(_n(LEFT + (RIGHT - LEFT) * deal / span) + ","
                          + _n(bottom - (bottom - TOP) * score / target)
                          for deal, score in enumerate(row))
        body.append('<polyline class="series" data-team="' + str(team) + '" stroke="' + colour
                    + '" points="' + points + '"/>')
    desc = ". ".join(words.t("chart.deal", {"deal": deal}) + ": " + ", ".join(
        name + " " + str(row[deal]) for name, row in zip(names, series))
        for deal in range(1, deals + 1))
    legend = _legend([(COLOURS[team % len(COLOURS)], name) for team, name in enumerate(names)])
    return _figure("scores", words.t("chart.scores.title"), desc, "".join(body), height, legend)


def empty_chart(name, title, note):
    """A chart's figure with nothing to draw yet: its title and a note saying why."""
    return ('<figure class="chart" data-chart="' + name + '"><figcaption>' + escape(title)
            + '</figcaption><p class="note">' + escape(note) + "</p></figure>")


def results_chart(words, results, last=40):
    """The latest finished games: a bar up for a win, down for a loss, by the margin.

    ``results``: the statistics' games, oldest first (``{"won", "me", "op"}``).

    >>> html = results_chart(words, [{"won": True, "me": 121, "op": 100},
    ...                              {"won": False, "me": 80, "op": 121}])
    >>> html.count("<rect"), "Game 2: lost by 41" in html
    (2, True)
    """
    title = words.t("chart.results.title")
    if not results:
        return empty_chart("results", title, words.t("chart.results.none"))
    first = max(len(results) - last, 0)
    shown = results[first:]
    margins = [abs(game["me"] - game["op"]) for game in shown]
    scale = max(margins + [30])
    top, bottom = 8, 112
    middle = (top + bottom) / 2
    width = (RIGHT - LEFT) / max(len(shown), 10)
    body = [_line(LEFT, middle, RIGHT, middle, "axis"), _label(LEFT - 4, top + 8, "+" + str(scale),
            "end"), _label(LEFT - 4, bottom, "-" + str(scale), "end")]
    lines = []
    for index, game in enumerate(shown):
        height = (bottom - top) / 2 * margins[index] / scale
        x = LEFT + index * width + width * 0.15
        y = middle - height if game["won"] else middle
        body.append('<rect class="' + ("won" if game["won"] else "lost") + '" x="' + _n(x)
                    + '" y="' + _n(y) + '" width="' + _n(width * 0.7) + '" height="'
                    + _n(max(height, 1)) + '"/>')
        lines.append(words.t("chart.results.won" if game["won"] else "chart.results.lost",
                             {"n": first + index + 1, "margin": margins[index]}))
    return _figure("results", title, ". ".join(lines), "".join(body), bottom + 8)


def _share(count, total):
    return 100.0 * count / total if total else 0.0


def _average(counts):
    total = sum(counts)
    return sum(points * n for points, n in enumerate(counts)) / total if total else 0.0


def hands_chart(words, mine, everyone=None):
    """The share of each hand score: yours (a histogram, index = points) beside the
    share among all hands (the engine's counts, or None while they are on their way).

    >>> html = hands_chart(words, [0] * 8 + [2] + [0] * 21, [1] * 30)
    >>> "8 points: you 100.0%, all hands 3.3%" in html, html.count('class="you"')
    (True, 1)
    """
    title = words.t("chart.hands.title")
    if not sum(mine):
        return empty_chart("hands", title, words.t("chart.hands.none"))
    total_mine = sum(mine)
    total_all = sum(everyone) if everyone else 0
    shares_mine = [_share(n, total_mine) for n in mine]
    shares_all = [_share(n, total_all) for n in everyone] if everyone else [0.0] * len(mine)
    top = max(shares_mine + shares_all)
    top = max(10, int(top / 10 + 0.999) * 10)
    height = 150
    bottom = height - 26
    body = [_y_axis(top, 10 if top <= 50 else 20, "%", bottom)]
    slot = (RIGHT - LEFT) / 30
    rows = []
    for points in range(30):
        x = LEFT + points * slot
        for share, cls, offset in ((shares_all[points], "all", 0.1), (shares_mine[points], "you",
                                                                       0.5)):
            if share:
                tall = (bottom - TOP) * share / top
                body.append('<rect class="' + cls + '" x="' + _n(x + slot * offset) + '" y="'
                            + _n(bottom - tall) + '" width="' + _n(slot * 0.4) + '" height="'
                            + _n(tall) + '"/>')
        if points % 4 == 0:
            body.append(_label(x + slot / 2, bottom + 14, str(points)))
        if mine[points] or (everyone and everyone[points]):
            rows.append(words.t("chart.hands.row", {
                "points": points, "you": f"{shares_mine[points]:.1f}%",
                "all": f"{shares_all[points]:.1f}%" if everyone else "…"}))
    body.append(_label(RIGHT, height - 1, words.t("chart.axis.points"), "end"))
    average = words.t("chart.hands.average", {
        "you": f"{_average(mine):.2f}", "all": f"{_average(everyone):.2f}" if everyone else "…"})
    legend = _legend([("you", words.t("chart.hands.mine")), ("all", words.t("chart.hands.all"))])
    return _figure("hands", title, average + ". " + ". ".join(rows), "".join(body), height,
                   legend + '<p class="note">' + escape(average) + "</p>")


def accuracy_chart(words, accuracies, last=40):
    """The accuracy of each reviewed game (0 to 100), oldest first, as a line of dots.

    >>> html = accuracy_chart(words, [80.0, 92.5])
    >>> html.count("<circle"), "Game 2: 92.5" in html
    (2, True)
    >>> "Review a finished game" in accuracy_chart(words, [])
    True
    """
    title = words.t("chart.accuracy.title")
    if not accuracies:
        return empty_chart("accuracy", title, words.t("chart.accuracy.none"))
    first = max(len(accuracies) - last, 0)
    shown = accuracies[first:]
    height = 150
    bottom = height - 26
    body = [_y_axis(100, 25, words.t("chart.axis.accuracy"), bottom)]
    span = max(len(shown) - 1, 1)
    spots = []
    lines = []
    for index, accuracy in enumerate(shown):
        x = LEFT + (RIGHT - LEFT) * (index / span if len(shown) > 1 else 0.5)
        y = bottom - (bottom - TOP) * accuracy / 100
        spots.append((x, y))
        lines.append(words.t("chart.accuracy.game", {"n": first + index + 1,
                                                     "accuracy": _n(accuracy)}))
    if len(spots) > 1:
        body.append('<polyline class="series accuracy" points="' + " ".join(
            _n(x) + "," + _n(y) for x, y in spots) + '"/>')
    for x, y in spots:
        body.append('<circle class="accuracy" cx="' + _n(x) + '" cy="' + _n(y) + '" r="3"/>')
    body.append(_label(RIGHT, height - 1, words.t("chart.axis.game"), "end"))
    return _figure("accuracy", title, ". ".join(lines), "".join(body), height)
