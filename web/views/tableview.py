"""Pure parts of the game table: names, card markup, texts, saved-data checks.

No DOM and no engine here: main.py feeds these functions the engine's JSON
(a seat's view and its events) and puts the returned markup on the page.
Runs under MicroPython in the browser and under CPython in the tests, so it
keeps to what both have (no dataclasses, typing, enum; ``json`` without
indent or sort_keys).

>>> card_words(words, "TH"), card_words(words, "5S")
('ten of hearts', 'five of spades')
>>> seat_names(words, [0, 1, 2])
['You', 'Left', 'Right']
"""

import json

from shell import escape, i18n
from stored import load_tally

COLOURS = {"S": "black", "H": "red", "D": "red", "C": "black"}
COURT_RANKS = ("J", "Q", "K")  # the ranks drawn with a figure (web/cards/)
HUMAN = 0
SAVE_FORMAT = "cribbage-table"
SAVE_VERSION = 1


# --- cards -------------------------------------------------------------------


def card_words(words, code):
    """A card code (``5S``) in words in the page's language, as a screen reader says it."""
    return i18n.card_name(code, words.lang)


def card_label(code):
    """The short face of a card: ``10♥`` (the same in every language)."""
    return i18n.card_label(code)


def card_face(code):
    """Inner markup of a face-up card: rank and suit in the corners, a big pip.

    >>> 'class="pip"' in card_face("QD")
    True
    >>> 'data-court="Q"' in card_face("QD"), "court" in card_face("TD")
    (True, False)
    """
    face = card_label(code)
    rank, suit = face[:-1], face[-1]
    # The face is drawn by CSS from data attributes (style.css), so the card's only
    # text is its name in words (no "A♥" that the name would have to repeat).
    corner = '<span class="corner" data-rank="' + rank + '" data-suit="' + suit + '"></span>'
    # A court card also carries its figure, which kit.css shows only where the card is
    # large enough to make it out (web/cards/).
    figure = ('<span class="court" data-court="' + rank + '"></span>' if rank in COURT_RANKS
              else "")
    return (corner + '<span class="pip" data-suit="' + suit + '">' + figure + "</span>"
            + corner.replace('"corner"', '"corner corner-end"'))


def card_html(words, code, action=None, enabled=True, selected=False, extra="", keys=""):
    """A face-up card; a ``<button>`` named in words when the human can act on it.

    >>> html = card_html(words, "5S", action="pick", enabled=False)
    >>> 'aria-label="five of spades"' in html and "disabled" in html
    True
    >>> 'aria-pressed="false"' in card_html(words, "5S", action="pick")
    True
    >>> card_html(words, "KH").startswith('<span class="card red suit-H"')
    True
    """
    classes = ("card " + COLOURS[code[1]] + " suit-" + code[1] + (" selected" if selected else "")
               + extra)
    label = ' aria-label="' + escape(card_words(words, code)) + '"'
    if action is None:
        return ('<span class="' + classes + '" role="img"' + label + ' data-card="' + code
                + '">' + card_face(code) + "</span>")
    # A card to pick is a toggle (aria-pressed true or false); a card to play may be dragged.
    state = ""
    if action == "pick":
        state = ' aria-pressed="' + ("true" if selected else "false") + '"'
    elif action == "play" and enabled:
        state = ' draggable="true"'
    state += "" if enabled else " disabled"
    return ('<button type="button" class="' + classes + '"' + label + ' data-card="' + code
            + '" data-action="' + action + '"' + state + keys + ">" + card_face(code)
            + "</button>")


def played_html(words, name, entry, pending=False):
    """A card on the pile (``entry``: ``{"card", "calls"}``, tablestate.lay), with who laid
    it and the points it made called beside it ("15 for 2", "go 1"), in the engine's words.
    ``pending``: laid the moment it was chosen, before the engine's reply draws it again.

    >>> html = played_html(words, "Computer", {"card": "5H", "calls": [
    ...     {"kind": "fifteen", "points": 2}, {"kind": "go", "points": 1}]})
    >>> 'title="Computer"' in html, '>15 for 2 · go 1</span></span>' in html
    (True, True)
    >>> played_html(words, "You", {"card": "5H", "calls": []}, pending=True)[:34]
    '<span class="played" data-pending '
    """
    calls = ""
    if entry["calls"]:
        join = i18n.text("tally.join", words.lang)
        calls = ('<span class="call">' + escape(join.join(
            i18n.tally_item(call, words.lang) for call in entry["calls"])) + "</span>")
    return ('<span class="played"' + (" data-pending" if pending else "") + ' title="'
            + escape(name) + '">' + card_html(words, entry["card"]) + calls + "</span>")


def backs_html(count):
    """``count`` face-down cards.

    >>> backs_html(2).count("card back")
    2
    """
    return "".join('<span class="card back" aria-hidden="true"></span>' for _ in range(count))


# --- players -------------------------------------------------------------------


def seat_names(words, team_of):
    """Names of the seats, clockwise from the human (``team_of``: each seat's score).

    >>> seat_names(words, [0, 1]), seat_names(words, [0, 1, 0, 1])
    (['You', 'Computer'], ['You', 'Left', 'Partner', 'Right'])
    """
    if len(team_of) == 2:
        return [words.t("seat.human"), words.t("seat.computer")]
    names = [words.t("seat.human")]
    for seat in range(1, len(team_of)):
        if team_of[seat] == team_of[HUMAN]:
            names.append(words.t("seat.partner"))
        else:
            names.append(words.t("seat.left") if seat == 1 else words.t("seat.right"))
    return names


def player_html(words, player, target):
    """A player's panel on the felt: name, level, the score in large figures, the
    points to go, the dealer's button, and ``turn`` (the player to act) as a class.

    ``player``: ``name``, ``level`` ("" for a person), ``team``, ``points``,
    ``dealer``, ``turn``, ``keyed`` (the panel carries the automation contract's
    ``data-score``: one panel a score, seat order from the viewer), ``extra``
    (markup after the name: a Go bubble).

    >>> html = player_html(words, {"name": "Computer", "level": "Standard", "team": 1,
    ...     "points": 121, "dealer": True, "turn": False, "keyed": True, "extra": ""}, 121)
    >>> 'data-score="121">121</b>' in html and 'class="dealer-mark"' in html
    True
    >>> "to go" in player_html(words, {"name": "You", "level": "", "team": 0, "points": 100,
    ...     "dealer": False, "turn": True, "keyed": False, "extra": ""}, 121)
    True
    """
    points = player["points"]
    team = str(player["team"])
    key = ' data-score="' + str(points) + '"' if player["keyed"] else ""
    level = player["level"]
    return ('<div class="player team-' + team + (" turn" if player["turn"] else "")
            + '" data-team="' + team + '">'
            + '<span class="seat-name"><span class="who">' + escape(player["name"]) + "</span>"
            + (" <small>" + escape(level) + "</small>" if level else "")
            + player["extra"] + "</span>"
            + ('<span class="dealer-mark" title="' + escape(words.t("dealer.title")) + '">'
               + escape(words.t("dealer.mark")) + "</span>" if player["dealer"] else "")
            + '<span class="player-score" data-team="' + team + '"><b' + key + ">"
            + str(points) + '</b><small class="to-go">'
            + escape(to_go_text(words, points, target)) + "</small></span></div>")


def to_go_text(words, points, target):
    """The points a score still needs to reach the game hole, in words ("" once there).

    >>> to_go_text(words, 100, 121), to_go_text(words, 121, 121)
    ('21 to go', '')
    """
    togo = target - points
    return words.t("seat.to_go", {"points": togo}) if togo > 0 else ""


def score_names(words, names, teams):
    """Names of the scores: the players', or the two teams' when partners share a score.

    >>> score_names(words, ["You", "Left", "Partner", "Right"], 2)
    ['You & Partner', 'Opponents']
    """
    if teams < len(names):
        return [words.t("team.us"), words.t("team.them")]
    return names


def level_name(words, level):
    """A computer's level (``standard``, ``mixed``) in words."""
    return words.t("level." + level)


def computer_level(settings, seat):
    """The level of the computer in ``seat`` (the dialog sets one per computer)."""
    levels = settings.get("levels") or []
    if 0 < seat and seat - 1 < len(levels):  # seat 0 (a computer too) plays the first level
        return levels[seat - 1]
    return settings.get("level", "standard")


# --- texts -----------------------------------------------------------------------


def event_text(words, event, names, you=HUMAN):
    """One line of the game log for an engine event (seat numbers become ``names``;
    the lines of ``you`` in the second person where the language has one; None when
    several people share the device).

    >>> event_text(words, {"kind": "play", "seat": 1, "cards": ["5S"], "count": 15, "points": 2,
    ...             "items": [{"kind": "fifteen", "points": 2, "cards": []}]},
    ...            ["You", "Computer"])
    'Computer plays 5♠ — 15 — fifteen 2'
    >>> event_text(words, {"kind": "cut", "seat": 0, "cards": ["TH"]}, ["You", "Computer"])
    'You cut 10♥'
    """
    return i18n.event_text(event, words.lang, names, you)


def outcome_text(words, outcome, score_names, my_team, partners=False):
    """The game-over headline (``score_names`` name each score, ``my_team`` is the
    human's, ``partners``: the human shares a score with a partner).

    >>> outcome_text(words, {"winner": 0, "kind": "skunk", "game_points": 2, "scores": [121, 80]},
    ...              ["You", "Computer"], 0)
    'You win with a skunk! (2 game points)'
    >>> outcome_text(words, {"winner": 1, "kind": "win", "game_points": 1, "scores": [90, 121]},
    ...              ["You", "Computer"], 0)
    'Computer wins! (1 game point)'

    A team's win takes the plural, whoever is at the device:

    >>> teams = ["You & Partner", "Opponents"]
    >>> outcome = {"winner": 1, "kind": "win", "game_points": 1, "scores": [90, 121]}
    >>> [outcome_text(words, outcome, teams, mine, True) for mine in (0, None)]
    ['Opponents win! (1 game point)', 'Opponents win! (1 game point)']
    """
    winner = outcome["winner"]
    if partners and winner == my_team:
        key = "outcome.us"
    elif partners:  # the other team, or a team named by its people
        key = "outcome.them" if my_team is not None else "outcome.team"
    else:
        key = "outcome.mine" if winner == my_team else "outcome.other"
    points = outcome["game_points"]
    return words.t(key, {"who": score_names[winner],
                   "how": words.t("outcome.how." + outcome["kind"].replace(" ", "_")),
                   "points": words.t("game_points.one" if points == 1 else "game_points",
                               {"points": points})})


def tally_text(words, tally, players, teams):
    """The match tally in game points, named as the table names the sides.

    >>> tally_text(words, {"won": 0, "lost": 1}, 2, 2)
    'Match: You 0, Computer 1 (game points)'
    >>> tally_text(words, {"won": 3, "lost": 2}, 4, 2)
    'Match: You & Partner 3, Opponents 2 (game points)'
    >>> tally_text(words, {"won": 1, "lost": 0}, 3, 3)
    'Match: You 1, the computers 0 (game points)'
    """
    if teams < players:
        us, them = words.t("team.us"), words.t("team.them")
    else:
        us = words.t("seat.human")
        them = words.t("seat.computer") if players == 2 else words.t("tally.computers")
    return words.t("tally", {"us": us, "won": tally["won"], "them": them,
                             "lost": tally["lost"]})


def claim_lines(words, events, names, you=HUMAN):
    """The claims of manual counting in words: who claimed what, and once settled what
    it was worth (the breakdown said aloud) and any muggins. Returns ``(deal, lines)``:
    the deal of the last claim and its show's claims (or the last two claims in the play).

    >>> events = [{"kind": "claim", "seat": 1, "count": 14, "cards": ["5S", "5H"], "deal": 1},
    ...     {"kind": "hand", "seat": 1, "points": 12, "cards": ["5S", "5H"], "deal": 1,
    ...      "items": [{"kind": "pair", "points": 2, "cards": ["5S", "5H"]}]},
    ...     {"kind": "muggins", "seat": 0, "points": 2, "count": 14, "miscount": "over",
    ...      "deal": 1}]
    >>> claim_lines(words, events[:1], ["You", "Computer"])
    (1, ['Computer claims 14 for their hand.'])
    >>> claim_lines(words, events, ["You", "Computer"])[1][1:]
    ['Worth 2: a pair is two', 'Muggins! You took 2 (over-claim: 14 claimed)']
    """
    claims = [index for index, event in enumerate(events) if event["kind"] == "claim"]
    if not claims:
        return None, []
    deal = events[claims[-1]]["deal"]
    in_show = len(events[claims[-1]]["cards"]) >= 4  # a hand or crib, not one card laid
    chosen = [index for index in claims if events[index]["deal"] == deal
              and (len(events[index]["cards"]) >= 4) == in_show]
    if not in_show:
        chosen = chosen[-2:]
    lines = []
    for index in chosen:
        lines.extend(_claim_lines(words, events, index, names, you))
    return deal, lines


def _settled_by(events, start, kinds):
    """The event that pegged the claim at ``start`` (a hand, crib or peg), or None."""
    seat = events[start]["seat"]
    for event in events[start + 1:]:
        if event["kind"] in ("claim", "deal"):
            return None
        if event["kind"] in kinds and event["seat"] == seat:
            return event
    return None


def _claim_lines(words, events, start, names, you):
    claim = events[start]
    seat = claim["seat"]
    settled = _settled_by(events, start, ("hand", "crib", "peg"))
    mugged = None
    for event in events[start + 1:]:
        if event["kind"] in ("claim", "deal"):
            break
        if event["kind"] == "muggins":
            mugged = event
    what = "claim." + (settled["kind"] if settled is not None else "hand")
    mine = ".mine" if seat == you else ""
    lines = [words.t(what + mine, {"who": names[seat], "count": claim["count"]})]
    if settled is not None:
        items = settled.get("items") or []
        worth = sum(item["points"] for item in items)
        lines.append(words.t("claim.worth", {"worth": worth,
                                             "said": i18n.cadence(items, words.lang)}))
    if mugged is not None:
        lines.append(i18n.event_text(mugged, words.lang, names, you))
    return lines


def final_scores(words, scores, score_names):
    """``You 121, Computer 80``: the final scores, as pegged (the winner's is the target).

    >>> final_scores(words, [121, 80], ["You", "Computer"])
    'You 121, Computer 80'
    """
    return words.joined([words.t("final.score", {"name": name, "score": score})
        for name, score in zip(score_names, scores)])


# --- saved data --------------------------------------------------------------------


ENVELOPE_KEYS = ("format", "version", "settings", "game")


class SaveError(ValueError):
    """A stored save the page cannot load; ``newer``: it looks written by a newer
    version of the site (a version above ours, or keys we do not know), so a newer
    copy of the site may open it."""

    def __init__(self, message, newer=False):
        super().__init__(message)
        self.newer = newer


def save_envelope(settings, game_text):
    """What the page keeps in localStorage after every move."""
    return json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION,
                       "settings": settings, "game": game_text})


def read_envelope(text):
    """``(settings, game_text)`` from a stored envelope; raises :class:`SaveError` (a
    ValueError) if unusable. Every envelope written so far is version 1; what older
    tables kept in the settings is brought up to date by ``shell.settings_from_saved``
    and ``handoffview.saved_seats`` (tests/fixtures/saves/ holds their saves).

    >>> read_envelope(save_envelope({"level": "easy"}, "{}"))
    ({'level': 'easy'}, '{}')
    >>> read_envelope("{oops")
    Traceback (most recent call last):
    ...
    tableview.SaveError: the saved game is not readable
    >>> newer = '{"format": "cribbage-table", "version": 2, "settings": {}, "game": ""}'
    >>> try:
    ...     read_envelope(newer)
    ... except SaveError as error:
    ...     print(error, error.newer)
    the saved game is in format version 2; this version of the site reads 1 True
    """
    try:
        data = json.loads(text)
    except Exception:  # MicroPython raises ValueError, CPython JSONDecodeError
        raise SaveError("the saved game is not readable") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError("the saved game is not one of ours")
    version = data.get("version")
    if type(version) is int and version > SAVE_VERSION:
        raise SaveError("the saved game is in format version " + str(version)
                        + "; this version of the site reads " + str(SAVE_VERSION), True)
    if type(version) is not int or version != SAVE_VERSION:
        raise SaveError("the saved game's version is damaged")
    unknown = sorted(str(key)[:40] for key in data if key not in ENVELOPE_KEYS)
    if unknown:
        raise SaveError("the saved game has parts this version does not know: "
                        + ", ".join(unknown), True)
    if not isinstance(data.get("game"), str) or not isinstance(data.get("settings"), dict):
        raise SaveError("the saved game is damaged")
    return data["settings"], data["game"]


def read_tally(text):
    """The match tally (game points won by each side) from storage; bad data -> zeros.

    >>> read_tally('{"won": 3, "lost": 1}'), read_tally("junk")
    ({'won': 3, 'lost': 1}, {'won': 0, 'lost': 0})
    """
    return load_tally(text)[0]


def html(text):
    """Escape text for HTML (shell.escape, re-exported for main.py)."""
    return escape(text)


def board_options(words, target, names, lines, pegs=None):
    """What the peg board is drawn from (web/views/pegboard.mjs ``boardSvg``, the one
    board of the table, the replay and the widgets): a lane per name of ``names``, the
    board's name and the skunk lines' (``lines``, the engine's) in the page's language,
    and each lane's [front, back] pegs (at the start if None).

    >>> options = board_options(words, 61, ["You", "Computer"], [31], [[5, 0], [3, -1]])
    >>> options["label"], options["skunkTitles"], options["pegs"]
    ('Peg board to 61', ['Skunk line: 31'], [[5, 0], [3, -1]])
    """
    options = {"target": target, "names": list(names),
               "label": words.t("board", {"target": target}), "skunkLines": list(lines),
               "skunkTitles": [words.t("board.skunk", {"score": line}) for line in lines]}
    if pegs:
        options["pegs"] = [list(lane) for lane in pegs]
    return options
