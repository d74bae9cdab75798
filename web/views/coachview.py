"""Pure logic for the coach, the fair-deal line and the statistics (no browser).

Runs under MicroPython on the page and under CPython in the tests, so it keeps
to the subset both share (see docs/architecture.md). HTML comes out escaped.
"""

from tableview import card_html, card_words, html


def short_hash(text, size=12):
    """The first ``size`` hex digits of a commitment.

    >>> short_hash("3f9a1c2b7d4e0f11aa")
    '3f9a1c2b7d4e'
    """
    return str(text)[:size]


def fair_summary(words, proof):
    """The one-line 'Fair deal' text: the sealed deal(s) before their cards are seen.

    >>> fair_summary(words, {"deal": 0, "sealed": [{"deal": 1, "commitment": "ab" * 32}]})
    'Fair deal 1 sealed ababababab'
    >>> fair_summary(words, {"deal": 2, "sealed": [{"deal": 2, "commitment": "c" * 64},
    ...     {"deal": 3, "commitment": "d" * 64}]})
    'Fair deal 2 sealed cccccccccc · next dddddddddd'
    >>> fair_summary(words, {"deal": 5, "sealed": []})
    'Fair deals: all revealed'
    """
    sealed = proof.get("sealed") or []
    if not sealed:
        return words.t("fair.all")
    text = words.t("fair.summary", {"deal": sealed[0]["deal"],
                              "seal": short_hash(sealed[0]["commitment"], 10)})
    if len(sealed) > 1:
        text += words.t("fair.next", {"seal": short_hash(sealed[1]["commitment"], 10)})
    return text


def _code(text):
    return "<code>" + html(text) + "</code>"


def fair_html(words, proof):
    """The details of the fair-deal line: what was sealed and what was revealed."""
    parts = ["<p>" + html(words.t("fair.explain")) + '</p><ul class="fair-sealed">']
    for entry in proof.get("sealed") or []:
        parts.append('<li data-deal="' + str(entry["deal"]) + '" data-commitment="'
                     + html(entry["commitment"]) + '">'
                     + words.markup("fair.sealed", {"deal": entry["deal"],
                                              "seal": _code(entry["commitment"])}) + "</li>")
    parts.append('</ul><ol class="fair-deals">')
    for entry in proof.get("revealed") or []:
        deck = " ".join(entry["deck"])
        parts.append('<li data-deal="' + str(entry["deal"]) + '" data-commitment="'
                     + html(entry["commitment"]) + '" data-salt="' + html(entry["salt"])
                     + '" data-deck="' + html(deck) + '">'
                     + words.markup("fair.revealed", {"deal": entry["deal"],
                                                "seal": _code(entry["commitment"]),
                                                "salt": _code(entry["salt"]),
                                                "deck": _code(deck)}) + "</li>")
    parts.append("</ol>")
    return "".join(parts)


def _cards(words, codes):
    return "".join(card_html(words, code) for code in codes)


def _num(value):
    return "{:.2f}".format(value)  # noqa: UP032 - the UI code keeps to str.format


def _head(words, keys):
    return "<tr><th>#</th>" + "".join("<th>" + html(words.t("coach.col." + key)) + "</th>"
                                      for key in keys) + "</tr>"


def card_value(code):
    """What a card adds to the count: ace 1, tens and faces 10.

    >>> card_value("AS"), card_value("7H"), card_value("QD")
    (1, 7, 10)
    """
    return min("A23456789TJQK".index(code[0]) + 1, 10)


def play_reason(words, choice, count):
    """Why a card is worth what the coach says, from its facts (``count`` before it).

    >>> play_reason(words, {"card": "TS", "points_now": 2, "reply_risk": 0.46}, 5)
    'count 15; pegs 2 now; the reply may score 0.5 on average'
    >>> play_reason(words, {"card": "AS", "points_now": 0, "reply_risk": 0.0}, 20)
    'count 21; 21 invites a ten for fifteen or 31'
    """
    after = count + card_value(choice["card"])
    parts = [words.t("coach.why.count", {"count": after})]
    if choice["points_now"]:
        parts.append(words.t("coach.why.pegs", {"points": choice["points_now"]}))
    if choice["reply_risk"] >= 0.05:
        parts.append(words.t("coach.why.risk", {"risk": "{:.1f}".format(choice["reply_risk"])}))
    if after in (5, 21):
        parts.append(words.t("coach.why.invite", {"count": after}))
    return words.t("coach.why.join").join(parts)


def _win_cell(choice):
    """The master's chance to win with a choice (near the end of a game), or nothing."""
    if "win" not in choice:
        return ""
    return '<td data-win="' + str(choice["win"]) + '">' + "{:.0f}".format(choice["win"]) + "</td>"


def advice_html(words, advice, count=0):
    """The coach's ranked choices as a table, best first (``count``: the count in play).

    Near the end of a game each choice also has its chance to win (``win``) and,
    when the board changes the advice, ``note`` says why (in the engine's words).

    >>> text = advice_html(words, {"kind": "play", "choices": [{"card": "5S", "value": 1.5,
    ...     "points_now": 2, "reply_risk": 0.4, "reason": "count 15; pegs 2 now"}]}, 10)
    >>> 'data-rank="1"' in text and "five of spades" in text and "1.50" in text
    True
    >>> "count 15; pegs 2 now" in text
    True
    >>> text = advice_html(words, {"kind": "play", "note": "You need 4 to win.", "choices": [
    ...     {"card": "5S", "value": 1.5, "points_now": 2, "reply_risk": 0.4, "win": 61.5}]}, 10)
    >>> 'class="board-note"' in text and "Win %" in text and 'data-win="61.5"' in text
    True
    """
    rows = []
    wins = bool(advice["choices"]) and "win" in advice["choices"][0]
    if advice["kind"] == "discard":
        head = _head(words, ("lay_away", "keep", "hand", "crib", "net") + (("win",) if wins
                                                                           else ()))
        for rank, choice in enumerate(advice["choices"]):
            rows.append('<tr data-rank="' + str(rank + 1) + '" data-value="'
                        + _num(choice["net"]) + '"><td>' + str(rank + 1) + "</td><td>"
                        + _cards(words, choice["discard"]) + "</td><td>"
                        + _cards(words, choice["keep"])
                        + "</td><td>" + _num(choice["hand"]) + "</td><td>"
                        + _num(choice["crib"]) + "</td><td><b>" + _num(choice["net"])
                        + "</b></td>" + _win_cell(choice) + "</tr>")
        note = words.t("coach.note.discard")
    else:
        head = _head(words, ("card", "value", "pegs_now") + (("win",) if wins else ())
                     + ("why",))
        for rank, choice in enumerate(advice["choices"]):
            rows.append('<tr data-rank="' + str(rank + 1) + '" data-value="'
                        + _num(choice["value"]) + '"><td>' + str(rank + 1) + "</td><td>"
                        + card_html(words, choice["card"]) + "</td><td><b>" + _num(choice["value"])
                        + "</b></td><td>" + str(choice["points_now"]) + "</td>"
                        + _win_cell(choice) + "<td>"
                        + html(play_reason(words, choice, count)) + "</td></tr>")
        note = words.t("coach.note.play")
    board = ""
    if advice.get("note"):
        board = '<p class="board-note">' + html(advice["note"]) + "</p>"
    return ("<h2>" + html(words.t("coach.title")) + "</h2>" + board + '<p class="note">'
            + html(note) + '</p><table class="advice">' + head + "".join(rows) + "</table>")


def _card_list(words, codes):
    return words.t("cards.and").join(card_words(words, code) for code in codes)


def review_html(words, review):
    """Where the human's choices in a deal lost expected points.

    >>> text = review_html(words, {"deal": 2, "lost": 1.25, "decisions": [{"kind": "play",
    ...     "chosen": ["5S"], "best": ["TD"], "chosen_value": 0.5, "best_value": 1.75,
    ...     "loss": 1.25, "count": 10}]})
    >>> "1.25" in text and "ten of diamonds" in text and 'data-loss="1.25"' in text
    True
    >>> "You played five of spades at count 10; the coach's best was the ten" in text
    True
    """
    rows = []
    for decision in review["decisions"]:
        kind = decision["kind"]
        chosen = _card_list(words, decision["chosen"])
        if kind == "play":
            text = words.t("review.played", {"cards": chosen, "count": decision["count"]})
        else:
            text = words.t("review.laid", {"cards": chosen})
        if decision["loss"] >= 0.005:
            text += words.t("review.best_discard" if kind == "discard" else "review.best_play", {
                "cards": _card_list(words, decision["best"]), "best": _num(decision["best_value"]),
                "chosen": _num(decision["chosen_value"]), "loss": _num(decision["loss"])})
        else:
            text += words.t("review.good")
        rows.append('<li data-loss="' + _num(decision["loss"]) + '">' + html(text) + "</li>")
    if not rows:
        rows.append("<li>" + html(words.t("review.none")) + "</li>")
    return ('<div class="review" data-lost="' + _num(review["lost"]) + '"><h3>'
            + html(words.t("review.title", {"deal": review["deal"], "lost": _num(review["lost"])}))
            + "</h3><ol>" + "".join(rows) + "</ol></div>")


def summary_html(words, summary, names):
    """The game-over table: each player's (or team's) points by where they came from, as
    the engine's summary gives them (``sources``, and each side's ``points``).

    >>> summary = {"sources": ["hand", "crib", "pegging", "muggins"], "points": [
    ...     {"hand": 60, "crib": 20, "pegging": 41, "muggins": 0, "total": 121},
    ...     {"hand": 50, "crib": 10, "pegging": 30, "muggins": 2, "total": 92}]}
    >>> html = summary_html(words, summary, ["You", "Computer"])
    >>> html.count('data-source="total">121<'), html.count("<tr data-team=")
    (1, 2)
    """
    columns = summary["sources"] + ["total"]
    rows = ["<tr><td></td>" + "".join("<th>" + html(words.t("summary." + key)) + "</th>"
                                      for key in columns) + "</tr>"]
    for team, parts in enumerate(summary["points"]):
        cells = "".join('<td data-source="' + source + '">' + str(parts[source]) + "</td>"
                        for source in columns)
        rows.append('<tr data-team="' + str(team) + '"><th>' + html(names[team]) + "</th>"
                    + cells + "</tr>")
    return '<table class="game-summary">' + "".join(rows) + "</table>"
