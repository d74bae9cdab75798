"""Pure logic for the player's statistics kept in localStorage (no browser).

Runs under MicroPython on the page and under CPython in the tests (the subset
both share, see docs/architecture.md). Stored data is checked on every read:
anything malformed starts again from zero. Version 1 grew two optional keys,
so statistics stored before them still load: ``results`` (each finished game,
oldest first: won, your score, the best other score, the level; the latest
RESULTS_KEPT) and ``hands`` (how many of your hands scored 0..29); and later
``accuracy`` (each reviewed finished game's accuracy, oldest first, the
latest RESULTS_KEPT: ``{"game", "accuracy"}``) and ``counted`` (the ids of the
latest RESULTS_KEPT finished games counted, so a game finished with the site open
in several tabs counts once; a malformed list is dropped, the rest kept).
"""

import json  # noqa: F401  (the doctests write statistics with it)

from charts import accuracy_chart, hands_chart, results_chart
from stored import parse
from tableview import card_html, html, level_name

STATS_VERSION = 1
MIXED = "mixed"  # games against computers of different levels
RESULTS_KEPT = 200  # finished games remembered for the results chart


def _cards(words, codes):
    return "".join(card_html(words, code) for code in codes)



def new_stats():
    """Statistics with nothing counted yet."""
    return {"version": STATS_VERSION, "levels": {},
            "skunks": [0, 0], "deals": 0, "hand": 0, "pegging": 0, "cribs": 0, "crib": 0,
            "best": None, "last": {"game": "", "deal": 0, "over": False},
            "results": [], "hands": [0] * 30, "accuracy": [], "counted": []}


def _count(value):
    return type(value) is int and 0 <= value < 10 ** 9


def check_stats(data):
    """Statistics from their stored JSON value, older ones brought up to date (the keys
    version 1 grew start empty); ValueError if they are not ours.

    >>> check_stats(new_stats()) == new_stats()
    True
    >>> check_stats({"version": 1, "deals": -4})
    Traceback (most recent call last):
    ...
    ValueError: not statistics of this version
    """
    if not _valid(data) or not _valid_extras(data):
        raise ValueError("not statistics of this version")
    data.setdefault("results", [])
    data.setdefault("hands", [0] * 30)
    data.setdefault("accuracy", [])
    counted = data.get("counted", [])
    if (not isinstance(counted, list) or len(counted) > RESULTS_KEPT
            or not all(isinstance(game, str) for game in counted)):
        counted = []  # only the guard against counting a game twice is lost
    data["counted"] = counted
    return data


def load_stats(text):
    """``(statistics, problem)`` from localStorage text (stored.py's loaders): zeros when
    absent; when malformed, zeros and why.

    >>> load_stats('{"version": 2}')[1]
    'statistics: not statistics of this version'
    """
    if not text:
        return new_stats(), None
    try:
        return check_stats(parse(text)), None
    except ValueError as error:
        return new_stats(), "statistics: " + str(error)


def read_stats(text):
    """Statistics from localStorage text; anything malformed starts again from zero.

    >>> read_stats('{"version": 1, "deals": -4}')["deals"]
    0
    >>> stats = new_stats(); stats["deals"] = 3
    >>> read_stats(json.dumps(stats))["deals"]
    3
    >>> read_stats("not json") == new_stats()
    True
    """
    return load_stats(text)[0]


def _valid_extras(data):
    """The keys version 1 grew (absent in older statistics: then they start empty).

    >>> old = new_stats(); del old["results"], old["hands"]; old["deals"] = 2
    >>> stats = read_stats(json.dumps(old))
    >>> stats["deals"], stats["results"], sum(stats["hands"])
    (2, [], 0)
    >>> old["hands"] = [1, 2]
    >>> read_stats(json.dumps(old))["deals"]
    0
    """
    hands, results = data.get("hands", [0] * 30), data.get("results", [])
    if not isinstance(hands, list) or len(hands) != 30 or not all(_count(n) for n in hands):
        return False
    if not isinstance(results, list) or len(results) > RESULTS_KEPT:
        return False
    for game in results:
        if (not isinstance(game, dict) or game.get("won") not in (True, False)
                or not _count(game.get("me")) or not _count(game.get("op"))
                or not isinstance(game.get("level"), str)):
            return False
    return _valid_accuracy(data.get("accuracy", []))


def _valid_accuracy(games):
    """The reviewed games' accuracy: a list of ``{"game": id, "accuracy": 0..100}``.

    >>> _valid_accuracy([{"game": "g1", "accuracy": 92.5}]), _valid_accuracy([{"game": 1}])
    (True, False)
    """
    if not isinstance(games, list) or len(games) > RESULTS_KEPT:
        return False
    for game in games:
        if not isinstance(game, dict) or not isinstance(game.get("game"), str):
            return False
        value = game.get("accuracy")
        if type(value) not in (int, float) or not 0 <= value <= 100:
            return False
    return True


def note_accuracy(stats, game, accuracy):
    """Keep a reviewed finished game's accuracy (a game reviewed again keeps its place).

    >>> stats = new_stats()
    >>> note_accuracy(stats, "g1", 80.0); note_accuracy(stats, "g2", 90.0)
    >>> note_accuracy(stats, "g1", 81.5); stats["accuracy"]
    [{'game': 'g1', 'accuracy': 81.5}, {'game': 'g2', 'accuracy': 90.0}]
    """
    games = stats.setdefault("accuracy", [])
    for entry in games:
        if entry["game"] == game:
            entry["accuracy"] = accuracy
            return
    games.append({"game": game, "accuracy": accuracy})
    stats["accuracy"] = games[-RESULTS_KEPT:]


def _valid(data):
    if not isinstance(data, dict) or data.get("version") != STATS_VERSION:
        return False
    for key in ("deals", "hand", "pegging", "cribs", "crib"):
        if not _count(data.get(key)):
            return False
    levels, skunks = data.get("levels"), data.get("skunks")
    if not isinstance(levels, dict) or not all(_level(level) for level in levels):
        return False
    for pair in list(levels.values()) + [skunks]:
        if not isinstance(pair, list) or len(pair) != 2 or not all(_count(n) for n in pair):
            return False
    last = data.get("last")
    if (not isinstance(last, dict) or not isinstance(last.get("game"), str)
            or not _count(last.get("deal")) or last.get("over") not in (True, False)):
        return False
    best = data.get("best")
    if best is None:
        return True
    return (isinstance(best, dict) and _count(best.get("points")) and best["points"] <= 29
            and isinstance(best.get("cards"), list) and 3 <= len(best["cards"]) <= 7
            and all(_card(card) for card in best["cards"]) and _card(best.get("starter")))


def _level(name):
    """A level's name as the engine writes them (it lands in markup and attributes).

    >>> _level("expert"), _level('"><img>'), _level("")
    (True, False, False)
    """
    return (isinstance(name, str) and 0 < len(name) <= 30
            and all(char in "abcdefghijklmnopqrstuvwxyz0123456789_-" for char in name))


def _card(code):
    """A card's code (``5S``).

    >>> _card("TH"), _card("1H"), _card(["5S"])
    (True, False, False)
    """
    return (isinstance(code, str) and len(code) == 2 and code[0] in "A23456789TJQK"
            and code[1] in "SHDC")


def level_key(levels):
    """The level a game counts under: the computers' level, or 'mixed'.

    >>> level_key(["expert"]), level_key(["easy", "expert"]), level_key([])
    ('expert', 'mixed', 'mixed')
    """
    if levels and all(level == levels[0] for level in levels):
        return levels[0]
    return MIXED


def note_best_hand(stats, events, seat):
    """Keep the best hand (``seat``'s shown hands among ``events``); True if it changed."""
    starter, changed = None, False
    for event in events:
        if event["kind"] == "starter":
            starter = event["cards"][0]
        if event["kind"] == "hand" and event.get("seat") == seat and starter:
            points = event["worth"]
            best = stats["best"]
            if best is None or points > best["points"]:
                stats["best"] = {"points": points, "cards": list(event["cards"]),
                                 "starter": starter}
                changed = True
    return changed


def add_deal(stats, game, deal, events, seat):
    """Count one finished deal of ``seat`` (once per game and deal); True if counted.

    >>> stats = new_stats()
    >>> events = [{"kind": "deal", "seat": 0, "deal": 1}, {"kind": "play", "seat": 0,
    ...     "points": 2, "source": "pegging", "deal": 1}, {"kind": "starter", "seat": 1,
    ...     "cards": ["5H"], "deal": 1}, {"kind": "hand", "seat": 0, "points": 12,
    ...     "worth": 12, "source": "hand", "cards": ["5S", "5D", "TH", "JC"], "deal": 1},
    ...     {"kind": "crib", "seat": 0, "points": 4, "source": "crib", "deal": 1}]
    >>> add_deal(stats, "g1", 1, events, 0), add_deal(stats, "g1", 1, events, 0)
    (True, False)
    >>> stats["deals"], stats["hand"], stats["crib"], stats["cribs"], stats["pegging"]
    (1, 12, 4, 1, 2)
    >>> stats["best"]["points"], stats["best"]["starter"]
    (12, '5H')
    """
    last = stats["last"]
    if last["game"] == game and deal <= last["deal"]:
        return False
    mine = [event for event in events if event.get("deal") == deal]
    for event in mine:
        if event.get("seat") != seat:
            continue
        source, points = event.get("source"), event.get("points") or 0
        if source == "hand":
            stats["hand"] += points
            worth = event["worth"]
            if 0 <= worth < 30:
                stats["hands"][worth] += 1
        elif source == "crib":
            stats["crib"] += points
        elif source == "pegging":
            stats["pegging"] += points
    dealer = [event.get("seat") for event in mine if event["kind"] == "deal"]
    if dealer and dealer[0] == seat:
        stats["cribs"] += 1
    stats["deals"] += 1
    note_best_hand(stats, mine, seat)
    stats["last"] = {"game": game, "deal": deal, "over": last["game"] == game and last["over"]}
    return True


def add_game(stats, game, level, outcome, team):
    """Count a finished game (once per game); True if counted.

    >>> stats = new_stats()
    >>> outcome = {"winner": 0, "kind": "skunk", "game_points": 2}
    >>> add_game(stats, "g", "easy", outcome, 0), add_game(stats, "g", "easy", outcome, 0)
    (True, False)
    >>> stats["levels"]["easy"], stats["skunks"]
    ([1, 0], [1, 0])

    With the final scores (as pegged: the winner's is the target), the game is kept for
    the results chart:

    >>> outcome = {"winner": 1, "kind": "win", "game_points": 1, "scores": [100, 121, 95]}
    >>> add_game(stats, "g2", "easy", outcome, 0), stats["results"]
    (True, [{'won': False, 'me': 100, 'op': 121, 'level': 'easy'}])

    A game is counted once even when another was counted after it (two tabs):

    >>> add_game(stats, "g", "easy", outcome, 0), stats["counted"]
    (False, ['g', 'g2'])
    """
    last = stats["last"]
    counted = stats.get("counted", [])
    if game in counted or (last["game"] == game and last["over"]):
        return False
    stats["counted"] = (counted + [game])[-RESULTS_KEPT:]
    won = outcome["winner"] == team
    stats["levels"].setdefault(level, [0, 0])[0 if won else 1] += 1
    if outcome["kind"] not in ("win", "resign"):  # a resignation is no skunk
        stats["skunks"][0 if won else 1] += 1
    scores = outcome.get("scores")
    if scores and 0 <= team < len(scores):
        others = [score for other, score in enumerate(scores) if other != team]
        stats["results"].append({"won": won, "me": scores[team], "op": max(others + [0]),
                                 "level": level})
        stats["results"] = stats["results"][-RESULTS_KEPT:]
    deal = last["deal"] if last["game"] == game else 0
    stats["last"] = {"game": game, "deal": deal, "over": True}
    return True


def _average(total, count):
    return "–" if not count else "%.1f" % (total / count)


def stats_html(words, stats, levels, distribution=None):
    """The Statistics panel's content: two tables side by side where there is room (the
    games won and lost, then your points), then the charts.

    ``levels``: the levels on offer (the engine's hello), in their order;
    ``distribution``: the engine's ``hand_distribution`` (None until it came).

    >>> text = stats_html(words, new_stats(), ["easy", "standard"])
    >>> "<th>Standard</th>" in text and "none yet" in text
    True
    """
    return ('<div class="stats-tables">' + _games_table(words, stats, levels)
            + _points_table(words, stats) + '</div><div class="stats-charts">'
            + results_chart(words, stats["results"])
            + hands_chart(words, stats["hands"], distribution["hand"] if distribution else None)
            + accuracy_chart(words, [game["accuracy"] for game in stats.get("accuracy", [])])
            + "</div>")


def _row(attributes, label, cells):
    return ("<tr " + attributes + "><th>" + html(label) + "</th>"
            + "".join("<td>" + str(cell) + "</td>" for cell in cells) + "</tr>")


def _games_table(words, stats, levels):
    """Games won and lost per level (the levels on offer, any other played, mixed), and
    the skunks in the same two columns: given in games won, taken in games lost."""
    rows = []
    played = [level for level in stats["levels"] if level not in levels and level != MIXED]
    for level in list(levels) + played + [MIXED]:
        won, lost = stats["levels"].get(level, [0, 0])
        if won or lost or level in levels:
            rows.append(_row('data-level="' + level + '" data-won="' + str(won) + '" data-lost="'
                             + str(lost) + '"', level_name(words, level), (won, lost)))
    given, taken = stats["skunks"]
    head = "".join('<th scope="col">' + html(words.t("stats." + key)) + "</th>"
                   for key in ("level", "won", "lost"))
    return ('<table class="stats-games"><caption>' + html(words.t("stats.games"))
            + "</caption><thead><tr>" + head + "</tr></thead><tbody>" + "".join(rows)
            + '</tbody><tbody class="stats-more">'
            + _row('data-stat="skunks" data-given="' + str(given) + '" data-taken="'
                   + str(taken) + '"', words.t("stats.skunks"), (given, taken))
            + "</tbody></table>")


def _points_table(words, stats):
    """Your average points (hand and pegging a deal, crib a crib of yours) and the deals
    they are counted over; then, across the panel, your best hand."""
    deals = stats["deals"]
    averages = (("hand", _average(stats["hand"], deals)),
                ("pegging", _average(stats["pegging"], deals)),
                ("crib", _average(stats["crib"], stats["cribs"])))
    best = stats["best"]
    best_text = html(words.t("stats.none"))
    if best:
        best_text = words.markup("stats.best_hand", {
            "points": best["points"], "cards": _cards(words, best["cards"]),
            "starter": card_html(words, best["starter"])})
    return ('<table class="stats-points"><caption>' + html(words.t("stats.points"))
            + "</caption><tbody>"
            + "".join(_row('data-stat="' + key + '"', words.t("stats." + key), (value,))
                      for key, value in averages)
            + '</tbody><tbody class="stats-more">'
            + _row('data-stat="deals"', words.t("stats.deals"), (deals,))
            + '</tbody></table><table class="stats-best"><tr data-stat="best"><th>'
            + html(words.t("stats.best")) + "</th><td>" + best_text + "</td></tr></table>")


# --- take-backs and resignations (the comforts of the table) ------------------------


def note_comforts(stats, outcome, undos):
    """Count a finished game's resignation and take-backs (call once per game).

    >>> stats = new_stats(); note_comforts(stats, {"kind": "resign"}, 2)
    >>> stats["resigned"], stats["undos"]
    (1, 1)
    """
    if outcome.get("kind") == "resign":
        stats["resigned"] = _safe(stats.get("resigned")) + 1
    if undos:
        stats["undos"] = _safe(stats.get("undos")) + 1


def _safe(value):
    return value if _count(value) else 0


def comforts_html(words, stats):
    """Lines under the statistics: games resigned and games with moves taken back.

    >>> comforts_html(words, new_stats())
    ''
    """
    lines = []
    for key in ("resigned", "undos"):
        count = _safe(stats.get(key))
        if count:
            lines.append('<p data-stat="' + key + '">' + html(words.t("stats." + key,
                                                                       {"count": count}))
                         + "</p>")
    return "".join(lines)
