"""Pure logic for the whole-game review panel (no browser).

The engine grades every decision (``review_game``, :mod:`cribbage.review`):
its category, the reason in words in the language asked, the accuracy and
the three costliest moments with their positions. This module only draws
that report: grade names from the page's words, cards with the table's
renderers. Runs under MicroPython on the page and under CPython in the tests
(the subset both share, see docs/architecture.md). HTML comes out escaped.
"""

from tableview import card_html, html

CATEGORIES = ("best", "good", "inaccuracy", "mistake", "blunder")


def progress_text(words, deal, total):
    """What the progress line says while deal ``deal`` of ``total`` is graded (past the
    last deal, the game is summed up).

    >>> progress_text(words, 3, 8), progress_text(words, 9, 8)
    ('Reviewing deal 3 of 8…', 'Summing up the game…')
    """
    if deal > total:
        return words.t("gamereview.summing")
    return words.t("gamereview.progress", {"done": deal, "total": total})


def grade_html(words, category):
    """A decision's grade as a small labelled badge.

    >>> grade_html(words, "mistake")
    '<span class="grade grade-mistake">Mistake</span>'
    """
    return ('<span class="grade grade-' + category + '">'
            + html(words.t("gamereview.category." + category)) + "</span>")


def _cards(words, codes):
    return "".join(card_html(words, code) for code in codes)


def position_html(words, position, names):
    """Where a decision was made, drawn: the hand, the starter, the pile, the scores.

    >>> text = position_html(words, {"deal": 2, "hand": ["5S", "5H"], "starter": None,
    ...     "pile": ["TD"], "count": 10, "scores": [40, 52]}, ["You", "Computer"])
    >>> "five of spades" in text and "Pile, count 10" in text and "You 40" in text
    True
    >>> "Starter" in text
    False
    """
    rows = [(words.t("gamereview.hand"), _cards(words, position["hand"]))]
    if position.get("starter"):
        rows.append((words.t("gamereview.starter"), card_html(words, position["starter"])))
    if position.get("pile"):
        rows.append((words.t("gamereview.pile", {"count": position["count"]}),
                     _cards(words, position["pile"])))
    scores = ", ".join(html(name) + " " + str(score)
                       for name, score in zip(names, position["scores"]))
    rows.append((words.t("gamereview.scores"), scores))
    return ('<dl class="review-position">' + "".join(
        "<dt>" + html(label) + "</dt><dd>" + value + "</dd>" for label, value in rows) + "</dl>")


def _where(words, decision):
    return words.t("gamereview.line", {"deal": decision["position"]["deal"],
                                       "kind": words.t("gamereview.kind." + decision["kind"])})


def _decision_html(words, decision):
    return ('<li data-kind="' + decision["kind"] + '" data-category="' + decision["category"]
            + '" data-deal="' + str(decision["position"]["deal"]) + '">'
            + grade_html(words, decision["category"]) + ' <span class="where">'
            + html(_where(words, decision)) + "</span> " + html(decision["reason"]) + "</li>")


def review_html(words, report, names):
    """The review panel: accuracy, the decisions by grade, the costliest moments with
    their positions, then every decision in the game's order.

    ``report``: the engine's ``review_game`` reply; ``names``: the score names.

    >>> decision = {"kind": "discard", "category": "blunder", "reason": "You laid away 5-5.",
    ...     "cost": 3.5, "position": {"deal": 1, "hand": ["5S"], "starter": None, "pile": [],
    ...     "count": 0, "scores": [0, 0]}}
    >>> text = review_html(words, {"accuracy": 17.4, "decisions": [decision],
    ...     "counts": {"best": 0, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1},
    ...     "costliest": [decision]}, ["You", "Computer"])
    >>> 'data-accuracy="17.4"' in text and "Accuracy 17/100" in text
    True
    >>> text.count('data-category="blunder"'), "You laid away 5-5." in text
    (3, True)
    """
    if not report["decisions"]:
        return "<p>" + html(words.t("gamereview.nothing")) + "</p>"
    accuracy = report["accuracy"]
    parts = ['<p class="review-accuracy" data-accuracy="' + str(accuracy) + '"><b>'
             + html(words.t("gamereview.accuracy", {"accuracy": int(accuracy + 0.5)}))
             + "</b></p><p class=\"note\">" + html(words.t("gamereview.accuracy_note"))
             + "</p>"]
    parts.append('<ul class="review-counts" aria-label="' + html(words.t("gamereview.counts"))
                 + '">' + "".join('<li data-category="' + name + '">' + grade_html(words, name)
                                  + " " + str(report["counts"][name]) + "</li>"
                                  for name in CATEGORIES) + "</ul>")
    parts.append("<h3>" + html(words.t("gamereview.costliest")) + "</h3>")
    if report["costliest"]:
        parts.append('<ol class="review-costliest">' + "".join(
            '<li data-category="' + d["category"] + '"><p>' + grade_html(words, d["category"])
            + ' <span class="where">' + html(_where(words, d)) + "</span> " + html(d["reason"])
            + "</p>" + position_html(words, d["position"], names) + "</li>"
            for d in report["costliest"]) + "</ol>")
    else:
        parts.append("<p>" + html(words.t("gamereview.no_costly")) + "</p>")
    parts.append("<h3>" + html(words.t("gamereview.all")) + '</h3><ol class="review-decisions">'
                 + "".join(_decision_html(words, d) for d in report["decisions"]) + "</ol>")
    return "".join(parts)
