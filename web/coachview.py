"""Pure logic for the coach, the fair-deal line and the statistics (no browser).

Runs under MicroPython on the page and under CPython in the tests, so it keeps
to the subset both share (see shared/DESIGN.md). HTML comes out escaped.
"""

from tableview import card_html, card_words, html

PEGGING = ("play", "go", "last card", "heels")
SOURCES = ("hand", "crib", "pegging", "muggins")


def short_hash(text, size=12):
    """The first ``size`` hex digits of a commitment.

    >>> short_hash("3f9a1c2b7d4e0f11aa")
    '3f9a1c2b7d4e'
    """
    return str(text)[:size]


def fair_summary(proof):
    """The one-line 'Fair deal' text: the sealed deal(s) before their cards are seen.

    >>> fair_summary({"deal": 0, "sealed": [{"deal": 1, "commitment": "ab" * 32}]})
    'Fair deal 1 sealed ababababab'
    >>> fair_summary({"deal": 2, "sealed": [{"deal": 2, "commitment": "c" * 64},
    ...     {"deal": 3, "commitment": "d" * 64}]})
    'Fair deal 2 sealed cccccccccc · next dddddddddd'
    >>> fair_summary({"deal": 5, "sealed": []})
    'Fair deals: all revealed'
    """
    sealed = proof.get("sealed") or []
    if not sealed:
        return "Fair deals: all revealed"
    text = "Fair deal " + str(sealed[0]["deal"]) + " sealed " + short_hash(
        sealed[0]["commitment"], 10)
    if len(sealed) > 1:
        text += " · next " + short_hash(sealed[1]["commitment"], 10)
    return text


def fair_html(proof):
    """The details of the fair-deal line: what was sealed and what was revealed."""
    parts = ['<p>Each deck is shuffled and sealed with SHA-256 before it is dealt; after '
             'the deal its salt and order are shown, so you can check that '
             'sha256(salt + ":" + deck) is the seal you saw.</p><ul class="fair-sealed">']
    for entry in proof.get("sealed") or []:
        parts.append('<li data-deal="' + str(entry["deal"]) + '" data-commitment="'
                     + html(entry["commitment"]) + '">Deal ' + str(entry["deal"])
                     + " sealed <code>" + html(entry["commitment"]) + "</code></li>")
    parts.append('</ul><ol class="fair-deals">')
    for entry in proof.get("revealed") or []:
        deck = " ".join(entry["deck"])
        parts.append('<li data-deal="' + str(entry["deal"]) + '" data-commitment="'
                     + html(entry["commitment"]) + '" data-salt="' + html(entry["salt"])
                     + '" data-deck="' + html(deck) + '">Deal ' + str(entry["deal"])
                     + ": seal <code>" + html(entry["commitment"]) + "</code>, salt <code>"
                     + html(entry["salt"]) + "</code>, deck <code>" + html(deck)
                     + "</code></li>")
    parts.append("</ol>")
    return "".join(parts)


def _cards(codes):
    return "".join(card_html(code) for code in codes)


def _num(value):
    return "{:.2f}".format(value)  # noqa: UP032 - the UI code keeps to str.format


def advice_html(advice):
    """The coach's ranked choices as a table, best first.

    >>> text = advice_html({"kind": "play", "choices": [{"card": "5S", "value": 1.5,
    ...     "points_now": 2, "reply_risk": 0.4, "reason": "count 15; pegs 2 now"}]})
    >>> 'data-rank="1"' in text and "five of spades" in text and "1.50" in text
    True
    """
    rows = []
    if advice["kind"] == "discard":
        head = "<tr><th>#</th><th>Lay away</th><th>Keep</th><th>Hand</th><th>Crib</th>" \
               "<th>Net</th></tr>"
        for rank, choice in enumerate(advice["choices"]):
            rows.append('<tr data-rank="' + str(rank + 1) + '" data-value="'
                        + _num(choice["net"]) + '"><td>' + str(rank + 1) + "</td><td>"
                        + _cards(choice["discard"]) + "</td><td>" + _cards(choice["keep"])
                        + "</td><td>" + _num(choice["hand"]) + "</td><td>"
                        + _num(choice["crib"]) + "</td><td><b>" + _num(choice["net"])
                        + "</b></td></tr>")
        note = ("Expected points over every starter: your hand, the crib, and the net "
                "(crib added when it is yours, taken away when it is theirs).")
    else:
        head = "<tr><th>#</th><th>Card</th><th>Value</th><th>Pegs now</th><th>Why</th></tr>"
        for rank, choice in enumerate(advice["choices"]):
            rows.append('<tr data-rank="' + str(rank + 1) + '" data-value="'
                        + _num(choice["value"]) + '"><td>' + str(rank + 1) + "</td><td>"
                        + card_html(choice["card"]) + "</td><td><b>" + _num(choice["value"])
                        + "</b></td><td>" + str(choice["points_now"]) + "</td><td>"
                        + html(choice["reason"]) + "</td></tr>")
        note = "Value: the pegging you can expect from here, yours minus theirs."
    return ('<h2>Coach</h2><p class="note">' + html(note) + '</p><table class="advice">'
            + head + "".join(rows) + "</table>")


def _choice_text(kind, codes):
    words = " and ".join(card_words(code) for code in codes)
    return ("laid away " if kind == "discard" else "played ") + words


def review_html(review):
    """Where the human's choices in a deal lost expected points.

    >>> text = review_html({"deal": 2, "lost": 1.25, "decisions": [{"kind": "play",
    ...     "chosen": ["5S"], "best": ["TD"], "chosen_value": 0.5, "best_value": 1.75,
    ...     "loss": 1.25, "count": 10}]})
    >>> "1.25" in text and "ten of diamonds" in text and 'data-loss="1.25"' in text
    True
    """
    rows = []
    for decision in review["decisions"]:
        kind = decision["kind"]
        text = "You " + _choice_text(kind, decision["chosen"])
        if kind == "play":
            text += " at count " + str(decision["count"])
        if decision["loss"] >= 0.005:
            best = " and ".join(card_words(code) for code in decision["best"])
            text += ("; the coach's best was " + ("to lay away the " if kind == "discard"
                                                  else "the ") + best
                     + " (" + _num(decision["best_value"]) + " against "
                     + _num(decision["chosen_value"]) + "): −" + _num(decision["loss"])
                     + " expected points.")
        else:
            text += ": the coach's best choice."
        rows.append('<li data-loss="' + _num(decision["loss"]) + '">' + html(text) + "</li>")
    if not rows:
        rows.append("<li>No choices to review in this deal (every move was forced).</li>")
    return ('<div class="review" data-lost="' + _num(review["lost"]) + '"><h3>Review of deal '
            + str(review["deal"]) + ": " + _num(review["lost"])
            + " expected points given up</h3><ol>" + "".join(rows) + "</ol></div>")


def points_by_source(events, teams):
    """Points per team from hands, crib, pegging (heels included) and muggins.

    >>> events = [{"kind": "play", "team": 0, "points": 2}, {"kind": "hand", "team": 1,
    ...     "points": 8}, {"kind": "crib", "team": 0, "points": 4},
    ...     {"kind": "heels", "team": 0, "points": 2}, {"kind": "deal", "team": 0, "points": 0}]
    >>> points_by_source(events, 2)[0]
    {'hand': 0, 'crib': 4, 'pegging': 4, 'muggins': 0}
    """
    totals = [dict((source, 0) for source in SOURCES) for _ in range(teams)]
    for event in events:
        team, points = event.get("team"), event.get("points") or 0
        if team is None or not points or not 0 <= team < teams:
            continue
        kind = event["kind"]
        source = "pegging" if kind in PEGGING else kind
        if source in SOURCES:
            totals[team][source] += points
    return totals


def summary_html(totals, names):
    """The game-over table: each player's (or team's) points by where they came from."""
    rows = ["<tr><th></th><th>Hands</th><th>Crib</th><th>Pegging</th><th>Muggins</th>"
            "<th>Total</th></tr>"]
    for team, parts in enumerate(totals):
        cells = "".join("<td data-source=\"" + source + "\">" + str(parts[source]) + "</td>"
                        for source in SOURCES)
        total = sum(parts[source] for source in SOURCES)
        rows.append('<tr data-team="' + str(team) + '"><th>' + html(names[team]) + "</th>"
                    + cells + '<td data-source="total">' + str(total) + "</td></tr>")
    return '<table class="game-summary">' + "".join(rows) + "</table>"
