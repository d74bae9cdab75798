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

from pegboard import escape
from shell import i18n

COLOURS = {"S": "black", "H": "red", "D": "red", "C": "black"}
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
    """
    face = card_label(code)
    rank, suit = face[:-1], face[-1]
    corner = '<span class="corner">' + rank + "<br>" + suit + "</span>"
    return (corner + '<span class="pip" aria-hidden="true">' + suit + "</span>"
            + corner.replace('"corner"', '"corner corner-end"'))


def card_html(words, code, action=None, enabled=True, selected=False, extra=""):
    """A face-up card; a ``<button>`` named in words when the human can act on it.

    >>> html = card_html(words, "5S", action="pick", enabled=False)
    >>> 'aria-label="five of spades"' in html and "disabled" in html
    True
    >>> card_html(words, "KH").startswith('<span class="card red"')
    True
    """
    classes = "card " + COLOURS[code[1]] + (" selected" if selected else "") + extra
    label = ' aria-label="' + escape(card_words(words, code)) + '"'
    if action is None:
        return ('<span class="' + classes + '" role="img"' + label + ' data-card="' + code
                + '">' + card_face(code) + "</span>")
    state = (' aria-pressed="true"' if selected else "") + ("" if enabled else " disabled")
    return ('<button type="button" class="' + classes + '"' + label + ' data-card="' + code
            + '" data-action="' + action + '"' + state + ">" + card_face(code) + "</button>")


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
    if seat - 1 < len(levels):
        return levels[seat - 1]
    return settings.get("level", "standard")


# --- texts -----------------------------------------------------------------------


def event_text(words, event, names):
    """One line of the game log for an engine event (seat numbers become ``names``;
    the human's own lines in the second person where the language has one).

    >>> event_text(words, {"kind": "play", "seat": 1, "cards": ["5S"], "count": 15, "points": 2,
    ...             "items": [{"kind": "fifteen", "points": 2, "cards": []}]},
    ...            ["You", "Computer"])
    'Computer plays 5♠ — 15 — fifteen 2'
    >>> event_text(words, {"kind": "cut", "seat": 0, "cards": ["TH"]}, ["You", "Computer"])
    'You cut 10♥'
    """
    return i18n.event_text(event, words.lang, names, HUMAN)


def outcome_text(words, outcome, score_names, my_team, partners=False):
    """The game-over headline (``score_names`` name each score, ``my_team`` is the
    human's, ``partners``: the human shares a score with a partner).

    >>> outcome_text(words, {"winner": 0, "kind": "skunk", "game_points": 2, "scores": [121, 80]},
    ...              ["You", "Computer"], 0)
    'You win with a skunk! (2 game points)'
    >>> outcome_text(words, {"winner": 1, "kind": "win", "game_points": 1, "scores": [90, 121]},
    ...              ["You", "Computer"], 0)
    'Computer wins! (1 game point)'
    """
    winner = outcome["winner"]
    if winner != my_team:
        key = "outcome.other"
    else:
        key = "outcome.us" if partners else "outcome.mine"
    points = outcome["game_points"]
    return words.t(key, {"who": score_names[winner],
                   "how": words.t("outcome.how." + outcome["kind"].replace(" ", "_")),
                   "points": words.t("game_points.one" if points == 1 else "game_points",
                               {"points": points})})


def final_scores(words, scores, score_names):
    """``You 121, Computer 80``."""
    return words.joined([words.t("final.score", {"name": name, "score": score})
                         for name, score in zip(score_names, scores)])


# --- saved data --------------------------------------------------------------------


def save_envelope(settings, game_text):
    """What the page keeps in localStorage after every move."""
    return json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION,
                       "settings": settings, "game": game_text})


def read_envelope(text):
    """``(settings, game_text)`` from a stored envelope; raises ValueError if unusable.

    >>> read_envelope(save_envelope({"level": "easy"}, "{}"))
    ({'level': 'easy'}, '{}')
    >>> read_envelope("{oops")
    Traceback (most recent call last):
    ...
    ValueError: the saved game is not readable
    """
    try:
        data = json.loads(text)
    except Exception:  # MicroPython raises ValueError, CPython JSONDecodeError
        raise ValueError("the saved game is not readable") from None
    if (not isinstance(data, dict) or data.get("format") != SAVE_FORMAT
            or data.get("version") != SAVE_VERSION or not isinstance(data.get("game"), str)
            or not isinstance(data.get("settings"), dict)):
        raise ValueError("the saved game is not one of ours")
    return data["settings"], data["game"]


def read_tally(text):
    """The match tally (game points won by each side) from storage; bad data -> zeros.

    >>> read_tally('{"won": 3, "lost": 1}'), read_tally("junk")
    ({'won': 3, 'lost': 1}, {'won': 0, 'lost': 0})
    """
    try:
        data = json.loads(text or "{}")
        won, lost = int(data.get("won", 0)), int(data.get("lost", 0))
        if won < 0 or lost < 0 or won > 10 ** 6 or lost > 10 ** 6:
            raise ValueError
        return {"won": won, "lost": lost}
    except Exception:
        return {"won": 0, "lost": 0}


def html(text):
    """Escape text for HTML (re-exported from pegboard for main.py)."""
    return escape(text)
